// The Redis TaskStore (runtime/redis) across real processes sharing one real Redis: a task created in one
// process is read, updated, watched and cancelled in others, concurrent updates never lose one, a
// SIGKILLed process loses no task, and a Redis restart is survived (operations fail cleanly while it is
// down, then recover). Also the fanout between two routers in this process.
import { type ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServerRouter } from "../../generated/router.js";
import { createRedisFanout } from "../../generated/runtime/redis.js";
import { serveHttp } from "../../generated/runtime/transport-http.js";
import type { TaskRecord } from "../../generated/runtime/task-store.js";
import { MODERN } from "./support.js";
import { type RedisServer, startRedis } from "./redis-server.js";

const worker = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures", "task-worker.ts");
let redis: RedisServer;
const children: ChildProcess[] = [];
beforeAll(async () => {
  redis = await startRedis({ persist: true });
}, 30_000);
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, "SIGKILL");
  await redis?.dispose();
});

interface Worker {
  child: ChildProcess;
  events: TaskRecord[];
  run(command: Record<string, unknown>): Promise<{ ok: boolean; value?: unknown; error?: string }>;
}

async function startWorker(prefix: string): Promise<Worker> {
  const child = spawn(process.execPath, ["--import", "tsx", worker, redis.url, prefix], { stdio: ["pipe", "pipe", "inherit"] });
  children.push(child);
  const waiting = new Map<number, (answer: { ok: boolean; value?: unknown; error?: string }) => void>();
  const events: TaskRecord[] = [];
  let seq = 0;
  const ready = new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`worker exited (${code})`)));
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const message = JSON.parse(line) as { ready?: true; seq?: number; event?: TaskRecord; ok: boolean };
      if (message.ready) return resolve();
      if (message.event !== undefined) return void events.push(message.event);
      const { seq: n, ...answer } = message;
      waiting.get(n!)?.(answer);
      waiting.delete(message.seq!);
    });
  });
  await ready;
  return {
    child,
    events,
    run: (command) =>
      new Promise((resolve) => {
        const n = seq++;
        waiting.set(n, resolve);
        child.stdin!.write(JSON.stringify({ ...command, seq: n }) + "\n");
      }),
  };
}

const task = (taskId: string, ttlMs: number | null = 60_000): TaskRecord => {
  const now = new Date().toISOString();
  return { taskId, status: "working", createdAt: now, lastUpdatedAt: now, ttlMs, pollInterval: 100 };
};

describe("the Redis TaskStore across processes", () => {
  it("a task created in one process is read, watched, updated and cancelled in others; a terminal task stays as it is", async () => {
    const [a, b, c] = await Promise.all(["p1:", "p1:", "p1:"].map(startWorker));
    const t = task("t-1");
    expect(await a.run({ op: "create", task: t })).toEqual({ ok: true, value: null });
    expect(await a.run({ op: "create", task: t })).toMatchObject({ ok: false, error: "task t-1 exists" });
    expect(await b.run({ op: "get", taskId: "t-1" })).toEqual({ ok: true, value: t });
    expect(await c.run({ op: "get", taskId: "nope" })).toEqual({ ok: true, value: null });

    await c.run({ op: "watch", taskId: "t-1" });
    await new Promise((r) => setTimeout(r, 300)); // the subscription is confirmed asynchronously
    const updated = await b.run({ op: "update", taskId: "t-1", set: { status: "input_required" } });
    expect(updated).toMatchObject({ ok: true, value: { taskId: "t-1", status: "input_required", createdAt: t.createdAt } });
    const cancelled = await a.run({ op: "update", taskId: "t-1", set: { status: "cancelled" } });
    expect(cancelled).toMatchObject({ ok: true, value: { status: "cancelled" } });
    await expect.poll(() => c.events.map((e) => e.status)).toEqual(["input_required", "cancelled"]);
    // Terminal: an update leaves it, and answers it as stored.
    expect(await b.run({ op: "update", taskId: "t-1", set: { status: "working" } })).toEqual({ ok: true, value: (cancelled.value as TaskRecord) });
    expect(await c.run({ op: "get", taskId: "t-1" })).toEqual({ ok: true, value: cancelled.value });
    expect(await c.run({ op: "update", taskId: "unknown", set: { status: "failed" } })).toEqual({ ok: true, value: null });
  }, 60_000);

  it("concurrent updates from three processes are each applied once", async () => {
    const workers = await Promise.all(["p2:", "p2:", "p2:"].map(startWorker));
    await workers[0].run({ op: "create", task: task("counted") });
    await Promise.all(workers.flatMap((w) => Array.from({ length: 40 }, () => w.run({ op: "increment", taskId: "counted" }))));
    expect(await workers[1].run({ op: "get", taskId: "counted" })).toMatchObject({ ok: true, value: { count: 120 } });
  }, 60_000);

  it("a task expires ttlMs after createdAt", async () => {
    const [a, b] = await Promise.all(["p3:", "p3:"].map(startWorker));
    await a.run({ op: "create", task: task("short", 300) });
    expect(await b.run({ op: "get", taskId: "short" })).toMatchObject({ ok: true, value: { taskId: "short" } });
    await expect.poll(async () => (await b.run({ op: "get", taskId: "short" })).value, { timeout: 5_000 }).toBeNull();
    await a.run({ op: "create", task: task("forever", null) });
    expect(await b.run({ op: "get", taskId: "forever" })).toMatchObject({ ok: true, value: { ttlMs: null } });
  }, 60_000);

  it("a SIGKILLed process loses no task, and a Redis restart is survived: operations fail while it is down, then recover", async () => {
    const [a, b] = await Promise.all(["p4:", "p4:"].map(startWorker));
    await a.run({ op: "create", task: task("mid-task") });
    await a.run({ op: "update", taskId: "mid-task", set: { statusMessage: "halfway" } });
    process.kill(a.child.pid!, "SIGKILL");
    expect(await b.run({ op: "update", taskId: "mid-task", set: { status: "completed" } })).toMatchObject({ ok: true, value: { status: "completed", statusMessage: "halfway" } });
    const fresh = await startWorker("p4:");
    expect(await fresh.run({ op: "get", taskId: "mid-task" })).toMatchObject({ ok: true, value: { status: "completed" } });

    await redis.stop();
    const down = await b.run({ op: "get", taskId: "mid-task" });
    expect(down.ok).toBe(false);
    expect(await b.run({ op: "create", task: task("while-down") })).toMatchObject({ ok: false });
    await redis.start();
    await expect.poll(async () => (await b.run({ op: "get", taskId: "mid-task" })).ok, { timeout: 15_000 }).toBe(true);
    expect(await b.run({ op: "get", taskId: "mid-task" })).toMatchObject({ ok: true, value: { status: "completed", statusMessage: "halfway" } });
    expect(await fresh.run({ op: "create", task: task("after-restart") })).toEqual({ ok: true, value: null });
  }, 60_000);
});

describe("the Redis fanout", () => {
  it("carries router.publish to another process's listen stream once, and to the publisher's own listeners once", async () => {
    const servers = await Promise.all(
      [0, 1].map(async () => {
        const fanout = await createRedisFanout({ url: redis.url, prefix: "fan:", onError: () => undefined });
        const router = createServerRouter({
          serverInfo: { name: "fan", version: "1" },
          fanout,
          versions: { [MODERN]: { capabilities: { tools: { listChanged: true } }, handlers: { "tools/list": () => ({ tools: [], ttlMs: 0, cacheScope: "public" as const }) } } },
        });
        const server = await serveHttp(router);
        return { fanout, router, server };
      }),
    );
    try {
      const seen = servers.map(() => 0);
      servers.forEach(({ server }, i) => {
        const req = http.request(server.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN, "mcp-method": "subscriptions/listen" } }, (res) => {
          res.on("data", (c: Buffer) => (seen[i] += c.toString().split("notifications/tools/list_changed").length - 1));
        });
        req.on("error", () => undefined);
        req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "subscriptions/listen", params: { notifications: { toolsListChanged: true }, _meta: { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} } } }));
      });
      await expect.poll(() => servers.every((s) => s.router.inFlight === 1)).toBe(true);
      await new Promise((r) => setTimeout(r, 200));
      await servers[0].router.publish("notifications/tools/list_changed");
      await expect.poll(() => seen).toEqual([1, 1]);
      await new Promise((r) => setTimeout(r, 200));
      expect(seen).toEqual([1, 1]);
    } finally {
      for (const s of servers) {
        s.router.close();
        await s.server.close();
        await s.fanout.close();
      }
    }
  }, 30_000);
});
