// Task state of the Tasks extension (io.modelcontextprotocol/tasks): the TaskStore interface the task
// runtime (./tasks.ts) goes through for everything it knows about a task, and the in-memory default.
// Another store (Redis, a database) implements the same interface; the runtime never keeps task state
// of its own, so processes sharing a store serve each other's tasks (a cancellation made by one is
// observed by the process running the task through `watch`).
import { SERVER_ERROR } from "../protocol.js";

/** A task as the Tasks extension sends it (its DetailedTask): taskId, status, createdAt, lastUpdatedAt, ttlMs, and the status's members. */
export type TaskRecord = { taskId: string; status: string; createdAt: string; lastUpdatedAt: string; ttlMs: number | null } & Record<string, unknown>;

export interface TaskStore {
  /** Stores a new task, expiring ttlMs after createdAt when ttlMs is a number; rejects when the taskId exists. */
  create(task: TaskRecord): Promise<void>;
  /** The task, or undefined when unknown or expired. */
  get(taskId: string): Promise<TaskRecord | undefined>;
  /** Several tasks at once, in the order of `taskIds` (one round trip for a remote store). Optional: the runtime falls back to `get`. */
  getMany?(taskIds: readonly string[]): Promise<Array<TaskRecord | undefined>>;
  /** Replaces the task by change(current), atomically (a concurrent update elsewhere makes it retry with the new current), unless the task is unknown, expired or terminal (completed, failed, cancelled): resolves to the task as stored afterwards, or undefined when unknown or expired. change returning undefined leaves it unchanged. */
  update(taskId: string, change: (current: TaskRecord) => TaskRecord | undefined): Promise<TaskRecord | undefined>;
  /** Calls listener with the task after every stored change of taskId, made by any process sharing the store, until the returned function is called. */
  watch(taskId: string, listener: (task: TaskRecord) => void): () => void;
  close?(): Promise<void>;
}

/** The statuses after which a task never changes again. */
export const TERMINAL_STATUSES: ReadonlySet<string> = new Set(["completed", "failed", "cancelled"]);

/**
 * When a task may be discarded (ms since the epoch), the same rule in every store: `ttlMs` after its
 * creation (the extension: "the server may discard the task after the TTL elapses"), but never within two
 * poll intervals (at least 1 s) of its last change, so a client polling as told sees every change, the last
 * one included. So a `ttlMs: 0` task is readable while it changes and for that while after it settles.
 * Infinity for `ttlMs: null` (the Tasks runtime gives such a task its `maxTtlMs`) or a createdAt that is not a date.
 */
export function expiresAt(task: Pick<TaskRecord, "createdAt" | "lastUpdatedAt" | "ttlMs"> & { pollIntervalMs?: unknown }): number {
  if (typeof task.ttlMs !== "number") return Infinity;
  const created = Date.parse(task.createdAt);
  if (Number.isNaN(created)) return Infinity;
  const updated = Date.parse(task.lastUpdatedAt);
  const poll = typeof task.pollIntervalMs === "number" && task.pollIntervalMs > 0 ? task.pollIntervalMs : 0;
  const floor = (Number.isNaN(updated) ? created : updated) + Math.max(MIN_RETENTION_MS, 2 * poll);
  return Math.max(created + Math.max(0, task.ttlMs), floor);
}

/** The least time a task is kept after its last change (see expiresAt). */
export const MIN_RETENTION_MS = 1000;

export interface MemoryTaskStoreOptions {
  /** The clock (ms since the epoch), for tests. Default: Date.now. */
  now?: () => number;
  /** Most tasks held (default 10,000): `create` beyond it, once the expired are swept, rejects naming the limit. */
  maxTasks?: number;
  /** How often expired tasks are swept (default 60 s; the timer does not keep the process alive). */
  sweepIntervalMs?: number;
}

export const DEFAULT_MAX_STORED_TASKS = 10_000;
export const DEFAULT_SWEEP_INTERVAL_MS = 60_000;

/**
 * The in-memory TaskStore: one process, at most `maxTasks` tasks, each kept until it expires (checked
 * when read, and swept on a timer and when the store is full, so expired tasks do not accumulate). Listeners are called synchronously after
 * each stored change; one that throws does not stop the others.
 */
export function createMemoryTaskStore(options: MemoryTaskStoreOptions = {}): TaskStore {
  const now = options.now ?? Date.now;
  const tasks = new Map<string, { task: TaskRecord; expires: number }>();
  const listeners = new Map<string, Set<(task: TaskRecord) => void>>();
  const maxTasks = options.maxTasks ?? DEFAULT_MAX_STORED_TASKS;
  const timer = setInterval(() => sweep(), options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS);
  timer.unref?.();

  function live(taskId: string): { task: TaskRecord; expires: number } | undefined {
    const entry = tasks.get(taskId);
    if (entry === undefined) return undefined;
    if (entry.expires <= now()) {
      tasks.delete(taskId);
      return undefined;
    }
    return entry;
  }

  function notify(task: TaskRecord): void {
    for (const listener of [...(listeners.get(task.taskId) ?? [])]) {
      try {
        listener(task);
      } catch {
        // A listener's failure is its own.
      }
    }
  }

  function sweep(): void {
    const t = now();
    for (const [id, entry] of tasks) if (entry.expires <= t) tasks.delete(id);
  }

  return {
    async create(task) {
      if (live(task.taskId) !== undefined) throw new Error(`task ${task.taskId} exists`);
      if (tasks.size >= maxTasks) sweep();
      if (tasks.size >= maxTasks) throw Object.assign(new Error(`Too many tasks: the store holds ${maxTasks} (maxTasks)`), { code: SERVER_ERROR });
      tasks.set(task.taskId, { task, expires: expiresAt(task) });
      notify(task);
    },
    async get(taskId) {
      return live(taskId)?.task;
    },
    async getMany(taskIds) {
      return taskIds.map((id) => live(id)?.task);
    },
    async update(taskId, change) {
      const entry = live(taskId);
      if (entry === undefined) return undefined;
      if (TERMINAL_STATUSES.has(entry.task.status)) return entry.task;
      const next = change(entry.task);
      if (next === undefined) return entry.task;
      const stored = { ...next, taskId };
      tasks.set(taskId, { task: stored, expires: expiresAt(stored) });
      notify(stored);
      return stored;
    },
    watch(taskId, listener) {
      let set = listeners.get(taskId);
      if (set === undefined) listeners.set(taskId, (set = new Set()));
      set.add(listener);
      return () => {
        set!.delete(listener);
        if (set!.size === 0 && listeners.get(taskId) === set) listeners.delete(taskId);
      };
    },
    async close() {
      clearInterval(timer);
      tasks.clear();
      listeners.clear();
    },
  };
}
