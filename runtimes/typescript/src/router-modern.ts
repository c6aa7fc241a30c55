// The modern era in the router: every request names its version in
// `params._meta["io.modelcontextprotocol/protocolVersion"]` (with its client capabilities) and is
// answered by that version's dispatcher, made once; an unserved version gets -32022 with the served
// ones. The router answers `server/discover` (the served versions, capabilities with the served
// extensions, cache hints, the server's identity) and `subscriptions/listen` itself; a request that
// negotiates a served extension is answered by the extension module's dispatcher, and an extension's
// method on a request that does not negotiate it gets -32021 (./router-extensions.ts).
import type { Dispatcher } from "./dispatcher.js";
import { ErrorCode, errorResponse, invalidRequest, metaOfParams, ownMember, paramsOf, readEnvelope, type JsonRpcResponse } from "./jsonrpc.js";
import type { RoutedMethodTable } from "./method-gate.js";
import {
  META_CLIENT_CAPABILITIES,
  META_PROTOCOL_VERSION,
  META_SERVER_INFO,
  ModernErrorCode,
  type Era,
  type ModernExchange,
  type RouterOptions,
  type ServedMap,
} from "./router-api.js";
import { missingExtension, negotiated, resolvingHandlers } from "./router-extensions.js";
import { levelFiltered, modernThreshold, notifyOnly } from "./router-log.js";
import { caller, servedExtensions, type ServedExtensionRoute, type ServedVersions } from "./router-served.js";
import { listenHandler, type Audience } from "./router-subscriptions.js";

/** A value from a message, as text for an error's data (never throws). */
function shown(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? "undefined";
  } catch {
    return "(not JSON)";
  }
}

/** `handlers` without the given methods. */
function withoutMethods(handlers: object, methods: readonly string[]): object {
  return Object.fromEntries(Object.entries(handlers).filter(([m]) => !methods.includes(m)));
}

/** "modern" when the message names its version in `params._meta` (the modern envelope), else "legacy". */
export function eraOf(message: unknown): Era {
  try {
    const meta = metaOfParams(paramsOf(message));
    return meta !== undefined && Object.hasOwn(meta, META_PROTOCOL_VERSION) ? "modern" : "legacy";
  } catch {
    return "legacy";
  }
}

/** A modern version's served extensions: their dispatchers, and which extension owns which method. */
interface ExtensionRoutes {
  readonly extensions: ServedExtensionRoute[];
  readonly dispatchers: Map<string, Dispatcher>;
  readonly owner: Map<string, string>;
}

/** The modern side of a router: its dispatchers, made once per served modern version and extension. */
export interface ModernRoutes {
  /** Answer one modern-era message. Never rejects. */
  handle(message: unknown, exchange?: ModernExchange): Promise<JsonRpcResponse | undefined>;
  /** The param a request of `protocolVersion` names itself by (`Mcp-Name`): its METHOD_TABLE row's, else a served extension module's. */
  nameParam(method: string, protocolVersion: string): string | undefined;
  /** How many modern requests are being handled now. */
  readonly inFlight: number;
}

export function modernRoutes<L extends string, M extends string>(served: ServedVersions<L, M>, options: RouterOptions<ServedMap<L, M>>, audience: Audience): ModernRoutes {
  const { modernVersions } = served;
  const discoverCache = options.discoverCache ?? { ttlMs: 0, cacheScope: "public" };
  const dispatchers = new Map<M, Dispatcher>();
  const extensionRoutes = new Map<M, ExtensionRoutes>();
  for (const version of modernVersions) {
    const entry = served.entry(version);
    const extensions = servedExtensions(entry, served.routed(version)!);
    const advertised = extensions.length === 0 ? {} : { extensions: { ...(entry.capabilities as { extensions?: object }).extensions, ...Object.fromEntries(extensions.map((e) => [e.id, e.served.settings ?? {}])) } };
    const capabilities = { ...(entry.capabilities as Record<string, unknown>), ...advertised };
    const owned = {
      "server/discover": () => ({
        supportedVersions: [...modernVersions],
        capabilities,
        ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
        ttlMs: discoverCache.ttlMs,
        cacheScope: discoverCache.cacheScope,
        // Where the version's DiscoverResult puts the server's info (the model's discoverServerInfo).
        ...(served.routed(version)!.discoverServerInfo === "member" ? { serverInfo: options.serverInfo } : { _meta: { [META_SERVER_INFO]: options.serverInfo } }),
      }),
      "subscriptions/listen": listenHandler(capabilities, extensions, audience),
    };
    const core = served.handlersFor(version, { protocolVersion: undefined, initializeParams: undefined });
    // An extension's handlers of core methods answer every request; their values resolve as not negotiated here.
    const coreOverrides = Object.assign({}, ...extensions.map((e) => resolvingHandlers(withoutMethods(e.served.handlers ?? {}, e.routed.methods), e.served.resolve, false, e.routed.methodTable)));
    dispatchers.set(version, served.dispatcher(version, { ...core, ...coreOverrides, ...owned }));
    const byExtension = new Map<string, Dispatcher>();
    const owner = new Map<string, string>();
    for (const e of extensions) {
      const own = resolvingHandlers(e.served.handlers ?? {}, e.served.resolve, true, e.routed.methodTable);
      const base = served.dispatcherOptions(version);
      const extOptions = e.served.validators === undefined ? base : { ...base, validators: { ...base?.validators, ...e.served.validators } };
      byExtension.set(e.id, served.withCustom(version, e.routed.createDispatcher({ ...core, ...coreOverrides, ...own, ...owned }, extOptions)));
      for (const method of e.routed.methods) owner.set(method, e.id);
    }
    if (extensions.length > 0) extensionRoutes.set(version, { extensions, dispatchers: byExtension, owner });
  }

  function nameParam(method: string, protocolVersion: string): string | undefined {
    const routed = served.routed(protocolVersion);
    if (routed === undefined) return undefined;
    const rowOf = (table: RoutedMethodTable) => (Object.hasOwn(table, method) ? table[method] : undefined);
    const own = rowOf(routed.methodTable)?.nameParam;
    if (own !== null && own !== undefined) return own;
    for (const e of extensionRoutes.get(protocolVersion as M)?.extensions ?? []) {
      const param = rowOf(e.routed.methodTable)?.nameParam;
      if (param !== null && param !== undefined) return param;
    }
    return undefined;
  }

  async function handle(message: unknown, exchange: ModernExchange = {}): Promise<JsonRpcResponse | undefined> {
    const envelope = readEnvelope(message);
    try {
      if (envelope.kind === "response") return undefined;
      if (envelope.kind === "invalid") return invalidRequest(envelope);
      const id = envelope.kind === "request" ? envelope.id : undefined;
      const meta = metaOfParams(envelope.params);
      if (id !== undefined) {
        const missing = [META_PROTOCOL_VERSION, META_CLIENT_CAPABILITIES].filter((key) => meta === undefined || !Object.hasOwn(meta, key));
        if (missing.length > 0) return errorResponse(id, ErrorCode.InvalidParams, `Invalid params: missing _meta keys: ${missing.join(", ")}`);
      }
      const requested = ownMember(meta, META_PROTOCOL_VERSION);
      const version = modernVersions.find((v) => v === requested);
      if (version === undefined) {
        if (id === undefined) return undefined;
        return errorResponse(id, ModernErrorCode.UnsupportedProtocolVersion, "Unsupported protocol version", { supported: [...modernVersions], requested: shown(requested) });
      }
      // A served extension's method is its extension's (before the other era's method of the same name:
      // Tasks' tasks/get is also a core method of 2025-11-25).
      let dispatcher = dispatchers.get(version)!;
      const routes = extensionRoutes.get(version);
      const owner = routes?.owner.get(envelope.method);
      if (routes !== undefined) {
        const agreed = negotiated(meta, META_CLIENT_CAPABILITIES, routes.extensions.map((e) => e.id));
        if (owner !== undefined && !agreed.has(owner)) {
          const missing = missingExtension(owner);
          return id === undefined ? undefined : errorResponse(id, missing.code, missing.message, missing.data);
        }
        const chosen = owner ?? routes.extensions.find((e) => agreed.has(e.id))?.id;
        if (chosen !== undefined) dispatcher = routes.dispatchers.get(chosen)!;
      }
      const peer = notifyOnly(exchange.send, version);
      const threshold = modernThreshold(meta);
      const filtered = peer === undefined ? undefined : levelFiltered(peer, () => threshold);
      return await dispatcher.handle(message, { peer: filtered, signal: exchange.signal, cancellation: exchange.cancellation, scope: exchange.scope, ...caller(exchange) });
    } catch {
      // Only a hostile message or exchange gets here: answer without detail.
      return envelope.kind === "request" ? errorResponse(envelope.id, ErrorCode.InternalError, "Internal error") : undefined;
    }
  }

  return {
    handle,
    nameParam,
    get inFlight() {
      let n = 0;
      for (const d of dispatchers.values()) n += d.inFlight;
      for (const r of extensionRoutes.values()) for (const d of r.dispatchers.values()) n += d.inFlight;
      return n;
    },
  };
}
