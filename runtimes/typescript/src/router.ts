// The version router of a server: which served version's dispatcher answers a message. The
// generated router.ts names the generated versions (a table of data) and calls createRouter.
//
// - Legacy era: a connection chooses its version at `initialize` (the client's if served, else the
//   newest served legacy version) and keeps that version's dispatcher until it closes. The router
//   answers `initialize` itself (a per-version dispatcher does not).
// - Modern era: every request names its version in `params._meta["io.modelcontextprotocol/protocolVersion"]`
//   and is answered by that version's dispatcher; an unserved version gets -32022 with the served
//   versions. The router answers `server/discover` and `subscriptions/listen` itself.
// - Which methods a version serves is its METHOD_TABLE's verdict, given by the dispatcher the router
//   hands the message to (methodRefusal under DISPATCHER_POLICY, ./dispatcher.ts), with the version's
//   registered custom methods in front: a removed method, one only the client receives, one only a
//   later version has and a method no version has (unless the served version registers it in `custom`)
//   get -32601 with the table's reason in `error.data`; a refused notification is dropped. The router
//   decides no verdict of its own.
// - `notifications/message` goes out only at or above the client's log level: the level set with
//   `logging/setLevel` (legacy; everything before that) or `_meta["io.modelcontextprotocol/logLevel"]`
//   of the request (modern; nothing when absent).
// - Messages follow the dispatcher's envelope rule (readEnvelope), and `handle` never rejects.
//
// The parts: ./router-api.ts (what createRouter takes and gives), ./router-served.ts (the served
// versions and their dispatchers, custom methods in front), ./router-legacy.ts (legacy sessions),
// ./router-modern.ts (the modern envelope, `server/discover`, extensions), ./router-subscriptions.ts
// (`subscriptions/listen` and who takes what `publish` sends), ./router-log.ts (the log-level gate).
import type { RouterOptions, RouterTable, ServedMap, ServerRouter } from "./router-api.js";
import { legacySessions } from "./router-legacy.js";
import { eraOf, modernRoutes } from "./router-modern.js";
import { ServedVersions } from "./router-served.js";
import { Audience } from "./router-subscriptions.js";

export {
  META_CLIENT_CAPABILITIES,
  META_LOG_LEVEL,
  META_PROTOCOL_VERSION,
  META_SERVER_INFO,
  META_SUBSCRIPTION_ID,
  LISTEN_LIMITS,
  ModernErrorCode,
  type ConnectionInfo,
  type Era,
  type Fanout,
  type LegacyConnection,
  type LegacyExchange,
  type LegacyOwned,
  type ListChangedMethod,
  type ModernExchange,
  type ModernOwned,
  type RoutedVersion,
  type RouterOptions,
  type RouterTable,
  type Served,
  type ServedMap,
  type ServerRouter,
} from "./router-api.js";

/** Build a server router over a generated table of versions and the versions served. */
export function createRouter<L extends string, M extends string>(table: RouterTable<L, M>, options: RouterOptions<ServedMap<L, M>>): ServerRouter<L, M> {
  const served = new ServedVersions(table, options);
  const audience = new Audience(options);
  const modern = modernRoutes(served, options, audience);
  const legacy = legacySessions(served, options, audience);

  const fanout = options.fanout;
  const unsubscribe = fanout?.subscribe((method, params) => void audience.deliver(method, params));

  async function publish(method: string, params?: Record<string, unknown>): Promise<void> {
    const remote = fanout?.publish(method, params);
    // Handled here so a rejection is never unhandled while the local delivery runs.
    remote?.catch(() => undefined);
    await audience.deliver(method, params);
    await remote;
  }

  function close(): void {
    unsubscribe?.();
    audience.endAll();
    legacy.close();
  }

  return {
    versions: served.versions,
    legacyVersions: served.legacyVersions,
    modernVersions: served.modernVersions,
    eraOf,
    connect: legacy.connect,
    handle: modern.handle,
    publish,
    close,
    nameParam: modern.nameParam,
    get inFlight() {
      return modern.inFlight + legacy.inFlight;
    },
  };
}
