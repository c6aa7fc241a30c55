// The streamable HTTP transport, both eras on one endpoint:
// - legacy sessions (a POST of `initialize` starts one; later requests carry `Mcp-Session-Id`) are served by
//   the official SDK's StreamableHTTPServerTransport (@modelcontextprotocol/sdk 1.x, an optional peer
//   dependency, imported on the first legacy session only): SSE streams, GET streams, DELETE, resumption;
// - modern (2026-07-28) requests are stateless POSTs answered here on plain node:http: the SDK transports
//   answer every JSON-RPC error with HTTP 200, while 2026-07-28 maps codes to 400/404, and the 1.x
//   transport refuses the 2026-07-28 protocol header.
// Before either, every POST passes the same checks: `Content-Type` application/json (else 415), `Accept`
// listing application/json and text/event-stream (else 406), a body within `maxBodyBytes` (else 413),
// JSON (else 400 with -32700), one JSON-RPC envelope (else 400 with -32600, id null). A client that closes
// its connection before its answer aborts the `signal` of the requests it posted.
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { metaOfParams, ownMember, paramsOf } from "./jsonrpc.js";
import {
  classify,
  errorMessage,
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
   * `Host` header values accepted (e.g. "127.0.0.1:3000"), against DNS rebinding; others get 403.
   * Default: any (`serveHttp` on a loopback address defaults to that address's loopback names).
   */
  allowedHosts?: readonly string[];
  /** `Origin` values accepted when a request sends one. Default: `http://<host>` for each allowed host, or any. */
  allowedOrigins?: readonly string[];
  /** A legacy session with no open request for this long is closed (default 30 minutes). */
  sessionIdleMs?: number;
  /**
   * For `tools/call` (2026-07-28): the tool's `x-mcp-header` parameters, argument name → header name; each
   * argument given must be repeated in its `Mcp-Param-<Name>` header (plain or `=?base64?…?=`), else -32020.
   */
  parameterHeaders?: (toolName: string) => Readonly<Record<string, string>> | undefined;
  /** Transport failures (a message that cannot be sent, a stream that broke). Default: one line on stderr. */
  onError?: TransportErrorHook;
}

/** A node:http request listener serving the MCP endpoint; `close()` ends every legacy session. */
export interface HttpHandler {
  (req: http.IncomingMessage, res: http.ServerResponse): Promise<void>;
  /** Open legacy sessions. */
  readonly sessions: number;
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY = 4 * 1024 * 1024;
const DEFAULT_IDLE = 30 * 60 * 1000;

/** HTTP status of a 2026-07-28 error response, by JSON-RPC code (others: 200). */
const MODERN_STATUS: Readonly<Record<number, number>> = {
  [-32700]: 400, // ParseError
  [-32600]: 400, // InvalidRequest
  [-32601]: 404, // MethodNotFound
  [-32602]: 400, // InvalidParams
  [-32020]: 400, // HeaderMismatchError
  [-32021]: 400, // MissingRequiredClientCapabilityError
  [-32022]: 400, // UnsupportedProtocolVersionError
};
const HEADER_MISMATCH = -32020;

interface Session {
  transport: StreamableHTTPServerTransport;
  connection: ReturnType<RoutedServer["connect"]>;
  /** Signals of requests posted but not yet handed to the router, by id. */
  signals: Map<TransportRequestId, AbortSignal>;
  open: number;
  lastSeen: number;
}

class Refusal {
  constructor(
    readonly status: number,
    readonly code: number,
    readonly message: string,
  ) {}
}

type SdkModule = typeof import("@modelcontextprotocol/sdk/server/streamableHttp.js");
let sdk: Promise<SdkModule> | undefined;
function loadSdk(): Promise<SdkModule> {
  sdk ??= import("@modelcontextprotocol/sdk/server/streamableHttp.js").catch((error: unknown) => {
    sdk = undefined;
    throw new Error(`legacy MCP sessions over HTTP need @modelcontextprotocol/sdk 1.x installed: ${error instanceof Error ? error.message : String(error)}`);
  });
  return sdk;
}

function reply(res: http.ServerResponse, status: number, body: unknown, headers: http.OutgoingHttpHeaders = {}): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}

function refuse(res: http.ServerResponse, refusal: Refusal, id: TransportRequestId | null = null): void {
  reply(res, refusal.status, errorMessage(id, refusal.code, refusal.message), refusal.status === 413 ? { connection: "close" } : {});
}

function isJsonContentType(value: string | undefined): boolean {
  return value !== undefined && value.split(";")[0].trim().toLowerCase() === "application/json";
}

function acceptsBoth(value: string | undefined): boolean {
  const ranges = (value ?? "").split(",").map((r) => r.split(";")[0].trim().toLowerCase());
  return ranges.includes("application/json") && ranges.includes("text/event-stream");
}

/** The body as text; a Refusal when it is over `limit` bytes. */
async function readBody(req: http.IncomingMessage, limit: number): Promise<string | Refusal> {
  const tooLarge = () => new Refusal(413, INVALID_REQUEST, `Payload Too Large: the body exceeds ${limit} bytes`);
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) return tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return tooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A `=?base64?…?=` header value decoded (strict alphabet and padding), a plain value as it is; undefined when malformed. */
function headerValue(raw: string): string | undefined {
  const m = /^=\?base64\?(.*)\?=$/.exec(raw);
  if (m === null) return raw;
  const encoded = m[1];
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(encoded)) return undefined;
  return Buffer.from(encoded, "base64").toString("utf8");
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Why a 2026-07-28 POST's headers disagree with its body (the transport's header rules), or undefined. */
function headerMismatch(req: http.IncomingMessage, message: Record<string, unknown>, options: HttpTransportOptions, nameParam?: (method: string) => string | undefined): string | undefined {
  const header = req.headers["mcp-protocol-version"];
  if (typeof header !== "string") return "Missing MCP-Protocol-Version header";
  const params = paramsOf(message);
  const bodyVersion = ownMember(metaOfParams(params), "io.modelcontextprotocol/protocolVersion");
  if (bodyVersion !== undefined && bodyVersion !== header) return `Header mismatch: MCP-Protocol-Version ${header} but _meta names ${String(bodyVersion)}`;
  const method = typeof message.method === "string" ? message.method : undefined;
  const mcpMethod = req.headers["mcp-method"];
  if (typeof mcpMethod !== "string" || mcpMethod.trim() !== method) return `Header mismatch: Mcp-Method ${mcpMethod ?? "(missing)"} but the body's method is ${method}`;
  // A served extension's methods name their request too (Tasks: `tasks/*` carry `params.taskId`, SEP-2663).
  const nameKey = method === "resources/read" ? "uri" : method === "tools/call" || method === "prompts/get" ? "name" : method === undefined ? undefined : nameParam?.(method);
  const named = nameKey === undefined ? undefined : params?.[nameKey];
  if (typeof named === "string") {
    const mcpName = req.headers["mcp-name"];
    if (typeof mcpName !== "string" || mcpName.trim() !== named) return `Header mismatch: Mcp-Name ${mcpName ?? "(missing)"} but the body names ${named}`;
  }
  if (method === "tools/call" && typeof named === "string" && options.parameterHeaders !== undefined) {
    const args = isObject(params?.arguments) ? params.arguments : {};
    for (const [key, name] of Object.entries(options.parameterHeaders(named) ?? {})) {
      if (!Object.hasOwn(args, key)) continue;
      const raw = req.headers[`mcp-param-${name.toLowerCase()}`];
      if (typeof raw !== "string") return `Header mismatch: Mcp-Param-${name} is missing but arguments.${key} is given`;
      const value = headerValue(raw.trim());
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
    if (isObject(property) && typeof property["x-mcp-header"] === "string") out[key] = property["x-mcp-header"];
  }
  return out;
}

/** An AbortSignal that aborts when `res` closes before its answer was fully written. */
function abortOnDisconnect(res: http.ServerResponse): AbortSignal {
  const gone = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) gone.abort(new Error("the client closed the connection"));
  });
  return gone.signal;
}

/** A node:http request listener serving `router` at `options.path`. */
export function createHttpHandler(router: RoutedServer, options: HttpTransportOptions = {}): HttpHandler {
  const endpoint = options.path ?? "/mcp";
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const idleMs = options.sessionIdleMs ?? DEFAULT_IDLE;
  const onError = options.onError ?? logTransportError;
  const hosts = options.allowedHosts;
  const origins = options.allowedOrigins ?? hosts?.map((h) => `http://${h}`);
  const sessions = new Map<string, Session>();
  let closing = false;

  const sweep = setInterval(() => {
    const now = Date.now();
    for (const session of sessions.values()) if (session.open === 0 && now - session.lastSeen > idleMs) void session.transport.close();
  }, Math.max(10, Math.min(idleMs / 2, 60_000)));
  sweep.unref();

  function allowed(req: http.IncomingMessage): boolean {
    if (hosts !== undefined && (req.headers.host === undefined || !hosts.includes(req.headers.host))) return false;
    const origin = req.headers.origin;
    return origin === undefined || origins === undefined || origins.includes(origin);
  }

  /** The checked body of a POST: one message (or, in a legacy session, a batch), else a Refusal. */
  async function postBody(req: http.IncomingMessage, batchAllowed: boolean): Promise<unknown> {
    if (!isJsonContentType(req.headers["content-type"])) return new Refusal(415, INVALID_REQUEST, "Unsupported Media Type: Content-Type must be application/json");
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
    return body;
  }

  async function startSession(req: http.IncomingMessage, res: http.ServerResponse, body: Record<string, unknown>): Promise<void> {
    const { StreamableHTTPServerTransport } = await loadSdk();
    const session: Session = {
      transport: new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => void sessions.set(id, session) }),
      connection: router.connect((message, relatedRequestId) => sendInSession(session, message, relatedRequestId)),
      signals: new Map(),
      open: 0,
      lastSeen: Date.now(),
    };
    session.transport.onmessage = (message) => {
      const id = classify(message) === "request" ? (message as { id: TransportRequestId }).id : undefined;
      const signal = id === undefined ? undefined : session.signals.get(id);
      if (id !== undefined) session.signals.delete(id);
      const initialize = id !== undefined && (message as { method?: unknown }).method === "initialize";
      void session.connection
        .handle(message, { signal })
        .then(async (response) => {
          if (response !== undefined && id !== undefined && signal?.aborted !== true) await sendInSession(session, response, undefined);
          // An initialize the router refused leaves no session behind (the SDK issued its id already).
          if (initialize && session.connection.protocolVersion === undefined) forget(session);
        })
        .catch((error: unknown) => onError(error));
    };
    session.transport.onclose = () => forget(session);
    session.transport.onerror = () => undefined; // the SDK reports refused requests here; they are answered on the wire already
    await session.transport.start();
    await inSession(session, req, res, body);
    // An initialize the SDK refused (no session id issued) leaves nothing behind either.
    if (session.transport.sessionId === undefined) session.connection.close();
  }

  /** The session is over: its connection closes and its id is no longer known. */
  function forget(session: Session): void {
    session.connection.close();
    const id = session.transport.sessionId;
    if (id !== undefined && sessions.get(id) === session) sessions.delete(id);
  }

  async function sendInSession(session: Session, message: OutgoingMessage, relatedRequestId: TransportRequestId | undefined): Promise<void> {
    const text = serialize(message, onError);
    if (text === undefined) return;
    try {
      await session.transport.send(JSON.parse(text), relatedRequestId === undefined ? undefined : { relatedRequestId });
    } catch (error) {
      // The stream it belonged to is gone (the client disconnected): nothing to deliver to.
      onError(error);
    }
  }

  /** Hand one HTTP request to a session's SDK transport, with a disconnect signal for each request posted. */
  async function inSession(session: Session, req: http.IncomingMessage, res: http.ServerResponse, body?: unknown): Promise<void> {
    session.open++;
    session.lastSeen = Date.now();
    const ids: TransportRequestId[] = [];
    if (body !== undefined) {
      const signal = abortOnDisconnect(res);
      for (const m of Array.isArray(body) ? body : [body]) {
        if (classify(m) !== "request") continue;
        const id = (m as { id: TransportRequestId }).id;
        ids.push(id);
        session.signals.set(id, signal);
      }
    }
    res.once("close", () => {
      session.open--;
      session.lastSeen = Date.now();
    });
    try {
      await session.transport.handleRequest(req, res, body);
    } finally {
      // Requests the SDK refused never reached onmessage.
      for (const id of ids) session.signals.delete(id);
    }
  }

  async function modern(req: http.IncomingMessage, res: http.ServerResponse, message: Record<string, unknown>): Promise<void> {
    const id = classify(message) === "request" ? (message.id as TransportRequestId) : null;
    const mismatch = headerMismatch(req, message, options, (method) => router.nameParam?.(method));
    if (mismatch !== undefined) return refuse(res, new Refusal(400, HEADER_MISMATCH, mismatch), id);
    // One JSON body, unless the server sends something about the request first: then an SSE stream
    // carrying those messages and the response.
    const signal = abortOnDisconnect(res);
    let streaming = false;
    const event = (text: string) => res.write(`event: message\ndata: ${text}\n\n`);
    const send = (m: OutgoingMessage) => {
      if (res.writableEnded || signal.aborted) return;
      const text = serialize(m, onError);
      if (text === undefined) return;
      if (!streaming) {
        streaming = true;
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
      }
      event(text);
    };
    // Stateless HTTP knows no peer: each POST is its own scope, so a posted notifications/cancelled cannot
    // reach another client's request that shares its id; closing the connection cancels.
    const response = await router.handle(message, { send, signal, scope: {} });
    if (signal.aborted || res.writableEnded) return;
    if (response === undefined || id === null) {
      if (streaming) res.end();
      else res.writeHead(202).end();
      return;
    }
    const text = serialize(response, onError) ?? JSON.stringify(errorMessage(id, INTERNAL_ERROR, "Internal error"));
    if (streaming) {
      event(text);
      res.end();
      return;
    }
    const error = (response as { error?: { code?: unknown } }).error;
    const status = typeof error?.code === "number" ? (MODERN_STATUS[error.code] ?? 200) : 200;
    res.writeHead(status, { "content-type": "application/json" }).end(text);
  }

  async function serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    if (!allowed(req)) return refuse(res, new Refusal(403, -32000, "Forbidden: Host or Origin not allowed"));
    if (new URL(req.url ?? "/", "http://x").pathname !== endpoint) return void res.writeHead(404).end();
    if (closing) return refuse(res, new Refusal(503, -32000, "Service Unavailable: the server is closing"));
    const sessionId = req.headers["mcp-session-id"];
    if (typeof sessionId === "string") {
      const session = sessions.get(sessionId);
      if (session === undefined) return refuse(res, new Refusal(404, -32001, "Session not found"));
      if (req.method !== "POST") return inSession(session, req, res);
      const body = await postBody(req, true);
      if (body instanceof Refusal) return refuse(res, body);
      return inSession(session, req, res, body);
    }
    if (req.method !== "POST") return void res.writeHead(405, { allow: "POST" }).end();
    const body = await postBody(req, false);
    if (body instanceof Refusal) return refuse(res, body);
    const message = body as Record<string, unknown>;
    // A new legacy session starts with a legacy initialize request; everything else is a modern message.
    if (message.method === "initialize" && classify(message) === "request" && router.eraOf(message) === "legacy") return startSession(req, res, message);
    return modern(req, res, message);
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
    close: {
      value: async () => {
        closing = true;
        clearInterval(sweep);
        await Promise.allSettled([...sessions.values()].map((s) => s.transport.close()));
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

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);

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
  const allowedHosts = options.allowedHosts ?? (LOOPBACK.has(host) ? [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`] : undefined);
  handler = createHttpHandler(router, { ...options, allowedHosts });
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
