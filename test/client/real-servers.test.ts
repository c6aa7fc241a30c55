// The generated client against servers nobody here wrote, each over stdio and streamable HTTP:
// - the official TypeScript SDK 1.32.2 (legacy era) at every legacy version both the lock and the SDK have;
// - the official TypeScript SDK 2.4.0 (@modelcontextprotocol/server) at 2026-07-28;
// - the official Python SDK (mcp 2.3.0 in .venv) at 2025-11-25 and at 2026-07-28;
// - @modelcontextprotocol/server-everything (npm).
// Each: tools listed and called, a resource read, a prompt got, the server's sampling and elicitation
// answered by the client's handlers (legacy: server requests; 2026-07-28: input-required rounds), and,
// where the version has resources/subscribe, a subscribe whose result is exactly the seed `_meta` the
// fixture's handler returns beside members an empty result does not have. (2026-07-28 has no
// resources/subscribe: subscriptions are subscriptions/listen there.)
import { readFileSync } from "node:fs";
import path from "node:path";
import { SUPPORTED_PROTOCOL_VERSIONS as SDK1_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { createClient, httpClientTransport, stdioClientTransport, type ClientHandlers, type ClientTransport, type ClientVersion, type Negotiated } from "../../generated/client.js";
import { everything, fixtures, listening, python, root, startEverything, startFixture, startHttp, stopChildren } from "./servers.js";

const clientInfo = { name: "real-server-test", version: "1.0.0" };
const handlers: ClientHandlers = {
  "sampling/createMessage": (() => ({ role: "assistant", content: { type: "text", text: "hi" }, model: "test-model" })) as never,
  "elicitation/create": (() => ({ action: "accept", content: { name: "Ada" } })) as never,
  "roots/list": (() => ({ roots: [] })) as never,
};

// The versions come from the lock and the spec's own schema.json of each: a legacy version is one whose
// schema defines InitializeRequest; elicitation exists where it defines ElicitRequest.
const lock = JSON.parse(readFileSync(path.join(root, "schemas/lock.json"), "utf8")) as { versions: Record<string, unknown> };
const definitions = (version: string): Record<string, unknown> => {
  const schema = JSON.parse(readFileSync(path.join(root, "schemas", version, "schema.json"), "utf8")) as { $defs?: Record<string, unknown>; definitions?: Record<string, unknown> };
  return schema.$defs ?? schema.definitions ?? {};
};
const sdk1Versions = Object.keys(lock.versions).filter((v) => (SDK1_VERSIONS as string[]).includes(v) && Object.hasOwn(definitions(v), "InitializeRequest")) as ClientVersion[];
const elicits = (version: string): boolean => Object.hasOwn(definitions(version), "ElicitRequest");
const capabilitiesAt = (version: string) => (elicits(version) ? { sampling: {}, elicitation: { form: {} }, roots: {} } : { sampling: {}, roots: {} });

afterEach(stopChildren);
const startPython = (): Promise<string> => startHttp(python, [path.join(fixtures, "python-server.py"), "http"], listening, (m) => m[1]);

type Text = { content: Array<{ type: string; text?: string }> };
const seed = { _meta: { "example.com/seed": "subscribed memo://one" } };

interface Expected {
  /** Which asking tool to call: `ask` (sampling then elicitation), `sample` (sampling only). */
  readonly ask: "ask" | "sample";
  /** The exact resources/subscribe result, or undefined where the version has no resources/subscribe. */
  readonly subscribe: unknown;
}

/** The fixtures' common surface: tools add/ask(/sample), resource memo://one, prompt greet. */
async function exercise(transport: ClientTransport, versions: ClientVersion[], expected: Expected): Promise<Negotiated> {
  const client = createClient({ clientInfo, capabilities: capabilitiesAt(versions[0]), versions, handlers });
  const negotiated = await client.connect(transport);
  try {
    const tools = (await client.request("tools/list", {})) as { tools: Array<{ name: string; inputSchema: unknown }> };
    expect(tools.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["add", expected.ask]));
    const added = (await client.request("tools/call", { name: "add", arguments: { a: 2, b: 3 } })) as Text;
    expect(added.content[0].text).toBe("5");
    const asked = (await client.request("tools/call", { name: expected.ask, arguments: {} })) as Text;
    expect(asked.content[0].text).toBe(expected.ask === "ask" ? "hi/accept/Ada" : "hi/test-model");
    const read = (await client.request("resources/read", { uri: "memo://one" })) as { contents: Array<{ text?: string }> };
    expect(read.contents[0].text).toBe("memo one");
    const prompt = (await client.request("prompts/get", { name: "greet", arguments: { who: "Ada" } })) as { messages: Array<{ content: { text?: string } }> };
    expect(prompt.messages[0].content.text).toBe("Hello Ada");
    if (expected.subscribe !== undefined) expect(await client.request("resources/subscribe", { uri: "memo://one" })).toEqual(expected.subscribe);
    return negotiated;
  } finally {
    await client.close();
  }
}

describe("the official TypeScript SDK 1.32.2 (legacy era)", () => {
  it("serves at least one legacy version of the lock", () => {
    expect(sdk1Versions.length).toBeGreaterThan(0);
  });

  it.each(sdk1Versions)("over stdio, offered %s alone: negotiates it; tools, resources, prompts, subscribe, sampling (and elicitation where the version has it)", async (version) => {
    const transport = stdioClientTransport({ command: process.execPath, args: [path.join(fixtures, "sdk1-server.mjs")] });
    const n = await exercise(transport, [version], { ask: elicits(version) ? "ask" : "sample", subscribe: seed });
    expect([n.protocolVersion, n.era, n.fellBack]).toEqual([version, "legacy", undefined]);
    expect(transport.pid).toBeGreaterThan(0);
  });

  it.each(sdk1Versions)("over streamable HTTP (session, GET stream, DELETE), offered %s alone: negotiates it; the same", async (version) => {
    const transport = httpClientTransport(await startFixture("sdk1-server.mjs"));
    const n = await exercise(transport, [version], { ask: elicits(version) ? "ask" : "sample", subscribe: seed });
    expect([n.protocolVersion, n.era]).toEqual([version, "legacy"]);
  });

  it("over stdio and HTTP, offered 2025-11-25 and 2026-07-28: falls back from server/discover to 2025-11-25 and says so", async () => {
    for (const transport of [stdioClientTransport({ command: process.execPath, args: [path.join(fixtures, "sdk1-server.mjs")] }), httpClientTransport(await startFixture("sdk1-server.mjs"))]) {
      const n = await exercise(transport, ["2025-11-25", "2026-07-28"], { ask: "ask", subscribe: seed });
      expect([n.protocolVersion, n.era, typeof n.fellBack]).toEqual(["2025-11-25", "legacy", "string"]);
    }
  });
});

describe("the official TypeScript SDK 2.4.0 at 2026-07-28", () => {
  it("over stdio: negotiates 2026-07-28 through server/discover; sampling and elicitation as input-required rounds", async () => {
    const n = await exercise(stdioClientTransport({ command: process.execPath, args: [path.join(fixtures, "sdk2-server.mjs")] }), ["2025-11-25", "2026-07-28"], { ask: "ask", subscribe: undefined });
    expect([n.protocolVersion, n.era, n.fellBack]).toEqual(["2026-07-28", "modern", undefined]);
  });

  it("over streamable HTTP (createMcpHandler): the same, each request standing alone", async () => {
    const transport = httpClientTransport(await startFixture("sdk2-server.mjs"));
    const n = await exercise(transport, ["2025-11-25", "2026-07-28"], { ask: "ask", subscribe: undefined });
    expect([n.protocolVersion, n.era, n.fellBack, transport.sessionId]).toEqual(["2026-07-28", "modern", undefined, undefined]);
  });
});

// The fixture's subscribe handler returns extras the SDK's own result sieve drops before the wire (see the
// fixture's comment): the client receives, and passes on, the seed `_meta` alone.
describe("the official Python SDK (mcp 2.3.0)", () => {
  const stdio = () => stdioClientTransport({ command: python, args: [path.join(fixtures, "python-server.py")], stderr: "ignore" });

  it("over stdio at 2025-11-25: tools, resources, prompts, subscribe, sampling and elicitation as server requests", async () => {
    const n = await exercise(stdio(), ["2025-11-25"], { ask: "ask", subscribe: seed });
    expect([n.protocolVersion, n.era]).toEqual(["2025-11-25", "legacy"]);
  });

  it("over stdio at 2026-07-28 (server/discover): tools, resources, prompts, sampling and elicitation as input-required rounds", async () => {
    const n = await exercise(stdio(), ["2025-11-25", "2026-07-28"], { ask: "ask", subscribe: undefined });
    expect([n.protocolVersion, n.era, n.fellBack]).toEqual(["2026-07-28", "modern", undefined]);
  });

  it("over streamable HTTP (uvicorn) at 2025-11-25: the same as over stdio, in a session", async () => {
    const transport = httpClientTransport(await startPython());
    const n = await exercise(transport, ["2025-11-25"], { ask: "ask", subscribe: seed });
    expect([n.protocolVersion, n.era]).toEqual(["2025-11-25", "legacy"]);
    expect(transport.sessionId).toEqual(expect.any(String));
  });

  it("over streamable HTTP (uvicorn) at 2026-07-28: the same as over stdio, each request standing alone", async () => {
    const transport = httpClientTransport(await startPython());
    const n = await exercise(transport, ["2025-11-25", "2026-07-28"], { ask: "ask", subscribe: undefined });
    expect([n.protocolVersion, n.era, n.fellBack, transport.sessionId]).toEqual(["2026-07-28", "modern", undefined, undefined]);
  });
});

/** server-everything's own surface: echo, get-sum, its resources and prompts, subscribe (its handler answers `{}`), trigger-sampling-request, trigger-elicitation-request. */
async function exerciseEverything(transport: ClientTransport): Promise<Negotiated> {
  const client = createClient({ clientInfo, capabilities: capabilitiesAt("2025-11-25"), versions: ["2025-11-25", "2026-07-28"], handlers });
  const n = await client.connect(transport);
  try {
    expect(n.serverInfo?.name).toBe("mcp-servers/everything");
    const { tools } = (await client.request("tools/list", {})) as { tools: Array<{ name: string }> };
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["echo", "get-sum", "trigger-sampling-request", "trigger-elicitation-request"]));
    expect(((await client.request("tools/call", { name: "echo", arguments: { message: "hey" } })) as Text).content[0].text).toBe("Echo: hey");
    expect(((await client.request("tools/call", { name: "get-sum", arguments: { a: 2, b: 3 } })) as Text).content[0].text).toContain("5");
    const { resources } = (await client.request("resources/list", {})) as { resources: Array<{ uri: string }> };
    const read = (await client.request("resources/read", { uri: resources[0].uri })) as { contents: Array<{ uri: string }> };
    expect(read.contents[0].uri).toBe(resources[0].uri);
    const { prompts } = (await client.request("prompts/list", {})) as { prompts: Array<{ name: string; arguments?: Array<{ name: string; required?: boolean }> }> };
    const simple = prompts.find((p) => (p.arguments ?? []).every((a) => a.required !== true))!;
    expect(((await client.request("prompts/get", { name: simple.name })) as { messages: unknown[] }).messages.length).toBeGreaterThan(0);
    expect(await client.request("resources/subscribe", { uri: resources[0].uri })).toEqual({});
    // Its text is "LLM sampling result: \n" and the client's answer as JSON.
    const sampled = (await client.request("tools/call", { name: "trigger-sampling-request", arguments: { prompt: "hello", maxTokens: 10 } })) as Text;
    expect(JSON.parse(sampled.content[0].text!.replace(/^LLM sampling result: \n/, ""))).toEqual({ role: "assistant", content: { type: "text", text: "hi" }, model: "test-model" });
    const elicited = (await client.request("tools/call", { name: "trigger-elicitation-request", arguments: {} })) as Text;
    expect(elicited.content.map((c) => c.text).join("\n")).toContain("- Name: Ada");
    return n;
  } finally {
    await client.close();
  }
}

describe("@modelcontextprotocol/server-everything (npm)", () => {
  it("over stdio: falls back to 2025-11-25; tools, a resource, a prompt, subscribe, sampling and elicitation", async () => {
    const n = await exerciseEverything(stdioClientTransport({ command: process.execPath, args: [everything, "stdio"], stderr: "ignore" }));
    expect([n.protocolVersion, n.era]).toEqual(["2025-11-25", "legacy"]);
  });

  it("over streamable HTTP (streamableHttp mode): the same, in a session", async () => {
    const url = await startEverything();
    const transport = httpClientTransport(url);
    const n = await exerciseEverything(transport);
    expect([n.protocolVersion, n.era]).toEqual(["2025-11-25", "legacy"]);
  });
});
