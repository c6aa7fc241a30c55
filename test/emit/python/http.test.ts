// The Python streamable HTTP transport (runtimes/python/src/mcp_codegen_runtime/http.py, an ASGI app) serving the generated
// Python router under uvicorn in a child process (http_server.py), driven with fetch on loopback: sessions
// and their limits, the POST checks, Host/Origin, the 2026-07-28 headers, SSE (progress, a server request,
// the GET stream, subscriptions/listen), batches per version and cancellation on disconnect. A handful of
// requests are compared, status, headers and body, with the TypeScript transport serving the same handlers.
import { type ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServerRouter, eras } from "../../../generated/router.js";
import { type HttpServer, serveHttp } from "../../../generated/runtime/transport-http.js";
import { readLock } from "../../../generator/source/lock.js";
import { lockFile } from "../../support.js";
import { schemaDefinesBatches } from "../../scenarios/facts.js";
import { pythonBin, pythonJson, pythonTestDir, pythonTree, run, servingLegacy } from "./support.js";

const labels = Object.keys((await readLock(lockFile)).versions).sort();
const eraOf = eras as Record<string, "legacy" | "modern">;
const legacyLabels = labels.filter((l) => eraOf[l] === "legacy");
/** The legacy version the HTTP tests drive (tools/call with text content, sampling, progress, cancellation). */
const LEGACY = await servingLegacy(labels);
/** The legacy versions whose schema defines batches (read from the schema file), and those whose does not. */
const batching = legacyLabels.filter((l) => schemaDefinesBatches(l));
const unbatched = legacyLabels.filter((l) => !schemaDefinesBatches(l));
const MODERN = labels.find((l) => eraOf[l] === "modern")!;

interface PythonServer {
  url: string;
  port: number;
  child: ChildProcess;
  /** Send a stdin command; resolves with the JSON line it prints. */
  command(line: string): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

/** http_server.py with `options` (serve_http's), listening on 127.0.0.1 at a free port. */
function startPython(options: Record<string, unknown> = {}): Promise<PythonServer> {
  const child = spawn(pythonBin(), [path.join(pythonTestDir, "http_server.py"), JSON.stringify(options)], {
    stdio: ["pipe", "pipe", "inherit"],
    env: { ...process.env, PYTHONPATH: pythonTree, PYTHONDONTWRITEBYTECODE: "1", PYTHONUTF8: "1" },
  });
  const waiting: ((line: Record<string, unknown>) => void)[] = [];
  let buffer = "";
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`http_server.py exited (${code}) before listening`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      let end: number;
      while ((end = buffer.indexOf("\n")) >= 0) {
        const line = JSON.parse(buffer.slice(0, end)) as Record<string, unknown>;
        buffer = buffer.slice(end + 1);
        if (typeof line.port === "number") {
          child.removeAllListeners("exit");
          const port = line.port;
          resolve({
            url: `http://127.0.0.1:${port}/mcp`,
            port,
            child,
            command: (text) =>
              new Promise((done) => {
                waiting.push(done);
                child.stdin!.write(`${text}\n`);
              }),
            stop: () =>
              new Promise<void>((done) => {
                if (child.exitCode !== null) return done();
                child.once("exit", () => done());
                process.kill(child.pid!, "SIGTERM");
              }),
          });
        } else waiting.shift()?.(line);
      }
    });
  });
}

const LIMIT = 1024;
const IDLE_MS = 2000;
const BUFFERED = 256 * 1024;
let py: PythonServer;
let capped: PythonServer;
let ts: HttpServer;

/** The TypeScript transport and router serving what http_server.py serves (the tools compared: echo, progress, announce and relay). */
function tsRouter() {
  const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });
  const call = async ({ name, arguments: args }: { name: string; arguments?: Record<string, unknown> }, context: { _meta?: Record<string, unknown>; notify(method: string, params: Record<string, unknown>): Promise<void> }) => {
    if (name === "announce") {
      await router.publish("notifications/tools/list_changed");
      return text("announced");
    }
    if (name === "relay") {
      // Sent from a later turn of the event loop, as http_server.py's worker task does.
      await new Promise<void>((done) => setImmediate(() => void context.notify("notifications/message", { level: "info", data: "relayed" }).then(done)));
      return text("relayed");
    }
    if (name !== "progress") return text(JSON.stringify(args ?? {}));
    for (const progress of [1, 2, 3]) await context.notify("notifications/progress", { progressToken: context._meta!.progressToken, progress, total: 3 });
    return text("done");
  };
  const capabilities = { tools: { listChanged: true }, logging: {} };
  const versions: Record<string, unknown> = {};
  for (const label of labels) {
    versions[label] =
      eraOf[label] === "legacy"
        ? { capabilities, handlers: { ping: () => ({}), "tools/list": () => ({ tools: [] }), "tools/call": call } }
        : { capabilities, handlers: { "tools/list": () => ({ tools: [], ttlMs: 0, cacheScope: "public" }), "tools/call": call } };
  }
  const router = createServerRouter({ serverInfo: { name: "http-test", version: "1.0.0" }, versions: versions as never });
  return router;
}

beforeAll(async () => {
  [py, capped] = await Promise.all([
    startPython({ max_body_bytes: LIMIT, max_buffered_bytes: BUFFERED, session_idle_ms: IDLE_MS, parameter_headers: { echo: { region: "Region", count: "Count" } } }),
    startPython({ max_sessions: 2, max_sessions_per_principal: 1, max_requests_in_flight: 2, principal_header: "x-principal" }),
  ]);
  ts = await serveHttp(tsRouter(), { maxBodyBytes: LIMIT, onError: () => undefined });
}, 30_000);
afterAll(async () => {
  await Promise.all([py?.stop(), capped?.stop(), ts?.close()]);
});

const jsonHeaders = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const post = (url: string, body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal) =>
  fetch(url, { method: "POST", headers: { ...jsonHeaders, ...headers }, body: typeof body === "string" ? body : JSON.stringify(body), signal });
const initialize = (id: number | string = 0, protocolVersion = LEGACY) => ({ jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "0" } } });
const meta = (extra: Record<string, unknown> = {}) => ({ "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}, ...extra });
const modernCall = (id: number, name: string, args: Record<string, unknown>, extraMeta: Record<string, unknown> = {}) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args, _meta: meta(extraMeta) } });
const modernHeaders = (method: string, name?: string) => ({ "mcp-protocol-version": MODERN, "mcp-method": method, ...(name === undefined ? {} : { "mcp-name": name }) });

/** A new legacy session at `version`: the headers its requests carry. */
async function openSession(url: string, version = LEGACY, extra: Record<string, string> = {}): Promise<Record<string, string>> {
  const init = await post(url, initialize(0, version), extra);
  expect(init.status).toBe(200);
  await init.text();
  const headers = { ...extra, "mcp-session-id": init.headers.get("mcp-session-id")!, "mcp-protocol-version": version };
  expect((await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers)).status).toBe(202);
  return headers;
}

/** The JSON-RPC messages of a response: its JSON body, or its SSE stream's events. */
async function messages(response: Response): Promise<Record<string, unknown>[]> {
  const text = await response.text();
  if (response.headers.get("content-type") === "application/json") return [JSON.parse(text) as Record<string, unknown>].flat();
  return text.split("\n").filter((l) => l.startsWith("data:")).map((l) => JSON.parse(l.slice(5)) as Record<string, unknown>);
}

/** Read SSE events of an open stream until `done` says so; the events read. */
async function readUntil(response: Response, done: (events: Record<string, unknown>[]) => boolean): Promise<Record<string, unknown>[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const events: Record<string, unknown>[] = [];
  let buffer = "";
  while (!done(events)) {
    const { value, done: ended } = await reader.read();
    if (ended) break;
    buffer += decoder.decode(value, { stream: true });
    const parts = buffer.split("\n\n");
    buffer = parts.pop()!;
    for (const part of parts) for (const l of part.split("\n")) if (l.startsWith("data:")) events.push(JSON.parse(l.slice(5)) as Record<string, unknown>);
  }
  void reader.cancel().catch(() => undefined);
  return events;
}

/** One raw request with its own Host header (fetch sets its own): the status and body. */
function rawPost(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", headers: { ...jsonHeaders, ...headers } }, (res) => {
      let text = "";
      res.on("data", (c: Buffer) => (text += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const stats = async (server: PythonServer) =>
  (await server.command("stats")) as { started: number; finished: number; cancelled: number; flood_cancelled: number; sessions: number; errors: string[] };
const overflows = (errors: string[]) => errors.filter((e) => e === `disconnected a client that left more than ${BUFFERED} bytes unread (maxBufferedBytes)`);

/** A raw HTTP request on its own socket that never reads what comes back (a paused consumer). */
function pausedRequest(port: number, method: string, headers: Record<string, string>, body = ""): net.Socket {
  const socket = net.connect(port, "127.0.0.1");
  const lines = [`${method} /mcp HTTP/1.1`, `host: 127.0.0.1:${port}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), `content-length: ${Buffer.byteLength(body)}`, "", body];
  socket.write(lines.join("\r\n"));
  socket.pause();
  socket.on("error", () => undefined);
  return socket;
}

/** A GET stream whose client stops reading once the response head came: the server has it open by then. */
async function pausedStream(port: number, headers: Record<string, string>): Promise<net.Socket> {
  const socket = net.connect(port, "127.0.0.1");
  socket.on("error", () => undefined);
  const head = new Promise<void>((resolve) => socket.once("data", () => (socket.pause(), resolve())));
  socket.write([`GET /mcp HTTP/1.1`, `host: 127.0.0.1:${port}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), "", ""].join("\r\n"));
  await head;
  return socket;
}

describe("a legacy session", () => {
  it("starts with initialize (Mcp-Session-Id), serves a call, is 404 once deleted, and an unknown one is 404", async () => {
    const init = await post(py.url, initialize());
    expect(init.status).toBe(200);
    const session = init.headers.get("mcp-session-id")!;
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    expect(await messages(init)).toMatchObject([{ jsonrpc: "2.0", id: 0, result: { protocolVersion: LEGACY, serverInfo: { name: "http-test", version: "1.0.0" } } }]);
    const headers = { "mcp-session-id": session, "mcp-protocol-version": LEGACY };
    const initialized = await post(py.url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers);
    expect(initialized.status).toBe(202);
    expect(await initialized.text()).toBe("");
    const call = await post(py.url, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { n: 1, s: "é" } } }, headers);
    expect(call.status).toBe(200);
    expect(call.headers.get("content-type")).toBe("application/json");
    expect(await call.text()).toBe('{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\\"n\\":1,\\"s\\":\\"é\\"}"}]}}');

    const unknown = await post(py.url, { jsonrpc: "2.0", id: 2, method: "ping" }, { ...headers, "mcp-session-id": "no-such-session" });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32001, message: "Session not found" } });

    const deleted = await fetch(py.url, { method: "DELETE", headers });
    expect(deleted.status).toBe(200);
    const after = await post(py.url, { jsonrpc: "2.0", id: 3, method: "ping" }, headers);
    expect(after.status).toBe(404);
  });

  it("refuses an MCP-Protocol-Version header naming a version the router does not serve with 400 and -32600", async () => {
    const headers = await openSession(py.url);
    const response = await post(py.url, { jsonrpc: "2.0", id: 1, method: "ping" }, { ...headers, "mcp-protocol-version": "1999-01-01" });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32600, message: `Bad Request: unsupported MCP-Protocol-Version 1999-01-01 (served: ${legacyLabels.join(", ")})` } });
    expect(await messages(await post(py.url, { jsonrpc: "2.0", id: 2, method: "ping" }, headers))).toEqual([{ jsonrpc: "2.0", id: 2, result: {} }]);
  });

  it("at max_sessions evicts the least recently used idle session, and refuses with 503 and Retry-After when none is idle", async () => {
    const ping = (headers: Record<string, string>, id = 1) => post(capped.url, { jsonrpc: "2.0", id, method: "ping" }, headers).then((r) => r.status);
    const a = await openSession(capped.url, LEGACY, { "x-principal": "p1" });
    const b = await openSession(capped.url, LEGACY, { "x-principal": "p2" });
    expect(await ping(a)).toBe(200); // b is now the least recently used
    const c = await openSession(capped.url, LEGACY, { "x-principal": "p3" });
    expect((await stats(capped)).sessions).toBe(2);
    expect(await ping(b)).toBe(404);
    expect(await ping(a)).toBe(200);
    // A GET stream open on both: neither is idle, no room.
    const gone = new AbortController();
    for (const s of [a, c]) {
      const stream = await fetch(capped.url, { headers: { accept: "text/event-stream", ...s }, signal: gone.signal });
      expect(stream.status).toBe(200);
      expect(stream.headers.get("content-type")).toBe("text/event-stream");
    }
    const refused = await post(capped.url, initialize(9), { "x-principal": "p4" });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(await refused.json()).toEqual({ jsonrpc: "2.0", id: 9, error: { code: -32000, message: "Service Unavailable: 2 sessions are open (maxSessions)" } });
    expect((await stats(capped)).sessions).toBe(2);
    gone.abort();
    for (const s of [a, c]) expect((await fetch(capped.url, { method: "DELETE", headers: s })).status).toBe(200);
    await expect.poll(async () => (await stats(capped)).sessions).toBe(0);
  });

  it("binds a session to its principal: another's id is 404, a principal's new session closes its idle one, and 429 when none is idle", async () => {
    const p5 = { "x-principal": "p5" };
    const d = await openSession(capped.url, LEGACY, p5);
    const e = await openSession(capped.url, LEGACY, p5); // max_sessions_per_principal 1: d closes
    expect((await post(capped.url, { jsonrpc: "2.0", id: 1, method: "ping" }, d)).status).toBe(404);
    expect((await post(capped.url, { jsonrpc: "2.0", id: 2, method: "ping" }, e)).status).toBe(200);
    const stolen = await post(capped.url, { jsonrpc: "2.0", id: 3, method: "ping" }, { ...e, "x-principal": "p6" });
    expect(stolen.status).toBe(404);
    expect(await stolen.json()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32001, message: "Session not found" } });
    // e busy with a call: no session of p5 can close.
    const before = await stats(capped);
    const gone = new AbortController();
    const slow = post(capped.url, { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "slow", arguments: { ms: 600_000 } } }, e, gone.signal);
    await expect.poll(async () => (await stats(capped)).started).toBe(before.started + 1);
    const refused = await post(capped.url, initialize(5), p5);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(await refused.json()).toEqual({ jsonrpc: "2.0", id: 5, error: { code: -32000, message: "Too Many Requests: 1 sessions are open for this principal (maxSessionsPerPrincipal)" } });
    gone.abort();
    await expect(slow).rejects.toThrow();
    expect((await fetch(capped.url, { method: "DELETE", headers: e })).status).toBe(200);
  });

  it("caps the requests in flight on a session (max_requests_in_flight) with 429", async () => {
    const f = await openSession(capped.url, LEGACY, { "x-principal": "p7" });
    const before = await stats(capped);
    const gone = new AbortController();
    const calls = [10, 11].map((id) => post(capped.url, { jsonrpc: "2.0", id, method: "tools/call", params: { name: "slow", arguments: { ms: 600_000 } } }, f, gone.signal).catch(() => "aborted"));
    await expect.poll(async () => (await stats(capped)).started).toBe(before.started + 2);
    const refused = await post(capped.url, { jsonrpc: "2.0", id: 12, method: "ping" }, f);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ jsonrpc: "2.0", id: 12, error: { code: -32000, message: "Too Many Requests: 2 requests are in flight on this session (maxRequestsInFlight)" } });
    gone.abort();
    expect(await Promise.all(calls)).toEqual(["aborted", "aborted"]);
    await expect.poll(async () => (await stats(capped)).cancelled).toBe(before.cancelled + 2);
    expect((await post(capped.url, { jsonrpc: "2.0", id: 13, method: "ping" }, f)).status).toBe(200);
    expect((await fetch(capped.url, { method: "DELETE", headers: f })).status).toBe(200);
  });

  it(`closes a session idle for session_idle_ms (${IDLE_MS} ms)`, async () => {
    const headers = await openSession(py.url);
    expect((await post(py.url, { jsonrpc: "2.0", id: 1, method: "ping" }, headers)).status).toBe(200);
    // Past the idle time and one sweep (every session_idle_ms / 2) later; a request in between would keep it open.
    await new Promise((r) => setTimeout(r, IDLE_MS * 1.5 + 500));
    expect((await post(py.url, { jsonrpc: "2.0", id: 2, method: "ping" }, headers)).status).toBe(404);
  });

  it("streams a call's progress notifications before its result (SSE)", async () => {
    const headers = await openSession(py.url);
    const response = await post(py.url, { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "progress", arguments: {}, _meta: { progressToken: "p" } } }, headers);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(await messages(response)).toEqual([
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p", progress: 1, total: 3 } },
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p", progress: 2, total: 3 } },
      { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p", progress: 3, total: 3 } },
      { jsonrpc: "2.0", id: 4, result: { content: [{ type: "text", text: "done" }] } },
    ]);
  });

  it("carries a server request made during a call (sampling) on the call's stream, and the client's answer posted back to the handler", async () => {
    const headers = await openSession(py.url);
    const response = await post(py.url, { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "sample", arguments: {} } }, headers);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (!text.includes("\n\n")) text += decoder.decode((await reader.read()).value, { stream: true });
    const request = JSON.parse(text.split("\n").find((l) => l.startsWith("data:"))!.slice(5)) as { id: string; method: string };
    expect(request).toMatchObject({ jsonrpc: "2.0", method: "sampling/createMessage", params: { maxTokens: 5 } });
    const answer = { role: "assistant", content: { type: "text", text: "hello" }, model: "m" };
    const posted = await post(py.url, { jsonrpc: "2.0", id: request.id, result: answer }, headers);
    expect(posted.status).toBe(202);
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    const events = text.split("\n").filter((l) => l.startsWith("data:")).map((l) => JSON.parse(l.slice(5)) as Record<string, unknown>);
    expect(events[1]).toEqual({ jsonrpc: "2.0", id: 5, result: { content: [{ type: "text", text: JSON.stringify(answer) }] } });
  });

  it("delivers a publish on the session's GET stream, and a second GET stream is 409", async () => {
    const headers = await openSession(py.url);
    const stream = await fetch(py.url, { headers: { accept: "text/event-stream", ...headers } });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("mcp-session-id")).toBe(headers["mcp-session-id"]);
    const second = await fetch(py.url, { headers: { accept: "text/event-stream", ...headers } });
    expect(second.status).toBe(409);
    expect(await py.command("publish notifications/tools/list_changed")).toEqual({ published: "notifications/tools/list_changed" });
    expect(await readUntil(stream, (e) => e.length > 0)).toEqual([{ jsonrpc: "2.0", method: "notifications/tools/list_changed" }]);
    expect((await fetch(py.url, { method: "DELETE", headers })).status).toBe(200);
  });

  it("cancels the handler's task when the client disconnects mid-request, and the session goes on", async () => {
    const headers = await openSession(py.url);
    const before = await stats(py);
    const gone = new AbortController();
    const slow = post(py.url, { jsonrpc: "2.0", id: 6, method: "tools/call", params: { name: "slow", arguments: { ms: 600_000 } } }, headers, gone.signal);
    await expect.poll(async () => (await stats(py)).started).toBe(before.started + 1);
    gone.abort();
    await expect(slow).rejects.toThrow();
    await expect.poll(async () => (await stats(py)).cancelled).toBe(before.cancelled + 1);
    expect(await messages(await post(py.url, { jsonrpc: "2.0", id: 7, method: "ping" }, headers))).toEqual([{ jsonrpc: "2.0", id: 7, result: {} }]);
  });
});

describe("a legacy session: what the server sends goes where its related request id says (both transports)", () => {
  const servers: [string, () => string][] = [
    ["Python", () => py.url],
    ["TypeScript", () => ts.url],
  ];

  it.each(servers)("%s: a publish from inside a handler goes on the session's GET stream, the call answered as plain JSON", async (_, url) => {
    const headers = await openSession(url());
    const stream = await fetch(url(), { headers: { accept: "text/event-stream", ...headers } });
    expect(stream.status).toBe(200);
    const response = await post(url(), { jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "announce", arguments: {} } }, headers);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await messages(response)).toEqual([{ jsonrpc: "2.0", id: 8, result: { content: [{ type: "text", text: "announced" }] } }]);
    expect(await readUntil(stream, (e) => e.length > 0)).toEqual([{ jsonrpc: "2.0", method: "notifications/tools/list_changed" }]);
    expect((await fetch(url(), { method: "DELETE", headers })).status).toBe(200);
  });

  it.each(servers)("%s: a message sent for a call from outside the call's own task goes on the call's stream", async (_, url) => {
    const headers = await openSession(url());
    const response = await post(url(), { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "relay", arguments: {} } }, headers);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(await messages(response)).toEqual([
      { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "relayed" } },
      { jsonrpc: "2.0", id: 9, result: { content: [{ type: "text", text: "relayed" }] } },
    ]);
    expect((await fetch(url(), { method: "DELETE", headers })).status).toBe(200);
  });
});

describe("backpressure: a consumer that stops reading is disconnected at max_buffered_bytes, others are served", () => {
  it("a 2026-07-28 request's SSE stream: its handler cancelled, on_error told once", async () => {
    const before = await stats(py);
    const socket = pausedRequest(py.port, "POST", { ...jsonHeaders, ...modernHeaders("tools/call", "flood") }, JSON.stringify(modernCall(1, "flood", { count: 4000, bytes: 8192 }, { "io.modelcontextprotocol/logLevel": "debug" })));
    await expect.poll(async () => (await stats(py)).flood_cancelled, { timeout: 20_000 }).toBe(before.flood_cancelled + 1);
    expect(overflows((await stats(py)).errors)).toHaveLength(overflows(before.errors).length + 1);
    const other = await post(py.url, modernCall(2, "echo", { ok: 1 }), modernHeaders("tools/call", "echo"));
    expect(await other.json()).toMatchObject({ id: 2, result: { content: [{ type: "text", text: '{"ok":1}' }] } });
    socket.destroy();
  });

  it("a legacy session's GET stream: the session closes, on_error told once", async () => {
    const before = await stats(py);
    const paused = await openSession(py.url);
    const reading = await openSession(py.url);
    const socket = await pausedStream(py.port, { accept: "text/event-stream", ...paused });
    await py.command("publish notifications/tools/list_changed 20000 1024");
    await expect.poll(async () => overflows((await stats(py)).errors).length, { timeout: 20_000 }).toBe(overflows(before.errors).length + 1);
    expect((await post(py.url, { jsonrpc: "2.0", id: 1, method: "ping" }, paused)).status).toBe(404);
    expect(await messages(await post(py.url, { jsonrpc: "2.0", id: 2, method: "ping" }, reading))).toEqual([{ jsonrpc: "2.0", id: 2, result: {} }]);
    socket.destroy();
  });
});

describe("a session closed while a request of it is open", () => {
  it("cancels the request's handler and answers the POST 404, as for an unknown session", async () => {
    const headers = await openSession(py.url);
    const before = await stats(py);
    const slow = post(py.url, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow", arguments: { ms: 600_000 } } }, headers);
    await expect.poll(async () => (await stats(py)).started).toBe(before.started + 1);
    expect((await fetch(py.url, { method: "DELETE", headers })).status).toBe(200);
    const answer = await slow;
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32001, message: "Session not found" } });
    await expect.poll(async () => (await stats(py)).cancelled).toBe(before.cancelled + 1);
  });

  it("ends a request's open SSE stream and the session's GET stream", async () => {
    const headers = await openSession(py.url);
    const stream = await fetch(py.url, { headers: { accept: "text/event-stream", ...headers } });
    const sample = await post(py.url, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "sample", arguments: {} } }, headers);
    expect(sample.headers.get("content-type")).toBe("text/event-stream");
    const reading = sample.text();
    expect((await fetch(py.url, { method: "DELETE", headers })).status).toBe(200);
    const events = (await reading).split("\n").filter((l) => l.startsWith("data:")).map((l) => JSON.parse(l.slice(5)) as Record<string, unknown>);
    expect(events).toMatchObject([{ method: "sampling/createMessage" }]);
    expect(await stream.text()).toBe("");
  });
});

describe("batches, per negotiated version", () => {
  it.each(batching.slice(-1))("are answered on a stream in a session at %s, whose schema defines them", async (label) => {
    const headers = await openSession(py.url, label);
    const response = await post(py.url, [{ jsonrpc: "2.0", id: 1, method: "ping" }, { jsonrpc: "2.0", method: "notifications/x" }, { jsonrpc: "2.0", id: "s", method: "ping" }], headers);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const answers = await messages(response);
    expect(answers.sort((x, y) => String(x.id).localeCompare(String(y.id)))).toEqual([
      { jsonrpc: "2.0", id: 1, result: {} },
      { jsonrpc: "2.0", id: "s", result: {} },
    ]);
    const notifications = await post(py.url, [{ jsonrpc: "2.0", method: "notifications/x" }], headers);
    expect(notifications.status).toBe(202);
  });

  it.each(unbatched.slice(-1))("are refused with 400 and -32600 in a session at %s, whose schema defines none", async (label) => {
    const headers = await openSession(py.url, label);
    const response = await post(py.url, [{ jsonrpc: "2.0", id: 1, method: "ping" }], headers);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: `Invalid Request: JSON-RPC batches are not supported in protocol version ${label}` } });
  });

  it("are refused with 400 and -32600 without a session", async () => {
    const outside = await post(py.url, [modernCall(1, "echo", {})], modernHeaders("tools/call", "echo"));
    expect(outside.status).toBe(400);
    expect(await outside.json()).toMatchObject({ id: null, error: { code: -32600 } });
  });
});

describe("every POST", () => {
  it("over max_body_bytes is refused with 413 (counted in bytes) and Connection: close", async () => {
    const fits = JSON.stringify({ jsonrpc: "2.0", method: "notifications/x", params: { pad: "" } });
    const pad = "é".repeat(Math.ceil((LIMIT - fits.length) / 2) + 1);
    const response = await post(py.url, { jsonrpc: "2.0", method: "notifications/x", params: { pad } });
    expect(response.status).toBe(413);
    expect(response.headers.get("connection")).toBe("close");
    expect(await response.json()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: `Payload Too Large: the body exceeds ${LIMIT} bytes` } });
  });

  it("without Content-Type application/json is 415, with a Content-Encoding 415 naming identity, without Accept of both types 406", async () => {
    const body = { jsonrpc: "2.0", id: 1, method: "ping" };
    expect((await post(py.url, body, { "content-type": "text/plain" })).status).toBe(415);
    const coded = await post(py.url, body, { "content-encoding": "gzip" });
    expect(coded.status).toBe(415);
    expect(coded.headers.get("accept-encoding")).toBe("identity");
    for (const accept of ["application/json", "text/event-stream"]) {
      const response = await post(py.url, body, { accept });
      expect(response.status).toBe(406);
      expect(await response.json()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Not Acceptable: Accept must list application/json and text/event-stream" } });
    }
    expect((await post(py.url, body, { "content-type": "application/json; charset=utf-8", accept: "application/json;q=1, text/event-stream" })).status).not.toBe(406);
  });

  it("that is not JSON is 400 with -32700, an invalid envelope 400 with -32600", async () => {
    const parse = await post(py.url, "{ not json");
    expect(parse.status).toBe(400);
    expect(await parse.json()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
    expect((await post(py.url, "NaN")).status).toBe(400);
    const envelope = await post(py.url, '{"jsonrpc":"2.0","id":{},"method":"ping"}');
    expect(envelope.status).toBe(400);
    expect(await envelope.json()).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it("with a Host or Origin not of the loopback address is 403; localhost with its port is allowed", async () => {
    const body = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
    expect(await rawPost(py.url, { host: "evil.example" }, body)).toEqual({ status: 403, body: '{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Forbidden: Host or Origin not allowed"}}' });
    expect((await rawPost(py.url, { host: `127.0.0.1:${py.port}`, origin: "http://evil.example" }, body)).status).toBe(403);
    expect((await rawPost(py.url, { host: `localhost:${py.port}`, origin: `http://localhost:${py.port}` }, "{")).status).toBe(400);
  });
});

describe("2026-07-28 over HTTP", () => {
  it("answers a call whose Mcp-Method and Mcp-Name (base64, a non-ASCII name) match its body", async () => {
    const name = "café ☃";
    const encoded = `=?base64?${Buffer.from(name, "utf8").toString("base64")}?=`;
    const response = await post(py.url, modernCall(1, name, { ok: true }), modernHeaders("tools/call", encoded));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: '{"ok":true}' }] } });
  });

  it("refuses a wrong Mcp-Method, Mcp-Name (plain, base64 of another name, malformed base64) with 400 and -32020", async () => {
    const cases: [Record<string, string>, string][] = [
      [modernHeaders("tools/list", "echo"), "Header mismatch: Mcp-Method tools/list but the body's method is tools/call"],
      [{ "mcp-protocol-version": MODERN }, "Header mismatch: Mcp-Method (missing) but the body's method is tools/call"],
      [modernHeaders("tools/call", "other"), "Header mismatch: Mcp-Name other but the body names echo"],
      [modernHeaders("tools/call"), "Header mismatch: Mcp-Name (missing) but the body names echo"],
      [modernHeaders("tools/call", `=?base64?${Buffer.from("écho").toString("base64")}?=`), `Header mismatch: Mcp-Name =?base64?${Buffer.from("écho").toString("base64")}?= but the body names echo`],
      [modernHeaders("tools/call", "=?base64?ZWNobw?=" /* unpadded */), "Header mismatch: Mcp-Name is not valid base64"],
    ];
    for (const [headers, message] of cases) {
      const response = await post(py.url, modernCall(2, "echo", {}), headers);
      expect(response.status, message).toBe(400);
      expect(await response.json()).toEqual({ jsonrpc: "2.0", id: 2, error: { code: -32020, message } });
    }
  });

  it("checks each argument a tool's parameter_headers name against its Mcp-Param-* header (plain or base64)", async () => {
    const call = (args: Record<string, unknown>, headers: Record<string, string>) => post(py.url, modernCall(8, "echo", args), { ...modernHeaders("tools/call", "echo"), ...headers });
    const ok = await call({ region: "éu", count: 5, other: 1 }, { "mcp-param-region": `=?base64?${Buffer.from("éu").toString("base64")}?=`, "mcp-param-count": "5" });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ id: 8, result: { content: [{ type: "text", text: '{"region":"éu","count":5,"other":1}' }] } });
    const cases: [Record<string, unknown>, Record<string, string>, string][] = [
      [{ region: "eu" }, {}, "Header mismatch: Mcp-Param-Region is missing but arguments.region is given"],
      [{ region: "eu" }, { "mcp-param-region": "us" }, "Header mismatch: Mcp-Param-Region does not match arguments.region"],
      [{ region: "eu" }, { "mcp-param-region": "=?base64?SGVs!!!bG8=?=" }, "Header mismatch: Mcp-Param-Region is not valid base64"],
      [{ count: 5 }, { "mcp-param-count": "6" }, "Header mismatch: Mcp-Param-Count does not match arguments.count"],
    ];
    for (const [args, headers, message] of cases) {
      const response = await call(args, headers);
      expect(response.status, message).toBe(400);
      expect(await response.json()).toEqual({ jsonrpc: "2.0", id: 8, error: { code: -32020, message } });
    }
  });

  it("refuses a missing MCP-Protocol-Version, or one that disagrees with _meta, with 400 and -32020", async () => {
    const missing = await post(py.url, modernCall(3, "echo", {}), { "mcp-method": "tools/call", "mcp-name": "echo" });
    expect(await missing.json()).toEqual({ jsonrpc: "2.0", id: 3, error: { code: -32020, message: "Missing MCP-Protocol-Version header" } });
    const body = { jsonrpc: "2.0", id: 4, method: "tools/list", params: { _meta: { ...meta(), "io.modelcontextprotocol/protocolVersion": "1999-01-01" } } };
    const response = await post(py.url, body, modernHeaders("tools/list"));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ jsonrpc: "2.0", id: 4, error: { code: -32020, message: `Header mismatch: MCP-Protocol-Version ${MODERN} but _meta names 1999-01-01` } });
  });

  it("answers a notification with 202 and no body", async () => {
    const response = await post(py.url, { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, _meta: meta() } }, modernHeaders("notifications/cancelled"));
    expect(response.status).toBe(202);
    expect(await response.text()).toBe("");
  });

  it("streams a call's progress before its result", async () => {
    const response = await post(py.url, modernCall(5, "progress", {}, { progressToken: 7 }), modernHeaders("tools/call", "progress"));
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const events = await messages(response);
    expect(events.map((e) => e.method ?? "result")).toEqual(["notifications/progress", "notifications/progress", "notifications/progress", "result"]);
    expect(events[0]).toEqual({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 7, progress: 1, total: 3 } });
    expect(events[3]).toMatchObject({ id: 5, result: { content: [{ type: "text", text: "done" }] } });
  });

  it("keeps subscriptions/listen open as an SSE stream that carries a publish", async () => {
    const gone = new AbortController();
    const listen = { jsonrpc: "2.0", id: 6, method: "subscriptions/listen", params: { notifications: { toolsListChanged: true }, _meta: meta() } };
    const response = await post(py.url, listen, modernHeaders("subscriptions/listen"), gone.signal);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const reading = readUntil(response, (e) => e.some((m) => m.method === "notifications/tools/list_changed"));
    await expect.poll(async () => {
      await py.command("publish notifications/tools/list_changed");
      return Promise.race([reading.then(() => true), new Promise((r) => setTimeout(() => r(false), 100))]);
    }).toBe(true);
    expect((await reading).find((m) => m.method === "notifications/tools/list_changed")).toMatchObject({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    gone.abort();
  });

  it("cancels the handler's task when the client disconnects mid-request", async () => {
    const before = await stats(py);
    const gone = new AbortController();
    const pending = post(py.url, modernCall(7, "slow", { ms: 600_000 }), modernHeaders("tools/call", "slow"), gone.signal);
    await expect.poll(async () => (await stats(py)).started).toBe(before.started + 1);
    gone.abort();
    await expect(pending).rejects.toThrow();
    await expect.poll(async () => (await stats(py)).cancelled).toBe(before.cancelled + 1);
  });
});

/** Send each body as one POST, in one write, on one kept-alive socket with Nagle off, the next once the answer's
 * last chunk came (each answer checked); each answer's time (ms, for a reader: no test asserts a time). */
async function keptAlive(port: number, headers: Record<string, string>, bodies: string[]): Promise<number[]> {
  const socket = net.connect({ port, host: "127.0.0.1", noDelay: true });
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  let buffered = Buffer.alloc(0);
  let wake = () => undefined as void;
  socket.on("data", (chunk: Buffer) => ((buffered = Buffer.concat([buffered, chunk])), wake()));
  const times: number[] = [];
  try {
    for (const body of bodies) {
      const head = [`POST /mcp HTTP/1.1`, `host: 127.0.0.1:${port}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), `content-length: ${Buffer.byteLength(body)}`, "", ""].join("\r\n");
      const start = process.hrtime.bigint();
      socket.write(head + body);
      // The answer is whole at the last chunk of its chunked body (a JSON text holds no raw CR LF).
      let last: number;
      while ((last = buffered.indexOf("\r\n0\r\n\r\n")) < 0) await new Promise<void>((resolve) => (wake = resolve));
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
      const split = buffered.indexOf("\r\n\r\n");
      expect(buffered.subarray(0, split).toString()).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*^transfer-encoding: chunked$/im);
      const chunks: Buffer[] = [];
      for (let at = split + 4; at < last + 2; ) {
        const line = buffered.indexOf("\r\n", at);
        const size = parseInt(buffered.subarray(at, line).toString(), 16);
        chunks.push(buffered.subarray(line + 2, line + 2 + size));
        at = line + 2 + size + 2;
      }
      expect(JSON.parse(Buffer.concat(chunks).toString())).toMatchObject({ id: (JSON.parse(body) as { id: number }).id, result: { content: [{ type: "text" }] } });
      buffered = buffered.subarray(last + 7);
    }
  } finally {
    socket.destroy();
  }
  return times;
}

describe("a kept-alive connection", () => {
  // A response's second write made with Nagle's algorithm on waits for the client's delayed ACK (at least 40 ms on
  // Linux) on every request after the first few; serve_http makes one write per answer, with Nagle off. Both are
  // asserted by what the server does (its sends, its socket option), not by timing: speed is the bench's.
  it("answers request after request on one kept-alive socket, each answer whole in its chunked body", async () => {
    const bodies = Array.from({ length: 15 }, (_, i) => JSON.stringify(modernCall(100 + i, "echo", { text: String(i) })));
    expect(await keptAlive(py.port, { ...jsonHeaders, ...modernHeaders("tools/call", "echo") }, bodies)).toHaveLength(15);
  });

  it("sends each JSON answer in one send, not uvicorn's head, body and last chunk apart, with Nagle's algorithm off (http_writes.py counts the server's sends)", () => {
    expect(pythonJson("http_writes.py", { label: LEGACY })).toEqual({ initialize: 1, initialized: 1, ping: 1, "unknown session": 1, "nagle off": true });
  });
});

describe("the same answers as the TypeScript transport", () => {
  /** Status, the headers both transports set (not Date, keep-alive, the session id's value) and body. */
  async function answer(url: string, init: RequestInit): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    const response = await fetch(url, init);
    const headers: Record<string, string> = {};
    for (const [k, v] of response.headers) if (!["date", "keep-alive", "connection", "transfer-encoding"].includes(k) || v === "close") headers[k] = k === "mcp-session-id" ? "(a session id)" : v;
    return { status: response.status, headers, body: await response.text() };
  }
  const requests: [string, (url: string) => RequestInit | Promise<RequestInit>][] = [
    ["not JSON", () => ({ method: "POST", headers: jsonHeaders, body: "{ not json" })],
    ["too large", () => ({ method: "POST", headers: jsonHeaders, body: JSON.stringify({ jsonrpc: "2.0", method: "x", params: { pad: "x".repeat(LIMIT) } }) })],
    ["text/plain", () => ({ method: "POST", headers: { ...jsonHeaders, "content-type": "text/plain" }, body: "{}" })],
    ["gzip", () => ({ method: "POST", headers: { ...jsonHeaders, "content-encoding": "gzip" }, body: "{}" })],
    ["Accept: application/json", () => ({ method: "POST", headers: { ...jsonHeaders, accept: "application/json" }, body: "{}" })],
    ["a GET without a session", () => ({ method: "GET" })],
    ["an unknown session", () => ({ method: "POST", headers: { ...jsonHeaders, "mcp-session-id": "nope" }, body: "{}" })],
    ["a batch without a session", () => ({ method: "POST", headers: jsonHeaders, body: '[{"jsonrpc":"2.0","id":1,"method":"ping"}]' })],
    ["an oversized header", () => ({ method: "POST", headers: { ...jsonHeaders, "x-pad": "p".repeat(20_000) }, body: "{}" })],
    ["initialize", () => ({ method: "POST", headers: jsonHeaders, body: JSON.stringify(initialize(1)) })],
    ["a modern call", () => ({ method: "POST", headers: { ...jsonHeaders, ...modernHeaders("tools/call", "echo") }, body: JSON.stringify(modernCall(1, "echo", { a: [1, "☃"] })) })],
    ["a wrong Mcp-Name", () => ({ method: "POST", headers: { ...jsonHeaders, ...modernHeaders("tools/call", "=?base64?w6k=?=") }, body: JSON.stringify(modernCall(1, "echo", {})) })],
    ["a modern notification", () => ({ method: "POST", headers: { ...jsonHeaders, ...modernHeaders("notifications/cancelled") }, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, _meta: meta() } }) })],
    ["a modern call streaming its progress", () => ({ method: "POST", headers: { ...jsonHeaders, ...modernHeaders("tools/call", "progress") }, body: JSON.stringify(modernCall(3, "progress", {}, { progressToken: "t" })) })],
    ["a legacy call streaming its progress", async (url) => ({ method: "POST", headers: { ...jsonHeaders, ...(await openSession(url)) }, body: JSON.stringify({ jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "progress", arguments: {}, _meta: { progressToken: 1 } } }) })],
    ...batching.slice(-1).flatMap((label): [string, (url: string) => Promise<RequestInit>][] => [
      [`a batch at ${label}`, async (url) => ({ method: "POST", headers: { ...jsonHeaders, ...(await openSession(url, label)) }, body: '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","id":"s","method":"tools/list"}]' })],
      [`ids beyond 2^53 and written 1.0, in a batch at ${label}`, async (url) => ({ method: "POST", headers: { ...jsonHeaders, ...(await openSession(url, label)) }, body: '[{"jsonrpc":"2.0","id":12345678901234567891,"method":"ping"},{"jsonrpc":"2.0","id":1.0,"method":"ping"}]' })],
    ]),
    ...unbatched.slice(-1).map((label): [string, (url: string) => Promise<RequestInit>] => [`a batch at ${label}`, async (url) => ({ method: "POST", headers: { ...jsonHeaders, ...(await openSession(url, label)) }, body: '[{"jsonrpc":"2.0","id":1,"method":"ping"}]' })]),
    ["an id beyond 2^53 in a modern call", () => ({ method: "POST", headers: { ...jsonHeaders, ...modernHeaders("tools/call", "echo") }, body: `{"jsonrpc":"2.0","id":-98765432109876543210,"method":"tools/call","params":${JSON.stringify(modernCall(0, "echo", { n: 1.5e300 }).params)}}` })],
    ["a session's GET without Accept text/event-stream", async (url) => ({ method: "GET", headers: { ...(await openSession(url)), accept: "application/json" } })],
    ["a session's PUT", async (url) => ({ method: "PUT", headers: { ...jsonHeaders, ...(await openSession(url)) }, body: "{}" })],
    ["a session's POST naming an unserved MCP-Protocol-Version", async (url) => ({ method: "POST", headers: { ...jsonHeaders, ...(await openSession(url)), "mcp-protocol-version": "1999-01-01" }, body: '{"jsonrpc":"2.0","id":5,"method":"ping"}' })],
    ["an unknown modern method", () => ({ method: "POST", headers: { ...jsonHeaders, ...modernHeaders("no/such") }, body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "no/such", params: { _meta: meta() } }) })],
  ];
  it.each(requests)("for %s", async (_name, make) => {
    const [fromTs, fromPy] = [await answer(ts.url, await make(ts.url)), await answer(py.url, await make(py.url))];
    expect(fromPy).toEqual(fromTs);
  });

  it("for a path other than the endpoint, and a session's DELETE", async () => {
    const other = (url: string) => answer(url.replace("/mcp", "/other"), { method: "POST", headers: jsonHeaders, body: "{}" });
    expect(await other(py.url)).toEqual(await other(ts.url));
    const deleted = async (url: string) => answer(url, { method: "DELETE", headers: await openSession(url) });
    expect(await deleted(py.url)).toEqual(await deleted(ts.url));
  });
});

it("serve_http without uvicorn installed raises a RuntimeError saying how to install it", () => {
  const script = [
    "import asyncio, sys",
    "sys.modules['uvicorn'] = None  # an import of it fails as when it is not installed",
    "from mcp_codegen.http import serve_http",
    "try:",
    "    asyncio.run(serve_http(None))  # type: ignore[arg-type]",
    "except RuntimeError as error:",
    "    print(error)",
  ].join("\n");
  const r = run("python", ["-c", script]);
  expect(r.stderr).toBe("");
  expect(r.stdout).toBe("serve_http runs the ASGI app under uvicorn, which is not installed: pip install uvicorn (or serve create_asgi_app(router) with any ASGI server)\n");
});

it("is a plain ASGI 3 app: called directly (http_asgi.py, no server) it opens a session, answers in it, after lifespan shutdown answers 503, and checks Host/Origin as allowed_hosts/allowed_origins say", () => {
  const out = pythonJson<Record<string, unknown>[]>("http_asgi.py", { label: LEGACY });
  const json = { "content-type": "application/json" };
  expect(out).toEqual([
    { status: 200, headers: { ...json, "mcp-session-id": expect.stringMatching(/^[0-9a-f-]{36}$/) }, body: `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"${LEGACY}","capabilities":{},"serverInfo":{"name":"asgi","version":"1.0.0"}}}` },
    { status: 200, headers: json, body: '{"jsonrpc":"2.0","id":1,"result":{}}' },
    { sessions: 1 },
    { events: ["lifespan.startup.complete", "lifespan.shutdown.complete"] },
    { sessions: 0 },
    { status: 503, headers: json, body: '{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Service Unavailable: the server is closing"}}' },
    {
      // Host/Origin (the app listening on 127.0.0.1:8000): 400 is past the check (the body is not JSON), 403 refused by it.
      hosts: {
        "default, localhost with its port": 400,
        "default, [::1] with its port": 400,
        "default, another port": 403,
        "default, no Host": 403,
        "default, another Origin": 403,
        "any host, any Host": 400,
        "any host, an Origin of that Host": 400,
        "any host, another Origin": 403,
        "listed host": 400,
        "listed host, the loopback Host": 403,
        "listed host, another Origin": 403,
        "listed origin": 400,
        "listed origin, the loopback Origin": 403,
        "any origin": 400,
      },
    },
  ]);
});
