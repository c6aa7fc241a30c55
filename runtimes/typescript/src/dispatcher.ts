// The dispatcher core: one parsed JSON-RPC message in, the response to send out. Each version's
// dispatcher.ts passes its method tables (data) and the author's typed handlers.
//
// Guarantees, whatever `handle` is given:
// - it never rejects; a message it cannot read is -32600 (see readEnvelope for the envelope rule);
// - a request with a valid id is answered exactly once, with that id, unless it is cancelled
//   (`notifications/cancelled` from the same scope, or the exchange's signal): a cancelled request
//   settles at once with undefined, even if its handler never does, and leaves nothing behind;
// - notifications and responses are never answered;
// - what is answered survives JSON.stringify: a result or error data JSON cannot carry is -32603.
import {
  codedError,
  ErrorCode,
  errorFromThrown,
  errorResponse,
  invalidRequest,
  isPlainObject,
  isRequestId,
  JsonRpcError,
  PeerError,
  metaOfParams,
  ownMember,
  readEnvelope,
  resultResponse,
  type JsonRpcResponse,
  type RequestId,
} from "./jsonrpc.js";
import type { AuthInfo } from "./auth.js";
import type { Cancellation } from "./cancellation.js";
import type { Peer } from "./peer.js";
import { report, reportedAuth, writeFailureToStderr, type FailureKind, type OnError } from "./report.js";
import { methodRefusal, type GatePolicy, type GateRow } from "./method-gate.js";
import { formatIssues, issuePaths } from "./schema-support.js";
import { unsendable } from "./sendable.js";

/** What a request handler is given besides its params. */
export interface RequestContext<V extends string = string> {
  /** The id of the request being answered. */
  readonly requestId: RequestId;
  /** The request's `params._meta` when it is a plain object, else undefined. */
  readonly _meta: Record<string, unknown> | undefined;
  /** The protocol version this dispatcher speaks. */
  readonly protocolVersion: V;
  /** Aborted when the peer cancels the request with `notifications/cancelled`, or the transport gives the request up. */
  readonly signal: AbortSignal;
  /**
   * Send a notification to the peer about this request (progress, log messages). Rejects with a
   * -32603 JsonRpcError when the transport gave the dispatcher no outgoing channel (`Exchange.peer`).
   */
  notify(method: string, params?: Record<string, unknown>): Promise<void>;
  /**
   * Send a request to the peer about this request (sampling, elicitation) and resolve with its
   * result; an error answer rejects with a JsonRpcError carrying its code. Rejects with -32603 when
   * there is no outgoing channel, or the channel cannot carry requests.
   */
  request(method: string, params?: Record<string, unknown>): Promise<unknown>;
  /** The caller as the transport's resource server verified it (`auth` of the HTTP transport, the fixed principal of stdio); undefined without. */
  readonly auth?: AuthInfo;
  /** Whom the request is for: what tasks and sessions are bound to (the transport's `principal` hook, else the token's subject or client). */
  readonly principal?: string;
}

/** What a notification handler is given besides its params. */
export interface NotificationContext<V extends string = string> {
  readonly _meta: Record<string, unknown> | undefined;
  readonly protocolVersion: V;
}

/** What the transport passes along with one incoming message. */
export interface Exchange {
  /** Where a handler's `context.notify`/`context.request` go. */
  readonly peer?: Peer;
  /**
   * Aborted when the transport gives the request up (say, the HTTP client went away): the request
   * is cancelled, as by `notifications/cancelled`: its handler's signal aborts, `handle` settles at
   * once with undefined, and nothing is answered.
   */
  readonly signal?: AbortSignal;
  /** The same as `signal`, cheaper to make (./cancellation.ts): what the shipped transports pass. Either cancels. */
  readonly cancellation?: Cancellation;
  /**
   * Whose request ids these are: request ids are unique only per peer, so `notifications/cancelled`
   * cancels only a request of the same scope (pass one object per connection or session). Messages
   * without a scope share one.
   */
  readonly scope?: object;
  /** The caller verified by the transport (handlers see it as `context.auth`). */
  readonly auth?: AuthInfo;
  /** The principal the transport names (handlers see it as `context.principal`). */
  readonly principal?: string;
}

/**
 * Per-method validation hooks, run by the dispatcher when given (the seam for schema validation).
 * `params` runs before the handler and returns the params to pass it; `result` runs on the
 * normalized result and returns the result to send. A hook's error carrying a JSON-RPC `code` is
 * answered with that code; any other error is -32602 for `params` and -32603 for `result`.
 */
export interface MethodValidator {
  params?(params: unknown): unknown;
  result?(result: object): object;
}

export interface DispatcherOptions {
  /**
   * Receives every handler failure once: what a request or notification handler throws (or rejects
   * with), a result that was not sent, invalid notification params (see FailureKind). Default: one
   * line on stderr.
   */
  onError?: OnError;
  /**
   * Validate every normalized result against the version's schema before sending it (default true):
   * an invalid result is never sent; the peer gets -32603 naming the method and the failing paths.
   */
  validateResults?: boolean;
  /** Validation hooks by method; a method's hook replaces its schema validation. */
  validators?: Readonly<Record<string, MethodValidator | undefined>>;
}

/** The part of a zod schema the dispatcher uses. */
export interface SchemaLike {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> } };
}

/** A fast, sound check: true only if the schema accepts the value (false: ask the schema). */
export type Guard = (value: unknown) => boolean;

export interface Dispatcher {
  /**
   * Answer one parsed JSON-RPC message: a request → its response; a notification → undefined;
   * a response (no `method`) → undefined, it is not for a dispatcher; a cancelled request →
   * undefined (the spec says not to answer). `exchange` carries the outgoing channel, the
   * transport's abort signal and the peer's scope for this message. Never rejects.
   */
  handle(message: unknown, exchange?: Exchange): Promise<JsonRpcResponse | undefined>;
  /** How many requests are being handled now (cancelled ones no longer count). */
  readonly inFlight: number;
}

/** A request method as the dispatcher core needs it. */
export interface RequestEntry {
  readonly paramsRequired: boolean;
  readonly normalize: (value: unknown) => object;
  /** The schema of the params, when the method has any. */
  readonly params?: SchemaLike;
  /** The schema of the result and its type's name. */
  readonly result?: SchemaLike;
  readonly expected?: string;
  /** Guards in front of `params` and `result`: when one says true, the schema is not run. */
  readonly paramsGuard?: Guard;
  readonly resultGuard?: Guard;
}

export interface DispatcherTables {
  readonly protocolVersion: string;
  /** Who this dispatcher answers for: "server" handles what a client sends, and the reverse. */
  readonly side: "server" | "client";
  /** The requests this side receives. */
  readonly requests: Readonly<Record<string, RequestEntry>>;
  /** The notifications this side receives. */
  readonly notifications: readonly string[];
  /** Schemas of the notifications' params, by method. */
  readonly notificationParams?: Readonly<Record<string, SchemaLike | undefined>>;
  /** Guards in front of the notifications' params schemas, by method. */
  readonly notificationParamsGuards?: Readonly<Record<string, Guard | undefined>>;
  /** The version's METHOD_TABLE (its methods.ts): the -32601 verdict on a request it has no route for. */
  readonly methodTable: Readonly<Record<string, GateRow>>;
}

/**
 * The dispatcher's gate policy: it answers only the version's own methods (custom methods are a
 * dispatcher of their own in front, see ./custom-methods.ts), never a later version's.
 */
export const DISPATCHER_POLICY: GatePolicy = { custom: "refuse", later: "refuse" };

/** The validation hooks a request or notification gets from its schemas; a guard's true skips the schema. */
function schemaValidator(method: string, params: SchemaLike | undefined, result: SchemaLike | undefined, expected: string | undefined, paramsGuard?: Guard, resultGuard?: Guard): MethodValidator {
  const validator: MethodValidator = {};
  if (params !== undefined) {
    validator.params = (value) => {
      if (value === undefined || paramsGuard?.(value) === true) return value;
      const r = params.safeParse(value);
      if (r.success) return value;
      throw new JsonRpcError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${formatIssues(r.error)}`, { paths: issuePaths(r.error).map((p) => "/params" + p) });
    };
  }
  if (result !== undefined) {
    validator.result = (value) => {
      if (resultGuard?.(value) === true) return value;
      const r = result.safeParse(value);
      if (r.success) return value;
      const paths = issuePaths(r.error);
      throw new JsonRpcError(
        ErrorCode.InternalError,
        `Internal error: the ${method} handler's result is not a valid ${expected ?? "result"} (at ${paths.map((p) => p || "(root)").join(", ")})`,
      );
    };
  }
  return validator;
}

interface Route {
  readonly handler: (params: unknown, context: unknown) => unknown;
  readonly paramsRequired: boolean;
  readonly normalize: (value: unknown) => object;
  readonly validator: MethodValidator | undefined;
}

interface NotificationRoute {
  readonly handler: (params: unknown, context: NotificationContext) => unknown;
  readonly validator: MethodValidator | undefined;
}

/** What a cancelled request's handler promise settles to, at once. */
const CANCELLED: unique symbol = Symbol("cancelled");

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === "object" || typeof value === "function") && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/** The context of one request; its AbortController is made only when a handler reads `signal`. */
class Context implements RequestContext {
  readonly requestId: RequestId;
  readonly _meta: Record<string, unknown> | undefined;
  readonly protocolVersion: string;
  readonly auth: AuthInfo | undefined;
  readonly principal: string | undefined;
  cancelled = false;
  private reason: unknown = undefined;
  private controller: AbortController | undefined = undefined;
  /** Settles the awaited handler promise with CANCELLED. */
  private interrupt: (() => void) | undefined = undefined;
  private peer: Peer | undefined;
  private readonly outer: AbortSignal | undefined;
  private readonly onOuterAbort: (() => void) | undefined;
  private unsubscribe: (() => void) | undefined = undefined;
  constructor(requestId: RequestId, meta: Record<string, unknown> | undefined, protocolVersion: string, exchange: Exchange | undefined) {
    this.requestId = requestId;
    this._meta = meta;
    this.protocolVersion = protocolVersion;
    this.peer = exchange?.peer;
    this.auth = exchange?.auth;
    this.principal = exchange?.principal;
    const cancellation = exchange?.cancellation;
    if (cancellation !== undefined) this.unsubscribe = cancellation.onCancel((reason) => this.cancel(reason));
    const outer = exchange?.signal;
    if (outer?.aborted === true) {
      this.cancel(outer.reason);
    } else if (outer !== undefined) {
      this.outer = outer;
      this.onOuterAbort = () => this.cancel(outer.reason);
      outer.addEventListener("abort", this.onOuterAbort, { once: true });
    }
  }
  notify(method: string, params?: Record<string, unknown>): Promise<void> {
    if (this.peer === undefined) return Promise.reject(new JsonRpcError(ErrorCode.InternalError, `Internal error: no outgoing channel to send ${method}`));
    return this.peer.notify(method, params, this.requestId);
  }
  request(method: string, params?: Record<string, unknown>): Promise<unknown> {
    if (this.peer === undefined) return Promise.reject(new JsonRpcError(ErrorCode.InternalError, `Internal error: no outgoing channel to send ${method}`));
    return this.peer.request(method, params, this.requestId, this.signal);
  }
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.cancelled) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }
  /** The handler's promise, settled with CANCELLED as soon as the request is cancelled. */
  settle(value: PromiseLike<unknown>): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.interrupt = () => resolve(CANCELLED);
      value.then(resolve, reject);
    });
  }
  cancel(reason: unknown): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.reason = reason;
    this.controller?.abort(reason);
    this.interrupt?.();
  }
  /** The request is settled: let go of the transport's signal. */
  dispose(): void {
    if (this.outer !== undefined && this.onOuterAbort !== undefined) this.outer.removeEventListener("abort", this.onOuterAbort);
    this.unsubscribe?.();
    this.interrupt = undefined;
    // Let go of the transport's channel (its exchange, its response): a context kept past its request no
    // longer keeps them alive. Under load, settled contexts held that way made young-generation GCs
    // promote every exchange (ten times the GC time per request, measured).
    this.peer = undefined;
  }
}

/** Build a dispatcher: the routing tables are fixed here, once; `handle` only looks methods up. */
export function createDispatcher(tables: DispatcherTables, handlers: object, options: DispatcherOptions = {}): Dispatcher {
  const { protocolVersion } = tables;
  const onError = options.onError ?? writeFailureToStderr;
  const routes = new Map<string, Route>();
  for (const method of Object.keys(tables.requests)) {
    const handler = (handlers as Record<string, unknown>)[method];
    if (typeof handler !== "function") continue;
    const entry = tables.requests[method];
    const result = options.validateResults === false ? undefined : entry.result;
    routes.set(method, {
      handler: handler.bind(handlers) as Route["handler"],
      paramsRequired: entry.paramsRequired,
      normalize: entry.normalize,
      validator: options.validators?.[method] ?? schemaValidator(method, entry.params, result, entry.expected, entry.paramsGuard, entry.resultGuard),
    });
  }
  const notificationRoutes = new Map<string, NotificationRoute>();
  for (const method of tables.notifications) {
    const handler = (handlers as Record<string, unknown>)[method];
    if (typeof handler !== "function") continue;
    const validator = options.validators?.[method] ?? schemaValidator(method, tables.notificationParams?.[method], undefined, undefined, tables.notificationParamsGuards?.[method]);
    notificationRoutes.set(method, { handler: handler.bind(handlers) as NotificationRoute["handler"], validator });
  }
  const receivesCancel = tables.notifications.includes("notifications/cancelled");
  // In-flight requests by scope, then by id: ids are unique per peer only.
  const unscoped = {};
  // A Map, not a WeakMap: a scope's entry goes when its last request settles. (Stateless HTTP gives each POST
  // a scope of its own: a WeakMap entry per request made every young-generation GC walk them as ephemerons,
  // which cost more than the rest of the request path's garbage together.)
  const inFlightByScope = new Map<object, Map<RequestId, Context>>();
  let inFlight = 0;

  function fail(kind: FailureKind, error: unknown, method: string, id?: RequestId, exchange?: Exchange): void {
    const who = { ...(exchange?.auth === undefined ? {} : { auth: reportedAuth(exchange.auth) }), ...(exchange?.principal === undefined ? {} : { principal: exchange.principal }) };
    report(onError, error, id === undefined ? { kind, method, protocolVersion, ...who } : { kind, method, id, protocolVersion, ...who });
  }

  /** The -32601 answer to a request without a route: the table's refusal, else the version has it and the author gave no handler. */
  function notFound(id: RequestId, method: string): JsonRpcResponse {
    const refusal = methodRefusal(tables.methodTable, method, protocolVersion, tables.side, DISPATCHER_POLICY);
    if (refusal !== null) return errorResponse(id, refusal.code, refusal.message, refusal.data);
    return errorResponse(id, ErrorCode.MethodNotFound, `Method not found: no handler for ${method} (protocol version ${protocolVersion})`);
  }

  /** The answer to a thrown value: its own code, message and data when it carries a code and the data is JSON, else -32603. */
  function answerThrown(id: RequestId, method: string, error: unknown): JsonRpcResponse {
    const e = errorFromThrown(error);
    const problem = e.data === undefined ? undefined : unsendable(e.data);
    if (problem !== undefined) return errorResponse(id, ErrorCode.InternalError, `Internal error: the ${method} handler's error data cannot be sent as JSON (${problem})`);
    return errorResponse(id, e.code, e.message, e.data);
  }

  async function request(id: RequestId, method: string, params: unknown, exchange: Exchange | undefined): Promise<JsonRpcResponse | undefined> {
    const route = routes.get(method);
    if (route === undefined) return notFound(id, method);
    if (params === undefined) {
      if (route.paramsRequired) return errorResponse(id, ErrorCode.InvalidParams, `Invalid params: ${method} requires params (an object)`);
    } else if (!isPlainObject(params)) {
      return errorResponse(id, ErrorCode.InvalidParams, `Invalid params: ${method} params must be an object`);
    }
    const validator = route.validator;
    if (validator?.params !== undefined) {
      try {
        params = validator.params(params);
      } catch (error) {
        return codedError(error) === undefined ? errorResponse(id, ErrorCode.InvalidParams, `Invalid params for ${method}`) : answerThrown(id, method, error);
      }
    }
    const context = new Context(id, metaOfParams(params), protocolVersion, exchange);
    if (context.cancelled) {
      context.dispose();
      return undefined;
    }
    const scope = exchange?.scope ?? unscoped;
    let flights = inFlightByScope.get(scope);
    if (flights === undefined) {
      flights = new Map();
      inFlightByScope.set(scope, flights);
    }
    flights.set(id, context);
    inFlight++;
    try {
      let value: unknown;
      try {
        value = route.handler(params, context);
        if (isThenable(value)) value = await context.settle(value);
      } catch (error) {
        if (context.cancelled) return undefined;
        // A PeerError answers the peer's mistake: nothing failed here, so nothing is reported.
        if (!(error instanceof PeerError)) fail("request", error, method, id, exchange);
        return answerThrown(id, method, error);
      }
      if (context.cancelled) return undefined;
      try {
        let result = route.normalize(value);
        if (validator?.result !== undefined) result = validator.result(result);
        const problem = unsendable(result);
        if (problem !== undefined) throw new JsonRpcError(ErrorCode.InternalError, `Internal error: the ${method} handler's result cannot be sent as JSON (${problem})`);
        return resultResponse(id, result);
      } catch (error) {
        fail("result", error, method, id, exchange);
        return answerThrown(id, method, error);
      }
    } finally {
      if (flights.get(id) === context) flights.delete(id);
      if (flights.size === 0 && inFlightByScope.get(scope) === flights) inFlightByScope.delete(scope);
      inFlight--;
      context.dispose();
    }
  }

  async function notification(method: string, params: unknown, exchange: Exchange | undefined): Promise<void> {
    if (method === "notifications/cancelled" && receivesCancel) {
      const target = ownMember(params, "requestId");
      if (isRequestId(target)) inFlightByScope.get(exchange?.scope ?? unscoped)?.get(target)?.cancel(ownMember(params, "reason"));
    }
    const route = notificationRoutes.get(method);
    if (route === undefined) return;
    if (params !== undefined && !isPlainObject(params)) {
      fail("invalid-params", new JsonRpcError(ErrorCode.InvalidParams, `Invalid params: ${method} params must be an object`), method);
      return;
    }
    if (route.validator?.params !== undefined) {
      try {
        params = route.validator.params(params);
      } catch (error) {
        fail("invalid-params", error, method);
        return;
      }
    }
    try {
      const value = route.handler(params, { _meta: metaOfParams(params), protocolVersion });
      if (isThenable(value)) await value;
    } catch (error) {
      fail("notification", error, method);
    }
  }

  async function handle(message: unknown, exchange?: Exchange): Promise<JsonRpcResponse | undefined> {
    const envelope = readEnvelope(message);
    try {
      switch (envelope.kind) {
        case "request":
          return await request(envelope.id, envelope.method, envelope.params, exchange);
        case "notification":
          await notification(envelope.method, envelope.params, exchange);
          return undefined;
        case "response":
          return undefined;
        case "invalid":
          return invalidRequest(envelope);
      }
    } catch {
      // Only a hostile message or exchange (a throwing getter or proxy trap) gets here: answer without detail.
      return envelope.kind === "request" ? errorResponse(envelope.id, ErrorCode.InternalError, "Internal error") : undefined;
    }
  }

  return {
    handle,
    get inFlight() {
      return inFlight;
    },
  };
}
