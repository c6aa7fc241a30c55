// The Python router (runtimes/python/src/mcp_codegen_runtime/router.py, copied as mcp_codegen.router) driven through
// router_driver.py: initialize negotiation at each legacy label of the lock, an unknown version and
// requests before initialize; handler factories once per connection; the modern envelope,
// server/discover, -32022; subscriptions/listen with publish and its bounds; the log gate of both eras;
// server→client requests; the extension hook with a stub extension; cancellation; the seed rule on
// the router path. Expected values are written here from the TypeScript router's behaviour (the
// cross-language test compares the two over a corpus).
import { describe, expect, it } from "vitest";
import { readLock } from "../../../generator/source/lock.js";
import { declaresProperty, requestMeta } from "../../request-meta.js";
import { lockFile } from "../../support.js";
import { initialize, modern, msg, runPython, type Config, type Step } from "./router-scenarios.js";
import { pythonJson, servingLegacy, takesResult, takesTextContent, versionView } from "./support.js";

const labels = Object.keys((await readLock(lockFile)).versions).sort();
const eras = Object.fromEntries(
  await Promise.all(labels.map(async (l) => [l, ((await import(`../../../generated/${l}/index.ts`)) as { era: string }).era] as const)),
);
const legacyLabels = labels.filter((l) => eras[l] === "legacy");
const modernLabels = labels.filter((l) => eras[l] === "modern");
/** Where the behaviour tests run: the newest legacy version with tools/call (text content), sampling, progress and cancellation. */
const SERVING = await servingLegacy(labels);
const pingRemovedAfter = Object.fromEntries(await Promise.all(modernLabels.map(async (l) => [l, (await versionView(l)).METHOD_TABLE.ping?.nearest] as const)));
/** The tools/list result of router_driver.py's handlers. */
const TOOLS = { tools: [{ name: "echo", inputSchema: { type: "object" } }] };
/** Per legacy label: whether its schemas take the driver's tools/list and text tools/call results (an old revision a bump brings may not). */
const takes = Object.fromEntries(
  await Promise.all(legacyLabels.map(async (l) => [l, { list: await takesResult(l, "tools/list", TOOLS), call: await takesTextContent(l) }] as const)),
);
const serverInfo = { name: "router-test", version: "1.0.0" };
const TASKS = "io.modelcontextprotocol/tasks";

/** Capabilities that differ per served version, so an answer shows whose they are. */
const capsOf = (label: string) => ({ tools: { listChanged: true }, logging: {}, experimental: { servedAs: { label } } });
const legacyConfig = (extra: Partial<Config> = {}): Config => ({
  served: Object.fromEntries(legacyLabels.map((l) => [l, { capabilities: capsOf(l), factory: true }])),
  instructions: "Read the docs.",
  ...extra,
});

describe("legacy connections", () => {
  it.each(legacyLabels)("initialize at %s takes that version, its capabilities, serverInfo and instructions; the factory is called once", (label) => {
    const out = runPython({
      config: legacyConfig(),
      steps: [
        { do: "connect", as: "c" },
        { do: "send", to: "c", message: initialize(1, label) },
        { do: "send", to: "c", message: msg(2, "tools/list") },
        { do: "send", to: "c", message: msg(3, "tools/call", { name: "info" }) },
      ],
    });
    expect(out.answers[0]).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { protocolVersion: label, capabilities: capsOf(label), serverInfo, instructions: "Read the docs." },
    });
    // Where the version's schema does not take a handler's result (an old revision a bump brings), it is
    // refused -32603 naming the result, and reported.
    const refused = (id: number, method: string, result: string) => {
      expect(out.answers[id - 1]).toMatchObject({ jsonrpc: "2.0", id, error: { code: -32603 } });
      expect((out.answers[id - 1] as { error: { message: string } }).error.message.startsWith(`Internal error: the ${method} handler's result is not a valid ${result}`)).toBe(true);
    };
    if (takes[label].list) expect(out.answers[1]).toEqual({ jsonrpc: "2.0", id: 2, result: TOOLS });
    else refused(2, "tools/list", "ListToolsResult");
    // The factory is called before the connection is initialized; the ConnectionInfo it keeps reads it live.
    if (takes[label].call) expect(out.answers[2]).toEqual({ jsonrpc: "2.0", id: 3, result: { content: [{ type: "text", text: `${label} {"name":"client","version":"1"}` }] } });
    else refused(3, "tools/call", "CallToolResult");
    expect(out.failures).toEqual([...(takes[label].list ? [] : ["result tools/list"]), ...(takes[label].call ? [] : ["result tools/call"])]);
    expect(out.events).toEqual(["factory null"]);
  });

  it("an unknown version gets the newest served legacy version; one connection is initialized once", () => {
    const newest = legacyLabels[legacyLabels.length - 1];
    const out = runPython({
      config: legacyConfig(),
      steps: [
        { do: "connect", as: "c" },
        { do: "send", to: "c", message: initialize(1, "1999-01-01") },
        { do: "send", to: "c", message: initialize(2, legacyLabels[0]) },
        { do: "connect", as: "d" },
        { do: "send", to: "d", message: msg(1, "initialize", { protocolVersion: legacyLabels[0] }) },
      ],
    });
    expect(out.answers[0]).toMatchObject({ id: 1, result: { protocolVersion: newest, capabilities: capsOf(newest) } });
    expect(out.answers[1]).toEqual({ jsonrpc: "2.0", id: 2, error: { code: -32600, message: "Invalid Request: the connection is already initialized" } });
    // Invalid initialize params: -32602 with the failing pointers, and the connection stays uninitialized.
    const invalid = out.answers[2] as { error: { code: number; data: { paths: string[] } } };
    expect(invalid.error.code).toBe(-32602);
    expect(invalid.error.data.paths).toEqual(["/params/capabilities", "/params/clientInfo"]);
  });

  it("before initialize only ping is answered; other requests are -32600, notifications dropped", () => {
    const out = runPython({
      config: legacyConfig(),
      steps: [
        { do: "connect", as: "c" },
        { do: "send", to: "c", message: msg(1, "tools/list") },
        { do: "send", to: "c", message: msg(2, "ping") },
        { do: "send", to: "c", message: msg(undefined, "notifications/initialized") },
        { do: "send", to: "c", message: msg(3, "tools/call", { name: "hello" }) },
      ],
    });
    expect(out.answers).toEqual([
      { jsonrpc: "2.0", id: 1, error: { code: -32600, message: "Invalid Request: send initialize before tools/list" } },
      { jsonrpc: "2.0", id: 2, result: {} },
      null,
      { jsonrpc: "2.0", id: 3, error: { code: -32600, message: "Invalid Request: send initialize before tools/call" } },
    ]);
    expect(out.events).toEqual([]);
  });

  it("sampling goes to the client through send and its answer comes back through handle; the log level gates notifications/message", () => {
    const label = SERVING;
    const out = runPython({
      config: legacyConfig(),
      steps: [
        { do: "connect", as: "c" },
        { do: "send", to: "c", message: initialize(1, label) },
        { do: "send", to: "c", message: msg(2, "tools/call", { name: "sample" }), key: "s" },
        { do: "settle" },
        { do: "answer", to: "c", result: { role: "assistant", content: { type: "text", text: "hi" }, model: "m" } },
        { do: "await", key: "s" },
        { do: "send", to: "c", message: msg(3, "logging/setLevel", { level: "warning" }) },
        { do: "send", to: "c", message: msg(4, "tools/call", { name: "log" }) },
        { do: "send", to: "c", message: msg(5, "tools/call", { name: "progress", _meta: { progressToken: 9 } }) },
      ],
    });
    expect(out.answers[1]).toBeNull();
    expect(out.answers[2]).toEqual({ jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: '{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"}' }] } });
    expect(out.sent.c).toEqual([
      { jsonrpc: "2.0", id: "s0", method: "sampling/createMessage", params: { messages: [], maxTokens: 5 } },
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "warning", data: "warning" } },
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "error", data: "error" } },
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 9, progress: 1, total: 2, message: "half" } },
    ]);
  });

  it("publish reaches connections whose capabilities declare listChanged, and resources/updated its subscribers by uri; the seed rule keeps only an object _meta", () => {
    const label = SERVING;
    const quiet = { tools: {}, resources: { subscribe: true } };
    const out = runPython({
      config: { served: { [label]: { capabilities: { ...quiet, tools: { listChanged: true } } }, ...(legacyLabels.length > 1 ? { [legacyLabels[0]]: { capabilities: quiet } } : {}) } },
      steps: [
        { do: "connect", as: "c" },
        { do: "send", to: "c", message: initialize(1, label) },
        { do: "send", to: "c", message: msg(2, "resources/subscribe", { uri: "seed://meta" }) },
        { do: "send", to: "c", message: msg(3, "resources/subscribe", { uri: "seed://bad-meta" }) },
        { do: "connect", as: "q" },
        { do: "send", to: "q", message: initialize(1, legacyLabels[0]) },
        { do: "publish", method: "notifications/tools/list_changed" },
        { do: "publish", method: "notifications/resources/updated", params: { uri: "seed://meta" } },
        { do: "publish", method: "notifications/resources/updated", params: { uri: "file:///other" } },
        { do: "send", to: "c", message: msg(4, "resources/unsubscribe", { uri: "seed://meta" }) },
        { do: "publish", method: "notifications/resources/updated", params: { uri: "seed://meta" } },
      ],
    });
    expect(out.answers[1]).toEqual({ jsonrpc: "2.0", id: 2, result: { _meta: { seen: true } } });
    expect(out.answers[2]).toEqual({ jsonrpc: "2.0", id: 3, result: {} });
    expect(out.sent.c).toEqual([
      { jsonrpc: "2.0", method: "notifications/tools/list_changed" },
      { jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "seed://meta" } },
    ]);
    expect(out.sent.q ?? []).toEqual(legacyLabels.length > 1 ? [] : [{ jsonrpc: "2.0", method: "notifications/tools/list_changed" }]);
  });

  it("notifications/cancelled cancels the request (no answer), the transport's cancellation too; nothing is left in flight", () => {
    const label = SERVING;
    const out = runPython({
      config: legacyConfig(),
      steps: [
        { do: "connect", as: "c" },
        { do: "send", to: "c", message: initialize(1, label) },
        { do: "send", to: "c", message: msg(2, "tools/call", { name: "slow" }), key: "a" },
        { do: "send", to: "c", message: msg(3, "tools/call", { name: "slow" }), key: "b" },
        { do: "settle" },
        { do: "send", to: "c", message: msg(undefined, "notifications/cancelled", { requestId: 2 }) },
        { do: "await", key: "a" },
        { do: "cancel", key: "b" },
        { do: "await", key: "b" },
      ],
    });
    expect(out.answers.slice(1)).toEqual([null, null, "cancelled"]);
    expect(out.events).toEqual(["factory null", "cancelled 2", "cancelled 3"]);
    expect(out.inFlight).toBe(0);
  });
});

describe.each(modernLabels)("modern requests at %s", (label) => {
  const p = (params: Record<string, unknown> = {}, meta: Record<string, unknown> = {}, caps: Record<string, unknown> = {}) => modern(label, params, meta, caps);
  const served = { [label]: { capabilities: { tools: { listChanged: true }, resources: { subscribe: true } } } };
  const send = (message: unknown, extra: Partial<Extract<Step, { do: "send" }>> = {}): Step => ({ do: "send", to: "modern", message, ...extra });

  it("the envelope: missing _meta keys are -32602; an unserved version -32022 with the served ones; server/discover as TypeScript builds it", () => {
    const out = runPython({
      config: { served, instructions: "Modern.", discoverCache: { ttlMs: 60000, cacheScope: "private" } },
      steps: [
        send(msg(1, "tools/list", {})),
        send(msg(2, "tools/list", { _meta: { "io.modelcontextprotocol/clientCapabilities": {} } })),
        send(msg(3, "tools/list", modern("2099-01-01"))),
        send(msg(4, "tools/list", { _meta: { "io.modelcontextprotocol/protocolVersion": 20, "io.modelcontextprotocol/clientCapabilities": {} } })),
        send(msg(undefined, "notifications/cancelled", modern("2099-01-01", { requestId: 1 }))),
        send(msg(5, "server/discover", p())),
        send(msg(6, "ping", p())),
      ],
    });
    expect(out.answers).toEqual([
      { jsonrpc: "2.0", id: 1, error: { code: -32602, message: "Invalid params: missing _meta keys: io.modelcontextprotocol/protocolVersion, io.modelcontextprotocol/clientCapabilities" } },
      { jsonrpc: "2.0", id: 2, error: { code: -32602, message: "Invalid params: missing _meta keys: io.modelcontextprotocol/protocolVersion" } },
      { jsonrpc: "2.0", id: 3, error: { code: -32022, message: "Unsupported protocol version", data: { supported: [label], requested: "2099-01-01" } } },
      { jsonrpc: "2.0", id: 4, error: { code: -32022, message: "Unsupported protocol version", data: { supported: [label], requested: "20" } } },
      null,
      {
        jsonrpc: "2.0",
        id: 5,
        result: {
          supportedVersions: [label],
          capabilities: served[label].capabilities,
          instructions: "Modern.",
          ttlMs: 60000,
          cacheScope: "private",
          // Where the version's DiscoverResult declares it: a serverInfo member (the earlier 2026 drafts), else _meta.
          ...(declaresProperty(label, "DiscoverResult", "serverInfo") ? { serverInfo } : { _meta: { "io.modelcontextprotocol/serverInfo": serverInfo } }),
          resultType: "complete",
        },
      },
      {
        jsonrpc: "2.0",
        id: 6,
        error: { code: -32601, message: `Method not found: ping is not a method of protocol version ${label} (removed after ${pingRemovedAfter[label]})`, data: { method: "ping", protocolVersion: label, reason: "removed" } },
      },
    ]);
  });

  it("subscriptions/listen: acknowledged with the honored filter, then publish on the stream tagged with the subscription id; close ends it with its result", () => {
    const out = runPython({
      config: { served },
      steps: [
        send(msg("L", "subscriptions/listen", p({ notifications: { toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: ["file:///a"] } })), { key: "l" }),
        { do: "settle" },
        { do: "publish", method: "notifications/tools/list_changed" },
        { do: "publish", method: "notifications/prompts/list_changed" },
        { do: "publish", method: "notifications/resources/updated", params: { uri: "file:///a", _meta: { k: 1 } } },
        { do: "publish", method: "notifications/resources/updated", params: { uri: "file:///b" } },
        { do: "close" },
        { do: "await", key: "l" },
      ],
    });
    const tag = { "io.modelcontextprotocol/subscriptionId": "L" };
    expect(out.sent.modern).toEqual([
      { jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: { toolsListChanged: true, resourceSubscriptions: ["file:///a"] }, _meta: tag } },
      { jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: tag } },
      { jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "file:///a", _meta: { k: 1, ...tag } } },
    ]);
    expect(out.answers).toEqual([{ jsonrpc: "2.0", id: "L", result: { _meta: tag, resultType: "complete" } }]);
  });

  it("the listen bounds: one more than per principal or in all is -32000 naming the limit, reported to on_error; a cancelled stream gives its place back", () => {
    const listen = (id: number, principal?: string) => send(msg(id, "subscriptions/listen", p({ notifications: {} })), { key: `l${id}`, stream: `s${id}`, ...(principal === undefined ? {} : { principal }) });
    const out = runPython({
      config: { served, maxListenStreamsPerPrincipal: 2, maxListenStreams: 3 },
      steps: [
        listen(1, "alice"),
        listen(2, "alice"),
        { do: "settle" },
        listen(3, "alice"),
        { do: "await", key: "l3" },
        listen(4),
        { do: "settle" },
        listen(5, "bob"),
        { do: "await", key: "l5" },
        send(msg(undefined, "notifications/cancelled", p({ requestId: 1 }))),
        { do: "await", key: "l1" },
        listen(6, "bob"),
        { do: "settle" },
        { do: "close" },
        { do: "await", key: "l6" },
      ],
    });
    expect(out.answers).toEqual([
      { jsonrpc: "2.0", id: 3, error: { code: -32000, message: "Too many listen streams: 2 are open for this principal (maxListenStreamsPerPrincipal)" } },
      { jsonrpc: "2.0", id: 5, error: { code: -32000, message: "Too many listen streams: 3 are open (maxListenStreams)" } },
      // The notification, then the stream it cancelled: neither is answered.
      null,
      null,
      { jsonrpc: "2.0", id: 6, result: { _meta: { "io.modelcontextprotocol/subscriptionId": 6 }, resultType: "complete" } },
    ]);
    expect(out.failures).toEqual(["request subscriptions/listen", "request subscriptions/listen"]);
    expect(out.inFlight).toBe(0);
  });

  it("the log gate: nothing without a _meta log level, the levels at or above it with one; no server→client request in the modern era", () => {
    const out = runPython({
      config: { served },
      steps: [
        send(msg(1, "tools/call", p({ name: "log" })), { stream: "none" }),
        send(msg(2, "tools/call", p({ name: "log" }, { "io.modelcontextprotocol/logLevel": "warning" })), { stream: "warning" }),
        send(msg(3, "tools/call", p({ name: "sample" })), { stream: "sample" }),
      ],
    });
    expect(out.sent.none).toBeUndefined();
    expect(out.sent.warning).toEqual([
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "warning", data: "warning" } },
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "error", data: "error" } },
    ]);
    expect(out.answers[2]).toEqual({
      jsonrpc: "2.0",
      id: 3,
      error: { code: -32603, message: `Internal error: sampling/createMessage cannot be sent to the client in ${label}; return an input_required result instead` },
    });
  });

  it("cancellation: notifications/cancelled reaches only its scope; the transport's cancellation gives the request up", () => {
    const out = runPython({
      config: { served },
      steps: [
        send(msg(7, "tools/call", p({ name: "slow" })), { key: "here" }),
        send(msg(7, "tools/call", p({ name: "slow" })), { key: "there", scope: "other" }),
        { do: "settle" },
        send(msg(undefined, "notifications/cancelled", p({ requestId: 7 }))),
        { do: "await", key: "here" },
        { do: "cancel", key: "there" },
        { do: "await", key: "there" },
      ],
    });
    // The notification, the request it cancelled, the request the transport gave up.
    expect(out.answers).toEqual([null, null, "cancelled"]);
    expect(out.events).toEqual(["cancelled 7", "cancelled 7"]);
    expect(out.inFlight).toBe(0);
  });
});

/** The modern labels the lock layers the Tasks extension onto: their core tables mark its methods, which the stub serves. */
const lock = await readLock(lockFile);
const tasksCores = new Set(
  Object.values(lock.extensions ?? {})
    .filter((e) => e.identifier === TASKS)
    .flatMap((e) => Object.values(e.versions).flatMap((v) => v.core)),
);

describe.each(modernLabels.filter((l) => tasksCores.has(l)))("a served extension at %s (a label the lock layers Tasks onto)", (label) => {
  const p = (params: Record<string, unknown> = {}, meta: Record<string, unknown> = {}, caps: Record<string, unknown> = {}) => modern(label, params, meta, caps);
  const send = (message: unknown, extra: Partial<Extract<Step, { do: "send" }>> = {}): Step => ({ do: "send", to: "modern", message, ...extra });

  it("a served extension (a stub): its capabilities in server/discover, its methods -32021 unless negotiated, its resolve for what handlers return, its nameParam", () => {
    const negotiating = { extensions: { [TASKS]: {} } };
    const out = runPython({
      config: { served: { [label]: { capabilities: { tools: {} }, extension: true } } },
      steps: [
        send(msg(1, "server/discover", p())),
        send(msg(2, "tasks/get", p({ taskId: "t1" }))),
        send(msg(3, "tasks/get", p({ taskId: "t1" }, {}, negotiating))),
        send(msg(4, "tools/call", p({ name: "task" }, {}, negotiating))),
        send(msg(5, "tools/call", p({ name: "task" }))),
        send(msg(6, "tools/call", p({ name: "hello" }))),
        { do: "nameParam", method: "tasks/get", version: label },
      ],
    });
    expect(out.answers[0]).toMatchObject({ result: { capabilities: { tools: {}, extensions: { [TASKS]: { stub: true } } } } });
    expect(out.answers.slice(1)).toEqual([
      { jsonrpc: "2.0", id: 2, error: { code: -32021, message: "Missing required client capability", data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } } },
      { jsonrpc: "2.0", id: 3, result: { taskId: "t1", stub: true, resultType: "complete" } },
      { jsonrpc: "2.0", id: 4, result: { content: [{ type: "text", text: 'tools/call resolved, negotiated true, resultTypes ["complete", "input_required"]' }], resultType: "complete" } },
      { jsonrpc: "2.0", id: 5, result: { content: [{ type: "text", text: 'tools/call resolved, negotiated false, resultTypes ["complete", "input_required"]' }], resultType: "complete" } },
      { jsonrpc: "2.0", id: 6, result: { content: [{ type: "text", text: "hello" }], resultType: "complete" } },
      "taskId",
    ]);
  });
});

describe("start-up: version modules are imported on first use", () => {
  type Imported = { imported: string[] };
  type Lazy = { before: string[]; built: string[]; initialized: string[]; modern: string[]; answers: Array<{ id: number; result: Record<string, unknown> }> };
  /** What importing a version's module (with its extension modules) alone brings into sys.modules: the oracle. */
  const importing = (label: string, extensions: boolean) => pythonJson<Imported>("lazy_import.py", { import: label, extensions }).imported;
  const legacy = legacyLabels[0] ?? null;
  const newest = modernLabels.at(-1) ?? null;

  it("building a router serving every version (and every extension module) imports none; initialize imports its version's, a modern request its version's and extensions'", () => {
    const out = pythonJson<Lazy>("lazy_import.py", { initialize: legacy, modern: newest, meta: newest === null ? null : requestMeta(newest) });
    expect(out.before).toEqual([]);
    expect(out.built).toEqual([]);
    const initialized = legacy === null ? [] : importing(legacy, false);
    expect(out.initialized).toEqual(initialized);
    const modernImports = newest === null ? [] : importing(newest, true);
    expect(out.modern).toEqual([...new Set([...initialized, ...modernImports])].sort());
    // The answers are the router's usual ones (the other tests compare them in full).
    const expected: Array<{ id: number; result: Record<string, unknown> }> = [];
    if (legacy !== null) expected.push({ id: 1, result: expect.objectContaining({ protocolVersion: legacy }) as Record<string, unknown> });
    if (newest !== null) expected.push({ id: 2, result: expect.objectContaining({ supportedVersions: modernLabels }) as Record<string, unknown> });
    expect(out.answers).toEqual(expected.map((e) => ({ jsonrpc: "2.0", ...e })));
  });
});

describe("custom methods (Served.custom, as TypeScript's custom-methods.ts)", () => {
  /** The custom requests of router_driver.py's custom_methods, in order, each answered as the version's own are. */
  const customSteps = (wrap: (id: number, method: string, params?: Record<string, unknown>) => Record<string, unknown>, to: string): Step[] =>
    [
      wrap(11, "acme/echo", { text: "hi" }),
      wrap(12, "acme/echo"),
      wrap(13, "acme/echo", { text: 5 }),
      wrap(14, "acme/empty", {}),
      wrap(15, "acme/bad", {}),
      wrap(16, "acme/undeclared", {}),
      { jsonrpc: "2.0", method: "acme/note", params: { ...(wrap(0, "", {}).params as object), n: 7 } },
    ].map((message) => ({ do: "send", to, message }));
  /** A modern request always has params (its `_meta`): without `text` they are invalid, not missing. */
  const expected = (version: string, resultType: Record<string, unknown>, modernEra: boolean) => [
    { jsonrpc: "2.0", id: 11, result: { echoed: "hi", version, ...resultType } },
    modernEra
      ? { jsonrpc: "2.0", id: 12, error: { code: -32602, data: { paths: ["/params/text"] } } }
      : { jsonrpc: "2.0", id: 12, error: { code: -32602, message: "Invalid params: acme/echo requires params (an object)" } },
    { jsonrpc: "2.0", id: 13, error: { code: -32602, data: { paths: ["/params/text"] } } },
    { jsonrpc: "2.0", id: 14, result: { _meta: { a: 1 }, ...resultType } },
    { jsonrpc: "2.0", id: 15, error: { code: -32603 } },
    { jsonrpc: "2.0", id: 16, error: { code: -32601 } },
    null,
  ];

  it.each(legacyLabels.slice(0, 1))("at the oldest legacy version (%s): params validated, results normalized (no resultType) and validated, a notification handled, an undeclared one -32601", (label) => {
    const out = runPython({
      config: { served: { [label]: { capabilities: { tools: {} }, custom: true } } },
      steps: [{ do: "connect", as: "c" }, { do: "send", to: "c", message: initialize(1, label) }, ...customSteps((id, method, params) => msg(id, method, params), "c")],
    });
    expect(out.answers.slice(1)).toMatchObject(expected(label, {}, false));
    expect(out.answers[1]).toEqual({ jsonrpc: "2.0", id: 11, result: { echoed: "hi", version: label } });
    expect(out.answers[4]).toEqual({ jsonrpc: "2.0", id: 14, result: { _meta: { a: 1 } } });
    expect((out.answers[5] as { error: { message: string } }).error.message).toMatch(/^Internal error: the acme\/bad handler's result is not a valid acme\/bad result \(at \/echoed\)$/);
    expect(out.events).toEqual(["note 7"]);
    expect(out.failures).toEqual(["result acme/bad"]);
  });

  it.each(modernLabels.slice(-1))("at the newest modern version (%s): the same with its resultType, also through a served extension's dispatcher", (label) => {
    const plain = runPython({
      config: { served: { [label]: { capabilities: { tools: {} }, custom: true } } },
      steps: customSteps((id, method, params) => msg(id, method, params === undefined ? modern(label) : modern(label, params)), "modern"),
    });
    expect(plain.answers).toMatchObject(expected(label, { resultType: "complete" }, true));
    expect(plain.answers[3]).toEqual({ jsonrpc: "2.0", id: 14, result: { _meta: { a: 1 }, resultType: "complete" } });
    expect(plain.events).toEqual(["note 7"]);
    expect(plain.failures).toEqual(["result acme/bad"]);
    const negotiating = { extensions: { [TASKS]: {} } };
    const extended = runPython({
      config: { served: { [label]: { capabilities: { tools: {} }, extension: true, custom: true } } },
      steps: [{ do: "send", to: "modern", message: msg(1, "acme/echo", modern(label, { text: "ext" }, {}, negotiating)) }],
    });
    expect(extended.answers).toEqual([{ jsonrpc: "2.0", id: 1, result: { echoed: "ext", version: label, resultType: "complete" } }]);
  });

  it("a custom method the version has already is refused when the router is built", () => {
    const label = labels[0];
    const out = pythonJson<{ error: string }>("router_driver.py", {
      config: { served: { [label]: { capabilities: {}, custom: "collide" } }, expectError: true },
      steps: [],
    });
    expect(out.error).toBe(`custom method tools/list is a method of protocol version ${label} already`);
  });
});

describe("per-method validators (Served.validators, as TypeScript's MethodValidator)", () => {
  const call = (id: number, name: unknown, wrap: (params: Record<string, unknown>) => Record<string, unknown>) => msg(id, "tools/call", wrap({ name }));
  const steps = (to: string, wrap: (params: Record<string, unknown>) => Record<string, unknown>): Step[] =>
    [
      call(1, "hello", wrap),
      call(2, "coded", wrap),
      call(3, "plain", wrap),
      call(4, "bad", wrap),
      call(5, 5, wrap),
      { jsonrpc: "2.0", method: "acme/note", params: wrap({ n: 7 }) },
      { jsonrpc: "2.0", method: "acme/note", params: wrap({ n: 0 }) },
    ].map((message) => ({ do: "send", to, message }));
  const answers = (extra: Record<string, unknown>) => [
    // The params hook's value reaches the handler (tools_call echoes the name), the result hook's is sent.
    { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "hello!" }], ...extra, checked: true } },
    { jsonrpc: "2.0", id: 2, error: { code: -32001, message: "refused by the hook" } },
    { jsonrpc: "2.0", id: 3, error: { code: -32602, message: "Invalid params for tools/call" } },
    { jsonrpc: "2.0", id: 4, error: { code: -32603, message: "Internal error" } },
    // A name the schema refuses (a number) is the hook's to judge: the schema's validation is replaced.
    { jsonrpc: "2.0", id: 5, result: { content: [{ type: "text", text: "5!" }], ...extra, checked: true } },
    null,
    null,
  ];

  it.each(legacyLabels.filter((l) => takes[l].call).slice(-1))("at %s: a params hook replaces the schema's and may refuse, coded or not; a result hook likewise; a custom notification's hook too", (label) => {
    const out = runPython({
      config: { served: { [label]: { capabilities: { tools: {} }, custom: true, validators: true } } },
      steps: [{ do: "connect", as: "c" }, { do: "send", to: "c", message: initialize(9, label) }, ...steps("c", (p) => p)],
    });
    expect(out.answers.slice(1)).toEqual(answers({}));
    expect(out.events).toEqual(["note 70"]);
    expect(out.failures).toEqual(["result tools/call", "invalid-params acme/note"]);
  });

  it.each(modernLabels.slice(-1))("at %s: the same, with its resultType", (label) => {
    const out = runPython({
      config: { served: { [label]: { capabilities: { tools: {} }, custom: true, validators: true } } },
      steps: steps("modern", (p) => modern(label, p)),
    });
    expect(out.answers).toEqual(answers({ resultType: "complete" }));
    expect(out.events).toEqual(["note 70"]);
    expect(out.failures).toEqual(["result tools/call", "invalid-params acme/note"]);
  });
});

describe("on_error is told the caller: auth (without its token) and principal, as TypeScript's FailureContext", () => {
  const auth = { token: "secret", clientId: "c1", scopes: ["s"], subject: "u1" };
  const told = { clientId: "c1", scopes: ["s"], subject: "u1" };

  it.each(legacyLabels.filter((l) => takes[l].call).slice(-1))("at %s: a handler's failure with auth, with only a principal, with neither", (label) => {
    const out = runPython({
      config: { served: { [label]: { capabilities: { tools: {} } } } },
      steps: [
        { do: "connect", as: "c" },
        { do: "send", to: "c", message: initialize(1, label) },
        { do: "send", to: "c", message: msg(2, "tools/call", { name: "fail-plain" }), auth },
        { do: "send", to: "c", message: msg(3, "tools/call", { name: "fail-plain" }), principal: "p9" },
        { do: "send", to: "c", message: msg(4, "tools/call", { name: "fail-plain" }) },
      ],
    });
    expect(out.failures).toEqual(["request tools/call", "request tools/call", "request tools/call"]);
    // The principal defaults to the token's subject (principal_of).
    expect(out.callers).toEqual([{ auth: told, principal: "sub:u1" }, { principal: "p9" }, {}]);
  });

  it.each(modernLabels.slice(-1))("at %s: a refused result with both; a notification's failure with neither (it has no caller to tell)", (label) => {
    const out = runPython({
      config: { served: { [label]: { capabilities: { tools: {} }, custom: true, validators: true } } },
      steps: [
        { do: "send", to: "modern", message: msg(1, "acme/bad", modern(label)), auth, principal: "p1" },
        { do: "send", to: "modern", message: { jsonrpc: "2.0", method: "acme/note", params: modern(label, { n: 0 }) }, auth },
      ],
    });
    expect(out.failures).toEqual(["result acme/bad", "invalid-params acme/note"]);
    expect(out.callers).toEqual([{ auth: told, principal: "p1" }, {}]);
  });
});
