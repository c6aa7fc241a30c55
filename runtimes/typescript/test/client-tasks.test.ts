// The client's store of the tasks it runs for task-augmented server requests (../src/client-tasks.ts), on a
// clock the test moves: the ttl granted, expiry, tasks/list pages, the task limit, a failed handler's error,
// cancellation and the status notifications.
import { describe, expect, it } from "vitest";
import { ClientTasks } from "../src/client-tasks.js";
import { META_RELATED_TASK } from "../protocol.js";

function store(options: ConstructorParameters<typeof ClientTasks>[0] = {}) {
  let now = Date.parse("2026-12-05T08:00:00Z");
  const sent: Array<{ method: string; params: Record<string, unknown> }> = [];
  const tasks = new ClientTasks({ now: () => now, ...options }, (method, params) => sent.push({ method, params }));
  return { tasks, sent, advance: (ms: number) => (now += ms) };
}
const life = new AbortController().signal;
const never = () => new Promise<object>(() => undefined);
const identity = (r: unknown) => r as Record<string, unknown>;
const idOf = (created: Record<string, unknown>) => (created.task as { taskId: string }).taskId;

describe("ClientTasks", () => {
  it("grants the ttl asked for up to maxTtlMs (the most when none is asked), with the poll interval, and forgets a task once its ttl passed", () => {
    const { tasks, advance } = store({ maxTtlMs: 10_000, pollIntervalMs: 250 });
    const short = tasks.create(2_000, never, identity, life);
    expect(short).toEqual({ task: { taskId: expect.any(String), status: "working", createdAt: "2026-12-05T08:00:00.000Z", lastUpdatedAt: "2026-12-05T08:00:00.000Z", ttl: 2_000, pollInterval: 250 } });
    expect((tasks.create(60_000, never, identity, life).task as { ttl: number }).ttl).toBe(10_000);
    expect((tasks.create(undefined, never, identity, life).task as { ttl: number }).ttl).toBe(10_000);
    advance(2_000);
    expect(() => tasks.get(idOf(short))).toThrow(expect.objectContaining({ code: -32602 }));
    expect((tasks.list(undefined).tasks as unknown[]).length).toBe(2);
  });

  it("lists in pages whose cursor is the last task id of the page before; an unknown cursor is -32602", () => {
    const { tasks } = store({ pageSize: 2 });
    const ids = Array.from({ length: 5 }, () => idOf(tasks.create(1000, never, identity, life)));
    const first = tasks.list(undefined);
    expect([(first.tasks as Array<{ taskId: string }>).map((t) => t.taskId), first.nextCursor]).toEqual([ids.slice(0, 2), ids[1]]);
    const last = tasks.list(tasks.list(ids[1]).nextCursor);
    expect([(last.tasks as Array<{ taskId: string }>).map((t) => t.taskId), Object.hasOwn(last, "nextCursor")]).toEqual([[ids[4]], false]);
    expect(() => tasks.list("nope")).toThrow(expect.objectContaining({ code: -32602 }));
  });

  it("refuses a task beyond maxTasks (-32603) once the expired are dropped", () => {
    const { tasks, advance } = store({ maxTasks: 2 });
    tasks.create(1000, never, identity, life);
    tasks.create(5000, never, identity, life);
    expect(() => tasks.create(1000, never, identity, life)).toThrow(expect.objectContaining({ code: -32603 }));
    advance(1000);
    expect(() => tasks.create(1000, never, identity, life)).not.toThrow();
  });

  it("settles completed with the checked result (tasks/result adds the related-task _meta), or failed with the handler's JSON-RPC error; each change notified", async () => {
    const { tasks, sent } = store();
    const ok = idOf(tasks.create(1000, async () => ({ model: "m", _meta: { kept: 1 } }), identity, life));
    expect(await tasks.result(ok, new AbortController().signal)).toEqual({ model: "m", _meta: { kept: 1, [META_RELATED_TASK]: { taskId: ok } } });
    const bad = idOf(tasks.create(1000, async () => Promise.reject(Object.assign(new Error("no"), { code: -32050, data: { why: 1 } })), identity, life));
    await expect(tasks.result(bad, new AbortController().signal)).rejects.toMatchObject({ code: -32050, message: "no", data: { why: 1 } });
    const invalid = idOf(tasks.create(1000, async () => ({}), () => { throw new Error("not a CreateMessageResult"); }, life));
    await expect(tasks.result(invalid, new AbortController().signal)).rejects.toMatchObject({ code: -32603 });
    expect(sent.map((s) => [s.method, s.params.taskId, s.params.status])).toEqual([
      ["notifications/tasks/status", ok, "completed"],
      ["notifications/tasks/status", bad, "failed"],
      ["notifications/tasks/status", invalid, "failed"],
    ]);
  });

  it("cancel aborts the handler's signal and answers the task cancelled; a settled task is -32602; the client's life ending cancels the running ones", async () => {
    const { tasks } = store();
    let signal: AbortSignal | undefined;
    const id = idOf(tasks.create(1000, (s) => ((signal = s), never()), identity, life));
    const waiting = tasks.result(id, new AbortController().signal);
    expect(tasks.cancel(id)).toMatchObject({ taskId: id, status: "cancelled" });
    expect(signal?.aborted).toBe(true);
    await expect(waiting).rejects.toMatchObject({ code: -32603, message: expect.stringContaining("cancelled") });
    expect(() => tasks.cancel(id)).toThrow(expect.objectContaining({ code: -32602 }));
    const ending = new AbortController();
    const running = idOf(tasks.create(1000, never, identity, ending.signal));
    ending.abort();
    expect(tasks.get(running)).toMatchObject({ status: "cancelled", statusMessage: "the client closed" });
  });
});
