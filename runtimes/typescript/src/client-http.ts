// The client side of streamable HTTP, both eras, over the platform `fetch` (or the ClientFetch
// given, which is how OAuth decorates every request):
// - legacy: the `Mcp-Session-Id` the server assigns at `initialize` goes on every later request,
//   with `MCP-Protocol-Version`; once the session is established a GET opens the server's stream
//   (a 405 means the server offers none); `close` sends DELETE;
// - 2026-07-28: every POST stands alone, with `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and the
//   `Mcp-Param-*` headers of the tool's `x-mcp-header` arguments (client-headers.ts);
// - a POST is answered by one JSON body, 202, or an SSE stream; SSE events carry `id:` and `retry:`:
//   a stream that ends before its request's answer is resumed with a GET carrying `Last-Event-ID`,
//   after the server's `retry:` delay, at most `maxReconnects` times;
// - limits as on the server side: a body over `maxBodyBytes` or an SSE line over `maxLineBytes` is dropped
//   and reported; a 401/403 is an HttpStatusError naming the status and `WWW-Authenticate`;
// - a POST whose kept-alive connection the server had closed (reset before any response) is sent once more.
import type { ClientFetch } from "./client-fetch.js";
import { modernHeaders } from "./client-headers.js";
import type { ClientTransport, ClientTransportReceiver, OutgoingInfo } from "./client-transport.js";
import { readEnvelope, type JsonRpcMessage, type RequestId } from "./jsonrpc.js";

export const DEFAULT_CLIENT_MAX_BODY = 4 * 1024 * 1024;
export const DEFAULT_RETRY_MS = 1000;
export const DEFAULT_MAX_RECONNECTS = 5;

export interface HttpClientOptions {
  /** Every POST, GET and DELETE goes through it (default: the platform fetch). */
  fetch?: ClientFetch;
  /** Extra headers on every request (not the protocol's own, which the transport sets). */
  headers?: Readonly<Record<string, string>>;
  /** Largest JSON response body, in bytes (default 4 MiB). */
  maxBodyBytes?: number;
  /** Longest SSE line, in bytes (default `maxBodyBytes`). */
  maxLineBytes?: number;
  /** Resumptions of one stream at most (default 5). */
  maxReconnects?: number;
  /** Delay before resuming when the server sent no `retry:` (default 1000 ms). */
  retryMs?: number;
  /** Legacy: open the GET stream once the session is established (default true). */
  openStream?: boolean;
}

/** An HTTP answer that carries no JSON-RPC answer: its status, and for 401/403 the `WWW-Authenticate` challenge. */
export class HttpStatusError extends Error {
  readonly status: number;
  readonly wwwAuthenticate: string | undefined;
  constructor(status: number, message: string, wwwAuthenticate?: string) {
    super(message);
    this.name = "HttpStatusError";
    this.status = status;
    this.wwwAuthenticate = wwwAuthenticate;
  }
}

const byteLength = (text: string): number => Buffer.byteLength(text, "utf8");
const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });

/** Whether a fetch failed because the connection was reset or closed before any response (a stale kept-alive socket). */
function staleConnection(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  return error instanceof TypeError && ["ECONNRESET", "UND_ERR_SOCKET", "EPIPE"].includes(String(cause?.code));
}

/** A response body as text, refused past `limit` bytes. */
async function readLimited(response: Response, limit: number): Promise<string> {
  if (response.body === null) return "";
  // A declared Content-Length within the limit bounds the body (fetch enforces the framing): read it whole,
  // and check what came (a ClientFetch of one's own could declare less than it sends).
  const declared = response.headers.get("content-length");
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) <= limit) {
    const text = await response.text();
    if (text.length > limit) throw new Error(`the response body exceeds ${limit} bytes (maxBodyBytes)`);
    return text;
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new Error(`the response body exceeds ${limit} bytes (maxBodyBytes)`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** One server-sent event. */
interface SseEvent {
  readonly event: string;
  readonly data: string;
}

/**
 * Reads an SSE stream (the WHATWG event-stream rules: `data`, `event`, `id`, `retry`, comments,
 * CR/LF/CRLF line ends), calling `onEvent` per dispatched event; `state` tracks the last event id and retry.
 */
async function readSse(body: ReadableStream<Uint8Array>, maxLine: number, state: { lastEventId?: string; retryMs: number }, onEvent: (event: SseEvent) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let data: string[] = [];
  let event = "";
  const line = (text: string): void => {
    if (text === "") {
      if (data.length > 0) onEvent({ event: event || "message", data: data.join("\n") });
      data = [];
      event = "";
      return;
    }
    if (text.startsWith(":")) return;
    const colon = text.indexOf(":");
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? "" : text.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") event = value;
    else if (field === "id" && !value.includes("\0")) state.lastEventId = value;
    else if (field === "retry" && /^\d+$/.test(value)) state.retryMs = Number(value);
  };
  for (;;) {
    const { done, value } = await reader.read();
    buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const c = buffer.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      // A CR at the end of the buffer may be the first half of a CRLF: wait for more.
      if (c === 13 && i === buffer.length - 1 && !done) break;
      line(buffer.slice(start, i));
      if (c === 13 && buffer.charCodeAt(i + 1) === 10) i++;
      start = i + 1;
    }
    buffer = buffer.slice(start);
    if (byteLength(buffer) > maxLine) {
      await reader.cancel().catch(() => undefined);
      throw new Error(`an SSE line exceeds ${maxLine} bytes (maxLineBytes)`);
    }
    if (done) return;
  }
}

/** A client transport over streamable HTTP at `url`. */
export function httpClientTransport(url: string | URL, options: HttpClientOptions = {}): ClientTransport & { readonly sessionId: string | undefined } {
  const endpoint = new URL(url);
  const doFetch: ClientFetch = options.fetch ?? ((u, i) => fetch(u, i));
  const maxBody = options.maxBodyBytes ?? DEFAULT_CLIENT_MAX_BODY;
  const maxLine = options.maxLineBytes ?? maxBody;
  const maxReconnects = options.maxReconnects ?? DEFAULT_MAX_RECONNECTS;
  const life = new AbortController();
  let receiver: ClientTransportReceiver | undefined;
  let sessionId: string | undefined;
  let protocolVersion: string | undefined;
  let era: "legacy" | "modern" | undefined;
  let closed = false;

  const baseHeaders = (): Record<string, string> => {
    const headers: Record<string, string> = { ...options.headers };
    if (protocolVersion !== undefined) headers["mcp-protocol-version"] = protocolVersion;
    if (sessionId !== undefined && era !== "modern") headers["mcp-session-id"] = sessionId;
    return headers;
  };


  async function refusal(response: Response): Promise<HttpStatusError> {
    const text = await readLimited(response, maxBody).catch(() => "");
    const challenge = response.headers.get("www-authenticate") ?? undefined;
    const detail = text.length > 0 && text.length < 500 ? `: ${text.trim()}` : "";
    return new HttpStatusError(response.status, `HTTP ${response.status} ${response.statusText}${challenge === undefined ? "" : ` (WWW-Authenticate: ${challenge})`}${detail}`, challenge);
  }

  /** Hand the messages of one JSON body or event over; true when one answered `awaited`. */
  function deliver(value: unknown, awaited: RequestId | undefined): boolean {
    let answered = false;
    for (const message of Array.isArray(value) ? value : [value]) {
      const envelope = readEnvelope(message);
      if (envelope.kind === "response" && awaited !== undefined && envelope.id === awaited) answered = true;
      receiver?.message(message, awaited);
    }
    return answered;
  }

  /**
   * Read one SSE response (a POST's or a GET's), resuming it with `Last-Event-ID` while `awaited` (the
   * POSTed request's id; undefined for the session's own stream) has no answer and resumptions remain.
   */
  async function consume(response: Response, awaited: RequestId | undefined, signal: AbortSignal): Promise<void> {
    const state: { lastEventId?: string; retryMs: number } = { retryMs: options.retryMs ?? DEFAULT_RETRY_MS };
    let answered = false;
    let current: Response | undefined = response;
    for (let attempt = 0; ; attempt++) {
      let received = false;
      try {
        if (current.body !== null) {
          await readSse(current.body, maxLine, state, (event) => {
            received = true;
            if (event.event !== "message" || event.data.trim() === "") return;
            let parsed: unknown;
            try {
              parsed = JSON.parse(event.data);
            } catch {
              return receiver?.problem(new Error("the server sent an SSE event that is not JSON"));
            }
            if (deliver(parsed, awaited)) answered = true;
          });
        }
      } catch (error) {
        if (signal.aborted || closed) return;
        receiver?.problem(error);
      }
      if (closed || signal.aborted || answered) return;
      if (awaited === undefined && !received && attempt > 0) return;
      // The stream ended without the answer: resume it where it stopped, if the server named its events.
      if (state.lastEventId === undefined || attempt >= maxReconnects) {
        if (awaited !== undefined) receiver?.requestFailed(awaited, new Error(`the response stream ended before the answer${state.lastEventId === undefined ? " (no event id to resume from)" : ` (${maxReconnects} resumptions tried)`}`));
        return;
      }
      await sleep(state.retryMs, signal);
      if (closed || signal.aborted) return;
      current = undefined;
      try {
        const resumed = await doFetch(endpoint, { method: "GET", headers: { ...baseHeaders(), accept: "text/event-stream", "last-event-id": state.lastEventId }, signal });
        if (resumed.ok && (resumed.headers.get("content-type") ?? "").includes("text/event-stream")) current = resumed;
        else await resumed.body?.cancel().catch(() => undefined);
      } catch (error) {
        if (signal.aborted || closed) return;
        receiver?.problem(error);
      }
      if (current === undefined) {
        if (awaited !== undefined) receiver?.requestFailed(awaited, new Error("the response stream ended and could not be resumed"));
        return;
      }
    }
  }

  async function openStream(): Promise<void> {
    try {
      const response = await doFetch(endpoint, { method: "GET", headers: { ...baseHeaders(), accept: "text/event-stream" }, signal: life.signal });
      if (!response.ok || !(response.headers.get("content-type") ?? "").includes("text/event-stream")) {
        // 405: the server offers no stream of its own.
        await response.body?.cancel().catch(() => undefined);
        return;
      }
      await consume(response, undefined, life.signal);
    } catch (error) {
      if (!closed) receiver?.problem(error);
    }
  }

  return {
    get sessionId() {
      return sessionId;
    },
    async start(r) {
      receiver = r;
    },
    async send(message: JsonRpcMessage, info: OutgoingInfo) {
      if (closed) throw new Error("the HTTP transport is closed");
      if (info.protocolVersion !== undefined) protocolVersion = info.protocolVersion;
      if (info.era !== undefined) era = info.era;
      const body = JSON.stringify(message);
      // UTF-8 needs at most 3 bytes per UTF-16 unit: count the bytes only when the body may exceed the limit.
      if (body.length * 3 > maxBody && byteLength(body) > maxBody) throw new Error(`the message exceeds ${maxBody} bytes (maxBodyBytes)`);
      const headers: Record<string, string> = { ...baseHeaders(), "content-type": "application/json", accept: "application/json, text/event-stream" };
      if (era === "modern") Object.assign(headers, modernHeaders(message as { method?: unknown; params?: unknown }, info.nameParam, info.inputSchema));
      const envelope = readEnvelope(message);
      const awaited = envelope.kind === "request" ? envelope.id : undefined;
      // The request's own signal when it has one (its owner aborts it when it gives up or closes: ClientCore's
      // close rejects and aborts every pending request), else the transport's: no joined signal per request.
      const signal = info.signal ?? life.signal;
      let response: Response;
      try {
        response = await doFetch(endpoint, { method: "POST", headers, body, signal });
      } catch (error) {
        // A kept-alive connection the server closed while idle fails before any answer: send once more on a new one.
        if (signal.aborted || !staleConnection(error)) throw error;
        response = await doFetch(endpoint, { method: "POST", headers, body, signal });
      }
      const assigned = response.headers.get("mcp-session-id");
      if (assigned !== null && era !== "modern" && envelope.kind === "request" && envelope.method === "initialize") sessionId = assigned;
      if (response.status === 401 || response.status === 403) throw await refusal(response);
      // 202 Accepted carries no body (the spec's MUST), whatever Content-Type it names: mcp 2.3.0 names application/json.
      if (response.status === 202) {
        await response.body?.cancel().catch(() => undefined);
        if (awaited !== undefined) throw new HttpStatusError(202, `HTTP 202: no answer to request ${JSON.stringify(awaited)}`);
        return;
      }
      const type = (response.headers.get("content-type") ?? "").toLowerCase();
      if (type.includes("text/event-stream") && response.ok) {
        // The answer comes on the stream: read it in the background, the request's promise settles from it.
        void consume(response, awaited, signal);
        return;
      }
      if (type.includes("application/json")) {
        const text = await readLimited(response, maxBody);
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          throw new HttpStatusError(response.status, `HTTP ${response.status}: the body is not JSON`);
        }
        const answered = deliver(parsed, awaited);
        if (awaited !== undefined && !answered) throw new HttpStatusError(response.status, `HTTP ${response.status}: no answer to request ${JSON.stringify(awaited)}: ${text.slice(0, 300)}`);
        return;
      }
      if (!response.ok) throw await refusal(response);
      await response.body?.cancel().catch(() => undefined);
      if (awaited !== undefined) throw new HttpStatusError(response.status, `HTTP ${response.status}: no answer to request ${JSON.stringify(awaited)}`);
    },
    sessionStarted() {
      if (options.openStream !== false && !closed) void openStream();
    },
    async close() {
      if (closed) return;
      closed = true;
      life.abort(new Error("the HTTP transport closed"));
      if (sessionId !== undefined && era !== "modern") {
        try {
          const response = await doFetch(endpoint, { method: "DELETE", headers: { ...options.headers, "mcp-session-id": sessionId, ...(protocolVersion === undefined ? {} : { "mcp-protocol-version": protocolVersion }) } });
          await response.body?.cancel().catch(() => undefined);
        } catch {
          // The server is gone already: nothing to end.
        }
      }
      receiver?.closed();
    },
  };
}
