// The Python stdio transport (runtimes/python/src/mcp_codegen_runtime/stdio.py, copied as mcp_codegen.stdio) in a real
// subprocess (stdio_server.py) speaking newline-delimited JSON: a parse error and an invalid envelope
// (id null), both eras on one stream, server→client requests answered through stdin, batches per
// version of the lock (served where the version's schema defines batches, else refused -32600, and before initialize), the
// in-flight cap (input not read at the cap), a client not reading its output (disconnected past the
// bound), and the end of input (running requests finish within the
// grace period, are cancelled after it; the process exits 0).
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readLock } from "../../../generator/source/lock.js";
import { lockFile, root } from "../../support.js";
import { initialize, modern, msg } from "./router-scenarios.js";
import { pythonBin, pythonTestDir, pythonTree, servingLegacy } from "./support.js";
import { schemaDefinesBatches } from "../../scenarios/facts.js";

const labels = Object.keys((await readLock(lockFile)).versions).sort();
const eras = Object.fromEntries(
  await Promise.all(labels.map(async (l) => [l, ((await import(`../../../generated/${l}/index.ts`)) as { era: string }).era] as const)),
);
const legacyLabels = labels.filter((l) => eras[l] === "legacy");
const modernLabels = labels.filter((l) => eras[l] === "modern");
/** The legacy version the stdio tests drive (tools/call with text content, sampling, cancellation). */
const SERVING = await servingLegacy(labels);
/** A version batches when its schema defines JSON-RPC batches (a JSONRPCBatchRequest definition), read from the pinned schema. */
const batchesServed = (label: string) => schemaDefinesBatches(label);

interface Server {
  child: ChildProcessWithoutNullStreams;
  write(message: unknown): void;
  writeRaw(text: string): void;
  /** The next line the server writes, parsed; fails after `ms`. */
  next(ms?: number): Promise<unknown>;
  /** Lines written so far and not taken by `next`. */
  readonly waiting: unknown[];
  stderr(): string;
  exited: Promise<number | null>;
}

const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill();
});

function start(options: { max_in_flight?: number; end_grace?: number; max_buffered_bytes?: number } = {}): Server {
  const child = spawn(pythonBin(), [path.join(pythonTestDir, "stdio_server.py"), JSON.stringify(options)], {
    cwd: root,
    env: { ...process.env, PYTHONPATH: pythonTree, PYTHONDONTWRITEBYTECODE: "1", PYTHONUTF8: "1" },
  });
  children.push(child);
  const lines: unknown[] = [];
  const takers: Array<(line: unknown) => void> = [];
  let buffer = "";
  let stderr = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    buffer += chunk;
    for (let i = buffer.indexOf("\n"); i >= 0; i = buffer.indexOf("\n")) {
      const line = JSON.parse(buffer.slice(0, i)) as unknown;
      buffer = buffer.slice(i + 1);
      const taker = takers.shift();
      if (taker === undefined) lines.push(line);
      else taker(line);
    }
  });
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    child,
    write: (message) => child.stdin.write(JSON.stringify(message) + "\n"),
    writeRaw: (text) => child.stdin.write(text),
    next: (ms = 30000) =>
      lines.length > 0
        ? Promise.resolve(lines.shift())
        : new Promise((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`no line within ${ms} ms; stderr: ${stderr}`)), ms);
            takers.push((line) => {
              clearTimeout(timer);
              resolve(line);
            });
          }),
    get waiting() {
      return lines;
    },
    stderr: () => stderr,
    exited,
  };
}

const text = (t: string) => ({ content: [{ type: "text", text: t }] });

describe("the Python stdio transport", () => {
  it("answers a line that is not JSON -32700 and an invalid envelope -32600, both with id null, and goes on", async () => {
    const s = start();
    s.writeRaw("{not json\n");
    expect(await s.next()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
    s.write({ jsonrpc: "2.0", id: 1, method: 5 });
    expect(await s.next()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: 'Invalid Request: expected jsonrpc "2.0" and a string method' } });
    s.write(msg(2, "ping"));
    expect(await s.next()).toEqual({ jsonrpc: "2.0", id: 2, result: {} });
    s.child.stdin.end();
    expect(await s.exited).toBe(0);
  });

  it("serves both eras on one stream, and a server→client request answered on stdin", async () => {
    const s = start();
    const legacy = SERVING;
    s.write(initialize(1, legacy));
    expect(await s.next()).toMatchObject({ id: 1, result: { protocolVersion: legacy } });
    s.write(msg(2, "tools/call", { name: "sample" }));
    const request = (await s.next()) as { id: string; method: string };
    expect(request).toEqual({ jsonrpc: "2.0", id: "s0", method: "sampling/createMessage", params: { messages: [], maxTokens: 5 } });
    s.write({ jsonrpc: "2.0", id: request.id, result: { role: "assistant", content: { type: "text", text: "hi" }, model: "m" } });
    expect(await s.next()).toEqual({ jsonrpc: "2.0", id: 2, result: text('{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"}') });
    for (const label of modernLabels) {
      s.write(msg(`d-${label}`, "tools/call", modern(label, { name: "hello" })));
      expect(await s.next()).toEqual({ jsonrpc: "2.0", id: `d-${label}`, result: { ...text("hello"), resultType: "complete" } });
    }
    s.child.stdin.end();
    expect(await s.exited).toBe(0);
  });

  it.each(legacyLabels)("batches at %s: served as one array where the schema defines batches, else refused -32600; before initialize refused", async (label) => {
    const s = start();
    s.write([msg(1, "ping")]);
    expect(await s.next()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: JSON-RPC batches are not supported before initialize" } });
    s.write(initialize(2, label));
    expect(await s.next()).toMatchObject({ id: 2, result: { protocolVersion: label } });
    s.write([msg(3, "tools/call", { name: "hello" }), msg(undefined, "notifications/initialized"), msg(4, "tools/list")]);
    if (batchesServed(label)) {
      expect(await s.next()).toEqual([
        { jsonrpc: "2.0", id: 3, result: text("hello") },
        { jsonrpc: "2.0", id: 4, result: { tools: [{ name: "echo", inputSchema: { type: "object" } }] } },
      ]);
      s.write([msg(undefined, "notifications/initialized")]);
      s.write([]);
      // A batch of notifications is not answered; an empty batch is -32600.
      expect(await s.next()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: an empty batch" } });
    } else {
      expect(await s.next()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: `Invalid Request: JSON-RPC batches are not supported in protocol version ${label}` } });
    }
    s.child.stdin.end();
    expect(await s.exited).toBe(0);
    expect(s.waiting).toEqual([]);
  });

  it("at the in-flight cap stops reading: a quick request after two slow ones waits for one of them (told once on stderr)", async () => {
    const s = start({ max_in_flight: 2 });
    s.write(initialize(1, SERVING));
    await s.next();
    s.write(msg(2, "tools/call", { name: "slow", arguments: { seconds: 1.0 } }));
    s.write(msg(3, "tools/call", { name: "slow", arguments: { seconds: 1.5 } }));
    s.write(msg(4, "tools/call", { name: "hello" }));
    expect(await s.next()).toMatchObject({ id: 2 });
    expect(await s.next()).toMatchObject({ id: 4 });
    expect(await s.next()).toMatchObject({ id: 3 });
    expect(s.stderr()).toBe("mcp stdio transport: paused reading: 2 requests are in flight (max_in_flight)\n");
    s.child.stdin.end();
    expect(await s.exited).toBe(0);
  });

  it("without the cap the quick request is answered first (the cap is what orders them)", async () => {
    const s = start({ max_in_flight: 64 });
    s.write(initialize(1, SERVING));
    await s.next();
    s.write(msg(2, "tools/call", { name: "slow", arguments: { seconds: 1.0 } }));
    s.write(msg(3, "tools/call", { name: "slow", arguments: { seconds: 1.5 } }));
    s.write(msg(4, "tools/call", { name: "hello" }));
    expect(await s.next()).toMatchObject({ id: 4 });
    s.child.stdin.end();
    expect(await s.next()).toMatchObject({ id: 2 });
    expect(await s.next()).toMatchObject({ id: 3 });
    expect(await s.exited).toBe(0);
    expect(s.stderr()).toBe("");
  });

  it("disconnects a client that leaves more than max_buffered_bytes of output unread, told on stderr, and exits 0", async () => {
    const s = start({ max_buffered_bytes: 100_000 });
    s.write(initialize(1, SERVING));
    await s.next();
    // The client stops reading; the server's output (2 MB of log messages) is more than the pipe and the bound hold.
    s.child.stdout.pause();
    s.write(msg(2, "tools/call", { name: "flood", arguments: { count: 2000, size: 1000 } }));
    expect(await s.exited).toBe(0);
    expect(s.stderr()).toBe("mcp stdio transport: disconnected: the peer left more than 100000 bytes of output unread (max_buffered_bytes)\n");
  });

  it("at the end of input reads the last line without a newline, answers what finishes within the grace period, cancels the rest, exits 0", async () => {
    const s = start({ end_grace: 1.0 });
    s.write(initialize(1, SERVING));
    await s.next();
    s.write(msg(2, "tools/call", { name: "slow", arguments: { seconds: 0.3 } }));
    s.write(msg(3, "tools/call", { name: "slow", arguments: { seconds: 30 } }));
    s.writeRaw(JSON.stringify(msg(4, "tools/call", { name: "hello" })));
    s.child.stdin.end();
    const started = Date.now();
    expect(await s.next()).toMatchObject({ id: 4, result: text("hello") });
    expect(await s.next()).toMatchObject({ id: 2, result: text("slow") });
    expect(await s.exited).toBe(0);
    // Request 3 was cancelled at the end of the grace period, long before its 30 s.
    expect(Date.now() - started).toBeLessThan(15000);
    expect(s.waiting).toEqual([]);
  });
});
