// The official Tasks client, @modelcontextprotocol/ext-tasks@0.2.2 over @modelcontextprotocol/client
// 2.4.0 pinned to 2026-07-28, drives task-augmented tools/call through serveHttp and the generated
// router serving the Tasks extension: create, poll, input_required answered with tasks/update,
// completion; and cancel. The server's store is read directly to see what the runtime stored.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createTaskSessionFromClient, resultFromTaskOutcome, type RawClientDispatch } from "@modelcontextprotocol/ext-tasks/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createServerRouter, type ServerRouter } from "../../generated/router.js";
import type * as ext from "../../generated/2026-07-28+tasks/index.js";
import { createMemoryTaskStore, type TaskRecord, type TaskStore } from "../../generated/runtime/task-store.js";
import { task, tasksExtension, TASKS_EXTENSION, type TaskControl } from "../../generated/runtime/tasks.js";
import { serveHttp, type HttpServer } from "../../generated/runtime/transport-http.js";

const VERSION = "2026-07-28";
const text = (t: string) => ({ type: "text" as const, text: t });
type Handlers = Omit<ext.ServerHandlers, "server/discover" | "subscriptions/listen">;

/** A promise with its resolve, to hold a task's work until the test lets it go. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe("@modelcontextprotocol/ext-tasks@0.2.2 against the generated router (Tasks extension, serveHttp)", () => {
  let store: TaskStore;
  let router: ServerRouter;
  let http: HttpServer;
  let client: Client;
  let release: ReturnType<typeof gate>;
  let aborted: string[];
  let extension: ReturnType<typeof tasksExtension<Handlers>>;
  const statuses = new Map<string, string[]>();

  beforeEach(async () => {
    store = createMemoryTaskStore();
    release = gate();
    aborted = [];
    statuses.clear();
    const tools = ["slow", "ask", "instant"].map((name) => ({ name, inputSchema: { type: "object" as const } }));
    const handlers: Handlers = { "tools/list": () => ({ tools, ttlMs: 0, cacheScope: "public" }), "tools/call": () => ({ content: [text("core")] }) };
    const watchStatuses = (taskId: string) => store.watch(taskId, (t: TaskRecord) => statuses.get(taskId)!.push(t.status));
    extension = tasksExtension<Handlers>({
      store,
      pollIntervalMs: 10,
      handlers: {
        "tools/call": ({ name }) => {
          if (name === "instant") return { content: [text("instant")] };
          return task(async (t: TaskControl) => {
            statuses.set(t.taskId, ["working"]);
            watchStatuses(t.taskId);
            if (name === "ask") {
              const answers = await t.input({
                who: { method: "elicitation/create", params: { mode: "form", message: "Who?", requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } } },
              });
              const answer = answers.who as { content?: { name?: string } };
              return { content: [text(`Hello, ${answer.content?.name}!`)] };
            }
            t.signal.addEventListener("abort", () => aborted.push(t.taskId));
            await Promise.race([release.promise, new Promise((resolve) => t.signal.addEventListener("abort", resolve))]);
            return { content: [text("slow done")] };
          });
        },
      },
    });
    router = createServerRouter({
      serverInfo: { name: "tasks-e2e", version: "1.0.0" },
      versions: { [VERSION]: { handlers, capabilities: { tools: {} }, extensions: { [TASKS_EXTENSION]: extension } } },
    });
    http = await serveHttp(router, { port: 0 });
    client = new Client({ name: "ext-tasks-e2e", version: "1.0.0" }, { versionNegotiation: { mode: { pin: VERSION } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
  });

  afterEach(async () => {
    release.open();
    await client.close();
    router.close();
    await http.close();
  });

  /** The host's raw request path the package needs for 2026-07-28 task traffic: one POST per request, with the routing headers. */
  const rawDispatch: RawClientDispatch = async (request) => {
    const message = request as { method: string; params?: Record<string, unknown> };
    const name = message.method === "tools/call" ? message.params?.name : message.method.startsWith("tasks/") ? message.params?.taskId : undefined;
    const response = await fetch(http.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": VERSION,
        "mcp-method": message.method,
        ...(typeof name === "string" ? { "mcp-name": name } : {}),
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, ...message }),
    });
    const body = (await response.json()) as { result?: never; error?: never };
    return body.error !== undefined ? { kind: "error", error: body.error } : { kind: "result", result: body.result! };
  };

  function session(onInput?: Parameters<typeof createTaskSessionFromClient>[1]["onInputRequest"]) {
    return createTaskSessionFromClient(client, {
      endpointId: "e2e",
      rawDispatch,
      v2RequestFraming: { protocolVersion: VERSION, clientInfo: { name: "ext-tasks-e2e", version: "1.0.0" }, clientCapabilities: {} },
      ...(onInput === undefined ? {} : { onInputRequest: onInput }),
    });
  }

  it("sees the extension advertised by server/discover", () => {
    expect(client.getServerCapabilities()?.extensions).toEqual({ [TASKS_EXTENSION]: {} });
  });

  it("creates a task, polls it while working, and gets the completed result", async () => {
    const s = session();
    try {
      const execution = await s.callTool("slow", {});
      expect(execution.kind).toBe("task");
      const taskId = execution.handle!.taskId;
      // Stored before the CreateTaskResult was sent, working, and so it stays until released.
      expect((await store.get(taskId))?.status).toBe("working");
      const view = await s.task(taskId).snapshot();
      expect(view).toMatchObject({ taskId, status: "working" });
      release.open();
      const { outcome } = await execution.settle();
      expect(resultFromTaskOutcome(outcome)).toMatchObject({ content: [text("slow done")] });
      expect((await store.get(taskId))?.status).toBe("completed");
      expect(statuses.get(taskId)).toEqual(["working", "completed"]);
    } finally {
      await s.close();
    }
  });

  it("answers input_required with tasks/update and completes with the answer", async () => {
    const asked: unknown[] = [];
    const s = session(async (request) => {
      asked.push(request);
      return { action: "accept", content: { name: "Ada" } } as never;
    });
    try {
      const execution = await s.callTool("ask", {});
      expect(execution.kind).toBe("task");
      const taskId = execution.handle!.taskId;
      const { outcome } = await execution.settle();
      expect(resultFromTaskOutcome(outcome)).toMatchObject({ content: [text("Hello, Ada!")] });
      expect(asked).toEqual([expect.objectContaining({ kind: "elicitation", params: expect.objectContaining({ message: "Who?" }) })]);
      expect(statuses.get(taskId)).toEqual(["working", "input_required", "working", "working", "completed"]);
      const stored = (await store.get(taskId))!;
      expect(stored.status).toBe("completed");
      expect(stored).not.toHaveProperty("inputRequests");
    } finally {
      await s.close();
    }
  });

  it("cancels a running task: settled cancelled in the store and the work's signal aborted", async () => {
    const s = session();
    try {
      const execution = await s.callTool("slow", {});
      const taskId = execution.handle!.taskId;
      await execution.cancel();
      expect((await store.get(taskId))?.status).toBe("cancelled");
      expect(aborted).toEqual([taskId]);
      // The work then finishes, but a cancelled task never changes again.
      release.open();
      await extension.idle();
      expect((await store.get(taskId))?.status).toBe("cancelled");
    } finally {
      await s.close();
    }
  });

  it("answers a plain result as it is when the handler returns one", async () => {
    const s = session();
    try {
      const execution = await s.callTool("instant", {});
      expect(execution.kind).toBe("immediate");
      const { outcome } = await execution.settle();
      expect(resultFromTaskOutcome(outcome)).toMatchObject({ content: [text("instant")] });
    } finally {
      await s.close();
    }
  });
});
