// The TypeScript language as the TypeScript printers need it: reserved words, and the names the
// printed modules bind themselves (what the templates and the runtime declare, import or re-export),
// declared here as data. A definition or a version module never takes one of them. The templates are
// not read to find them: test/emit/typescript/language.test.ts parses every template and the runtime
// and fails, naming the name, when a template binds a name these lists do not hold (or the lists hold
// one nothing binds).

/** Reserved words of TypeScript and JavaScript modules, and names with a meaning in every scope. */
export const RESERVED_WORDS: ReadonlySet<string> = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for function if " +
    "import in instanceof new null return super switch this throw true try typeof var void while with implements interface let " +
    "package private protected public static yield await arguments eval as async from of type declare module namespace " +
    "undefined unknown never any object string number boolean symbol bigint infer keyof readonly unique is asserts satisfies accessor"
  ).split(" "),
);

/**
 * The templates of one version's modules (its index.ts re-exports them all: one scope), and the names
 * they bind: declarations, imports, re-exports, every export of a runtime module imported by a
 * computed list, the per-side names (naming.ts `SIDES`) and what the printer adds (result-type.ts).
 */
export const VERSION_MODULE_TEMPLATES: readonly string[] = [
  "types.ts.hbs",
  "schemas.ts.hbs",
  "guards.ts.hbs",
  "methods.ts.hbs",
  "handlers.ts.hbs",
  "normalizers.ts.hbs",
  "dispatcher.ts.hbs",
  "version-index.ts.hbs",
  "reexport.ts.hbs",
];
export const VERSION_MODULE_NAMES: ReadonlySet<string> = new Set(
  (
    "AnyNotificationContext AnyRequestContext ClientHandlers DeclaredKeys Dispatcher DispatcherOptions DispatcherTables ErrorCode " +
    "Exchange FailureContext FailureKind HandlerResult IssueList JsonRpcError JsonRpcErrorResponse JsonRpcResponse PeerError " +
    "JsonRpcResultResponse METHOD_TABLE MaybePromise MethodValidator NotificationContext NotificationInfo NotificationMethod NotificationTypes OP " +
    "OnError RequestContext RequestInfo RequestMethod RequestTypes ResultNormalizer SchemasMatchTypes ServerHandlers T Within " +
    "acceptAny clientTables codePoints createClientDispatcher createDispatcher createServerDispatcher customResultTypes " +
    "emptyNormalizer era formatIssues integer isPlainObject issuePaths multipleOf normalizers notificationParams notificationParamsGuards " +
    "notificationParamsSchemas notifications objectNormalizer params paramsGuards pointerToken protocolVersion " +
    "requestParamsGuards requestParamsSchemas requests resultGuards resultNormalizers resultSchemas results serverTables discoverServerInfo uniqueItems z"
  ).split(" "),
);

/** The templates whose scope holds the version module identifiers (`import * as v2025_11_25`), and the names they bind. */
export const TREE_TEMPLATES: readonly string[] = ["index.ts.hbs", "router.ts.hbs", "client.ts.hbs", "projections.ts.hbs"];
export const TREE_NAMES: ReadonlySet<string> = new Set(
  (
    "AnyClientOptions AnyConnectionInfo AnyLegacyConnection AnyRouterOptions AnyServed AnyServerRouter Client ClientError ClientTaskOptions ReceivedTask " +
    "ClientErrorKind ClientFetch ClientHandlers ClientModules ClientModulesOf ClientOptions ClientTransport ClientVersion ClientVersionEntry " +
    "ClientVersions ConnectionInfo Dispatcher DispatcherOptions Era ErrorCode Exchange FailureContext FailureKind " +
    "HandlerOf HttpClientOptions HttpStatusError Implementation JsonRpcError JsonRpcResponse LegacyConnection LegacyOwned " +
    "LegacyVersion ListChangedMethod META_CLIENT_CAPABILITIES META_LOG_LEVEL META_PROTOCOL_VERSION META_SERVER_INFO " +
    "META_SUBSCRIPTION_ID MethodValidator ModernErrorCode ModernExchange ModernOwned ModernVersion Negotiated " +
    "NotificationContext NotificationInfo OnError ParamsInfo PeerError ProtocolVersion RequestContext RequestInfo RequestOptions " +
    "ResultShape RoutedVersion RouterOptions RouterTable Send Sender Served ServedVersions ServerRouter StdioClientOptions " +
    "VersionModule VersionView createClient createRouter createServerRouter declares entries eras forVersion " +
    "httpClientTransport isPlainObject isProtocolVersion latestVersion modules stdioClientTransport table versions " +
    "INHERITED_ENV_VARS Listening NotificationMessage TaskCallOptions inheritedEnvironment " +
    "CapabilitiesAt ExtensionsAt HandlersAt NewestOf OneSetOptions OneHandlerSet ServedContext ServingHandlers VersionProjection oneSetTree projections protocolOrder routerOptionsOfOneSet"
  ).split(" "),
);
