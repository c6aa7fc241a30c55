// The generated Python client (generated/python/<package>/client.py, client_stdio.py, client_http.py):
// - its rules on the wire against a scripted server in memory (client_units.py): cancellation both ways,
//   timeouts, refusals before sending, results and params checked with pointers, legacy fallback and the
//   modern envelope, handlers, progress, pagination, input_required rounds, x-mcp-header tools, structuredContent,
//   the stdio child's environment;
// - against real servers, both eras, both transports (client_driver.py): the official Python SDK's example
//   everything-server (mcp 2.3.0, examples/servers/everything-server, served over streamable HTTP as shipped and
//   over the SDK's stdio transport), and the TypeScript conformance router (test/conformance/server.ts) over the
//   generated HTTP and stdio transports. The expected texts are the servers' own (their tool code).
import { docExample } from "../../docs/blocks.js";
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root, tempDir } from "../../support.js";
import { startServer, type RunningServer } from "../../conformance/server.js";
import { pythonBin, pythonRuntimePackage, pythonTestDir, pythonTree, pyrightStrict, run } from "./support.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const everythingServer = path.join(root, "..", "shared", "python-sdk", "mcp-2.3.0", "examples", "servers", "everything-server");
const baseEnv = { ...(process.env as Record<string, string>), PYTHONDONTWRITEBYTECODE: "1", PYTHONUTF8: "1" };

/** `python <script>` of this folder with JSON in and out, without blocking this process (the TypeScript server answers in it). */
function pythonAsync(script: string, input: unknown): Promise<Json> {
  return new Promise((resolve, reject) => {
    const child = spawn(pythonBin(), [path.join(pythonTestDir, script)], { cwd: root, env: { ...baseEnv, PYTHONPATH: pythonTree } });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("exit", (code) => {
      if (code !== 0 || err !== "") reject(new Error(`${script} exited ${code}:\n${err.slice(-4000)}`));
      else resolve(JSON.parse(out));
    });
    child.stdin.end(JSON.stringify(input));
  });
}

const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });

describe("the Python client's rules (a scripted server in memory)", () => {
  let facts: Json;
  beforeAll(async () => {
    facts = await pythonAsync("client_units.py", {});
  }, 180_000);

  it("a timeout or a cancelled task sends notifications/cancelled for that request", () => {
    expect(facts.cases.timeout).toEqual({ outcome: { kind: "timeout", pointers: [] }, cancelsTheCall: true });
    expect(facts.cases.taskCancel).toEqual({ outcome: "cancelled", cancelled: true });
  });

  it("a result the version's models refuse is a ClientError naming the JSON pointers", () => {
    // Tool requires a string name and an inputSchema (every generated version).
    expect(facts.cases.invalidResult).toEqual({ outcome: { kind: "invalid-result", pointers: ["/tools/0/inputSchema", "/tools/0/name"] } });
  });

  it("refuses before sending: a capability the server lacks, a server-side or unknown method, invalid params", () => {
    expect(facts.cases.capability).toEqual({ outcome: { kind: "capability", pointers: [] }, sent: 0 });
    expect(facts.cases.refusals).toEqual({
      serverSide: { kind: "unknown-method", pointers: [] },
      unknown: { kind: "unknown-method", pointers: [] },
      invalidParams: { kind: "invalid-params", pointers: ["/params/name"] },
      sentAfterInitialize: [],
    });
  });

  it("refuses invalid params before sending at every generated version, those whose schema inlines the params included", () => {
    // tools/call without its required `name`, each version alone (the labels the generated package lists).
    const expected = Object.fromEntries((facts.labels as string[]).map((label) => [label, { kind: "invalid-params", pointers: ["/params/name"], sent: 0 }]));
    expect(facts.cases.invalidParamsEveryVersion).toEqual(expected);
  });

  it("falls back from server/discover to initialize, offering the newest legacy version; legacy requests carry no envelope", () => {
    expect(facts.cases.fallback).toEqual({
      methods: ["server/discover", "initialize", "notifications/initialized", "tools/list"],
      era: "legacy",
      version: facts.legacy[0],
      fellBack: true,
      discoverMeta: ["io.modelcontextprotocol/clientCapabilities", "io.modelcontextprotocol/clientInfo", "io.modelcontextprotocol/protocolVersion"],
      legacyParams: {},
    });
  });

  it("modern: retries discovery after -32022 at a version the server names, and envelopes every request", () => {
    const modern = facts.modern as string[];
    expect(facts.cases.modern.asked).toEqual([modern[0], modern[modern.length - 1]]);
    expect(facts.cases.modern.version).toBe(modern[modern.length - 1]);
    expect(facts.cases.modern.listMeta).toEqual({
      "example.com/mine": 1,
      "io.modelcontextprotocol/protocolVersion": modern[modern.length - 1],
      "io.modelcontextprotocol/clientCapabilities": { roots: {} },
      "io.modelcontextprotocol/clientInfo": { name: "units", version: "1.0.0" },
    });
    expect(facts.cases.modern.headersInfo).toEqual([modern[modern.length - 1], "modern"]);
  });

  it("the server's notifications/cancelled and close() cancel running handlers; nothing is answered after", () => {
    expect(facts.cases.serverCancels).toEqual({ events: ["handler cancelled"], answered: [] });
    expect(facts.cases.close).toEqual({ events: ["handler cancelled"], answers: [], transportClosed: true });
  });

  it("handlers answer the server's requests, can be replaced, and a missing one is -32601", () => {
    expect(facts.cases.handlers.answers).toEqual({ "1": { roots: [{ uri: "file:///a" }] }, "2": -32601, "3": { roots: [] } });
  });

  it("progress reaches the request's callback; pages follow nextCursor and stop on a repeated one", () => {
    expect(facts.cases.progressPages).toEqual({
      progress: [{ progress: 1, total: 2 }],
      pages: [1, 0],
      stop: { kind: "invalid-result", pointers: ["/nextCursor"] },
      notPaginated: { kind: "unknown-method", pointers: [] },
    });
  });

  it("input_required: answered by the handlers, retried with inputResponses and requestState, at most max_input_rounds", () => {
    expect(facts.cases.inputRounds).toEqual({
      outcome: { kind: "input-required", pointers: [] },
      requests: 4,
      second: { name: "t", arguments: {}, inputResponses: { confirm: { action: "accept", content: { ok: true } } }, requestState: "s1" },
    });
  });

  it("modern tools/list leaves out a tool with an invalid x-mcp-header; tools/call carries the name param and the tool's inputSchema", () => {
    expect(facts.cases.headers).toEqual({ tools: ["good"], problems: 1, nameParam: "name", inputSchema: true });
  });

  it("structuredContent is checked against the listed outputSchema (not for isError results)", () => {
    expect(facts.cases.structured.calls).toEqual([
      ["content", "structuredContent"],
      { kind: "invalid-result", pointers: ["/structuredContent/t"] },
      { kind: "invalid-result", pointers: ["/structuredContent"] },
      ["content", "isError"],
    ]);
  });

  it("a stdio server gets only the inherited variables; a line that is not JSON is reported and reading goes on", () => {
    expect(facts.cases.stdioEnvironment).toEqual({ secretPassed: false, outsideTheList: [], problems: ["problem: the server wrote a line that is not JSON: not json"] });
  });
});

const SIMPLE = "This is a simple text response for testing.";
const text = (outcome: Json): string => {
  if (outcome.error !== undefined) return `error: ${JSON.stringify(outcome.error)}`;
  return outcome.result.content[0].text;
};

interface Target {
  name: string;
  transport(): Json;
  serverName: string;
}

let sdkHttp: ReturnType<typeof spawn> | undefined;
let sdkUrl = "";
let tsServer: RunningServer | undefined;
beforeAll(async () => {
  const port = await freePort();
  sdkHttp = spawn(pythonBin(), ["-m", "mcp_everything_server", "--port", String(port), "--log-level", "WARNING"], {
    cwd: root,
    env: { ...baseEnv, PYTHONPATH: everythingServer },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let err = "";
  await new Promise<void>((resolve, reject) => {
    sdkHttp!.stderr!.on("data", (d: Buffer) => {
      err += d.toString();
      if (err.includes("Uvicorn running")) resolve();
    });
    sdkHttp!.once("exit", (code) => reject(new Error(`the SDK's everything-server exited (${code}): ${err}`)));
  });
  sdkUrl = `http://127.0.0.1:${port}/mcp`;
  tsServer = await startServer(0);
}, 180_000);
afterAll(async () => {
  sdkHttp?.kill();
  await tsServer?.close();
});

const sdkTargets: Target[] = [
  { name: "the Python SDK's everything-server over streamable HTTP", transport: () => ({ http: sdkUrl }), serverName: "mcp-conformance-test-server" },
  {
    name: "the Python SDK's everything-server over stdio",
    transport: () => ({ stdio: [pythonBin(), path.join(pythonTestDir, "client_sdk_stdio_server.py")], env: { PYTHONPATH: everythingServer, PATH: process.env.PATH ?? "" } }),
    serverName: "mcp-conformance-test-server",
  },
];
const tsTargets: Target[] = [
  { name: "the TypeScript conformance router over streamable HTTP", transport: () => ({ http: tsServer!.url }), serverName: "mcp-codegen-conformance" },
  {
    name: "the TypeScript conformance router over stdio",
    transport: () => ({ stdio: [path.join(root, "node_modules", ".bin", "tsx"), path.join(pythonTestDir, "client_ts_stdio_server.ts")], env: { PATH: process.env.PATH ?? "" } }),
    serverName: "mcp-codegen-conformance",
  },
];

const MODERN_ERA = "2026-07-28";
const LEGACY_ERA = "2025-11-25";

describe.each(sdkTargets)("the Python client against $name", (target) => {
  it("legacy: text, progress, sampling and elicitation answered by handlers", async () => {
    const isHttp = target.name.includes("HTTP");
    const steps: Json[] = [{ call: "test_simple_text" }, { call: "test_tool_with_progress", progress: true }, { call: "test_sampling", arguments: { prompt: "capital?" } }, { call: "test_elicitation", arguments: { message: "who?" } }];
    if (isHttp) steps.push({ call: "test_reconnection" });
    const out = await pythonAsync("client_driver.py", { ...target.transport(), versions: [LEGACY_ERA], steps });
    expect(out.negotiated).toEqual({ protocolVersion: LEGACY_ERA, era: "legacy", serverInfo: { name: target.serverName, version: "0.1.0" }, fellBack: false });
    expect(text(out.outcomes[0])).toBe(SIMPLE);
    expect(out.outcomes[1].progress.map((p: Json) => [p.progress, p.total])).toEqual([[0, 100], [50, 100], [100, 100]]);
    expect(text(out.outcomes[2])).toBe("LLM response: Paris");
    expect(text(out.outcomes[3])).toBe('User response: action=accept, content={"response":"Ada"}');
    // The SDK's test_reconnection closes the SSE stream mid-call: the answer arrives on the stream resumed with Last-Event-ID.
    if (isHttp) expect(text(out.outcomes[4])).toBe("Reconnection test completed");
    expect(out.handled.map((h: Json) => h[0])).toEqual(["sampling/createMessage", "elicitation/create"]);
    expect(out.problems).toEqual([]);
  }, 180_000);

  it("2026-07-28: discovery, input_required rounds answered by handlers, Mcp-Param headers the server checks", async () => {
    const steps = [
      { request: "tools/list" },
      { call: "test_simple_text" },
      { call: "test_input_required_result_elicitation" },
      { call: "test_input_required_result_sampling" },
      { call: "test_input_required_result_list_roots" },
      { call: "test_input_required_result_request_state" },
      { call: "test_input_required_result_multi_round" },
      { call: "test_input_required_result_multiple_inputs" },
      { call: "test_x_mcp_header", arguments: { region: "eu-west" } },
      { call: "test_tool_with_progress", progress: true },
    ];
    const out = await pythonAsync("client_driver.py", { ...target.transport(), versions: [MODERN_ERA, LEGACY_ERA], steps });
    expect(out.negotiated).toEqual({ protocolVersion: MODERN_ERA, era: "modern", serverInfo: { name: target.serverName, version: "0.1.0" }, fellBack: false });
    expect(out.outcomes[0].result.tools.map((t: Json) => t.name)).toContain("test_x_mcp_header");
    expect(out.outcomes.slice(1, 9).map(text)).toEqual([SIMPLE, "Hello, Ada!", "Model said: Paris", "Client exposed 1 root(s).", "state-ok: confirmation received", "Ada likes Ada.", "All inputs received.", "region=eu-west"]);
    expect(out.outcomes[9].progress.map((p: Json) => [p.progress, p.total])).toEqual([[0, 100], [50, 100], [100, 100]]);
    expect(out.handled.map((h: Json) => h.join(" "))).toEqual([
      "elicitation/create user_name",
      "sampling/createMessage capital_question",
      "roots/list client_roots",
      "elicitation/create confirm",
      "elicitation/create step1",
      "elicitation/create step2",
      "elicitation/create user_name",
      "sampling/createMessage greeting",
      "roots/list client_roots",
    ]);
    expect(out.problems).toEqual([]);
  }, 180_000);
});

describe.each(tsTargets)("the Python client against $name", (target) => {
  it("legacy: text, progress, sampling and elicitation answered by handlers, pages", async () => {
    const steps = [{ call: "test_simple_text" }, { call: "test_tool_with_progress", progress: true }, { call: "test_sampling", arguments: { prompt: "capital?" } }, { call: "test_elicitation", arguments: { message: "who?" } }, { pages: "resources/list" }];
    const out = await pythonAsync("client_driver.py", { ...target.transport(), versions: [LEGACY_ERA], steps });
    expect(out.negotiated).toEqual({ protocolVersion: LEGACY_ERA, era: "legacy", serverInfo: { name: target.serverName, version: "0.1.0" }, fellBack: false });
    expect(text(out.outcomes[0])).toBe(SIMPLE);
    expect(out.outcomes[1].progress.map((p: Json) => [p.progress, p.total])).toEqual([[0, 100], [50, 100], [100, 100]]);
    expect(text(out.outcomes[2])).toBe("LLM response: Paris");
    expect(JSON.parse(text(out.outcomes[3]).replace(/^User response: /, ""))).toMatchObject({ action: "accept" });
    expect(out.outcomes[4].result.length).toBeGreaterThan(0);
    expect(out.handled.map((h: Json) => h[0])).toEqual(["sampling/createMessage", "elicitation/create"]);
    expect(out.problems).toEqual([]);
  }, 180_000);

  it("2026-07-28: discovery, input_required rounds, the Mcp-Param header the router checks", async () => {
    const steps = [
      { request: "tools/list" },
      { call: "test_input_required_result_elicitation" },
      { call: "test_input_required_result_list_roots" },
      { call: "test_input_required_result_multi_round" },
      { call: "test_custom_header", arguments: { region: "eu-west" } },
    ];
    const out = await pythonAsync("client_driver.py", { ...target.transport(), versions: [MODERN_ERA, LEGACY_ERA], steps });
    expect(out.negotiated).toEqual({ protocolVersion: MODERN_ERA, era: "modern", serverInfo: { name: target.serverName, version: "0.1.0" }, fellBack: false });
    expect(out.outcomes.slice(1, 4).map(text)).toEqual(["Hello, Ada!", "Roots received.", "Both rounds answered."]);
    // The router refuses a tools/call whose Mcp-Param-Region header is missing or differs (-32020); over stdio there are no headers.
    expect(text(out.outcomes[4])).toBe("Received the arguments.");
    expect(out.problems).toEqual([]);
  }, 180_000);
});

/** The examples of docs/python-client.md this file runs (test/docs/blocks.ts reads them by name). */
function docExamples(): string[] {
  return [docExample("docs/python-client.md", "stdio_client.py"), docExample("docs/python-client.md", "http_client.py")];
}

/** A documented example run as a program (the TypeScript server answers in this process: not blocking it). */
function runExample(file: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(pythonBin(), [file, ...args], { cwd: root, env: { ...baseEnv, PYTHONPATH: pythonTree, ...env } });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("exit", (code) => resolve({ code, out, err }));
  });
}

describe("docs/python-client.md", () => {
  const [stdioExample, httpExample] = docExamples();
  const dir = tempDir();
  beforeAll(() => {
    writeFileSync(path.join(dir, "stdio_client.py"), stdioExample);
    writeFileSync(path.join(dir, "http_client.py"), httpExample);
  });

  it("has two examples; they pass pyright --strict and ruff", () => {
    expect(docExamples()).toHaveLength(2);
    const checked = pyrightStrict(dir, [pythonTree]);
    expect(checked.stdout + checked.stderr).toContain("0 errors, 0 warnings");
    const linted = run("ruff", ["check", "--no-cache", "--config", path.join(pythonRuntimePackage, "ruff.toml"), dir]);
    expect(linted.stdout + linted.stderr).toContain("All checks passed");
  }, 120_000);

  it("the stdio example talks to the TypeScript conformance router's stdio server", async () => {
    const r = await runExample(path.join(dir, "stdio_client.py"), [path.join(root, "node_modules", ".bin", "tsx"), path.join(pythonTestDir, "client_ts_stdio_server.ts")]);
    expect(r.err).toBe("");
    const [negotiated, said, ...rest] = r.out.split("\n");
    // The newest version both sides have: the router serves every generated dated version.
    expect(negotiated).toMatch(/^negotiated \d{4}-\d{2}-\d{2}$/);
    expect(said).toBe(SIMPLE);
    expect(rest).toEqual([""]);
    expect(r.code).toBe(0);
  }, 180_000);

  it("the HTTP example lists every page of tools and hears the call's progress", async () => {
    const r = await runExample(path.join(dir, "http_client.py"), [], { MCP_URL: tsServer!.url });
    expect(r.err).toBe("");
    const fixtures = JSON.parse(readFileSync(path.join(root, "test", "conformance", "fixtures.json"), "utf8")) as { tools: { common: unknown[]; legacy: unknown[] } };
    expect(r.out).toBe(`2025-11-25: ${fixtures.tools.common.length + fixtures.tools.legacy.length} tools, progress [0, 50, 100]\n`);
    expect(r.code).toBe(0);
  }, 180_000);
});
