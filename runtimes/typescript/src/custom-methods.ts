// Custom methods: a request or notification the spec does not define (a vendor method, or one a newer
// draft adds before it is pinned), served beside a version's own methods with the same rules:
//
// - declared with its params and result schemas, zod (`z.object(...)`) or JSON Schema
//   (`fromJsonSchema({...})`, converted by zod's `z.fromJSONSchema`); with zod the handler is typed;
// - params validated before the handler runs (-32602 with `error.data.paths`), results normalized as
//   the version's own (`object` shape: undefined fields and a non-object `_meta` dropped; `empty`:
//   only `_meta`; `resultType` from the version's `customResultTypes`, the model's data, the first
//   being the default) and validated (-32603);
// - gated like core methods: the router serves it only for the versions that declare it, through the
//   same envelope, `_meta` and cancellation rules;
// - refused at construction when its method is one of the version's own (core or extension) methods.
//
// `withCustomMethods(dispatcher, custom, version)` puts them in front of a version's dispatcher; the
// router does it for each served version's `custom` (see ./router.ts).
import * as z from "zod";
import { createDispatcher, type Dispatcher, type DispatcherOptions, type NotificationContext, type RequestContext, type SchemaLike } from "./dispatcher.js";
import { readEnvelope } from "./jsonrpc.js";
import { emptyNormalizer, objectNormalizer } from "./normalize.js";

type MaybePromise<T> = T | Promise<T>;
/** The output type of a zod schema, `unknown` for any other schema (a JSON Schema's). */
type Output<S> = S extends z.ZodType ? z.output<S> : unknown;

export interface CustomRequest<P = never, R extends object = object> {
  readonly kind: "request";
  /** The params schema; absent: the request takes no params it checks. */
  readonly params?: SchemaLike;
  /** The result schema; absent: any object. */
  readonly result?: SchemaLike;
  /** Whether `params` must be present (default: true when `params` is given). */
  readonly paramsRequired?: boolean;
  /** `empty`: the result carries only `_meta` (default `object`). */
  readonly shape?: "object" | "empty";
  readonly handler: (params: P, context: RequestContext) => MaybePromise<R | void>;
}

export interface CustomNotification<P = never> {
  readonly kind: "notification";
  readonly params?: SchemaLike;
  readonly handler: (params: P, context: NotificationContext) => MaybePromise<void>;
}

/** Custom methods by method name. */
export type CustomMethods = Readonly<Record<string, CustomRequest<never, object> | CustomNotification<never>>>;

/** A custom request; with zod schemas, its handler's params and result are typed from them. */
export function customRequest<PS extends SchemaLike | undefined = undefined, RS extends SchemaLike | undefined = undefined>(definition: {
  params?: PS;
  result?: RS;
  paramsRequired?: boolean;
  shape?: "object" | "empty";
  handler: (params: Output<PS>, context: RequestContext) => MaybePromise<(RS extends z.ZodType ? z.input<RS> & object : object) | void>;
}): CustomRequest<never, object> {
  return { kind: "request", ...definition } as unknown as CustomRequest<never, object>;
}

/** A custom notification; with a zod schema, its handler's params are typed from it. */
export function customNotification<PS extends SchemaLike | undefined = undefined>(definition: {
  params?: PS;
  handler: (params: Output<PS>, context: NotificationContext) => MaybePromise<void>;
}): CustomNotification<never> {
  return { kind: "notification", ...definition } as unknown as CustomNotification<never>;
}

/** A JSON Schema (draft 2020-12 or draft-07) as a schema custom methods can validate with. */
export function fromJsonSchema(schema: Record<string, unknown> | boolean): SchemaLike {
  return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
}

/** What `withCustomMethods` needs to know of the version: a generated version module gives all of it. */
export interface CustomVersion {
  readonly protocolVersion: string;
  /** The `resultType` values a custom request's result may carry, the default first; null in the legacy era (the version module's `customResultTypes`). */
  readonly customResultTypes: readonly string[] | null;
  /** The version's own requests and notifications (its `requests`/`notifications` catalogues), and any other taken method. */
  readonly requests?: Readonly<Record<string, unknown>>;
  readonly notifications?: Readonly<Record<string, unknown>>;
  readonly taken?: Iterable<string>;
}

/** The custom methods `custom` declares that the version already has, or nothing. */
export function collisions(custom: CustomMethods, version: CustomVersion): string[] {
  const taken = new Set([...Object.keys(version.requests ?? {}), ...Object.keys(version.notifications ?? {}), ...(version.taken ?? [])]);
  return Object.keys(custom).filter((m) => taken.has(m)).sort();
}

/**
 * `base` with the custom methods in front: a message whose method is custom is answered by a
 * dispatcher over them (same rules as the version's own), any other by `base`; `notifications/cancelled`
 * reaches both. Throws when a custom method is one of the version's own.
 */
export function withCustomMethods(base: Dispatcher, custom: CustomMethods, version: CustomVersion, options?: DispatcherOptions): Dispatcher {
  const clash = collisions(custom, version);
  if (clash.length > 0) throw new Error(`custom method${clash.length > 1 ? "s" : ""} ${clash.join(", ")} ${clash.length > 1 ? "are methods" : "is a method"} of protocol version ${version.protocolVersion} already`);
  const methods = Object.keys(custom);
  if (methods.length === 0) return base;
  const resultTypes = version.customResultTypes;
  const requests: Record<string, Parameters<typeof createDispatcher>[0]["requests"][string]> = {};
  const notifications: string[] = ["notifications/cancelled"];
  const notificationParams: Record<string, SchemaLike | undefined> = {};
  const handlers: Record<string, unknown> = {};
  for (const method of methods) {
    const m = custom[method];
    handlers[method] = m.handler;
    if (m.kind === "request") {
      const empty = m.shape === "empty";
      requests[method] = {
        paramsRequired: m.paramsRequired ?? m.params !== undefined,
        normalize: empty ? emptyNormalizer(resultTypes) : objectNormalizer(method, `the ${method} result`, resultTypes),
        ...(m.params === undefined ? {} : { params: m.params }),
        ...(m.result === undefined ? {} : { result: m.result }),
        expected: `${method} result`,
      };
    } else {
      notifications.push(method);
      notificationParams[method] = m.params;
    }
  }
  const own = createDispatcher(
    { protocolVersion: version.protocolVersion, side: "server", requests, notifications, notificationParams, methodTable: {} },
    handlers,
    options,
  );
  const customSet = new Set(methods);
  return {
    async handle(message, exchange) {
      const envelope = readEnvelope(message);
      if ((envelope.kind === "request" || envelope.kind === "notification") && customSet.has(envelope.method)) return own.handle(message, exchange);
      if (envelope.kind === "notification" && envelope.method === "notifications/cancelled") await own.handle(message, exchange);
      return base.handle(message, exchange);
    },
    get inFlight() {
      return base.inFlight + own.inFlight;
    },
  };
}
