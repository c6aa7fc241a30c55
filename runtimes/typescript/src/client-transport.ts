// What the client core needs of a transport (stdio, streamable HTTP, or one in memory): start it with
// a receiver, send one message with what the transport may need to frame it, close it.
import type { JsonRpcMessage, RequestId } from "./jsonrpc.js";

/** Where a transport hands what it receives. */
export interface ClientTransportReceiver {
  /**
   * One parsed JSON-RPC message from the server (a response, a request, a notification). `related`: the id of
   * the client's request whose exchange brought it (HTTP: the POST's response stream), when the transport knows.
   */
  message(message: unknown, related?: RequestId): void;
  /** The connection is gone (the process exited, the stream closed for good); `error` says why when it failed. */
  closed(error?: unknown): void;
  /** A problem that ends nothing (an unparsable line, a dropped event): the client reports it. */
  problem(error: unknown): void;
  /** The request `id` will get no answer through this transport (its stream ended and could not be resumed). */
  requestFailed(id: string | number, error: unknown): void;
}

/** What the client says about one outgoing message. */
export interface OutgoingInfo {
  /** The negotiated protocol version, once there is one (HTTP: `MCP-Protocol-Version`). */
  readonly protocolVersion?: string;
  readonly era?: "legacy" | "modern";
  /** For a request: the param it names itself by (its METHOD_TABLE row's `nameParam`), which HTTP sends as `Mcp-Name`. */
  readonly nameParam?: string | null;
  /** For a 2026-07-28 tools/call: the tool's `inputSchema`, whose `x-mcp-header` arguments HTTP mirrors into headers. */
  readonly inputSchema?: unknown;
  /**
   * Aborted when the request is given up (cancelled, timed out, failed, or the client closed): a transport
   * may abandon its exchange (HTTP aborts the POST and stops reading its stream). When given, it is the
   * exchange's only signal: the transport's close does not abort it, its owner does.
   */
  readonly signal?: AbortSignal;
}

export interface ClientTransport {
  /** Begin receiving; resolves when messages can be sent. */
  start(receiver: ClientTransportReceiver): Promise<void>;
  /**
   * Send one message. Resolves when the transport has handed it over; what comes back arrives at the
   * receiver. Rejects when it could not be sent (the error says why: an HTTP status, a closed pipe).
   */
  send(message: JsonRpcMessage, info: OutgoingInfo): Promise<void>;
  /** A legacy session is established at `protocolVersion` (HTTP: the GET stream opens). */
  sessionStarted?(protocolVersion: string): void;
  /** End the connection (stdio: the process ends; HTTP: DELETE of the session). Idempotent. */
  close(): Promise<void>;
}
