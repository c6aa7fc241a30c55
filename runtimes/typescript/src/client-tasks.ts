// The client as the receiver of task-augmented requests (2025-11-25, basic/utilities/tasks): a server's
// `sampling/createMessage` or `elicitation/create` carrying `task`, where the client declares the row's
// `taskCapability` (`tasks.requests.sampling.createMessage`…), is answered at once with a CreateTaskResult
// while the client's handler runs; the server then works the task with `tasks/get`, `tasks/result`,
// `tasks/list` and `tasks/cancel`, which this store answers. Everything here is the client's own state,
// in memory: tasks live until their `ttl` passes (at most `maxTtlMs`), the running ones stop when the
// client closes. Status changes are sent as `notifications/tasks/status` through `notify`.
import { ErrorCode, PeerError } from "./jsonrpc.js";
import { META_RELATED_TASK } from "../protocol.js";

/** A task as 2025-11-25 sends it (its Task): the receiver's view. */
export interface ReceivedTask {
  taskId: string;
  status: "working" | "input_required" | "completed" | "failed" | "cancelled";
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttl: number | null;
  pollInterval?: number;
}

export interface ClientTaskOptions {
  /** The longest a task is kept, in ms from its creation; a request asking for more (or for none) gets this. Default 3 600 000. */
  maxTtlMs?: number;
  /** The `pollInterval` the tasks suggest, in ms. Default 500. */
  pollIntervalMs?: number;
  /** Most tasks kept at once (default 1 000): a task-augmented request beyond it is refused (-32603), expired tasks dropped first. */
  maxTasks?: number;
  /** The page size of `tasks/list` (default 100). */
  pageSize?: number;
  /** The clock (ms since the epoch), for tests. Default Date.now. */
  now?: () => number;
}

interface Held {
  task: ReceivedTask;
  expires: number;
  readonly stop: AbortController;
  /** The handler's result (completed) or JSON-RPC error (failed). */
  outcome?: { result: Record<string, unknown> } | { error: { code: number; message: string; data?: unknown } };
  /** Callers of tasks/result waiting for the task to settle. */
  readonly waiting: Set<() => void>;
}

const TERMINAL = new Set(["completed", "failed", "cancelled"]);

/** The client's tasks: created for task-augmented server requests, answered to the server's tasks/* requests. */
export class ClientTasks {
  private readonly tasks = new Map<string, Held>();
  private readonly now: () => number;
  private readonly maxTtl: number;
  private readonly poll: number;
  private readonly maxTasks: number;
  private readonly pageSize: number;

  constructor(
    options: ClientTaskOptions,
    /** Sends a status notification (failures are the caller's to report). */
    private readonly notify: (method: string, params: Record<string, unknown>) => void,
  ) {
    this.now = options.now ?? Date.now;
    this.maxTtl = options.maxTtlMs ?? 3_600_000;
    this.poll = options.pollIntervalMs ?? 500;
    this.maxTasks = options.maxTasks ?? 1_000;
    this.pageSize = options.pageSize ?? 100;
  }

  /**
   * Start a task running `work` (the client's handler, given the task's signal), settled by `check` (the
   * method's result validated; a throw fails the task with its JSON-RPC error, else -32603). Returns the
   * CreateTaskResult to answer the request with.
   */
  create(requestedTtl: unknown, work: (signal: AbortSignal, taskId: string) => unknown, check: (result: unknown) => Record<string, unknown>, life: AbortSignal): Record<string, unknown> {
    this.sweep();
    if (this.tasks.size >= this.maxTasks) throw new PeerError(ErrorCode.InternalError, `this client holds ${this.maxTasks} tasks already (its limit)`);
    const at = new Date(this.now()).toISOString();
    const ttl = typeof requestedTtl === "number" && requestedTtl >= 0 ? Math.min(requestedTtl, this.maxTtl) : this.maxTtl;
    const task: ReceivedTask = { taskId: crypto.randomUUID(), status: "working", createdAt: at, lastUpdatedAt: at, ttl, pollInterval: this.poll };
    const held: Held = { task, expires: this.now() + ttl, stop: new AbortController(), waiting: new Set() };
    this.tasks.set(task.taskId, held);
    const onClose = (): void => this.settle(held, "cancelled", undefined, "the client closed");
    life.addEventListener("abort", onClose, { once: true });
    void (async () => {
      try {
        const result = check(await work(held.stop.signal, task.taskId));
        this.settle(held, "completed", { result });
      } catch (error) {
        this.settle(held, "failed", { error: errorObject(error) }, error instanceof Error ? error.message : undefined);
      } finally {
        life.removeEventListener("abort", onClose);
      }
    })();
    return { task: { ...task } };
  }

  /** tasks/get: the task's state; -32602 for a task this client does not hold. */
  get(taskId: unknown): Record<string, unknown> {
    return { ...this.held(taskId).task };
  }

  /** tasks/result: waits for the task to settle, then its result (with the related-task `_meta`) or its error. */
  async result(taskId: unknown, signal: AbortSignal): Promise<Record<string, unknown>> {
    const held = this.held(taskId);
    while (!TERMINAL.has(held.task.status)) {
      await new Promise<void>((resolve, reject) => {
        const done = (): void => {
          held.waiting.delete(done);
          signal.removeEventListener("abort", aborted);
          resolve();
        };
        const aborted = (): void => {
          held.waiting.delete(done);
          reject(signal.reason);
        };
        if (signal.aborted) return reject(signal.reason);
        held.waiting.add(done);
        signal.addEventListener("abort", aborted, { once: true });
      });
    }
    const related = { [META_RELATED_TASK]: { taskId: held.task.taskId } };
    const outcome = held.outcome;
    if (held.task.status === "completed" && outcome !== undefined && "result" in outcome) {
      const meta = typeof outcome.result._meta === "object" && outcome.result._meta !== null ? outcome.result._meta : {};
      return { ...outcome.result, _meta: { ...meta, ...related } };
    }
    if (outcome !== undefined && "error" in outcome) throw new PeerError(outcome.error.code, outcome.error.message, outcome.error.data);
    throw new PeerError(ErrorCode.InternalError, `the task ${held.task.taskId} was cancelled${held.task.statusMessage === undefined ? "" : `: ${held.task.statusMessage}`}`);
  }

  /** tasks/list: the tasks held, oldest first, a page at a time (the cursor is the last task id of the page before). */
  list(cursor: unknown): Record<string, unknown> {
    this.sweep();
    const all = [...this.tasks.values()];
    let start = 0;
    if (cursor !== undefined) {
      const at = all.findIndex((h) => h.task.taskId === cursor);
      if (typeof cursor !== "string" || at < 0) throw new PeerError(ErrorCode.InvalidParams, `unknown cursor ${JSON.stringify(cursor)}`);
      start = at + 1;
    }
    const page = all.slice(start, start + this.pageSize);
    const next = start + this.pageSize < all.length ? page.at(-1)!.task.taskId : undefined;
    return { tasks: page.map((h) => ({ ...h.task })), ...(next === undefined ? {} : { nextCursor: next }) };
  }

  /** tasks/cancel: stops the handler (its signal aborts) and answers the task, now cancelled; -32602 for a settled one. */
  cancel(taskId: unknown): Record<string, unknown> {
    const held = this.held(taskId);
    if (TERMINAL.has(held.task.status)) throw new PeerError(ErrorCode.InvalidParams, `the task ${held.task.taskId} is ${held.task.status} already and cannot be cancelled`);
    this.settle(held, "cancelled", undefined, "cancelled by the requestor");
    return { ...held.task };
  }

  private held(taskId: unknown): Held {
    const held = typeof taskId === "string" ? this.tasks.get(taskId) : undefined;
    if (held === undefined || held.expires <= this.now()) {
      if (held !== undefined) this.drop(held);
      throw new PeerError(ErrorCode.InvalidParams, `unknown task ${JSON.stringify(taskId)}`);
    }
    return held;
  }

  private settle(held: Held, status: "completed" | "failed" | "cancelled", outcome: Held["outcome"], message?: string): void {
    if (TERMINAL.has(held.task.status)) return;
    held.outcome = outcome;
    held.task = { ...held.task, status, lastUpdatedAt: new Date(this.now()).toISOString(), ...(message === undefined ? {} : { statusMessage: message }) };
    if (status === "cancelled") held.stop.abort(new PeerError(ErrorCode.InternalError, message ?? "cancelled"));
    for (const wake of [...held.waiting]) wake();
    this.notify("notifications/tasks/status", { ...held.task });
  }

  private drop(held: Held): void {
    held.stop.abort(new PeerError(ErrorCode.InternalError, "the task expired"));
    this.tasks.delete(held.task.taskId);
  }

  private sweep(): void {
    const now = this.now();
    for (const held of [...this.tasks.values()]) if (held.expires <= now) this.drop(held);
  }
}

/** A thrown value as the JSON-RPC error a failed task answers tasks/result with. */
function errorObject(error: unknown): { code: number; message: string; data?: unknown } {
  const e = error as { code?: unknown; message?: unknown; data?: unknown } | null;
  if (error instanceof Error && Number.isInteger(e?.code)) return { code: e!.code as number, message: String(e!.message), ...(e!.data === undefined ? {} : { data: e!.data }) };
  return { code: ErrorCode.InternalError, message: `Internal error: ${error instanceof Error ? error.message : String(error)}` };
}
