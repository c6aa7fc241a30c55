// The generated client against servers nobody here wrote: the official TypeScript SDK 1.32.2 (legacy
// era, stdio and streamable HTTP), the official TypeScript SDK 2.4.0 (2026-07-28, stdio), the official
// Python SDK (mcp 2.3.0 in .venv, stdio) and @modelcontextprotocol/server-everything (npm, stdio). Each:
// tools listed and called, a resource read, a prompt got, and the server's sampling and elicitation
// answered by the client's handlers; where the version has resources/subscribe, the server's `_meta`
// comes back as the whole result.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createClient, httpClientTransport, stdioClientTransport, type ClientHandlers, type ClientTransport } from "../../generated/client.js";

const root = path.resolve(import.meta.dirname, "../..");
const fixtures = path.join(root, "test/client/fixtures");
const python = path.join(root, ".venv/bin/python");
const clientInfo = { name: "real-server-test", version: "1.0.0" };
const capabilities = { sampling: {}, elicitation: { form: {} }, roots: {} };
const handlers: ClientHandlers = {
  "sampling/createMessage": (() => ({ role: "assistant", content: { type: "text", text: "hi" }, model: "test-model" })) as never,
  "elicitation/create": (() => ({ action: "accept", content: { name: "Ada" } })) as never,
  "roots/list": (() => ({ roots: [] })) as never,
};

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) process.kill(child.pid!, "SIGTERM");
});

/** Start an HTTP fixture and resolve with the URL it prints. */
function startHttp(script: string): Promise<string> {
  const child = spawn(process.execPath, [script, "http"], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    child.once("exit", (code) => reject(new Error(`fixture exited ${code}: ${out}`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
  });
}

type Text = { content: Array<{ type: string; text?: string }> };

async function exercise(transport: ClientTransport, versions: Array<"2025-11-25" | "2026-07-28">, expectSubscribe: boolean, ask = true) {
  const client = createClient({ clientInfo, capabilities, versions, handlers });
  const negotiated = await client.connect(transport);
  try {
    const tools = (await client.request("tools/list", {})) as { tools: Array<{ name: string; inputSchema: unknown }> };
    expect(tools.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["add", "ask"]));
    const added = (await client.request("tools/call", { name: "add", arguments: { a: 2, b: 3 } })) as Text;
    expect(added.content[0].text).toBe("5");
    if (ask) {
      const asked = (await client.request("tools/call", { name: "ask", arguments: {} })) as Text;
      expect(asked.content[0].text).toBe("hi/accept/Ada");
    }
    const read = (await client.request("resources/read", { uri: "memo://one" })) as { contents: Array<{ text?: string }> };
    expect(read.contents[0].text).toBe("memo one");
    const prompt = (await client.request("prompts/get", { name: "greet", arguments: { who: "Ada" } })) as { messages: Array<{ content: { text?: string } }> };
    expect(prompt.messages[0].content.text).toBe("Hello Ada");
    if (expectSubscribe) {
      expect(await client.request("resources/subscribe", { uri: "memo://one" })).toEqual({ _meta: { "example.com/seed": "subscribed memo://one" } });
    }
    return negotiated;
  } finally {
    await client.close();
  }
}

describe("the generated client against the official servers", () => {
  it("SDK 1.32.2 over stdio: negotiates 2025-11-25 (falling back from 2026-07-28), tools, resources, prompts, subscribe, sampling and elicitation", async () => {
    const transport = stdioClientTransport({ command: process.execPath, args: [path.join(fixtures, "sdk1-server.mjs")] });
    const n = await exercise(transport, ["2025-11-25", "2026-07-28"], true);
    expect([n.protocolVersion, n.fellBack === undefined]).toEqual(["2025-11-25", false]);
    expect(transport.pid).toBeGreaterThan(0);
  });

  it("SDK 1.32.2 over streamable HTTP (session, GET stream, DELETE): the same", async () => {
    const url = await startHttp(path.join(fixtures, "sdk1-server.mjs"));
    const n = await exercise(httpClientTransport(url), ["2025-11-25", "2026-07-28"], true);
    expect(n.protocolVersion).toBe("2025-11-25");
  });

  it("SDK 2.4.0 over stdio: negotiates 2026-07-28 through server/discover; sampling and elicitation as input-required rounds", async () => {
    const n = await exercise(stdioClientTransport({ command: process.execPath, args: [path.join(fixtures, "sdk2-server.mjs")] }), ["2025-11-25", "2026-07-28"], false);
    expect([n.protocolVersion, n.era]).toEqual(["2026-07-28", "modern"]);
  });

  it.runIf(existsSync(python))("the Python SDK (mcp 2.3.0) over stdio at 2025-11-25: tools, resources, prompts, sampling and elicitation", async () => {
    const n = await exercise(stdioClientTransport({ command: python, args: [path.join(fixtures, "python-server.py")], stderr: "ignore" }), ["2025-11-25"], false);
    expect(n.protocolVersion).toBe("2025-11-25");
  });

  // Its tools ask through server requests, which 2026-07-28 has no channel for: at that version the tool `ask` is not called.
  it.runIf(existsSync(python))("the Python SDK (mcp 2.3.0) over stdio negotiates 2026-07-28 through server/discover: tools, resources, prompts", async () => {
    const n = await exercise(stdioClientTransport({ command: python, args: [path.join(fixtures, "python-server.py")], stderr: "ignore" }), ["2025-11-25", "2026-07-28"], false, false);
    expect([n.protocolVersion, n.era]).toEqual(["2026-07-28", "modern"]);
  });

  it("@modelcontextprotocol/server-everything (npm) over stdio: tools, a resource, a prompt, subscribe, sampling and elicitation", async () => {
    const client = createClient({ clientInfo, capabilities, versions: ["2025-11-25", "2026-07-28"], handlers });
    const everything = path.join(root, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
    const n = await client.connect(stdioClientTransport({ command: process.execPath, args: [everything, "stdio"], stderr: "ignore" }));
    try {
      expect(n.serverInfo?.name).toEqual(expect.any(String));
      const { tools } = (await client.request("tools/list", {})) as { tools: Array<{ name: string }> };
      const names = tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(["echo", "get-sum"]));
      expect(((await client.request("tools/call", { name: "echo", arguments: { message: "hey" } })) as Text).content[0].text).toContain("hey");
      expect(((await client.request("tools/call", { name: "get-sum", arguments: { a: 2, b: 3 } })) as Text).content[0].text).toContain("5");
      const { resources } = (await client.request("resources/list", {})) as { resources: Array<{ uri: string }> };
      const read = (await client.request("resources/read", { uri: resources[0].uri })) as { contents: Array<{ uri: string }> };
      expect(read.contents[0].uri).toBe(resources[0].uri);
      const { prompts } = (await client.request("prompts/list", {})) as { prompts: Array<{ name: string; arguments?: Array<{ name: string; required?: boolean }> }> };
      const simple = prompts.find((p) => (p.arguments ?? []).every((a) => a.required !== true))!;
      expect(((await client.request("prompts/get", { name: simple.name })) as { messages: unknown[] }).messages.length).toBeGreaterThan(0);
      if (n.era === "legacy") expect(await client.request("resources/subscribe", { uri: resources[0].uri })).toEqual({});
      const sampling = names.find((name) => /sampl/.test(name));
      if (sampling !== undefined) expect(JSON.stringify(await client.request("tools/call", { name: sampling, arguments: { prompt: "hi", maxTokens: 10 } }))).toContain("hi");
      const elicit = names.find((name) => /elicit/.test(name));
      if (elicit !== undefined) expect(JSON.stringify(await client.request("tools/call", { name: elicit, arguments: {} }))).toContain("Ada");
      expect([sampling, elicit].filter((t) => t !== undefined).length).toBe(n.era === "legacy" ? 2 : 0);
    } finally {
      await client.close();
    }
  });
});
