// Helpers of the issue-28 tests (internet.test.ts, redis-faults.test.ts): a 2026-07-28 server with the Tasks
// extension behind serveHttp whose host principal hook reads `x-principal`, raw HTTP requests as a given
// principal, and the two-principal scenario run against any TaskStore.
import { expect } from "vitest";
import { createServerRouter } from "../../generated/router.js";
import type * as ext from "../../generated/2026-07-28+tasks/index.js";
import { encodeHeaderValue } from "../../generated/runtime/header-encoding.js";
import { createMemoryTaskStore, type TaskStore } from "../../generated/runtime/task-store.js";
import { task, tasksExtension, TASKS_EXTENSION, type TaskControl } from "../../generated/runtime/tasks.js";
import { serveHttp } from "../../generated/runtime/transport-http.js";

const MODERN = "2026-07-28";
type Handlers = Omit<ext.ServerHandlers, "server/discover" | "subscriptions/listen">;
const text = (t: string) => ({ type: "text" as const, text: t });
const meta = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS_EXTENSION]: {} } } };
export const unknownTask = { code: -32602, message: "Failed to retrieve task: Task not found" };

/** Steps run (last first) after each test by runCleanup. */
export const testCleanup: Array<() => unknown> = [];
export async function runCleanup(): Promise<void> {
  for (const step of testCleanup.splice(0).reverse()) await step();
}
const cleanup = testCleanup;

export interface TaskServerOptions {
  store?: TaskStore;
  tasks?: Partial<Parameters<typeof tasksExtension<Handlers>>[0]>;
  http?: Parameters<typeof serveHttp>[1];
  /** Router options besides serverInfo, versions and onError (its bounds). */
  router?: Pick<Parameters<typeof createServerRouter>[0], "maxListenStreamsPerPrincipal" | "maxListenStreams">;
}

/** A 2026-07-28 server with the Tasks extension; the host's principal hook reads `x-principal`. */
export async function taskServer(options: TaskServerOptions = {}) {
  const aborted: string[] = [];
  const errors: unknown[] = [];
  const extension = tasksExtension<Handlers>({
    store: options.store ?? createMemoryTaskStore(),
    ttlMs: 60_000,
    pollIntervalMs: 50,
    ...options.tasks,
    handlers: {
      "tools/call": ({ name, arguments: args }) => {
        if (name === "ask")
          return task(async (t: TaskControl) => {
            const answers = await t.input({ q1: { method: "elicitation/create", params: { mode: "form", message: "name?", requestedSchema: { type: "object", properties: {} } } } });
            return { content: [text(`answered ${JSON.stringify(answers.q1)}`)] };
          }) as never;
        if (name === "slow")
          return task(
            (t: TaskControl) =>
              new Promise<object>((resolve) =>
                t.signal.addEventListener("abort", () => {
                  aborted.push(t.taskId);
                  resolve({ content: [] });
                }),
              ),
            args !== undefined && Object.hasOwn(args, "ttlMs") ? { ttlMs: args.ttlMs as number | null } : {},
          ) as never;
        if (name === "big") return task(async () => ({ content: [text("x".repeat(Number(args?.bytes)))] })) as never;
        if (name === "reuse")
          return task(async (t: TaskControl) => {
            await t.input({ q: { method: "elicitation/create", params: { mode: "form", message: "1?", requestedSchema: { type: "object", properties: {} } } } });
            await t.input({ q: { method: "elicitation/create", params: { mode: "form", message: "2?", requestedSchema: { type: "object", properties: {} } } } });
            return { content: [] };
          }) as never;
        return task(async () => ({ content: [text("done")] })) as never;
      },
      ...(options.tasks?.handlers ?? {}),
    },
  });
  const router = createServerRouter({
    serverInfo: { name: "internet", version: "1" },
    onError: (e) => errors.push(e),
    ...options.router,
    versions: { [MODERN]: { capabilities: { tools: {} }, handlers: { "tools/list": () => ({ tools: [], ttlMs: 0, cacheScope: "public" }) }, extensions: { [TASKS_EXTENSION]: extension } } },
  });
  const server = await serveHttp(router, { principal: (req) => (typeof req.headers["x-principal"] === "string" ? req.headers["x-principal"] : undefined), onError: (e) => errors.push(e), ...options.http });
  cleanup.push(() => server.close(), () => router.close(), () => extension.store.close?.());
  let id = 0;
  async function send(principal: string | undefined, method: string, params: Record<string, unknown>, name?: string) {
    const response = await fetch(server.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": MODERN,
        "mcp-method": method,
        ...(name === undefined ? {} : { "mcp-name": encodeHeaderValue(name) }),
        ...(principal === undefined ? {} : { "x-principal": principal }),
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params: { ...params, _meta: meta } }),
    });
    return { status: response.status, body: (await response.json()) as { result?: Record<string, unknown>; error?: Record<string, unknown> } };
  }
  const call = (principal: string | undefined, name: string, args: Record<string, unknown> = {}) => send(principal, "tools/call", { name, arguments: args }, name);
  const get = (principal: string | undefined, taskId: string) => send(principal, "tasks/get", { taskId }, taskId);
  /** Open a listen stream and read up to its acknowledgement; `close` ends it. */
  async function listen(principal: string | undefined, taskIds: unknown[]) {
    const abort = new AbortController();
    const response = await fetch(server.url, {
      method: "POST",
      signal: abort.signal,
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN, "mcp-method": "subscriptions/listen", ...(principal === undefined ? {} : { "x-principal": principal }) },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method: "subscriptions/listen", params: { notifications: { taskIds }, _meta: meta } }),
    });
    cleanup.push(() => abort.abort());
    if (response.headers.get("content-type") === "application/json") return { ack: undefined, error: ((await response.json()) as { error: unknown }).error, events: [] as Array<{ method?: string; params?: Record<string, unknown> }>, close: () => abort.abort() };
    const reader = response.body!.getReader();
    const events: Array<{ method?: string; params?: Record<string, unknown> }> = [];
    let buffer = "";
    const pump = async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done) return;
        buffer += new TextDecoder().decode(value);
        for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
          const data = buffer.slice(0, end).split("\n").find((l) => l.startsWith("data: "));
          buffer = buffer.slice(end + 2);
          if (data !== undefined) events.push(JSON.parse(data.slice(6)));
        }
      }
    };
    void pump();
    await expect.poll(() => events.find((e) => e.method === "notifications/subscriptions/acknowledged"), { timeout: 5000 }).toBeDefined();
    const ack = events.find((e) => e.method === "notifications/subscriptions/acknowledged")!.params!.notifications;
    return { ack, error: undefined, events, close: () => abort.abort() };
  }
  return { server, router, extension, errors, aborted, send, call, get, listen };
}

/** Two principals against one server: B holding A's task id learns nothing and changes nothing (every task method, and listen). */
export async function twoPrincipals(store: TaskStore) {
  const s = await taskServer({ store });
  const asked = await s.call("alice", "ask");
  expect(asked.body.result).toMatchObject({ resultType: "task", status: "working" });
  const askId = asked.body.result!.taskId as string;
  await expect.poll(async () => (await s.get("alice", askId)).body.result?.status, { timeout: 5000 }).toBe("input_required");
  const slowId = (await s.call("alice", "slow")).body.result!.taskId as string;

  // Every task method from bob: exactly the answer to an id that does not exist.
  const never = "00000000-0000-4000-8000-000000000000";
  for (const [method, params] of [
    ["tasks/get", (id: string) => ({ taskId: id })],
    ["tasks/update", (id: string) => ({ taskId: id, inputResponses: { q1: { action: "accept", content: { name: "bob" } } } })],
    ["tasks/cancel", (id: string) => ({ taskId: id })],
  ] as const) {
    const forBob = await s.send("bob", method, params(method === "tasks/update" ? askId : slowId), method === "tasks/update" ? askId : slowId);
    const unknown = await s.send("bob", method, params(never), never);
    expect({ status: forBob.status, error: forBob.body.error }, method).toEqual({ status: unknown.status, error: unknown.body.error });
    expect(forBob.body.error, method).toEqual(unknownTask);
    // With no principal at all (auth off, no hook value): the same.
    expect((await s.send(undefined, method, params(slowId), slowId)).body.error, method).toEqual(unknownTask);
  }
  // Bob's listen names both ids: neither is honored, as for unknown ids; alice's is.
  const bobs = await s.listen("bob", [askId, slowId]);
  expect(bobs.ack).toEqual((await s.listen("bob", [never])).ack);
  expect(bobs.ack).toEqual({ taskIds: [] });
  const alices = await s.listen("alice", [askId, askId, slowId]);
  expect(alices.ack).toEqual({ taskIds: [askId, slowId] });

  // Nothing bob sent changed alice's tasks: the question is still open, the slow task still runs.
  expect((await s.get("alice", askId)).body.result).toMatchObject({ status: "input_required" });
  expect((await s.get("alice", slowId)).body.result).toMatchObject({ status: "working" });
  expect(s.aborted).toEqual([]);
  // Alice answers and cancels: her listen sees it, bob's sees nothing.
  expect((await s.send("alice", "tasks/update", { taskId: askId, inputResponses: { q1: { action: "accept", content: { name: "alice" } } } }, askId)).body.result).toEqual({ resultType: "complete" });
  await expect.poll(async () => (await s.get("alice", askId)).body.result?.status, { timeout: 5000 }).toBe("completed");
  expect((await s.get("alice", askId)).body.result!.result).toEqual({ content: [text('answered {"action":"accept","content":{"name":"alice"}}')], resultType: "complete" });
  expect((await s.send("alice", "tasks/cancel", { taskId: slowId }, slowId)).body.result).toEqual({ resultType: "complete" });
  await expect.poll(() => s.aborted, { timeout: 5000 }).toEqual([slowId]);
  await expect.poll(() => alices.events.filter((e) => e.method === "notifications/tasks").length, { timeout: 5000 }).toBeGreaterThanOrEqual(2);
  expect(bobs.events.filter((e) => e.method === "notifications/tasks")).toEqual([]);
  await s.extension.idle();
  // Bob's probes were answered, never reported: onError heard nothing (a PeerError is only answered).
  expect(s.errors).toEqual([]);
}

