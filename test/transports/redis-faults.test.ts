// Issue 28 with a real redis-server (Debian's, on a loopback port, stopped by pid): tasks bound to their
// principal in the Redis store; ttlMs 0 kept by the same rule in both stores; and a Redis that hangs
// (SIGSTOP), dies (SIGKILL) or restarts with requests in flight: every request is answered -32603 within the
// command timeout and reported to onError once, `publish` settles, nothing stays in flight, and service
// comes back. Bounded: a handful of requests per phase, each phase well under 10 s.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServerRouter } from "../../generated/router.js";
import { createRedisFanout, createRedisTaskStore } from "../../generated/runtime/redis.js";
import { createMemoryTaskStore, type TaskRecord, type TaskStore } from "../../generated/runtime/task-store.js";
import { task, tasksExtension, TASKS_EXTENSION } from "../../generated/runtime/tasks.js";
import { twoPrincipals } from "./task-principals.js";
import { startRedis, type RedisServer } from "./redis-server.js";

const MODERN = "2026-07-28";
const TIMEOUT = 400;
const meta = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS_EXTENSION]: {} } } };

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
}, 30_000);
afterAll(async () => {
  await redis?.dispose();
});

describe("the Redis TaskStore", () => {
  it("binds tasks to their principal: another principal's tasks/get, tasks/update, tasks/cancel and listen are as for an unknown id", async () => {
    const store = await createRedisTaskStore({ url: redis.url, prefix: "bind:", onError: () => undefined });
    await twoPrincipals(store);
  }, 30_000);

  it("keeps a ttlMs 0 task by the same rule as the in-memory store: readable at once, gone once 1 s passed since its last change", async () => {
    const redisStore = await createRedisTaskStore({ url: redis.url, prefix: "ttl0:", onError: () => undefined });
    const memory = createMemoryTaskStore();
    try {
      for (const store of [memory, redisStore] as TaskStore[]) {
        const at = new Date().toISOString();
        const record: TaskRecord = { taskId: "zero", status: "working", createdAt: at, lastUpdatedAt: at, ttlMs: 0 };
        await store.create(record);
        expect(await store.get("zero")).toEqual(record);
        await expect.poll(() => store.get("zero"), { timeout: 5000, interval: 100 }).toBeUndefined();
      }
    } finally {
      await redisStore.close();
      await memory.close?.();
    }
  }, 20_000);
});

describe("Redis faults with requests in flight (commandTimeoutMs 400)", () => {
  async function setup(prefix: string) {
    const reported: Array<{ error: unknown; method: string }> = [];
    const options = { url: redis.url, prefix, commandTimeoutMs: TIMEOUT, onError: () => undefined };
    const store = await createRedisTaskStore(options);
    const fanout = await createRedisFanout(options);
    const extension = tasksExtension({ store, handlers: { "tools/call": () => task(async () => ({ content: [] })) as never } });
    const router = createServerRouter({
      serverInfo: { name: "faults", version: "1" },
      fanout,
      onError: (error, context) => reported.push({ error, method: context.method }),
      versions: { [MODERN]: { capabilities: { tools: {} }, handlers: { "tools/list": () => ({ tools: [], ttlMs: 0, cacheScope: "public" }) }, extensions: { [TASKS_EXTENSION]: extension } } },
    });
    let id = 0;
    const send = (method: string, params: Record<string, unknown>) =>
      router.handle({ jsonrpc: "2.0", id: ++id, method, params: { ...params, _meta: meta } }) as Promise<{ result?: Record<string, unknown>; error?: { code: number; message: string } }>;
    const created = await send("tools/call", { name: "t", arguments: {} });
    await extension.idle();
    const taskId = created.result!.taskId as string;
    expect((await send("tasks/get", { taskId })).result).toMatchObject({ status: "completed" });
    /** A few requests of each kind that touches the store, timed. */
    const inFlight = () => {
      const started = Date.now();
      const timed = <T>(p: Promise<T>) => p.then((value) => ({ value, ms: Date.now() - started }));
      return Promise.all([
        ...Array.from({ length: 3 }, () => timed(send("tasks/get", { taskId }))),
        timed(send("tools/call", { name: "t", arguments: {} })),
        timed(send("tasks/cancel", { taskId })),
      ]);
    };
    const close = async () => {
      router.close();
      await Promise.allSettled([store.close(), fanout.close()]);
    };
    return { router, send, taskId, inFlight, reported, fanout, close };
  }

  it("SIGSTOP: every request is answered -32603 within the timeout and reported once, publish rejects within it, SIGCONT recovers", async () => {
    const s = await setup("stop:");
    try {
      redis.signal("SIGSTOP");
      const publishing = Date.now();
      const published = await s.router.publish("notifications/tools/list_changed").then(() => "resolved", (e: Error) => e.message);
      expect(Date.now() - publishing).toBeLessThan(TIMEOUT * 5);
      expect(published).toBe(`Redis PUBLISH failed: no answer within ${TIMEOUT} ms (commandTimeoutMs)`);
      const answers = await s.inFlight();
      for (const { value, ms } of answers) {
        expect(value.error).toEqual({ code: -32603, message: "Internal error" });
        expect(ms).toBeLessThan(TIMEOUT * 5);
      }
      expect(s.reported).toHaveLength(answers.length);
      for (const r of s.reported) expect((r.error as Error).message).toMatch(new RegExp(`^Redis (GET|EVAL) failed: no answer within ${TIMEOUT} ms \\(commandTimeoutMs\\)$`));
      expect(s.router.inFlight).toBe(0);
      redis.signal("SIGCONT");
      await expect.poll(async () => (await s.send("tasks/get", { taskId: s.taskId })).result?.status, { timeout: 5000, interval: 100 }).toBe("completed");
    } finally {
      redis.signal("SIGCONT");
      await s.close();
    }
  }, 30_000);

  it("SIGKILL with requests in flight, then a restart: each answered -32603 and reported once, none left in flight, then served again", async () => {
    const s = await setup("kill:");
    try {
      redis.signal("SIGSTOP");
      const pending = s.inFlight();
      await new Promise((resolve) => setTimeout(resolve, 50));
      redis.signal("SIGKILL");
      const answers = await pending;
      for (const { value, ms } of answers) {
        expect(value.error).toEqual({ code: -32603, message: "Internal error" });
        expect(ms).toBeLessThan(TIMEOUT * 5);
      }
      expect(s.reported).toHaveLength(answers.length);
      expect(s.router.inFlight).toBe(0);
      // While it is down: at once, not after a hang.
      const down = Date.now();
      expect((await s.send("tasks/get", { taskId: s.taskId })).error).toEqual({ code: -32603, message: "Internal error" });
      expect(Date.now() - down).toBeLessThan(TIMEOUT * 5);
      await redis.start();
      // Not persisted (no AOF here): the task is gone, the store answers again.
      await expect.poll(async () => (await s.send("tasks/get", { taskId: s.taskId })).error?.code, { timeout: 8000, interval: 100 }).toBe(-32602);
      expect((await s.send("tools/call", { name: "t", arguments: {} })).result).toMatchObject({ resultType: "task" });
    } finally {
      await s.close();
    }
  }, 30_000);

  it("a restart (SIGTERM, start) with requests in flight: each answered, none left in flight, then served again", async () => {
    const s = await setup("restart:");
    try {
      const pending = s.inFlight();
      await redis.stop();
      const answers = await pending;
      for (const { ms } of answers) expect(ms).toBeLessThan(TIMEOUT * 5);
      expect(s.router.inFlight).toBe(0);
      await redis.start();
      await expect.poll(async () => (await s.send("tools/call", { name: "t", arguments: {} })).result?.resultType, { timeout: 8000, interval: 100 }).toBe("task");
    } finally {
      await s.close();
    }
  }, 30_000);
});
