// The outgoing channel: how a handler's `context.notify`/`context.request` reach the other side.
import { codedError, ErrorCode, JsonRpcError, notificationMessage, readEnvelope, type JsonRpcMessage, type JsonRpcRequest, type RequestId } from "./jsonrpc.js";

/**
 * The outgoing channel a transport gives a dispatcher. `relatedRequestId` is the request being
 * handled, so a transport can put the message on that request's stream (streamable HTTP does).
 */
export interface Peer {
  notify(method: string, params: Record<string, unknown> | undefined, relatedRequestId: RequestId): Promise<void>;
  request(method: string, params: Record<string, unknown> | undefined, relatedRequestId: RequestId, signal: AbortSignal): Promise<unknown>;
}

/**
 * An outgoing channel over a `send` function: numbers the requests it sends and matches the
 * responses the transport hands to `receive`. Answers to requests still pending when `close` is
 * called reject with its reason.
 */
export interface PeerChannel extends Peer {
  /** Take a response to one of our requests: true when it was one (matched or not), false otherwise. */
  receive(message: unknown): boolean;
  close(reason?: unknown): void;
  /** How many of our requests await their answer (a request whose signal aborted no longer does). */
  readonly pending: number;
}

/** How a channel hands a message to its transport. */
export type Send = (message: JsonRpcMessage, relatedRequestId: RequestId | undefined) => void | Promise<void>;

interface Waiter {
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export function createPeerChannel(send: Send): PeerChannel {
  let next = 0;
  const pending = new Map<RequestId, Waiter>();
  return {
    async notify(method, params, relatedRequestId) {
      await send(notificationMessage(method, params), relatedRequestId);
    },
    request(method, params, relatedRequestId, signal) {
      const id = `s${next++}`;
      return new Promise<unknown>((resolve, reject) => {
        const onAbort = (): void => {
          pending.delete(id);
          reject(signal.reason);
        };
        if (signal.aborted) return onAbort();
        signal.addEventListener("abort", onAbort, { once: true });
        const done =
          <T>(settle: (value: T) => void) =>
          (value: T): void => {
            signal.removeEventListener("abort", onAbort);
            pending.delete(id);
            settle(value);
          };
        pending.set(id, { resolve: done(resolve), reject: done(reject) });
        const message: JsonRpcRequest = params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };
        try {
          Promise.resolve(send(message, relatedRequestId)).catch((error: unknown) => pending.get(id)?.reject(error));
        } catch (error) {
          pending.get(id)?.reject(error);
        }
      });
    },
    receive(message) {
      const envelope = readEnvelope(message);
      if (envelope.kind !== "response") return false;
      const waiter = envelope.id === null ? undefined : pending.get(envelope.id);
      if (waiter === undefined) return true;
      const m = message as { result?: unknown; error?: unknown };
      try {
        if (Object.hasOwn(m, "error")) {
          const e = codedError(m.error) ?? { code: ErrorCode.InternalError, message: "Internal error" };
          waiter.reject(new JsonRpcError(e.code, e.message, e.data));
        } else {
          waiter.resolve(m.result);
        }
      } catch (error) {
        // A getter on the response threw: the request fails with it.
        waiter.reject(error);
      }
      return true;
    },
    close(reason) {
      for (const waiter of [...pending.values()]) waiter.reject(reason ?? new JsonRpcError(ErrorCode.InternalError, "Connection closed"));
      pending.clear();
    },
    get pending() {
      return pending.size;
    },
  };
}
