// docs/python.md's two examples run as they are against the committed generated/python,
// type-check under pyright --strict and pass ruff with the tests' rules. The first (the models and the gate)
// runs to its end with every assert holding; the second (a server of router + stdio) is spawned and talked to
// over its stdin and stdout: a legacy session, then a 2026-07-28 request, each answer exactly as expected.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { root, tempDir } from "../../support.js";
import { docExample, docExamplesRunBy } from "../../docs/blocks.js";
import { pythonBin, pyrightStrict, pythonRuntimePackage, pythonTree, run } from "./support.js";

/** docs/python.md's two examples: the models and the gate, then a server. */
function examples(): string[] {
  return [docExample("docs/python.md", "models-and-gate.py"), docExample("docs/python.md", "server.py")];
}

/** The example written to a file of its own folder. */
function written(block: string): { dir: string; file: string } {
  const dir = tempDir();
  const file = path.join(dir, "readme_example.py");
  writeFileSync(file, block);
  return { dir, file };
}

/** A running Python program on pipes: `send` writes one JSON line, `next` resolves with the next line it writes, parsed. */
function spawned(file: string) {
  const child = spawn(pythonBin(), [file], { cwd: root, env: { ...process.env, PYTHONPATH: pythonTree, PYTHONDONTWRITEBYTECODE: "1" }, stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let err = "";
  const waiting: ((line: string) => void)[] = [];
  const lines: string[] = [];
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    for (let at = out.indexOf("\n"); at >= 0; at = out.indexOf("\n")) {
      const line = out.slice(0, at);
      out = out.slice(at + 1);
      const take = waiting.shift();
      if (take) take(line);
      else lines.push(line);
    }
  });
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return {
    send: (message: unknown) => child.stdin.write(JSON.stringify(message) + "\n"),
    next: () => new Promise<unknown>((resolve) => (lines.length > 0 ? resolve(JSON.parse(lines.shift()!)) : waiting.push((line) => resolve(JSON.parse(line))))),
    end: async () => {
      child.stdin.end();
      return { status: await exited, stderr: err, rest: out };
    },
  };
}

describe("docs/python.md's examples", () => {
  const blocks = examples();

  it("has two Python examples: the models and the gate, then a server", () => {
    expect([...docExamplesRunBy("docs/python.md", "test/emit/python/readme.test.ts").keys()]).toEqual(["models-and-gate.py", "server.py"]);
    expect(blocks[1]).toContain("serve_stdio(router)");
  });

  it("the first runs: every assert of the example holds against generated/python", () => {
    const { file } = written(blocks[0]);
    const r = run("python", [file]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    // The example checks what it shows: its asserts are what ran.
    expect(blocks[0].match(/^assert /gm)?.length ?? 0).toBeGreaterThan(2);
  });

  it("the server serves stdio: initialize and tools/call in a legacy session, tools/list and tools/call at 2026-07-28, then ends with its input", async () => {
    const server = spawned(written(blocks[1]).file);
    server.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "readme", version: "1" } } });
    expect(await server.next()).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "greeter", version: "1.0.0" } },
    });
    server.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    server.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "greet", arguments: { name: "Ada" } } });
    expect(await server.next()).toEqual({ jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: "Hello, Ada!" }] } });
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
    server.send({ jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: meta } });
    expect(await server.next()).toEqual({
      jsonrpc: "2.0",
      id: 3,
      result: {
        tools: [{ name: "greet", inputSchema: { type: "object", properties: { name: { type: "string" } } } }],
        ttlMs: 0,
        cacheScope: "public",
        resultType: "complete",
      },
    });
    server.send({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "greet", arguments: { name: "Bo" }, _meta: meta } });
    expect(await server.next()).toEqual({ jsonrpc: "2.0", id: 4, result: { content: [{ type: "text", text: "Hello, Bo!" }], resultType: "complete" } });
    expect(await server.end()).toEqual({ status: 0, stderr: "", rest: "" });
  }, 30_000);

  it.each([0, 1])("example %i type-checks under pyright --strict against generated/python", (i) => {
    const { dir } = written(blocks[i]);
    const r = pyrightStrict(dir, [pythonTree]);
    expect(r.stdout).toContain("0 errors, 0 warnings, 0 informations");
    expect(r.status).toBe(0);
  });

  it.each([0, 1])("example %i passes ruff", (i) => {
    const { file } = written(blocks[i]);
    const r = run("ruff", ["check", "--no-cache", "--config", path.join(pythonRuntimePackage, "ruff.toml"), file]);
    expect(r.stdout + r.stderr).toBe("All checks passed!\n");
  });
});
