// The Python Tasks extension (generated/python/mcp_codegen/tasks.py) served by the Python router, message
// by message: the lifecycle (working → completed, failed, cancelled) through tasks/get, tasks/update and
// tasks/cancel; input requests; ttlMs; tasks bound to their principal (another one gets exactly the
// unknown-id answer, on every method and on listen); the bounds; notifications/tasks on a listen stream.
// Each script runs in the Python router (tasks.py beside this file) and its answers are asserted as written
// here (times as "<time>"). What both runtimes must answer alike over HTTP (create, get, update, cancel, input
// requests, two principals) is data in test/scenarios/http/tasks-*.json, run by both drivers.
import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_STORED_TASKS, DEFAULT_SWEEP_INTERVAL_MS, MIN_RETENTION_MS } from "../../../generated/runtime/task-store.js";
import { LIMIT_REACHED, TASK_LIMITS, TASKS_EXTENSION } from "../../../generated/runtime/tasks.js";
import { readLock } from "../../../generator/source/lock.js";
import { lockFile } from "../../support.js";
import { pythonJson } from "./support.js";

const lock = await readLock(lockFile);
// The modern versions an extension module of Tasks is locked for: the first is served (any would do).
const VERSION = Object.values(lock.extensions?.tasks?.versions ?? {}).flatMap((v) => v.core).filter((c) => Object.hasOwn(lock.versions, c)).sort()[0];

type Step = { op: string; [key: string]: unknown };
interface Script {
  options?: Record<string, number>;
  /** How many routers serve, each with its own tasks extension over the one store. */
  routers?: number;
  /** Author handlers of tasks/get (recorded) and tasks/cancel (recorded, refusing task-1 with -32050). */
  guard?: boolean;
  steps: Step[];
}
type Json = Record<string, any>;
interface Transcript {
  transcript: any[];
  errors: string[];
  /** What the router's error hook heard: `kind method` per handler failure (a PeerError is not one). */
  failures: string[];
  /** The slow tasks whose work saw its cancellation. */
  aborted: string[];
  /** The author's tasks/* handlers' calls. */
  author: string[];
}

const ELICIT = { method: "elicitation/create", params: { mode: "form", message: "?", requestedSchema: { type: "object", properties: {} } } };
const text = (t: string) => ({ type: "text", text: t });

const runPython = (script: Script) => pythonJson<Transcript>("tasks.py", { version: VERSION, ...script });

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
/** A transcript with every createdAt/lastUpdatedAt (each an ISO 8601 time in milliseconds, UTC) as "<time>". */
function timeless(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(timeless);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => {
      if ((k === "createdAt" || k === "lastUpdatedAt") && typeof v === "string") {
        expect(v).toMatch(ISO);
        return [k, "<time>"];
      }
      return [k, timeless(v)];
    }),
  );
}

/** A script run by the Python router, times as "<time>". */
function run(script: Script): Transcript {
  const py = runPython(script);
  return { ...py, transcript: timeless(py.transcript) as any[] };
}

const call = (method: string, params: Json, more: Json = {}): Step => ({ op: "call", method, params, ...more });
const result = (r: any) => r.result;
const error = (r: any) => r.error;
const notFound = { code: -32602, message: "Failed to retrieve task: Task not found" };
const missing = { code: -32021, message: "Missing required client capability", data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } };
const working = (taskId: string, more: Json = {}) => ({ taskId, status: "working", createdAt: "<time>", lastUpdatedAt: "<time>", ttlMs: 60_000, pollIntervalMs: 25, ...more });

describe(`the Python Tasks extension served by the Python router at ${VERSION}`, () => {
  it("is locked for a modern version (the one served here)", () => {
    expect(VERSION).toBeDefined();
    expect(lock.versions[VERSION]).toBeDefined();
  });

  it("lifecycle: stored working before its CreateTaskResult, then completed with the result, failed (a JSON-RPC error as raised, anything else -32603 without detail) or cancelled; get, update and cancel; -32021 without the extension", async () => {
    const steps: Step[] = [
      call("server/discover", {}, { tasks: false }),
      call("tools/call", { name: "slow" }),
      { op: "store", taskId: "task-1" },
      call("tools/call", { name: "status" }),
      { op: "settle" },
      call("tasks/get", { taskId: "task-1" }),
      call("tasks/get", { taskId: "task-2" }),
      call("tasks/cancel", { taskId: "task-2" }),
      call("tasks/get", { taskId: "task-2" }),
      { op: "release" },
      { op: "idle" },
      call("tasks/get", { taskId: "task-1" }),
      call("tools/call", { name: "broken" }),
      call("tools/call", { name: "protocol" }),
      { op: "idle" },
      call("tasks/get", { taskId: "task-3" }),
      call("tasks/get", { taskId: "task-4" }),
      call("tasks/cancel", { taskId: "task-3" }),
      call("tasks/get", { taskId: "task-3" }),
      call("tasks/update", { taskId: "task-1", inputResponses: { q: {} } }),
      call("tasks/get", { taskId: "no-such-task" }),
      call("tasks/update", { taskId: 5 }),
      call("tasks/update", { taskId: "task-1", inputResponses: 3 }),
      call("tools/call", { name: "plain" }),
      call("tools/call", { name: "slow" }, { tasks: false }),
      call("tasks/get", { taskId: "task-1" }, { tasks: false }),
      call("tasks/update", { taskId: "task-1", inputResponses: {} }, { tasks: false }),
      call("tasks/cancel", { taskId: "task-1" }, { tasks: false }),
      call("tools/call", { name: "optional" }, { tasks: false }),
      call("tools/call", { name: "optional" }),
      { op: "idle" },
      call("tasks/get", { taskId: "task-5" }),
    ];
    const py = run({ options: { ttlMs: 60_000, pollIntervalMs: 25 }, steps });
    const t = py.transcript;
    expect(result(t[0]).capabilities.extensions).toEqual({ [TASKS_EXTENSION]: {} });
    expect(result(t[1])).toEqual({ ...working("task-1"), resultType: "task" });
    // Stored before the answer: the store holds it, working.
    expect(t[2]).toEqual(working("task-1"));
    expect(result(t[4])).toEqual({ ...working("task-1"), resultType: "complete" });
    expect(result(t[5])).toEqual({ ...working("task-2", { statusMessage: "halfway" }), resultType: "complete" });
    expect(result(t[6])).toEqual({ resultType: "complete" });
    expect(result(t[7])).toEqual({ ...working("task-2", { status: "cancelled", statusMessage: "Cancelled by the client" }), resultType: "complete" });
    expect(result(t[8])).toEqual({ ...working("task-1", { status: "completed", result: { content: [text("done")], resultType: "complete" } }), resultType: "complete" });
    expect(result(t[11])).toEqual({ ...working("task-3", { status: "failed", error: { code: -32603, message: "Internal error" } }), resultType: "complete" });
    expect(result(t[12])).toEqual({ ...working("task-4", { status: "failed", error: { code: -32042, message: "Not allowed", data: { why: "x" } } }), resultType: "complete" });
    // Cancelling a terminal task is acknowledged and changes nothing; so is an update of a task not waiting for input.
    expect(result(t[13])).toEqual({ resultType: "complete" });
    expect(result(t[14]).status).toBe("failed");
    expect(result(t[15])).toEqual({ resultType: "complete" });
    expect(error(t[16])).toEqual(notFound);
    expect(error(t[17])).toEqual({
      code: -32602,
      message: "Invalid params for tasks/update: /params/taskId, /params/inputResponses: expected a string taskId and an inputResponses object",
      data: { paths: ["/params/taskId", "/params/inputResponses"] },
    });
    expect(error(t[18])).toEqual({ code: -32602, message: "Invalid params for tasks/update: /params/inputResponses: expected a string taskId and an inputResponses object", data: { paths: ["/params/inputResponses"] } });
    expect(result(t[19])).toEqual({ content: [text("plain")], resultType: "complete" });
    for (const i of [20, 21, 22, 23]) expect(error(t[i]), String(i)).toEqual(missing);
    expect(result(t[24])).toEqual({ content: [text("ran")], resultType: "complete" });
    expect(result(t[25])).toEqual({ ...working("task-5"), resultType: "task" });
    expect(result(t[26])).toEqual({ ...working("task-5", { status: "completed", result: { content: [text("ran")], resultType: "complete" } }), resultType: "complete" });
    // The plain failure is reported to on_error, the JSON-RPC one is not.
    expect(py.errors).toEqual(["task-3: secret detail"]);
    for (const [i, id] of [[3, "task-2"], [9, "task-3"], [10, "task-4"]] as const) expect(result(t[i]), String(i)).toEqual({ ...working(id), resultType: "task" });
    // Task failures go to the extension's hook, not the router's; task-2's work saw its cancellation.
    expect(py.failures).toEqual([]);
    expect(py.aborted).toEqual(["task-2 true"]);
    expect(py.author).toEqual([]);
  });

  it("input requests: input_required with the inputRequests, a partial answer leaves the rest pending, keys not outstanding are ignored, the work gets every response; a key issued twice fails the task", async () => {
    const steps: Step[] = [
      call("tools/call", { name: "ask", arguments: { keys: ["a", "b"] } }),
      { op: "listen", params: { notifications: { taskIds: ["task-1"] } } },
      { op: "settle" },
      call("tasks/get", { taskId: "task-1" }),
      call("tasks/update", { taskId: "task-1", inputResponses: { a: { action: "accept", content: { x: 1 } }, zz: 5 } }),
      { op: "settle" },
      call("tasks/get", { taskId: "task-1" }),
      call("tasks/update", { taskId: "task-1", inputResponses: { a: { action: "decline" }, b: { action: "decline" } } }),
      { op: "idle" },
      { op: "settle" },
      call("tasks/get", { taskId: "task-1" }),
      call("tools/call", { name: "ask", arguments: { again: true } }),
      { op: "settle" },
      call("tasks/update", { taskId: "task-2", inputResponses: { q: { action: "cancel" } } }),
      { op: "idle" },
      call("tasks/get", { taskId: "task-2" }),
      { op: "close" },
    ];
    const py = run({ options: { ttlMs: 60_000, pollIntervalMs: 25 }, steps });
    const t = py.transcript;
    const asks = (...keys: string[]) => Object.fromEntries(keys.map((k) => [k, ELICIT]));
    expect(result(t[0])).toEqual({ ...working("task-1"), resultType: "task" });
    expect(result(t[2])).toEqual({ ...working("task-1", { status: "input_required", inputRequests: asks("a", "b") }), resultType: "complete" });
    expect(result(t[3])).toEqual({ resultType: "complete" });
    expect(result(t[4])).toEqual({ ...working("task-1", { status: "input_required", inputRequests: asks("b") }), resultType: "complete" });
    // `a` was answered already: its second response is ignored.
    expect(result(t[6]).result).toEqual({ content: [text('{"a":{"action":"accept","content":{"x":1}},"b":{"action":"decline"}}')], resultType: "complete" });
    expect(result(t[6]).status).toBe("completed");
    expect(result(t[9])).toEqual({
      ...working("task-2", { status: "failed", error: { code: -32603, message: "Internal error: inputRequests key q was issued before in this task (a key is unique over a task's lifetime)" } }),
      resultType: "complete",
    });
    // The listen stream: acknowledged, then every change of task-1 as notifications/tasks, on the stream (its subscription id).
    const stream = t[10] as { answer: unknown; sent: Array<{ method: string; params: Json }> };
    const tag = { "io.modelcontextprotocol/subscriptionId": 2 };
    expect(stream.answer).toEqual({ jsonrpc: "2.0", id: 2, result: { _meta: tag, resultType: "complete" } });
    expect(stream.sent[0]).toEqual({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: { taskIds: ["task-1"] }, _meta: tag } });
    const notified = stream.sent.slice(1);
    expect(notified.every((m) => m.method === "notifications/tasks" && m.params.taskId === "task-1" && m.params._meta["io.modelcontextprotocol/subscriptionId"] === 2)).toBe(true);
    expect(notified.map((m) => m.params.status).at(-1)).toBe("completed");
    expect(notified.map((m) => m.params.status)).toContain("input_required");
    expect(py.errors).toEqual([]);
    expect(t[1]).toBe("listening");
    expect(result(t[5])).toEqual({ resultType: "complete" });
    expect(result(t[7])).toEqual({ ...working("task-2"), resultType: "task" });
    expect(result(t[8])).toEqual({ resultType: "complete" });
    expect([py.failures, py.aborted]).toEqual([[], []]);
  });

  it("ttlMs: the task's own (bounded: null and over max_ttl_ms get max_ttl_ms, negative 0, fractions floored), and the store forgets a task ttlMs after createdAt, never within 1 s of its last change", async () => {
    const steps: Step[] = [
      call("tools/call", { name: "slow" }),
      call("tools/call", { name: "ttl", arguments: { ttlMs: null } }),
      call("tools/call", { name: "ttl", arguments: { ttlMs: 10 ** 9 } }),
      call("tools/call", { name: "ttl", arguments: { ttlMs: -5 } }),
      call("tools/call", { name: "ttl", arguments: { ttlMs: 1500.7 } }),
      { op: "settle" },
      // task-4 (ttlMs 0) settled at once: kept 1 s after its last change.
      { op: "clock", taskId: "task-4", plus: 999 },
      call("tasks/get", { taskId: "task-4" }),
      { op: "clock", taskId: "task-1", plus: 4999 },
      call("tasks/get", { taskId: "task-1" }),
      { op: "clock", taskId: "task-1", plus: 5000 },
      call("tasks/get", { taskId: "task-1" }),
      call("tasks/cancel", { taskId: "task-1" }),
      { op: "clock", taskId: "task-1", plus: 60 * 60 * 1000 - 1 },
      call("tasks/get", { taskId: "task-2" }),
      { op: "clock", taskId: "task-1", plus: 60 * 60 * 1000 + 60_000 },
      call("tasks/get", { taskId: "task-2" }),
      { op: "release" },
    ];
    const py = run({ options: { ttlMs: 5000, pollIntervalMs: 25 }, steps });
    const t = py.transcript;
    expect([0, 1, 2, 3, 4].map((i) => result(t[i]).ttlMs)).toEqual([5000, 3_600_000, 3_600_000, 0, 1500]);
    expect(result(t[5])).toMatchObject({ taskId: "task-4", status: "completed", ttlMs: 0 });
    expect(result(t[6])).toMatchObject({ taskId: "task-1", status: "working", ttlMs: 5000 });
    expect(error(t[7])).toEqual(notFound);
    expect(error(t[8])).toEqual(notFound);
    expect(result(t[9])).toMatchObject({ taskId: "task-2", status: "completed", ttlMs: 3_600_000 });
    expect(error(t[10])).toEqual(notFound);
    expect(t.length).toBe(11);
    expect([py.errors, py.failures]).toEqual([[], []]);
  });

  it("two principals: B gets exactly the unknown-id answer for A's task on every method and on listen; the task is A's alone", async () => {
    const steps: Step[] = [
      call("tools/call", { name: "slow" }, { principal: "A" }),
      call("tasks/get", { taskId: "task-1" }, { principal: "B" }),
      call("tasks/update", { taskId: "task-1", inputResponses: {} }, { principal: "B" }),
      call("tasks/cancel", { taskId: "task-1" }, { principal: "B" }),
      call("tasks/get", { taskId: "task-1" }),
      call("tasks/get", { taskId: "no-such-task" }, { principal: "B" }),
      { op: "listen", params: { notifications: { taskIds: ["task-1"] } }, principal: "B" },
      { op: "listen", params: { notifications: { taskIds: ["task-1"] } }, principal: "A" },
      { op: "listen", params: { notifications: { taskIds: ["task-1"] } }, principal: "A", tasks: false },
      call("tasks/get", { taskId: "task-1" }, { principal: "A" }),
      { op: "store", taskId: "task-1" },
      { op: "release" },
      { op: "idle" },
      { op: "settle" },
      call("tasks/get", { taskId: "task-1" }, { principal: "A" }),
      { op: "close" },
    ];
    const py = run({ options: { ttlMs: 60_000, pollIntervalMs: 25 }, steps });
    const t = py.transcript;
    expect(result(t[0])).toEqual({ ...working("task-1"), resultType: "task" });
    // Every method, and no principal at all: the answer to a task that does not exist, byte for byte.
    for (const i of [1, 2, 3, 4]) expect(t[i], String(i)).toEqual({ jsonrpc: "2.0", id: i + 1, error: notFound });
    // Answered, never reported: B's probes, and the listen without the extension (-32021), reach neither
    // router's error hook (PeerErrors: the peer's own mistakes).
    expect(py.failures).toEqual([]);
    expect(t[5]).toEqual({ jsonrpc: "2.0", id: 6, error: notFound });
    expect(t[6]).toBe("listening");
    expect(t[7]).toBe("listening");
    expect(t[8]).toEqual({ jsonrpc: "2.0", id: 9, error: missing });
    expect(result(t[9]).status).toBe("working");
    expect(t[10]["io.modelcontextprotocol/tasks#owner"]).toBe("A");
    expect(result(t[11]).status).toBe("completed");
    const [b, a] = [t[12], t[13]] as Array<{ sent: Array<{ method: string; params: Json }> }>;
    expect(b.sent).toEqual([{ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: { taskIds: [] }, _meta: { "io.modelcontextprotocol/subscriptionId": 7 } } }]);
    expect(a.sent[0].params.notifications).toEqual({ taskIds: ["task-1"] });
    expect(a.sent.slice(1).map((m) => [m.method, m.params.status])).toEqual([["notifications/tasks", "completed"]]);
    expect(t.length).toBe(15);
    expect(t[14]).toEqual({ answer: { jsonrpc: "2.0", id: 9, error: missing }, sent: [] });
    expect([py.errors, py.aborted]).toEqual([[], []]);
  });

  it("bounds: tasks per principal and running in all (-32000 naming the limit), result bytes (failed, -32603 naming the size), max TTL, listen taskIds (-32602), tasks the store holds (-32000)", async () => {
    const steps: Step[] = [
      call("tools/call", { name: "slow" }, { principal: "A" }),
      call("tools/call", { name: "slow" }, { principal: "A" }),
      call("tools/call", { name: "slow" }, { principal: "B" }),
      call("tools/call", { name: "slow" }, { principal: "C" }),
      { op: "release" },
      { op: "idle" },
      call("tools/call", { name: "big", arguments: { size: 10 } }, { principal: "A" }),
      call("tools/call", { name: "big", arguments: { size: 1000 } }, { principal: "B" }),
      { op: "idle" },
      call("tasks/get", { taskId: "task-3" }, { principal: "A" }),
      call("tasks/get", { taskId: "task-4" }, { principal: "B" }),
      call("tools/call", { name: "slow" }, { principal: "D" }),
      { op: "listen", params: { notifications: { taskIds: ["a", "b", "c"] } } },
      { op: "listen", params: { notifications: { taskIds: ["a", "a", "b"] } } },
      { op: "close" },
    ];
    const py = run({ options: { maxTasksPerPrincipal: 1, maxRunningTasks: 2, maxResultBytes: 200, maxTtlMs: 10_000, maxListenTaskIds: 2, maxTasks: 4, pollIntervalMs: 25 }, steps });
    const t = py.transcript;
    expect(result(t[0])).toMatchObject({ taskId: "task-1", ttlMs: 10_000 });
    expect(error(t[1])).toEqual({ code: -32000, message: "Too many tasks: 1 are running for this principal (maxTasksPerPrincipal)" });
    expect(result(t[2])).toMatchObject({ taskId: "task-2" });
    expect(error(t[3])).toEqual({ code: -32000, message: "Too many tasks: 2 are running (maxRunningTasks)" });
    expect(result(t[4])).toMatchObject({ taskId: "task-3", status: "working", resultType: "task" });
    expect(result(t[6])).toEqual({ taskId: "task-3", status: "completed", createdAt: "<time>", lastUpdatedAt: "<time>", ttlMs: 10_000, pollIntervalMs: 25, result: { content: [text("x".repeat(10))], resultType: "complete" }, resultType: "complete" });
    const size = JSON.stringify({ content: [text("x".repeat(1000))], resultType: "complete" }).length;
    const over = `Internal error: the task's result is ${size} bytes, over the server's maxResultBytes (200)`;
    expect(result(t[7])).toMatchObject({ taskId: "task-4", status: "failed", error: { code: -32603, message: over } });
    expect(result(t[7])).not.toHaveProperty("result");
    expect(error(t[8])).toEqual({ code: -32000, message: "Too many tasks: the store holds 4 (maxTasks)" });
    expect(t[9]).toEqual({ jsonrpc: "2.0", id: 10, error: { code: -32602, message: "Invalid params: 3 distinct taskIds, over the server's maxListenTaskIds (2)" } });
    expect(t[10]).toBe("listening");
    expect(py.errors).toEqual([`task-4: ${over}`]);
    expect(result(t[5])).toMatchObject({ taskId: "task-4", status: "working", resultType: "task" });
    // Each limit reached is reported to the router's hook (the operator's to know): three tools/call, the listen.
    expect(py.failures).toEqual(["request tools/call", "request tools/call", "request tools/call", "request subscriptions/listen"]);
  });
});

describe(`the Python Tasks extension's params checks (${VERSION})`, () => {
  it("a taskId that is not a string: -32602 with the pointer", async () => {
    const steps: Step[] = [call("tasks/get", { taskId: 5 }), call("tasks/cancel", {}), call("tasks/get", { taskId: null })];
    const py = run({ steps });
    const method = ["tasks/get", "tasks/cancel", "tasks/get"];
    py.transcript.forEach((answer, i) => {
      expect(error(answer)).toEqual({ code: -32602, message: `Invalid params for ${method[i]}: /params/taskId: expected a string taskId`, data: { paths: ["/params/taskId"] } });
    });
  });
});

describe(`the Python Tasks extension without a task (${VERSION})`, () => {
  it("an optional task's work run inline, for a request without the extension, cannot ask for input: -32603", async () => {
    const py = run({ steps: [call("tools/call", { name: "optional_ask" }, { tasks: false })] });
    expect(error(py.transcript[0])).toEqual({ code: -32603, message: "Internal error: this request has no task to ask for input (the client did not negotiate tasks)" });
    expect(py.transcript.length).toBe(1);
  });
});

describe(`the Python Tasks extension, composed with the author's handlers and sharing a store (${VERSION})`, () => {
  it("the author's tasks/* handlers run after the runtime's checks, never for an unknown or another principal's task, and raising refuses the request", async () => {
    const steps: Step[] = [
      call("tools/call", { name: "slow" }, { principal: "A" }),
      call("tools/call", { name: "slow" }, { principal: "A" }),
      call("tasks/get", { taskId: "task-1" }, { principal: "A" }),
      call("tasks/get", { taskId: "task-1" }, { principal: "B" }),
      call("tasks/get", { taskId: "no-such-task" }, { principal: "A" }),
      call("tasks/cancel", { taskId: "task-1" }, { principal: "A" }),
      call("tasks/get", { taskId: "task-1" }, { principal: "A" }),
      call("tasks/cancel", { taskId: "task-2" }, { principal: "A" }),
      { op: "settle" },
      call("tasks/get", { taskId: "task-2" }, { principal: "A" }),
      { op: "release" },
    ];
    const py = run({ guard: true, options: { ttlMs: 60_000, pollIntervalMs: 25 }, steps });
    const t = py.transcript;
    expect(error(t[3])).toEqual(notFound);
    expect(error(t[4])).toEqual(notFound);
    expect(error(t[5])).toEqual({ code: -32050, message: "Not cancellable" });
    expect(result(t[6]).status).toBe("working");
    expect(result(t[7])).toEqual({ resultType: "complete" });
    expect(result(t[8]).status).toBe("cancelled");
    expect(py.author).toEqual(["tasks/get task-1", "tasks/cancel task-1", "tasks/get task-1", "tasks/cancel task-2", "tasks/get task-2"]);
    // The cancelled task's work saw its cancellation (control.cancelled set, its asyncio task cancelled).
    expect(py.aborted).toEqual(["task-2 true"]);
    expect(result(t[0])).toEqual({ ...working("task-1"), resultType: "task" });
    expect(result(t[1])).toEqual({ ...working("task-2"), resultType: "task" });
    expect(result(t[2])).toEqual({ ...working("task-1"), resultType: "complete" });
    // The author's handler refusing (-32050) is its failure, reported; the runtime's unknown-task answers are not.
    expect(py.failures).toEqual(["request tasks/cancel"]);
  });

  it("two routers sharing one TaskStore (as processes would): tasks/get, tasks/update and tasks/cancel sent to B reach the task running in A", async () => {
    const steps: Step[] = [
      call("tools/call", { name: "ask" }, { router: 0 }),
      { op: "settle" },
      call("tasks/get", { taskId: "task-1" }, { router: 1 }),
      call("tasks/update", { taskId: "task-1", inputResponses: { q: { action: "accept", content: { x: 1 } } } }, { router: 1 }),
      { op: "idle" },
      call("tasks/get", { taskId: "task-1" }, { router: 1 }),
      call("tools/call", { name: "slow" }, { router: 0 }),
      call("tasks/cancel", { taskId: "task-2" }, { router: 1 }),
      { op: "settle" },
      call("tasks/get", { taskId: "task-2" }, { router: 0 }),
      // TypeScript's work goes on after its signal aborts (its outcome dropped) until released.
      { op: "release" },
    ];
    const py = run({ routers: 2, options: { ttlMs: 60_000, pollIntervalMs: 25 }, steps });
    const t = py.transcript;
    expect(result(t[1])).toMatchObject({ status: "input_required", inputRequests: { q: ELICIT } });
    expect(result(t[2])).toEqual({ resultType: "complete" });
    expect(result(t[3])).toMatchObject({ status: "completed", result: { content: [text('{"q":{"action":"accept","content":{"x":1}}}')] } });
    expect(result(t[6])).toMatchObject({ taskId: "task-2", status: "cancelled" });
    expect(py.aborted).toEqual(["task-2 true"]);
    expect(result(t[0])).toEqual({ ...working("task-1"), resultType: "task" });
    expect(result(t[4])).toEqual({ ...working("task-2"), resultType: "task" });
    expect(result(t[5])).toEqual({ resultType: "complete" });
  });
});

describe("create_memory_task_store", () => {
  const facts = pythonJson<Record<string, any>>("tasks.py", { store: true });

  it("refuses a second create of the same taskId", () => {
    expect(facts.duplicate).toBe("task a exists");
  });

  it("forgets a task ttlMs after createdAt but not within 1 s of its last change (get and update answer None), never for ttlMs None", () => {
    expect(facts.expiry).toEqual(["a", null, "c", null, null, "b"]);
  });

  it("replaces by change(current), leaves it when change returns None, never changes a terminal task (change not called), and tells its watchers each stored change", () => {
    expect(facts.update).toEqual({ results: ["input_required", "input_required", "cancelled", "cancelled", null], called: [], watched: ["input_required", "cancelled"] });
  });

  it("sweeps expired tasks on its timer, and refuses a create beyond max_tasks with -32000 naming the limit", () => {
    expect(facts.sweep).toEqual({ refused: { code: -32000, message: "Too many tasks: the store holds 2 (maxTasks)" }, held: 2, after: 1 });
  });

  it("has TypeScript's defaults: bounds of the extension, of the store, its sweep and retention", () => {
    expect(facts.defaults).toEqual({
      ...TASK_LIMITS,
      maxTasks: DEFAULT_MAX_STORED_TASKS,
      sweepIntervalMs: DEFAULT_SWEEP_INTERVAL_MS,
      minRetentionMs: MIN_RETENTION_MS,
      limitReached: LIMIT_REACHED,
    });
  });
});
