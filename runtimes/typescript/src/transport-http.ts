// The streamable HTTP transport, both eras on one endpoint, on plain node:http (no dependency):
// - legacy sessions (2024-11-05 … 2025-11-25): a POST of `initialize` opens one (`Mcp-Session-Id`);
//   later POSTs carry the session id and are answered as JSON, or as an SSE stream once the server sends
//   something about their requests first; a GET opens the session's stream for the server's own messages;
//   DELETE ends it. At most `maxSessions` are open: a new one evicts the least recently used idle session,
//   else it is refused with 503 and `Retry-After`.
// - modern (2026-07-28) requests are stateless POSTs: errors map to 400/404 by code, the request's
//   `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` (and `Mcp-Param-*`) headers must match the body.
// Before either, every POST passes the same checks: `Content-Type` application/json (else 415), no
// `Content-Encoding` but identity (else 415), `Accept` listing application/json and text/event-stream
// (else 406), a body within `maxBodyBytes` (else 413), JSON (else 400 with -32700), one JSON-RPC envelope
// (else 400 with -32600, id null). A request target that is not a URL is 400. Request ids beyond 2^53
// come back as the client wrote them.
// Backpressure: every stream writes through a bounded writer (transport-jsonrpc.ts) that honours `drain`;
// a consumer holding more than `maxBufferedBytes` unread is disconnected: its requests' `signal` aborts
// (a `subscriptions/listen` among them ends), a legacy session closes, `onError` hears of it once.
// Host/Origin: by default only the names of the address a request arrived on are accepted (for a
// loopback address: 127.0.0.1, localhost, [::1] with its port), against DNS rebinding.
import { HEADER_ANNOTATION, HEADER_MISMATCH, HTTP_STATUS, META_PROTOCOL_VERSION, SERVER_ERROR, SESSION_NOT_FOUND } from "../protocol.js";
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { authenticate, isAuthRefusal, principalOf, resourceMetadataPaths, type AuthInfo, type ResourceServerOptions } from "./auth.js";
import { CancellationSource } from "./cancellation.js";
import { decodeHeaderValue } from "./header-encoding.js";
import { metaOfParams, ownMember, paramsOf } from "./jsonrpc.js";
import {
  batchesServed,
  boundedWriter,
  type BoundedWriter,
  classify,
  errorMessage,
  type ExactIds,
  exactIds,
  INTERNAL_ERROR,
  INVALID_REQUEST,
  invalidEnvelope,
  logTransportError,
  type OutgoingMessage,
  PARSE_ERROR,
  type RoutedServer,
  serialize,
  type TransportErrorHook,
  type TransportRequestId,
} from "./transport-jsonrpc.js";

export interface HttpTransportOptions {
  /** The endpoint's path (default "/mcp"); other paths get 404. */
  path?: string;
  /** Largest request body, in bytes (default 4 MiB); a larger one is refused with 413. */
  maxBodyBytes?: number;
  /**
   * `Host` header values accepted (e.g. "api.example.com" or "127.0.0.1:3000"), against DNS rebinding;
   * others get 403. Default: the names of the address each request arrived on (for a loopback address
   * `127.0.0.1:<port>`, `localhost:<port>`, `[::1]:<port>`; else `<address>:<port>`).
   * `"any"` turns the check off: only for a server behind a proxy that checks `Host` itself.
   */
  allowedHosts?: readonly string[] | "any";
  /**
   * `Origin` values accepted when a request sends one. Default: `http://` and `https://` with each
   * allowed host (with `allowedHosts: "any"`, an Origin naming the request's own `Host`). `"any"`: no check.
   */
  allowedOrigins?: readonly string[] | "any";
  /** A legacy session with no open request for this long is closed (default 30 minutes). */
  sessionIdleMs?: number;
  /** Most legacy sessions open at once (default 1,000); see the file's header. */
  maxSessions?: number;
  /** Most bytes a client may leave unread on one stream before it is disconnected (default 4 MiB). */
  maxBufferedBytes?: number;
  /**
   * For `tools/call` (2026-07-28): the tool's `x-mcp-header` parameters, argument name → header name; each
   * argument given must be repeated in its `Mcp-Param-<Name>` header (plain or `=?base64?…?=`), else -32020.
   */
  parameterHeaders?: (toolName: string) => Readonly<Record<string, string>> | undefined;
  /** Transport failures (a message that cannot be sent, a stream that broke) and limits reached. Default: one line on stderr. */
  onError?: TransportErrorHook;
  /**
   * The resource-server role (OAuth 2.1, see ./auth.ts): every request to the endpoint needs a bearer token
   * `verifyAccessToken` accepts, issued for `resourceMetadata.resource`, with `requiredScopes` (else 401/403);
   * `/.well-known/oauth-protected-resource` serves `resourceMetadata`. Default: off.
   */
  auth?: ResourceServerOptions<http.IncomingMessage>;
  /**
   * Whom a request is for, when the host names it (a header of its choosing, a client certificate...): tasks
   * and legacy sessions are bound to it. Default: with `auth`, the token's subject (else its client id); without, none.
   */
  principal?: (req: http.IncomingMessage, auth: AuthInfo | undefined) => string | undefined;
  /** Most requests in flight per legacy session and per HTTP connection (default 64); more get 429. */
  maxRequestsInFlight?: number;
  /** Most legacy sessions open per principal (default 16): a new one closes that principal's least recently used session with no request open, else 429. */
  maxSessionsPerPrincipal?: number;
}

/** A node:http request listener serving the MCP endpoint; `close()` ends every legacy session. */
export interface HttpHandler {
  (req: http.IncomingMessage, res: http.ServerResponse): Promise<void>;
  /** Open legacy sessions. */
  readonly sessions: number;
  /** The most legacy sessions open at once (`maxSessions`). */
  readonly maxSessions: number;
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY = 4 * 1024 * 1024;
export const DEFAULT_MAX_REQUESTS_IN_FLIGHT = 64;
export const DEFAULT_MAX_SESSIONS_PER_PRINCIPAL = 16;
const DEFAULT_IDLE = 30 * 60 * 1000;
export const DEFAULT_MAX_SESSIONS = 1000;
export const DEFAULT_MAX_BUFFERED = 4 * 1024 * 1024;
/** Seconds a client refused for want of a session slot is told to wait (`Retry-After`). */
export const SESSION_RETRY_AFTER_SECONDS = 5;

/** HTTP status of a 2026-07-28 error response, by JSON-RPC code (others: 200): the protocol module's. */
const MODERN_STATUS = HTTP_STATUS;
const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" } as const;

class Refusal {
  constructor(
    readonly status: number,
    readonly code: number,
    readonly message: string,
    readonly headers: http.OutgoingHttpHeaders = {},
  ) {}
}

/** Runs a write at the end of this turn of the event loop (see turnWriter). */
type WriteThisTurn = (write: () => void) => void;

/**
 * JSON answers are written together once per turn of the event loop (setImmediate), not each as soon as its
 * handler settles: the responses of all the requests read in one turn go out back to back, which cuts the
 * server's CPU per request under load by about a quarter (README, Performance) at the cost of at most one turn
 * of latency. One queue per handler; a response whose client has gone by then is skipped.
 */
function turnWriter(): WriteThisTurn {
  let pending: Array<() => void> = [];
  const flush = () => {
    const writes = pending;
    pending = [];
    for (const write of writes) write();
  };
  return (write) => {
    pending.push(write);
    if (pending.length === 1) setImmediate(flush);
  };
}

function reply(res: http.ServerResponse, status: number, body: string, headers: http.OutgoingHttpHeaders = {}): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(body);
}

function refuse(res: http.ServerResponse, refusal: Refusal, id: TransportRequestId | null = null, exact?: ExactIds): void {
  const headers = refusal.status === 413 ? { connection: "close", ...refusal.headers } : refusal.headers;
  reply(res, refusal.status, serialize(errorMessage(id, refusal.code, refusal.message), logTransportError, exact)!, headers);
}

function isJsonContentType(value: string | undefined): boolean {
  return value !== undefined && value.split(";")[0].trim().toLowerCase() === "application/json";
}

function acceptsBoth(value: string | undefined): boolean {
  const ranges = (value ?? "").split(",").map((r) => r.split(";")[0].trim().toLowerCase());
  return ranges.includes("application/json") && ranges.includes("text/event-stream");
}

function acceptsEventStream(value: string | undefined): boolean {
  return (value ?? "").split(",").some((r) => r.split(";")[0].trim().toLowerCase() === "text/event-stream");
}

/** Content codings this transport decodes: none (RFC 9110 section 8.4: anything else is 415). */
function unsupportedCoding(value: string | undefined): boolean {
  if (value === undefined) return false;
  return value.split(",").some((c) => c.trim() !== "" && c.trim().toLowerCase() !== "identity");
}

/** The body as text; a Refusal when it is over `limit` bytes. */
function readBody(req: http.IncomingMessage, limit: number): Promise<string | Refusal> {
  const tooLarge = () => new Refusal(413, INVALID_REQUEST, `Payload Too Large: the body exceeds ${limit} bytes`);
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      req.off("data", onData);
      req.resume(); // drain the rest unread
      resolve(tooLarge());
    };
    req.on("data", onData);
    req.once("end", () => resolve(chunks.length === 1 ? chunks[0].toString("utf8") : Buffer.concat(chunks).toString("utf8")));
    req.once("error", reject);
    req.once("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });
}

/** Whether a legacy session at `version` may send a JSON-RPC batch: the one rule of both transports. */
export { batchesServed };

/** The path of a request target: origin-form read directly, any other form through URL; undefined when it is not a URL. */
function pathOf(target: string | undefined): string | undefined {
  if (target === undefined) return "/";
  if (target.startsWith("/") && !target.startsWith("//")) {
    const end = target.search(/[?#]/);
    const path = end < 0 ? target : target.slice(0, end);
    if (!/[^\x21-\x7e]|%(?![0-9A-Fa-f]{2})/.test(path) && !path.includes("/.")) return path;
  }
  try {
    return new URL(target, "http://x").pathname;
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Why a 2026-07-28 POST's headers disagree with its body (the transport's header rules), or undefined. */
function headerMismatch(
  req: http.IncomingMessage,
  message: Record<string, unknown>,
  options: HttpTransportOptions,
  nameParam?: (method: string, protocolVersion: string) => string | undefined,
): string | undefined {
  const header = req.headers["mcp-protocol-version"];
  if (typeof header !== "string") return "Missing MCP-Protocol-Version header";
  const params = paramsOf(message);
  const bodyVersion = ownMember(metaOfParams(params), META_PROTOCOL_VERSION);
  if (bodyVersion !== undefined && bodyVersion !== header) return `Header mismatch: MCP-Protocol-Version ${header} but _meta names ${String(bodyVersion)}`;
  const method = typeof message.method === "string" ? message.method : undefined;
  const mcpMethod = req.headers["mcp-method"];
  if (typeof mcpMethod !== "string" || mcpMethod.trim() !== method) return `Header mismatch: Mcp-Method ${mcpMethod ?? "(missing)"} but the body's method is ${method}`;
  // The version's METHOD_TABLE says which param names the request (`tools/call`: name; a served
  // extension's too, Tasks' `tasks/*`: taskId, SEP-2663), through the router.
  const nameKey = method === undefined ? undefined : nameParam?.(method, header);
  const named = nameKey === undefined ? undefined : params?.[nameKey];
  if (typeof named === "string") {
    const mcpName = req.headers["mcp-name"];
    const decoded = typeof mcpName === "string" ? decodeHeaderValue(mcpName) : undefined;
    if (typeof mcpName === "string" && decoded === undefined) return "Header mismatch: Mcp-Name is not valid base64";
    if (decoded !== named) return `Header mismatch: Mcp-Name ${mcpName ?? "(missing)"} but the body names ${named}`;
  }
  if (method === "tools/call" && typeof named === "string" && options.parameterHeaders !== undefined) {
    const args = isObject(params?.arguments) ? params.arguments : {};
    for (const [key, name] of Object.entries(options.parameterHeaders(named) ?? {})) {
      if (!Object.hasOwn(args, key)) continue;
      const raw = req.headers[`mcp-param-${name.toLowerCase()}`];
      if (typeof raw !== "string") return `Header mismatch: Mcp-Param-${name} is missing but arguments.${key} is given`;
      const value = decodeHeaderValue(raw);
      if (value === undefined) return `Header mismatch: Mcp-Param-${name} is not valid base64`;
      if (value !== String(args[key])) return `Header mismatch: Mcp-Param-${name} does not match arguments.${key}`;
    }
  }
  return undefined;
}

/** The `x-mcp-header` parameters of a tool's `inputSchema`, argument name → header name (for `parameterHeaders`). */
export function toolParameterHeaders(tool: { inputSchema?: unknown }): Record<string, string> {
  const schema = tool.inputSchema;
  const properties = isObject(schema) && isObject(schema.properties) ? schema.properties : {};
  const out: Record<string, string> = {};
  for (const [key, property] of Object.entries(properties)) {
    if (isObject(property) && typeof property[HEADER_ANNOTATION] === "string") out[key] = property[HEADER_ANNOTATION];
  }
  return out;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);

/** The `Host` values a request arriving on `address:port` may carry by default. */
function hostsOf(address: string | undefined, port: number | undefined): string[] {
  if (address === undefined || port === undefined) return [];
  const plain = address.startsWith("::ffff:") ? address.slice(7) : address;
  if (LOOPBACK.has(plain) || plain.startsWith("127.")) return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  const shown = plain.includes(":") ? `[${plain}]` : plain;
  return port === 80 ? [`${shown}:${port}`, shown] : [`${shown}:${port}`];
}

/**
 * One HTTP response carrying the answers to the requests of one POST (or, for a GET, the session's own
 * messages): a JSON body when nothing but the answers is sent, else an SSE stream; written through a
 * bounded writer. `gone` is cancelled when the client goes away before the end, or on `cancel`.
 */
class Exchange {
  /** Cancelled when the client goes away before the end, or on `cancel`: what the router is given. */
  readonly gone = new CancellationSource();
  private writer: BoundedWriter | undefined;
  private overflowed = false;
  /** The JSON answer is queued (written this turn, see writeThisTurn): nothing more goes on this exchange. */
  private answered = false;

  constructor(
    readonly res: http.ServerResponse,
    private readonly exact: ExactIds,
    private readonly maxBuffered: number,
    private readonly onError: TransportErrorHook,
    private readonly onOverflow: () => void,
    private readonly writeThisTurn: WriteThisTurn,
    private readonly headers: http.OutgoingHttpHeaders = {},
  ) {
    res.once("close", () => {
      if (!res.writableFinished) this.gone.cancel(new Error("the client closed the connection"));
    });
  }

  get open(): boolean {
    return !this.answered && !this.res.writableEnded && !this.res.destroyed && !this.gone.cancelled;
  }

  get streaming(): boolean {
    return this.writer !== undefined;
  }

  /** Start the SSE stream (if not yet). */
  stream(): void {
    if (this.writer !== undefined || !this.open) return;
    this.res.writeHead(200, { ...SSE_HEADERS, ...this.headers });
    this.res.flushHeaders();
    this.writer = boundedWriter(this.res, this.maxBuffered, () => this.overflow());
  }

  /** Send one message as an SSE event. */
  push(message: OutgoingMessage): void {
    if (!this.open) return;
    const text = serialize(message, this.onError, this.exact);
    if (text === undefined) return;
    this.stream();
    this.writer?.write(`event: message\ndata: ${text}\n\n`);
  }

  /** The answer: on the stream if one is open (then it ends), else a JSON body with `status`. */
  finish(answer: OutgoingMessage | OutgoingMessage[] | undefined, status = 200): void {
    if (!this.open) return;
    if (this.writer !== undefined) {
      for (const m of answer === undefined ? [] : Array.isArray(answer) ? answer : [answer]) this.push(m);
      this.writer.end();
      return;
    }
    if (answer === undefined || (Array.isArray(answer) && answer.length === 0)) return void this.res.writeHead(202, this.headers).end();
    const text = Array.isArray(answer) ? `[${answer.map((m) => this.text(m)).join(",")}]` : this.text(answer);
    this.answered = true;
    const { res, headers, onError } = this;
    this.writeThisTurn(() => {
      if (res.writableEnded || res.destroyed) return;
      try {
        res.writeHead(status, { "content-type": "application/json", ...headers }).end(text);
      } catch (error) {
        // Outside the request's own promise now: report it and drop the connection, never throw out of the flush.
        onError(error);
        res.destroy();
      }
    });
  }

  private text(response: OutgoingMessage): string {
    const id = (response as { id?: unknown }).id;
    const fallback = errorMessage(typeof id === "string" || typeof id === "number" ? id : null, INTERNAL_ERROR, "Internal error");
    return serialize(response, this.onError, this.exact) ?? serialize(fallback, this.onError, this.exact)!;
  }

  /** End it from the server's side: the requests' signal aborts, the connection closes. */
  cancel(reason: string): void {
    this.gone.cancel(new Error(reason));
    if (!this.res.writableEnded) this.res.destroy();
  }

  private overflow(): void {
    if (this.overflowed) return;
    this.overflowed = true;
    this.onError(new Error(`disconnected a client that left more than ${this.maxBuffered} bytes unread (maxBufferedBytes)`));
    this.cancel("the client read too slowly (maxBufferedBytes)");
    this.onOverflow();
  }
}

/** One legacy session: its router connection, the exchanges open on it, the GET stream. */
interface Session {
  readonly id: string;
  readonly connection: ReturnType<RoutedServer["connect"]>;
  /** The exchange each request in flight answers on, by id. */
  readonly routes: Map<TransportRequestId, Exchange>;
  /** Open POST exchanges. */
  readonly exchanges: Set<Exchange>;
  standalone: Exchange | undefined;
  lastSeen: number;
  closed: boolean;
  /** The principal that opened it: only it may use the session (others get 404, as for an unknown id). */
  readonly principal: string | undefined;
  /** Requests of this session in flight. */
  inFlight: number;
}

/** Who is calling, as the transport passes it to the router. */
interface Caller {
  readonly auth?: AuthInfo;
  readonly principal?: string;
}

/** A node:http request listener serving `router` at `options.path`. */
export function createHttpHandler(router: RoutedServer, options: HttpTransportOptions = {}): HttpHandler {
  const endpoint = options.path ?? "/mcp";
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const idleMs = options.sessionIdleMs ?? DEFAULT_IDLE;
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const maxBuffered = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED;
  const onError = options.onError ?? logTransportError;
  const writeThisTurn = turnWriter();
  const maxInFlight = options.maxRequestsInFlight ?? DEFAULT_MAX_REQUESTS_IN_FLIGHT;
  const maxPerPrincipal = options.maxSessionsPerPrincipal ?? DEFAULT_MAX_SESSIONS_PER_PRINCIPAL;
  const auth = options.auth;
  const metadataPaths = auth === undefined ? [] : resourceMetadataPaths(auth);
  const metadataBody = auth === undefined ? "" : JSON.stringify(auth.resourceMetadata);
  /** Requests in flight per HTTP connection. */
  const perSocket = new WeakMap<object, number>();
  const hosts = options.allowedHosts;
  const origins = options.allowedOrigins ?? (hosts === undefined || hosts === "any" ? undefined : hosts.flatMap((h) => [`http://${h}`, `https://${h}`]));
  /** Least recently used first: a session moves to the end when it is used. */
  const sessions = new Map<string, Session>();
  let closing = false;

  const sweep = setInterval(() => {
    const now = Date.now();
    for (const session of [...sessions.values()]) if (evictable(session, now)) closeSession(session);
  }, Math.max(10, Math.min(idleMs / 2, 60_000)));
  sweep.unref();

  /**
   * A session that may be closed to make room: no request open, and either no GET stream or none used for
   * `sessionIdleMs` (an idle GET stream does not hold its slot forever). The sweep closes those idle that long.
   */
  function evictable(session: Session, now: number, forRoom = false): boolean {
    if (session.exchanges.size > 0) return false;
    if (session.standalone === undefined) return forRoom || now - session.lastSeen > idleMs;
    return now - session.lastSeen > idleMs;
  }

  /** Default Host values by the local address and port a request arrived on. */
  const derived = new Map<string, string[]>();
  function allowed(req: http.IncomingMessage): boolean {
    const host = req.headers.host;
    let accepted = hosts;
    if (accepted === undefined) {
      const local = `${req.socket.localAddress} ${req.socket.localPort}`;
      accepted = derived.get(local);
      if (accepted === undefined) derived.set(local, (accepted = hostsOf(req.socket.localAddress, req.socket.localPort)));
    }
    if (accepted !== "any" && (host === undefined || !accepted.includes(host))) return false;
    const origin = req.headers.origin;
    if (origin === undefined || origins === "any") return true;
    if (origins !== undefined) return origins.includes(origin);
    if (accepted === "any") return host !== undefined && (origin === `http://${host}` || origin === `https://${host}`);
    return accepted.some((h) => origin === `http://${h}` || origin === `https://${h}`);
  }

  /** The checked body of a POST: one message (or, in a legacy session, a batch) and its exact ids, else a Refusal. */
  async function postBody(req: http.IncomingMessage, batchAllowed: boolean): Promise<{ body: unknown; exact: ExactIds } | Refusal> {
    if (!isJsonContentType(req.headers["content-type"])) return new Refusal(415, INVALID_REQUEST, "Unsupported Media Type: Content-Type must be application/json");
    if (unsupportedCoding(req.headers["content-encoding"])) return new Refusal(415, INVALID_REQUEST, `Unsupported Media Type: Content-Encoding ${req.headers["content-encoding"]} is not supported`, { "accept-encoding": "identity" });
    if (!acceptsBoth(req.headers.accept)) return new Refusal(406, INVALID_REQUEST, "Not Acceptable: Accept must list application/json and text/event-stream");
    const text = await readBody(req, maxBody);
    if (text instanceof Refusal) return text;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return new Refusal(400, PARSE_ERROR, "Parse error");
    }
    const messages = Array.isArray(body) && batchAllowed ? body : [body];
    if (messages.length === 0) return new Refusal(400, INVALID_REQUEST, "Invalid Request: an empty batch");
    for (const m of messages) {
      const invalid = invalidEnvelope(m);
      if (invalid !== undefined) return new Refusal(400, INVALID_REQUEST, invalid.error.message);
    }
    return { body, exact: exactIds(text, body) };
  }

  function touch(session: Session): void {
    session.lastSeen = Date.now();
    if (sessions.get(session.id) !== session) return;
    sessions.delete(session.id);
    sessions.set(session.id, session);
  }

  /** The session is over: its requests abort, its streams close, its connection closes, its id is forgotten. */
  function closeSession(session: Session): void {
    if (session.closed) return;
    session.closed = true;
    if (sessions.get(session.id) === session) sessions.delete(session.id);
    for (const exchange of [...session.exchanges]) exchange.cancel("the session closed");
    session.standalone?.finish(undefined);
    session.connection.close();
  }

  /** Room for one more session: the least recently used idle one is closed when full; false when none is idle. */
  function makeRoom(): boolean {
    if (sessions.size < maxSessions) return true;
    const now = Date.now();
    for (const session of sessions.values()) {
      if (!evictable(session, now, true)) continue;
      closeSession(session);
      return true;
    }
    return false;
  }

  /** Room for one more session of `principal` (maxSessionsPerPrincipal): its least recently used session with no request open closes; false when none can. */
  function makeRoomFor(principal: string | undefined): boolean {
    if (principal === undefined) return true;
    const own = [...sessions.values()].filter((s) => s.principal === principal);
    if (own.length < maxPerPrincipal) return true;
    const victim = own.find((s) => s.exchanges.size === 0);
    if (victim === undefined) return false;
    closeSession(victim);
    return true;
  }

  function sendInSession(session: Session, message: OutgoingMessage, relatedRequestId: TransportRequestId | undefined): void {
    const exchange = relatedRequestId === undefined ? undefined : session.routes.get(relatedRequestId);
    // A message about a request goes on that request's stream; the server's own on the GET stream, if open.
    if (exchange !== undefined && exchange.open) return exchange.push(message);
    session.standalone?.push(message);
  }

  async function startSession(res: http.ServerResponse, message: Record<string, unknown>, exact: ExactIds, caller: Caller): Promise<void> {
    if (!makeRoomFor(caller.principal)) {
      const refusal = new Refusal(429, SERVER_ERROR, `Too Many Requests: ${maxPerPrincipal} sessions are open for this principal (maxSessionsPerPrincipal)`, { "retry-after": String(SESSION_RETRY_AFTER_SECONDS) });
      onError(new Error(`refused: ${refusal.message}`));
      return void refuse(res, refusal, message.id as TransportRequestId, exact);
    }
    if (!makeRoom()) {
      onError(new Error(`refused: ${maxSessions} sessions are open (maxSessions)`));
      return void refuse(res, new Refusal(503, SERVER_ERROR, `Service Unavailable: ${maxSessions} sessions are open (maxSessions)`, { "retry-after": String(SESSION_RETRY_AFTER_SECONDS) }), message.id as TransportRequestId, exact);
    }
    const id = randomUUID();
    const session: Session = {
      id,
      connection: router.connect((m, related) => sendInSession(session, m, related)),
      routes: new Map(),
      exchanges: new Set(),
      standalone: undefined,
      lastSeen: Date.now(),
      closed: false,
      principal: caller.principal,
      inFlight: 0,
    };
    sessions.set(id, session);
    await inSession(session, res, message, exact, caller, { "mcp-session-id": id });
    // An initialize the router refused leaves no session behind.
    if (session.connection.protocolVersion === undefined) closeSession(session);
  }

  /** Answer one POST of a session: its requests on one exchange, its notifications and responses handed over. */
  async function inSession(session: Session, res: http.ServerResponse, body: unknown, exact: ExactIds, caller: Caller, headers: http.OutgoingHttpHeaders = {}): Promise<void> {
    touch(session);
    const batch = Array.isArray(body);
    const messages: unknown[] = batch ? body : [body];
    const count = messages.filter((m) => classify(m) === "request").length;
    if (count > 0 && session.inFlight + count > maxInFlight) {
      const refusal = new Refusal(429, SERVER_ERROR, `Too Many Requests: ${maxInFlight} requests are in flight on this session (maxRequestsInFlight)`);
      onError(new Error(`refused: ${refusal.message}`));
      return refuse(res, refusal, batch ? null : idOf(body), exact);
    }
    session.inFlight += count;
    const exchange = new Exchange(res, exact, maxBuffered, onError, () => closeSession(session), writeThisTurn, headers);
    session.exchanges.add(exchange);
    const requests: TransportRequestId[] = [];
    for (const m of messages) if (classify(m) === "request") requests.push((m as { id: TransportRequestId }).id);
    for (const id of requests) session.routes.set(id, exchange);
    // A batch of requests is answered on a stream; a single request as JSON unless something comes first.
    if (batch && requests.length > 0) exchange.stream();
    try {
      const answers = await Promise.all(
        messages.map(async (m) => {
          const response = await session.connection.handle(m, { cancellation: exchange.gone, ...caller });
          if (response !== undefined && exchange.streaming && !exchange.gone.cancelled) exchange.push(response);
          return response;
        }),
      );
      const responses = answers.filter((r): r is OutgoingMessage => r !== undefined);
      if (!exchange.streaming) exchange.finish(batch ? responses : responses[0]);
      else exchange.finish(undefined);
    } finally {
      session.inFlight -= count;
      for (const id of requests) if (session.routes.get(id) === exchange) session.routes.delete(id);
      session.exchanges.delete(exchange);
      touch(session);
    }
  }

  /** The session's own stream (GET): the server's requests and notifications that belong to no request. */
  function openStandalone(session: Session, req: http.IncomingMessage, res: http.ServerResponse): void {
    if (!acceptsEventStream(req.headers.accept)) return refuse(res, new Refusal(406, INVALID_REQUEST, "Not Acceptable: Accept must list text/event-stream"));
    if (session.standalone !== undefined && session.standalone.open) return refuse(res, new Refusal(409, SERVER_ERROR, "Conflict: this session's stream is open already"));
    touch(session);
    const exchange = new Exchange(res, new Map(), maxBuffered, onError, () => closeSession(session), writeThisTurn, { "mcp-session-id": session.id });
    session.standalone = exchange;
    exchange.stream();
    res.once("close", () => {
      if (session.standalone === exchange) session.standalone = undefined;
      touch(session);
    });
  }

  /** A legacy request's `MCP-Protocol-Version`, when given, must name a served legacy version (else 400). */
  function unsupportedVersion(req: http.IncomingMessage): Refusal | undefined {
    const header = req.headers["mcp-protocol-version"];
    if (typeof header !== "string" || router.legacyVersions === undefined || router.legacyVersions.includes(header)) return undefined;
    return new Refusal(400, INVALID_REQUEST, `Bad Request: unsupported MCP-Protocol-Version ${header} (served: ${router.legacyVersions.join(", ")})`);
  }

  async function session(req: http.IncomingMessage, res: http.ServerResponse, sessionId: string, caller: Caller): Promise<void> {
    const found = sessions.get(sessionId);
    // Another principal's session is answered as an unknown one: its existence is not revealed.
    if (found === undefined || found.principal !== caller.principal) return refuse(res, new Refusal(404, SESSION_NOT_FOUND, "Session not found"));
    if (req.method === "DELETE") {
      closeSession(found);
      return void res.writeHead(200).end();
    }
    if (req.method === "GET") {
      const wrong = unsupportedVersion(req);
      if (wrong !== undefined) return refuse(res, wrong);
      return openStandalone(found, req, res);
    }
    if (req.method !== "POST") return void res.writeHead(405, { allow: "GET, POST, DELETE" }).end();
    const checked = await postBody(req, true);
    if (checked instanceof Refusal) return refuse(res, checked);
    if (Array.isArray(checked.body) && !batchesServed(found.connection.protocolVersion)) {
      // 2025-06-18 removed JSON-RPC batching: a batch is not one valid request.
      return refuse(res, new Refusal(400, INVALID_REQUEST, `Invalid Request: JSON-RPC batches are not supported in protocol version ${found.connection.protocolVersion}`));
    }
    const wrong = unsupportedVersion(req);
    if (wrong !== undefined) return refuse(res, wrong, Array.isArray(checked.body) ? null : idOf(checked.body), checked.exact);
    if (found.closed) return refuse(res, new Refusal(404, SESSION_NOT_FOUND, "Session not found"));
    return inSession(found, res, checked.body, checked.exact, caller);
  }

  const idOf = (m: unknown): TransportRequestId | null => (classify(m) === "request" ? (m as { id: TransportRequestId }).id : null);

  async function modern(req: http.IncomingMessage, res: http.ServerResponse, message: Record<string, unknown>, exact: ExactIds, caller: Caller): Promise<void> {
    const id = idOf(message);
    const mismatch = headerMismatch(req, message, options, (method, version) => router.nameParam?.(method, version));
    if (mismatch !== undefined) return refuse(res, new Refusal(400, HEADER_MISMATCH, mismatch), id, exact);
    // One JSON body, unless the server sends something about the request first: then an SSE stream
    // carrying those messages and the response.
    const exchange = new Exchange(res, exact, maxBuffered, onError, () => undefined, writeThisTurn);
    // Stateless HTTP knows no peer: each POST is its own scope, so a posted notifications/cancelled cannot
    // reach another client's request that shares its id; closing the connection cancels.
    const response = await router.handle(message, { send: (m) => exchange.push(m), cancellation: exchange.gone, scope: {}, ...caller });
    if (response === undefined || id === null) return exchange.finish(undefined);
    const error = (response as { error?: { code?: unknown } }).error;
    exchange.finish(response, typeof error?.code === "number" ? (MODERN_STATUS[error.code] ?? 200) : 200);
  }

  async function serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (!allowed(req)) return refuse(res, new Refusal(403, SERVER_ERROR, "Forbidden: Host or Origin not allowed"));
    const pathname = pathOf(req.url);
    if (pathname === undefined) return refuse(res, new Refusal(400, INVALID_REQUEST, "Bad Request: the request target is not a URL"));
    if (auth !== undefined && metadataPaths.includes(pathname)) {
      // RFC 9728: the Protected Resource Metadata, public (a client reads it before it has a token).
      if (req.method !== "GET" && req.method !== "HEAD") return void res.writeHead(405, { allow: "GET, HEAD" }).end();
      return void res.writeHead(200, { "content-type": "application/json", "cache-control": "max-age=3600" }).end(req.method === "HEAD" ? undefined : metadataBody);
    }
    if (pathname !== endpoint) return void res.writeHead(404).end();
    if (closing) return refuse(res, new Refusal(503, SERVER_ERROR, "Service Unavailable: the server is closing"));
    let verified: AuthInfo | undefined;
    if (auth !== undefined) {
      const outcome = await authenticate(req.headers.authorization, req, auth);
      if (isAuthRefusal(outcome)) {
        req.resume();
        return void res.writeHead(outcome.status, { "content-type": "application/json", ...outcome.headers }).end(JSON.stringify(outcome.body));
      }
      verified = outcome;
    }
    const principal = options.principal !== undefined ? options.principal(req, verified) : principalOf(verified);
    const caller: Caller = { ...(verified === undefined ? {} : { auth: verified }), ...(principal === undefined ? {} : { principal }) };
    const socket = req.socket;
    const onSocket = perSocket.get(socket) ?? 0;
    if (onSocket >= maxInFlight) {
      const refusal = new Refusal(429, SERVER_ERROR, `Too Many Requests: ${maxInFlight} requests are in flight on this connection (maxRequestsInFlight)`);
      onError(new Error(`refused: ${refusal.message}`));
      return refuse(res, refusal);
    }
    perSocket.set(socket, onSocket + 1);
    try {
      return await route(req, res, caller);
    } finally {
      perSocket.set(socket, (perSocket.get(socket) ?? 1) - 1);
    }
  }

  async function route(req: http.IncomingMessage, res: http.ServerResponse, caller: Caller): Promise<void> {
    const sessionId = req.headers["mcp-session-id"];
    if (typeof sessionId === "string") return session(req, res, sessionId, caller);
    if (req.method !== "POST") return void res.writeHead(405, { allow: "POST" }).end();
    const checked = await postBody(req, false);
    if (checked instanceof Refusal) return refuse(res, checked);
    const message = checked.body as Record<string, unknown>;
    // A new legacy session starts with a legacy initialize request; everything else is a modern message.
    if (message.method === "initialize" && classify(message) === "request" && router.eraOf(message) === "legacy") return startSession(res, message, checked.exact, caller);
    return modern(req, res, message, checked.exact, caller);
  }

  const handler = (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> =>
    serve(req, res).catch((error: unknown) => {
      onError(error);
      if (!res.headersSent) refuse(res, new Refusal(500, INTERNAL_ERROR, "Internal error"));
      else res.end();
    });
  // defineProperties, not Object.assign: assign would copy the getter's value once, not the getter.
  return Object.defineProperties(handler, {
    sessions: { get: () => sessions.size, enumerable: true },
    maxSessions: { value: maxSessions, enumerable: true },
    close: {
      value: async () => {
        closing = true;
        clearInterval(sweep);
        for (const session of [...sessions.values()]) closeSession(session);
      },
    },
  }) as HttpHandler;
}

export interface HttpServeOptions extends HttpTransportOptions {
  /** Default 0 (a free port). */
  port?: number;
  /** Default "127.0.0.1". */
  host?: string;
}

export interface HttpServer {
  /** The endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
  readonly server: http.Server;
  readonly handler: HttpHandler;
  /** Close legacy sessions and open connections, then stop listening. */
  close(): Promise<void>;
}

/** Serve `router` over streamable HTTP on its own node:http server. */
export async function serveHttp(router: RoutedServer, options: HttpServeOptions = {}): Promise<HttpServer> {
  const host = options.host ?? "127.0.0.1";
  let handler: HttpHandler | undefined;
  const server = http.createServer((req, res) => void handler!(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  handler = createHttpHandler(router, options);
  const shown = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}${options.path ?? "/mcp"}`,
    server,
    handler,
    async close() {
      await handler!.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
