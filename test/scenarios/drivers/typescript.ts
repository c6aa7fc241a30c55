// The TypeScript driver: runs concrete scenario cases (../resolve.ts) against the TypeScript runtime as the
// generated tree carries it (generated/runtime/, generated/<label>/, generated/router.ts) and answers what
// it observed, in the shape every driver answers (see docs/scenarios.md):
// { results: { [case id]: actual }, skipped: { [case id]: why }, summary: [lines] }.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { generatedDir } from "../../support.js";
import type { Case } from "../resolve.js";

export interface DriverOutput {
  results: Record<string, unknown>;
  skipped: Record<string, string>;
  summary: string[];
}

const load = async <T>(...parts: string[]): Promise<T> => (await import(pathToFileURL(path.join(generatedDir, ...parts)).href)) as T;

type Gate = typeof import("../../../generated/runtime/method-gate.js");
type Stdio = typeof import("../../../generated/runtime/transport-stdio.js");
type Router = typeof import("../../../generated/router.js");
type Http = typeof import("../../../generated/runtime/transport-http.js");
type Tasks = typeof import("../../../generated/runtime/tasks.js");
type TaskStore = typeof import("../../../generated/runtime/task-store.js");
type JsonRpc = typeof import("../../../generated/runtime/jsonrpc.js");

type Context = {
  signal: AbortSignal;
  _meta?: Record<string, unknown>;
  principal?: string;
  notify(method: string, params?: Record<string, unknown>): Promise<void>;
  request(method: string, params?: Record<string, unknown>): Promise<unknown>;
};

/** The router being served, for the "publish" tool. */
let serving: { publish(method: string, params?: Record<string, unknown>): Promise<void> } | undefined;
/** How many `slow` calls saw their cancellation, on the server being served (the "aborted" tool). */
let aborted = 0;

const text = (t: string) => ({ content: [{ type: "text", text: t }] });
const cancelled = (signal: AbortSignal) =>
  new Promise((_resolve, reject) => {
    if (signal.aborted) reject(new Error("cancelled"));
    signal.addEventListener("abort", () => reject(new Error("cancelled")), { once: true });
  });

/** The handlers every served version gets (docs/scenarios.md, "The scenario server"). */
function scenarioHandlers(jsonrpc: JsonRpc) {
  return {
    ping: () => ({}),
    "logging/setLevel": () => ({}),
    "tools/list": () => ({ tools: [{ name: "echo", inputSchema: { type: "object" } }] }),
    "tools/call": async (params: { name?: unknown; arguments?: Record<string, unknown> }, context: Context) => {
      const name = String(params.name);
      if (name === "log") {
        for (const level of ["debug", "warning", "error"]) await context.notify("notifications/message", { level, data: level });
      }
      if (name === "publish") await serving!.publish("notifications/tools/list_changed");
      if (name === "publish-updated") await serving!.publish("notifications/resources/updated", { uri: String(params.arguments?.uri) });
      if (name === "slow") {
        const token = context._meta?.progressToken;
        if (token !== undefined && token !== null) await context.notify("notifications/progress", { progressToken: token, progress: 0 });
        await cancelled(context.signal).catch((e: unknown) => {
          aborted++;
          throw e;
        });
      }
      if (name === "aborted") return text(String(aborted));
      if (name === "fail-coded") throw new jsonrpc.JsonRpcError(-32000, "coded failure", { why: "asked" });
      if (name === "fail-plain") throw new Error("secret detail");
      if (name === "progress") {
        const token = context._meta?.progressToken;
        if (token !== undefined && token !== null) await context.notify("notifications/progress", { progressToken: token, progress: 1, total: 2, message: "half" });
      }
      if (name === "sample") return text(JSON.stringify(await context.request("sampling/createMessage", { messages: [], maxTokens: 5 })));
      if (name === "elicit") return text(JSON.stringify(await context.request("elicitation/create", { message: "?", requestedSchema: { type: "object", properties: {} } })));
      if (name === "who") return text(context.principal ?? "none");
      return text(name);
    },
    "resources/subscribe": () => ({}),
    "resources/unsubscribe": () => ({}),
  };
}

/** The scenario server's capabilities. */
const CAPABILITIES = { tools: { listChanged: true }, logging: {} };

/** The form elicitation `task-ask` asks for. */
const ELICIT = { method: "elicitation/create", params: { mode: "form", message: "?", requestedSchema: { type: "object", properties: {} } } };

/** The tools/call of the Tasks extension (docs/scenarios.md): `task-done`, `task-slow` (until cancelled), `task-ask`, `task-fail`; any other name answered at once. */
function taskTools(tasks: Tasks) {
  return (params: { name?: unknown }) => {
    const name = String(params.name);
    if (name === "task-done") return tasks.task(() => text("done"));
    if (name === "task-slow") return tasks.task(async (control) => (await cancelled(control.signal), text("never")));
    if (name === "task-ask") return tasks.task(async (control) => text(JSON.stringify(await control.input({ q: ELICIT }))));
    if (name === "task-fail") {
      return tasks.task(() => {
        throw new Error("secret detail");
      });
    }
    return text(name);
  };
}

/** A line as written: `{"$reply": result}` becomes the response to the last request the server wrote (docs/scenarios.md). */
function reply(line: string, got: readonly unknown[]): string {
  const parsed = line.startsWith('{"$reply":') ? (JSON.parse(line) as { $reply?: unknown }) : undefined;
  if (parsed === undefined || Object.keys(parsed).length !== 1) return line;
  const request = [...got].reverse().find((m) => typeof m === "object" && m !== null && "method" in m && "id" in m) as { id: unknown } | undefined;
  return JSON.stringify({ jsonrpc: "2.0", id: request?.id ?? null, result: parsed.$reply });
}

/** Lines written in answer to one line: wait for `count` of them, then a little longer for any extra. */
async function stdioCase(c: Extract<Case, { kind: "stdio" | "projections" }>, stdio: Stdio, router: Router, jsonrpc: JsonRpc): Promise<unknown[][]> {
  const handlers = scenarioHandlers(jsonrpc);
  const versions = Object.fromEntries(Object.keys(router.eras).map((l) => [l, { handlers, capabilities: CAPABILITIES }]));
  const server = c.kind === "projections" ? oneSetServer(router) : router.createServerRouter({ serverInfo: { name: "scenario-server", version: "1.0.0" }, versions: versions as never, onError: () => undefined });
  serving = server;
  aborted = 0;
  const input = new PassThrough();
  const output = new PassThrough();
  const got: unknown[] = [];
  let text = "";
  output.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n")) {
      got.push(JSON.parse(text.slice(0, i)));
      text = text.slice(i + 1);
    }
  });
  const served = stdio.serveStdio(server, { input, output, onError: () => undefined });
  const answers: unknown[][] = [];
  for (const [i, line] of c.lines.entries()) {
    const from = got.length;
    input.write(reply(line, got) + "\n");
    const want = c.expect[i].length;
    const deadline = Date.now() + 5000;
    while (got.length - from < want && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
    await new Promise((r) => setTimeout(r, 20));
    answers.push(got.slice(from));
  }
  input.end();
  await served.closed;
  server.close();
  return answers;
}

/** The `_meta` keys of a modern request's envelope that the "lifted" tool reports. */
const LIFTED_KEYS = { protocolVersion: "io.modelcontextprotocol/protocolVersion", clientCapabilities: "io.modelcontextprotocol/clientCapabilities" };

/**
 * The one-handler-set server of the projections cases (docs/scenarios.md): every generated version served by
 * one handler set written for the newest, the capabilities and list-result cache hints given once.
 */
function oneSetServer(router: Router) {
  const handlers = {
    "tools/list": () => ({ tools: [{ name: "echo", inputSchema: { type: "object" } }] }),
    "tools/call": (params: { name?: unknown; _meta?: Record<string, unknown> }, context: { protocolVersion: string }) => {
      const name = String(params.name);
      if (name === "version") return text(context.protocolVersion);
      if (name === "structured") return { ...text(name), structuredContent: { ok: true } };
      if (name === "link") return { content: [{ type: "resource_link", uri: "file:///a.txt", name: "a" }] };
      if (name === "lifted") return text(JSON.stringify(Object.fromEntries(Object.entries(LIFTED_KEYS).map(([k, key]) => [k, params._meta?.[key] ?? null]))));
      return text(name);
    },
  };
  return router.createServerRouter({
    serverInfo: { name: "scenario-server", version: "1.0.0" },
    versions: Object.keys(router.eras) as never,
    handlers: handlers as never,
    capabilities: { tools: { listChanged: true } },
    cacheHints: { ttlMs: 60_000, cacheScope: "public" },
    onError: () => undefined,
  });
}

/** The scenario tokens (docs/scenarios.md): each one's AuthInfo; any other token is refused. */
const RESOURCE = "https://scenario.invalid/mcp";
const TOKENS: Record<string, object> = {
  "token-alice": { clientId: "client-a", subject: "alice", scopes: ["mcp"], resource: RESOURCE },
  "token-bob": { clientId: "client-b", subject: "bob", scopes: ["mcp"], resource: RESOURCE },
  "token-narrow": { clientId: "client-n", subject: "narrow", scopes: [], resource: RESOURCE },
  "token-elsewhere": { clientId: "client-e", subject: "elsewhere", scopes: ["mcp"], resource: "https://elsewhere.invalid/mcp" },
  "token-expired": { clientId: "client-x", subject: "expired", scopes: ["mcp"], resource: RESOURCE, expiresAt: 1 },
};

interface HttpModules {
  router: Router;
  http: Http;
  tasks: Tasks;
  store: TaskStore;
  jsonrpc: JsonRpc;
}

type HttpStep = Extract<Case, { kind: "http" }>["requests"][number];
type Sent = Exclude<HttpStep, { read: string }>;

/** One HTTP request on a running endpoint and its answer as it arrives: status, headers, the body, its SSE events' data. */
class Answer {
  status = 0;
  headers: Record<string, unknown> = {};
  sse = false;
  body = "";
  events: unknown[] = [];
  /** Events a read has reported already. */
  taken = 0;
  ended = false;
  private readonly req: http.ClientRequest;

  /** `heard`: every SSE event's data of every stream, in arrival order (for `$reply`). */
  constructor(port: number, r: Sent, session: string | undefined, heard: unknown[]) {
    const defaults: Record<string, string> = r.method === "POST" ? { "content-type": "application/json", accept: "application/json, text/event-stream" } : r.method === "GET" ? { accept: "text/event-stream" } : {};
    const headers: Record<string, string> = { ...defaults };
    if (r.session === true && session !== undefined) headers["mcp-session-id"] = session;
    for (const [k, v] of Object.entries(r.headers ?? {})) {
      if (v === null) delete headers[k];
      else headers[k] = v;
    }
    this.req = http.request({ host: "127.0.0.1", port, method: r.method, path: r.path ?? "/mcp", headers, agent: false }, (res) => {
      this.status = res.statusCode ?? 0;
      this.headers = res.headers as Record<string, unknown>;
      this.sse = String(res.headers["content-type"] ?? "").startsWith("text/event-stream");
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        this.body += chunk;
        if (!this.sse) return;
        for (let i = this.body.indexOf("\n\n"); i >= 0; i = this.body.indexOf("\n\n")) {
          const data = this.body.slice(0, i).split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trimStart());
          if (data.length > 0) {
            const event = JSON.parse(data.join("\n")) as unknown;
            this.events.push(event);
            heard.push(event);
          }
          this.body = this.body.slice(i + 2);
        }
      });
      res.on("end", () => (this.ended = true));
      res.on("error", () => (this.ended = true));
    });
    this.req.on("error", () => (this.ended = true));
    this.req.end(r.body === undefined ? undefined : reply(r.body, heard));
  }

  /** Wait until `count` events arrived since the last read and a settle passed (an SSE answer), or until it ended (always, with `end`). */
  async until(count: number, end: boolean): Promise<void> {
    const deadline = Date.now() + 5000;
    const enough = () => this.status !== 0 && this.sse && this.events.length - this.taken >= count && !end;
    while (!this.ended && !enough() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
    if (!this.ended) await new Promise((r) => setTimeout(r, 50));
  }

  /** The events since the last read. */
  take(): unknown[] {
    const out = this.events.slice(this.taken);
    this.taken = this.events.length;
    return out;
  }

  close(): void {
    this.req.destroy();
  }
}

/** An http case: the scenario server behind createHttpHandler on a loopback port, each request answered before the next (a named stream left open for later reads). */
async function httpCase(c: Extract<Case, { kind: "http" }>, m: HttpModules): Promise<unknown[]> {
  const handlers = scenarioHandlers(m.jsonrpc);
  const versions: Record<string, object> = Object.fromEntries(Object.keys(m.router.eras).map((l) => [l, { handlers, capabilities: CAPABILITIES }]));
  if (c.server.tasks === true) {
    let counter = 0;
    const extension = m.tasks.tasksExtension({
      store: m.store.createMemoryTaskStore(),
      newTaskId: () => `task-${++counter}`,
      ttlMs: 60_000,
      pollIntervalMs: 25,
      handlers: { "tools/call": taskTools(m.tasks) },
      onError: () => undefined,
    } as never);
    const { "tools/call": _call, ...rest } = handlers;
    versions[c.version] = { handlers: rest, capabilities: CAPABILITIES, extensions: { [m.tasks.TASKS_EXTENSION]: extension } };
  }
  const server = m.router.createServerRouter({ serverInfo: { name: "scenario-server", version: "1.0.0" }, versions: versions as never, onError: () => undefined });
  serving = server;
  aborted = 0;
  const auth =
    c.server.auth === true
      ? {
          auth: {
            resourceMetadata: { resource: RESOURCE, authorization_servers: ["https://as.scenario.invalid"] },
            requiredScopes: ["mcp"],
            verifyAccessToken: (token: string) => {
              const info = TOKENS[token];
              if (info === undefined) throw new Error("unknown token");
              return { token, ...info };
            },
          },
        }
      : { principal: (req: http.IncomingMessage) => (typeof req.headers["x-principal"] === "string" ? req.headers["x-principal"] : undefined) };
  const handler = m.http.createHttpHandler(server as never, { onError: () => undefined, ...auth } as never);
  const listener = http.createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const { port } = listener.address() as AddressInfo;
  const answers: unknown[] = [];
  let session: string | undefined;
  const streams = new Map<string, Answer>();
  const heard: unknown[] = [];
  try {
    for (const [i, r] of c.requests.entries()) {
      const expected = c.expect[i];
      if ("read" in r) {
        const stream = streams.get(r.read)!;
        await stream.until(expected.events?.length ?? 0, (expected as { ended?: boolean }).ended === true);
        answers.push({ events: stream.take(), ended: stream.ended });
        continue;
      }
      const got = new Answer(port, r, session, heard);
      await got.until(expected.events?.length ?? 0, false);
      if (typeof got.headers["mcp-session-id"] === "string") session = got.headers["mcp-session-id"];
      answers.push(answerOf(got));
      if (r.stream === undefined) got.close();
      else streams.set(r.stream, got);
    }
  } finally {
    for (const stream of streams.values()) stream.close();
    await handler.close();
    server.close();
    listener.closeAllConnections();
    await new Promise((resolve) => listener.close(resolve));
  }
  return answers;
}

/** An HTTP answer in the drivers' terms: status, headers, and the body as JSON (application/json), SSE events' data, or text. */
function answerOf(got: Answer): unknown {
  const base = { status: got.status, headers: got.headers };
  if (got.sse) return { ...base, events: got.take() };
  if (String(got.headers["content-type"] ?? "").startsWith("application/json") && got.body !== "") return { ...base, body: JSON.parse(got.body) };
  return { ...base, text: got.body };
}

export async function runTypeScript(cases: readonly Case[]): Promise<DriverOutput> {
  const gate = await load<Gate>("runtime", "method-gate.ts");
  const stdio = await load<Stdio>("runtime", "transport-stdio.ts");
  const router = await load<Router>("router.ts");
  const jsonrpc = await load<JsonRpc>("runtime", "jsonrpc.ts");
  const modules: HttpModules = { router, jsonrpc, http: await load<Http>("runtime", "transport-http.ts"), tasks: await load<Tasks>("runtime", "tasks.ts"), store: await load<TaskStore>("runtime", "task-store.ts") };
  const results: Record<string, unknown> = {};
  for (const c of cases) {
    if (c.kind === "gate") {
      const { METHOD_TABLE, protocolVersion } = await load<{ METHOD_TABLE: Record<string, import("../../../generated/runtime/method-gate.js").GateRow>; protocolVersion: string }>(c.module, "methods.ts");
      results[c.id] = gate.methodRefusal(METHOD_TABLE, c.method, protocolVersion, c.side, c.policy);
    } else if (c.kind === "normalize") {
      const { resultNormalizers } = await load<{ resultNormalizers: Record<string, (v: unknown) => unknown> }>(c.version, "normalizers.ts");
      try {
        results[c.id] = { ok: JSON.parse(JSON.stringify(resultNormalizers[c.method](structuredClone(c.input)))) };
      } catch (e) {
        const { code, message } = e as { code?: unknown; message?: unknown };
        if (typeof code !== "number") throw e;
        results[c.id] = { error: { code, message } };
      }
    } else if (c.kind === "stdio" || c.kind === "projections") {
      results[c.id] = await stdioCase(c, stdio, router, jsonrpc);
    } else {
      results[c.id] = await httpCase(c, modules);
    }
  }
  const kinds = [...new Set(cases.map((c) => c.kind))];
  return { results, skipped: {}, summary: kinds.map((k) => `typescript runs ${cases.filter((c) => c.kind === k).length} ${k} cases`) };
}
