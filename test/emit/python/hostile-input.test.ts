// Valid JSON the interpreter's own limits must not decide (issue 40): a message nested past Python's
// recursion limit, integer literals past its integer-string digit limit, an id too large for a double. Every
// such message is read as JSON.parse reads it and answered with its own id, and serving goes on, on both
// transports of both runtimes: the Python stdio and HTTP transports (stdio_server.py, http_server.py) and
// the TypeScript ones (serveStdio, serveHttp), each judged against the same expected answers, written here
// as data (the JSON-RPC rules: an unknown method is -32601 with the request's id; a message whose id is not
// a string or an integer is -32600 with id null; text that is not JSON, NaN included, is -32700 with id null).
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServerRouter } from "../../../generated/router.js";
import { type HttpServer, serveHttp } from "../../../generated/runtime/transport-http.js";
import { serveStdio } from "../../../generated/runtime/transport-stdio.js";
import { readLock } from "../../../generator/source/lock.js";
import { lockFile, root } from "../../support.js";
import { initialize } from "./router-scenarios.js";
import { pythonBin, pythonJson, pythonTestDir, pythonTree, servingLegacy } from "./support.js";

const labels = Object.keys((await readLock(lockFile)).versions).sort();
const LEGACY = await servingLegacy(labels);

/** A method no version has: its answer does not depend on any server's handlers. */
const UNKNOWN = "example/unknown";
const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
const request = (id: string, params: string) => `{"jsonrpc":"2.0","id":${id},"method":"${UNKNOWN}","params":${params}}`;

interface Case {
  name: string;
  line: string;
  /** The answer's id and error code; the HTTP status the streamable HTTP transports answer it with. */
  id: number | null;
  code: number;
  status: number;
}

const CASES: Case[] = [
  { name: "params nested 1,500 deep (past Python's recursion limit)", line: request("1", `{"a":${nested(1500)}}`), id: 1, code: -32601, status: 200 },
  { name: "params nested 100,000 deep", line: request("2", `{"a":${nested(100_000)}}`), id: 2, code: -32601, status: 200 },
  { name: "an integer literal of 5,000 digits (past Python's digit limit)", line: request("3", `{"n":${"7".repeat(5000)}}`), id: 3, code: -32601, status: 200 },
  { name: "a number literal past the largest double", line: request("4", `{"x":1${"0".repeat(400)}.5e10}`), id: 4, code: -32601, status: 200 },
  { name: "a 1,000-digit integer inside a nested array 2,000 deep", line: request("5", `{"a":${"[".repeat(2000)}${"9".repeat(1000)}${"]".repeat(2000)}}`), id: 5, code: -32601, status: 200 },
  { name: "an id of 5,000 digits (Infinity to JSON.parse: no id)", line: request("9".repeat(5000), "{}"), id: null, code: -32600, status: 400 },
  { name: "a message object nested 3,000 deep without jsonrpc", line: `{"a":${'{"a":'.repeat(3000)}1${"}".repeat(3000)}}`, id: null, code: -32600, status: 400 },
  { name: "NaN, which is not JSON", line: request("6", `{"x":NaN}`), id: null, code: -32700, status: 400 },
  { name: "nesting 1,500 deep that does not close (not JSON)", line: request("7", `{"a":${"[".repeat(1500)}}`), id: null, code: -32700, status: 400 },
];
/** After every case, a plain request: the connection still serves. */
const LAST = { line: request("99", "{}"), id: 99, code: -32601 };

/** JSON texts within every limit, valid and not, each with a construct a hand-written reader can get wrong. */
const TEXTS = [
  "{}", "[]", " [ 1 , [ ] , { } ] ", '"s"', "0", "-0", "-12", "1.5", "-0.5e3", "1E+2", "1e-7", "true", "false", "null",
  '{"a":[1,2,{"b":null}],"c":"x\\u00e9\\n\\"","d":-0.5e3,"e":true,"f":false}', '{"":1,"a":1,"a":2}', '"\\ud83d\\ude00 \\u2028 /"',
  '{"a":{"b":{"c":[[],[[]],{}]}}}', "\t\n\r [1]\n",
  "", " ", "[", "]", "[1,]", '{"a":1,}', '{"a"}', '{"a":}', "[1,,2]", "[,1]", "01", "1.", ".5", "+1", "-", "1e", "[1 2]", '{"a":1 "b":2}',
  "NaN", "[Infinity]", "-Infinity", "tru", "nul", '"\u0001"', '"\\x"', '"abc', '["\\"]', "[1]x", '{"a":1}}', "[]]", '"a" "b"', "{1:2}", "'a'",
];

interface Answer {
  id: unknown;
  error?: { code: number };
}

describe("the Python runtime's JSON reading", () => {
  it("reads every text as JSON.parse does: the same value, or refused", () => {
    const answers = pythonJson<Array<[string | null, string | null]>>("json_text.py", TEXTS);
    TEXTS.forEach((text, i) => {
      let expected: unknown = undefined;
      try {
        // As JSON text again (what either side sends on): -0 is 0.
        expected = JSON.parse(JSON.stringify(JSON.parse(text)));
      } catch {
        expected = undefined;
      }
      const [read, iteratively] = answers[i].map((a) => (a === null ? undefined : JSON.parse(a)));
      expect(read, JSON.stringify(text)).toEqual(expected);
      // The iterative reading alone (what a text past the interpreter's limits gets) reads it the same.
      expect(iteratively, JSON.stringify(text)).toEqual(expected);
    });
  });
});

/** One stdio peer: writes lines, reads the answer lines in order. */
interface Lines {
  write(line: string): void;
  next(): Promise<Answer>;
  end(): Promise<void>;
}

function lineReader(output: NodeJS.ReadableStream, describeFailure: () => string): { next(): Promise<Answer> } {
  const lines: Answer[] = [];
  const takers: Array<(a: Answer) => void> = [];
  let buffer = "";
  output.setEncoding("utf8");
  output.on("data", (chunk: string) => {
    buffer += chunk;
    for (let i = buffer.indexOf("\n"); i >= 0; i = buffer.indexOf("\n")) {
      const answer = JSON.parse(buffer.slice(0, i)) as Answer;
      buffer = buffer.slice(i + 1);
      const taker = takers.shift();
      if (taker === undefined) lines.push(answer);
      else taker(answer);
    }
  });
  return {
    next: () =>
      lines.length > 0
        ? Promise.resolve(lines.shift()!)
        : new Promise((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`no answer within 20 s; ${describeFailure()}`)), 20_000);
            takers.push((a) => {
              clearTimeout(timer);
              resolve(a);
            });
          }),
  };
}

function pythonStdio(): Lines {
  const child: ChildProcessWithoutNullStreams = spawn(pythonBin(), [path.join(pythonTestDir, "stdio_server.py"), "{}"], {
    cwd: root,
    env: { ...process.env, PYTHONPATH: pythonTree, PYTHONDONTWRITEBYTECODE: "1", PYTHONUTF8: "1" },
  });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const reader = lineReader(child.stdout, () => `exit ${child.exitCode}, stderr: ${stderr.slice(0, 2000)}`);
  return {
    write: (line) => child.stdin.write(line + "\n"),
    next: reader.next,
    end: async () => {
      child.stdin.end();
      expect(await exited).toBe(0);
    },
  };
}

function tsRouter() {
  return createServerRouter({ serverInfo: { name: "hostile-input", version: "1.0.0" }, versions: { [LEGACY]: { capabilities: {}, handlers: {} } } as never });
}

function typescriptStdio(): Lines {
  const input = new PassThrough();
  const output = new PassThrough();
  const server = serveStdio(tsRouter(), { input, output, onError: () => undefined });
  const reader = lineReader(output, () => "the TypeScript stdio transport");
  return {
    write: (line) => input.write(line + "\n"),
    next: reader.next,
    end: async () => {
      input.end();
      await server.closed;
    },
  };
}

describe.each([
  ["Python", pythonStdio],
  ["TypeScript", typescriptStdio],
])("the %s stdio transport, given valid JSON past the interpreter's limits", (_language, open) => {
  it("answers every message with its own id as JSON-RPC says, and goes on serving", async () => {
    const peer = open();
    peer.write(JSON.stringify(initialize(0, LEGACY)));
    expect(await peer.next()).toMatchObject({ id: 0, result: { protocolVersion: LEGACY } });
    peer.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    // One at a time: each answer is awaited before the next line, so answers pair with cases.
    for (const c of [...CASES, LAST]) {
      peer.write(c.line);
      const answer = await peer.next();
      expect({ id: answer.id, code: answer.error?.code }, c.line.length > 200 ? c.line.slice(0, 80) : c.line).toEqual({ id: c.id, code: c.code });
    }
    await peer.end();
  }, 120_000);
});

interface PythonHttp {
  url: string;
  stop(): Promise<void>;
}

function pythonHttp(): Promise<PythonHttp> {
  const child = spawn(pythonBin(), [path.join(pythonTestDir, "http_server.py"), "{}"], {
    stdio: ["pipe", "pipe", "inherit"],
    env: { ...process.env, PYTHONPATH: pythonTree, PYTHONDONTWRITEBYTECODE: "1", PYTHONUTF8: "1" },
  });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`http_server.py exited (${code}) before listening`)));
    child.stdout.setEncoding("utf8");
    child.stdout.once("data", (chunk: string) => {
      const port = (JSON.parse(chunk.split("\n")[0]) as { port: number }).port;
      child.removeAllListeners("exit");
      resolve({
        url: `http://127.0.0.1:${port}/mcp`,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once("exit", () => done());
            process.kill(child.pid!, "SIGTERM");
          }),
      });
    });
  });
}

let py: PythonHttp;
let ts: HttpServer;
beforeAll(async () => {
  [py, ts] = await Promise.all([pythonHttp(), serveHttp(tsRouter(), { onError: () => undefined })]);
}, 30_000);
afterAll(async () => {
  await Promise.all([py?.stop(), ts?.close()]);
});

const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };

describe.each([
  ["Python", () => py.url],
  ["TypeScript", () => ts.url],
])("the %s streamable HTTP transport, given valid JSON past the interpreter's limits", (_language, url) => {
  it("answers every message with its own id and the status JSON-RPC over HTTP gives it, and goes on serving", async () => {
    const init = await fetch(url(), { method: "POST", headers, body: JSON.stringify(initialize(0, LEGACY)) });
    expect(init.status).toBe(200);
    await init.text();
    const session = { ...headers, "mcp-session-id": init.headers.get("mcp-session-id")!, "mcp-protocol-version": LEGACY };
    expect((await fetch(url(), { method: "POST", headers: session, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) })).status).toBe(202);
    for (const c of [...CASES, { ...LAST, status: 200 }]) {
      const response = await fetch(url(), { method: "POST", headers: session, body: c.line });
      const answer = JSON.parse(await response.text()) as Answer;
      expect({ status: response.status, id: answer.id, code: answer.error?.code }, c.line.length > 200 ? c.line.slice(0, 80) : c.line).toEqual({ status: c.status, id: c.id, code: c.code });
    }
  }, 120_000);
});
