// Task-augmented requests from the generated client against a server nobody here wrote:
// @modelcontextprotocol/server-everything (SDK 1.32.2), whose `simulate-research-query` tool is listed with
// `execution.taskSupport: "required"` and runs four one-second stages (pollInterval 1000 ms), over stdio and
// streamable HTTP, at each version of the generated tree whose METHOD_TABLE says a tools/call with `task` is
// answered by a task (`taskResult`) and that the SDK speaks.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { SUPPORTED_PROTOCOL_VERSIONS as SDK1_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { ClientError, createClient, httpClientTransport, stdioClientTransport, type ClientTransport, type ClientVersion } from "../../generated/client.js";
import { createServerRouter, eras } from "../../generated/router.js";
import { serveHttp, type HttpServer } from "../../generated/runtime/transport-http.js";
import { everything, root, startEverything, stopChildren } from "./servers.js";

let server: HttpServer | undefined;
afterEach(async () => {
  await stopChildren();
  await server?.close();
  server = undefined;
});

type Row = { taskResult: string | null; taskCapability: string[] | null };
const tables = await Promise.all(
  Object.keys(eras).map(async (label) => [label, ((await import(pathToFileURL(path.join(root, "generated", label, "methods.ts")).href)) as { METHOD_TABLE: Record<string, Row> }).METHOD_TABLE] as const),
);
const table = (label: string): Record<string, Row> => tables.find(([l]) => l === label)![1];
const VERSIONS = tables
  .filter(([label, table]) => table["tools/call"]?.taskResult === "CreateTaskResult" && (SDK1_VERSIONS as string[]).includes(label))
  .map(([label]) => label as ClientVersion)
  .sort();

const clientInfo = { name: "tasks-test", version: "1.0.0" };
const TOOL = "simulate-research-query";
type Text = { content: Array<{ type: string; text?: string }>; _meta?: Record<string, unknown> };

const transports: Array<[string, () => Promise<ClientTransport>]> = [
  ["stdio", async () => stdioClientTransport({ command: process.execPath, args: [everything, "stdio"], stderr: "ignore" })],
  ["streamable HTTP", async () => httpClientTransport(await startEverything())],
];

describe("task-augmented requests against server-everything", () => {
  it("there is a version to test: some generated version's tools/call has a taskResult the SDK speaks", () => {
    expect(VERSIONS.length).toBeGreaterThan(0);
  });

  for (const version of VERSIONS) {
    for (const [name, open] of transports) {
      it(`${version} over ${name}: a taskSupport "required" tool is refused when called plainly, then called to completion through callToolAsTask, polled by its pollInterval`, async () => {
        const client = createClient({ clientInfo, versions: [version] });
        await client.connect(await open());
        try {
          const tools = (await client.request("tools/list", {})) as { tools: Array<{ name: string; execution?: { taskSupport?: string } }> };
          expect(tools.tools.find((t) => t.name === TOOL)?.execution?.taskSupport).toBe("required");
          // Refused locally: nothing is sent, so no task is created (tasks/list below shows only the one callToolAsTask makes).
          const plain = await client.request("tools/call", { name: TOOL, arguments: { topic: "tides" } }).catch((e: unknown) => e);
          expect(plain).toBeInstanceOf(ClientError);
          expect((plain as ClientError).kind).toBe("task");
          expect((plain as ClientError).message).toContain('execution.taskSupport is "required"');

          const polls: number[] = [];
          const started = Date.now();
          const original = client.tasks.get;
          client.tasks.get = (taskId, options) => {
            polls.push(Date.now() - started);
            return original(taskId, options);
          };
          const result = (await client.callToolAsTask({ name: TOOL, arguments: { topic: "tides" } })) as Text;
          expect(result.content[0].type).toBe("text");
          expect(result.content[0].text).toContain("# Research Report: tides");
          // Four one-second stages, polled no sooner than the task's pollInterval (1000 ms) apart.
          expect(polls.length).toBeGreaterThanOrEqual(2);
          for (let i = 1; i < polls.length; i++) expect(polls[i] - polls[i - 1]).toBeGreaterThanOrEqual(990);
          expect(polls[0]).toBeGreaterThanOrEqual(990);

          const listed = (await client.tasks.list()) as { tasks: Array<{ taskId: string; status: string }> };
          expect(listed.tasks.map((t) => t.status)).toEqual(["completed"]);
          const got = await client.tasks.get(listed.tasks[0].taskId);
          expect(got).toMatchObject({ taskId: listed.tasks[0].taskId, status: "completed" });
          // The stored result again, validated as tools/call's.
          const again = (await client.tasks.result(listed.tasks[0].taskId, { method: "tools/call" })) as Text;
          expect(again.content).toEqual(result.content);
        } finally {
          await client.close();
        }
      }, 30_000);

      it(`${version} over ${name}: request with task resolves to the CreateTaskResult; tasks/get and tasks/cancel follow it`, async () => {
        const client = createClient({ clientInfo, versions: [version] });
        await client.connect(await open());
        try {
          const created = await client.request("tools/call", { name: TOOL, arguments: { topic: "reefs" }, task: { ttl: 60_000 } });
          expect(Object.keys(created)).toContain("task");
          const task = created.task as { taskId: string; status: string; pollInterval?: number };
          expect(typeof task.taskId).toBe("string");
          expect(task.status).toBe("working");
          expect(task.pollInterval).toBe(1000);
          expect(await client.tasks.get(task.taskId)).toMatchObject({ taskId: task.taskId, status: "working" });
          const cancelled = await client.tasks.cancel(task.taskId);
          expect(cancelled).toMatchObject({ taskId: task.taskId, status: "cancelled" });
          expect(await client.tasks.get(task.taskId)).toMatchObject({ status: "cancelled" });
        } finally {
          await client.close();
        }
      }, 30_000);
    }
  }

  it("a task-augmented request a version cannot answer with a task is refused before it is sent", async () => {
    const client = createClient({ clientInfo, versions: [VERSIONS[0]] });
    await client.connect(stdioClientTransport({ command: process.execPath, args: [everything, "stdio"], stderr: "ignore" }));
    try {
      await client.request("tools/list", {});
      // echo is listed without execution.taskSupport: forbidden as a task.
      const refused = await client.request("tools/call", { name: "echo", arguments: { message: "x" }, task: {} }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ClientError);
      expect((refused as ClientError).kind).toBe("task");
      expect((refused as ClientError).message).toContain('"echo" cannot be called as a task');
      // prompts/get has no task param: no taskResult.
      const noTask = await client.request("prompts/get", { name: "simple-prompt", task: {} }).catch((e: unknown) => e);
      expect((noTask as ClientError).kind).toBe("task");
      expect((noTask as ClientError).message).toBe(`prompts/get cannot be task-augmented at ${VERSIONS[0]} (its params have no task)`);
    } finally {
      await client.close();
    }
  }, 30_000);

  it("notifications/tasks/status from the server (the generated router, over HTTP) reaches the client's handler of that name, as sent", async () => {
    const version = VERSIONS[0];
    const status = { taskId: "t-1", status: "working", statusMessage: "stage 1", createdAt: "2025-11-25T00:00:00Z", lastUpdatedAt: "2025-11-25T00:00:01Z", ttl: null, pollInterval: 500 };
    const router = createServerRouter({
      serverInfo: { name: "status-sender", version: "1.0.0" },
      versions: {
        [version]: {
          capabilities: { tools: {} },
          handlers: {
            "tools/call": async (_params: unknown, context: { notify(method: string, params?: Record<string, unknown>): Promise<void> }) => {
              await context.notify("notifications/tasks/status", status);
              return { content: [{ type: "text", text: "sent" }] };
            },
          },
        },
      } as never,
    });
    server = await serveHttp(router, { port: 0 });
    const heard: unknown[] = [];
    const client = createClient({ clientInfo, versions: [version], handlers: { "notifications/tasks/status": ((params: unknown) => void heard.push(params)) as never } });
    await client.connect(httpClientTransport(server.url));
    try {
      expect(await client.request("tools/call", { name: "any", arguments: {} })).toEqual({ content: [{ type: "text", text: "sent" }] });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(heard).toEqual([status]);
    } finally {
      await client.close();
    }
  });

  it("a scripted server: a task result missing Task members is refused with their pointers; refused calls send nothing", async () => {
    const version = VERSIONS[0];
    const sent: Array<{ method?: string; params?: Record<string, unknown> }> = [];
    let capabilities: Record<string, unknown> = { tools: {}, tasks: { requests: { tools: { call: {} } } } };
    let receiver: Parameters<ClientTransport["start"]>[0];
    const answers: Record<string, (params: Record<string, unknown>) => unknown> = {
      initialize: () => ({ protocolVersion: version, capabilities, serverInfo: { name: "scripted", version: "1" } }),
      "tools/list": () => ({ tools: [{ name: "slow", inputSchema: { type: "object" }, execution: { taskSupport: "required" } }, { name: "plain", inputSchema: { type: "object" } }] }),
      "tools/call": () => ({ task: { taskId: "t-1", status: "working" } }),
    };
    const transport: ClientTransport = {
      start: async (r) => void (receiver = r),
      send: async (message) => {
        const m = message as { id?: number; method?: string; params?: Record<string, unknown> };
        sent.push({ method: m.method, params: m.params });
        if (m.id !== undefined && m.method !== undefined) queueMicrotask(() => receiver.message({ jsonrpc: "2.0", id: m.id, result: answers[m.method!](m.params ?? {}) }));
      },
      close: async () => undefined,
    };
    const client = createClient({ clientInfo, versions: [version] });
    await client.connect(transport);
    try {
      await client.request("tools/list", {});
      const before = sent.length;
      expect(table(version)["tools/call"].taskCapability).not.toBeNull();
      await expect(client.request("tools/call", { name: "slow", arguments: {} })).rejects.toMatchObject({ kind: "task" });
      await expect(client.request("tools/call", { name: "plain", arguments: {}, task: {} })).rejects.toMatchObject({ kind: "task" });
      expect(sent.length).toBe(before);
      const invalid = (await client.request("tools/call", { name: "slow", arguments: {}, task: { ttl: 1000 } }).catch((e: unknown) => e)) as ClientError;
      expect(sent.at(-1)).toEqual({ method: "tools/call", params: { name: "slow", arguments: {}, task: { ttl: 1000 } } });
      expect(invalid).toBeInstanceOf(ClientError);
      expect(invalid.kind).toBe("invalid-result");
      expect(invalid.message).toContain(`the tools/call result is not a valid CreateTaskResult at ${version}`);
      expect([...invalid.pointers].sort()).toEqual(["/task/createdAt", "/task/lastUpdatedAt", "/task/ttl"]);
      // A server that does not declare the row's taskCapability is not sent a task.
      capabilities = { tools: {} };
      const other = createClient({ clientInfo, versions: [version] });
      await other.connect(transport);
      const count = sent.length;
      const undeclared = (await other.request("tools/call", { name: "slow", arguments: {}, task: {} }).catch((e: unknown) => e)) as ClientError;
      expect(undeclared.kind).toBe("capability");
      expect(undeclared.message).toBe(`the server does not accept tools/call as a task at ${version}: its capabilities do not declare ${table(version)["tools/call"].taskCapability!.join(".")}`);
      expect(sent.slice(count).map((m) => m.method)).toEqual([]);
      await other.close();
    } finally {
      await client.close();
    }
  });
});
