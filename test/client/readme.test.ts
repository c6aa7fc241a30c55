// docs/client.md's examples, run as written: each ```ts block it marks as run by this test is written to a file with its import pointed at this tree's generated/client.ts, the stdio one
// spawning the SDK 1.32.2 fixture server, the HTTP one connecting to it over streamable HTTP, the tasks one to
// the generated router serving the Tasks extension (test/client/fixtures/tasks-extension-server.ts), the API one
// spawning server-everything.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { docExample } from "../docs/blocks.js";

const root = path.resolve(import.meta.dirname, "../..");
const fixture = path.join(root, "test/client/fixtures/sdk1-server.mjs");
const dir = path.join(root, ".tmp/readme-client");

function example(name: string): string {
  return docExample("docs/client.md", name).replace('"mcp-codegen/generated/client"', JSON.stringify(path.join(root, "generated/client.js")));
}

function run(file: string, source: string, env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, file), source);
  const out = spawnSync(process.execPath, ["--import", "tsx", path.join(dir, file)], { cwd: root, encoding: "utf8", env: { ...process.env, ...env }, timeout: 60_000 });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr };
}

let server: ChildProcess | undefined;
afterAll(() => {
  if (server?.exitCode === null) process.kill(server.pid!, "SIGTERM");
});

describe("docs/client.md: the client examples", () => {
  it("stdio-client.ts spawns the server, negotiates 2025-11-25 and calls add", () => {
    const source = example("stdio-client.ts").replace('args: ["server.mjs"]', `args: [${JSON.stringify(fixture)}]`);
    const out = run("stdio-client.ts", source);
    expect(out.stderr).toBe("");
    expect(out.stdout).toBe("negotiated 2025-11-25\n5\n");
  });

  it("http-client.ts connects over streamable HTTP and lists the tools", async () => {
    server = spawn(process.execPath, [fixture, "http"], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
    const url = await new Promise<string>((resolve) => {
      let text = "";
      server!.stdout!.on("data", (chunk: Buffer) => {
        text += chunk.toString();
        const m = /listening (\S+)/.exec(text);
        if (m) resolve(m[1]);
      });
    });
    const out = run("http-client.ts", example("http-client.ts"), { MCP_URL: url });
    expect(out.stdout).toBe("2025-11-25: add, ask, sample\n");
  });

  it("client-api.ts pages tools/list and resources/list of server-everything, with late and catch-all handlers, and its structuredContent checked", () => {
    const everything = path.join(root, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    const source = example("client-api.ts").replace('command: "npx", args: ["@modelcontextprotocol/server-everything", "stdio"]', `command: process.execPath, args: [${JSON.stringify(everything)}, "stdio"]`);
    expect(source).toContain(everything);
    const out = run("client-api.ts", source);
    expect(out.status).toBe(0);
    // The weather server-everything's get-structured-content tool returns for Chicago (its source, dist/tools/get-structured-content.js).
    // stderr: only the catch-all's lines (an outputSchema zod could not compile would be reported there).
    for (const line of out.stderr.split("\n").filter((l) => l !== "")) expect(line).toMatch(/^unhandled notifications\/[a-z_/]+$/);
    expect(out.stdout).toBe('true true {"temperature":36,"conditions":"Light rain / drizzle","humidity":82}\n');
  });

  it("tasks-client.ts negotiates the Tasks extension with the generated router serving it and works two tasks", async () => {
    const tasksServer = path.join(root, "test/client/fixtures/tasks-extension-server.ts");
    const child = spawn(process.execPath, ["--import", "tsx", tasksServer, "http", "2026-07-28"], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
    try {
      const url = await new Promise<string>((resolve) => {
        let text = "";
        child.stdout!.on("data", (chunk: Buffer) => {
          text += chunk.toString();
          const m = /listening (\S+)/.exec(text);
          if (m) resolve(m[1]);
        });
      });
      const out = run("tasks-client.ts", example("tasks-client.ts"), { MCP_URL: url });
      expect(out.stderr).toBe("");
      expect(out.stdout).toBe(
        ["io.modelcontextprotocol/tasks", JSON.stringify([{ type: "text", text: JSON.stringify({ action: "accept", content: { topic: "tides" } }) }]), "true", JSON.stringify([{ type: "text", text: "Report on tides" }])].join("\n") + "\n",
      );
    } finally {
      if (child.exitCode === null) process.kill(child.pid!, "SIGTERM");
    }
  }, 60_000);

  it("every example type-checks (strict) against the generated declarations", () => {
    const files = ["stdio-client.ts", "http-client.ts", "client-api.ts", "tasks-client.ts"].map((f) => path.join(dir, f));
    const tsc = path.join(root, "node_modules/typescript/bin/tsc");
    const out = spawnSync(process.execPath, [tsc, "--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "--types", "node", "--skipLibCheck", ...files], { cwd: root, encoding: "utf8", timeout: 180_000 });
    expect(out.stdout + out.stderr).toBe("");
    expect(out.status).toBe(0);
  }, 200_000);
});
