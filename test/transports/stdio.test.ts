// The stdio transport as a real child process, raw lines in and out: what a line that is not a message
// gets, that both eras share the stream, and that the server exits when its input ends.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { fixtureCommand, MODERN } from "./support.js";

describe("the stdio transport in a child process", () => {
  it("answers garbage, an invalid envelope, a legacy ping and a modern request , prints nothing else, and exits when stdin ends", async () => {
    const child = spawn(fixtureCommand.command, [...fixtureCommand.args, "stdio"], { stdio: ["pipe", "pipe", "pipe"] });
    const lines: Record<string, unknown>[] = [];
    const reader = createInterface({ input: child.stdout! });
    reader.on("line", (line) => lines.push(JSON.parse(line) as Record<string, unknown>));
    let stderr = "";
    child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

    const meta = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} };
    child.stdin!.write("this is not json\n");
    child.stdin!.write('{"jsonrpc":"2.0","id":1}\r\n');
    child.stdin!.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    child.stdin!.write('{"jsonrpc":"2.0","id":"p","method":"ping"}\n');
    child.stdin!.write(JSON.stringify({ jsonrpc: "2.0", id: "m", method: "tools/call", params: { name: "echo", arguments: { x: 1 }, _meta: meta } }) + "\n");
    await expect.poll(() => lines.length, { timeout: 60_000 }).toBe(4);
    expect(lines.slice(0, 2)).toEqual([
      { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } },
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: expected a method, or a result or error" } },
    ]);
    expect(lines.slice(2).sort((a, b) => String(a.id).localeCompare(String(b.id)))).toEqual([
      { jsonrpc: "2.0", id: "m", result: { content: [{ type: "text", text: '{"x":1}' }], _meta: { "example.com/echo": true }, resultType: "complete" } },
      { jsonrpc: "2.0", id: "p", result: {} },
    ]);
    child.stdin!.end();
    expect(await exited).toBe(0);
    expect(lines).toHaveLength(4);
    expect(stderr).toBe("");
  });
});
