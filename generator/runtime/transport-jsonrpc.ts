// What both transports (stdio, streamable HTTP) share: the shape of the router they serve, how a
// message is classified before it is routed, and how an outgoing message becomes text.
// Self-contained (no imports), so that it reads the same in generator/runtime/ and in a generated tree.

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
}

/** Where a transport reports what it cannot answer on the wire (a message that cannot be sent, a send that failed). */
export type TransportErrorHook = (error: unknown) => void;

/** Default hook: one line on stderr (never stdout, which the stdio transport writes messages to). */
export const logTransportError: TransportErrorHook = (error) => {
  const text = error instanceof Error ? error.message : String(error);
  process.stderr.write(`mcp transport: ${text.replace(/\s+/g, " ")}\n`);
};

/**
 * A parsed message's kind by its JSON-RPC 2.0 envelope: `jsonrpc: "2.0"` and
 * - request: `method` a string and `id` a string or number;
 * - notification: `method` a string and no `id`;
 * - response: no `method`, `id` a string, number (or null with an error), and exactly one of `result`, `error`.
 * Anything else (not an object, an array, a wrong `jsonrpc`, an id of another type) is "invalid".
 */
export type MessageKind = "request" | "notification" | "response" | "invalid";

export function classify(message: unknown): MessageKind {
  if (typeof message !== "object" || message === null || Array.isArray(message)) return "invalid";
  const m = message as Record<string, unknown>;
  if (m.jsonrpc !== "2.0") return "invalid";
  const hasId = Object.hasOwn(m, "id");
  const idOk = typeof m.id === "string" || (typeof m.id === "number" && Number.isFinite(m.id));
  if (Object.hasOwn(m, "method")) {
    if (typeof m.method !== "string") return "invalid";
    if (!hasId) return "notification";
    return idOk ? "request" : "invalid";
  }
  const hasResult = Object.hasOwn(m, "result");
  const hasError = Object.hasOwn(m, "error");
  if (hasResult === hasError || !hasId) return "invalid";
  if (idOk) return "response";
  return hasError && m.id === null ? "response" : "invalid";
}

/** The id of a request, else undefined. */
export function requestIdOf(message: unknown): TransportRequestId | undefined {
  return classify(message) === "request" ? ((message as { id: TransportRequestId }).id) : undefined;
}

export function errorMessage(id: TransportRequestId | null, code: number, message: string): { jsonrpc: "2.0"; id: TransportRequestId | null; error: { code: number; message: string } } {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INTERNAL_ERROR = -32603;

export const invalidEnvelope = () =>
  errorMessage(null, INVALID_REQUEST, "Invalid Request: expected a JSON-RPC 2.0 request, notification or response object");

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
