// The Tasks extension (io.modelcontextprotocol/tasks, SEP-2663) as a served extension of the router:
// a handler of a task-augmentable request (`tools/call`) returns `task(work)` or a plain result; the
// rest is this runtime's, through a TaskStore (./task-store.ts) only:
//
// - a task handle on a request that negotiates the extension becomes a task: stored (status
//   `working`) before its CreateTaskResult (`resultType: "task"`) is sent, then `work` runs;
// - on a request that does not: -32021 with `requiredCapabilities.extensions` (the server cannot
//   serve it without a task, as the extension's specification says), or, for `support: "optional"`,
//   the work's result, answered synchronously;
// - `work(control)` returning a result settles the task `completed` with it; throwing an error with
//   an integer `code` settles it `failed` with that JSON-RPC error, anything else `failed` with -32603;
// - `control.input(requests)` sets `input_required` with those `inputRequests` and resolves with
//   the client's `inputResponses` once `tasks/update` has answered every key (a partial answer
//   leaves the rest pending); the task is `working` again;
// - `tasks/cancel` settles it `cancelled` and aborts `control.signal` in the process running it
//   (observed through the store's `watch`, so a shared store carries it across processes); the work's
//   outcome is then dropped (a terminal task never changes);
// - a task expires `ttlMs` after its creation (the store forgets it): `tasks/get` is then -32602;
// - `tasks/update` ignores responses to keys that are not outstanding (and so does not validate them);
// - `tasks/get` sends the task's DetailedTask (only the members of its status), `notifications/tasks`
//   carries the same to `subscriptions/listen` streams that asked for its `taskIds`.
import { EXTENSION_TASKS, SERVER_ERROR } from "../protocol.js";
import type { RequestContext } from "./dispatcher.js";
import { ErrorCode, isPlainObject, JsonRpcError, PeerError } from "./jsonrpc.js";
import { EXTENSION_VALUE, missingExtension, type ExtensionHandlers, type ExtensionValue, type ServedExtension } from "./router-extensions.js";
import { createMemoryTaskStore, TERMINAL_STATUSES, type TaskRecord, type TaskStore } from "./task-store.js";

/** The extension's identifier. */
export const TASKS_EXTENSION = EXTENSION_TASKS;

/** One server-to-client request a task waits on (an entry of `inputRequests`). */
export type TaskInputRequest = { method: string; params?: Record<string, unknown> };

/** What the work of a task is given. */
export interface TaskControl {
  readonly taskId: string;
  /** Aborted when the task is cancelled (by `tasks/cancel`, from any process sharing the store). */
  readonly signal: AbortSignal;
  /** Ask the client (status `input_required`); resolves with the responses by key once every key is answered. */
  input(requests: Record<string, TaskInputRequest>): Promise<Record<string, unknown>>;
  /** Set the task's `statusMessage`. */
  setStatusMessage(message: string): Promise<void>;
}

export interface TaskOptions {
  /** Time to live from creation (ms; null: unlimited). Default: the extension's. */
  ttlMs?: number | null;
  /** Suggested polling interval (ms). Default: the extension's. */
  pollIntervalMs?: number;
  /** The status message the task starts with. */
  statusMessage?: string;
  /**
   * On a request that does not negotiate the extension: `required` (default) answers -32021;
   * `optional` runs `work` at once and answers with its result (its `input` is then refused: -32603).
   */
  support?: "required" | "optional";
}

/** What a handler returns to have its request answered with a task. */
export interface TaskHandle extends ExtensionValue {
  readonly work: (task: TaskControl) => object | Promise<object>;
  readonly options: TaskOptions;
}

/** A task handle: return it from a task-augmentable handler (`tools/call`) to answer with a task running `work`. */
export function task(work: (task: TaskControl) => object | Promise<object>, options: TaskOptions = {}): TaskHandle {
  return { [EXTENSION_VALUE]: TASKS_EXTENSION, work, options };
}

function isTaskHandle(value: unknown): value is TaskHandle {
  return typeof value === "object" && value !== null && (value as Partial<TaskHandle>)[EXTENSION_VALUE] === TASKS_EXTENSION;
}

/** The members each status sends (DetailedTask), beside the Task's own. */
const TASK_MEMBERS = ["taskId", "status", "statusMessage", "createdAt", "lastUpdatedAt", "ttlMs", "pollIntervalMs"];
const STATUS_MEMBERS: Readonly<Record<string, string | undefined>> = { input_required: "inputRequests", completed: "result", failed: "error" };

/** The task as the extension sends it (tasks/get, notifications/tasks): a DetailedTask, without the runtime's own members. */
export function detailedTask(record: TaskRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of TASK_MEMBERS) if (record[key] !== undefined) out[key] = record[key];
  const extra = STATUS_MEMBERS[record.status];
  if (extra !== undefined) out[extra] = record[extra] ?? {};
  return out;
}

/** Responses the client gave that the running work has not taken yet (a runtime member of the record, never sent). */
const ANSWERS = `${EXTENSION_TASKS}#answers`;
/** The principal that created the task (a runtime member, never sent): only it can read, update, cancel or watch the task. */
export const TASK_OWNER = `${EXTENSION_TASKS}#owner`;

/** The code of a request refused because a bound of the server is reached (JSON-RPC's implementation-defined server error). */
export const LIMIT_REACHED = SERVER_ERROR;

/** Defaults of the bounds (TasksOptions). */
export const TASK_LIMITS = {
  maxTasksPerPrincipal: 100,
  maxRunningTasks: 1000,
  maxResultBytes: 1024 * 1024,
  maxTtlMs: 60 * 60 * 1000,
  maxListenTaskIds: 1000,
} as const;

function limitReached(message: string): JsonRpcError {
  return new JsonRpcError(LIMIT_REACHED, message);
}

/** Whether `principal` may see the task: the one that created it (a task created without a principal is anyone's who has none). */
function ownedBy(record: TaskRecord, principal: string | undefined): boolean {
  return record[TASK_OWNER] === principal;
}

/** Tasks by id, in one call when the store can (`getMany`), else concurrently. */
function getMany(store: TaskStore, ids: readonly string[]): Promise<Array<TaskRecord | undefined>> {
  if (ids.length === 0) return Promise.resolve([]);
  return store.getMany !== undefined ? store.getMany(ids) : Promise.all(ids.map((id) => store.get(id)));
}

/** An unknown (or another principal's) task: the peer's mistake, answered -32602 and not reported to `onError`. */
function notFound(): JsonRpcError {
  return new PeerError(ErrorCode.InvalidParams, "Failed to retrieve task: Task not found");
}

/** A thrown value as the JSON-RPC error a failed task carries. */
function errorObject(error: unknown): { code: number; message: string; data?: unknown } {
  if (error instanceof Error && Number.isInteger((error as { code?: unknown }).code)) {
    const data = (error as { data?: unknown }).data;
    return { code: (error as unknown as { code: number }).code, message: error.message, ...(data === undefined ? {} : { data }) };
  }
  return { code: ErrorCode.InternalError, message: "Internal error" };
}

/**
 * A result as stored, as the request would have answered it in the modern era: JSON only (what
 * `JSON.stringify` drops is dropped), `resultType` defaulting to the request's default (the first of
 * its METHOD_TABLE row's `resultTypes`).
 */
function asResult(value: object, resultTypes: readonly string[] | null): Record<string, unknown> {
  const json = JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
  return Object.hasOwn(json, "resultType") || resultTypes === null ? json : { ...json, resultType: resultTypes[0] };
}

export interface TasksOptions<Handlers = object> {
  /** Where tasks live (default: a new in-memory store). */
  store?: TaskStore;
  /** Default time to live of a task from its creation (ms; null: unlimited). Default 5 minutes. */
  ttlMs?: number | null;
  /** Default suggested polling interval (ms). Default 1000. */
  pollIntervalMs?: number;
  /** Handlers of task-augmentable core methods (`tools/call`), which may return `task(work)`. */
  handlers?: ExtensionHandlers<Handlers>;
  /** A new task id (default: crypto.randomUUID, 122 random bits). */
  newTaskId?: () => string;
  /** Where a task's work reports a failure that no JSON-RPC error describes, a store failure while settling, and a result over `maxResultBytes`. Default: ignored (the task says `failed`). */
  onError?: (error: unknown, taskId: string) => void;
  /** Most tasks one principal may have running in this process (default 100); more: -32000 naming the limit. */
  maxTasksPerPrincipal?: number;
  /** Most tasks running in this process (default 1,000); more: -32000 naming the limit. */
  maxRunningTasks?: number;
  /** Largest result a task keeps, in bytes of JSON (default 1 MiB); a larger one settles the task `failed` (-32603 naming the limit). */
  maxResultBytes?: number;
  /** Longest time to live (default 1 hour): a longer or null `ttlMs` gets this one. */
  maxTtlMs?: number;
  /** Most distinct `taskIds` one `subscriptions/listen` may name (default 1,000); more: -32602 naming the limit. Duplicates count once. */
  maxListenTaskIds?: number;
}

/** The Tasks extension for a served version's `extensions`, and its store. */
export interface TasksExtension<Handlers = object> extends ServedExtension<Handlers> {
  readonly store: TaskStore;
  /** Resolves when every task this process runs has settled (for tests and graceful shutdown). */
  idle(): Promise<void>;
}

/** The Tasks extension: `{ [TASKS_EXTENSION]: tasksExtension({ store, handlers: { "tools/call": … } }) }` in a served version's `extensions`. */
export function tasksExtension<Handlers = object>(options: TasksOptions<Handlers> = {}): TasksExtension<Handlers> {
  const store = options.store ?? createMemoryTaskStore();
  const maxTtl = options.maxTtlMs ?? TASK_LIMITS.maxTtlMs;
  const maxPerPrincipal = options.maxTasksPerPrincipal ?? TASK_LIMITS.maxTasksPerPrincipal;
  const maxRunning = options.maxRunningTasks ?? TASK_LIMITS.maxRunningTasks;
  const maxResultBytes = options.maxResultBytes ?? TASK_LIMITS.maxResultBytes;
  const maxListenIds = options.maxListenTaskIds ?? TASK_LIMITS.maxListenTaskIds;
  /** Tasks running in this process, per principal ("" for none). */
  const runningBy = new Map<string, number>();
  const bounded = (ttl: number | null): number => (ttl === null || !(ttl <= maxTtl) ? maxTtl : Math.max(0, Math.floor(ttl)));
  const defaultTtl = options.ttlMs === undefined ? 300_000 : options.ttlMs;
  const defaultPoll = options.pollIntervalMs ?? 1000;
  const newTaskId = options.newTaskId ?? (() => globalThis.crypto.randomUUID());
  const running = new Set<Promise<void>>();
  const now = () => new Date().toISOString();

  async function start(handle: TaskHandle, context: RequestContext, resultTypes: readonly string[] | null): Promise<Record<string, unknown>> {
    const who = context.principal ?? "";
    const mine = runningBy.get(who) ?? 0;
    if (running.size >= maxRunning) throw limitReached(`Too many tasks: ${maxRunning} are running (maxRunningTasks)`);
    if (mine >= maxPerPrincipal) throw limitReached(`Too many tasks: ${maxPerPrincipal} are running for this principal (maxTasksPerPrincipal)`);
    const created = now();
    const ttlMs = bounded(handle.options.ttlMs === undefined ? defaultTtl : handle.options.ttlMs);
    const record: TaskRecord = {
      taskId: newTaskId(),
      status: "working",
      createdAt: created,
      lastUpdatedAt: created,
      ttlMs,
      pollIntervalMs: handle.options.pollIntervalMs ?? defaultPoll,
      ...(handle.options.statusMessage === undefined ? {} : { statusMessage: handle.options.statusMessage }),
      ...(context.principal === undefined ? {} : { [TASK_OWNER]: context.principal }),
    };
    // Stored before the CreateTaskResult is sent: a tasks/get for it resolves from now on.
    await store.create(record);
    runningBy.set(who, (runningBy.get(who) ?? 0) + 1);
    const run = execute(record.taskId, handle, resultTypes).finally(() => {
      running.delete(run);
      const left = (runningBy.get(who) ?? 1) - 1;
      if (left <= 0) runningBy.delete(who);
      else runningBy.set(who, left);
    });
    running.add(run);
    return { ...detailedTask(record), resultType: "task" };
  }

  async function execute(taskId: string, handle: TaskHandle, resultTypes: readonly string[] | null): Promise<void> {
    const abort = new AbortController();
    const waiting = new Map<string, { keys: string[]; resolve: (answers: Record<string, unknown>) => void }>();
    let seq = 0;
    /** Every inputRequests key this task's work has issued: a key is never issued twice in a task's life (the extension's MUST). */
    const issued = new Set<string>();
    const take = async (record: TaskRecord) => {
      const answers = isPlainObject(record[ANSWERS]) ? record[ANSWERS] : {};
      for (const [id, wait] of [...waiting]) {
        if (!wait.keys.every((k) => Object.hasOwn(answers, k))) continue;
        waiting.delete(id);
        const mine = Object.fromEntries(wait.keys.map((k) => [k, answers[k]]));
        await store.update(taskId, (t) => {
          const left = { ...(isPlainObject(t[ANSWERS]) ? t[ANSWERS] : {}) };
          for (const k of wait.keys) delete left[k];
          return { ...t, [ANSWERS]: left };
        });
        wait.resolve(mine);
      }
    };
    const unwatch = store.watch(taskId, (record) => {
      if (record.status === "cancelled") abort.abort();
      else if (waiting.size > 0) void take(record).catch((e) => options.onError?.(e, taskId));
    });
    const control: TaskControl = {
      taskId,
      signal: abort.signal,
      async input(requests) {
        const keys = Object.keys(requests);
        if (keys.some((k) => issued.has(k))) {
          const reused = keys.filter((k) => issued.has(k));
          throw new JsonRpcError(ErrorCode.InternalError, `Internal error: inputRequests key ${reused.join(", ")} was issued before in this task (a key is unique over a task's lifetime)`);
        }
        for (const k of keys) issued.add(k);
        const answered = new Promise<Record<string, unknown>>((resolve) => waiting.set(String(++seq), { keys, resolve }));
        const stored = await store.update(taskId, (t) => ({
          ...t,
          status: "input_required",
          inputRequests: { ...(t.status === "input_required" && isPlainObject(t.inputRequests) ? t.inputRequests : {}), ...requests },
          lastUpdatedAt: now(),
        }));
        if (stored === undefined || TERMINAL_STATUSES.has(stored.status)) throw new JsonRpcError(ErrorCode.InternalError, "the task is no longer running");
        await take(stored);
        return await new Promise<Record<string, unknown>>((resolve, reject) => {
          abort.signal.addEventListener("abort", () => reject(new JsonRpcError(ErrorCode.InternalError, "the task was cancelled")), { once: true });
          void answered.then(resolve);
        });
      },
      async setStatusMessage(message) {
        await store.update(taskId, (t) => ({ ...t, statusMessage: message, lastUpdatedAt: now() }));
      },
    };
    try {
      const result = await handle.work(control);
      if (!isPlainObject(result)) throw new JsonRpcError(ErrorCode.InternalError, "Internal error: the task's work returned no result object");
      const stored = asResult(result, resultTypes);
      const bytes = Buffer.byteLength(JSON.stringify(stored), "utf8");
      if (bytes > maxResultBytes) {
        const error = new JsonRpcError(ErrorCode.InternalError, `Internal error: the task's result is ${bytes} bytes, over the server's maxResultBytes (${maxResultBytes})`);
        options.onError?.(error, taskId);
        await store.update(taskId, (t) => settle(t, { status: "failed", error: errorObject(error) }));
        return;
      }
      await store.update(taskId, (t) => settle(t, { status: "completed", result: stored }));
    } catch (error) {
      if (!abort.signal.aborted) {
        if (!(error instanceof JsonRpcError) && !Number.isInteger((error as { code?: unknown })?.code)) options.onError?.(error, taskId);
        await store.update(taskId, (t) => settle(t, { status: "failed", error: errorObject(error) })).catch((e) => options.onError?.(e, taskId));
      }
    } finally {
      unwatch();
    }
  }

  /** The control of work run inline, for a request without the extension: no task, no input. */
  function inline(context: RequestContext): TaskControl {
    return {
      taskId: "",
      signal: context.signal,
      input: async () => {
        throw new JsonRpcError(ErrorCode.InternalError, "Internal error: this request has no task to ask for input (the client did not negotiate tasks)");
      },
      setStatusMessage: async () => undefined,
    };
  }

  /** A terminal record: the runtime's members and the pending inputRequests dropped. */
  function settle(current: TaskRecord, outcome: Record<string, unknown>): TaskRecord {
    const { inputRequests: _pending, [ANSWERS]: _answers, ...rest } = current;
    return { ...rest, ...outcome, lastUpdatedAt: now() } as TaskRecord;
  }

  /** The task, when it exists and belongs to the caller; else exactly the unknown-id error (its existence is not revealed). */
  async function known(params: { taskId?: unknown } | undefined, context: RequestContext): Promise<TaskRecord> {
    const taskId = params?.taskId;
    const record = typeof taskId === "string" ? await store.get(taskId) : undefined;
    if (record === undefined || !ownedBy(record, context.principal)) throw notFound();
    return record;
  }

  /** The author's own handler of a task method, run after the runtime's checks and before its answer: throwing refuses the request. */
  const authorHandlers = (options.handlers ?? {}) as Record<string, unknown>;
  async function authorCheck(method: string, params: unknown, context: RequestContext): Promise<void> {
    const handler = authorHandlers[method];
    if (typeof handler === "function") await (handler as (p: unknown, c: RequestContext) => unknown)(params, context);
  }

  const own = {
    "tasks/get": async (params: { taskId: string }, context: RequestContext) => {
      const record = await known(params, context);
      await authorCheck("tasks/get", params, context);
      // resultType: the dispatcher's normalizer adds the method's default (its METHOD_TABLE row's).
      return detailedTask(record);
    },
    "tasks/update": async (params: { taskId: string; inputResponses?: Record<string, unknown> }, context: RequestContext) => {
      await known(params, context);
      await authorCheck("tasks/update", params, context);
      const responses = isPlainObject(params.inputResponses) ? params.inputResponses : {};
      await store.update(params.taskId, (t) => {
        const pending = isPlainObject(t.inputRequests) ? t.inputRequests : {};
        // Keys not outstanding (never issued, answered already) are ignored, as the specification says.
        const answered = Object.keys(responses).filter((k) => Object.hasOwn(pending, k));
        if (t.status !== "input_required" || answered.length === 0) return undefined;
        const left = { ...pending };
        for (const k of answered) delete left[k];
        const answers = { ...(isPlainObject(t[ANSWERS]) ? t[ANSWERS] : {}), ...Object.fromEntries(answered.map((k) => [k, responses[k]])) };
        const { inputRequests: _old, ...rest } = t;
        return Object.keys(left).length === 0
          ? { ...rest, status: "working", [ANSWERS]: answers, lastUpdatedAt: now() }
          : { ...rest, inputRequests: left, [ANSWERS]: answers, lastUpdatedAt: now() };
      });
      return {};
    },
    "tasks/cancel": async (params: { taskId: string }, context: RequestContext) => {
      await known(params, context);
      await authorCheck("tasks/cancel", params, context);
      await store.update(params.taskId, (t) => settle(t, { status: "cancelled", statusMessage: "Cancelled by the client" }));
      return {};
    },
  };

  return {
    store,
    settings: {},
    // The author's tasks/* handlers are not replaced: `own` calls them (authorCheck) once the runtime's checks pass.
    handlers: { ...(options.handlers ?? {}), ...own } as unknown as ExtensionHandlers<Handlers>,
    // tasks/update: a server SHOULD ignore responses to keys that are not outstanding, so they are not
    // validated against InputResponse (the schema would refuse the whole request); the rest is checked.
    validators: {
      "tasks/update": {
        params(params: unknown) {
          const paths = [
            ...(isPlainObject(params) && typeof params.taskId === "string" ? [] : ["/params/taskId"]),
            ...(isPlainObject(params) && isPlainObject(params.inputResponses) ? [] : ["/params/inputResponses"]),
          ];
          if (paths.length > 0) throw new JsonRpcError(ErrorCode.InvalidParams, `Invalid params for tasks/update: ${paths.join(", ")}: expected a string taskId and an inputResponses object`, { paths });
          return params;
        },
      },
    },
    async resolve(value: unknown, context: RequestContext, negotiated: boolean, resultTypes: readonly string[] | null) {
      if (!isTaskHandle(value)) return value;
      if (negotiated) return await start(value, context, resultTypes);
      if (value.options.support !== "optional") throw missingExtension(TASKS_EXTENSION);
      return await value.work(inline(context));
    },
    async listen(notifications, deliver, negotiated, context) {
      if (!Object.hasOwn(notifications, "taskIds")) return undefined;
      if (!negotiated) throw missingExtension(TASKS_EXTENSION);
      const ids = [...new Set(Array.isArray(notifications.taskIds) ? notifications.taskIds.filter((id): id is string => typeof id === "string") : [])];
      if (ids.length > maxListenIds) throw new JsonRpcError(ErrorCode.InvalidParams, `Invalid params: ${ids.length} distinct taskIds, over the server's maxListenTaskIds (${maxListenIds})`);
      // One lookup for all (one round trip to a shared store); another principal's tasks are as unknown ones.
      const records = await getMany(store, ids);
      const agreed = ids.filter((id, i) => records[i] !== undefined && ownedBy(records[i]!, context.principal));
      const stops = agreed.map((id) => store.watch(id, (record) => void deliver("notifications/tasks", detailedTask(record)).catch(() => undefined)));
      return { honored: { taskIds: agreed }, stop: () => stops.forEach((stop) => stop()) };
    },
    async idle() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };
}
