// Router scenarios for the Python router's tests: the steps router_driver.py runs against the Python
// router, and the same steps run against the generated TypeScript router (generated/router.ts's
// createServerRouter) with equivalent handlers, giving the same output shape (answers, what each peer
// was sent, on_error's failures, what handlers saw, requests in flight at the end).
import path from "node:path";
import { requestMeta } from "../../request-meta.js";
import { root } from "../../support.js";
import { pythonJson } from "./support.js";

export type Step =
  | { do: "connect"; as: string }
  | { do: "send"; to: string; message: unknown; key?: string; auth?: Record<string, unknown>; principal?: string; scope?: string; stream?: string }
  | { do: "await"; key: string }
  | { do: "cancel"; key: string }
  | { do: "answer"; to: string; result: unknown }
  | { do: "publish"; method: string; params?: Record<string, unknown> }
  | { do: "nameParam"; method: string; version: string }
  | { do: "settle" }
  | { do: "close" };

export interface Config {
  served: Record<string, { capabilities: Record<string, unknown>; factory?: boolean; extension?: boolean; custom?: boolean | "collide"; validators?: boolean }>;
  /** Python only: create_router is expected to raise ValueError; its message is the outcome's `error`. */
  expectError?: boolean;
  instructions?: string;
  discoverCache?: { ttlMs: number; cacheScope: "public" | "private" };
  maxListenStreamsPerPrincipal?: number;
  maxListenStreams?: number;
}

export interface Scenario {
  config: Config;
  steps: Step[];
}

export interface Outcome {
  answers: unknown[];
  sent: Record<string, unknown[]>;
  failures: string[];
  /** Python only: each failure's `auth` and `principal`, as on_error was told them. */
  callers?: Array<Record<string, unknown>>;
  events: string[];
  inFlight: number;
}

/** The scenario run by the Python router (router_driver.py). */
export function runPython(scenario: Scenario): Outcome {
  return pythonJson<Outcome>("router_driver.py", scenario);
}


/** A request (or, with id undefined, a notification). */
export function msg(id: number | string | undefined, method: string, params?: unknown): Record<string, unknown> {
  const m: Record<string, unknown> = { jsonrpc: "2.0" };
  if (id !== undefined) m.id = id;
  m.method = method;
  if (params !== undefined) m.params = params;
  return m;
}

/** Params of a modern request at `version`: the `_meta` keys its schema requires (test/request-meta.ts), then extra `_meta` members. */
export function modern(version: string, params: Record<string, unknown> = {}, meta: Record<string, unknown> = {}, capabilities: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...params, _meta: requestMeta(version, capabilities, meta) };
}

export function initialize(id: number, version: string): Record<string, unknown> {
  return msg(id, "initialize", { protocolVersion: version, capabilities: {}, clientInfo: { name: "client", version: "1" } });
}

type Handler = (params: any, context: any) => unknown;

interface TsRouterModule {
  createServerRouter(options: object): {
    connect(send: (m: unknown) => void | Promise<void>): { handle(m: unknown, exchange?: object): Promise<unknown> };
    handle(m: unknown, exchange?: object): Promise<unknown>;
    publish(method: string, params?: Record<string, unknown>): Promise<void>;
    nameParam(method: string, version: string): string | undefined;
    close(): void;
    readonly inFlight: number;
  };
}

interface TsDispatcherModule {
  JsonRpcError: new (code: number, message: string, data?: unknown) => Error;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

/** The scenario run by the TypeScript router, with the handlers of router_driver.py. */
export async function runTypeScript(scenario: Scenario): Promise<Outcome> {
  const { createServerRouter } = (await import(path.join(root, "generated", "router.ts"))) as TsRouterModule;
  const { JsonRpcError } = (await import(path.join(root, "generated", "runtime", "jsonrpc.ts"))) as TsDispatcherModule;
  const events: string[] = [];
  const failures: string[] = [];
  const callers: Array<Record<string, unknown>> = [];
  const text = (t: string) => ({ content: [{ type: "text", text: t }] });
  const toolsCall: Handler = async (params: { name?: unknown }, context) => {
    const name = String(params.name);
    if (name === "fail-coded") throw new JsonRpcError(-32000, "coded failure", { why: "asked" });
    if (name === "fail-plain") throw new Error("secret detail");
    if (name === "slow") {
      await new Promise((_resolve, reject) => {
        const cancelled = () => {
          events.push(`cancelled ${JSON.stringify(context.requestId)}`);
          reject(new Error("cancelled"));
        };
        if (context.signal.aborted) cancelled();
        else context.signal.addEventListener("abort", cancelled, { once: true });
      });
    }
    if (name === "sample") return text(JSON.stringify(await context.request("sampling/createMessage", { messages: [], maxTokens: 5 })));
    if (name === "log") {
      for (const level of ["debug", "warning", "error"]) await context.notify("notifications/message", { level, data: level });
      return text("logged");
    }
    if (name === "progress") {
      const token = context._meta?.progressToken;
      if (token !== undefined && token !== null) await context.notify("notifications/progress", { progressToken: token, progress: 1, total: 2, message: "half" });
      return text("progressed");
    }
    if (name === "who") return text(String(context.principal ?? "None"));
    return text(name);
  };
  const handlers = (): Record<string, Handler> => ({
    ping: () => ({}),
    "tools/list": () => ({ tools: [{ name: "echo", inputSchema: { type: "object" } }] }),
    "tools/call": toolsCall,
    "resources/subscribe": (params: { uri?: unknown }) => {
      if (params.uri === "seed://meta") return { _meta: { seen: true }, extra: 1 };
      if (params.uri === "seed://bad-meta") return { _meta: 5 };
      return {};
    },
    "resources/unsubscribe": () => ({}),
    "logging/setLevel": () => ({}),
    "notifications/initialized": () => undefined,
  });
  const versions: Record<string, object> = {};
  for (const [label, entry] of Object.entries(scenario.config.served)) {
    if (entry.extension === true) throw new Error("the TypeScript runner serves no stub extension");
    versions[label] = {
      capabilities: entry.capabilities,
      handlers:
        entry.factory === true
          ? (info: { protocolVersion?: string; initializeParams?: { clientInfo?: unknown } }) => {
              events.push(`factory ${JSON.stringify(info.protocolVersion ?? null)}`);
              const own = handlers();
              const call = own["tools/call"];
              // The ConnectionInfo kept by the factory reads the connection as it is now.
              own["tools/call"] = (params: { name?: unknown }, context) =>
                params.name === "info" ? text(`${info.protocolVersion} ${JSON.stringify(info.initializeParams?.clientInfo ?? null)}`) : call(params, context);
              return own;
            }
          : handlers(),
    };
  }
  const router = createServerRouter({
    serverInfo: { name: "router-test", version: "1.0.0" },
    versions,
    ...(scenario.config.instructions === undefined ? {} : { instructions: scenario.config.instructions }),
    ...(scenario.config.discoverCache === undefined ? {} : { discoverCache: scenario.config.discoverCache }),
    ...(scenario.config.maxListenStreamsPerPrincipal === undefined ? {} : { maxListenStreamsPerPrincipal: scenario.config.maxListenStreamsPerPrincipal }),
    ...(scenario.config.maxListenStreams === undefined ? {} : { maxListenStreams: scenario.config.maxListenStreams }),
    onError: (_error: unknown, failure: { kind: string; method: string; auth?: unknown; principal?: string }) => {
      failures.push(`${failure.kind} ${failure.method}`);
      callers.push({ ...(failure.auth === undefined ? {} : { auth: failure.auth }), ...(failure.principal === undefined ? {} : { principal: failure.principal }) });
    },
  });
  const sent: Record<string, unknown[]> = {};
  const sender = (to: string) => (message: unknown) => {
    (sent[to] ??= []).push(structuredClone(message));
  };
  const connections = new Map<string, { handle(m: unknown, exchange?: object): Promise<unknown> }>();
  const scopes = new Map<string, object>();
  const tasks = new Map<string, { answer: Promise<unknown>; abort: AbortController; cancelled: boolean }>();
  const answers: unknown[] = [];
  for (const step of scenario.steps) {
    switch (step.do) {
      case "connect":
        connections.set(step.as, router.connect(sender(step.as)));
        break;
      case "send": {
        const scopeName = step.scope ?? step.to;
        if (!scopes.has(scopeName)) scopes.set(scopeName, {});
        const abort = new AbortController();
        const principal = { ...(step.principal === undefined ? {} : { principal: step.principal }), ...(step.auth === undefined ? {} : { auth: step.auth }) };
        const answer =
          step.to === "modern"
            ? router.handle(step.message, { send: sender(step.stream ?? step.to), signal: abort.signal, scope: scopes.get(scopeName), ...principal })
            : connections.get(step.to)!.handle(step.message, { signal: abort.signal, ...principal });
        if (step.key !== undefined) tasks.set(step.key, { answer, abort, cancelled: false });
        else answers.push((await answer) ?? null);
        break;
      }
      case "await": {
        const task = tasks.get(step.key)!;
        const answer = (await task.answer) ?? null;
        answers.push(task.cancelled ? "cancelled" : answer);
        break;
      }
      case "cancel": {
        const task = tasks.get(step.key)!;
        task.cancelled = true;
        task.abort.abort(new Error("given up"));
        break;
      }
      case "answer": {
        const request = (sent[step.to] ?? []).filter((m) => Object.hasOwn(m as object, "id")).at(-1) as { id: unknown };
        answers.push((await connections.get(step.to)!.handle({ jsonrpc: "2.0", id: request.id, result: step.result })) ?? null);
        break;
      }
      case "publish":
        await router.publish(step.method, step.params);
        break;
      case "nameParam":
        answers.push(router.nameParam(step.method, step.version) ?? null);
        break;
      case "settle":
        await settle();
        break;
      case "close":
        router.close();
        break;
    }
  }
  await new Promise((resolve) => setImmediate(resolve));
  return { answers, sent, failures, callers, events, inFlight: router.inFlight };
}

const capabilities = { tools: { listChanged: true }, logging: {}, resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true } };


/** The message of an invalid-params answer whose data names the failing pointers: the schema library's words. */
export function comparable(outcome: unknown): string {
  return JSON.stringify(outcome, (_key, value: unknown) => {
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      const v = value as { code?: unknown; message?: unknown; data?: { paths?: unknown } };
      if (v.code === -32602 && typeof v.message === "string" && Array.isArray(v.data?.paths)) return { ...v, message: "(the schema library's words)" };
    }
    return value;
  });
}


/** The cross-language corpus over the generated versions (label → era), served all at once. */
export function corpora(eras: Readonly<Record<string, string>>) {
  const labels = Object.keys(eras).sort();
  const legacyLabels = labels.filter((l) => eras[l] === "legacy");
  function config(extra: Partial<Config> = {}): Config {
    return { served: Object.fromEntries(labels.map((l) => [l, { capabilities, factory: eras[l] === "legacy" }])), instructions: "Use the echo tool.", ...extra };
  }
/**
 * `hasCancel`: the version has notifications/cancelled (else only the transport gives a request up: nothing else would end it).
 * What the scenario suite states as data is not repeated here (test/scenarios/stdio/: requests before initialize, a
 * second initialize, an unknown version, unknown and unserved methods, params not an object or missing or
 * against the schema, a stray response, the log gate; gate/: server/discover and sampling at a legacy server).
 */
function legacyCorpus(label: string, hasCancel = true): Scenario {
  const c = (message: unknown, extra: Partial<Extract<Step, { do: "send" }>> = {}): Step => ({ do: "send", to: "c", message, ...extra });
  return {
    config: config(),
    steps: [
      { do: "connect", as: "c" },
      c(msg(undefined, "notifications/initialized")),
      c(initialize(3, label)),
      c(msg(undefined, "notifications/initialized")),
      c(msg(5, "tools/list")),
      c(msg(6, "tools/call", { name: "hello", arguments: {} })),
      c(msg(7, "tools/call", { name: "fail-coded" })),
      c(msg(8, "tools/call", { name: "fail-plain" })),
      c({ jsonrpc: "1.0", id: 17, method: "ping" }),
      c(msg(21, "tools/call", { name: "progress", _meta: { progressToken: "p1" } })),
      c(msg(22, "tools/call", { name: "sample" }), { key: "sample" }),
      { do: "settle" },
      { do: "answer", to: "c", result: { role: "assistant", content: { type: "text", text: "hi" }, model: "m" } },
      { do: "await", key: "sample" },
      ...(hasCancel ? [c(msg(23, "tools/call", { name: "slow" }), { key: "slow" })] : []),
      c(msg(24, "tools/call", { name: "slow" }), { key: "given-up" }),
      { do: "settle" },
      ...(hasCancel ? [c(msg(undefined, "notifications/cancelled", { requestId: 23, reason: "no longer needed" })), { do: "await", key: "slow" } as Step] : []),
      { do: "cancel", key: "given-up" },
      { do: "await", key: "given-up" },
      c(msg(25, "resources/subscribe", { uri: "file:///a" })),
      { do: "publish", method: "notifications/tools/list_changed" },
      { do: "publish", method: "notifications/resources/updated", params: { uri: "file:///a" } },
      { do: "publish", method: "notifications/resources/updated", params: { uri: "file:///b" } },
      c(msg(26, "resources/unsubscribe", { uri: "file:///a" })),
      c(msg(28, "resources/subscribe", { uri: "seed://meta" })),
      c(msg(29, "resources/subscribe", { uri: "seed://bad-meta" })),
      { do: "nameParam", method: "tools/call", version: label },
      { do: "publish", method: "notifications/resources/updated", params: { uri: "file:///a" } },
      c(msg(27, "tools/call", { name: "who" }), { principal: "alice" }),
      c(msg(30, "tools/call", { name: "info" })),
    ],
  };
}

/** test/scenarios/stdio/modern-*.json state -32022, an unknown method, params against the schema and the log gate as data: not repeated here. */
function modernCorpus(label: string): Scenario {
  const m = (message: unknown, extra: Partial<Extract<Step, { do: "send" }>> = {}): Step => ({ do: "send", to: "modern", message, ...extra });
  const p = (params: Record<string, unknown> = {}, meta: Record<string, unknown> = {}) => modern(label, params, meta);
  return {
    config: config({ maxListenStreamsPerPrincipal: 1, maxListenStreams: 3 }),
    steps: [
      m(msg(1, "server/discover", p())),
      m(msg(2, "tools/list", {})),
      m(msg(3, "tools/list", { _meta: { "io.modelcontextprotocol/protocolVersion": label } })),
      m(msg(5, "tools/list", modern(legacyLabels.at(-1) ?? "1999-01-01"))),
      m(msg(6, "tools/list", { _meta: { "io.modelcontextprotocol/protocolVersion": 7, "io.modelcontextprotocol/clientCapabilities": {} } })),
      m(msg(undefined, "notifications/cancelled", modern("2099-01-01", { requestId: 1 }))),
      m(msg(7, "tools/list", p())),
      m(msg(8, "tools/call", p({ name: "hello", arguments: {} }))),
      m(msg(9, "tools/call", p({ name: "fail-coded" }))),
      m(msg(10, "tools/call", p({ name: "fail-plain" }))),
      m(msg(13, "initialize", p({ protocolVersion: label, capabilities: {}, clientInfo: { name: "c", version: "1" } }))),
      m(msg(14, "ping", p())),
      m(msg(15, "sampling/createMessage", p({ messages: [], maxTokens: 1 }))),
      m(msg(16, "prompts/list", p())),
      m({ jsonrpc: "2.0", id: 17, result: {} }),
      m([]),
      m(msg(20, "tools/call", p({ name: "log" }, { "io.modelcontextprotocol/logLevel": "loud" }))),
      m(msg(21, "tools/call", p({ name: "progress" }, { progressToken: 7 }))),
      m(msg(22, "tools/call", p({ name: "sample" }))),
      m(msg(23, "tools/call", p({ name: "who" })), { principal: "bob" }),
      m(msg(24, "subscriptions/listen", p({ notifications: { toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: ["file:///a"] } })), {
        key: "listen-a",
        principal: "alice",
        stream: "listen-a",
      }),
      m(msg(25, "subscriptions/listen", p({ notifications: { toolsListChanged: true } })), { key: "listen-a2", principal: "alice", stream: "listen-a2" }),
      m(msg(26, "subscriptions/listen", p({ notifications: { resourcesListChanged: true } })), { key: "listen-b", principal: "bob", stream: "listen-b" }),
      m(msg(27, "subscriptions/listen", p({ notifications: {} })), { key: "listen-c", stream: "listen-c" }),
      m(msg(28, "subscriptions/listen", p({ notifications: {} })), { key: "listen-d", stream: "listen-d" }),
      m(msg(29, "subscriptions/listen", p({})), { stream: "listen-e" }),
      { do: "settle" },
      { do: "await", key: "listen-a2" },
      { do: "await", key: "listen-d" },
      { do: "publish", method: "notifications/tools/list_changed" },
      { do: "publish", method: "notifications/resources/list_changed" },
      { do: "publish", method: "notifications/resources/updated", params: { uri: "file:///a", _meta: { note: 1 } } },
      { do: "publish", method: "notifications/resources/updated", params: { uri: "file:///b" } },
      m(msg(30, "tools/call", p({ name: "slow" })), { key: "slow-other", scope: "elsewhere" }),
      m(msg(30, "tools/call", p({ name: "slow" })), { key: "slow" }),
      { do: "settle" },
      m(msg(undefined, "notifications/cancelled", p({ requestId: 30 }))),
      { do: "await", key: "slow" },
      m(msg(undefined, "notifications/cancelled", p({ requestId: 24 })), { scope: "modern" }),
      { do: "cancel", key: "slow-other" },
      { do: "await", key: "slow-other" },
      m(msg(undefined, "notifications/cancelled", p({ requestId: 26 }))),
      { do: "settle" },
      { do: "nameParam", method: "tools/call", version: label },
      { do: "nameParam", method: "resources/read", version: label },
      { do: "nameParam", method: "tools/list", version: label },
      { do: "nameParam", method: "tools/call", version: "1999-01-01" },
      { do: "close" },
      { do: "await", key: "listen-a" },
      { do: "await", key: "listen-b" },
      { do: "await", key: "listen-c" },
    ],
  };
}
  return { legacyCorpus, modernCorpus };
}
