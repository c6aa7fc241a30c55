// Issue 28, "serving that can face the internet", finding by finding, on loopback: tasks bound to the
// principal that created them (two principals against one server, every task method and listen, with the
// in-memory store here and Redis in redis-faults.test.ts), authors' tasks/* handlers composed, the bounds
// (tasks, result bytes, TTL, listen ids, requests in flight on HTTP and stdio, idle GET streams), ttlMs 0,
// unique inputRequests keys, Mcp-Name in the base64 form sent by the official 2.4.0 client, and JSON-RPC
// batches per negotiated version.
import { PassThrough } from "node:stream";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { createServerRouter, eras } from "../../generated/router.js";
import type * as ext from "../../generated/2026-07-28+tasks/index.js";
import { decodeHeaderValue, encodeHeaderValue } from "../../generated/runtime/header-encoding.js";
import { createMemoryTaskStore, type TaskStore } from "../../generated/runtime/task-store.js";
import { task, tasksExtension, TASKS_EXTENSION, type TaskControl } from "../../generated/runtime/tasks.js";
import { serveHttp, type HttpServer } from "../../generated/runtime/transport-http.js";
import { serveStdio } from "../../generated/runtime/transport-stdio.js";

const MODERN = "2026-07-28";
type Handlers = Omit<ext.ServerHandlers, "server/discover" | "subscriptions/listen">;
const text = (t: string) => ({ type: "text" as const, text: t });
const meta = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS_EXTENSION]: {} } } };
const unknownTask = { code: -32602, message: "Failed to retrieve task: Task not found" };

let cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

export interface TaskServerOptions {
  store?: TaskStore;
  tasks?: Partial<Parameters<typeof tasksExtension<Handlers>>[0]>;
  http?: Parameters<typeof serveHttp>[1];
}

/** A 2026-07-28 server with the Tasks extension; the host's principal hook reads `x-principal`. */
export async function taskServer(options: TaskServerOptions = {}) {
  const aborted: string[] = [];
  const errors: unknown[] = [];
  const extension = tasksExtension<Handlers>({
    store: options.store ?? createMemoryTaskStore(),
    ttlMs: 60_000,
    pollIntervalMs: 50,
    ...options.tasks,
    handlers: {
      "tools/call": ({ name, arguments: args }) => {
        if (name === "ask")
          return task(async (t: TaskControl) => {
            const answers = await t.input({ q1: { method: "elicitation/create", params: { mode: "form", message: "name?", requestedSchema: { type: "object", properties: {} } } } });
            return { content: [text(`answered ${JSON.stringify(answers.q1)}`)] };
          }) as never;
        if (name === "slow")
          return task(
            (t: TaskControl) =>
              new Promise<object>((resolve) =>
                t.signal.addEventListener("abort", () => {
                  aborted.push(t.taskId);
                  resolve({ content: [] });
                }),
              ),
            args !== undefined && Object.hasOwn(args, "ttlMs") ? { ttlMs: args.ttlMs as number | null } : {},
          ) as never;
        if (name === "big") return task(async () => ({ content: [text("x".repeat(Number(args?.bytes)))] })) as never;
        if (name === "reuse")
          return task(async (t: TaskControl) => {
            await t.input({ q: { method: "elicitation/create", params: { mode: "form", message: "1?", requestedSchema: { type: "object", properties: {} } } } });
            await t.input({ q: { method: "elicitation/create", params: { mode: "form", message: "2?", requestedSchema: { type: "object", properties: {} } } } });
            return { content: [] };
          }) as never;
        return task(async () => ({ content: [text("done")] })) as never;
      },
      ...(options.tasks?.handlers ?? {}),
    },
  });
  const router = createServerRouter({
    serverInfo: { name: "internet", version: "1" },
    onError: (e) => errors.push(e),
    versions: { [MODERN]: { capabilities: { tools: {} }, handlers: { "tools/list": () => ({ tools: [], ttlMs: 0, cacheScope: "public" }) }, extensions: { [TASKS_EXTENSION]: extension } } },
  });
  const server = await serveHttp(router, { principal: (req) => (typeof req.headers["x-principal"] === "string" ? req.headers["x-principal"] : undefined), onError: (e) => errors.push(e), ...options.http });
  cleanup.push(() => server.close(), () => router.close(), () => extension.store.close?.());
  let id = 0;
  async function send(principal: string | undefined, method: string, params: Record<string, unknown>, name?: string) {
    const response = await fetch(server.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": MODERN,
        "mcp-method": method,
        ...(name === undefined ? {} : { "mcp-name": encodeHeaderValue(name) }),
        ...(principal === undefined ? {} : { "x-principal": principal }),
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params: { ...params, _meta: meta } }),
    });
    return { status: response.status, body: (await response.json()) as { result?: Record<string, unknown>; error?: Record<string, unknown> } };
  }
  const call = (principal: string | undefined, name: string, args: Record<string, unknown> = {}) => send(principal, "tools/call", { name, arguments: args }, name);
  const get = (principal: string | undefined, taskId: string) => send(principal, "tasks/get", { taskId }, taskId);
  /** Open a listen stream and read up to its acknowledgement; `close` ends it. */
  async function listen(principal: string | undefined, taskIds: unknown[]) {
    const abort = new AbortController();
    const response = await fetch(server.url, {
      method: "POST",
      signal: abort.signal,
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN, "mcp-method": "subscriptions/listen", ...(principal === undefined ? {} : { "x-principal": principal }) },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "subscriptions/listen", params: { notifications: { taskIds }, _meta: meta } }),
    });
    cleanup.push(() => abort.abort());
    if (response.headers.get("content-type") === "application/json") return { ack: undefined, error: ((await response.json()) as { error: unknown }).error, events: [] as unknown[], close: () => abort.abort() };
    const reader = response.body!.getReader();
    const events: Array<{ method?: string; params?: Record<string, unknown> }> = [];
    let buffer = "";
    const pump = async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) return;
        buffer += new TextDecoder().decode(value);
        for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
          const data = buffer.slice(0, end).split("\n").find((l) => l.startsWith("data: "));
          buffer = buffer.slice(end + 2);
          if (data !== undefined) events.push(JSON.parse(data.slice(6)));
        }
      }
    };
    void pump();
    await expect.poll(() => events.find((e) => e.method === "notifications/subscriptions/acknowledged"), { timeout: 5000 }).toBeDefined();
    const ack = events.find((e) => e.method === "notifications/subscriptions/acknowledged")!.params!.notifications;
    return { ack, error: undefined, events, close: () => abort.abort() };
  }
  return { server, router, extension, errors, aborted, send, call, get, listen };
}

/** Two principals against one server: B holding A's task id learns nothing and changes nothing (every task method, and listen). */
export async function twoPrincipals(store: TaskStore) {
  const s = await taskServer({ store });
  const asked = await s.call("alice", "ask");
  expect(asked.body.result).toMatchObject({ resultType: "task", status: "working" });
  const askId = asked.body.result!.taskId as string;
  await expect.poll(async () => (await s.get("alice", askId)).body.result?.status, { timeout: 5000 }).toBe("input_required");
  const slowId = (await s.call("alice", "slow")).body.result!.taskId as string;

  // Every task method from bob: exactly the answer to an id that does not exist.
  const never = "00000000-0000-4000-8000-000000000000";
  for (const [method, params] of [
    ["tasks/get", (id: string) => ({ taskId: id })],
    ["tasks/update", (id: string) => ({ taskId: id, inputResponses: { q1: { action: "accept", content: { name: "bob" } } } })],
    ["tasks/cancel", (id: string) => ({ taskId: id })],
  ] as const) {
    const forBob = await s.send("bob", method, params(method === "tasks/update" ? askId : slowId), method === "tasks/update" ? askId : slowId);
    const unknown = await s.send("bob", method, params(never), never);
    expect({ status: forBob.status, error: forBob.body.error }, method).toEqual({ status: unknown.status, error: unknown.body.error });
    expect(forBob.body.error, method).toEqual(unknownTask);
    // With no principal at all (auth off, no hook value): the same.
    expect((await s.send(undefined, method, params(slowId), slowId)).body.error, method).toEqual(unknownTask);
  }
  // Bob's listen names both ids: neither is honored, as for unknown ids; alice's is.
  const bobs = await s.listen("bob", [askId, slowId]);
  expect(bobs.ack).toEqual((await s.listen("bob", [never])).ack);
  expect(bobs.ack).toEqual({ taskIds: [] });
  const alices = await s.listen("alice", [askId, askId, slowId]);
  expect(alices.ack).toEqual({ taskIds: [askId, slowId] });

  // Nothing bob sent changed alice's tasks: the question is still open, the slow task still runs.
  expect((await s.get("alice", askId)).body.result).toMatchObject({ status: "input_required" });
  expect((await s.get("alice", slowId)).body.result).toMatchObject({ status: "working" });
  expect(s.aborted).toEqual([]);
  // Alice answers and cancels: her listen sees it, bob's sees nothing.
  expect((await s.send("alice", "tasks/update", { taskId: askId, inputResponses: { q1: { action: "accept", content: { name: "alice" } } } }, askId)).body.result).toEqual({ resultType: "complete" });
  await expect.poll(async () => (await s.get("alice", askId)).body.result?.status, { timeout: 5000 }).toBe("completed");
  expect((await s.get("alice", askId)).body.result!.result).toEqual({ content: [text('answered {"action":"accept","content":{"name":"alice"}}')], resultType: "complete" });
  expect((await s.send("alice", "tasks/cancel", { taskId: slowId }, slowId)).body.result).toEqual({ resultType: "complete" });
  await expect.poll(() => s.aborted, { timeout: 5000 }).toEqual([slowId]);
  await expect.poll(() => alices.events.filter((e) => e.method === "notifications/tasks").length, { timeout: 5000 }).toBeGreaterThanOrEqual(2);
  expect(bobs.events.filter((e) => e.method === "notifications/tasks")).toEqual([]);
  await s.extension.idle();
}

describe("tasks bound to the principal that created them (in-memory store; Redis: redis-faults.test.ts)", () => {
  it("another principal's tasks/get, tasks/update, tasks/cancel and listen are answered exactly as for an unknown id", async () => {
    await twoPrincipals(createMemoryTaskStore());
  }, 30_000);

  it("composes the author's own tasks/* handlers with the runtime's: called after its checks, a throw refuses", async () => {
    const seen: string[] = [];
    const s = await taskServer({
      tasks: {
        handlers: {
          "tasks/get": (params: { taskId: string }, context: { principal?: string }) => {
            seen.push(`get ${context.principal}`);
            if (context.principal === "carol") throw Object.assign(new Error("carol may not poll"), { code: -32042 });
            return undefined as never;
          },
        } as never,
      },
    });
    const id = (await s.call("carol", "fast")).body.result!.taskId as string;
    expect((await s.get("carol", id)).body.error).toEqual({ code: -32042, message: "carol may not poll" });
    // Unknown and foreign ids never reach the author's handler.
    expect((await s.get("dave", id)).body.error).toEqual(unknownTask);
    expect(seen).toEqual(["get carol"]);
  });
});

describe("bounds, each answered with a code and a message naming it", () => {
  it("maxTasksPerPrincipal and maxRunningTasks: -32000 naming the limit, reported to onError; other principals go on", async () => {
    const s = await taskServer({ tasks: { maxTasksPerPrincipal: 2, maxRunningTasks: 3 } });
    for (let i = 0; i < 2; i++) expect((await s.call("alice", "slow")).body.result).toMatchObject({ resultType: "task" });
    expect((await s.call("alice", "slow")).body.error).toEqual({ code: -32000, message: "Too many tasks: 2 are running for this principal (maxTasksPerPrincipal)" });
    expect((await s.call("bob", "slow")).body.result).toMatchObject({ resultType: "task" });
    expect((await s.call("carol", "slow")).body.error).toEqual({ code: -32000, message: "Too many tasks: 3 are running (maxRunningTasks)" });
    expect(s.errors.map((e) => (e as Error).message)).toEqual(["Too many tasks: 2 are running for this principal (maxTasksPerPrincipal)", "Too many tasks: 3 are running (maxRunningTasks)"]);
  });

  it("maxResultBytes: a larger result settles the task failed with -32603 naming the limit, reported to onError", async () => {
    const reported: unknown[] = [];
    const s = await taskServer({ tasks: { maxResultBytes: 10_000, onError: (e) => reported.push(e) } });
    const id = (await s.call("alice", "big", { bytes: 20_000 })).body.result!.taskId as string;
    await s.extension.idle();
    const failed = (await s.get("alice", id)).body.result!;
    expect(failed.status).toBe("failed");
    expect(failed.error).toEqual({ code: -32603, message: expect.stringMatching(/^Internal error: the task's result is \d+ bytes, over the server's maxResultBytes \(10000\)$/) });
    expect(reported).toHaveLength(1);
    const small = (await s.call("alice", "big", { bytes: 100 })).body.result!.taskId as string;
    await s.extension.idle();
    expect((await s.get("alice", small)).body.result!.status).toBe("completed");
  });

  it("maxTtlMs: a null or longer ttlMs gets the maximum", async () => {
    const s = await taskServer({ tasks: { maxTtlMs: 120_000 } });
    expect((await s.call("a", "slow", { ttlMs: null })).body.result!.ttlMs).toBe(120_000);
    expect((await s.call("a", "slow", { ttlMs: 10 ** 9 })).body.result!.ttlMs).toBe(120_000);
    expect((await s.call("a", "slow", { ttlMs: 5000 })).body.result!.ttlMs).toBe(5000);
  });

  it("listen taskIds: duplicates count once, more than maxListenTaskIds distinct is -32602 naming the limit, looked up in one getMany", async () => {
    const store = createMemoryTaskStore();
    const lookups: number[] = [];
    const counting: TaskStore = { ...store, getMany: (ids) => (lookups.push(ids.length), store.getMany!(ids)) };
    const s = await taskServer({ store: counting, tasks: { maxListenTaskIds: 3 } });
    const id = (await s.call("a", "slow")).body.result!.taskId as string;
    const many = await s.listen("a", Array.from({ length: 90_000 }, () => id));
    expect(many.ack).toEqual({ taskIds: [id] });
    expect(lookups).toEqual([1]);
    const over = await s.listen("a", ["1", "2", "3", "4", "1"]);
    expect(over.error).toEqual({ code: -32602, message: "Invalid params: 4 distinct taskIds, over the server's maxListenTaskIds (3)" });
  });

  it("the in-memory store holds at most maxTasks (-32000 naming it) and sweeps expired tasks on a timer", async () => {
    let now = 1_000_000;
    const store = createMemoryTaskStore({ maxTasks: 2, sweepIntervalMs: 20, now: () => now });
    const record = (taskId: string) => ({ taskId, status: "working", createdAt: new Date(now).toISOString(), lastUpdatedAt: new Date(now).toISOString(), ttlMs: 100 });
    await store.create(record("a"));
    await store.create(record("b"));
    await expect(store.create(record("c"))).rejects.toMatchObject({ code: -32000, message: "Too many tasks: the store holds 2 (maxTasks)" });
    const watched: string[] = [];
    store.watch("a", (t) => watched.push(t.status));
    now += 5000;
    // The timer sweeps both (no read needed): room again.
    await new Promise((resolve) => setTimeout(resolve, 100));
    now -= 5000; // a read would find them live again, had the timer not deleted them
    expect(await store.getMany!(["a", "b"])).toEqual([undefined, undefined]);
    await store.create(record("c"));
    await store.close?.();
  });

  it("HTTP maxRequestsInFlight per legacy session: 429 naming it, reported to onError", async () => {
    const legacy = Object.entries(eras).filter(([, era]) => era === "legacy").map(([v]) => v).sort().pop()!;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const router = createServerRouter({
      serverInfo: { name: "in-flight", version: "1" },
      versions: { [legacy]: { capabilities: { tools: {} }, handlers: { "tools/list": async () => (await held, { tools: [] }) } } } as never,
    });
    const errors: unknown[] = [];
    const server = await serveHttp(router, { maxRequestsInFlight: 2, onError: (e) => errors.push(e) });
    cleanup.push(() => server.close(), () => router.close());
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      fetch(server.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body: JSON.stringify(body) });
    const init = await post({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: legacy, capabilities: {}, clientInfo: { name: "x", version: "0" } } });
    await init.text();
    const headers = { "mcp-session-id": init.headers.get("mcp-session-id")!, "mcp-protocol-version": legacy };
    const running = [post({ jsonrpc: "2.0", id: 1, method: "tools/list" }, headers), post({ jsonrpc: "2.0", id: 2, method: "tools/list" }, headers)];
    await expect.poll(() => router.inFlight).toBe(2);
    const third = await post({ jsonrpc: "2.0", id: 3, method: "tools/list" }, headers);
    expect(third.status).toBe(429);
    expect(await third.json()).toEqual({ jsonrpc: "2.0", id: 3, error: { code: -32000, message: "Too Many Requests: 2 requests are in flight on this session (maxRequestsInFlight)" } });
    expect(errors.map((e) => (e as Error).message)).toEqual(["refused: Too Many Requests: 2 requests are in flight on this session (maxRequestsInFlight)"]);
    release();
    for (const r of await Promise.all(running)) expect(r.status).toBe(200);
  });

  it("stdio maxRequestsInFlight: stops reading input at the cap and reads on as requests settle, every request answered", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let started = 0;
    const releases: Array<() => void> = [];
    const router = createServerRouter({
      serverInfo: { name: "stdio", version: "1" },
      versions: { [MODERN]: { capabilities: { tools: {} }, handlers: { "tools/list": () => new Promise((resolve) => (started++, releases.push(() => resolve({ tools: [], ttlMs: 0, cacheScope: "public" })))) } } } as never,
    });
    const errors: unknown[] = [];
    const server = serveStdio(router, { input, output, maxRequestsInFlight: 3, onError: (e) => errors.push(e) });
    cleanup.push(() => server.close(), () => router.close());
    const lines: string[] = [];
    output.on("data", (c: Buffer) => lines.push(...c.toString().split("\n").filter((l) => l !== "")));
    const plain = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} };
    input.write(Array.from({ length: 10 }, (_, i) => JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/list", params: { _meta: plain } }) + "\n").join(""));
    await expect.poll(() => started).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(started).toBe(3);
    expect(errors.map((e) => (e as Error).message)).toEqual(["paused reading: 3 requests are in flight (maxRequestsInFlight)"]);
    for (let round = 0; round < 10 && lines.length < 10; round++) {
      for (const r of releases.splice(0)) r();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(lines.map((l) => (JSON.parse(l) as { id: number }).id).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("idle GET streams do not lock out new legacy clients: at maxSessions one idle sessionIdleMs is evicted", async () => {
    const legacy = Object.entries(eras).filter(([, era]) => era === "legacy").map(([v]) => v).sort().pop()!;
    const router = createServerRouter({ serverInfo: { name: "get", version: "1" }, versions: { [legacy]: { capabilities: {}, handlers: {} } } as never });
    const server: HttpServer = await serveHttp(router, { maxSessions: 2, sessionIdleMs: 300, onError: () => undefined });
    cleanup.push(() => server.close(), () => router.close());
    const aborts: AbortController[] = [];
    cleanup.push(() => aborts.forEach((a) => a.abort()));
    const open = async () => {
      const init = await fetch(server.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: legacy, capabilities: {}, clientInfo: { name: "x", version: "0" } } }) });
      await init.text();
      return init;
    };
    for (let i = 0; i < 2; i++) {
      const init = await open();
      const abort = new AbortController();
      aborts.push(abort);
      const stream = await fetch(server.url, { signal: abort.signal, headers: { accept: "text/event-stream", "mcp-session-id": init.headers.get("mcp-session-id")! } });
      expect(stream.status).toBe(200);
    }
    // Both slots hold a GET stream and nothing else: refused at once, admitted once they idled sessionIdleMs.
    expect((await open()).status).toBe(503);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await open()).status).toBe(200);
  });
});

describe("interop", () => {
  it("one encode/decode pair for Mcp-Name and Mcp-Param-*: plain ASCII as it is, anything else as =?base64?…?=", () => {
    for (const value of ["café", "☃", " padded ", "", "=?base64?eA==?=", "plain-name_1"]) expect(decodeHeaderValue(encodeHeaderValue(value))).toBe(value);
    expect(encodeHeaderValue("plain-name_1")).toBe("plain-name_1");
    expect(encodeHeaderValue("café")).toBe("=?base64?Y2Fmw6k=?=");
    expect(decodeHeaderValue("=?base64?not base64?=")).toBeUndefined();
    expect(decodeHeaderValue("=?base64?/w==?=")).toBeUndefined(); // not UTF-8
  });

  it("the official 2.4.0 client calls tools named café and ☃ (Mcp-Name sent as =?base64?…?=)", async () => {
    const tools = ["café", "☃"].map((name) => ({ name, inputSchema: { type: "object" as const } }));
    const router = createServerRouter({
      serverInfo: { name: "names", version: "1" },
      versions: { [MODERN]: { capabilities: { tools: {} }, handlers: { "tools/list": () => ({ tools, ttlMs: 0, cacheScope: "public" }), "tools/call": ({ name }) => ({ content: [text(`called ${name}`)] }) } } },
    });
    const server = await serveHttp(router, { onError: () => undefined });
    const client = new ModernClient({ name: "names", version: "1" }, { versionNegotiation: { mode: { pin: MODERN } } });
    cleanup.push(() => server.close(), () => router.close(), () => client.close());
    await client.connect(new ModernHttp(new URL(server.url)));
    for (const name of ["café", "☃"]) expect(await client.callTool({ name, arguments: {} })).toMatchObject({ content: [text(`called ${name}`)] });
  });

  it("JSON-RPC batches: served in a session before 2025-06-18, refused -32600 from 2025-06-18 on (read from the generated versions)", async () => {
    const legacy = Object.entries(eras).filter(([, era]) => era === "legacy").map(([v]) => v).sort();
    const served = Object.fromEntries(legacy.map((v) => [v, { capabilities: {}, handlers: { ping: () => ({}) } }]));
    const router = createServerRouter({ serverInfo: { name: "batches", version: "1" }, versions: served as never });
    const server = await serveHttp(router, { onError: () => undefined });
    cleanup.push(() => server.close(), () => router.close());
    const post = (body: string, headers: Record<string, string> = {}) => fetch(server.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body });
    expect(legacy.some((v) => v < "2025-06-18") && legacy.some((v) => v >= "2025-06-18")).toBe(true);
    for (const version of legacy) {
      const init = await post(JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "x", version: "0" } } }));
      expect(((await init.json()) as { result: { protocolVersion: string } }).result.protocolVersion).toBe(version);
      const headers = { "mcp-session-id": init.headers.get("mcp-session-id")!, "mcp-protocol-version": version };
      const batch = await post('[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":"b","method":"ping"}]', headers);
      const body = await batch.text();
      if (version < "2025-06-18") {
        expect(batch.status, version).toBe(200);
        expect(body).toContain('data: {"jsonrpc":"2.0","id":1,"result":{}}');
        expect(body).toContain('data: {"jsonrpc":"2.0","id":"b","result":{}}');
      } else {
        expect(batch.status, version).toBe(400);
        expect(JSON.parse(body)).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: `Invalid Request: JSON-RPC batches are not supported in protocol version ${version}` } });
      }
    }
  });

  it("ttlMs 0: the task is readable while it runs and once settled (the store keeps it 1 s, at least two poll intervals, after its last change)", async () => {
    const s = await taskServer();
    const created = (await s.call("a", "fast", {})).body.result!;
    const zero = (await s.call("a", "slow", { ttlMs: 0 })).body.result!;
    expect(zero.ttlMs).toBe(0);
    expect((await s.get("a", zero.taskId as string)).body.result).toMatchObject({ status: "working", ttlMs: 0 });
    expect((await s.send("a", "tasks/cancel", { taskId: zero.taskId }, zero.taskId as string)).body.result).toEqual({ resultType: "complete" });
    expect((await s.get("a", zero.taskId as string)).body.result).toMatchObject({ status: "cancelled", ttlMs: 0 });
    expect(created.resultType).toBe("task");
  });

  it("inputRequests keys are unique per task: reissuing a key fails the task instead of taking a stale answer", async () => {
    const s = await taskServer();
    const id = (await s.call("a", "reuse")).body.result!.taskId as string;
    await expect.poll(async () => (await s.get("a", id)).body.result?.status, { timeout: 5000 }).toBe("input_required");
    await s.send("a", "tasks/update", { taskId: id, inputResponses: { q: { action: "accept", content: {} } } }, id);
    await s.extension.idle();
    const settled = (await s.get("a", id)).body.result!;
    expect(settled.status).toBe("failed");
    expect(settled.error).toEqual({ code: -32603, message: "Internal error: inputRequests key q was issued before in this task (a key is unique over a task's lifetime)" });
  });
});
