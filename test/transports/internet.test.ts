// Issue 28, "serving that can face the internet", finding by finding, on loopback: tasks bound to the
// principal that created them (two principals against one server, every task method and listen, with the
// in-memory store here and Redis in redis-faults.test.ts), authors' tasks/* handlers composed, the bounds
// (tasks, result bytes, TTL, listen ids, requests in flight on HTTP and stdio, idle GET streams), ttlMs 0,
// unique inputRequests keys, Mcp-Name in the base64 form sent by the official 2.4.0 client, and JSON-RPC
// batches per negotiated version.
import { schemaDefinesBatches } from "../scenarios/facts.js";
import { PassThrough } from "node:stream";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from "@modelcontextprotocol/client";
import { afterEach, describe, expect, it } from "vitest";
import { createServerRouter, eras } from "../../generated/router.js";
import { decodeHeaderValue, encodeHeaderValue } from "../../generated/runtime/header-encoding.js";
import { createMemoryTaskStore, type TaskStore } from "../../generated/runtime/task-store.js";
import { serveHttp, type HttpServer } from "../../generated/runtime/transport-http.js";
import { serveStdio } from "../../generated/runtime/transport-stdio.js";
import { runCleanup, taskServer, testCleanup, twoPrincipals, unknownTask } from "./task-principals.js";

const MODERN = "2026-07-28";
const text = (t: string) => ({ type: "text" as const, text: t });

const cleanup = testCleanup;
afterEach(runCleanup);

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
    // The author's refusal is a handler failure and reaches onError; the unknown-id answers do not.
    expect(s.errors.map((e) => (e as Error).message)).toEqual(["carol may not poll"]);
  });

  it("unknown task ids are answered -32602 and never reported: a client probing ids cannot fill the server's logs", async () => {
    const s = await taskServer();
    for (let i = 0; i < 20; i++) expect((await s.get("eve", `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`)).body.error).toEqual(unknownTask);
    expect(s.errors).toEqual([]);
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

  it("listen streams: maxListenStreamsPerPrincipal and maxListenStreams, -32000 naming the limit, reported to onError; a closed stream frees its place", async () => {
    const s = await taskServer({ router: { maxListenStreamsPerPrincipal: 2, maxListenStreams: 3 } });
    const first = await s.listen("alice", []);
    await s.listen("alice", []);
    expect((await s.listen("alice", [])).error).toEqual({ code: -32000, message: "Too many listen streams: 2 are open for this principal (maxListenStreamsPerPrincipal)" });
    expect((await s.listen("bob", [])).ack).toEqual({ taskIds: [] });
    expect((await s.listen("carol", [])).error).toEqual({ code: -32000, message: "Too many listen streams: 3 are open (maxListenStreams)" });
    expect(s.errors.map((e) => (e as Error).message)).toEqual([
      "Too many listen streams: 2 are open for this principal (maxListenStreamsPerPrincipal)",
      "Too many listen streams: 3 are open (maxListenStreams)",
    ]);
    first.close();
    await expect.poll(async () => (await s.listen("alice", [])).ack, { timeout: 5000 }).toEqual({ taskIds: [] });
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

  it("JSON-RPC batches: served in a session whose version's schema defines them, refused -32600 otherwise (read from the schemas)", async () => {
    const legacy = Object.entries(eras).filter(([, era]) => era === "legacy").map(([v]) => v).sort();
    const served = Object.fromEntries(legacy.map((v) => [v, { capabilities: {}, handlers: { ping: () => ({}) } }]));
    const router = createServerRouter({ serverInfo: { name: "batches", version: "1" }, versions: served as never });
    const server = await serveHttp(router, { onError: () => undefined });
    cleanup.push(() => server.close(), () => router.close());
    const post = (body: string, headers: Record<string, string> = {}) => fetch(server.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body });
    // Both outcomes are exercised (the lock has a legacy version that batches and one that does not).
    expect(legacy.some((v) => schemaDefinesBatches(v)) && legacy.some((v) => !schemaDefinesBatches(v))).toBe(true);
    for (const version of legacy) {
      const init = await post(JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "x", version: "0" } } }));
      expect(((await init.json()) as { result: { protocolVersion: string } }).result.protocolVersion).toBe(version);
      const headers = { "mcp-session-id": init.headers.get("mcp-session-id")!, "mcp-protocol-version": version };
      const batch = await post('[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":"b","method":"ping"}]', headers);
      const body = await batch.text();
      if (schemaDefinesBatches(version)) {
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
