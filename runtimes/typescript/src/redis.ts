// Scale-out on Redis: what lets N server processes behind a load balancer act as one server.
// - `createRedisFanout` carries `router.publish` (list_changed, resources/updated) to every process, so a
//   `subscriptions/listen` stream (or a legacy session's GET stream) on any process gets what any process
//   publishes: give it to `createServerRouter({ fanout })`.
// - `createRedisTaskStore` keeps tasks (the Tasks extension's TaskStore) in Redis: any process creates,
//   reads, updates and watches any task; a task outlives the process that created it.
// This is an optional entry point (`runtime/redis`): it imports the official `redis` client, an optional
// peer dependency of the generated package, which nothing else imports.
// While Redis is unreachable every operation rejects at once (no offline queue), local delivery of
// `publish` goes on, and the clients reconnect by themselves (and re-subscribe).
import { randomUUID } from "node:crypto";
import { createClient } from "redis";
import type { Fanout } from "./router.js";
import { expiresAt, type TaskRecord, type TaskStore } from "./task-store.js";

export interface RedisOptions {
  /** The server, e.g. `redis://127.0.0.1:6379` (the client's default when absent). */
  url?: string;
  /** Prefix of every key and channel (default `"mcp:"`): servers with different prefixes share a Redis without meeting. */
  prefix?: string;
  /** Connection problems (the client reconnects by itself). Default: one line on stderr. */
  onError?: (error: unknown) => void;
  /** A command not answered within this many ms rejects (default 2,000): a hung Redis (SIGSTOP, a dead link) never hangs a request. */
  commandTimeoutMs?: number;
  /** Connecting (and reconnecting) gives up after this many ms per attempt (default 5,000). */
  connectTimeoutMs?: number;
  /** TCP keep-alive probes start after this many ms idle (default 5,000); and the client pings every `pingIntervalMs` (default 10,000). */
  keepAliveMs?: number;
  pingIntervalMs?: number;
  /** Reconnection backoff: 50 ms doubling up to this many ms (default 1,000). */
  maxReconnectDelayMs?: number;
  /** Most commands queued unanswered per client (default 10,000): more reject at once, so a hung Redis cannot grow memory. */
  maxQueuedCommands?: number;
}

export const REDIS_DEFAULTS = { commandTimeoutMs: 2000, connectTimeoutMs: 5000, keepAliveMs: 5000, pingIntervalMs: 10_000, maxReconnectDelayMs: 1000, maxQueuedCommands: 10_000 } as const;

type Client = ReturnType<typeof createClient>;

const logRedisError = (error: unknown) => process.stderr.write(`mcp redis: ${error instanceof Error ? error.message : String(error)}\n`);

/**
 * A connected client that fails commands at once while disconnected, fails a command unanswered after
 * `commandTimeoutMs`, probes an idle link (TCP keep-alive, PING) and reconnects with a capped backoff.
 */
async function connected(options: RedisOptions): Promise<Client> {
  const maxDelay = options.maxReconnectDelayMs ?? REDIS_DEFAULTS.maxReconnectDelayMs;
  const client = createClient({
    ...(options.url === undefined ? {} : { url: options.url }),
    disableOfflineQueue: true,
    commandsQueueMaxLength: options.maxQueuedCommands ?? REDIS_DEFAULTS.maxQueuedCommands,
    pingInterval: options.pingIntervalMs ?? REDIS_DEFAULTS.pingIntervalMs,
    socket: {
      connectTimeout: options.connectTimeoutMs ?? REDIS_DEFAULTS.connectTimeoutMs,
      keepAlive: true,
      keepAliveInitialDelay: options.keepAliveMs ?? REDIS_DEFAULTS.keepAliveMs,
      reconnectStrategy: (retries: number) => Math.min(50 * 2 ** Math.min(retries, 5), maxDelay),
    },
  });
  client.on("error", options.onError ?? logRedisError);
  await client.connect();
  return client as Client;
}

/** One command with the command timeout; a failure says which command and why, for the operator (the client only sees -32603). */
function commander(client: Client, options: RedisOptions): <T>(args: string[]) => Promise<T> {
  const timeout = options.commandTimeoutMs ?? REDIS_DEFAULTS.commandTimeoutMs;
  return async <T>(args: string[]): Promise<T> => {
    // The client's own timeout does not cover a command already written to a server that stopped
    // answering (SIGSTOP): the timer here does; the command, still queued, settles when the link does.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error("timeout"), { name: "TimeoutError" })), timeout);
    });
    const sent = client.sendCommand<T>(args, { timeout });
    sent.catch(() => undefined);
    try {
      return await Promise.race([sent, expired]);
    } catch (error) {
      const why = error instanceof Error && error.name === "TimeoutError" ? `no answer within ${timeout} ms (commandTimeoutMs)` : error instanceof Error ? error.message : String(error);
      throw new Error(`Redis ${args[0]} failed: ${why}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  };
}

/** A fanout over Redis pub/sub: one channel per prefix; a process drops its own messages. */
export async function createRedisFanout(options: RedisOptions = {}): Promise<Fanout & { close(): Promise<void> }> {
  const channel = `${options.prefix ?? "mcp:"}publish`;
  const origin = randomUUID();
  const client = await connected(options);
  const command = commander(client, options);
  const subscriber = client.duplicate();
  subscriber.on("error", options.onError ?? logRedisError);
  await subscriber.connect();
  const receivers = new Set<(method: string, params: Record<string, unknown> | undefined) => void>();
  await subscriber.subscribe(channel, (text: string) => {
    let message: { origin?: unknown; method?: unknown; params?: unknown };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return;
    }
    if (message.origin === origin || typeof message.method !== "string") return;
    const params = typeof message.params === "object" && message.params !== null && !Array.isArray(message.params) ? (message.params as Record<string, unknown>) : undefined;
    for (const receive of receivers) receive(message.method, params);
  });
  return {
    async publish(method, params) {
      await command(["PUBLISH", channel, JSON.stringify({ origin, method, params })]);
    },
    subscribe(receive) {
      receivers.add(receive);
      return () => void receivers.delete(receive);
    },
    async close() {
      receivers.clear();
      await Promise.allSettled([subscriber.close(), client.close()]);
    },
  };
}

const TERMINAL = new Set(["completed", "failed", "cancelled"]);

/** Store the task unless its key exists; publish it on its channel. 1 stored, 0 exists. */
const CREATE = `if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
if ARGV[2] ~= '' then redis.call('SET', KEYS[1], ARGV[1], 'PXAT', ARGV[2]) else redis.call('SET', KEYS[1], ARGV[1]) end
redis.call('PUBLISH', ARGV[3], ARGV[1])
return 1`;

/** Replace the task only if it is still what was read (compare and set); publish it. 1 replaced, 0 changed meanwhile. */
const REPLACE = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[3] ~= '' then redis.call('SET', KEYS[1], ARGV[2], 'PXAT', ARGV[3]) else redis.call('SET', KEYS[1], ARGV[2]) end
redis.call('PUBLISH', ARGV[4], ARGV[2])
return 1`;

/** When the task expires (ms since the epoch, the in-memory store's rule: expiresAt), or "" when it does not. */
function expiry(task: TaskRecord): string {
  const at = expiresAt(task);
  return Number.isFinite(at) ? String(Math.floor(at)) : "";
}

/** A TaskStore in Redis, shared by every process given the same `url` and `prefix`. */
export async function createRedisTaskStore(options: RedisOptions = {}): Promise<TaskStore & { close(): Promise<void> }> {
  const prefix = options.prefix ?? "mcp:";
  const key = (taskId: string) => `${prefix}task:${taskId}`;
  const channel = (taskId: string) => `${prefix}task-changed:${taskId}`;
  const client = await connected(options);
  const command = commander(client, options);
  const subscriber = client.duplicate();
  subscriber.on("error", options.onError ?? logRedisError);
  await subscriber.connect();
  const watchers = new Map<string, Set<(task: TaskRecord) => void>>();
  const read = (text: string | null): TaskRecord | undefined => (text === null ? undefined : (JSON.parse(text) as TaskRecord));

  return {
    async create(task) {
      const text = JSON.stringify(task);
      const at = expiry(task);
      if (at !== "" && Number(at) <= Date.now()) return; // expired already: nothing to keep
      const stored = await command<number>(["EVAL", CREATE, "1", key(task.taskId), text, at, channel(task.taskId)]);
      if (stored !== 1) throw new Error(`task ${task.taskId} exists`);
    },
    async get(taskId) {
      return read(await command<string | null>(["GET", key(taskId)]));
    },
    async getMany(taskIds) {
      if (taskIds.length === 0) return [];
      const texts = await command<Array<string | null>>(["MGET", ...taskIds.map(key)]);
      return texts.map(read);
    },
    async update(taskId, change) {
      for (;;) {
        const before = await command<string | null>(["GET", key(taskId)]);
        const current = read(before);
        if (before === null || current === undefined) return undefined;
        if (TERMINAL.has(current.status)) return current;
        const next = change(current);
        if (next === undefined) return current;
        const text = JSON.stringify(next);
        const replaced = await command<number>(["EVAL", REPLACE, "1", key(taskId), before, text, expiry(next), channel(taskId)]);
        if (replaced === 1) return read(text);
      }
    },
    watch(taskId, listener) {
      let listeners = watchers.get(taskId);
      if (listeners === undefined) {
        const set = new Set<(task: TaskRecord) => void>();
        listeners = set;
        watchers.set(taskId, set);
        subscriber
          .subscribe(channel(taskId), (text: string) => {
            const task = read(text);
            if (task !== undefined) for (const l of [...set]) l(task);
          })
          .catch(options.onError ?? logRedisError);
      }
      listeners.add(listener);
      return () => {
        const set = watchers.get(taskId);
        if (set === undefined || !set.delete(listener) || set.size > 0) return;
        watchers.delete(taskId);
        subscriber.unsubscribe(channel(taskId)).catch(options.onError ?? logRedisError);
      };
    },
    async close() {
      watchers.clear();
      await Promise.allSettled([subscriber.close(), client.close()]);
    },
  };
}
