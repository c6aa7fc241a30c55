// The Tasks extension in the generated router and the task runtime, message by message: what a request
// that does not negotiate the extension gets, the lifecycle through the store, notifications/tasks on a
// subscriptions/listen stream; the in-memory TaskStore's contract; and, read from the lock and the
// model, that a core version no extension names has none (its tasks, if any, are its own core methods).
import { describe, expect, it } from "vitest";
import { createServerRouter } from "../../../generated/router.js";
import type * as ext from "../../../generated/2026-07-28+tasks/index.js";
import { createMemoryTaskStore, type TaskRecord } from "../../../generated/runtime/task-store.js";
import { task, tasksExtension, TASKS_EXTENSION, type TaskControl } from "../../../generated/runtime/tasks.js";
import { buildModel } from "../../../generator/pipeline.js";
import { readLock } from "../../../generator/source/lock.js";
import { ensureSchemas, lockFile, modelOptions } from "../../../test/support.js";

const VERSION = "2026-07-28";
type Handlers = Omit<ext.ServerHandlers, "server/discover" | "subscriptions/listen">;
const text = (t: string) => ({ type: "text" as const, text: t });

function meta(withTasks: boolean) {
  return {
    "io.modelcontextprotocol/protocolVersion": VERSION,
    "io.modelcontextprotocol/clientCapabilities": withTasks ? { extensions: { [TASKS_EXTENSION]: {} } } : {},
  };
}
const missing = { code: -32021, message: "Missing required client capability", data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } };

function setup() {
  const store = createMemoryTaskStore();
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const extension = tasksExtension<Handlers>({
    store,
    ttlMs: 60_000,
    pollIntervalMs: 25,
    handlers: {
      "tools/call": ({ name }) => {
        if (name === "optional") return task(async () => ({ content: [text("ran")] }), { support: "optional" }) as never;
        if (name === "broken") return task(() => Promise.reject(new Error("secret detail"))) as never;
        if (name === "protocol") return task(() => Promise.reject(Object.assign(new Error("Not allowed"), { code: -32042, data: { why: "x" } }))) as never;
        return task(async (t: TaskControl) => {
          await released;
          return { content: [text(`done ${t.taskId.length}`)] };
        }) as never;
      },
    },
  });
  const router = createServerRouter({
    serverInfo: { name: "t", version: "1" },
    versions: { [VERSION]: { handlers: { "tools/list": () => ({ tools: [], ttlMs: 0, cacheScope: "public" }) }, capabilities: { tools: {} }, extensions: { [TASKS_EXTENSION]: extension } } },
  });
  let id = 0;
  const call = (method: string, params: Record<string, unknown>, withTasks = true, send?: (m: unknown) => void) =>
    router.handle({ jsonrpc: "2.0", id: ++id, method, params: { ...params, _meta: meta(withTasks) } }, send === undefined ? {} : { send: async (m) => send(m) }) as Promise<{ result?: Record<string, unknown>; error?: unknown }>;
  return { store, extension, router, call, release };
}

describe("the Tasks extension served by the generated router at 2026-07-28", () => {
  it("advertises the extension under capabilities.extensions in server/discover", async () => {
    const { call } = setup();
    const discovered = await call("server/discover", {}, false);
    expect((discovered.result!.capabilities as Record<string, unknown>).extensions).toEqual({ [TASKS_EXTENSION]: {} });
  });

  it("refuses every task method with -32021 naming the extension when the request does not negotiate it", async () => {
    const { call } = setup();
    for (const [method, params] of [
      ["tasks/get", { taskId: "x" }],
      ["tasks/update", { taskId: "x", inputResponses: {} }],
      ["tasks/cancel", { taskId: "x" }],
    ] as const) {
      expect((await call(method, params, false)).error, method).toEqual(missing);
    }
    // A required task tool, and a listen asking for task notifications: the same error.
    expect((await call("tools/call", { name: "slow" }, false)).error).toEqual(missing);
    expect((await call("subscriptions/listen", { notifications: { taskIds: ["x"] } }, false, () => undefined)).error).toEqual(missing);
  });

  it("runs an optional task tool synchronously for a request without the extension", async () => {
    const { call, store } = setup();
    const answered = await call("tools/call", { name: "optional" }, false);
    expect(answered.result).toEqual({ content: [text("ran")], resultType: "complete" });
    expect(answered.result).not.toHaveProperty("taskId");
    void store;
  });

  it("stores a task before its CreateTaskResult, reports it working, then completed with the result", async () => {
    const { call, store, release, extension } = setup();
    const created = (await call("tools/call", { name: "slow" })).result!;
    expect(created).toMatchObject({ resultType: "task", status: "working", ttlMs: 60_000, pollIntervalMs: 25 });
    const taskId = created.taskId as string;
    expect((await store.get(taskId))?.status).toBe("working");
    const polled = (await call("tasks/get", { taskId })).result!;
    expect(polled).toEqual({ taskId, status: "working", createdAt: created.createdAt, lastUpdatedAt: created.lastUpdatedAt, ttlMs: 60_000, pollIntervalMs: 25, resultType: "complete" });
    release();
    await extension.idle();
    const done = (await call("tasks/get", { taskId })).result!;
    expect(done).toMatchObject({ status: "completed", result: { content: [text(`done ${taskId.length}`)], resultType: "complete" }, resultType: "complete" });
  });

  it("settles a task failed: a JSON-RPC error as thrown, anything else as -32603 without detail", async () => {
    const { call, extension } = setup();
    const broken = (await call("tools/call", { name: "broken" })).result!.taskId as string;
    const protocol = (await call("tools/call", { name: "protocol" })).result!.taskId as string;
    await extension.idle();
    expect((await call("tasks/get", { taskId: broken })).result).toMatchObject({ status: "failed", error: { code: -32603, message: "Internal error" } });
    expect((await call("tasks/get", { taskId: protocol })).result).toMatchObject({ status: "failed", error: { code: -32042, message: "Not allowed", data: { why: "x" } } });
    expect((await call("tasks/get", { taskId: protocol })).result).not.toHaveProperty("result");
  });

  it("answers an unknown taskId with -32602, and a cancel of a terminal task with the empty ack", async () => {
    const { call, extension } = setup();
    expect((await call("tasks/get", { taskId: "no-such-task" })).error).toMatchObject({ code: -32602 });
    const taskId = (await call("tools/call", { name: "broken" })).result!.taskId as string;
    await extension.idle();
    expect((await call("tasks/cancel", { taskId })).result).toEqual({ resultType: "complete" });
    expect((await call("tasks/get", { taskId })).result).toMatchObject({ status: "failed" });
  });

  it("sends notifications/tasks for the listened taskIds on the subscriptions/listen stream", async () => {
    const { call, release, router } = setup();
    const taskId = (await call("tools/call", { name: "slow" })).result!.taskId as string;
    const sent: Array<{ method?: string; params?: Record<string, unknown> }> = [];
    const listening = call("subscriptions/listen", { notifications: { taskIds: [taskId, "unknown"] } }, true, (m) => sent.push(m as never));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sent[0]).toMatchObject({ method: "notifications/subscriptions/acknowledged", params: { notifications: { taskIds: [taskId] } } });
    release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const statuses = sent.filter((m) => m.method === "notifications/tasks").map((m) => m.params!.status);
    expect(statuses).toEqual(["completed"]);
    expect(sent.find((m) => m.method === "notifications/tasks")!.params).toMatchObject({ taskId, result: { content: [text(`done ${taskId.length}`)] } });
    router.close();
    await listening;
  });
});

describe("createMemoryTaskStore", () => {
  const base = (taskId: string, ttlMs: number | null, createdAt = new Date(1000).toISOString()): TaskRecord => ({ taskId, status: "working", createdAt, lastUpdatedAt: createdAt, ttlMs });

  it("rejects a second create of the same taskId", async () => {
    const store = createMemoryTaskStore();
    await store.create(base("a", null));
    await expect(store.create(base("a", null))).rejects.toThrow();
  });

  it("forgets a task ttlMs after createdAt but not within 1 s of its last change (get and update answer undefined), never for ttlMs null", async () => {
    let now = 1000;
    const store = createMemoryTaskStore({ now: () => now });
    await store.create(base("a", 500));
    await store.create(base("b", null));
    await store.create(base("c", 5000));
    now = 1999;
    expect((await store.get("a"))?.taskId).toBe("a");
    now = 2000;
    expect(await store.get("a")).toBeUndefined();
    now = 5999;
    expect((await store.get("c"))?.taskId).toBe("c");
    now = 6000;
    expect(await store.get("c")).toBeUndefined();
    expect(await store.update("a", (t) => ({ ...t, status: "completed" }))).toBeUndefined();
    now = 10 ** 12;
    expect((await store.get("b"))?.taskId).toBe("b");
  });

  it("replaces by change(current), leaves it when change returns undefined, and never changes a terminal task", async () => {
    const store = createMemoryTaskStore();
    await store.create(base("a", null));
    const seen: string[] = [];
    const stop = store.watch("a", (t) => seen.push(t.status));
    expect((await store.update("a", (t) => ({ ...t, status: "input_required" })))?.status).toBe("input_required");
    expect((await store.update("a", () => undefined))?.status).toBe("input_required");
    expect((await store.update("a", (t) => ({ ...t, status: "cancelled" })))?.status).toBe("cancelled");
    let called = false;
    expect((await store.update("a", (t) => ((called = true), { ...t, status: "completed" })))?.status).toBe("cancelled");
    expect(called).toBe(false);
    stop();
    await store.update("b", (t) => t);
    expect(seen).toEqual(["input_required", "cancelled"]);
  });
});

describe("core versions no extension names", () => {
  it("have no extension module, and the extension's methods they have are their own core methods", async () => {
    await ensureSchemas();
    const lock = await readLock(lockFile);
    const model = buildModel({ ...modelOptions, lock });
    const named = new Set(Object.values(lock.extensions ?? {}).flatMap((e) => Object.values(e.versions).flatMap((v) => v.core)));
    const extensions = model.extensions ?? [];
    expect(extensions.length).toBeGreaterThan(0);
    const added = new Set(extensions.flatMap((e) => [...e.requests, ...e.notifications]));
    let checked = 0;
    for (const version of model.versions.filter((v) => !named.has(v.label))) {
      expect(extensions.filter((e) => e.core === version.label)).toEqual([]);
      for (const r of version.requests.filter((m) => added.has(m.method))) {
        // A core request of that version, defined by its own schema (2025-11-25's tasks/get is GetTaskRequest of the core).
        expect(version.definitions[r.definition], `${version.label} ${r.method}`).toBeDefined();
        checked++;
      }
    }
    // Some locked core version has tasks of its own (if none did, the loop above would check nothing).
    expect(checked).toBeGreaterThan(0);
  });
});

describe("two routers sharing one TaskStore (as processes sharing a Redis store would)", () => {
  it("answer each other's tasks: tasks/update and tasks/cancel sent to B reach the work running in A", async () => {
    const store = createMemoryTaskStore();
    const aborted: string[] = [];
    const make = () =>
      createServerRouter({
        serverInfo: { name: "shared", version: "1" },
        versions: {
          [VERSION]: {
            handlers: {},
            capabilities: {},
            extensions: {
              [TASKS_EXTENSION]: tasksExtension<Handlers>({
                store,
                handlers: {
                  "tools/call": ({ name }) =>
                    task(async (t: TaskControl) => {
                      t.signal.addEventListener("abort", () => aborted.push(t.taskId));
                      if (name === "ask") {
                        const answers = await t.input({ q: { method: "elicitation/create", params: { mode: "form", message: "?", requestedSchema: { type: "object", properties: {} } } } });
                        return { content: [text(JSON.stringify(answers.q))] };
                      }
                      await new Promise((resolve) => t.signal.addEventListener("abort", resolve));
                      return { content: [text("never")] };
                    }) as never,
                },
              }),
            },
          },
        },
      });
    const [a, b] = [make(), make()];
    let id = 0;
    const on = (router: typeof a, method: string, params: Record<string, unknown>) =>
      router.handle({ jsonrpc: "2.0", id: ++id, method, params: { ...params, _meta: meta(true) } }) as Promise<{ result?: Record<string, unknown> }>;

    const asked = (await on(a, "tools/call", { name: "ask" })).result!.taskId as string;
    for (let i = 0; i < 50 && (await store.get(asked))?.status !== "input_required"; i++) await new Promise((resolve) => setTimeout(resolve, 2));
    expect((await on(b, "tasks/get", { taskId: asked })).result).toMatchObject({ status: "input_required", inputRequests: { q: { method: "elicitation/create" } } });
    expect((await on(b, "tasks/update", { taskId: asked, inputResponses: { q: { action: "accept", content: { x: 1 } } } })).result).toEqual({ resultType: "complete" });
    for (let i = 0; i < 50 && (await store.get(asked))?.status !== "completed"; i++) await new Promise((resolve) => setTimeout(resolve, 2));
    expect((await on(b, "tasks/get", { taskId: asked })).result).toMatchObject({ status: "completed", result: { content: [text('{"action":"accept","content":{"x":1}}')] } });

    const slow = (await on(a, "tools/call", { name: "slow" })).result!.taskId as string;
    await on(b, "tasks/cancel", { taskId: slow });
    expect(aborted).toEqual([slow]);
    expect((await on(a, "tasks/get", { taskId: slow })).result).toMatchObject({ status: "cancelled" });
  });
});
