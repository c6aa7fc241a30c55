// docs/extensions.md's example, run as written: the ```ts block it marks `tasks-server.ts`, with `mcp-codegen-generated/...` resolved to this tree's generated/ (as the
// package's entry points are), written to a temporary file and imported.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { generatedDir, root } from "../../../test/support.js";
import { docExample } from "../../../test/docs/blocks.js";

function example(): string {
  return docExample("docs/extensions.md", "tasks-server.ts");
}

type Router = { handle(message: unknown): Promise<{ result?: Record<string, unknown>; error?: unknown } | undefined> };
let router: Router;

beforeAll(async () => {
  // Inside the repository, so that `zod` resolves from its node_modules.
  const dir = path.join(root, "node_modules", ".cache", "mcp-codegen-readme-test");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "tasks-server.ts");
  const entry = (sub: string) => pathToFileURL(path.join(generatedDir, sub)).href;
  writeFileSync(
    file,
    example()
      .replace('"mcp-codegen-generated/router"', JSON.stringify(entry("router.ts")))
      .replace(/"mcp-codegen-generated\/runtime\/([\w-]+)"/g, (_m, name: string) => JSON.stringify(entry(`runtime/${name}.ts`))),
  );
  router = ((await import(pathToFileURL(file).href)) as { router: Router }).router;
});

const meta = (tasks: boolean) => ({
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": tasks ? { extensions: { "io.modelcontextprotocol/tasks": {} } } : {},
});

describe("docs/extensions.md's tasks-server.ts", () => {
  it("answers report with a task when the request negotiates Tasks, and the task completes with the report", async () => {
    const created = (await router.handle({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "report", arguments: { topic: "tides" }, _meta: meta(true) } }))!.result!;
    expect(created).toMatchObject({ resultType: "task", status: "working", ttlMs: 600_000 });
    let polled: Record<string, unknown> = {};
    for (let i = 0; i < 50 && polled.status !== "completed"; i++) {
      polled = (await router.handle({ jsonrpc: "2.0", id: 2, method: "tasks/get", params: { taskId: created.taskId, _meta: meta(true) } }))!.result!;
      if (polled.status !== "completed") await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(polled).toMatchObject({ status: "completed", result: { content: [{ type: "text", text: "Report on tides" }], resultType: "complete" } });
  });

  it("answers report at once without the extension, and acme/health", async () => {
    expect((await router.handle({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "report", arguments: { topic: "tides" }, _meta: meta(false) } }))!.result).toEqual({
      content: [{ type: "text", text: "Report on tides" }],
      resultType: "complete",
    });
    expect((await router.handle({ jsonrpc: "2.0", id: 4, method: "acme/health", params: { _meta: meta(false) } }))!.result).toEqual({ healthy: true, resultType: "complete" });
  });
});
