// The version router of a server: which served version's dispatcher answers a message. The
// generated router.ts names the generated versions (a table of data) and calls createRouter.
//
// - Legacy era: a connection chooses its version at `initialize` (the client's if served, else the
//   newest served legacy version) and keeps that version's dispatcher until it closes. The router
//   answers `initialize` itself (a per-version dispatcher does not).
// - Modern era: every request names its version in `params._meta["io.modelcontextprotocol/protocolVersion"]`
//   and is answered by that version's dispatcher; an unserved version gets -32022 with the served
//   versions. The router answers `server/discover` and `subscriptions/listen` itself.
// - A method of one era sent in the other gets -32601 naming the version it belongs to.
// - `notifications/message` goes out only at or above the client's log level: the level set with
//   `logging/setLevel` (legacy; everything before that) or `_meta["io.modelcontextprotocol/logLevel"]`
//   of the request (modern; nothing when absent).
// - Messages follow the dispatcher's envelope rule (readEnvelope), and `handle` never rejects.
import { principalOf, type AuthInfo } from "./auth.js";
import type { Dispatcher, DispatcherOptions, RequestContext } from "./dispatcher.js";
import {
  ErrorCode,
  errorResponse,
  invalidRequest,
  isPlainObject,
  JsonRpcError,
  metaOfParams,
  notificationMessage,
  ownMember,
  paramsOf,
  readEnvelope,
  type JsonRpcResponse,
  type RequestId,
} from "./jsonrpc.js";
import { createPeerChannel, type Peer, type PeerChannel, type Send } from "./peer.js";
import type { OnError } from "./report.js";
import { missingExtension, negotiated, resolvingHandlers, type RoutedExtension, type ServedExtension } from "./router-extensions.js";
import { withCustomMethods, type CustomMethods } from "./custom-methods.js";

export type Era = "legacy" | "modern";

/** One generated version as the router needs it: its label, its era and its server dispatcher. */
export interface RoutedVersion<V extends string, E extends Era> {
  readonly label: V;
  readonly era: E;
  /** The version's `createServerDispatcher`. */
  createDispatcher(handlers: object, options?: DispatcherOptions): Dispatcher;
  /** The extensions the tree has for this version, by identifier (modern versions only). */
  readonly extensions?: Readonly<Record<string, RoutedExtension>>;
}

/** What a generated router.ts gives createRouter: data about the generated versions. */
export interface RouterTable<L extends string, M extends string> {
  /** Every generated version, oldest first. */
  readonly versions: ReadonlyArray<RoutedVersion<L, "legacy"> | RoutedVersion<M, "modern">>;
  /** For every message a client sends, the versions that have it (oldest first). */
  readonly clientMessages: Readonly<Record<string, readonly (L | M)[]>>;
}

/** The requests the router answers itself, per era: the author supplies no handler for them. */
export type LegacyOwned = "initialize";
export type ModernOwned = "server/discover" | "subscriptions/listen";

/** What a legacy connection knows about itself; handed to handler factories. */
export interface ConnectionInfo<L extends string = string> {
  /** The version chosen at `initialize`, undefined before. */
  readonly protocolVersion: L | undefined;
  /** The `params` of the client's `initialize` request, undefined before. */
  readonly initializeParams: Record<string, unknown> | undefined;
}

/** One served version: its handlers (or a factory, called once per legacy connection), capabilities, dispatcher options. */
export interface Served<Handlers, Capabilities, L extends string = string> {
  handlers: Handlers | ((connection: ConnectionInfo<L>) => Handlers);
  capabilities: Capabilities;
  /** Options for this version's dispatcher (`validators`, `onError`, `validateResults`). */
  dispatcher?: DispatcherOptions;
  /** Modern versions: the extensions served, by identifier (see ./router-extensions.ts). */
  extensions?: Readonly<Record<string, ServedExtension<object> | undefined>>;
  /** Custom methods of this version (see ./custom-methods.ts); one the version has already is an error at construction. */
  custom?: CustomMethods;
}

/** Served versions by label, as createRouter reads them. */
export type ServedMap<L extends string, M extends string> = { readonly [V in L | M]?: Served<object, object, L> };

export interface RouterOptions<Versions> {
  serverInfo: { name: string; version: string; [key: string]: unknown };
  instructions?: string;
  versions: Versions;
  /** Cache hints of the `server/discover` result. Default: `{ ttlMs: 0, cacheScope: "public" }`. */
  discoverCache?: { ttlMs: number; cacheScope: "public" | "private" };
  /** The error hook of every served version's dispatcher whose own `dispatcher.onError` is not set. Default: one line on stderr. */
  onError?: OnError;
  /**
   * Carries `publish` to the other processes serving the same clients (several instances behind a load
   * balancer), e.g. `createRedisFanout` of `runtime/redis`. Default: none, `publish` reaches this process only.
   */
  fanout?: Fanout;
  /**
   * Most `subscriptions/listen` streams open at once per principal (default 16) and in all (default
   * 10,000): one more is refused -32000 naming the limit (and reported to `onError`). Requests without a
   * principal count toward the total only.
   */
  maxListenStreamsPerPrincipal?: number;
  maxListenStreams?: number;
}

/** The defaults of the router's bounds (RouterOptions). */
export const LISTEN_LIMITS = { maxListenStreamsPerPrincipal: 16, maxListenStreams: 10_000 } as const;

/** The code a bound answers with (as the Tasks extension's bounds: an implementation-defined server error). */
const LIMIT_REACHED = -32000;

/** How `publish` reaches other processes: each publishes what its router publishes and delivers what the others do. */
export interface Fanout {
  /** Hand a notification to the other processes; rejects when it cannot (the local delivery is done already). */
  publish(method: string, params: Record<string, unknown> | undefined): Promise<void>;
  /** Receive the other processes' notifications (never this process's own) until the returned function is called. */
  subscribe(receive: (method: string, params: Record<string, unknown> | undefined) => void): () => void;
}

/** One legacy connection (a session): its version, chosen at `initialize`, and its dispatcher. */
export interface LegacyConnection<L extends string = string> extends ConnectionInfo<L> {
  /** Answer one message of this connection: a request → its response; a notification or a response to our request → undefined. Never rejects. */
  handle(message: unknown, exchange?: LegacyExchange): Promise<JsonRpcResponse | undefined>;
  /** The connection is gone: pending server→client requests reject, published notifications stop. */
  close(): void;
  /** How many of this connection's requests are being handled now. */
  readonly inFlight: number;
}

/** What the transport passes along with one modern-era message. */
export interface ModernExchange {
  /** Carries notifications about the request (progress, logs, a subscription's stream). */
  send?: Send;
  /** Aborted when the transport gives the request up: the request is cancelled and not answered. */
  signal?: AbortSignal;
  /** The peer (one object per stdio connection): `notifications/cancelled` reaches only requests of the same scope. */
  scope?: object;
  /** The caller the transport verified (handlers see it as `context.auth`). */
  auth?: AuthInfo;
  /** Whom the request is for (handlers see it as `context.principal`; tasks are bound to it). Default: from `auth`. */
  principal?: string;
}

/** What the transport passes along with one legacy-era message. */
export interface LegacyExchange {
  signal?: AbortSignal;
  auth?: AuthInfo;
  principal?: string;
}

export interface ServerRouter<L extends string = string, M extends string = string> {
  /** The served versions, oldest first. */
  readonly versions: readonly (L | M)[];
  readonly legacyVersions: readonly L[];
  readonly modernVersions: readonly M[];
  /** "modern" when the message names its version in `params._meta` (the modern envelope), else "legacy". */
  eraOf(message: unknown): Era;
  /** Open a legacy connection; `send` carries the server's requests and notifications to its client. */
  connect(send: Send): LegacyConnection<L>;
  /**
   * Answer one modern-era message; `send` carries notifications about it (progress, logs, a subscription's
   * stream). `scope` names the peer (one object per stdio connection): `notifications/cancelled` reaches only
   * requests of the same scope. Stateless HTTP has no peer identity: give each POST a scope of its own and
   * cancel with `signal`. Never rejects.
   */
  handle(message: unknown, exchange?: ModernExchange): Promise<JsonRpcResponse | undefined>;
  /**
   * Tell clients about a change: `notifications/{tools,prompts,resources}/list_changed` go to every
   * legacy connection whose version's capabilities declare that `listChanged` and to the modern
   * subscriptions that asked for them; `notifications/resources/updated` to those subscribed to its `uri`.
   * The cost is that of the connections it reaches, whatever the number of others. With `fanout`, the
   * other processes' clients get it too; the promise rejects when the fanout cannot carry it.
   */
  publish(method: ListChangedMethod | "notifications/resources/updated", params?: Record<string, unknown>): Promise<void>;
  /** End every modern subscription gracefully (their `subscriptions/listen` results are sent) and close legacy connections. */
  close(): void;
  /** How many requests are being handled now, modern and legacy (cancelled ones no longer count). */
  readonly inFlight: number;
  /** The param that names a request of a served extension for routing (`Mcp-Name`), e.g. `taskId` for `tasks/get`. */
  nameParam(method: string): string | undefined;
}

export type ListChangedMethod = "notifications/tools/list_changed" | "notifications/prompts/list_changed" | "notifications/resources/list_changed";

export const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
export const META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
export const META_LOG_LEVEL = "io.modelcontextprotocol/logLevel";
export const META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";
export const META_SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

/** The modern era's error codes (2026-07-28 schema: HeaderMismatchError, MissingRequiredClientCapabilityError, UnsupportedProtocolVersionError). */
export const ModernErrorCode = {
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
} as const;

/** LoggingLevel, least severe first (RFC 5424 severities, as the schema's description says). */
const logLevels = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

/** Which SubscriptionFilter key asks for which notification. */
const filterKeys: Readonly<Record<ListChangedMethod, string>> = {
  "notifications/tools/list_changed": "toolsListChanged",
  "notifications/prompts/list_changed": "promptsListChanged",
  "notifications/resources/list_changed": "resourcesListChanged",
};

/** A peer that drops `notifications/message` below `threshold()` (undefined: drop all; "*": send all). */
function levelFiltered(peer: Peer, threshold: () => string | undefined): Peer {
  return {
    notify(method, params, relatedRequestId) {
      if (method === "notifications/message") {
        const min = threshold();
        const level = params?.level;
        if (min === undefined) return Promise.resolve();
        if (min !== "*" && (typeof level !== "string" || logLevels.indexOf(level) < logLevels.indexOf(min))) return Promise.resolve();
      }
      return peer.notify(method, params, relatedRequestId);
    },
    request: (method, params, relatedRequestId, signal) => peer.request(method, params, relatedRequestId, signal),
  };
}

/** The modern era has no server→client requests on a request's stream: handlers return `input_required` instead. */
function notifyOnly(send: Send | undefined, version: string): Peer | undefined {
  if (send === undefined) return undefined;
  return {
    notify: async (method, params, relatedRequestId) => {
      await send(notificationMessage(method, params), relatedRequestId);
    },
    request: (method) =>
      Promise.reject(new JsonRpcError(ErrorCode.InternalError, `Internal error: ${method} cannot be sent to the client in ${version}; return an input_required result instead`)),
  };
}

interface Listener {
  readonly filter: Record<string, unknown>;
  readonly deliver: (method: string, params: Record<string, unknown> | undefined) => Promise<void>;
  readonly end: () => void;
}

/** The SubscriptionFilter the server honors: the requested types its capabilities support (the schema says to omit the rest). */
function honoredFilter(requested: Record<string, unknown>, capabilities: Record<string, unknown>): Record<string, unknown> {
  const flag = (name: string, key: string): boolean => {
    const c = capabilities[name];
    return isPlainObject(c) && c[key] === true;
  };
  const honored: Record<string, unknown> = {};
  if (requested.toolsListChanged === true && flag("tools", "listChanged")) honored.toolsListChanged = true;
  if (requested.promptsListChanged === true && flag("prompts", "listChanged")) honored.promptsListChanged = true;
  if (requested.resourcesListChanged === true && flag("resources", "listChanged")) honored.resourcesListChanged = true;
  if (Array.isArray(requested.resourceSubscriptions) && flag("resources", "subscribe")) {
    honored.resourceSubscriptions = requested.resourceSubscriptions.filter((uri): uri is string => typeof uri === "string");
  }
  return honored;
}

function wants(filter: Record<string, unknown>, method: string, params: Record<string, unknown> | undefined): boolean {
  if (method === "notifications/resources/updated") {
    return Array.isArray(filter.resourceSubscriptions) && filter.resourceSubscriptions.includes(params?.uri);
  }
  const key = (filterKeys as Record<string, string | undefined>)[method];
  return key !== undefined && filter[key] === true;
}

/** The caller members of a dispatcher exchange: `auth` as given, `principal` as given or derived from `auth`. */
function caller(exchange: { auth?: AuthInfo; principal?: string }): { auth?: AuthInfo; principal?: string } {
  const principal = exchange.principal ?? principalOf(exchange.auth);
  if (exchange.auth === undefined && principal === undefined) return {};
  return { ...(exchange.auth === undefined ? {} : { auth: exchange.auth }), ...(principal === undefined ? {} : { principal }) };
}

/** `handlers` without the given methods. */
function withoutMethods(handlers: object, methods: readonly string[]): object {
  return Object.fromEntries(Object.entries(handlers).filter(([m]) => !methods.includes(m)));
}

/** A value from a message, as text for an error's data (never throws). */
function shown(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? "undefined";
  } catch {
    return "(not JSON)";
  }
}

interface ServedEntry {
  handlers: object | ((connection: ConnectionInfo) => object);
  capabilities: object;
  dispatcher?: DispatcherOptions;
  extensions?: Readonly<Record<string, ServedExtension | undefined>>;
  custom?: CustomMethods;
}

/** A served version's extensions the tree has, in identifier order, with their table entries. */
function servedExtensions(entry: ServedEntry, routed: RoutedVersion<string, Era>): Array<{ id: string; served: ServedExtension; routed: RoutedExtension }> {
  const out: Array<{ id: string; served: ServedExtension; routed: RoutedExtension }> = [];
  for (const id of Object.keys(entry.extensions ?? {}).sort()) {
    const served = entry.extensions![id];
    if (served === undefined) continue;
    const table = routed.extensions?.[id];
    if (table === undefined) throw new Error(`protocol version ${routed.label} has no extension ${id} in the generated tree`);
    out.push({ id, served, routed: table });
  }
  return out;
}

/** Build a server router over a generated table of versions and the versions served. */
export function createRouter<L extends string, M extends string>(table: RouterTable<L, M>, options: RouterOptions<ServedMap<L, M>>): ServerRouter<L, M> {
  type V = L | M;
  const order: V[] = table.versions.map((v) => v.label);
  const eraOfVersion = new Map<V, Era>(table.versions.map((v) => [v.label, v.era]));
  const served = new Map<V, ServedEntry>();
  for (const version of order) {
    const entry = (options.versions as Readonly<Record<string, ServedEntry | undefined>>)[version];
    if (entry !== undefined) served.set(version, entry);
  }
  const factories = new Map<V, RoutedVersion<V, Era>>(table.versions.map((v) => [v.label, v]));
  const versions = [...served.keys()];
  const legacyVersions = table.versions.filter((v): v is RoutedVersion<L, "legacy"> => v.era === "legacy" && served.has(v.label)).map((v) => v.label);
  const modernVersions = table.versions.filter((v): v is RoutedVersion<M, "modern"> => v.era === "modern" && served.has(v.label)).map((v) => v.label);
  const serverInfo = options.serverInfo;
  const discoverCache = options.discoverCache ?? { ttlMs: 0, cacheScope: "public" };
  const listeners = new Set<Listener>();
  const maxListensPerPrincipal = options.maxListenStreamsPerPrincipal ?? LISTEN_LIMITS.maxListenStreamsPerPrincipal;
  const maxListens = options.maxListenStreams ?? LISTEN_LIMITS.maxListenStreams;
  /** Listen streams open or opening: in all, and by principal (those with one). */
  let listening = 0;
  const listeningOf = new Map<string, number>();
  /** Take a listen stream's place under the bounds (synchronously, so concurrent listens cannot all pass); the returned function gives it back. */
  function reserveListen(principal: string | undefined): () => void {
    if (listening >= maxListens) throw new JsonRpcError(LIMIT_REACHED, `Too many listen streams: ${maxListens} are open (maxListenStreams)`);
    const mine = principal === undefined ? 0 : (listeningOf.get(principal) ?? 0);
    if (principal !== undefined && mine >= maxListensPerPrincipal) {
      throw new JsonRpcError(LIMIT_REACHED, `Too many listen streams: ${maxListensPerPrincipal} are open for this principal (maxListenStreamsPerPrincipal)`);
    }
    listening += 1;
    if (principal !== undefined) listeningOf.set(principal, mine + 1);
    return () => {
      listening -= 1;
      if (principal === undefined) return;
      const left = (listeningOf.get(principal) ?? 1) - 1;
      if (left === 0) listeningOf.delete(principal);
      else listeningOf.set(principal, left);
    };
  }
  type Member = { deliver: (method: string, params: Record<string, unknown> | undefined) => Promise<void>; close: () => void; readonly inFlight: number };
  const connections = new Set<Member>();
  /** Legacy connections by the notification they take: a list_changed method → those whose capabilities declare it; a resource uri → its subscribers. */
  const listChanged = new Map<string, Set<Member>>();
  const subscribers = new Map<unknown, Set<Member>>();
  const join = <K>(index: Map<K, Set<Member>>, key: K, member: Member) => {
    let set = index.get(key);
    if (set === undefined) index.set(key, (set = new Set()));
    set.add(member);
  };
  const leave = <K>(index: Map<K, Set<Member>>, key: K, member: Member) => {
    const set = index.get(key);
    if (set === undefined) return;
    set.delete(member);
    if (set.size === 0) index.delete(key);
  };

  function handlersFor(entry: ServedEntry, connection: ConnectionInfo<L>): object {
    return typeof entry.handlers === "function" ? entry.handlers(connection) : entry.handlers;
  }

  function dispatcherOptionsOf(version: V): DispatcherOptions | undefined {
    const entry = served.get(version)!;
    return options.onError === undefined || entry.dispatcher?.onError !== undefined ? entry.dispatcher : { ...entry.dispatcher, onError: options.onError };
  }

  function dispatcherFor(version: V, handlers: object): Dispatcher {
    return withCustom(version, factories.get(version)!.createDispatcher(handlers, dispatcherOptionsOf(version)));
  }

  /** The version's own methods (what a client sends in it, what the router answers, its extensions'): custom methods may not take them. */
  function ownMethods(version: V): string[] {
    const sent = Object.keys(table.clientMessages).filter((m) => table.clientMessages[m].includes(version));
    const extensions = Object.values(factories.get(version)!.extensions ?? {}).flatMap((e) => e.methods);
    return [...sent, ...extensions, "initialize", "server/discover", "subscriptions/listen"];
  }

  /** Whether `method` is a custom method of the served `version` (a custom method is never another era's). */
  function isCustom(version: V, method: string): boolean {
    const custom = served.get(version)?.custom;
    return custom !== undefined && Object.hasOwn(custom, method);
  }

  /** A version's dispatcher with its custom methods in front (none: as it is). */
  function withCustom(version: V, dispatcher: Dispatcher): Dispatcher {
    const custom = served.get(version)!.custom;
    if (custom === undefined) return dispatcher;
    return withCustomMethods(dispatcher, custom, { protocolVersion: version, era: eraOfVersion.get(version)!, taken: ownMethods(version) }, dispatcherOptionsOf(version));
  }

  /**
   * -32601 for a method of the other era, naming the other-era version nearest to the request's:
   * "resources/subscribe is a 2025-11-25 method, not available in 2026-07-28".
   */
  function otherEraMethod(method: string, version: V): string | undefined {
    const has = Object.hasOwn(table.clientMessages, method) ? table.clientMessages[method] : undefined;
    if (has === undefined || has.includes(version)) return undefined;
    const at = order.indexOf(version);
    const other = has.filter((v) => eraOfVersion.get(v) !== eraOfVersion.get(version));
    if (other.length === 0) return undefined;
    const nearest = other.reduce((a, b) => (Math.abs(order.indexOf(b) - at) < Math.abs(order.indexOf(a) - at) ? b : a));
    return `Method not found: ${method} is a ${nearest} method, not available in ${version}`;
  }

  // Modern versions: one dispatcher each, made once, with the requests the router answers itself; and
  // one per served extension (its module's dispatcher), for requests that negotiate it.
  const modernDispatchers = new Map<V, Dispatcher>();
  const extensionRoutes = new Map<V, { extensions: ReturnType<typeof servedExtensions>; dispatchers: Map<string, Dispatcher>; owner: Map<string, string> }>();
  const nameParams = new Map<string, string>();
  for (const version of modernVersions) {
    const entry = served.get(version)!;
    const extensions = servedExtensions(entry, factories.get(version)!);
    const ids = extensions.map((e) => e.id);
    const advertised = extensions.length === 0 ? {} : { extensions: { ...(entry.capabilities as { extensions?: object }).extensions, ...Object.fromEntries(extensions.map((e) => [e.id, e.served.settings ?? {}])) } };
    const capabilities = { ...(entry.capabilities as Record<string, unknown>), ...advertised };
    const owned = {
      "server/discover": () => ({
        supportedVersions: [...modernVersions],
        capabilities,
        ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
        ttlMs: discoverCache.ttlMs,
        cacheScope: discoverCache.cacheScope,
        _meta: { [META_SERVER_INFO]: serverInfo },
      }),
      "subscriptions/listen": async (params: { notifications?: unknown }, context: RequestContext) => {
        if (!isPlainObject(params.notifications)) throw new JsonRpcError(ErrorCode.InvalidParams, "Invalid params: subscriptions/listen requires notifications (a SubscriptionFilter)");
        const release = reserveListen(context.principal);
        try {
          return await listen(params.notifications, context);
        } finally {
          release();
        }
      },
    };
    /** One listen stream, from its acknowledgement until the request ends: its result. */
    const listen = async (notifications: Record<string, unknown>, context: RequestContext) => {
      const tag = { [META_SUBSCRIPTION_ID]: context.requestId };
      const filter = honoredFilter(notifications, capabilities);
      const deliver = (method: string, params: Record<string, unknown> | undefined) => context.notify(method, { ...params, _meta: { ...(isPlainObject(params?._meta) ? params._meta : {}), ...tag } });
      // Each served extension's part of the filter (Tasks: taskIds), delivered on the same stream.
      const agreed = negotiated(context._meta, META_CLIENT_CAPABILITIES, ids);
      const parts: Array<{ honored: Record<string, unknown>; stop(): void }> = [];
      try {
        for (const e of extensions) {
          const part = await e.served.listen?.(notifications, deliver, agreed.has(e.id), context);
          if (part !== undefined) parts.push(part);
        }
      } catch (error) {
        for (const part of parts) part.stop();
        throw error;
      }
      for (const part of parts) Object.assign(filter, part.honored);
      // The acknowledgement is the first message carrying the subscription id (the schema says so).
      await context.notify("notifications/subscriptions/acknowledged", { notifications: filter, _meta: tag });
      await new Promise<void>((resolve) => {
        const listener: Listener = {
          filter,
          deliver,
          end: () => {
            listeners.delete(listener);
            for (const part of parts) part.stop();
            resolve();
          },
        };
        listeners.add(listener);
        if (context.signal.aborted) listener.end();
        else context.signal.addEventListener("abort", () => listener.end(), { once: true });
      });
      return { _meta: tag };
    };
    const core = handlersFor(entry, { protocolVersion: undefined, initializeParams: undefined });
    // An extension's handlers of core methods answer every request; their values resolve as not negotiated here.
    const coreOverrides = Object.assign({}, ...extensions.map((e) => resolvingHandlers(withoutMethods(e.served.handlers ?? {}, e.routed.methods), e.served.resolve, false)));
    modernDispatchers.set(version, dispatcherFor(version, { ...core, ...coreOverrides, ...owned }));
    const dispatchers = new Map<string, Dispatcher>();
    const owner = new Map<string, string>();
    for (const e of extensions) {
      const own = resolvingHandlers(e.served.handlers ?? {}, e.served.resolve, true);
      const base = dispatcherOptionsOf(version);
      const extOptions = e.served.validators === undefined ? base : { ...base, validators: { ...base?.validators, ...e.served.validators } };
      dispatchers.set(e.id, withCustom(version, e.routed.createDispatcher({ ...core, ...coreOverrides, ...own, ...owned }, extOptions)));
      for (const method of e.routed.methods) owner.set(method, e.id);
      for (const [method, param] of Object.entries(e.served.nameParams ?? {})) nameParams.set(method, param);
    }
    if (extensions.length > 0) extensionRoutes.set(version, { extensions, dispatchers, owner });
  }

  function eraOf(message: unknown): Era {
    try {
      const meta = metaOfParams(paramsOf(message));
      return meta !== undefined && Object.hasOwn(meta, META_PROTOCOL_VERSION) ? "modern" : "legacy";
    } catch {
      return "legacy";
    }
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
      let dispatcher = modernDispatchers.get(version)!;
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
      const wrongEra = owner === undefined && !isCustom(version, envelope.method) ? otherEraMethod(envelope.method, version) : undefined;
      if (wrongEra !== undefined) return id === undefined ? undefined : errorResponse(id, ErrorCode.MethodNotFound, wrongEra);
      const peer = notifyOnly(exchange.send, version);
      const level = ownMember(meta, META_LOG_LEVEL);
      const threshold = typeof level === "string" && logLevels.includes(level) ? level : undefined;
      const filtered = peer === undefined ? undefined : levelFiltered(peer, () => threshold);
      return await dispatcher.handle(message, { peer: filtered, signal: exchange.signal, scope: exchange.scope, ...caller(exchange) });
    } catch {
      // Only a hostile message or exchange gets here: answer without detail.
      return envelope.kind === "request" ? errorResponse(envelope.id, ErrorCode.InternalError, "Internal error") : undefined;
    }
  }

  function connect(send: Send): LegacyConnection<L> {
    const channel: PeerChannel = createPeerChannel(send);
    let protocolVersion: L | undefined;
    let initializeParams: Record<string, unknown> | undefined;
    let dispatcher: Dispatcher | undefined;
    /** Dispatchers with requests of this connection in flight: the committed one, and any answering an initialize. */
    const live = new Set<Dispatcher>();
    let logLevel = "*";
    let closed = false;
    const subscribed = new Set<unknown>();
    const info: ConnectionInfo<L> = {
      get protocolVersion() {
        return protocolVersion;
      },
      get initializeParams() {
        return initializeParams;
      },
    };
    const peer = levelFiltered(channel, () => logLevel);
    // Reached only through the indexes (listChanged, subscribers), which hold initialized connections.
    const member: Member = {
      deliver: async (method: string, params: Record<string, unknown> | undefined): Promise<void> => {
        await send(notificationMessage(method, params), undefined);
      },
      close: () => close(),
      get inFlight() {
        let n = 0;
        for (const d of live) n += d.inFlight;
        return n;
      },
    };
    connections.add(member);

    function close(): void {
      if (closed) return;
      closed = true;
      connections.delete(member);
      for (const method of Object.keys(filterKeys)) leave(listChanged, method, member);
      for (const uri of subscribed) leave(subscribers, uri, member);
      channel.close(new JsonRpcError(ErrorCode.InternalError, "Connection closed"));
    }

    /** The version and dispatcher an `initialize` request asks for; nothing is committed until it succeeds. */
    function initialize(params: unknown, id: RequestId): { version: L; dispatcher: Dispatcher } | JsonRpcResponse {
      if (dispatcher !== undefined) return errorResponse(id, ErrorCode.InvalidRequest, "Invalid Request: the connection is already initialized");
      if (legacyVersions.length === 0) {
        return errorResponse(id, ErrorCode.MethodNotFound, `Method not found: initialize is not available; this server serves ${versions.join(", ")}`);
      }
      const asked = ownMember(params, "protocolVersion");
      const chosen = legacyVersions.find((v) => v === asked) ?? legacyVersions[legacyVersions.length - 1];
      const entry = served.get(chosen)!;
      const owned = {
        initialize: () => ({
          protocolVersion: chosen,
          capabilities: entry.capabilities,
          serverInfo,
          ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
        }),
      };
      return { version: chosen, dispatcher: dispatcherFor(chosen, { ...handlersFor(entry, info), ...owned }) };
    }

    async function handleLegacy(message: unknown, exchange: LegacyExchange = {}): Promise<JsonRpcResponse | undefined> {
      const envelope = readEnvelope(message);
      try {
        if (envelope.kind === "response") {
          channel.receive(message);
          return undefined;
        }
        if (envelope.kind === "invalid") return invalidRequest(envelope);
        const { method } = envelope;
        const id = envelope.kind === "request" ? envelope.id : undefined;
        if (method === "initialize") {
          // Only a request initializes; the connection takes its version once the answer is a result
          // (invalid params leave it uninitialized, free to try again).
          if (id === undefined) return undefined;
          const chosen = initialize(envelope.params, id);
          if (!("dispatcher" in chosen)) return chosen;
          live.add(chosen.dispatcher);
          let response: JsonRpcResponse | undefined;
          try {
            response = await chosen.dispatcher.handle(message, { peer, signal: exchange.signal, ...caller(exchange) });
          } finally {
            if (response !== undefined && "result" in response && dispatcher === undefined) {
              protocolVersion = chosen.version;
              initializeParams = paramsOf(message);
              dispatcher = chosen.dispatcher;
              const capabilities = served.get(chosen.version)!.capabilities as Record<string, unknown>;
              for (const method of Object.keys(filterKeys)) {
                const c = capabilities[method.split("/")[1]];
                if (!closed && isPlainObject(c) && c.listChanged === true) join(listChanged, method, member);
              }
            } else if (dispatcher !== chosen.dispatcher) {
              live.delete(chosen.dispatcher);
            }
          }
          return response;
        }
        const target = dispatcher;
        if (target === undefined || protocolVersion === undefined) {
          // Before initialize only ping is answered (the lifecycle section of every legacy version).
          if (id === undefined) return undefined;
          if (method === "ping") return { jsonrpc: "2.0", id, result: {} };
          return errorResponse(id, ErrorCode.InvalidRequest, `Invalid Request: send initialize before ${method}`);
        }
        const wrongEra = isCustom(protocolVersion, method) ? undefined : otherEraMethod(method, protocolVersion);
        if (wrongEra !== undefined) return id === undefined ? undefined : errorResponse(id, ErrorCode.MethodNotFound, wrongEra);
        const response = await target.handle(message, { peer, signal: exchange.signal, ...caller(exchange) });
        if (response !== undefined && "result" in response) {
          const params = paramsOf(message);
          if (method === "logging/setLevel" && typeof params?.level === "string") logLevel = params.level;
          if (method === "resources/subscribe" && !closed) {
            subscribed.add(params?.uri);
            join(subscribers, params?.uri, member);
          }
          if (method === "resources/unsubscribe") {
            subscribed.delete(params?.uri);
            leave(subscribers, params?.uri, member);
          }
        }
        return response;
      } catch {
        // Only a hostile message gets here: answer without detail.
        return envelope.kind === "request" ? errorResponse(envelope.id, ErrorCode.InternalError, "Internal error") : undefined;
      }
    }

    return {
      get protocolVersion() {
        return protocolVersion;
      },
      get initializeParams() {
        return initializeParams;
      },
      get inFlight() {
        return member.inFlight;
      },
      handle: handleLegacy,
      close,
    };
  }

  /** Deliver a notification to this process's clients that take it. */
  async function deliverHere(method: string, params: Record<string, unknown> | undefined): Promise<void> {
    const deliveries: Promise<void>[] = [];
    const attempt = (deliver: () => Promise<void>): void => {
      try {
        deliveries.push(deliver());
      } catch (error) {
        deliveries.push(Promise.reject(error));
      }
    };
    for (const listener of listeners) if (wants(listener.filter, method, params)) attempt(() => listener.deliver(method, params));
    const reached = method === "notifications/resources/updated" ? subscribers.get(params?.uri) : listChanged.get(method);
    for (const connection of reached ?? []) attempt(() => connection.deliver(method, params));
    await Promise.allSettled(deliveries);
  }

  const fanout = options.fanout;
  const unsubscribe = fanout?.subscribe((method, params) => void deliverHere(method, params));

  async function publish(method: string, params?: Record<string, unknown>): Promise<void> {
    const remote = fanout?.publish(method, params);
    // Handled here so a rejection is never unhandled while the local delivery runs.
    remote?.catch(() => undefined);
    await deliverHere(method, params);
    await remote;
  }

  function close(): void {
    unsubscribe?.();
    for (const listener of [...listeners]) listener.end();
    for (const connection of [...connections]) connection.close();
  }

  return {
    versions,
    legacyVersions,
    modernVersions,
    eraOf,
    connect,
    handle,
    publish,
    close,
    nameParam: (method) => nameParams.get(method),
    get inFlight() {
      let n = 0;
      for (const d of modernDispatchers.values()) n += d.inFlight;
      for (const r of extensionRoutes.values()) for (const d of r.dispatchers.values()) n += d.inFlight;
      for (const c of connections) n += c.inFlight;
      return n;
    },
  };
}
