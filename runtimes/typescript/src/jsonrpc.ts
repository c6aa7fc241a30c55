// JSON-RPC 2.0 as MCP uses it: the wire types, error codes, and the one envelope rule the
// dispatcher and the router share (what is a request, a notification, a response, or invalid).
//
// Reading rules, for every value a handler returns or a peer sends:
// - an object is a plain object (prototype Object.prototype or null, as JSON.parse and object
//   literals make them); arrays, class instances and other realms' objects are not;
// - only own properties are read (Object.hasOwn first), never inherited ones.
import { INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR } from "../protocol.js";

/** JSON-RPC error codes the dispatcher answers with. */
export const ErrorCode = {
  ParseError: PARSE_ERROR,
  InvalidRequest: INVALID_REQUEST,
  MethodNotFound: METHOD_NOT_FOUND,
  InvalidParams: INVALID_PARAMS,
  InternalError: INTERNAL_ERROR,
} as const;

export type RequestId = string | number;

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcResultResponse<R = object> {
  jsonrpc: "2.0";
  id: RequestId;
  result: R;
}

export interface JsonRpcErrorResponse {
  jsonrpc: "2.0";
  /** null only when the request's id could not be read. */
  id: RequestId | null;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;

/** A notification as it goes on the wire. */
export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: Record<string, unknown>;
}

/** A request as it goes on the wire. */
export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: RequestId;
  method: string;
  params?: Record<string, unknown>;
}

export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** Throw this from a handler to answer with that code, message and data. */
export class JsonRpcError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = "JsonRpcError";
    this.code = code;
    this.data = data;
  }
}

/**
 * An error that answers the peer's own mistake (an unknown task id, say): answered with its code, message and
 * data like any JsonRpcError, but not reported to `onError`, since nothing failed on this side. A probing client
 * therefore cannot fill the server's logs. Throw a plain JsonRpcError for what an operator should see.
 */
export class PeerError extends JsonRpcError {
  constructor(code: number, message: string, data?: unknown) {
    super(code, message, data);
    this.name = "PeerError";
  }
}

/** An object whose prototype is Object.prototype or null: what JSON.parse and object literals make. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A JSON-RPC id as MCP allows it: a string or an integer (never null, never fractional). */
export function isRequestId(value: unknown): value is RequestId {
  return typeof value === "string" || (typeof value === "number" && Number.isInteger(value));
}

export function resultResponse<R>(id: RequestId, result: R): JsonRpcResultResponse<R> {
  return { jsonrpc: "2.0", id, result };
}

export function errorResponse(id: RequestId | null, code: number, message: string, data?: unknown): JsonRpcErrorResponse {
  const error: JsonRpcErrorObject = data === undefined ? { code, message } : { code, message, data };
  return { jsonrpc: "2.0", id, error };
}

/** The error object of a thrown value carrying an integer JSON-RPC `code` (message and data kept), else undefined. */
export function codedError(thrown: unknown): JsonRpcErrorObject | undefined {
  try {
    if (typeof thrown !== "object" || thrown === null) return undefined;
    const { code, message, data } = thrown as { code?: unknown; message?: unknown; data?: unknown };
    if (typeof code !== "number" || !Number.isInteger(code)) return undefined;
    const text = typeof message === "string" ? message : "Error";
    return data === undefined ? { code, message: text } : { code, message: text, data };
  } catch {
    // A getter on the thrown value threw: it carries no usable code.
    return undefined;
  }
}

/** The error object to answer a thrown value with: its own code if it carries one, else -32603 "Internal error", revealing nothing. */
export function errorFromThrown(thrown: unknown): JsonRpcErrorObject {
  return codedError(thrown) ?? { code: ErrorCode.InternalError, message: "Internal error" };
}

// ---------------------------------------------------------------------------------------------
// The envelope rule (JSON-RPC 2.0, sections 4 to 5), one for the dispatcher and the router:
// - a plain object with a `method` member is a request when it has an `id` member, else a
//   notification; either needs `jsonrpc: "2.0"` (the spec says MUST be exactly "2.0") and a string
//   method, and a request's id must be a string or an integer (MCP forbids null);
// - a plain object without `method` but with `result` or `error` is a response: never answered,
//   whatever its shape, so two peers cannot answer each other's malformed responses forever;
// - anything else (an array, a primitive, `{}`, a message without jsonrpc "2.0") is invalid:
//   answered -32600 with id null: the message is not a request, so it has no id to answer to
//   (JSON-RPC 2.0 section 5: the id of an Invalid Request answer is null).
// `params` is not judged here: the dispatcher answers params that are not an object with -32602.

/** What one incoming message is, by the envelope rule. */
export type Envelope =
  | { readonly kind: "request"; readonly id: RequestId; readonly method: string; readonly params: unknown }
  | { readonly kind: "notification"; readonly method: string; readonly params: unknown }
  | { readonly kind: "response"; readonly id: RequestId | null }
  | { readonly kind: "invalid"; readonly id: null; readonly reason: string };

/** Classify a message by the envelope rule; a message whose members cannot even be read is invalid. */
export function readEnvelope(message: unknown): Envelope {
  try {
    if (!isPlainObject(message)) return { kind: "invalid", id: null, reason: "expected a JSON-RPC message object" };
    const hasId = Object.hasOwn(message, "id");
    const rawId = hasId ? message.id : undefined;
    const id = isRequestId(rawId) ? rawId : null;
    if (!Object.hasOwn(message, "method")) {
      if (Object.hasOwn(message, "result") || Object.hasOwn(message, "error")) return { kind: "response", id };
      return { kind: "invalid", id: null, reason: "expected a method, or a result or error" };
    }
    const method = message.method;
    if (typeof method !== "string" || message.jsonrpc !== "2.0") return { kind: "invalid", id: null, reason: 'expected jsonrpc "2.0" and a string method' };
    const params = Object.hasOwn(message, "params") ? message.params : undefined;
    if (!hasId) return { kind: "notification", method, params };
    if (id === null) return { kind: "invalid", id: null, reason: "the id must be a string or an integer" };
    return { kind: "request", id, method, params };
  } catch {
    // A getter or a proxy trap threw while reading the envelope.
    return { kind: "invalid", id: null, reason: "the message could not be read" };
  }
}

/** The -32600 answer to an invalid envelope. */
export function invalidRequest(envelope: { readonly id: null; readonly reason: string }): JsonRpcErrorResponse {
  return errorResponse(null, ErrorCode.InvalidRequest, `Invalid Request: ${envelope.reason}`);
}

/** A member of a plain object, own properties only; undefined for anything else. */
export function ownMember(value: unknown, key: string): unknown {
  return isPlainObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

/** A message's `params` when they are a plain object, else undefined. */
export function paramsOf(message: unknown): Record<string, unknown> | undefined {
  const params = ownMember(message, "params");
  return isPlainObject(params) ? params : undefined;
}

/** The own `_meta` of params (or of a result) when both are plain objects, else undefined. */
export function metaOfParams(params: unknown): Record<string, unknown> | undefined {
  const meta = ownMember(params, "_meta");
  return isPlainObject(meta) ? meta : undefined;
}

/** A notification or request to send: `params` left out when there are none. */
export function notificationMessage(method: string, params: Record<string, unknown> | undefined): JsonRpcNotification {
  return params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
}
