// Official clients against the Python conformance server (test/conformance/server.py: generated/python alone,
// the fixtures of test/conformance/fixtures.json), in a child process over real loopback HTTP (the package's
// ASGI app under uvicorn) and over real stdio (the package's stdio transport):
// - @modelcontextprotocol/sdk 1.32.2 (legacy era);
// - @modelcontextprotocol/client 2.4.0, in its default legacy mode and pinned to 2026-07-28;
// - the official Python SDK client, mcp 2.3.0 (.venv), in mode "legacy" and "2026-07-28" (real_clients.py).
// Each initializes (or discovers), lists the tools, calls one, reads a resource and, in the legacy era,
// subscribes: resources/subscribe's handler returns a seed `_meta` beside other members, and the result on
// the wire is exactly that `_meta` object (2026-07-28 has no resources/subscribe). The expected values are
// the fixture data, not anything the server computes.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as LegacyStdio } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as LegacyHttp } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from "@modelcontextprotocol/client";
import { StdioClientTransport as ModernStdio } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root } from "../../support.js";
import { pythonBin, pythonJson, pythonTree } from "./support.js";

const MODERN = "2026-07-28";
const serverScript = path.join(root, "test/conformance/server.py");
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const fixtures = JSON.parse(readFileSync(path.join(root, "test/conformance/fixtures.json"), "utf8")) as Record<string, any>;
const names = (...lists: { name: string }[][]) => lists.flat().map((t) => t.name);
const legacyTools = names(fixtures.tools.common, fixtures.tools.legacy);
const modernTools = names(fixtures.tools.common, fixtures.tools.modern, fixtures.tools.tasks);
const simpleText = fixtures.simpleToolResults.test_simple_text as { content: unknown[] };
const staticText = fixtures.resourceContents["test://static-text"] as unknown[];
/** The `_meta` resources/subscribe's handler returns beside other members: the whole result on the wire. */
const seed = { _meta: fixtures.subscribeResult._meta as Record<string, unknown> };
const serverInfo = { name: "mcp-codegen-conformance", version: "0.1.0" };
const env = { ...(process.env as Record<string, string>), PYTHONPATH: pythonTree, PYTHONDONTWRITEBYTECODE: "1" };
const stdioServer = { command: pythonBin(), args: [serverScript, "stdio"], env, stderr: "inherit" as const };

let child: ChildProcess;
let url: string;
beforeAll(async () => {
  child = spawn(pythonBin(), [serverScript, "0"], { cwd: root, env, stdio: ["ignore", "pipe", "inherit"] });
  url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.once("exit", (code) => reject(new Error(`server.py exited (${code}) before listening: ${out}`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening (\S+)/.exec(out);
      if (m === null) return;
      child.removeAllListeners("exit");
      resolve(m[1]);
    });
  });
}, 60_000);
afterAll(async () => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  process.kill(child.pid!, "SIGTERM");
  await exited;
});

describe("the fixture", () => {
  it("returns more than `_meta` from resources/subscribe (so the results below show what the normalizer sends)", () => {
    expect(Object.keys(fixtures.subscribeResult)).toEqual(["_meta", "extra", "subscribed"]);
  });
});

type Connect<C> = [string, () => Promise<C>];

const sdk1: Connect<LegacyClient>[] = [
  ["HTTP", async () => connected(new LegacyClient({ name: "sdk1-http", version: "1.0.0" }), new LegacyHttp(new URL(url)))],
  ["stdio", async () => connected(new LegacyClient({ name: "sdk1-stdio", version: "1.0.0" }), new LegacyStdio(stdioServer))],
];
const sdk2 = (pin: boolean): Connect<ModernClient>[] => {
  const options = pin ? { versionNegotiation: { mode: { pin: MODERN } } } : {};
  return [
    ["HTTP", async () => connected(new ModernClient({ name: "sdk2-http", version: "1.0.0" }, options), new ModernHttp(new URL(url)))],
    ["stdio", async () => connected(new ModernClient({ name: "sdk2-stdio", version: "1.0.0" }, options), new ModernStdio(stdioServer))],
  ];
};

async function connected<C extends { connect(transport: T): Promise<void> }, T>(client: C, transport: T): Promise<C> {
  await client.connect(transport);
  return client;
}

describe.each(sdk1)("@modelcontextprotocol/sdk 1.32.2 over %s", (_name, connect) => {
  it("initializes at 2025-11-25, lists and calls tools, reads a resource, and gets exactly the handler's _meta from resources/subscribe", async () => {
    const client = await connect();
    try {
      expect(client.getServerVersion()).toEqual(serverInfo);
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(legacyTools);
      expect(await client.callTool({ name: "test_simple_text", arguments: {} })).toEqual(simpleText);
      expect((await client.readResource({ uri: "test://static-text" })).contents).toEqual(staticText);
      expect(await client.subscribeResource({ uri: "test://watched-resource" })).toStrictEqual(seed);
      await expect(client.callTool({ name: "nope", arguments: {} })).rejects.toThrow("Unknown tool: nope");
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe.each(sdk2(false))("@modelcontextprotocol/client 2.4.0 (legacy mode) over %s", (_name, connect) => {
  it("initializes, lists and calls tools, reads a resource, and gets exactly the handler's _meta from resources/subscribe", async () => {
    const client = await connect();
    try {
      expect(client.getServerVersion()).toEqual(serverInfo);
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(legacyTools);
      expect((await client.callTool({ name: "test_simple_text", arguments: {} })).content).toEqual(simpleText.content);
      expect((await client.readResource({ uri: "test://static-text" })).contents).toEqual(staticText);
      expect(await client.subscribeResource({ uri: "test://watched-resource" })).toStrictEqual(seed);
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe.each(sdk2(true))("@modelcontextprotocol/client 2.4.0 pinned to 2026-07-28 over %s", (_name, connect) => {
  it("negotiates 2026-07-28 through server/discover, lists and calls tools, reads a resource", async () => {
    const client = await connect();
    try {
      expect((client as { getNegotiatedProtocolVersion(): string }).getNegotiatedProtocolVersion()).toBe(MODERN);
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(modernTools);
      expect((await client.callTool({ name: "test_simple_text", arguments: {} })).content).toEqual(simpleText.content);
      expect((await client.readResource({ uri: "test://static-text" })).contents).toEqual(staticText);
      await expect(client.callTool({ name: "nope", arguments: {} })).rejects.toThrow("Unknown tool: nope");
    } finally {
      await client.close();
    }
  }, 60_000);
});

interface PythonView {
  protocolVersion: string;
  serverInfo: unknown;
  tools: string[];
  call: { content: unknown[] };
  read: { contents: unknown[] };
  subscribe?: unknown;
}

describe.each(["HTTP", "stdio"])("the Python SDK client (mcp 2.3.0) over %s", (transport) => {
  const job = (mode: string) => ({ server: transport === "HTTP" ? url : "stdio", mode, script: serverScript, pythonPath: [pythonTree] });

  it("mode legacy: initializes at 2025-11-25, lists and calls tools, reads a resource, and gets exactly the handler's _meta from resources/subscribe (the raw result)", () => {
    const seen = pythonJson<PythonView>("real_clients.py", job("legacy"));
    expect(seen.protocolVersion).toBe("2025-11-25");
    expect(seen.serverInfo).toEqual(serverInfo);
    expect(seen.tools).toEqual(legacyTools);
    expect(seen.call.content).toEqual(simpleText.content);
    expect(seen.read.contents).toEqual(staticText);
    expect(seen.subscribe).toStrictEqual(seed);
  }, 60_000);

  it("mode 2026-07-28: lists and calls tools and reads a resource at 2026-07-28", () => {
    const seen = pythonJson<PythonView>("real_clients.py", job(MODERN));
    expect(seen.protocolVersion).toBe(MODERN);
    expect(seen.tools).toEqual(modernTools);
    expect(seen.call.content).toEqual(simpleText.content);
    expect(seen.read.contents).toEqual(staticText);
    expect(seen.subscribe).toBeUndefined();
  }, 60_000);
});
