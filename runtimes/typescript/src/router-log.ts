// The router's gate on what reaches a client: `notifications/message` only at or above the client's
// log level (legacy: the level set with `logging/setLevel`, everything before; modern: the request's
// `_meta["io.modelcontextprotocol/logLevel"]`, nothing when absent), and no server→client request on a
// modern request's stream.
import { LOG_LEVELS } from "../protocol.js";
import { ErrorCode, JsonRpcError, notificationMessage, ownMember } from "./jsonrpc.js";
import type { Peer, Send } from "./peer.js";
import { META_LOG_LEVEL } from "./router-api.js";

/** LoggingLevel, least severe first: the protocol module's order (reviewed prose). */
const logLevels: readonly string[] = LOG_LEVELS;

/** A peer that drops `notifications/message` below `threshold()` (undefined: drop all; "*": send all). */
export function levelFiltered(peer: Peer, threshold: () => string | undefined): Peer {
  return {
    notify(method, params, relatedRequestId) {
      if (method === "notifications/message") {
        const min = threshold();
        const level = params?.level;
        if (min === undefined) return Promise.resolve();
        if (min !== "*" && (typeof level !== "string" || logLevels.indexOf(level) < logLevels.indexOf(min))) return Promise.resolve();
      }
      return peer.notify(method, params, relatedRequestId);
    },
    request: (method, params, relatedRequestId, signal) => peer.request(method, params, relatedRequestId, signal),
  };
}

/** A modern request's log threshold: its `_meta` log level when it is a LoggingLevel, else undefined (nothing is sent). */
export function modernThreshold(meta: Record<string, unknown> | undefined): string | undefined {
  const level = ownMember(meta, META_LOG_LEVEL);
  return typeof level === "string" && logLevels.includes(level) ? level : undefined;
}

/** The modern era has no server→client requests on a request's stream: handlers return `input_required` instead. */
export function notifyOnly(send: Send | undefined, version: string): Peer | undefined {
  if (send === undefined) return undefined;
  return {
    notify: async (method, params, relatedRequestId) => {
      await send(notificationMessage(method, params), relatedRequestId);
    },
    request: (method) =>
      Promise.reject(new JsonRpcError(ErrorCode.InternalError, `Internal error: ${method} cannot be sent to the client in ${version}; return an input_required result instead`)),
  };
}
