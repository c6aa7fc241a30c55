// Scale-out of the Python runtime on a real Redis (started on loopback here, stopped by its pid): two Python
// server processes (redis_server.py: the generated router with redis.create_redis_fanout, the Tasks extension over
// redis.create_redis_task_store) and one TypeScript process (test/transports/fixtures/cluster-server.ts, on the
// TypeScript runtime/redis) share one Redis and one prefix. Each request is sent to a chosen process:
// - a publish made on any process, Python or TypeScript, reaches the listen streams of all three, once each;
// - a task created through one process is read, watched (notifications/tasks on a listen) and cancelled through
//   another, across languages, and the work is cancelled in the process running it;
// - a task belongs to its creator's principal (the x-principal header of the Python processes): to another,
//   through any process, it is exactly an unknown task.
import { type ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TASKS_EXTENSION } from "../../../generated/runtime/tasks.js";
import { lockedLabels, root, schemaMethods, stopChild } from "../../support.js";
import { type RedisServer, startRedis } from "../../transports/redis-server.js";
import { MODERN } from "../../transports/support.js";
import { pythonBin, pythonTestDir, pythonTree, run } from "./support.js";

const PREFIX = "mixed:";
let redis: RedisServer;
const children: ChildProcess[] = [];
let py1: string;
let py2: string;
let ts: string;
let tsPid: number;

function start(command: string, args: string[], env: Record<string, string> = {}): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(command, args, { cwd: root, stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, ...env } });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    child.once("exit", (code) => reject(new Error(`${path.basename(args[args.length - 3] ?? command)} exited (${code}): ${out}`)));
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      const m = /listening (\S+)/.exec(out);
      if (m !== null) resolve({ child, url: m[1] });
    });
  });
}

const startPython = () => start(pythonBin(), [path.join(pythonTestDir, "redis_server.py"), redis.url, PREFIX], { PYTHONPATH: pythonTree, PYTHONDONTWRITEBYTECODE: "1" });

beforeAll(async () => {
  redis = await startRedis();
  const [a, b, t] = await Promise.all([startPython(), startPython(), start(process.execPath, ["--import", "tsx", path.join(root, "test", "transports", "fixtures", "cluster-server.ts"), redis.url, PREFIX])]);
  [py1, py2, ts, tsPid] = [a.url, b.url, t.url, t.child.pid!];
}, 60_000);

afterAll(async () => {
  await Promise.all(children.map(stopChild));
  await redis?.dispose();
});

const meta = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} };
/** A request's _meta negotiating the Tasks extension. */
const taskMeta = { ...meta, "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS_EXTENSION]: {} } } };
const headers = (method: string, name: string | undefined, principal: string | undefined) => ({
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": MODERN,
  "mcp-method": method,
  ...(name === undefined ? {} : { "mcp-name": name }),
  ...(principal === undefined ? {} : { "x-principal": principal }),
});

let nextId = 1;

/** One MODERN request to the process at `url`, negotiating the Tasks extension; its result or error. */
async function request(url: string, method: string, params: Record<string, unknown>, options: { principal?: string; name?: string } = {}): Promise<{ result?: Record<string, unknown>; error?: { code: number; message: string } }> {
  const id = nextId++;
  const name = options.name ?? (typeof params.name === "string" ? params.name : typeof params.taskId === "string" ? params.taskId : undefined);
  const response = await fetch(url, { method: "POST", headers: headers(method, name, options.principal), body: JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: taskMeta } }) });
  const body = (await response.json()) as { id: number; result?: Record<string, unknown>; error?: { code: number; message: string } };
  expect(body.id).toBe(id);
  return { result: body.result, error: body.error };
}

const textOf = (result: Record<string, unknown> | undefined) => (result?.content as { text: string }[] | undefined)?.[0]?.text;

/** A subscriptions/listen stream held open at `url`: the notifications it receives, by method. */
function listen(url: string, notifications: Record<string, unknown>, principal?: string): { received: (method: string) => Record<string, unknown>[]; acknowledged: Promise<void>; close(): void } {
  const messages: { method: string; params: Record<string, unknown> }[] = [];
  let acknowledge!: () => void;
  const acknowledged = new Promise<void>((resolve) => (acknowledge = resolve));
  let buffer = "";
  const req = http.request(url, { method: "POST", headers: headers("subscriptions/listen", undefined, principal) }, (res) => {
    res.on("data", (c: Buffer) => {
      buffer += c.toString();
      for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = event
          .split("\n")
          .filter((l) => l.startsWith("data:"))
          .map((l) => l.slice(5).trim())
          .join("\n");
        if (data === "") continue;
        const message = JSON.parse(data) as { method?: string; params?: Record<string, unknown> };
        if (message.method === "notifications/subscriptions/acknowledged") acknowledge();
        if (typeof message.method === "string") messages.push({ method: message.method, params: message.params ?? {} });
      }
    });
  });
  req.on("error", () => undefined);
  req.end(JSON.stringify({ jsonrpc: "2.0", id: nextId++, method: "subscriptions/listen", params: { notifications, _meta: taskMeta } }));
  return { received: (method) => messages.filter((m) => m.method === method).map((m) => m.params), acknowledged, close: () => req.destroy() };
}

const settle = () => new Promise((r) => setTimeout(r, 300));

describe("the Redis TaskStore (redis_store.py: two stores on one Redis)", () => {
  it("expires as expires_at says, refuses a duplicate, reads many in order, loses no concurrent update, leaves a terminal task as it is, and tells watchers of every change until they stop", () => {
    // A createdAt ahead of the clock, so that no task expires while the script runs (the ttlMs 0 one's second included).
    const now = new Date(Date.now() + 30_000).toISOString();
    const created = Date.parse(now);
    const r = run("python", [path.join(pythonTestDir, "redis_store.py")], { input: JSON.stringify({ url: redis.url, prefix: "store:", now }) });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    // ttlMs after creation; none for ttlMs null; ttlMs 0 kept 1 s after its last change; one expired already never stored.
    expect(out.expiry).toEqual({ a: created + 60_000, b: -1, c: created + 1000, old: -2 });
    expect(out.stored).toEqual({ taskId: "a", status: "working", createdAt: now, lastUpdatedAt: now, ttlMs: 60_000 });
    expect(out.old).toEqual({ get: null, exists: 0 });
    expect(out.duplicate).toBe("task a exists");
    expect(out.many).toEqual(["b", null, "a"]);
    expect(out.counted).toBe(20);
    expect(out.unchanged).toBe(true);
    const settled = { taskId: "a", status: "completed", createdAt: now, lastUpdatedAt: now, ttlMs: 60_000, n: 20, result: { content: [] } };
    expect(out.settled).toEqual(settled);
    expect(out.terminal).toEqual(settled);
    expect(out.unknown).toBeNull();
    expect(out.seen).toEqual([...Array.from({ length: 20 }, (_, i) => `working ${i + 1}`), "completed 20"]);
    expect(out.heard).toEqual(["first"]);
  }, 30_000);
});

describe("two Python server processes and a TypeScript one sharing one Redis", () => {
  it("serve the Tasks extension at the version the TypeScript fixture serves", () => {
    expect(lockedLabels()).toContain(MODERN);
  });

  it("a publish on any process, Python or TypeScript, reaches the listen streams of all three, once each", async () => {
    const urls = [py1, py2, ts];
    const listeners = urls.map((url) => listen(url, { toolsListChanged: true }));
    await Promise.all(listeners.map((l) => l.acknowledged));
    const counts = () => listeners.map((l) => l.received("notifications/tools/list_changed").length);
    expect(textOf((await request(py1, "tools/call", { name: "announce", arguments: {} })).result)).toBe("announced");
    await expect.poll(counts, { timeout: 10_000 }).toEqual([1, 1, 1]);
    expect(textOf((await request(ts, "tools/call", { name: "announce", arguments: {} })).result)).toBe("announced");
    await expect.poll(counts, { timeout: 10_000 }).toEqual([2, 2, 2]);
    expect(textOf((await request(py2, "tools/call", { name: "announce", arguments: {} })).result)).toBe("announced");
    await expect.poll(counts, { timeout: 10_000 }).toEqual([3, 3, 3]);
    await settle();
    expect(counts()).toEqual([3, 3, 3]);
    for (const l of listeners) l.close();
  });

  it("a legacy session on one Python process hears a publish made on the other", async () => {
    const legacy = lockedLabels().filter((label) => schemaMethods(label).has("initialize"));
    const version = legacy[legacy.length - 1];
    const post = (body: unknown, session?: string) =>
      fetch(py1, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(session === undefined ? {} : { "mcp-session-id": session, "mcp-protocol-version": version }) }, body: JSON.stringify(body) });
    const opened = await post({ jsonrpc: "2.0", id: nextId++, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "legacy", version: "1" } } });
    expect(opened.status).toBe(200);
    await opened.text();
    const session = opened.headers.get("mcp-session-id")!;
    expect(session).toBeTruthy();
    expect((await post({ jsonrpc: "2.0", method: "notifications/initialized" }, session)).status).toBe(202);
    let stream = "";
    const controller = new AbortController();
    const get = await fetch(py1, { headers: { accept: "text/event-stream", "mcp-session-id": session, "mcp-protocol-version": version }, signal: controller.signal });
    expect(get.status).toBe(200);
    const reader = get.body!.getReader();
    void (async () => {
      for (;;) {
        const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
        if (done) return;
        stream += new TextDecoder().decode(value);
      }
    })();
    await settle();
    expect(textOf((await request(py2, "tools/call", { name: "announce", arguments: {} })).result)).toBe("announced");
    await expect.poll(() => stream.split("notifications/tools/list_changed").length - 1, { timeout: 10_000 }).toBe(1);
    controller.abort();
  });

  it("a task created through one Python process is read, watched and cancelled through the other, its work cancelled where it runs; another principal finds no such task", async () => {
    const created = await request(py1, "tools/call", { name: "long-task", arguments: {} }, { principal: "alice" });
    expect(created.error).toBeUndefined();
    const creator = textOf((await request(py1, "tools/call", { name: "whoami", arguments: {} })).result);
    expect(created.result).toMatchObject({ resultType: "task", status: "working", statusMessage: `started by ${creator}`, ttlMs: 60_000, pollIntervalMs: 100 });
    const taskId = created.result!.taskId as string;
    const polled = await request(py2, "tasks/get", { taskId }, { principal: "alice" });
    expect(polled.result).toMatchObject({ taskId, status: "working", statusMessage: `started by ${creator}`, createdAt: created.result!.createdAt, resultType: "complete" });

    // Bob, through either process, gets what an unknown id gets.
    const unknown = await request(py2, "tasks/get", { taskId: "no-such-task" }, { principal: "bob" });
    expect(unknown.error).toEqual({ code: -32602, message: "Failed to retrieve task: Task not found" });
    for (const url of [py1, py2]) {
      expect(await request(url, "tasks/get", { taskId }, { principal: "bob" })).toEqual(unknown);
      expect(await request(url, "tasks/cancel", { taskId }, { principal: "bob" })).toEqual(unknown);
    }
    const bobs = listen(py2, { taskIds: [taskId] }, "bob");
    const alices = listen(py2, { taskIds: [taskId] }, "alice");
    await Promise.all([bobs.acknowledged, alices.acknowledged]);
    await settle(); // the store's watch subscribes to the task's channel

    const cancelled = await request(py2, "tasks/cancel", { taskId }, { principal: "alice" });
    expect(cancelled.result).toEqual({ resultType: "complete" });
    await expect.poll(() => alices.received("notifications/tasks").map((p) => p.status), { timeout: 10_000 }).toEqual(["cancelled"]);
    expect(alices.received("notifications/tasks")[0]).toMatchObject({ taskId, status: "cancelled", statusMessage: "Cancelled by the client" });
    await expect.poll(async () => textOf((await request(py1, "tools/call", { name: "aborted", arguments: {} })).result), { timeout: 10_000 }).toBe(JSON.stringify([taskId]));
    expect((await request(py1, "tasks/get", { taskId }, { principal: "alice" })).result).toMatchObject({ taskId, status: "cancelled" });
    expect(bobs.received("notifications/tasks")).toEqual([]);
    bobs.close();
    alices.close();
  }, 30_000);

  it("a task created by the TypeScript process is read and cancelled through a Python one (its work aborted there), and one a Python process created is read, watched and cancelled through the TypeScript one", async () => {
    // TypeScript → Python (no principal on either side: the TypeScript fixture names none).
    const fromTs = await request(ts, "tools/call", { name: "long-task", arguments: {} });
    expect(fromTs.result).toMatchObject({ resultType: "task", status: "working", statusMessage: `started by ${tsPid}` });
    const tsTask = fromTs.result!.taskId as string;
    expect((await request(py1, "tasks/get", { taskId: tsTask })).result).toMatchObject({ taskId: tsTask, status: "working", statusMessage: `started by ${tsPid}`, createdAt: fromTs.result!.createdAt });
    expect((await request(py1, "tasks/cancel", { taskId: tsTask })).result).toEqual({ resultType: "complete" });
    // The TypeScript work rejects when aborted and the task stays cancelled (a terminal task never changes).
    await settle();
    expect((await request(ts, "tasks/get", { taskId: tsTask })).result).toMatchObject({ taskId: tsTask, status: "cancelled", statusMessage: "Cancelled by the client" });

    // Python → TypeScript.
    const fromPy = await request(py2, "tools/call", { name: "long-task", arguments: {} });
    const pyTask = fromPy.result!.taskId as string;
    const creator = textOf((await request(py2, "tools/call", { name: "whoami", arguments: {} })).result);
    expect((await request(ts, "tasks/get", { taskId: pyTask })).result).toMatchObject({ taskId: pyTask, status: "working", statusMessage: `started by ${creator}` });
    const watching = listen(ts, { taskIds: [pyTask] });
    await watching.acknowledged;
    await settle();
    expect((await request(ts, "tasks/cancel", { taskId: pyTask })).result).toEqual({ resultType: "complete" });
    await expect.poll(() => watching.received("notifications/tasks").map((p) => p.status), { timeout: 10_000 }).toEqual(["cancelled"]);
    await expect.poll(async () => textOf((await request(py2, "tools/call", { name: "aborted", arguments: {} })).result), { timeout: 10_000 }).toBe(JSON.stringify([pyTask]));
    watching.close();

    // A Python task of a principal is, to the TypeScript process (which names none), an unknown task.
    const owned = await request(py1, "tools/call", { name: "long-task", arguments: {} }, { principal: "carol" });
    const ownedId = owned.result!.taskId as string;
    const unknown = await request(ts, "tasks/get", { taskId: "no-such-task" });
    expect(unknown.error).toMatchObject({ code: -32602 });
    expect(await request(ts, "tasks/get", { taskId: ownedId })).toEqual(unknown);
    expect((await request(py1, "tasks/cancel", { taskId: ownedId }, { principal: "carol" })).result).toEqual({ resultType: "complete" });
  }, 30_000);

  it("survive a hung Redis (SIGSTOP): a task request is answered -32603 after the 2 s command timeout, not held; once it runs again so do they", async () => {
    redis.signal("SIGSTOP");
    try {
      const began = Date.now();
      const hung = await request(py2, "tasks/get", { taskId: "any" });
      const took = Date.now() - began;
      expect(hung.error).toMatchObject({ code: -32603 });
      expect(took).toBeGreaterThanOrEqual(1900);
      expect(took).toBeLessThan(6000);
    } finally {
      redis.signal("SIGCONT");
    }
    await expect.poll(async () => (await request(py2, "tasks/get", { taskId: "any" })).error, { timeout: 10_000, interval: 300 }).toEqual({ code: -32602, message: "Failed to retrieve task: Task not found" });
  }, 30_000);

  // Last: it stops Redis.
  it("survive a Redis restart: while it is down a publish is answered -32603 and still reaches its own process's listeners, a task request is answered -32603 at once; afterwards every process hears publishes and serves tasks again", async () => {
    const listeners = [py1, py2, ts].map((url) => listen(url, { toolsListChanged: true }));
    await Promise.all(listeners.map((l) => l.acknowledged));
    const counts = () => listeners.map((l) => l.received("notifications/tools/list_changed").length);
    await redis.stop();
    const failed = await request(py1, "tools/call", { name: "announce", arguments: {} });
    expect(failed.error).toMatchObject({ code: -32603 });
    await expect.poll(counts).toEqual([1, 0, 0]);
    const began = Date.now();
    expect((await request(py2, "tasks/get", { taskId: "any" })).error).toMatchObject({ code: -32603 });
    expect(Date.now() - began).toBeLessThan(1500); // not after the 2 s command timeout: refused at once
    await redis.start();
    // The subscriptions reconnect and re-subscribe by themselves; announce from each Python process until all hear it.
    for (const url of [py2, py1]) {
      const before = counts();
      await expect
        .poll(
          async () => {
            await request(url, "tools/call", { name: "announce", arguments: {} });
            return counts().every((n, i) => n > before[i]);
          },
          { timeout: 20_000, interval: 500 },
        )
        .toBe(true);
    }
    const created = await request(py1, "tools/call", { name: "long-task", arguments: {} });
    const taskId = created.result!.taskId as string;
    expect((await request(py2, "tasks/get", { taskId })).result).toMatchObject({ taskId, status: "working" });
    expect((await request(py2, "tasks/cancel", { taskId })).result).toEqual({ resultType: "complete" });
    for (const l of listeners) l.close();
  }, 60_000);
});
