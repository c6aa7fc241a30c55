// Extensions in the router (SEP-2133): what a served version says about the extensions it serves, and
// the rules the router applies to them (createRouter in ./router.ts calls these).
//
// - A modern version's generated table lists, per extension the tree has for it, the extension
//   module's server dispatcher and the methods the extension adds (`RoutedExtension`).
// - A served version lists the extensions it serves (`Served.extensions`, by identifier): settings,
//   handlers, and optionally `resolve`, `listen` and `validators` (`ServedExtension`). The params its
//   requests name themselves by (`Mcp-Name`) are its module's METHOD_TABLE's (`nameParam`).
// - Per request, `_meta["io.modelcontextprotocol/clientCapabilities"].extensions` decides which served
//   extensions are negotiated. A method an extension adds, on a request that does not negotiate it:
//   -32021 (Missing Required Client Capability) with `data.requiredCapabilities.extensions`, as the
//   extensions' specifications say. Otherwise the request is answered by the extension module's
//   dispatcher when the request negotiates an extension (its methods and result variants allowed),
//   else by the core version's.
// - `server/discover` advertises every served extension under `capabilities.extensions`.
import { MISSING_REQUIRED_CLIENT_CAPABILITY } from "../protocol.js";
import type { MethodValidator, RequestContext } from "./dispatcher.js";
import { isPlainObject, JsonRpcError, ownMember, PeerError } from "./jsonrpc.js";
import type { RoutedMethodTable } from "./method-gate.js";

/** The code a request gets when it needs a capability (here: an extension) its client did not declare. */
export { MISSING_REQUIRED_CLIENT_CAPABILITY };

/** Marks a value a handler returns for a served extension's `resolve` to turn into a result (a task handle). */
export const EXTENSION_VALUE: unique symbol = Symbol.for("mcp-codegen.extension-value");

/** A value only a served extension's `resolve` understands; its member names the extension's identifier. */
export interface ExtensionValue {
  readonly [EXTENSION_VALUE]: string;
}

/** Whether `value` is an ExtensionValue (of any extension). */
export function isExtensionValue(value: unknown): value is ExtensionValue {
  return typeof value === "object" && value !== null && typeof (value as Partial<ExtensionValue>)[EXTENSION_VALUE] === "string";
}

/** One extension of a generated version, as the generated router table gives it. */
export interface RoutedExtension {
  /** The extension module's `createServerDispatcher` (core methods plus the extension's). */
  createDispatcher(handlers: object, options?: import("./dispatcher.js").DispatcherOptions): import("./dispatcher.js").Dispatcher;
  /** The requests and notifications the extension adds. */
  readonly methods: readonly string[];
  /** The extension module's METHOD_TABLE (the core version's methods and the extension's). */
  readonly methodTable: RoutedMethodTable;
}

/** A handler map whose handlers may also return an ExtensionValue (which the extension's `resolve` turns into a result). */
export type ExtensionHandlers<H> = {
  [K in keyof H]?: H[K] extends ((params: infer P, context: infer C) => infer R) | undefined ? (params: P, context: C) => R | ExtensionValue | Promise<Awaited<R> | ExtensionValue> : H[K];
};

/** One extension a version serves. */
export interface ServedExtension<Handlers = object> {
  /** Advertised under `capabilities.extensions[identifier]` by `server/discover`. Default `{}`. */
  settings?: Record<string, unknown>;
  /**
   * Handlers of the methods the extension adds, and of core methods it changes (these answer the
   * method for every request of the version, whether or not the request negotiates the extension).
   */
  handlers?: ExtensionHandlers<Handlers>;
  /**
   * What a handler's return value means (Tasks: a task handle becomes a stored task and its
   * CreateTaskResult); called for every handler of `handlers`. `negotiated`: whether the request's
   * client capabilities declare this extension; `resultTypes`: the method's, from the extension module's
   * METHOD_TABLE (the default first; null when it has none).
   */
  resolve?(value: unknown, context: RequestContext, negotiated: boolean, resultTypes: readonly string[] | null): unknown;
  /**
   * Its part of a `subscriptions/listen` filter: what it honors (merged into the acknowledged filter)
   * and `stop`, called when the subscription ends. `deliver` sends a notification on the stream.
   */
  listen?(
    notifications: Record<string, unknown>,
    deliver: (method: string, params: Record<string, unknown>) => Promise<void>,
    negotiated: boolean,
    context: RequestContext,
  ): Promise<{ honored: Record<string, unknown>; stop(): void } | undefined>;
  /** Validation hooks of the extension module's dispatcher, by method (as DispatcherOptions.validators: each replaces that method's schema validation). */
  validators?: Readonly<Record<string, MethodValidator>>;
}

/** The error of a request that needs the extension `identifier` its client did not declare: the peer's own mistake, answered and not reported (a PeerError). */
export function missingExtension(identifier: string): JsonRpcError {
  return new PeerError(MISSING_REQUIRED_CLIENT_CAPABILITY, "Missing required client capability", { requiredCapabilities: { extensions: { [identifier]: {} } } });
}

/** The identifiers among `served` that the request's client capabilities (`_meta[key].extensions`) declare. */
export function negotiated(meta: Record<string, unknown> | undefined, key: string, served: readonly string[]): Set<string> {
  const extensions = ownMember(ownMember(meta, key), "extensions");
  const out = new Set<string>();
  if (!isPlainObject(extensions)) return out;
  for (const id of served) if (Object.hasOwn(extensions, id)) out.add(id);
  return out;
}

/** `handlers` with each one's return value passed through `resolve` (with `negotiated` and the method's `resultTypes` of `table`). */
export function resolvingHandlers(handlers: object, resolve: ServedExtension["resolve"], isNegotiated: boolean, table: RoutedMethodTable): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [method, handler] of Object.entries(handlers)) {
    if (typeof handler !== "function" || resolve === undefined) {
      out[method] = handler;
      continue;
    }
    const resultTypes = Object.hasOwn(table, method) ? table[method].resultTypes : null;
    out[method] = async (params: unknown, context: RequestContext) => resolve(await handler(params, context), context, isNegotiated, resultTypes);
  }
  return out;
}
