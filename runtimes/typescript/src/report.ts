// The one error hook: every handler failure, request or notification, reaches `onError` once.
// The peer never sees internals: what a request handler throws is answered with the error's own
// integer `code` (message and data) when it carries one, else -32603 "Internal error".
import type { AuthInfo } from "./auth-info.js";
import type { RequestId } from "./jsonrpc.js";

/**
 * What failed:
 * - `request`: a request handler threw or rejected (the peer got the error's code, or -32603);
 * - `result`: a request handler's return value was not sent (not an object, invalid against the
 *   version's schema, or not JSON: a BigInt, a cycle, a function...; the peer got -32603 naming the method);
 * - `notification`: a notification handler threw or rejected (nothing is answered);
 * - `invalid-params`: a notification's params were invalid, so its handler was not called.
 * Invalid request params are not reported: the peer is told (-32602). Cancelled requests are not either, nor a
 * thrown `PeerError` (jsonrpc.ts: the peer's own mistake, such as an unknown task id), which is only answered.
 */
export type FailureKind = "request" | "result" | "notification" | "invalid-params";

export interface FailureContext {
  readonly kind: FailureKind;
  /** The method of the request or notification. */
  readonly method: string;
  /** The request's id; absent for a notification. */
  readonly id?: RequestId;
  /** The protocol version of the dispatcher that handled it. */
  readonly protocolVersion: string;
  /**
   * The caller, when the transport verified one (see RequestContext.auth), without its access token: what
   * a hook logs or ships elsewhere never carries a bearer credential (handlers still see the token).
   */
  readonly auth?: ReportedAuth;
  /** The principal the request was for (see RequestContext.principal). */
  readonly principal?: string;
}

/** The caller as `onError` sees it: everything the verifier said but the token itself. */
export type ReportedAuth = Omit<AuthInfo, "token">;

/** `auth` without its token (see FailureContext.auth). */
export function reportedAuth(auth: AuthInfo): ReportedAuth {
  const { token: _token, ...rest } = auth;
  return rest;
}

/** Receives exactly what was thrown (or the -32603 JsonRpcError describing a refused result), and where. */
export type OnError = (error: unknown, context: FailureContext) => void;

interface Writable {
  write(text: string): unknown;
}

/** The host's stderr (Node, Bun, Deno's process shim), read without depending on Node's types. */
function stderr(): Writable | undefined {
  const host = globalThis as { process?: { stderr?: Partial<Writable> } };
  const stream = host.process?.stderr;
  return typeof stream?.write === "function" ? (stream as Writable) : undefined;
}

function describeThrown(error: unknown): string {
  try {
    if (error instanceof Error) return `${error.name}: ${error.message}`;
    return typeof error === "string" ? error : String(error);
  } catch {
    return "(an unprintable value)";
  }
}

/** The default hook's line: one line, whatever the error's message holds. */
export function failureLine(error: unknown, context: FailureContext): string {
  const request = context.id === undefined ? "" : ` (request ${JSON.stringify(context.id)})`;
  const what = {
    request: `the ${context.method} handler${request} failed`,
    result: `the ${context.method} handler's result${request} was not sent`,
    notification: `the ${context.method} handler failed`,
    "invalid-params": `${context.method} was not delivered: invalid params`,
  }[context.kind];
  return `mcp-codegen ${context.protocolVersion}: ${what}: ${describeThrown(error)}`.replace(/\s*[\r\n]+\s*/g, " ") + "\n";
}

/** The default hook: one line on stderr (never stdout, which the stdio transport uses); nothing where there is no stderr. */
export function writeFailureToStderr(error: unknown, context: FailureContext): void {
  stderr()?.write(failureLine(error, context));
}

/** Call the hook; a hook that throws is ignored, so a failing hook cannot break the dispatcher. */
export function report(onError: OnError, error: unknown, context: FailureContext): void {
  try {
    onError(error, context);
  } catch {
    // The hook's own failure has nowhere further to go.
  }
}
