/** A task as the Tasks extension sends it (its DetailedTask): taskId, status, createdAt, lastUpdatedAt, ttlMs, and the status's members. */
export type TaskRecord = { taskId: string; status: string; createdAt: string; lastUpdatedAt: string; ttlMs: number | null } & Record<string, unknown>;
export interface TaskStore {
  /** Stores a new task, expiring ttlMs after createdAt when ttlMs is a number; rejects when the taskId exists. */
  create(task: TaskRecord): Promise<void>;
  /** The task, or undefined when unknown or expired. */
  get(taskId: string): Promise<TaskRecord | undefined>;
  /** Replaces the task by change(current), atomically (a concurrent update elsewhere makes it retry with the new current), unless the task is unknown, expired or terminal (completed, failed, cancelled): resolves to the task as stored afterwards, or undefined when unknown or expired. change returning undefined leaves it unchanged. */
  update(taskId: string, change: (current: TaskRecord) => TaskRecord | undefined): Promise<TaskRecord | undefined>;
  /** Calls listener with the task after every stored change of taskId, made by any process sharing the store, until the returned function is called. */
  watch(taskId: string, listener: (task: TaskRecord) => void): () => void;
  close?(): Promise<void>;
}
