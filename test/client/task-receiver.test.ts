// The generated client as the receiver of task-augmented requests (2025-11-25, basic/utilities/tasks): a
// server's `sampling/createMessage` / `elicitation/create` carrying `task`, where the client declares the
// METHOD_TABLE row's `taskCapability`, is answered with a CreateTaskResult while the client's handler runs,
// and the server's `tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel` are answered about it.
// Against two peers nobody here wrote: server-everything (2026.8.31), whose `trigger-sampling-request-async`
// and `trigger-elicitation-request-async` tools send such requests and poll the client (stdio and streamable
// HTTP), and the official SDK 1.32.2 `Server` driven by the test (in memory), for list, cancel and errors,
// every answer parsed by the SDK's own schemas. At each version whose rows name a taskResult for those
// requests and that the SDK speaks.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CancelTaskResultSchema,
  CreateMessageResultSchema,
  CreateTaskResultSchema,
  GetTaskPayloadResultSchema,
  GetTaskResultSchema,
  ListTasksResultSchema,
  SUPPORTED_PROTOCOL_VERSIONS as SDK1_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { createClient, httpClientTransport, stdioClientTransport, type ClientTransport, type ClientVersion } from "../../generated/client.js";
import { eras } from "../../generated/router.js";
import { META_RELATED_TASK } from "../../generated/protocol.js";
import { everything, root, startEverything, stopChildren } from "./servers.js";

afterEach(stopChildren);

type Row = { status: string; taskResult: string | null; taskCapability: string[] | null; capabilities: string[][] };
const tables = await Promise.all(
  Object.keys(eras).map(async (label) => [label, ((await import(pathToFileURL(path.join(root, "generated", label, "methods.ts")).href)) as { METHOD_TABLE: Record<string, Row> }).METHOD_TABLE] as const),
);
const ASKED = ["sampling/createMessage", "elicitation/create"];
const VERSIONS = tables
  .filter(([label, table]) => ASKED.every((m) => table[m]?.status === "present" && table[m].taskResult !== null && table[m].taskCapability !== null) && (SDK1_VERSIONS as string[]).includes(label))
  .map(([label]) => label as ClientVersion)
  .sort();
const table = (label: string): Record<string, Row> => tables.find(([l]) => l === label)![1];

/** An object with `path` set to `{}` (each key a level). */
function declare(into: Record<string, unknown>, path: readonly string[]): void {
  let at = into;
  for (const key of path) at = (at[key] ??= {}) as Record<string, unknown>;
}

/** The client's capabilities: sampling and elicitation, each as a task (the rows' taskCapability), and what tasks/list and tasks/cancel ask of their receiver. */
function capabilities(version: string, asTasks: boolean): Record<string, unknown> {
  const caps: Record<string, unknown> = { sampling: {}, elicitation: { form: {} } };
  if (!asTasks) return caps;
  for (const m of ASKED) declare(caps, table(version)[m].taskCapability!);
  for (const m of ["tasks/get", "tasks/result", "tasks/list", "tasks/cancel"]) for (const p of table(version)[m]?.capabilities ?? []) declare(caps, p);
  return caps;
}

const clientInfo = { name: "task-receiver-test", version: "1.0.0" };
const sampled = { role: "assistant" as const, content: { type: "text" as const, text: "sampled as a task" }, model: "test-model" };
const pause = (ms: number, signal?: AbortSignal) => new Promise<void>((resolve, reject) => {
  const t = setTimeout(resolve, ms);
  signal?.addEventListener("abort", () => (clearTimeout(t), reject(signal.reason)), { once: true });
});

describe("task-augmented server requests, answered by the generated client", () => {
  it("there is a version to test", () => {
    expect(VERSIONS.length).toBeGreaterThan(0);
  });

  const transports: Array<[string, () => Promise<ClientTransport>]> = [
    ["stdio", async () => stdioClientTransport({ command: process.execPath, args: [everything, "stdio"], stderr: "ignore" })],
    ["streamable HTTP", async () => httpClientTransport(await startEverything())],
  ];
  for (const version of VERSIONS) {
    for (const [name, open] of transports) {
      it(`${version} over ${name}: server-everything's async sampling and elicitation tools get a task each, poll it working, then read its result`, async () => {
        const client = createClient({
          clientInfo,
          versions: [version],
          capabilities: capabilities(version, true),
          handlers: {
            // Held past the server's first poll (1 s), so it sees the task working.
            "sampling/createMessage": async (_params: unknown, { signal }: { signal: AbortSignal }) => (await pause(1300, signal), sampled),
            "elicitation/create": async (_params: unknown, { signal }: { signal: AbortSignal }) => (await pause(1300, signal), { action: "accept" as const, content: { name: "Ada" } }),
          },
        });
        await client.connect(await open());
        const v = client.at(version as "2025-11-25");
        const sampling = await v.request("tools/call", { name: "trigger-sampling-request-async", arguments: { prompt: "hi" } }, { timeoutMs: 30_000 });
        const s = (sampling.content[0] as { text: string }).text;
        expect(s).toMatch(/^\[COMPLETED\]/);
        expect(s).toMatch(/Poll 1: working/);
        expect(s).toContain("sampled as a task");
        expect(s).toContain(META_RELATED_TASK);
        const elicitation = await v.request("tools/call", { name: "trigger-elicitation-request-async", arguments: {} }, { timeoutMs: 30_000 });
        const e = (elicitation.content as Array<{ text: string }>).map((c) => c.text).join("\n");
        expect(e).toMatch(/^\[COMPLETED\] User provided the requested information!/);
        expect(e).toContain("- Name: Ada");
        expect(e).toMatch(/Poll 1: working/);
        expect(e).toContain(META_RELATED_TASK);
        await client.close();
      }, 60_000);
    }

    it(`${version}, the SDK 1.32.2 Server as requestor: tasks/get, tasks/list, tasks/result (the handler's result, related-task _meta), tasks/cancel (the handler aborted; a settled task refused -32602), a failed task's error, an unknown task -32602`, async () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const transport: ClientTransport = {
        async start(receiver) {
          clientSide.onmessage = (m) => receiver.message(m);
          clientSide.onclose = () => receiver.closed();
          await clientSide.start();
        },
        send: (m) => clientSide.send(m as never),
        close: () => clientSide.close(),
      };
      const server = new Server({ name: "sdk1-requestor", version: "1.32.2" }, { capabilities: {} });
      await server.connect(serverSide);
      let release: () => void = () => undefined;
      const aborted: string[] = [];
      const client = createClient({
        clientInfo,
        versions: [version],
        capabilities: capabilities(version, true),
        handlers: {
          "sampling/createMessage": async (params: { messages: Array<{ content: unknown }> }, context: { signal: AbortSignal }) => {
            const text = (params.messages[0].content as { text: string }).text;
            if (text === "fail") throw Object.assign(new Error("no model for that"), { code: -32050 });
            if (text === "hold") {
              await new Promise<void>((resolve) => context.signal.addEventListener("abort", () => (aborted.push((context as { taskId?: string }).taskId ?? "?"), resolve()), { once: true }));
              return sampled;
            }
            await new Promise<void>((resolve) => (release = resolve));
            return sampled;
          },
        },
      });
      await client.connect(transport);
      const ask = (text: string) => ({ method: "sampling/createMessage" as const, params: { messages: [{ role: "user" as const, content: { type: "text" as const, text } }], maxTokens: 5, task: { ttl: 60_000 } } });

      const created = await server.request(ask("go"), CreateTaskResultSchema);
      expect(created.task).toMatchObject({ status: "working", ttl: 60_000 });
      const taskId = created.task.taskId;
      expect(await server.request({ method: "tasks/get", params: { taskId } }, GetTaskResultSchema)).toMatchObject({ taskId, status: "working" });
      const listed = await server.request({ method: "tasks/list", params: {} }, ListTasksResultSchema);
      expect(listed.tasks.map((t) => t.taskId)).toEqual([taskId]);
      const payload = server.request({ method: "tasks/result", params: { taskId } }, GetTaskPayloadResultSchema);
      await pause(50);
      release();
      const result = await payload;
      expect(CreateMessageResultSchema.parse(result)).toMatchObject(sampled);
      expect(result._meta).toEqual({ [META_RELATED_TASK]: { taskId } });
      expect(await server.request({ method: "tasks/get", params: { taskId } }, GetTaskResultSchema)).toMatchObject({ status: "completed" });

      const held = (await server.request(ask("hold"), CreateTaskResultSchema)).task.taskId;
      await pause(20);
      expect(await server.request({ method: "tasks/cancel", params: { taskId: held } }, CancelTaskResultSchema)).toMatchObject({ taskId: held, status: "cancelled" });
      expect(aborted).toEqual([held]);
      await expect(server.request({ method: "tasks/cancel", params: { taskId: held } }, CancelTaskResultSchema)).rejects.toMatchObject({ code: -32602 });

      const failing = (await server.request(ask("fail"), CreateTaskResultSchema)).task.taskId;
      await expect(server.request({ method: "tasks/result", params: { taskId: failing } }, GetTaskPayloadResultSchema)).rejects.toMatchObject({ code: -32050, message: expect.stringContaining("no model for that") });
      expect(await server.request({ method: "tasks/get", params: { taskId: failing } }, GetTaskResultSchema)).toMatchObject({ status: "failed" });
      await expect(server.request({ method: "tasks/get", params: { taskId: "no-such-task" } }, GetTaskResultSchema)).rejects.toMatchObject({ code: -32602 });
      await client.close();
      await server.close();
    });

    it(`${version}, the SDK 1.32.2 Server as requestor: a client not declaring the task capability answers a task-augmented request plainly, and has no tasks/get`, async () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const transport: ClientTransport = {
        async start(receiver) {
          clientSide.onmessage = (m) => receiver.message(m);
          await clientSide.start();
        },
        send: (m) => clientSide.send(m as never),
        close: () => clientSide.close(),
      };
      const server = new Server({ name: "sdk1-requestor", version: "1.32.2" }, { capabilities: {} });
      await server.connect(serverSide);
      const client = createClient({ clientInfo, versions: [version], capabilities: capabilities(version, false), handlers: { "sampling/createMessage": () => sampled } });
      await client.connect(transport);
      // The SDK refuses to send `task` to a client that did not declare it, so the request goes out raw.
      const answer = await new Promise<unknown>((resolve) => {
        serverSide.onmessage = (m) => resolve(m);
        void serverSide.send({ jsonrpc: "2.0", id: 900, method: "sampling/createMessage", params: { messages: [{ role: "user", content: { type: "text", text: "go" } }], maxTokens: 5, task: { ttl: 1000 } } });
      });
      expect(CreateMessageResultSchema.parse((answer as { result: unknown }).result)).toMatchObject(sampled);
      const get = await new Promise<unknown>((resolve) => {
        serverSide.onmessage = (m) => resolve(m);
        void serverSide.send({ jsonrpc: "2.0", id: 901, method: "tasks/get", params: { taskId: "x" } });
      });
      expect((get as { error: { code: number } }).error.code).toBe(-32601);
      await client.close();
    });
  }
});
