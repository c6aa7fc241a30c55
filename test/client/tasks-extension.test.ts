// The Tasks extension (io.modelcontextprotocol/tasks) from the generated client: at each modern core version
// the lock layers the extension onto, against the generated router serving it with `tasksExtension`
// (test/client/fixtures/tasks-extension-server.ts: no other peer serves the 2026 extension), over streamable
// HTTP (in this process, so the server's side of a cancellation is observable) and stdio (a child process).
// The client uses the extension's module when both sides declare it: tools/call may answer with a task, and
// `tasks.get/update/cancel/result`, `callToolAsTask` and `listen({ taskIds })` work the task.
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { ClientError, createClient, httpClientTransport, stdioClientTransport, type ClientModules, type ClientVersion } from "../../generated/client.js";
import { eras } from "../../generated/router.js";
import { JsonRpcError } from "../../generated/runtime/jsonrpc.js";
import { serveHttp, type HttpServer } from "../../generated/runtime/transport-http.js";
import { cancelled, tasksRouter } from "./fixtures/tasks-extension-server.js";
import { fixtures, root, stopChildren } from "./servers.js";

type Lock = { extensions?: Record<string, { identifier: string; versions: Record<string, { core: string[] }> }> };
const lock = JSON.parse(readFileSync(path.join(root, "schemas/lock.json"), "utf8")) as Lock;
const TASKS = lock.extensions?.tasks;
const CORES = [...new Set(Object.values(TASKS?.versions ?? {}).flatMap((v) => v.core))]
  .filter((core) => (eras as Record<string, string>)[core] === "modern")
  .sort() as ClientVersion[];
const ID = TASKS?.identifier ?? "";
/** Whether the extension module of `core` has `subscriptions/listen` (a modern revision bumped in may not). */
const listens = Object.fromEntries(
  await Promise.all(
    CORES.map(async (core) => {
      const table = ((await import(pathToFileURL(path.join(root, "generated", `${core}+tasks`, "methods.ts")).href)) as { METHOD_TABLE: Record<string, { status: string }> }).METHOD_TABLE;
      return [core, table["subscriptions/listen"]?.status === "present"] as const;
    }),
  ),
) as Record<string, boolean>;

/**
 * The task arm of the extension modules' typed tools/call result (`client.at(module)`); a compile-time check that
 * it exists and types the task's id (were there no arm, this would be `never` and the assignment below would not compile).
 */
type TaskArm = Extract<ClientModules[keyof ClientModules]["requests"]["tools/call"]["result"], { resultType: "task" }>;
const taskArmTypesItsId: TaskArm["taskId"] extends string ? true : false = true;

const clientInfo = { name: "tasks-extension-test", version: "1.0.0" };
const withTasks = { extensions: { [ID]: {} }, elicitation: { form: {} } };
const text = (t: string) => ({ type: "text", text: t });
const answerTopic = { "elicitation/create": () => ({ action: "accept" as const, content: { topic: "tides" } }) };

let server: HttpServer | undefined;
afterEach(async () => {
  await stopChildren();
  await server?.close();
  server = undefined;
});

async function http(version: string): Promise<string> {
  server = await serveHttp(tasksRouter(version), { port: 0 });
  return server.url;
}

describe("the 2026 Tasks extension from the generated client", () => {
  it("the lock layers the Tasks extension onto some generated modern version", () => {
    expect(CORES.length).toBeGreaterThan(0);
    expect(taskArmTypesItsId).toBe(true);
  });

  for (const version of CORES) {
    it(`${version} over streamable HTTP: tools/call answers a task; tasks.get, tasks.result, callToolAsTask (inputRequests answered by the handlers), a failed task, cancellation`, async () => {
      const client = createClient({ clientInfo, versions: [version], capabilities: withTasks, handlers: answerTopic });
      const negotiated = await client.connect(httpClientTransport(await http(version)));
      const module = `${version}+tasks` as keyof ClientModules;
      expect([negotiated.protocolVersion, negotiated.extensions, negotiated.module]).toEqual([version, [ID], module]);
      const v = client.anyVersion();
      await v.request("tools/list", {});

      // The extension module's typed view: its tools/call result has the task arm, told apart by resultType.
      const created = await client.at(module).request("tools/call", { name: "report", arguments: { topic: "tides" } });
      expect(created).toMatchObject({ resultType: "task", status: "working", taskId: expect.any(String), ttlMs: expect.anything() });
      const taskId: string = (created as TaskArm).taskId;
      expect(await client.tasks.result(taskId, { method: "tools/call" })).toEqual({ content: [text("Report on tides")], resultType: "complete" });
      expect(await client.tasks.get(taskId)).toMatchObject({ taskId, status: "completed", resultType: "complete", result: { content: [text("Report on tides")] } });

      // input_required: the handler answers inputRequests.topic; tasks/update carries it; the result is the tool's.
      expect(await client.callToolAsTask({ name: "ask", arguments: {} })).toEqual({ content: [text(JSON.stringify({ action: "accept", content: { topic: "tides" } }))], resultType: "complete" });

      // failed: the task's JSON-RPC error, as the error answer of a request would be.
      const failure = await client.callToolAsTask({ name: "fail", arguments: { topic: "tides" } }).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(JsonRpcError);
      expect([(failure as JsonRpcError).code, (failure as JsonRpcError).message, (failure as JsonRpcError).data]).toEqual([-32050, "the report could not be made", { topic: "tides" }]);

      // A completed task's tool result is checked as a tools/call result is: its structuredContent against the tool's outputSchema.
      await expect(client.callToolAsTask({ name: "weather", arguments: {} })).rejects.toMatchObject({ kind: "invalid-result", pointers: ["/structuredContent/celsius"] });

      // An abort of callToolAsTask sends tasks/cancel: the server's work sees its signal abort.
      const before = cancelled.length;
      const stop = new AbortController();
      const pending = client.callToolAsTask({ name: "slow", arguments: {} }, { signal: stop.signal });
      setTimeout(() => stop.abort(new Error("no longer wanted")), 150);
      await expect(pending).rejects.toThrow("no longer wanted");
      for (let i = 0; i < 100 && cancelled.length === before; i++) await new Promise((r) => setTimeout(r, 10));
      expect(cancelled.length).toBe(before + 1);
      expect(await client.tasks.get(cancelled.at(-1)!)).toMatchObject({ status: "cancelled" });

      // tasks/list is 2025-11-25's; the extension has none: refused before anything is sent.
      await expect(client.tasks.list()).rejects.toMatchObject({ kind: "unknown-method" });
      await client.close();
    });

    if (listens[version]) it(`${version} over streamable HTTP: listen({ taskIds }) streams the task's notifications/tasks; tasks.cancel settles it "cancelled"; tasks.result says so`, async () => {
      const client = createClient({ clientInfo, versions: [version], capabilities: withTasks });
      await client.connect(httpClientTransport(await http(version)));
      const heard: string[] = [];
      client.setNotificationHandler("notifications/tasks", (params: { taskId: string; status: string }) => void heard.push(`${params.taskId} ${params.status}`));
      const created = (await client.anyVersion().request("tools/call", { name: "slow", arguments: {} })) as Record<string, unknown>;
      const taskId = created.taskId as string;
      const stream = await client.listen({ taskIds: [taskId] });
      expect(stream.acknowledged).toEqual({ taskIds: [taskId] });
      expect(await client.tasks.cancel(taskId)).toEqual({ resultType: "complete" });
      const seen: Array<Record<string, unknown> | undefined> = [];
      for await (const n of stream) {
        expect(n.method).toBe("notifications/tasks");
        seen.push(n.params);
        if (n.params?.status === "cancelled") break;
      }
      expect(seen.at(-1)).toMatchObject({ taskId, status: "cancelled" });
      // The handler set for notifications/tasks hears them too (typed by the extension module's ClientHandlers).
      for (let i = 0; i < 50 && !heard.includes(`${taskId} cancelled`); i++) await new Promise((r) => setTimeout(r, 10));
      expect(heard).toContain(`${taskId} cancelled`);
      await stream.close();
      const outcome = await client.tasks.result(taskId).catch((e: unknown) => e);
      expect(outcome).toBeInstanceOf(ClientError);
      expect(outcome).toMatchObject({ kind: "task", message: expect.stringContaining("was cancelled") });
      await client.close();
    });

    it(`${version} over streamable HTTP: a client not declaring the extension gets the core module (tools/call answered plainly, tasks.get refused locally)`, async () => {
      const client = createClient({ clientInfo, versions: [version] });
      const negotiated = await client.connect(httpClientTransport(await http(version)));
      expect([negotiated.extensions, negotiated.module]).toEqual([[], version]);
      expect(negotiated.serverCapabilities).toMatchObject({ extensions: { [ID]: {} } });
      // The extension module does not answer here, so its typed view is refused; the version's is given.
      expect(() => client.at(`${version}+tasks` as keyof ClientModules)).toThrow(new ClientError("not-connected", `the client negotiated ${version}, not ${version}+tasks`));
      expect(client.at(version).protocolVersion).toBe(version);
      expect(await client.anyVersion().request("tools/call", { name: "report", arguments: { topic: "tides" } })).toEqual({ content: [text("Report on tides")], resultType: "complete" });
      await expect(client.tasks.get("any")).rejects.toMatchObject({ kind: "unknown-method" });
      await client.close();
    });

    it(`${version} over stdio: callToolAsTask to completion, inputRequests answered`, async () => {
      const client = createClient({ clientInfo, versions: [version], capabilities: withTasks, handlers: answerTopic });
      const transport = stdioClientTransport({ command: process.execPath, args: ["--import", "tsx", path.join(fixtures, "tasks-extension-server.ts"), "stdio", version], cwd: root, stderr: "ignore" });
      expect((await client.connect(transport)).extensions).toEqual([ID]);
      await client.anyVersion().request("tools/list", {});
      expect(await client.callToolAsTask({ name: "report", arguments: { topic: "tides" } })).toEqual({ content: [text("Report on tides")], resultType: "complete" });
      expect(await client.callToolAsTask({ name: "ask", arguments: {} })).toEqual({ content: [text(JSON.stringify({ action: "accept", content: { topic: "tides" } }))], resultType: "complete" });
      await client.close();
    }, 30_000);
  }
});
