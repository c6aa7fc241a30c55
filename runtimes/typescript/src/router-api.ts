// What createRouter (./router.ts) takes and gives: the generated table of versions, the served
// versions and options, the router and its connections; and the modern era's `_meta` keys and error
// codes. Types and constants only: the parts of the router (./router-*.ts) and its callers share them.
import { HEADER_MISMATCH, MISSING_REQUIRED_CLIENT_CAPABILITY, UNSUPPORTED_PROTOCOL_VERSION } from "../protocol.js";
import type { AuthInfo } from "./auth.js";
import type { Cancellation } from "./cancellation.js";
import type { Dispatcher, DispatcherOptions } from "./dispatcher.js";
import type { JsonRpcResponse } from "./jsonrpc.js";
import type { RoutedMethodTable } from "./method-gate.js";
import type { Send } from "./peer.js";
import type { OnError } from "./report.js";
import type { RoutedExtension, ServedExtension } from "./router-extensions.js";
import type { CustomMethods } from "./custom-methods.js";

export type Era = "legacy" | "modern";

/** One generated version as the router needs it: its label, its era and its server dispatcher. */
export interface RoutedVersion<V extends string, E extends Era> {
  readonly label: V;
  readonly era: E;
  /** The version's `createServerDispatcher`. */
  createDispatcher(handlers: object, options?: DispatcherOptions): Dispatcher;
  /** The version's METHOD_TABLE: what the router serves, refuses and routes by name. */
  readonly methodTable: RoutedMethodTable;
  /** The `resultType` values of its custom requests, the default first (null: legacy): the version module's `customResultTypes`. */
  readonly customResultTypes: readonly string[] | null;
  /** Where its server/discover result carries the server's info (the version module's `discoverServerInfo`): the `serverInfo` member, or `_meta` (`meta`, also when absent). */
  readonly discoverServerInfo?: "member" | "meta" | null;
  /** The extensions the tree has for this version, by identifier (modern versions only). */
  readonly extensions?: Readonly<Record<string, RoutedExtension>>;
}

/** What a generated router.ts gives createRouter: data about the generated versions. */
export interface RouterTable<L extends string, M extends string> {
  /** Every generated version, oldest first. */
  readonly versions: ReadonlyArray<RoutedVersion<L, "legacy"> | RoutedVersion<M, "modern">>;
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
  /** The same as `signal`, cheaper to make (./cancellation.ts): what the shipped transports pass. */
  cancellation?: Cancellation;
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
  cancellation?: Cancellation;
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
  /**
   * The param a request of `protocolVersion` names itself by for routing (`Mcp-Name`): its METHOD_TABLE
   * row's `nameParam` (`name` of tools/call), else a served extension module's (`taskId` of Tasks' `tasks/get`).
   */
  nameParam(method: string, protocolVersion: string): string | undefined;
}

export type ListChangedMethod = "notifications/tools/list_changed" | "notifications/prompts/list_changed" | "notifications/resources/list_changed";

export { META_CLIENT_CAPABILITIES, META_LOG_LEVEL, META_PROTOCOL_VERSION, META_SERVER_INFO, META_SUBSCRIPTION_ID } from "../protocol.js";

/** The modern era's error codes (2026-07-28 schema: HeaderMismatchError, MissingRequiredClientCapabilityError, UnsupportedProtocolVersionError). */
export const ModernErrorCode = {
  HeaderMismatch: HEADER_MISMATCH,
  MissingRequiredClientCapability: MISSING_REQUIRED_CLIENT_CAPABILITY,
  UnsupportedProtocolVersion: UNSUPPORTED_PROTOCOL_VERSION,
} as const;
