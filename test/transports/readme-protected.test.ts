// docs/authorization.md's example, run as written: the ```ts block it marks `protected-server.ts`, with `mcp-codegen-generated/...` resolved to this tree's generated/,
// given a loopback authorization server (./oauth-server.ts) through ISSUER, RESOURCE and PORT.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generatedDir, root } from "../support.js";
import { docExample } from "../docs/blocks.js";
import { startAuthorizationServer } from "./oauth-server.js";
import { freePort } from "./redis-server.js";

function example(): string {
  return docExample("docs/authorization.md", "protected-server.ts");
}

const MODERN = "2026-07-28";
let authorization: Awaited<ReturnType<typeof startAuthorizationServer>>;
let resource: string;
let loaded: { server: { close(): Promise<void> }; router: { close(): void } };

beforeAll(async () => {
  authorization = await startAuthorizationServer({ alice: { secret: "a", scopes: ["mcp:tools"] }, bob: { secret: "b", scopes: ["mcp:tools"] } });
  const port = await freePort();
  resource = `http://127.0.0.1:${port}/mcp`;
  Object.assign(process.env, { ISSUER: authorization.issuer, RESOURCE: resource, PORT: String(port) });
  const dir = path.join(root, "node_modules", ".cache", "mcp-codegen-readme-test");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "protected-server.ts");
  const entry = (sub: string) => pathToFileURL(path.join(generatedDir, sub)).href;
  writeFileSync(
    file,
    example()
      .replace('"mcp-codegen-generated/router"', JSON.stringify(entry("router.ts")))
      .replace(/"mcp-codegen-generated\/runtime\/([\w-]+)"/g, (_m, name: string) => JSON.stringify(entry(`runtime/${name}.ts`))),
  );
  loaded = (await import(pathToFileURL(file).href)) as typeof loaded;
}, 30_000);

afterAll(async () => {
  await loaded?.server.close();
  loaded?.router.close();
  await authorization?.close();
  for (const key of ["ISSUER", "RESOURCE", "PORT"]) delete process.env[key];
});

let id = 0;
async function send(token: string | undefined, method: string, params: Record<string, unknown>, name?: string) {
  const response = await fetch(resource, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": MODERN,
      "mcp-method": method,
      ...(name === undefined ? {} : { "mcp-name": name }),
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params: { ...params, _meta: { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } } } } }),
  });
  return { status: response.status, body: response.status === 200 || response.status === 400 ? ((await response.json()) as { result?: Record<string, unknown>; error?: unknown }) : undefined };
}

describe("docs/authorization.md's protected-server.ts", () => {
  it("refuses a request without a token, serves alice's task to alice only", async () => {
    expect((await send(undefined, "tools/list", {})).status).toBe(401);
    const alice = await authorization.tokenFor("alice", resource);
    const bob = await authorization.tokenFor("bob", resource);
    const created = await send(alice, "tools/call", { name: "report", arguments: {} }, "report");
    expect(created.body?.result).toMatchObject({ resultType: "task" });
    const taskId = created.body!.result!.taskId as string;
    expect((await send(bob, "tasks/get", { taskId }, taskId)).body?.error).toEqual({ code: -32602, message: "Failed to retrieve task: Task not found" });
    await expect.poll(async () => (await send(alice, "tasks/get", { taskId }, taskId)).body?.result?.status, { timeout: 5000 }).toBe("completed");
    expect((await send(alice, "tasks/get", { taskId }, taskId)).body?.result?.result).toEqual({ content: [{ type: "text", text: "report for alice" }], resultType: "complete" });
  });
});
