// What both transports (stdio, streamable HTTP) share: the shape of the router they serve, how a
// message is classified before it is routed (the runtime's envelope rule), how an outgoing message
// becomes text (request ids beyond 2^53 kept exactly), and the bounded writer every outgoing stream
// goes through (backpressure).
import type { Writable } from "node:stream";
import { VERSIONS } from "../protocol.js";
import type { AuthInfo } from "./auth.js";
import type { Cancellation } from "./cancellation.js";
import { type Envelope, ErrorCode, errorResponse, invalidRequest, type JsonRpcErrorResponse, readEnvelope } from "./jsonrpc.js";

export type TransportRequestId = string | number;

/**
 * Whether a connection at `version` (undefined: before `initialize`) is served a JSON-RPC batch: the version's
 * schema defines batches (the protocol module's per-version `batches`). One rule for stdio and HTTP
 * (test/scenarios/ states it).
 */
export function batchesServed(version: string | undefined): boolean {
  if (version === undefined || !Object.hasOwn(VERSIONS, version)) return false;
  return (VERSIONS as Readonly<Record<string, { readonly batches: boolean }>>)[version].batches;
}

/** An outgoing JSON-RPC message, as the router hands it to a transport. */
export type OutgoingMessage = object;

/** How the router sends the server's own messages: `relatedRequestId` is the request they belong to, if any. */
export type TransportSend = (message: OutgoingMessage, relatedRequestId: TransportRequestId | undefined) => void | Promise<void>;

/**
 * What a transport needs of a server: the generated router (`createServerRouter`) has this shape,
 * whatever versions it serves. A legacy client gets a connection (`connect`) that chooses its version
 * at `initialize`; a modern (2026-07-28) message names its version itself and goes to `handle`.
 */
export interface RoutedServer {
  /** The served legacy versions (the HTTP transport refuses an `MCP-Protocol-Version` header naming another). */
  readonly legacyVersions?: readonly string[];
  eraOf(message: unknown): "legacy" | "modern";
  connect(send: TransportSend): {
    /** The version chosen at `initialize`; undefined until an `initialize` succeeds. */
    readonly protocolVersion: string | undefined;
    handle(message: unknown, exchange?: { signal?: AbortSignal; cancellation?: Cancellation; auth?: AuthInfo; principal?: string }): Promise<OutgoingMessage | undefined>;
    close(): void;
  };
  handle(message: unknown, exchange?: { send?: TransportSend; signal?: AbortSignal; cancellation?: Cancellation; scope?: object; auth?: AuthInfo; principal?: string }): Promise<OutgoingMessage | undefined>;
  /** The param a request of `protocolVersion` names itself by for routing (HTTP's `Mcp-Name`: its METHOD_TABLE row's `nameParam`); absent: none. */
  nameParam?(method: string, protocolVersion: string): string | undefined;
}

/** Where a transport reports what it cannot answer on the wire (a message that cannot be sent, a send that failed). */
export type TransportErrorHook = (error: unknown) => void;

/** Default hook: one line on stderr (never stdout, which the stdio transport writes messages to). */
export const logTransportError: TransportErrorHook = (error) => {
  const text = error instanceof Error ? error.message : String(error);
  process.stderr.write(`mcp transport: ${text.replace(/\s+/g, " ")}\n`);
};

/** A parsed message's kind, by the runtime's envelope rule (`readEnvelope` in ./jsonrpc.ts): one rule for transports, router and dispatchers. */
export type MessageKind = Envelope["kind"];

export function classify(message: unknown): MessageKind {
  return readEnvelope(message).kind;
}

/** The -32600 answer (id null) to a message whose envelope is invalid, naming why; undefined for a valid one. */
export function invalidEnvelope(message: unknown): JsonRpcErrorResponse | undefined {
  const envelope = readEnvelope(message);
  return envelope.kind === "invalid" ? invalidRequest(envelope) : undefined;
}

export const errorMessage = errorResponse;
export const PARSE_ERROR = ErrorCode.ParseError;
export const INVALID_REQUEST = ErrorCode.InvalidRequest;
export const INTERNAL_ERROR = ErrorCode.InternalError;

/**
 * Request ids a JSON number cannot hold exactly (integers beyond 2^53), as the client wrote them:
 * the parsed (rounded) id → its source text. Empty for everything else.
 */
export type ExactIds = ReadonlyMap<number, string>;
const NO_IDS: ExactIds = new Map();

/**
 * The exact ids of a message's text, already known to be JSON (`JSON.parse` succeeded on it): for a
 * top-level object (or each object of a top-level array) whose parsed `id` is an integer beyond 2^53,
 * the id's source text. JSON.parse rounds such numbers; JSON-RPC wants the same id back.
 */
export function exactIds(text: string, parsed: unknown): ExactIds {
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  const lossy = (m: unknown) => {
    const id = typeof m === "object" && m !== null && Object.hasOwn(m, "id") ? (m as { id: unknown }).id : undefined;
    return typeof id === "number" && Number.isInteger(id) && !Number.isSafeInteger(id);
  };
  if (!messages.some(lossy)) return NO_IDS;
  const ids = new Map<number, string>();
  for (const raw of topLevelIds(text)) {
    const value = Number(raw);
    if (!Number.isSafeInteger(value) && Number.isInteger(value) && /^-?\d+$/.test(raw)) ids.set(value, raw);
  }
  return ids;
}

/** The source text of the `id` member of the top-level object, or of each top-level array element (valid JSON only). */
function topLevelIds(text: string): string[] {
  let i = 0;
  const ws = () => {
    while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++;
  };
  const skipString = () => {
    for (i++; text[i] !== '"'; i++) if (text[i] === "\\") i++;
    i++;
  };
  const skipValue = () => {
    const c = text[i];
    if (c === '"') return skipString();
    if (c !== "{" && c !== "[") {
      while (i < text.length && !",]} \t\n\r".includes(text[i])) i++;
      return;
    }
    let depth = 0;
    do {
      const d = text[i];
      if (d === '"') {
        skipString();
        continue;
      }
      if (d === "{" || d === "[") depth++;
      else if (d === "}" || d === "]") depth--;
      i++;
    } while (depth > 0);
  };
  const idOfObject = (): string | undefined => {
    let id: string | undefined;
    i++; // {
    for (;;) {
      ws();
      if (text[i] === "}") break;
      const keyStart = i;
      skipString();
      const key = JSON.parse(text.slice(keyStart, i)) as string;
      ws();
      i++; // :
      ws();
      const valueStart = i;
      skipValue();
      if (key === "id") id = text.slice(valueStart, i);
      ws();
      if (text[i] === ",") i++;
    }
    i++;
    return id;
  };
  const ids: string[] = [];
  ws();
  if (text[i] === "{") {
    const id = idOfObject();
    if (id !== undefined) ids.push(id);
  } else if (text[i] === "[") {
    i++;
    for (;;) {
      ws();
      if (text[i] === "]" || i >= text.length) break;
      if (text[i] === "{") {
        const id = idOfObject();
        if (id !== undefined) ids.push(id);
      } else skipValue();
      ws();
      if (text[i] === ",") i++;
    }
  }
  return ids;
}

/**
 * A message as JSON text. A message JSON cannot carry (a BigInt, a cycle, a throwing toJSON) is never
 * sent as it is: a response becomes -32603 with its id, anything else is reported and dropped (undefined).
 * With `exact`, every number that is a rounded exact id is written as the client wrote it.
 */
export function serialize(message: OutgoingMessage, onError: TransportErrorHook, exact: ExactIds = NO_IDS): string | undefined {
  try {
    const text = exact.size === 0 ? JSON.stringify(message) : withExactIds(message, exact);
    if (typeof text === "string") return text;
    throw new TypeError("the message is not JSON");
  } catch (error) {
    const m = message as { id?: unknown; method?: unknown };
    const id = typeof m.id === "string" || typeof m.id === "number" ? m.id : undefined;
    onError(new Error(`cannot send ${id === undefined ? `a ${String(m.method)} message` : `the response to request ${JSON.stringify(id)}`} as JSON: ${error instanceof Error ? error.message : String(error)}`));
    if (id === undefined || typeof m.method === "string") return undefined;
    return withExactIds(errorMessage(id, INTERNAL_ERROR, "Internal error: the result cannot be sent as JSON"), exact);
  }
}

/** JSON.stringify, each rounded exact id replaced by its source text (through a marker no JSON string can hold unescaped). */
function withExactIds(message: OutgoingMessage, exact: ExactIds): string | undefined {
  if (exact.size === 0) return JSON.stringify(message);
  const marker = (raw: string) => `\u0000mcp-exact-id\u0000${raw}`;
  const text = JSON.stringify(message, (_key, value: unknown) => (typeof value === "number" && exact.has(value) ? marker(exact.get(value)!) : value));
  if (text === undefined) return undefined;
  return text.replace(/"\\u0000mcp-exact-id\\u0000(-?\d+)"/g, "$1");
}

/** What a transport writes each outgoing stream through: a bounded queue that honours `drain`. */
export interface BoundedWriter {
  /** Queue `text` (written at once while the stream drains); false once the stream is over its bound or gone. */
  write(text: string): boolean;
  /** End the stream once everything queued is written. */
  end(): void;
  /** Whether the stream has asked to wait for `drain` (writes are queued here meanwhile). */
  readonly waiting: boolean;
}

/**
 * A writer over `out`: text goes straight to the stream while it drains; once `write` returns false,
 * text waits here until `drain`. When what the stream holds plus what waits here would pass `maxBytes`,
 * nothing more is queued: `overflow` is called once (the transport disconnects that consumer) and every
 * later write returns false. A single message is always accepted while the stream drains, whatever its size.
 */
export function boundedWriter(out: Writable, maxBytes: number, overflow: () => void, drained?: () => void): BoundedWriter {
  const queue: string[] = [];
  let queuedBytes = 0;
  let waiting = false;
  let over = false;
  let ending = false;
  const flush = (): void => {
    waiting = false;
    while (queue.length > 0) {
      const text = queue.shift()!;
      queuedBytes -= Buffer.byteLength(text);
      if (out.destroyed) return;
      if (!out.write(text)) {
        waiting = true;
        out.once("drain", flush);
        return;
      }
    }
    if (ending) out.end();
    else drained?.();
  };
  return {
    write(text) {
      if (over || out.destroyed || out.writableEnded || ending) return false;
      if (!waiting) {
        if (!out.write(text)) {
          waiting = true;
          out.once("drain", flush);
        }
        return true;
      }
      const bytes = Buffer.byteLength(text);
      if (out.writableLength + queuedBytes + bytes > maxBytes) {
        over = true;
        queue.length = 0;
        queuedBytes = 0;
        overflow();
        return false;
      }
      queue.push(text);
      queuedBytes += bytes;
      return true;
    },
    end() {
      if (ending || out.writableEnded) return;
      ending = true;
      if (!waiting && !over) out.end();
    },
    get waiting() {
      return waiting;
    },
  };
}
