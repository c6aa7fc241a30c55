// The transports under what an operator meets (issue 20): many sessions, clients that stop reading,
// legacy requests the SDK's transport answered wrongly, edge inputs, createHttpHandler mounted on the
// user's own server, stdio at end of input. Each case failed on the transports before that issue.
import http from "node:http";
import net from "node:net";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { createServerRouter, eras } from "../../generated/router.js";
import { createHttpHandler, DEFAULT_MAX_SESSIONS, type HttpServer, serveHttp, SESSION_RETRY_AFTER_SECONDS } from "../../generated/runtime/transport-http.js";
import { serveStdio } from "../../generated/runtime/transport-stdio.js";
import { MODERN } from "./support.js";

const LEGACY = "2025-11-25";
const meta = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/logLevel": "debug" };
const counters = { floodAborted: 0 };

/** A notification of `bytes` bytes of data, `count` times, until the request's signal aborts. */
async function flood(count: number, bytes: number, context: { signal: AbortSignal; notify(method: string, params: Record<string, unknown>): Promise<void> }) {
  const data = "x".repeat(bytes);
  for (let i = 0; i < count; i++) {
    if (context.signal.aborted) {
      counters.floodAborted++;
      break;
    }
    await context.notify("notifications/message", { level: "info", data });
  }
  return { content: [{ type: "text" as const, text: "flooded" }] };
}

/** The pair of versions of docs/typescript.md's router.ts, with list_changed declared, `flood`, `echo`, and `slow` tools. */
function makeRouter() {
  const call = async ({ name, arguments: args }: { name: string; arguments?: Record<string, unknown> }, context: Parameters<typeof flood>[2]) => {
    if (name === "flood") return flood(Number(args?.count), Number(args?.bytes), context);
    if (name === "slow") {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Number(args?.ms));
        context.signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
      });
      return { content: [{ type: "text" as const, text: context.signal.aborted ? "aborted" : "slept" }] };
    }
    return { content: [{ type: "text" as const, text: JSON.stringify(args ?? {}) }] };
  };
  return createServerRouter({
    serverInfo: { name: "hardening", version: "1.0.0" },
    versions: {
      [LEGACY]: { capabilities: { tools: { listChanged: true }, logging: {} }, handlers: { ping: () => ({}), "tools/list": () => ({ tools: [] }), "tools/call": call } },
      [MODERN]: { capabilities: { tools: { listChanged: true }, logging: {} }, handlers: { "tools/list": () => ({ tools: [], ttlMs: 0, cacheScope: "public" }), "tools/call": call as never } },
    },
  });
}

let cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function serve(options: Parameters<typeof serveHttp>[1] = {}) {
  const router = makeRouter();
  const errors: unknown[] = [];
  const server = await serveHttp(router, { onError: (e) => errors.push(e), ...options });
  cleanup.push(() => server.close(), () => router.close());
  return { router, server, errors, port: Number(new URL(server.url).port) };
}

const jsonHeaders = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const post = (server: HttpServer, body: unknown, headers: Record<string, string> = {}) =>
  fetch(server.url, { method: "POST", headers: { ...jsonHeaders, ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
const initialize = (id: number | string = 0) => ({ jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: "raw", version: "0" } } });
const modernCall = (id: number, name: string, args: Record<string, unknown>) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args, _meta: meta } });
const modernHeaders = (method: string, name?: string) => ({ "mcp-protocol-version": MODERN, "mcp-method": method, ...(name === undefined ? {} : { "mcp-name": name }) });

/** A new legacy session: its id and the headers its requests carry. */
async function openSession(server: HttpServer): Promise<Record<string, string>> {
  const init = await post(server, initialize());
  expect(init.status).toBe(200);
  await init.text();
  const headers = { "mcp-session-id": init.headers.get("mcp-session-id")!, "mcp-protocol-version": LEGACY };
  expect((await post(server, { jsonrpc: "2.0", method: "notifications/initialized" }, headers)).status).toBe(202);
  return headers;
}

/** The JSON-RPC messages of a response: its JSON body, or its SSE events. */
async function messages(response: Response): Promise<Record<string, unknown>[]> {
  const text = await response.text();
  if (response.headers.get("content-type") === "application/json") return [JSON.parse(text) as Record<string, unknown>].flat();
  return text.split("\n").filter((l) => l.startsWith("data:")).map((l) => JSON.parse(l.slice(5)) as Record<string, unknown>);
}

/** A raw HTTP request on its own socket that never reads what comes back (a paused consumer). */
function pausedRequest(port: number, method: string, headers: Record<string, string>, body = ""): net.Socket {
  const socket = net.connect(port, "127.0.0.1");
  const lines = [`${method} /mcp HTTP/1.1`, `host: 127.0.0.1:${port}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), `content-length: ${Buffer.byteLength(body)}`, "", body];
  socket.write(lines.join("\r\n"));
  socket.pause();
  socket.on("error", () => undefined);
  cleanup.push(() => void socket.destroy());
  return socket;
}

/** One raw HTTP exchange: the status line's code, the headers and the body. */
function rawExchange(port: number, text: string): Promise<{ status: number; head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(text));
    let out = "";
    socket.on("data", (c) => {
      out += c.toString();
      const end = out.indexOf("\r\n\r\n");
      if (end < 0) return;
      const length = /content-length: (\d+)/i.exec(out.slice(0, end));
      if (length !== null && out.length - end - 4 < Number(length[1])) return;
      socket.destroy();
      resolve({ status: Number(out.split(" ")[1]), head: out.slice(0, end), body: out.slice(end + 4) });
    });
    socket.on("error", reject);
  });
}

/** A stdio server of a fresh router on in-memory streams, fed `text` then the end of input; what it wrote once closed. */
async function stdioAfterEnd(text: string, options: Parameters<typeof serveStdio>[1] = {}): Promise<{ output: string; router: ReturnType<typeof makeRouter> }> {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = "";
  output.on("data", (c: Buffer) => (written += c.toString()));
  const router = makeRouter();
  cleanup.push(() => router.close());
  const server = serveStdio(router, { input, output, ...options });
  input.end(text);
  await server.closed;
  return { output: written, router };
}

const overflows = (errors: unknown[]) => errors.filter((e) => e instanceof Error && e.message.includes("maxBufferedBytes"));

describe("legacy sessions are capped (maxSessions)", () => {
  it("defaults to docs/typescript.md's 1,000 and exposes the count", async () => {
    const { server } = await serve();
    expect(DEFAULT_MAX_SESSIONS).toBe(1000);
    expect(server.handler.maxSessions).toBe(1000);
  });

  it("evicts the least recently used idle session when full, then refuses with 503 and Retry-After when none is idle", async () => {
    const { server, port } = await serve({ maxSessions: 2 });
    const a = await openSession(server);
    const b = await openSession(server);
    // a is used after b: b is now the least recently used.
    expect((await post(server, { jsonrpc: "2.0", id: 1, method: "ping" }, a)).status).toBe(200);
    const c = await openSession(server);
    expect(server.handler.sessions).toBe(2);
    expect((await post(server, { jsonrpc: "2.0", id: 2, method: "ping" }, b)).status).toBe(404);
    expect((await post(server, { jsonrpc: "2.0", id: 3, method: "ping" }, a)).status).toBe(200);
    // Both remaining sessions busy (a GET stream open on each): no room.
    for (const s of [a, c]) pausedRequest(port, "GET", { accept: "text/event-stream", ...s });
    await expect.poll(() => post(server, { jsonrpc: "2.0", id: 4, method: "ping" }, a).then((r) => r.status)).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    const refused = await post(server, initialize(9));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe(String(SESSION_RETRY_AFTER_SECONDS));
    expect(await refused.json()).toMatchObject({ id: 9, error: { code: -32000 } });
    expect(server.handler.sessions).toBe(2);
  });
});

describe("backpressure: a consumer that stops reading is disconnected at maxBufferedBytes, others are served", () => {
  it("a 2026-07-28 request's SSE stream: the request aborted, onError told once", async () => {
    const { server, errors, port } = await serve({ maxBufferedBytes: 256 * 1024 });
    const before = counters.floodAborted;
    pausedRequest(port, "POST", { ...jsonHeaders, ...modernHeaders("tools/call", "flood") }, JSON.stringify(modernCall(1, "flood", { count: 4000, bytes: 8192 })));
    await expect.poll(() => counters.floodAborted, { timeout: 20_000 }).toBe(before + 1);
    expect(overflows(errors)).toHaveLength(1);
    const other = await post(server, modernCall(2, "echo", { ok: 1 }), modernHeaders("tools/call", "echo"));
    expect(await other.json()).toMatchObject({ id: 2, result: { content: [{ type: "text", text: '{"ok":1}' }] } });
  });

  it("a paused subscriptions/listen stream during many publishes: its subscription ends, a reading listener gets every publish", async () => {
    const { router, server, errors, port } = await serve({ maxBufferedBytes: 256 * 1024 });
    const listen = (id: number) => ({ jsonrpc: "2.0", id, method: "subscriptions/listen", params: { notifications: { toolsListChanged: true }, _meta: meta } });
    pausedRequest(port, "POST", { ...jsonHeaders, ...modernHeaders("subscriptions/listen") }, JSON.stringify(listen(1)));
    let received = 0;
    const reader = http.request(server.url, { method: "POST", headers: { ...jsonHeaders, ...modernHeaders("subscriptions/listen") } }, (res) => {
      let buffer = "";
      res.on("data", (c: Buffer) => {
        buffer += c.toString();
        const parts = buffer.split("\n\n");
        buffer = parts.pop()!;
        received += parts.filter((p) => p.includes("notifications/tools/list_changed")).length;
      });
    });
    reader.on("error", () => undefined);
    reader.end(JSON.stringify(listen(2)));
    cleanup.push(() => void reader.destroy());
    await expect.poll(() => router.inFlight).toBe(2);
    const pad = "p".repeat(1024);
    const total = 20_000;
    for (let i = 0; i < total; i++) {
      await router.publish("notifications/tools/list_changed", { _meta: { "example.com/pad": pad } });
      if (i % 100 === 0) await new Promise(setImmediate); // a publisher that lets I/O run, as a server's would
    }
    await expect.poll(() => router.inFlight, { timeout: 10_000 }).toBe(1);
    expect(overflows(errors)).toHaveLength(1);
    await expect.poll(() => received, { timeout: 20_000 }).toBe(total);
  });

  it("a legacy session's GET stream: the session closes, onError told once", async () => {
    const { router, server, errors, port } = await serve({ maxBufferedBytes: 256 * 1024 });
    const paused = await openSession(server);
    const reading = await openSession(server);
    pausedRequest(port, "GET", { accept: "text/event-stream", ...paused });
    await new Promise((r) => setTimeout(r, 50));
    const pad = "p".repeat(1024);
    for (let i = 0; i < 20_000 && server.handler.sessions === 2; i++) {
      await router.publish("notifications/tools/list_changed", { _meta: { "example.com/pad": pad } });
      if (i % 100 === 0) await new Promise(setImmediate);
    }
    await expect.poll(() => server.handler.sessions, { timeout: 10_000 }).toBe(1);
    expect(overflows(errors)).toHaveLength(1);
    expect((await post(server, { jsonrpc: "2.0", id: 1, method: "ping" }, paused)).status).toBe(404);
    expect(await messages(await post(server, { jsonrpc: "2.0", id: 2, method: "ping" }, reading))).toEqual([{ jsonrpc: "2.0", id: 2, result: {} }]);
  });

  it("a legacy request's stream: its request aborted, the session closed, onError told once", async () => {
    const { server, errors, port } = await serve({ maxBufferedBytes: 256 * 1024 });
    const headers = await openSession(server);
    const before = counters.floodAborted;
    pausedRequest(port, "POST", { ...jsonHeaders, ...headers }, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "flood", arguments: { count: 4000, bytes: 8192 } } }));
    await expect.poll(() => counters.floodAborted, { timeout: 20_000 }).toBe(before + 1);
    expect(overflows(errors)).toHaveLength(1);
    expect(server.handler.sessions).toBe(0);
  });

  it("stdio: a peer that never reads its output is disconnected, its request aborted, onError told once", async () => {
    const input = new PassThrough();
    const output = new PassThrough(); // never read
    const errors: unknown[] = [];
    const router = makeRouter();
    cleanup.push(() => router.close());
    const before = counters.floodAborted;
    const server = serveStdio(router, { input, output, maxBufferedBytes: 64 * 1024, onError: (e) => errors.push(e) });
    input.write(JSON.stringify(modernCall(1, "flood", { count: 4000, bytes: 8192 })) + "\n");
    await server.closed;
    expect(counters.floodAborted).toBe(before + 1);
    expect(overflows(errors)).toHaveLength(1);
  });
});

describe("stdio backpressure on input", () => {
  it("stops reading requests while its answers wait for drain, and answers every one once they are read", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const router = makeRouter();
    cleanup.push(() => router.close());
    const server = serveStdio(router, { input, output });
    const total = 2000;
    for (let i = 0; i < total; i++) input.write(`{"jsonrpc":"2.0","id":${i},"method":"ping"}\n`);
    await expect.poll(() => input.isPaused()).toBe(true);
    let text = "";
    output.on("data", (c: Buffer) => (text += c.toString()));
    await expect.poll(() => text.split("\n").length - 1).toBe(total);
    const ids = text.trim().split("\n").map((l) => (JSON.parse(l) as { id: number }).id);
    expect(new Set(ids).size).toBe(total);
    server.close();
  });
});

describe("legacy sessions answer as the modern path does", () => {
  it("refuses an MCP-Protocol-Version header naming a version the router does not serve with 400", async () => {
    const { router, server } = await serve();
    const unserved = Object.entries(eras).find(([label, era]) => era === "legacy" && !(router.legacyVersions as readonly string[]).includes(label))![0];
    const headers = await openSession(server);
    const response = await post(server, { jsonrpc: "2.0", id: 1, method: "ping" }, { ...headers, "mcp-protocol-version": unserved });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ id: 1, error: { code: -32600 } });
    // The session's own version is served.
    expect(await messages(await post(server, { jsonrpc: "2.0", id: 2, method: "ping" }, headers))).toEqual([{ jsonrpc: "2.0", id: 2, result: {} }]);
  });

  it.each([["[]", []], ["null", null], ['"x"', "x"]])("answers params of %s with -32602 and the request's id", async (_name, params) => {
    const { server } = await serve();
    const headers = await openSession(server);
    const [answer] = await messages(await post(server, { jsonrpc: "2.0", id: 7, method: "tools/list", params }, headers));
    expect(answer).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32602 } });
  });

  it("answers a request with an extra member, or a top-level __proto__ member, as any other", async () => {
    const { server } = await serve();
    const headers = await openSession(server);
    expect(await messages(await post(server, '{"jsonrpc":"2.0","id":8,"method":"ping","extra":1}', headers))).toEqual([{ jsonrpc: "2.0", id: 8, result: {} }]);
    expect(await messages(await post(server, '{"jsonrpc":"2.0","id":9,"method":"ping","__proto__":{"x":1}}', headers))).toEqual([{ jsonrpc: "2.0", id: 9, result: {} }]);
  });
});

describe("edge inputs", () => {
  it("answers a request target that is not a URL with 400, reporting nothing", async () => {
    const { errors, port } = await serve();
    const response = await rawExchange(port, `POST http://[ HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-length: 0\r\n\r\n`);
    expect(response.status).toBe(400);
    expect(errors).toEqual([]);
  });

  it("refuses a Content-Encoding it does not decode with 415 and Accept-Encoding: identity", async () => {
    const { server } = await serve();
    const response = await post(server, { jsonrpc: "2.0", id: 1, method: "ping" }, { "content-encoding": "gzip" });
    expect(response.status).toBe(415);
    expect(response.headers.get("accept-encoding")).toBe("identity");
  });

  const big = ["12345678901234567890", "-98765432109876543210"];
  it.each(big)("answers request id %s exactly, over modern HTTP, a legacy session and stdio", async (id) => {
    const { server } = await serve();
    const modern = await post(server, `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":${JSON.stringify({ name: "echo", arguments: {}, _meta: meta })}}`, modernHeaders("tools/call", "echo"));
    expect(await modern.text()).toContain(`"id":${id},`);
    const headers = await openSession(server);
    const legacy = await post(server, `{"jsonrpc":"2.0","id":${id},"method":"ping"}`, headers);
    expect(await legacy.text()).toBe(`{"jsonrpc":"2.0","id":${id},"result":{}}`);
    expect((await stdioAfterEnd(`{"jsonrpc":"2.0","id":${id},"method":"ping"}\n`)).output).toBe(`{"jsonrpc":"2.0","id":${id},"result":{}}\n`);
  });
});

it("refuses a JSON-RPC batch with -32600 in a session at 2025-11-25 (2025-06-18 removed batching; test/transports/internet.test.ts serves one before)", async () => {
  const { server } = await serve();
  const headers = await openSession(server);
  const response = await post(server, '[{"jsonrpc":"2.0","id":12345678901234567891,"method":"ping"}, {"jsonrpc":"2.0","method":"notifications/x"},{"id":"s","jsonrpc":"2.0","method":"ping"}]', headers);
  expect(response.status).toBe(400);
  expect(await response.json()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: `Invalid Request: JSON-RPC batches are not supported in protocol version ${LEGACY}` } });
});

describe("createHttpHandler mounted on the user's own server", () => {
  async function mount(options: Parameters<typeof createHttpHandler>[1] = {}) {
    const router = makeRouter();
    const handler = createHttpHandler(router, options);
    const server = http.createServer((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as net.AddressInfo).port;
    cleanup.push(
      () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
      () => handler.close(),
      () => router.close(),
    );
    // A body that is not JSON: 400 once past the Host/Origin check, 403 when refused by it.
    const ping = (headers: Record<string, string>) =>
      rawExchange(port, [`POST /mcp HTTP/1.1`, ...Object.entries({ ...jsonHeaders, ...headers }).map(([k, v]) => `${k}: ${v}`), "content-length: 1", "", "{"].join("\r\n")).then((r) => r.status);
    return { port, ping };
  }

  it("by default accepts only the loopback names of its address as Host and Origin", async () => {
    const { port, ping } = await mount();
    expect(await ping({ host: "evil.example" })).toBe(403);
    expect(await ping({ host: `127.0.0.1:${port}`, origin: "http://evil.example" })).toBe(403);
    // Accepted (an invalid body is answered 400, past the Host/Origin check).
    expect(await ping({ host: `localhost:${port}`, origin: `http://localhost:${port}` })).toBe(400);
    expect(await ping({ host: `127.0.0.1:${port}` })).toBe(400);
  });

  it('with allowedHosts "any" (the explicit opt-out) accepts any Host, and an Origin only of that Host', async () => {
    const { ping } = await mount({ allowedHosts: "any" });
    expect(await ping({ host: "api.example.com" })).toBe(400);
    expect(await ping({ host: "api.example.com", origin: "https://api.example.com" })).toBe(400);
    expect(await ping({ host: "api.example.com", origin: "http://evil.example" })).toBe(403);
  });
});

describe("answers written once per event-loop turn", () => {
  it("a response that cannot be written is reported and its connection dropped; the others of the same turn are answered", async () => {
    const router = makeRouter();
    const errors: unknown[] = [];
    const handler = createHttpHandler(router, { onError: (e) => errors.push(e) });
    // This server's writeHead throws for requests marked x-break (as it would for a header value Node refuses).
    const server = http.createServer((req, res) => {
      if (req.headers["x-break"] !== undefined) res.writeHead = () => { throw new Error("writeHead refused"); };
      void handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    cleanup.push(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))), () => handler.close(), () => router.close());
    const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/mcp`;
    const call = (id: number, headers: Record<string, string> = {}) =>
      fetch(url, { method: "POST", headers: { ...jsonHeaders, "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "echo", ...headers }, body: JSON.stringify(modernCall(id, "echo", { n: id })) });
    const [broken, ...fine] = await Promise.allSettled([call(1, { "x-break": "1" }), call(2), call(3)]);
    expect(broken.status).toBe("rejected");
    for (const [i, r] of fine.entries()) {
      expect(r.status).toBe("fulfilled");
      expect(await (r as PromiseFulfilledResult<Response>).value.json()).toMatchObject({ id: i + 2, result: { content: [{ type: "text", text: JSON.stringify({ n: i + 2 }) }] } });
    }
    expect(errors.map((e) => (e as Error).message)).toEqual(["writeHead refused"]);
    // The process and the flush go on: a later request is answered.
    expect(((await (await call(4)).json()) as { id: number }).id).toBe(4);
  });
});

describe("stdio at end of input", () => {
  it("answers a last line that has no final newline", async () => {
    expect((await stdioAfterEnd('{"jsonrpc":"2.0","id":"last","method":"ping"}')).output).toBe('{"jsonrpc":"2.0","id":"last","result":{}}\n');
  });

  it("lets a request running at end of input finish and be answered", async () => {
    const { output } = await stdioAfterEnd(JSON.stringify(modernCall(1, "slow", { ms: 200 })) + "\n");
    expect(JSON.parse(output)).toMatchObject({ id: 1, result: { content: [{ type: "text", text: "slept" }] } });
  });

  it("aborts a request still running endGraceMs after the input ended", async () => {
    const { output, router } = await stdioAfterEnd(JSON.stringify(modernCall(1, "slow", { ms: 600_000 })) + "\n", { endGraceMs: 100 });
    expect(router.inFlight).toBe(0);
    expect(output).toBe(""); // an aborted request is not answered (the dispatcher's cancellation rule)
  });
});
