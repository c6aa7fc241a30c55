// What both transports (stdio, streamable HTTP) share: the shape of the router they serve, how a
// message is classified before it is routed (the runtime's envelope rule), and how an outgoing message
// becomes text.
import { type Envelope, ErrorCode, errorResponse, invalidRequest, type JsonRpcErrorResponse, readEnvelope } from "./jsonrpc.js";

export type TransportRequestId = string | number;

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
  eraOf(message: unknown): "legacy" | "modern";
  connect(send: TransportSend): {
    /** The version chosen at `initialize`; undefined until an `initialize` succeeds. */
    readonly protocolVersion: string | undefined;
    handle(message: unknown, exchange?: { signal?: AbortSignal }): Promise<OutgoingMessage | undefined>;
    close(): void;
  };
  handle(message: unknown, exchange?: { send?: TransportSend; signal?: AbortSignal; scope?: object }): Promise<OutgoingMessage | undefined>;
  /** The param naming a request of a served extension for routing (HTTP's `Mcp-Name`); absent: none. */
  nameParam?(method: string): string | undefined;
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
 * A message as JSON text. A message JSON cannot carry (a BigInt, a cycle, a throwing toJSON) is never
 * sent as it is: a response becomes -32603 with its id, anything else is reported and dropped (undefined).
 */
export function serialize(message: OutgoingMessage, onError: TransportErrorHook): string | undefined {
  try {
    const text = JSON.stringify(message);
    if (typeof text === "string") return text;
    throw new TypeError("the message is not JSON");
  } catch (error) {
    const m = message as { id?: unknown; method?: unknown };
    const id = typeof m.id === "string" || typeof m.id === "number" ? m.id : undefined;
    onError(new Error(`cannot send ${id === undefined ? `a ${String(m.method)} message` : `the response to request ${JSON.stringify(id)}`} as JSON: ${error instanceof Error ? error.message : String(error)}`));
    if (id === undefined || typeof m.method === "string") return undefined;
    return JSON.stringify(errorMessage(id, INTERNAL_ERROR, "Internal error: the result cannot be sent as JSON"));
  }
}
