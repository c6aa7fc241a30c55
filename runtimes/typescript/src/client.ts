// The client core: connects over a ClientTransport, negotiates a protocol version (legacy
// `initialize`, or modern `server/discover` with the `_meta` envelope on every request, falling back
// from modern to legacy), and sends typed requests whose results it normalizes and validates with the
// negotiated version's generated code. The root client.ts passes the version table (data); the rules
// are here.
//
// - `request` refuses a method the negotiated version does not have (or a client does not send), and
//   one the server's capabilities do not offer; params are validated before they are sent; a result is
//   normalized, then validated: a result that fails is a ClientError naming the JSON pointers.
// - Abort or timeout: `notifications/cancelled` is sent and the request rejects with the reason.
// - The server's requests (legacy era) are answered by the version's client dispatcher with the
//   client's handlers; 2026-07-28 `input_required` results are answered by the same handlers and the
//   request is retried with `inputResponses` and the server's `requestState`, for at most `maxInputRounds`.
// - Nothing the client runs outlives what owns it: a handler's signal aborts when the client closes, when the
//   server cancels its request, and when the request it is nested in (the one whose stream brought it, or
//   the input-required request it answers) is cancelled or fails; after close nothing more is handled.
// - 2026-07-28 tools whose `x-mcp-header` designations are invalid are left out of tools/list results.
// - Tasks (where METHOD_TABLE rows name a `taskResult`, 2025-11-25): a request whose params carry `task`
//   resolves to that result (CreateTaskResult), validated as it, unless the server's capabilities lack the
//   row's `taskCapability` (then it is refused before it is sent); `tasks.get/result/list/cancel` and
//   `callToolAsTask` (create, poll as the task's `pollInterval` says, then `tasks/result`); a tools/call
//   sent plainly for a tool listed with `execution.taskSupport: "required"` (or with `task` for one listed
//   "forbidden" or without taskSupport) is refused before anything is sent. `notifications/tasks/status`
//   goes to the handler of that name, like every notification.
// - The Tasks extension (2026-07-28): an extension module layered onto the negotiated version (the entry's
//   `extensions`) answers instead of it when the client's capabilities and the server's both declare the
//   extension; `tasks.result` and `callToolAsTask` then poll `tasks/get` until the task settles, answering
//   its `inputRequests` through `tasks/update`, woken early by its `notifications/tasks`.
// - As the receiver of task-augmented requests (2025-11-25): a server request carrying `task`, where the
//   client declares the row's `taskCapability`, is answered with a CreateTaskResult while its handler runs,
//   and the server's `tasks/*` about it are answered (./client-tasks.ts).
// - Tool `inputSchema`s and every other result value are passed on as received (no dereferencing).
// - `pages` walks a list's pages (which methods page is the table's `paginated` column); handlers can be
//   set and replaced at any time (the dispatcher calls through the client's current set); `onNotification`
//   hears every notification no specific handler took.
// - A tools/call result's `structuredContent` is checked against the tool's `outputSchema` from the last
//   tools/list that named the tool (zod's `fromJSONSchema`; off with `validateStructuredContent: false`).
import * as z from "zod";
import type { ClientTransport, OutgoingInfo } from "./client-transport.js";
import { invalidHeaderDesignation } from "./client-headers.js";
import { ClientTasks, type ClientTaskOptions } from "./client-tasks.js";
import type { Dispatcher, DispatcherOptions, Guard, MethodValidator, SchemaLike } from "./dispatcher.js";
import { ErrorCode, isPlainObject, JsonRpcError, PeerError, readEnvelope, type JsonRpcMessage, type JsonRpcRequest, type RequestId } from "./jsonrpc.js";
import type { Peer } from "./peer.js";
import { META_SUBSCRIPTION_ID } from "./router-api.js";
import { LIST_CHANGED_METHODS, wants } from "./router-subscriptions.js";
import { formatIssues, issuePaths } from "./schema-support.js";

import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROGRESS_TOKEN, META_PROTOCOL_VERSION, META_SERVER_INFO, UNSUPPORTED_PROTOCOL_VERSION } from "../protocol.js";
export { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION, META_SERVER_INFO, UNSUPPORTED_PROTOCOL_VERSION };

/** One generated version as the client needs it (the root client.ts builds these from each version module). */
export interface ClientVersionEntry {
  readonly label: string;
  readonly era: "legacy" | "modern";
  readonly paramsSchemas: Readonly<Record<string, SchemaLike>>;
  /** The allocation-free fast path in front of `paramsSchemas` (a false sends the params to the schema). */
  readonly paramsGuards?: Readonly<Record<string, Guard | undefined>>;
  readonly resultSchemas: Readonly<Record<string, SchemaLike>>;
  readonly resultGuards?: Readonly<Record<string, Guard | undefined>>;
  readonly normalizers: Readonly<Record<string, (value: unknown) => object>>;
  /** The version's METHOD_TABLE: each method's status here, its sender, the capability paths it needs. */
  readonly table: Readonly<Record<string, MethodRow>>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each version's ClientHandlers
  readonly createClientDispatcher: (handlers: any, options?: DispatcherOptions) => Dispatcher;
  /** 2026-07-28: the schema of an answer to an input request (InputResponse). */
  readonly inputResponse?: SchemaLike;
  /** The schema (and guard) of each request's `taskResult` (METHOD_TABLE), by method: what a task-augmented request resolves to. */
  readonly taskResultSchemas?: Readonly<Record<string, SchemaLike>>;
  readonly taskResultGuards?: Readonly<Record<string, Guard | undefined>>;
  /**
   * The extension modules layered onto this version (`<label>+<name>`), by identifier: the client uses one
   * in place of this entry when its own capabilities and the server's both declare the extension.
   */
  readonly extensions?: ReadonlyArray<{ readonly identifier: string; readonly module: string; readonly entry: ClientVersionEntry }>;
}

/** The part of a METHOD_TABLE row the client reads. */
export interface MethodRow {
  readonly kind: string;
  /** "present" at this version; "removed", "absent", "extension"… otherwise. */
  readonly status: string;
  /** The nearest version that has it, when this one does not. */
  readonly nearest: string | null;
  readonly sender: string;
  /** The sides that handle it. */
  readonly receivers?: readonly string[];
  /** Capability paths (each a list of keys) the receiver must declare. */
  readonly capabilities: ReadonlyArray<ReadonlyArray<string>>;
  /** The param a modern request names itself by (`Mcp-Name`), null when none. */
  readonly nameParam: string | null;
  /** The result a task-augmented request (params carrying `task`) is answered with (`CreateTaskResult`), null when it cannot be one. */
  readonly taskResult?: string | null;
  /** With a taskResult: the capability path the receiver declares to accept the request as a task, null when none. */
  readonly taskCapability?: ReadonlyArray<string> | null;
  /** A list request a client pages through (params declare `cursor`, results `nextCursor`). */
  readonly paginated?: boolean;
}

/** What went wrong on the client's side. */
export type ClientErrorKind =
  | "not-connected"
  | "negotiation"
  | "unknown-method"
  | "capability"
  | "invalid-params"
  | "invalid-result"
  | "input-required"
  | "task"
  | "timeout"
  | "closed";

/** A failure the client detects itself (a server's error answer is a JsonRpcError instead). */
export class ClientError extends Error {
  readonly kind: ClientErrorKind;
  /** For invalid params or results: the JSON pointers (RFC 6901, "" the whole value) that failed. */
  readonly pointers: readonly string[];
  constructor(kind: ClientErrorKind, message: string, pointers: readonly string[] = [], options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ClientError";
    this.kind = kind;
    this.pointers = pointers;
  }
}

export interface Implementation {
  name: string;
  version: string;
  [key: string]: unknown;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- handlers are typed by the root client.ts
export type AnyHandler = (params: any, context: any) => unknown;

export interface ClientOptions {
  clientInfo: Implementation;
  /** The client's capabilities (legacy: sent in `initialize`; modern: in every request's `_meta`). Default `{}`. */
  capabilities?: Record<string, unknown>;
  /** The protocol versions offered, any order (default: every dated version of the table). */
  versions?: readonly string[];
  /** Answers to the server's requests and notifications, by method (`sampling/createMessage`, `elicitation/create`, `roots/list`, `notifications/message`…). */
  handlers?: Readonly<Record<string, AnyHandler | undefined>>;
  /** Hears what the client drops or cannot deliver (an invalid tool left out, a handler that failed, a transport problem). Default: a line on stderr. */
  onError?: (error: unknown) => void;
  /** Default timeout of a request, in ms (default 60 000). */
  timeoutMs?: number;
  /** How long `server/discover` may take before the client falls back to legacy (default 10 000 ms; with no legacy version offered, `timeoutMs`). */
  discoverTimeoutMs?: number;
  /** At most this many `input_required` rounds per request (default 8). */
  maxInputRounds?: number;
  /** Check a tools/call result's `structuredContent` against the tool's `outputSchema` (from the last tools/list naming it). Default true. */
  validateStructuredContent?: boolean;
  /** The tasks this client runs for the server's task-augmented requests (2025-11-25): their lifetime, poll interval, limits. */
  taskReceiver?: ClientTaskOptions;
}

/** A 2026-07-28 `subscriptions/listen` stream, open from its acknowledgement until `close()` or the server ends it. */
export interface Listening extends AsyncIterable<NotificationMessage> {
  /** The stream's id (the listen request's id, as the notifications' `_meta` carry it). */
  readonly id: RequestId;
  /** The filter the server acknowledged: what it admitted of the one asked for. */
  readonly acknowledged: Record<string, unknown>;
  /** Settles when the stream ends: the server's result, undefined after `close()`, a rejection when it failed. */
  readonly ended: Promise<Record<string, unknown> | undefined>;
  /** Cancel the listen request (`notifications/cancelled`); iteration ends after what was received. Idempotent. */
  close(): Promise<void>;
}

interface Stream {
  readonly queue: NotificationMessage[];
  acknowledged?: Record<string, unknown>;
  acked(filter: Record<string, unknown>): void;
  wake(): void;
  done: boolean;
}

/** A notification as the catch-all hears it. */
export interface NotificationMessage {
  readonly method: string;
  readonly params: Record<string, unknown> | undefined;
}

export interface RequestOptions {
  /** Abort: `notifications/cancelled` is sent and the request rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Overrides the client's default timeout (`Infinity`: none); the request is cancelled as by `signal`. */
  timeoutMs?: number;
  /** Receives the server's `notifications/progress` params for this request (a progress token is added to `_meta`). */
  onProgress?: (progress: Record<string, unknown>) => void;
}

/** Hands the id a request is sent with to its caller before it goes on the wire (module-private: not part of the API). */
const assignedId = Symbol("assignedId");
type SendOptions = RequestOptions & { readonly [assignedId]?: (id: RequestId) => void };

/** Options of `callToolAsTask`: a request's, and how the task is made and polled. */
export interface TaskCallOptions extends RequestOptions {
  /** The task's requested lifetime in ms (`task.ttl`); the server's default when omitted. */
  ttl?: number;
  /** How long to wait between polls when the server's task gives no `pollInterval` (default 1000 ms). */
  pollIntervalMs?: number;
}

/** What `connect` settled on. */
export interface Negotiated {
  readonly protocolVersion: string;
  readonly era: "legacy" | "modern";
  readonly serverCapabilities: Record<string, unknown>;
  readonly serverInfo: Record<string, unknown> | undefined;
  readonly instructions: string | undefined;
  /** When modern negotiation was tried and the client fell back to legacy: why. */
  readonly fellBack: string | undefined;
  /** The extensions in use (declared by both sides; their module answers): identifiers, e.g. `io.modelcontextprotocol/tasks`. */
  readonly extensions: readonly string[];
  /** The generated module that answers: the version's label, or the extension module's (`<label>+<name>`) when one is in use. */
  readonly module: string;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  readonly onProgress: ((progress: Record<string, unknown>) => void) | undefined;
  /** Aborted when the request is given up (cancelled, timed out, failed, or the client closed). */
  readonly signal: AbortSignal;
}

/** A signal aborted when either of two is (with its reason); `release` lets go of both. */
function eitherSignal(a: AbortSignal, b: AbortSignal | undefined): { signal: AbortSignal; release(): void } {
  if (b === undefined || b === a) return { signal: a, release: () => undefined };
  const joined = new AbortController();
  const fromA = (): void => joined.abort(a.reason);
  const fromB = (): void => joined.abort(b.reason);
  if (a.aborted) fromA();
  else if (b.aborted) fromB();
  else {
    a.addEventListener("abort", fromA, { once: true });
    b.addEventListener("abort", fromB, { once: true });
  }
  return {
    signal: joined.signal,
    release: () => {
      a.removeEventListener("abort", fromA);
      b.removeEventListener("abort", fromB);
    },
  };
}

/** Whether `capabilities` declares the dotted path (a present value that is not false or null). */
export function declares(capabilities: unknown, path: string): boolean {
  return declaresKeys(capabilities, path.split("."));
}

/** Whether `capabilities` declares the path of keys (a key may hold dots: an extension's identifier). */
function declaresKeys(capabilities: unknown, keys: readonly string[]): boolean {
  let at: unknown = capabilities;
  for (const key of keys) {
    if (!isPlainObject(at) || !Object.hasOwn(at, key)) return false;
    at = at[key];
  }
  return at !== undefined && at !== null && at !== false;
}

function schemaCheck(schema: SchemaLike | undefined, value: unknown, guard?: Guard): { ok: true } | { ok: false; message: string; pointers: string[] } {
  if (schema === undefined || guard?.(value) === true) return { ok: true };
  const r = schema.safeParse(value);
  return r.success ? { ok: true } : { ok: false, message: formatIssues(r.error), pointers: issuePaths(r.error) };
}

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const defaultOnError = (error: unknown): void => {
  (globalThis as { process?: { stderr?: { write(s: string): unknown } } }).process?.stderr?.write(`mcp-codegen client: ${describe(error)}\n`);
};

/** A client over one version table: `connect` it to a transport, then send requests. */
export class ClientCore {
  private readonly table: ReadonlyMap<string, ClientVersionEntry>;
  private readonly options: ClientOptions;
  private readonly onError: (error: unknown) => void;
  private transport: ClientTransport | undefined;
  private entry: ClientVersionEntry | undefined;
  private negotiated: Negotiated | undefined;
  private dispatcher: Dispatcher | undefined;
  private readonly pending = new Map<RequestId, Pending>();
  private readonly progress = new Map<string | number, RequestId>();
  /** 2026-07-28: each listed tool's inputSchema, for the Mcp-Param headers of tools/call. */
  private readonly toolSchemas = new Map<string, unknown>();
  /** Each listed tool's `execution.taskSupport` ("required", "optional", "forbidden"; absent: "forbidden"). */
  private readonly toolTaskSupport = new Map<string, string>();
  /** Each listed tool's outputSchema (any era), for the check of tools/call's structuredContent. */
  private readonly outputSchemas = new Map<string, unknown>();
  /** outputSchemas compiled (zod), each once; a string: why it could not be. */
  private readonly compiled = new WeakMap<object, SchemaLike | string>();
  /** The handlers of the server's requests and notifications, by method: the dispatcher calls through these. */
  private readonly handlers = new Map<string, AnyHandler>();
  private catchAll: ((notification: NotificationMessage) => unknown) | undefined;
  /** The tasks this client runs for the server's task-augmented requests (2025-11-25), made on first use. */
  private received: ClientTasks | undefined;
  /** The open `subscriptions/listen` streams, by their request id. */
  private readonly streams = new Map<RequestId, Stream>();
  private nextId = 1;
  private closed = false;
  /** Aborted when the client closes or loses its connection: every handler it runs stops. */
  private readonly life = new AbortController();
  private readonly scope = {};

  constructor(entries: readonly ClientVersionEntry[], options: ClientOptions) {
    this.table = new Map(entries.map((e) => [e.label, e]));
    this.options = options;
    this.onError = options.onError ?? defaultOnError;
    for (const v of options.versions ?? []) {
      if (!this.table.has(v)) throw new RangeError(`unknown protocol version ${JSON.stringify(v)}; known: ${[...this.table.keys()].join(", ")}`);
    }
    const given = options.handlers ?? {};
    for (const [method, handler] of Object.entries(given)) if (typeof handler === "function") this.handlers.set(method, handler.bind(given));
  }

  /** Answer the server's `method` requests with `handler` (undefined removes it); takes effect at once, connected or not. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- typed by Client
  setRequestHandler(method: string, handler: any): void {
    this.setHandler(method, "request", handler);
  }

  /** Hear the server's `method` notifications with `handler` (undefined removes it); takes effect at once. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- typed by Client
  setNotificationHandler(method: string, handler: any): void {
    this.setHandler(method, "notification", handler);
  }

  /** Hear every notification no handler of its own method took (not progress delivered to a request's `onProgress`); undefined removes it. */
  onNotification(handler: ((notification: NotificationMessage) => unknown) | undefined): void {
    this.catchAll = handler;
  }

  private setHandler(method: string, kind: "request" | "notification", handler: AnyHandler | undefined): void {
    const known = [...this.table.values()].some((e) => Object.hasOwn(e.table, method) && e.table[method].kind === kind && (e.table[method].receivers?.includes("client") ?? true));
    if (!known) throw new ClientError("unknown-method", `${method} is not a ${kind} a server sends to clients at any version of this client`);
    if (handler === undefined) this.handlers.delete(method);
    else this.handlers.set(method, handler);
  }

  /** The negotiated version and what the server said about itself; undefined before `connect`. */
  get connection(): Negotiated | undefined {
    return this.negotiated;
  }

  get protocolVersion(): string | undefined {
    return this.negotiated?.protocolVersion;
  }

  private offered(era: "legacy" | "modern"): string[] {
    const labels = this.options.versions ?? [...this.table.keys()].filter((l) => /^\d{4}-\d{2}-\d{2}$/.test(l));
    // Newest first: dated labels sort by date, "draft" after every dated one.
    return labels.filter((l) => this.table.get(l)!.era === era).sort((a, b) => (a === b ? 0 : a === "draft" ? -1 : b === "draft" ? 1 : a < b ? 1 : -1));
  }

  /** Start the transport and negotiate; resolves with the version that won. On failure the transport is closed. */
  async connect(transport: ClientTransport): Promise<Negotiated> {
    if (this.transport !== undefined) throw new ClientError("negotiation", "this client is connected already; create another for a second connection");
    this.transport = transport;
    await transport.start({
      message: (m, related) => this.receive(m, related),
      closed: (error) => this.lost(error),
      problem: (error) => this.onError(error),
      requestFailed: (id, error) => this.pending.get(id)?.reject(error),
    });
    try {
      const modern = this.offered("modern");
      const legacy = this.offered("legacy");
      if (modern.length === 0 && legacy.length === 0) throw new ClientError("negotiation", "no protocol version offered");
      let fellBack: string | undefined;
      if (modern.length > 0) {
        const outcome = await this.discover(modern, legacy);
        if (outcome.negotiated !== undefined) return this.settle(outcome.negotiated);
        if (legacy.length === 0) throw outcome.error;
        fellBack = describe(outcome.error);
      }
      return this.settle(await this.initialize(legacy, fellBack));
    } catch (error) {
      await this.close();
      throw error;
    }
  }

  private settle(negotiated: Negotiated): Negotiated {
    this.negotiated = negotiated;
    return negotiated;
  }

  /** The dispatcher answering the server's requests and notifications at `entry`. */
  private attach(entry: ClientVersionEntry): void {
    this.entry = entry;
    // One function per method the version has, calling whatever handler is set when the message arrives.
    const calls: Record<string, AnyHandler> = {};
    const validators: Record<string, MethodValidator> = {};
    for (const [method, row] of Object.entries(entry.table)) {
      if (row.status !== "present") continue;
      if (row.kind !== "request") {
        calls[method] = (params, context) => this.handlers.get(method)?.(params, context);
        continue;
      }
      // A task-augmented request (params carrying `task`) the client declared the row's taskCapability for
      // is answered with a task (CreateTaskResult) while its handler runs; the rows' facts decide which.
      const asTask = row.taskResult != null && entry.taskResultSchemas?.[method] !== undefined && row.taskCapability != null && declaresKeys(this.options.capabilities, row.taskCapability);
      if (asTask) validators[method] = this.taskAugmentedValidator(entry, method);
      calls[method] = (params, context) => {
        const handler = this.handlers.get(method) ?? this.taskMethod(entry, method, row);
        if (handler === undefined) throw new PeerError(ErrorCode.MethodNotFound, `Method not found: no handler for ${method} (protocol version ${entry.label})`);
        if (asTask && isPlainObject(params) && isPlainObject(params.task)) {
          const peer = this.peer(entry);
          return this.receivedTasks(entry).create(
            params.task.ttl,
            (signal, taskId) => handler(params, { requestId: context.requestId, _meta: context._meta, protocolVersion: entry.label, signal, taskId, notify: peer.notify, request: (m: string, p?: Record<string, unknown>) => peer.request(m, p, context.requestId, signal) }),
            (result) => this.handlerResult(entry, method, result),
            this.life.signal,
          );
        }
        return handler(params, context);
      };
    }
    this.dispatcher = entry.createClientDispatcher(calls, {
      onError: (error: unknown) => this.onError(error),
      validators,
    });
  }

  /** The tasks this client runs for task-augmented server requests (made on first use). */
  private receivedTasks(entry: ClientVersionEntry): ClientTasks {
    this.received ??= new ClientTasks(this.options.taskReceiver ?? {}, (method, params) => {
      if (this.closed || !Object.hasOwn(entry.table, method) || entry.table[method].status !== "present") return;
      this.transport?.send({ jsonrpc: "2.0", method, params }, { protocolVersion: entry.label, era: entry.era }).catch((error: unknown) => this.onError(error));
    });
    return this.received;
  }

  /**
   * The client's own answer to the server's `tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel` about
   * the tasks it runs, where the client's capabilities declare what the row asks of the receiver (a handler
   * set for the method replaces it); undefined otherwise.
   */
  private taskMethod(entry: ClientVersionEntry, method: string, row: MethodRow): AnyHandler | undefined {
    if (!row.capabilities.every((keys) => declaresKeys(this.options.capabilities, keys))) return undefined;
    const id = (params: unknown): unknown => (isPlainObject(params) ? params.taskId : undefined);
    switch (method) {
      case "tasks/get":
        return (params) => this.receivedTasks(entry).get(id(params));
      case "tasks/result":
        return (params, context: { signal: AbortSignal }) => {
          const { signal, release } = eitherSignal(this.life.signal, context.signal);
          return this.receivedTasks(entry).result(id(params), signal).finally(release);
        };
      case "tasks/list":
        return (params) => this.receivedTasks(entry).list(isPlainObject(params) ? params.cursor : undefined);
      case "tasks/cancel":
        return (params) => this.receivedTasks(entry).cancel(id(params));
      default:
        return undefined;
    }
  }

  /** A handler's result for `method`, normalized and validated as the version's result of it; -32603 naming the pointers when it is not. */
  private handlerResult(entry: ClientVersionEntry, method: string, value: unknown): Record<string, unknown> {
    const normalize = entry.normalizers[method];
    const result = (normalize === undefined ? value : normalize(value)) as Record<string, unknown>;
    const check = schemaCheck(entry.resultSchemas[method], result, entry.resultGuards?.[method]);
    if (!check.ok) throw new PeerError(ErrorCode.InternalError, `Internal error: the ${method} handler's result is not valid at ${entry.label}: ${check.message}`, { pointers: check.pointers });
    return result;
  }

  /** Params as the version's schema says; a result either the method's own (validated as the dispatcher would) or its taskResult. */
  private taskAugmentedValidator(entry: ClientVersionEntry, method: string): MethodValidator {
    return {
      params: (params) => {
        const check = schemaCheck(entry.paramsSchemas[method], params, entry.paramsGuards?.[method]);
        if (!check.ok) throw new PeerError(ErrorCode.InvalidParams, `Invalid params for ${method}: ${check.message}`, { pointers: check.pointers });
        return params;
      },
      result: (result) => {
        const asTask = schemaCheck(entry.taskResultSchemas![method], result, entry.taskResultGuards?.[method]);
        return asTask.ok ? result : this.handlerResult(entry, method, result);
      },
    };
  }

  /** Modern negotiation; `negotiated` when it won, else the error to fall back on (or throw). */
  private async discover(modern: string[], legacy: string[]): Promise<{ negotiated?: Negotiated; error?: unknown }> {
    let version = modern[0];
    for (let attempt = 0; attempt < 2; attempt++) {
      const entry = this.table.get(version)!;
      let raw: unknown;
      try {
        // The short discovery timeout only where there is a legacy version to fall back to.
        raw = await this.wire(entry, "server/discover", this.envelope(entry, {}), legacy.length > 0 ? { timeoutMs: this.options.discoverTimeoutMs ?? 10_000 } : {});
      } catch (error) {
        if (isAuthError(error)) throw error;
        const supported = error instanceof JsonRpcError && error.code === UNSUPPORTED_PROTOCOL_VERSION ? supportedOf(error.data) : undefined;
        const next = supported === undefined ? undefined : modern.find((v) => supported.includes(v));
        if (next !== undefined && attempt === 0) {
          version = next;
          continue;
        }
        return { error: new ClientError("negotiation", `server/discover failed: ${describe(error)}`, [], { cause: error }) };
      }
      let result: Record<string, unknown>;
      try {
        result = this.checkResult(entry, "server/discover", raw);
      } catch (error) {
        return { error };
      }
      const supported = Array.isArray(result.supportedVersions) ? result.supportedVersions : [];
      const chosen = modern.find((v) => supported.includes(v));
      if (chosen === undefined) {
        const reason = `the server supports ${supported.join(", ") || "no version"}; this client offers ${modern.join(", ")} (modern)`;
        return { error: new ClientError("negotiation", reason) };
      }
      const serverCapabilities = isPlainObject(result.capabilities) ? result.capabilities : {};
      const { entry: won, extensions, module } = this.withExtension(this.table.get(chosen)!, serverCapabilities);
      this.attach(won);
      const meta = isPlainObject(result._meta) ? result._meta : {};
      const serverInfo = isPlainObject(result.serverInfo) ? result.serverInfo : isPlainObject(meta[META_SERVER_INFO]) ? meta[META_SERVER_INFO] : undefined;
      return {
        negotiated: {
          protocolVersion: chosen,
          era: "modern",
          extensions,
          module,
          serverCapabilities,
          serverInfo,
          instructions: typeof result.instructions === "string" ? result.instructions : undefined,
          fellBack: undefined,
        },
      };
    }
    return { error: new ClientError("negotiation", "server/discover: no common version") };
  }

  /**
   * The entry that answers at a negotiated modern version: the module of an extension layered onto it that
   * the client's capabilities and the server's both declare (`capabilities.extensions[identifier]`), else the
   * version's own. One module is built per extension, so with two such extensions the first (by identifier)
   * is used and the other reported to onError.
   */
  private withExtension(entry: ClientVersionEntry, serverCapabilities: Record<string, unknown>): { entry: ClientVersionEntry; extensions: string[]; module: string } {
    // Identifiers hold dots, so they are looked up as one key of `extensions`, not as a dotted path.
    const declared = (capabilities: unknown, identifier: string): boolean => declaresKeys(capabilities, ["extensions", identifier]);
    const both = (entry.extensions ?? []).filter((e) => declared(this.options.capabilities, e.identifier) && declared(serverCapabilities, e.identifier));
    if (both.length === 0) return { entry, extensions: [], module: entry.label };
    for (const other of both.slice(1)) this.onError(new ClientError("negotiation", `the extension ${other.identifier} is declared by both sides but only one extension module is used at a time (${both[0].module}); its methods are refused`));
    return { entry: both[0].entry, extensions: [both[0].identifier], module: both[0].module };
  }

  /** Legacy negotiation: `initialize` offering the newest legacy version, then `notifications/initialized`. */
  private async initialize(legacy: string[], fellBack: string | undefined): Promise<Negotiated> {
    const offered = this.table.get(legacy[0])!;
    const params = { protocolVersion: offered.label, capabilities: this.options.capabilities ?? {}, clientInfo: this.options.clientInfo };
    const raw = await this.wire(offered, "initialize", params, {});
    const answered = isPlainObject(raw) ? raw.protocolVersion : undefined;
    if (typeof answered !== "string" || !legacy.includes(answered)) {
      throw new ClientError("negotiation", `the server answered initialize with protocol version ${JSON.stringify(answered)}, which this client does not offer (offered: ${legacy.join(", ")})`);
    }
    const entry = this.table.get(answered)!;
    const result = this.checkResult(entry, "initialize", raw);
    this.attach(entry);
    await this.transport!.send({ jsonrpc: "2.0", method: "notifications/initialized" }, { protocolVersion: answered, era: "legacy" });
    this.transport!.sessionStarted?.(answered);
    return {
      protocolVersion: answered,
      era: "legacy",
      serverCapabilities: isPlainObject(result.capabilities) ? result.capabilities : {},
      serverInfo: isPlainObject(result.serverInfo) ? result.serverInfo : undefined,
      instructions: typeof result.instructions === "string" ? result.instructions : undefined,
      fellBack,
      extensions: [],
      module: answered,
    };
  }

  /** Params with the 2026-07-28 `_meta` envelope (the caller's own `_meta` keys kept). */
  private envelope(entry: ClientVersionEntry, params: Record<string, unknown>): Record<string, unknown> {
    const meta = isPlainObject(params._meta) ? params._meta : {};
    return {
      ...params,
      _meta: { ...meta, [META_PROTOCOL_VERSION]: entry.label, [META_CLIENT_CAPABILITIES]: this.options.capabilities ?? {}, [META_CLIENT_INFO]: this.options.clientInfo },
    };
  }

  private connected(): ClientVersionEntry {
    if (this.closed) throw new ClientError("closed", "the client is closed");
    if (this.entry === undefined || this.negotiated === undefined) throw new ClientError("not-connected", "connect the client first");
    return this.entry;
  }

  /**
   * Send a request at the negotiated version: checked (method, capability, params), its result
   * normalized and validated; 2026-07-28 input-required rounds answered and retried.
   */
  async request(method: string, params?: Record<string, unknown>, options: RequestOptions = {}): Promise<Record<string, unknown>> {
    const entry = this.connected();
    const row = this.row(entry, method, "request");
    for (const keys of row.capabilities) {
      const path = keys.join(".");
      if (!declaresKeys(this.negotiated!.serverCapabilities, keys)) throw new ClientError("capability", `the server does not offer ${method} at ${entry.label}: its capabilities do not declare ${path}`);
    }
    const base = params ?? {};
    if (Object.hasOwn(base, "task")) return this.taskRequest(entry, row, method, base, options);
    if (method === "tools/call" && typeof base.name === "string" && this.toolTaskSupport.get(base.name) === "required") {
      throw new ClientError("task", `the tool ${JSON.stringify(base.name)} must be called as a task (its execution.taskSupport is "required"): use callToolAsTask, or pass params.task`);
    }
    let current = base;
    const rounds = this.options.maxInputRounds ?? 8;
    for (let round = 0; ; round++) {
      const result = this.checkResult(entry, method, await this.send(entry, method, current, options));
      if (entry.era === "modern" && result.resultType === "input_required") {
        if (round >= rounds) throw new ClientError("input-required", `${method}: the server still asks for input after ${rounds} rounds (maxInputRounds)`);
        const inputResponses = await this.answerInputs(entry, result.inputRequests, options.signal);
        // A retry carries the original params, the answers, and the server's requestState unchanged (only when it sent one).
        current = { ...base, inputResponses, ...(Object.hasOwn(result, "requestState") ? { requestState: result.requestState } : {}) };
        continue;
      }
      if (method === "tools/list") return this.keepTools(entry, result);
      if (method === "tools/call" && typeof base.name === "string" && result.resultType !== "task") this.checkStructured(base.name, result);
      return result;
    }
  }

  /** A task-augmented request: refused where its row names no `taskResult` (or the tool forbids tasks), else sent and its result validated as the task result. */
  private async taskRequest(entry: ClientVersionEntry, row: MethodRow, method: string, params: Record<string, unknown>, options: RequestOptions): Promise<Record<string, unknown>> {
    const taskResult = row.taskResult ?? null;
    const schema = entry.taskResultSchemas?.[method];
    if (taskResult === null || schema === undefined) throw new ClientError("task", `${method} cannot be task-augmented at ${entry.label} (its params have no task)`);
    const capability = row.taskCapability ?? null;
    if (capability !== null && !declaresKeys(this.negotiated!.serverCapabilities, capability)) {
      throw new ClientError("capability", `the server does not accept ${method} as a task at ${entry.label}: its capabilities do not declare ${capability.join(".")}`);
    }
    if (method === "tools/call" && typeof params.name === "string") {
      const support = this.toolTaskSupport.get(params.name);
      if (support !== undefined && support !== "required" && support !== "optional") {
        throw new ClientError("task", `the tool ${JSON.stringify(params.name)} cannot be called as a task (its execution.taskSupport is ${JSON.stringify(support)})`);
      }
    }
    const raw = await this.send(entry, method, params, options);
    if (!isPlainObject(raw)) throw new ClientError("invalid-result", `the ${method} result (a task) is not an object`, [""]);
    const check = schemaCheck(schema, raw, entry.taskResultGuards?.[method]);
    if (!check.ok) throw new ClientError("invalid-result", `the ${method} result is not a valid ${taskResult} at ${entry.label}: ${check.message}`, check.pointers);
    return raw;
  }


  /**
   * The task API, at a version whose table has `tasks/*`: 2025-11-25's core methods, or the Tasks extension's
   * at 2026-07-28 (where both sides declare it). `get`, `list`, `update` and `cancel` are their requests (a
   * method the version lacks is refused as `request` refuses it: `list` has no 2026 counterpart, `update`
   * no 2025-11-25 one). `result` waits for the task's outcome: 2025-11-25, `tasks/result`; with the
   * extension, `tasks/get` polled until the task settles (its `inputRequests` answered by the client's
   * handlers through `tasks/update`, each key once; a `completed` task's `result`; a `failed` one's `error`
   * rejected as a JsonRpcError; `cancelled` a ClientError of kind "task"). Either is validated as the result
   * of `method` when given (the request that created the task).
   */
  readonly tasks = {
    get: (taskId: string, options?: RequestOptions): Promise<Record<string, unknown>> => this.request("tasks/get", { taskId }, options),
    result: async (taskId: string, options: TaskCallOptions & { method?: string } = {}): Promise<Record<string, unknown>> => {
      const { method, ...rest } = options;
      const entry = this.connected();
      if (entry.table["tasks/result"]?.status !== "present" && entry.table["tasks/get"]?.status === "present") {
        return this.settleTask(entry, taskId, undefined, method, rest);
      }
      const { ttl: _ttl, pollIntervalMs: _poll, ...request } = rest;
      const payload = await this.request("tasks/result", { taskId }, request);
      return method === undefined ? payload : this.checkResult(this.connected(), method, payload);
    },
    list: (cursor?: string, options?: RequestOptions): Promise<Record<string, unknown>> => this.request("tasks/list", cursor === undefined ? {} : { cursor }, options),
    update: (taskId: string, inputResponses: Record<string, unknown>, options?: RequestOptions): Promise<Record<string, unknown>> => this.request("tasks/update", { taskId, inputResponses }, options),
    cancel: (taskId: string, options?: RequestOptions): Promise<Record<string, unknown>> => this.request("tasks/cancel", { taskId }, options),
  };

  /** Callers waiting on a task, by task id: a `notifications/tasks` for it wakes them (they then poll at once). */
  private readonly taskWaiters = new Map<string, Set<() => void>>();

  /** Resolves after `ms`, or as soon as a `notifications/tasks` names `taskId`; rejects when `signal` aborts. */
  private taskPause(taskId: string, ms: number, signal: AbortSignal | undefined): Promise<void> {
    const wake = new AbortController();
    const waiters = this.taskWaiters.get(taskId) ?? new Set<() => void>();
    const waiter = (): void => wake.abort();
    waiters.add(waiter);
    this.taskWaiters.set(taskId, waiters);
    const { signal: either, release } = eitherSignal(wake.signal, signal);
    return pause(ms, either)
      .catch((error: unknown) => {
        if (signal?.aborted === true) throw error;
      })
      .finally(() => {
        release();
        waiters.delete(waiter);
        if (waiters.size === 0) this.taskWaiters.delete(taskId);
      });
  }

  /**
   * The Tasks extension: poll `tasks/get` (every `pollIntervalMs` the task names, else the option's, default
   * 1000 ms; at once when a `notifications/tasks` for it arrives) until the task settles, answering its
   * `inputRequests` (each key once) with `tasks/update`. `first`: the task as created, when known; `tool`: the
   * tool a tools/call task calls, whose outputSchema its result's structuredContent is checked against.
   */
  private async settleTask(entry: ClientVersionEntry, taskId: string, first: Record<string, unknown> | undefined, method: string | undefined, options: TaskCallOptions, tool?: string): Promise<Record<string, unknown>> {
    const { ttl: _ttl, pollIntervalMs, ...request } = options;
    const deadline = request.timeoutMs === undefined || !Number.isFinite(request.timeoutMs) ? undefined : Date.now() + request.timeoutMs;
    const left = (): number | undefined => (deadline === undefined ? undefined : Math.max(1, deadline - Date.now()));
    const answered = new Set<string>();
    let task = first ?? (await this.tasks.get(taskId, { signal: request.signal, timeoutMs: left() }));
    for (;;) {
      switch (task.status) {
        case "completed": {
          const result = isPlainObject(task.result) ? task.result : {};
          if (method === undefined) return result;
          const checked = this.checkResult(entry, method, result);
          if (method === "tools/call" && tool !== undefined) this.checkStructured(tool, checked);
          return checked;
        }
        case "failed": {
          const e = isPlainObject(task.error) ? task.error : {};
          throw new JsonRpcError(typeof e.code === "number" ? e.code : ErrorCode.InternalError, typeof e.message === "string" ? e.message : `the task ${taskId} failed`, e.data);
        }
        case "cancelled":
          throw new ClientError("task", `the task ${taskId} was cancelled${typeof task.statusMessage === "string" ? `: ${task.statusMessage}` : ""}`);
        case "input_required": {
          const outstanding = Object.fromEntries(Object.entries(isPlainObject(task.inputRequests) ? task.inputRequests : {}).filter(([key]) => !answered.has(key)));
          if (Object.keys(outstanding).length > 0) {
            const inputResponses = await this.answerInputs(entry, outstanding, request.signal);
            for (const key of Object.keys(outstanding)) answered.add(key);
            await this.tasks.update(taskId, inputResponses, { signal: request.signal, timeoutMs: left() });
          }
          break;
        }
      }
      const wait = typeof task.pollIntervalMs === "number" ? task.pollIntervalMs : (pollIntervalMs ?? 1000);
      await this.taskPause(taskId, Math.min(wait, left() ?? wait), request.signal);
      if (deadline !== undefined && Date.now() >= deadline) throw new ClientError("timeout", `the task ${taskId} did not finish within ${request.timeoutMs} ms`);
      task = await this.tasks.get(taskId, { signal: request.signal, timeoutMs: left() });
    }
  }

  /**
   * Call a tool and wait for its result, through a task where the version has them. 2025-11-25: `tools/call`
   * with `task`, then `tasks/get` every `pollInterval` (the task's, else `pollIntervalMs`) while the task is
   * `working`, then `tasks/result` (which also carries what an `input_required` task asks the client's
   * handlers). With the 2026 Tasks extension the server decides: `tools/call` is sent as it is, and a
   * `CreateTaskResult` (`resultType: "task"`) is settled as `tasks.result` does; any other result is returned
   * as `request` returns it. Resolves with the tool's result (validated as tools/call's); a signal or
   * timeout sends `tasks/cancel` and rejects.
   */
  async callToolAsTask(params: Record<string, unknown>, options: TaskCallOptions = {}): Promise<Record<string, unknown>> {
    const { ttl, pollIntervalMs, ...request } = options;
    const entry = this.connected();
    if (entry.era === "modern") {
      const created = await this.request("tools/call", params, request);
      if (created.resultType !== "task") return created;
      const taskId = created.taskId as string;
      try {
        return await this.settleTask(entry, taskId, created, "tools/call", { ...request, pollIntervalMs }, typeof params.name === "string" ? params.name : undefined);
      } catch (error) {
        if (request.signal?.aborted === true || (error instanceof ClientError && error.kind === "timeout")) await this.tasks.cancel(taskId).catch(() => undefined);
        throw error;
      }
    }
    const created = await this.request("tools/call", { ...params, task: ttl === undefined ? {} : { ttl } }, request);
    let task = created.task as Record<string, unknown>;
    const taskId = task.taskId as string;
    const deadline = request.timeoutMs === undefined ? undefined : Date.now() + request.timeoutMs;
    const left = (): number | undefined => (deadline === undefined ? undefined : Math.max(1, deadline - Date.now()));
    try {
      while (task.status === "working") {
        const wait = typeof task.pollInterval === "number" ? task.pollInterval : (pollIntervalMs ?? 1000);
        await pause(Math.min(wait, left() ?? wait), request.signal);
        if (deadline !== undefined && Date.now() >= deadline) throw new ClientError("timeout", `the task ${taskId} did not finish within ${request.timeoutMs} ms`);
        task = await this.tasks.get(taskId, { signal: request.signal, timeoutMs: left() });
      }
      return await this.tasks.result(taskId, { signal: request.signal, timeoutMs: left(), onProgress: request.onProgress, method: "tools/call" });
    } catch (error) {
      if (request.signal?.aborted === true || (error instanceof ClientError && error.kind === "timeout")) await this.tasks.cancel(taskId).catch(() => undefined);
      throw error;
    }
  }

  /**
   * Every page of a paginated list (`tools/list`, `resources/list`…, as the version's table says): each
   * requested as `request` does (checked, normalized, validated), following `nextCursor` until a page has none.
   */
  async *pages(method: string, params?: Record<string, unknown>, options: RequestOptions = {}): AsyncGenerator<Record<string, unknown>, void, undefined> {
    const entry = this.connected();
    const row = this.row(entry, method, "request");
    if (row.paginated !== true) throw new ClientError("unknown-method", `${method} is not a paginated list at ${entry.label}`);
    const seen = new Set<string>();
    let cursor = typeof params?.cursor === "string" ? params.cursor : undefined;
    for (;;) {
      const page = await this.request(method, cursor === undefined ? params : { ...params, cursor }, options);
      yield page;
      const next = page.nextCursor;
      if (typeof next !== "string") return;
      if (seen.has(next)) throw new ClientError("invalid-result", `${method}: the server sent the cursor ${JSON.stringify(next)} twice; stopped paging`, ["/nextCursor"]);
      seen.add(next);
      cursor = next;
    }
  }

  /**
   * 2026-07-28: open a `subscriptions/listen` stream for `filter`; resolves once the server acknowledged it.
   * Iterating the handle yields the stream's notifications that the acknowledged filter admits (a core
   * notification it does not admit is reported to `onError` and dropped; an extension's pass); it ends when
   * `close()` is called or the server ends the stream. The stream has no timeout unless `options.timeoutMs` sets one.
   */
  async listen(filter: Record<string, unknown>, options: RequestOptions = {}): Promise<Listening> {
    const entry = this.connected();
    this.row(entry, "subscriptions/listen", "request");
    let id: RequestId | undefined;
    const stop = new AbortController();
    const { signal, release } = eitherSignal(stop.signal, options.signal);
    let wake: () => void = () => undefined;
    let acked: (filter: Record<string, unknown>) => void = () => undefined;
    const acknowledgement = new Promise<Record<string, unknown>>((resolve) => (acked = resolve));
    const stream: Stream = {
      queue: [],
      acked: (f) => {
        stream.acknowledged = f;
        acked(f);
      },
      wake: () => wake(),
      done: false,
    };
    const closed = new ClientError("closed", "the listen stream was closed");
    // The stream is registered under the request's own id as it is sent, before any answer can arrive.
    const sendOptions: SendOptions = { ...options, signal, timeoutMs: options.timeoutMs ?? Infinity, [assignedId]: (sent) => {
      id = sent;
      this.streams.set(sent, stream);
    } };
    const ended = this.request("subscriptions/listen", { notifications: filter }, sendOptions).then(
      (result) => result,
      (error: unknown) => {
        if (error === closed) return undefined;
        throw error;
      },
    );
    const finish = (): void => {
      stream.done = true;
      if (id !== undefined) this.streams.delete(id);
      release();
      stream.wake();
    };
    ended.then(finish, finish);
    const early = ended.then(() => {
      throw new ClientError("invalid-result", "subscriptions/listen ended before the server acknowledged it");
    });
    early.catch(() => undefined);
    const acknowledged = await Promise.race([acknowledgement, early]);
    const close = async (): Promise<void> => {
      stop.abort(closed);
      await ended.catch(() => undefined);
    };
    const iterate = async function* (): AsyncGenerator<NotificationMessage, void, undefined> {
      for (;;) {
        const next = stream.queue.shift();
        if (next !== undefined) {
          yield next;
          continue;
        }
        if (stream.done) {
          await ended;
          return;
        }
        await new Promise<void>((resolve) => (wake = resolve));
      }
    };
    if (id === undefined) throw new ClientError("closed", "subscriptions/listen was not sent");
    return { id, acknowledged, ended, close, [Symbol.asyncIterator]: iterate };
  }

  /** A notification carrying an open listen stream's id: the acknowledgement, or one for the stream's queue. Whether it was the stream's. */
  private toStream(method: string, params: Record<string, unknown> | undefined): boolean {
    const meta = isPlainObject(params?._meta) ? params._meta : undefined;
    const tag = meta?.[META_SUBSCRIPTION_ID];
    const stream = typeof tag === "string" || typeof tag === "number" ? this.streams.get(tag) : undefined;
    if (stream === undefined) return false;
    if (method === "notifications/subscriptions/acknowledged") {
      stream.acked(isPlainObject(params?.notifications) ? params.notifications : {});
      return true;
    }
    const core = method === "notifications/resources/updated" || (LIST_CHANGED_METHODS as readonly string[]).includes(method);
    if (stream.acknowledged === undefined || (core && !wants(stream.acknowledged, method, params))) {
      this.onError(new ClientError("invalid-result", `the server sent ${method} on listen stream ${String(tag)}, which its acknowledged filter does not admit; dropped`));
      return true;
    }
    stream.queue.push({ method, params });
    stream.wake();
    return true;
  }

  /** A tools/list result as kept: the tools' outputSchemas and taskSupport remembered; 2026-07-28, without tools whose headers are invalid. */
  private keepTools(entry: ClientVersionEntry, result: Record<string, unknown>): Record<string, unknown> {
    const kept = entry.era === "modern" ? this.keepValidTools(result) : result;
    for (const tool of Array.isArray(kept.tools) ? kept.tools : []) {
      if (!isPlainObject(tool) || typeof tool.name !== "string") continue;
      if (isPlainObject(tool.outputSchema)) this.outputSchemas.set(tool.name, tool.outputSchema);
      else this.outputSchemas.delete(tool.name);
      const execution = isPlainObject(tool.execution) ? tool.execution : {};
      this.toolTaskSupport.set(tool.name, typeof execution.taskSupport === "string" ? execution.taskSupport : "forbidden");
    }
    return kept;
  }

  /** A tools/call result's structuredContent against the tool's outputSchema: a ClientError naming the failing pointers. */
  private checkStructured(name: string, result: Record<string, unknown>): void {
    if (this.options.validateStructuredContent === false || result.isError === true) return;
    const outputSchema = this.outputSchemas.get(name);
    if (!isPlainObject(outputSchema)) return;
    if (!Object.hasOwn(result, "structuredContent")) throw new ClientError("invalid-result", `tool ${JSON.stringify(name)} declares an outputSchema but its result has no structuredContent`, ["/structuredContent"]);
    let schema = this.compiled.get(outputSchema);
    if (schema === undefined) {
      schema = compileOutputSchema(outputSchema);
      this.compiled.set(outputSchema, schema);
    }
    if (typeof schema === "string") {
      this.onError(new ClientError("invalid-result", `tool ${JSON.stringify(name)}: its outputSchema cannot be checked here (${schema}); structuredContent passed on unchecked`));
      return;
    }
    const check = schemaCheck(schema, result.structuredContent);
    if (!check.ok) throw new ClientError("invalid-result", `tool ${JSON.stringify(name)}: structuredContent does not match its outputSchema: ${check.message}`, check.pointers.map((p) => "/structuredContent" + p));
  }

  /** Send a notification a client sends at the negotiated version. */
  async notify(method: string, params?: Record<string, unknown>): Promise<void> {
    const entry = this.connected();
    this.row(entry, method, "notification");
    const message = params === undefined ? { jsonrpc: "2.0" as const, method } : { jsonrpc: "2.0" as const, method, params };
    await this.transport!.send(message, { protocolVersion: entry.label, era: entry.era });
  }

  /** The METHOD_TABLE row of a method a client sends at this version, else a ClientError saying why not. */
  private row(entry: ClientVersionEntry, method: string, kind: "request" | "notification"): MethodRow {
    const row = Object.hasOwn(entry.table, method) ? entry.table[method] : undefined;
    if (row === undefined || row.kind !== kind) throw new ClientError("unknown-method", `${method} is not a ${kind} of protocol version ${entry.label}`);
    if (row.status !== "present") throw new ClientError("unknown-method", `${method} is ${row.status} at ${entry.label}${row.nearest === null ? "" : ` (nearest version that has it: ${row.nearest})`}`);
    if (row.sender === "server") throw new ClientError("unknown-method", `${method} is sent by servers, not clients, at ${entry.label}`);
    return row;
  }

  /** Params checked and enveloped, then sent; resolves with the raw result. */
  private async send(entry: ClientVersionEntry, method: string, params: Record<string, unknown>, options: SendOptions): Promise<unknown> {
    const id = this.nextId++;
    options[assignedId]?.(id);
    let sent = params;
    if (options.onProgress !== undefined) {
      const meta = isPlainObject(sent._meta) ? sent._meta : {};
      sent = { ...sent, _meta: { ...meta, [META_PROGRESS_TOKEN]: id } };
    }
    if (entry.era === "modern") sent = this.envelope(entry, sent);
    const check = schemaCheck(entry.paramsSchemas[method], sent, entry.paramsGuards?.[method]);
    if (!check.ok) throw new ClientError("invalid-params", `invalid params for ${method} at ${entry.label}: ${check.message}`, check.pointers.map((p) => "/params" + p));
    return this.wire(entry, method, sent, options, id);
  }

  /** One request on the wire; resolves with its raw result, rejects with the error answer (a JsonRpcError), a cancellation or a transport failure. */
  private wire(entry: ClientVersionEntry, method: string, params: Record<string, unknown>, options: RequestOptions, id: RequestId = this.nextId++): Promise<unknown> {
    const transport = this.transport;
    if (transport === undefined || this.closed) return Promise.reject(new ClientError("closed", "the client is closed"));
    const timeoutMs = options.timeoutMs ?? this.options.timeoutMs ?? 60_000;
    const abandon = new AbortController();
    return new Promise<unknown>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const cleanup = (): void => {
        this.pending.delete(id);
        this.progress.delete(id);
        if (timer !== undefined) clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
      };
      const cancel = (reason: unknown): void => {
        if (!this.pending.has(id)) return;
        cleanup();
        abandon.abort(reason);
        reject(reason);
        const text = reason instanceof Error ? reason.message : typeof reason === "string" ? reason : "cancelled";
        transport.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: text } }, { protocolVersion: entry.label, era: entry.era }).catch(() => undefined);
      };
      const onAbort = (): void => cancel(options.signal!.reason);
      if (options.signal?.aborted) return reject(options.signal.reason);
      this.pending.set(id, {
        resolve: (value) => {
          cleanup();
          resolve(value);
        },
        reject: (error) => {
          cleanup();
          abandon.abort(error);
          reject(error);
        },
        onProgress: options.onProgress,
        signal: abandon.signal,
      });
      if (options.onProgress !== undefined) this.progress.set(id, id);
      options.signal?.addEventListener("abort", onAbort, { once: true });
      if (Number.isFinite(timeoutMs)) timer = setTimeout(() => cancel(new ClientError("timeout", `${method} timed out after ${timeoutMs} ms`)), timeoutMs);
      const message: JsonRpcRequest = { jsonrpc: "2.0", id, method, params };
      const info: OutgoingInfo = {
        protocolVersion: entry.label,
        era: entry.era,
        signal: abandon.signal,
        nameParam: Object.hasOwn(entry.table, method) ? entry.table[method].nameParam : null,
        inputSchema: entry.era === "modern" && method === "tools/call" && typeof params.name === "string" ? this.toolSchemas.get(params.name) : undefined,
      };
      transport.send(message, info).catch((error: unknown) => this.pending.get(id)?.reject(error));
    });
  }

  /** A raw result normalized, then validated, with the version's code; a ClientError naming the failing pointers. */
  private checkResult(entry: ClientVersionEntry, method: string, raw: unknown): Record<string, unknown> {
    const normalize = entry.normalizers[method];
    let result: Record<string, unknown>;
    try {
      result = (normalize === undefined ? raw : normalize(raw)) as Record<string, unknown>;
    } catch (error) {
      throw new ClientError("invalid-result", `the ${method} result is not an object: ${describe(error)}`, [""], { cause: error });
    }
    const check = schemaCheck(entry.resultSchemas[method], result, entry.resultGuards?.[method]);
    if (!check.ok) throw new ClientError("invalid-result", `the ${method} result is not valid at ${entry.label}: ${check.message}`, check.pointers);
    return result;
  }

  /** 2026-07-28: a tools/list result without the tools whose x-mcp-header designations are invalid (each reported); their schemas kept for tools/call. */
  private keepValidTools(result: Record<string, unknown>): Record<string, unknown> {
    const tools = Array.isArray(result.tools) ? result.tools : [];
    const kept = tools.filter((tool: unknown) => {
      const problem = invalidHeaderDesignation(tool);
      if (problem === undefined) return true;
      this.onError(new ClientError("invalid-result", `left out tool ${JSON.stringify((tool as { name?: unknown }).name)}: ${problem}`));
      return false;
    });
    for (const tool of kept as Array<{ name: string; inputSchema: unknown }>) this.toolSchemas.set(tool.name, tool.inputSchema);
    return kept.length === tools.length ? result : { ...result, tools: kept };
  }

  /** The answers to a 2026-07-28 result's inputRequests, from the client's handlers, each validated as an InputResponse. */
  private async answerInputs(entry: ClientVersionEntry, requests: unknown, given: AbortSignal | undefined): Promise<Record<string, unknown>> {
    const { signal, release } = eitherSignal(this.life.signal, given);
    try {
      return await this.inputAnswers(entry, requests, signal);
    } finally {
      release();
    }
  }

  private async inputAnswers(entry: ClientVersionEntry, requests: unknown, signal: AbortSignal): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    for (const [key, request] of Object.entries(isPlainObject(requests) ? requests : {})) {
      const method = isPlainObject(request) && typeof request.method === "string" ? request.method : undefined;
      const handler = method === undefined ? undefined : this.handlers.get(method);
      if (method === undefined || handler === undefined) throw new ClientError("input-required", `the server asks for ${method ?? "(no method)"} (${key}), which this client has no handler for`);
      const params = (request as { params?: unknown }).params;
      const context = {
        requestId: key,
        _meta: isPlainObject(params) && isPlainObject(params._meta) ? params._meta : undefined,
        protocolVersion: entry.label,
        signal,
        notify: () => Promise.reject(new JsonRpcError(ErrorCode.InternalError, "an input request has no channel back to the server")),
        request: () => Promise.reject(new JsonRpcError(ErrorCode.InternalError, "an input request has no channel back to the server")),
      };
      const answer = await handler(params, context);
      const check = schemaCheck(entry.inputResponse, answer);
      if (!check.ok) throw new ClientError("invalid-result", `the ${method} handler's answer to ${key} is not a valid InputResponse: ${check.message}`, check.pointers);
      out[key] = answer;
    }
    return out;
  }

  /** Everything the transport receives; `related`: the request of ours whose stream brought it. */
  private receive(message: unknown, related?: RequestId): void {
    if (this.closed) return;
    const envelope = readEnvelope(message);
    if (envelope.kind === "response") {
      const waiter = envelope.id === null ? undefined : this.pending.get(envelope.id);
      if (waiter === undefined) return;
      const m = message as { result?: unknown; error?: unknown };
      if (Object.hasOwn(m, "error")) {
        const e = isPlainObject(m.error) ? m.error : {};
        waiter.reject(new JsonRpcError(typeof e.code === "number" ? e.code : ErrorCode.InternalError, typeof e.message === "string" ? e.message : "Error", e.data));
      } else {
        waiter.resolve(m.result);
      }
      return;
    }
    let taken = false;
    if (envelope.kind === "notification" && envelope.method === "notifications/progress" && isPlainObject(envelope.params)) {
      const token = envelope.params[META_PROGRESS_TOKEN];
      const id = typeof token === "string" || typeof token === "number" ? this.progress.get(token) : undefined;
      const waiter = id === undefined ? undefined : this.pending.get(id);
      if (waiter?.onProgress !== undefined) {
        taken = true;
        try {
          waiter.onProgress(envelope.params);
        } catch (error) {
          this.onError(error);
        }
      }
    }
    if (envelope.kind === "notification" && envelope.method === "notifications/tasks" && isPlainObject(envelope.params) && typeof envelope.params.taskId === "string") {
      for (const wake of this.taskWaiters.get(envelope.params.taskId) ?? []) wake();
    }
    if (envelope.kind === "notification" && this.streams.size > 0 && this.toStream(envelope.method, isPlainObject(envelope.params) ? envelope.params : undefined)) taken = true;
    if (envelope.kind === "notification" && !taken && this.catchAll !== undefined && !this.handlers.has(envelope.method)) {
      const params = isPlainObject(envelope.params) ? envelope.params : undefined;
      try {
        void Promise.resolve(this.catchAll({ method: envelope.method, params })).catch((error: unknown) => this.onError(error));
      } catch (error) {
        this.onError(error);
      }
    }
    if (envelope.kind === "invalid") return this.onError(new ClientError("invalid-result", `the server sent an invalid message: ${envelope.reason}`));
    const dispatcher = this.dispatcher;
    const entry = this.entry;
    if (dispatcher === undefined || entry === undefined) {
      if (envelope.kind === "request") void this.reply({ jsonrpc: "2.0", id: envelope.id, error: { code: ErrorCode.InvalidRequest, message: "the client is not connected yet" } });
      return;
    }
    if (envelope.kind !== "request") {
      void dispatcher.handle(message, { peer: this.peer(entry), scope: this.scope });
      return;
    }
    // A server request stops with the client, and with the request of ours it is nested in.
    const { signal, release } = eitherSignal(this.life.signal, related === undefined ? undefined : this.pending.get(related)?.signal);
    void dispatcher.handle(message, { peer: this.peer(entry), scope: this.scope, signal }).then((response) => {
      release();
      return response === undefined || this.closed ? undefined : this.reply(response);
    });
  }

  private async reply(response: JsonRpcMessage): Promise<void> {
    try {
      await this.transport?.send(response, { protocolVersion: this.entry?.label, era: this.entry?.era });
    } catch (error) {
      this.onError(error);
    }
  }

  /** A handler's way back to the server: its nested requests and notifications. */
  private peer(entry: ClientVersionEntry): Peer {
    return {
      notify: async (method, params) => {
        await this.transport!.send(params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params }, { protocolVersion: entry.label, era: entry.era });
      },
      request: (method, params, _related, signal) => this.wire(entry, method, params ?? {}, { signal }),
    };
  }

  /** The transport is gone: every pending request rejects, every running handler is aborted. */
  private lost(error: unknown): void {
    const reason = new ClientError("closed", `the connection closed${error === undefined ? "" : `: ${describe(error)}`}`, [], { cause: error });
    this.closed = true;
    for (const waiter of [...this.pending.values()]) waiter.reject(reason);
    this.life.abort(reason);
  }

  /** Close the transport; pending requests reject, running handlers are aborted, nothing more is handled. */
  async close(): Promise<void> {
    if (this.transport === undefined) return;
    const transport = this.transport;
    this.lost(undefined);
    await transport.close();
  }
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** A tool's outputSchema as the client checks structuredContent with it (zod's `fromJSONSchema`), or why it cannot be. */
export function compileOutputSchema(outputSchema: Record<string, unknown>): SchemaLike | string {
  try {
    return z.fromJSONSchema(outputSchema as Parameters<typeof z.fromJSONSchema>[0]) as SchemaLike;
  } catch (error) {
    return describe(error);
  }
}

function isAuthError(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return status === 401 || status === 403;
}

function supportedOf(data: unknown): string[] | undefined {
  const supported = isPlainObject(data) ? data.supported : undefined;
  return Array.isArray(supported) && supported.every((v) => typeof v === "string") ? supported : undefined;
}

// ---------------------------------------------------------------------------------------------
// Typing: the root client.ts instantiates `Client` with each version's RequestTypes,
// NotificationTypes and ClientHandlers; `client.at(version)` is the typed view of the version that
// won (it throws for another), `client.is(version)` narrows without throwing, `client.view()` is the
// negotiated version's view as a union narrowed by its `protocolVersion`, and `client.anyVersion()`
// types a call by the union of the offered versions' params and results (usable before knowing which won).

/** One version's types, as the root client.ts names them. */
export interface VersionTypes {
  requests: object;
  notifications: object;
  handlers: object;
}

type Member<T, K extends PropertyKey, F extends string> = K extends keyof T ? (T[K] extends Record<F, infer X> ? X : never) : never;

/** Params as a caller writes them: the `_meta` envelope, `inputResponses` and `requestState` are the client's to add. */
export type CallerParams<P> = [P] extends [undefined] ? undefined : P extends object ? Omit<P, "_meta" | "inputResponses" | "requestState"> & { _meta?: Record<string, unknown> } : P;

type ParamsArgs<P> = [undefined] extends [P] ? [params?: CallerParams<Exclude<P, undefined>>, options?: RequestOptions] : object extends CallerParams<P> ? [params?: CallerParams<P>, options?: RequestOptions] : [params: CallerParams<P>, options?: RequestOptions];

/** The typed requests and notifications of one negotiated version. */
export interface VersionView<T extends VersionTypes> {
  readonly protocolVersion: string;
  request<M extends keyof T["requests"] & string>(method: M, ...args: ParamsArgs<Member<T["requests"], M, "params">>): Promise<Member<T["requests"], M, "result">>;
  /** Every page of a paginated list, following `nextCursor` (ClientCore.pages). */
  pages<M extends keyof T["requests"] & string>(method: M, ...args: ParamsArgs<Member<T["requests"], M, "params">>): AsyncGenerator<Member<T["requests"], M, "result">, void, undefined>;
  notify<M extends keyof T["notifications"] & string>(method: M, ...args: [undefined] extends [Member<T["notifications"], M, "params">] ? [params?: Member<T["notifications"], M, "params">] : [params: Member<T["notifications"], M, "params">]): Promise<void>;
}

/** Member F of method M in each version that has it, as one union (never where no version has M). */
type UnionMember<Versions, Part extends "requests" | "notifications", M extends PropertyKey, F extends string> = {
  [V in keyof Versions]: Versions[V] extends Record<Part, infer T> ? Member<T, M, F> : never;
}[keyof Versions];

type MethodsOf<Versions, Part extends "requests" | "notifications"> = { [V in keyof Versions]: Versions[V] extends Record<Part, infer T> ? keyof T : never }[keyof Versions];

/** Several versions' requests and notifications as one: each method any of them has, its params and result the union of theirs. */
export interface UnionTypes<Versions extends { [K in keyof Versions]: VersionTypes }> {
  requests: { [M in MethodsOf<Versions, "requests">]: { params: UnionMember<Versions, "requests", M, "params">; result: UnionMember<Versions, "requests", M, "result"> } };
  notifications: { [M in MethodsOf<Versions, "notifications">]: { params: UnionMember<Versions, "notifications", M, "params"> } };
  handlers: object;
}

/** The view of each version, told apart by `protocolVersion` (a literal): `if (view.protocolVersion === "…")` narrows it. */
export type NegotiatedView<Versions extends { [K in keyof Versions]: VersionTypes }> = {
  [V in keyof Versions & string]: Omit<VersionView<Versions[V]>, "protocolVersion"> & { readonly protocolVersion: V };
}[keyof Versions & string];

/** A handler for method M written against any one version's ClientHandlers. */
export type HandlerOf<Versions extends { [K in keyof Versions]: VersionTypes }, M extends PropertyKey> = {
  [V in keyof Versions]: M extends keyof Versions[V]["handlers"] ? NonNullable<Versions[V]["handlers"][M]> : never;
}[keyof Versions];

/** The methods some version's ClientHandlers name. */
export type HandledMethod<Versions extends { [K in keyof Versions]: VersionTypes }> = { [V in keyof Versions]: keyof Versions[V]["handlers"] & string }[keyof Versions];

/**
 * `Versions` are the offered versions' types by label; `Modules` the extension modules layered onto them
 * (`<label>+<name>`, e.g. the Tasks extension's `2026-07-28+tasks`), whose requests type what that module answers
 * (a task-augmented `tools/call` resolving to a task, the extension's own requests).
 */
export class Client<Versions extends { [K in keyof Versions]: VersionTypes }, Modules extends { [K in keyof Modules]: VersionTypes } = Record<never, VersionTypes>> extends ClientCore {
  /** Typed: answer the server's `method` requests (ClientCore.setRequestHandler). */
  override setRequestHandler<M extends HandledMethod<Versions>>(method: M, handler: HandlerOf<Versions, M> | undefined): void {
    super.setRequestHandler(method, handler as AnyHandler | undefined);
  }

  /** Typed: hear the server's `method` notifications (ClientCore.setNotificationHandler). */
  override setNotificationHandler<M extends HandledMethod<Versions>>(method: M, handler: HandlerOf<Versions, M> | undefined): void {
    super.setNotificationHandler(method, handler as AnyHandler | undefined);
  }

  /** Whether `version` won the negotiation. */
  is<V extends keyof Versions & string>(version: V): boolean {
    return this.protocolVersion === version;
  }

  /**
   * The typed view of the negotiated version, or of the extension module answering at it (`<label>+<name>`: both
   * sides declared the extension); throws a ClientError when another version or module answers (or none yet).
   */
  at<V extends keyof Versions & string>(version: V): VersionView<Versions[V]>;
  at<M extends keyof Modules & string>(module: M): VersionView<Modules[M]>;
  at(label: string): object {
    const negotiated = this.connection;
    const answering = label.includes("+") ? negotiated?.module : negotiated?.protocolVersion;
    if (negotiated === undefined || answering !== label) {
      const now = negotiated === undefined ? "no version yet" : negotiated.module === negotiated.protocolVersion ? negotiated.protocolVersion : `${negotiated.protocolVersion} (module ${negotiated.module})`;
      throw new ClientError("not-connected", `the client negotiated ${now}, not ${label}`);
    }
    return this.untypedView(negotiated.protocolVersion);
  }

  /** The negotiated version's view, typed as the union of every offered version's: compare its `protocolVersion` to narrow. Throws before `connect`. */
  view(): NegotiatedView<Versions> {
    const version = this.protocolVersion;
    if (version === undefined) throw new ClientError("not-connected", "the client has negotiated no version yet");
    return this.untypedView(version) as unknown as NegotiatedView<Versions>;
  }

  /**
   * A view typed by the union of the offered versions: a method any of them has, its params and result the
   * union of theirs. What is sent is still checked at the negotiated version (a method it lacks is refused).
   */
  anyVersion(): VersionView<UnionTypes<Versions>> {
    const version = this.protocolVersion;
    if (version === undefined) throw new ClientError("not-connected", "the client has negotiated no version yet");
    return this.untypedView(version) as unknown as VersionView<UnionTypes<Versions>>;
  }

  private untypedView(version: string): object {
    const request = (method: string, params?: Record<string, unknown>, options?: RequestOptions) => this.request(method, params, options);
    const notify = (method: string, params?: Record<string, unknown>) => this.notify(method, params);
    const pages = (method: string, params?: Record<string, unknown>, options?: RequestOptions) => this.pages(method, params, options);
    return { protocolVersion: version, request, notify, pages };
  }
}
