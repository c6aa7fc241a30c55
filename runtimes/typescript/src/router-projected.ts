// One handler set for every served version (issue 41): `createServerRouter({ handlers, versions: [...] })`.
// The handlers are written for the newest version served, in the protocol order the generator decides
// (the tree's `protocolOrder`: legacy before modern, dated labels by date, labels that are no date after
// them), and see the negotiated version as `context.protocolVersion` (each served version still gets its
// own dispatcher, which sets it). Around each handler, per served version:
// - params are lifted to the newest version's shape (projectParams): a request whose params have no
//   faithful value there is answered -32602 naming the JSON pointer. A legacy session's request lifted to
//   a modern version carries the session's facts in the modern `_meta` envelope (the negotiated version,
//   the capabilities and the client info the client declared at `initialize`), as a modern request would;
// - the cache hints given once (`cacheHints`) are put on an object result that carries none, and the
//   result is projected onto the negotiated version (projectResult) — members that version does not
//   declare dropped, defaults supplied — before that version's normalizer and validator run; a result
//   with no faithful value there is answered -32603 naming the JSON pointer and the reason.
// - The capabilities, given once, are projected onto each version's ServerCapabilities.
// - The extensions (Tasks), given once, are served at each served modern version the tree has a module of
//   the extension for (never at a legacy version: a legacy session has no extensions); their handlers are wrapped as the core ones, except that a
//   value only the extension understands (a task handle) goes to its `resolve` unprojected.
// Which members each version declares is the generator's data (projections.ts); nothing is decided here.
import { ErrorCode, JsonRpcError } from "./jsonrpc.js";
import type { DispatcherOptions } from "./dispatcher.js";
import { projectParams, projectResult, projectShape, type VersionProjection } from "./projection.js";
import { META_CLIENT_INFO } from "../protocol.js";
import { isExtensionValue, type ServedExtension } from "./router-extensions.js";
import { META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION, type ConnectionInfo, type Era, type Served } from "./router-api.js";

/** Cache hints of list results (`ttlMs`, `cacheScope`), put on results of the versions that declare them. */
export interface CacheHints {
  ttlMs?: number;
  cacheScope?: "public" | "private";
}

/** The one-handler-set form of the router's options (beside `serverInfo` and the other common options). */
export interface OneHandlerSet<V extends string, Handlers, Capabilities> {
  /** The served versions; the handlers are written for the newest of them (the last in protocol order). */
  versions: readonly V[];
  handlers: Handlers | ((connection: ConnectionInfo) => Handlers);
  capabilities: Capabilities;
  cacheHints?: CacheHints;
  /** Options for every served version's dispatcher. */
  dispatcher?: DispatcherOptions;
  /** The extensions served, by identifier, given once: served at every served modern version the tree has a module of each for. */
  extensions?: Readonly<Record<string, ServedExtension<object> | undefined>>;
}

type Handler = (params: unknown, context: unknown) => unknown;

/** The modern `_meta` envelope of a lifted request, read from the connection when the request arrives (null: none). */
type Envelope = (() => Record<string, unknown>) | null;

/** The handlers of one served version: each of `handlers` wrapped to lift params and project results. */
function handlersAt(handlers: object, at: VersionProjection, newest: VersionProjection, hints: CacheHints | undefined, envelope: Envelope): Record<string, Handler> {
  const out: Record<string, Handler> = {};
  for (const method of Object.keys(handlers)) {
    const handler = (handlers as Record<string, unknown>)[method];
    if (typeof handler !== "function") continue;
    if (at.results[method] === undefined) {
      // A notification (or a request this version lacks): passed as written.
      out[method] = handler.bind(handlers) as Handler;
      continue;
    }
    out[method] = async (params, context) => {
      let lifted = params;
      if (at !== newest && newest.results[method] !== undefined) {
        const withEnvelope = envelope === null ? params : { ...(params as Record<string, unknown> | undefined), _meta: { ...envelope(), ...((params as { _meta?: Record<string, unknown> } | undefined)?._meta ?? {}) } };
        const p = projectParams(newest, method, withEnvelope);
        if (!p.ok) throw new JsonRpcError(ErrorCode.InvalidParams, `Invalid params: ${method} of version ${at.label} has no faithful value at ${newest.label} (at ${p.pointer || "(root)"}: ${p.reason})`);
        lifted = p.value;
      }
      let result = await (handler as Handler).call(handlers, lifted, context);
      // A value only a served extension understands (a task handle): its `resolve` makes the result.
      if (isExtensionValue(result)) return result;
      if (hints !== undefined && typeof result === "object" && result !== null && !Array.isArray(result)) {
        result = { ...hints, ...(result as Record<string, unknown>) };
      }
      const r = projectResult(at, method, result ?? {});
      if (!r.ok) throw new JsonRpcError(ErrorCode.InternalError, `Internal error: the ${method} result has no faithful value at version ${at.label} (at ${r.pointer || "(root)"}: ${r.reason})`);
      return r.value;
    };
  }
  return out;
}

/** The tree's facts a one handler set is served over (the generated router.ts gives them). */
export interface OneSetTree {
  /** Every version's projection data (projections.ts). */
  projections: Readonly<Record<string, VersionProjection>>;
  /** The versions in protocol order, the newest last (projections.ts). */
  order: readonly string[];
  eras: Readonly<Record<string, Era>>;
  /** The identifiers of the extensions the tree has a module of, per version. */
  extensions: Readonly<Record<string, readonly string[]>>;
}

/**
 * The per-version served map of a one-handler-set option: every served version's handlers wrapped, its
 * capabilities projected, the extensions it has a module of served.
 */
export function servedFromOneSet<V extends string>(options: OneHandlerSet<V, object, object>, tree: OneSetTree): Record<string, Served<object, object>> {
  const { projections, order, eras } = tree;
  const labels = options.versions;
  if (labels.length === 0) throw new Error("createServerRouter: versions names no version");
  const missing = labels.filter((l) => projections[l] === undefined);
  if (missing.length > 0) throw new Error(`createServerRouter: no generated version ${missing.join(", ")}`);
  const newestLabel = [...labels].sort((a, b) => order.indexOf(a) - order.indexOf(b)).at(-1)!;
  const newest = projections[newestLabel];
  const servedExtensions = Object.entries(options.extensions ?? {}).filter((e): e is [string, ServedExtension<object>] => e[1] !== undefined);
  const unserved = servedExtensions.filter(([id]) => !labels.some((l) => eras[l] === "modern" && tree.extensions[l]?.includes(id))).map(([id]) => id);
  if (unserved.length > 0) throw new Error(`createServerRouter: no served modern version has extension ${unserved.join(", ")} in the generated tree`);
  const served: Record<string, Served<object, object>> = {};
  for (const label of labels) {
    const at = projections[label];
    const caps = at.serverCapabilities ? projectShape(at, at.serverCapabilities, options.capabilities) : { ok: true as const, value: options.capabilities };
    if (!caps.ok) throw new Error(`createServerRouter: the capabilities have no faithful value at version ${label} (at ${caps.pointer || "(root)"}: ${caps.reason})`);
    const given = options.handlers;
    const lifts = eras[label] === "legacy" && eras[newestLabel] === "modern";
    // Read when a request arrives: the factory is called before the session's initialize is answered.
    const envelope = (connection: ConnectionInfo | undefined): Envelope =>
      lifts
        ? () => {
            const initialize = connection?.initializeParams;
            return {
              [META_PROTOCOL_VERSION]: label,
              [META_CLIENT_CAPABILITIES]: (initialize?.capabilities as object | undefined) ?? {},
              ...(initialize?.clientInfo !== undefined ? { [META_CLIENT_INFO]: initialize.clientInfo } : {}),
            };
          }
        : null;
    const handlersOf = (connection: ConnectionInfo | undefined) =>
      handlersAt(typeof given === "function" ? (given as (c: ConnectionInfo | undefined) => object)(connection) : given, at, newest, options.cacheHints, envelope(connection));
    // The extensions this modern version has a module of, their handlers wrapped as the core ones (no envelope).
    const extensions = servedExtensions
      .filter(([id]) => eras[label] === "modern" && tree.extensions[label]?.includes(id))
      .map(([id, e]) => [id, e.handlers === undefined ? e : { ...e, handlers: handlersAt(e.handlers, at, newest, options.cacheHints, envelope(undefined)) }] as const);
    served[label] = {
      // Legacy: once per connection (its initialize params fill the envelope); modern: once.
      handlers: eras[label] === "legacy" ? (connection: ConnectionInfo) => handlersOf(connection) : handlersOf(undefined),
      capabilities: caps.value as object,
      ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
      ...(extensions.length > 0 ? { extensions: Object.fromEntries(extensions) } : {}),
    };
  }
  return served;
}

/** The router's options of the one-handler-set form: the common options as given, `versions` the served map. */
export function routerOptionsOfOneSet<O extends OneHandlerSet<string, object, object>>(options: O, tree: OneSetTree): Omit<O, keyof OneHandlerSet<string, object, object>> & { versions: Record<string, Served<object, object>> } {
  const { versions, handlers, capabilities, cacheHints, dispatcher, extensions, ...common } = options;
  return { ...common, versions: servedFromOneSet({ versions, handlers, capabilities, cacheHints, dispatcher, extensions }, tree) };
}
