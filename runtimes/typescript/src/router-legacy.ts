// The legacy era in the router: a connection (a session) chooses its version at `initialize` (the
// client's if served, else the newest served legacy version; nothing is committed until the answer is
// a result) and keeps that version's dispatcher until it closes. The router answers `initialize`
// itself; before it only `ping` is answered. `logging/setLevel` sets the connection's log level, and
// `resources/subscribe`/`unsubscribe` and the version's `listChanged` capabilities decide what
// `publish` sends it (./router-subscriptions.ts).
import type { Dispatcher } from "./dispatcher.js";
import { ErrorCode, errorResponse, invalidRequest, JsonRpcError, notificationMessage, ownMember, paramsOf, readEnvelope, type JsonRpcResponse, type RequestId } from "./jsonrpc.js";
import { createPeerChannel, type PeerChannel, type Send } from "./peer.js";
import type { ConnectionInfo, LegacyConnection, LegacyExchange, RouterOptions, ServedMap } from "./router-api.js";
import { levelFiltered } from "./router-log.js";
import { caller, type ServedVersions } from "./router-served.js";
import type { Audience, Member } from "./router-subscriptions.js";

/** A legacy connection as the router holds it. */
interface Connection extends Member {
  close(): void;
  readonly inFlight: number;
}

/** The legacy side of a router: its connections. */
export interface LegacySessions<L extends string> {
  /** Open a legacy connection; `send` carries the server's requests and notifications to its client. */
  connect(send: Send): LegacyConnection<L>;
  /** Close every connection. */
  close(): void;
  /** How many requests of legacy connections are being handled now. */
  readonly inFlight: number;
}

export function legacySessions<L extends string, M extends string>(served: ServedVersions<L, M>, options: RouterOptions<ServedMap<L, M>>, audience: Audience): LegacySessions<L> {
  const { versions, legacyVersions } = served;
  const connections = new Set<Connection>();

  function connect(send: Send): LegacyConnection<L> {
    const channel: PeerChannel = createPeerChannel(send);
    let protocolVersion: L | undefined;
    let initializeParams: Record<string, unknown> | undefined;
    let dispatcher: Dispatcher | undefined;
    /** Dispatchers with requests of this connection in flight: the committed one, and any answering an initialize. */
    const live = new Set<Dispatcher>();
    let logLevel = "*";
    let closed = false;
    const subscribed = new Set<unknown>();
    const info: ConnectionInfo<L> = {
      get protocolVersion() {
        return protocolVersion;
      },
      get initializeParams() {
        return initializeParams;
      },
    };
    const peer = levelFiltered(channel, () => logLevel);
    // Reached by the audience only once initialized (its indexes hold initialized connections).
    const member: Connection = {
      deliver: async (method: string, params: Record<string, unknown> | undefined): Promise<void> => {
        await send(notificationMessage(method, params), undefined);
      },
      close: () => close(),
      get inFlight() {
        let n = 0;
        for (const d of live) n += d.inFlight;
        return n;
      },
    };
    connections.add(member);

    function close(): void {
      if (closed) return;
      closed = true;
      connections.delete(member);
      audience.remove(member, subscribed);
      channel.close(new JsonRpcError(ErrorCode.InternalError, "Connection closed"));
    }

    /** The version and dispatcher an `initialize` request asks for; nothing is committed until it succeeds. */
    function initialize(params: unknown, id: RequestId): { version: L; dispatcher: Dispatcher } | JsonRpcResponse {
      if (dispatcher !== undefined) return errorResponse(id, ErrorCode.InvalidRequest, "Invalid Request: the connection is already initialized");
      if (legacyVersions.length === 0) {
        return errorResponse(id, ErrorCode.MethodNotFound, `Method not found: initialize is not available; this server serves ${versions.join(", ")}`);
      }
      const asked = ownMember(params, "protocolVersion");
      const chosen = legacyVersions.find((v) => v === asked) ?? legacyVersions[legacyVersions.length - 1];
      const entry = served.entry(chosen);
      const owned = {
        initialize: () => ({
          protocolVersion: chosen,
          capabilities: entry.capabilities,
          serverInfo: options.serverInfo,
          ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
        }),
      };
      return { version: chosen, dispatcher: served.dispatcher(chosen, { ...served.handlersFor(chosen, info), ...owned }) };
    }

    async function handleLegacy(message: unknown, exchange: LegacyExchange = {}): Promise<JsonRpcResponse | undefined> {
      const envelope = readEnvelope(message);
      try {
        if (envelope.kind === "response") {
          channel.receive(message);
          return undefined;
        }
        if (envelope.kind === "invalid") return invalidRequest(envelope);
        const { method } = envelope;
        const id = envelope.kind === "request" ? envelope.id : undefined;
        if (method === "initialize") {
          // Only a request initializes; the connection takes its version once the answer is a result
          // (invalid params leave it uninitialized, free to try again).
          if (id === undefined) return undefined;
          const chosen = initialize(envelope.params, id);
          if (!("dispatcher" in chosen)) return chosen;
          live.add(chosen.dispatcher);
          let response: JsonRpcResponse | undefined;
          try {
            response = await chosen.dispatcher.handle(message, { peer, signal: exchange.signal, cancellation: exchange.cancellation, ...caller(exchange) });
          } finally {
            if (response !== undefined && "result" in response && dispatcher === undefined) {
              protocolVersion = chosen.version;
              initializeParams = paramsOf(message);
              dispatcher = chosen.dispatcher;
              if (!closed) audience.joinListChanged(member, served.entry(chosen.version).capabilities as Record<string, unknown>);
            } else if (dispatcher !== chosen.dispatcher) {
              live.delete(chosen.dispatcher);
            }
          }
          return response;
        }
        const target = dispatcher;
        if (target === undefined || protocolVersion === undefined) {
          // Before initialize only ping is answered (the lifecycle section of every legacy version).
          if (id === undefined) return undefined;
          if (method === "ping") return { jsonrpc: "2.0", id, result: {} };
          return errorResponse(id, ErrorCode.InvalidRequest, `Invalid Request: send initialize before ${method}`);
        }
        const response = await target.handle(message, { peer, signal: exchange.signal, cancellation: exchange.cancellation, ...caller(exchange) });
        if (response !== undefined && "result" in response) {
          const params = paramsOf(message);
          if (method === "logging/setLevel" && typeof params?.level === "string") logLevel = params.level;
          if (method === "resources/subscribe" && !closed) {
            subscribed.add(params?.uri);
            audience.subscribe(member, params?.uri);
          }
          if (method === "resources/unsubscribe") {
            subscribed.delete(params?.uri);
            audience.unsubscribe(member, params?.uri);
          }
        }
        return response;
      } catch {
        // Only a hostile message gets here: answer without detail.
        return envelope.kind === "request" ? errorResponse(envelope.id, ErrorCode.InternalError, "Internal error") : undefined;
      }
    }

    return {
      get protocolVersion() {
        return protocolVersion;
      },
      get initializeParams() {
        return initializeParams;
      },
      get inFlight() {
        return member.inFlight;
      },
      handle: handleLegacy,
      close,
    };
  }

  return {
    connect,
    close() {
      for (const connection of [...connections]) connection.close();
    },
    get inFlight() {
      let n = 0;
      for (const c of connections) n += c.inFlight;
      return n;
    },
  };
}
