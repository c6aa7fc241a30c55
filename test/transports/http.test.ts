// The streamable HTTP transport's own rules, on real loopback HTTP with raw requests: what every POST
// must carry, what a body may be, and that a client going away aborts its requests' signal.
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpServer, serveHttp } from "../../generated/runtime/transport-http.js";
import { counters, router } from "./fixtures/server.js";
import { generatedDir } from "../support.js";
import { MODERN } from "./support.js";

const LIMIT = 1024;
let server: HttpServer;
beforeAll(async () => {
  server = await serveHttp(router, { maxBodyBytes: LIMIT });
});
afterAll(async () => {
  await server.close();
});

const jsonHeaders = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const post = (body: string, headers: Record<string, string> = jsonHeaders, signal?: AbortSignal) => fetch(server.url, { method: "POST", headers, body, signal });

/** A 2026-07-28 request with the envelope and headers the transport wants. */
function modernRequest(id: number, method: string, params: Record<string, unknown>, signal?: AbortSignal) {
  const body = { jsonrpc: "2.0", id, method, params: { ...params, _meta: { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} } } };
  const name: Record<string, string> = typeof params.name === "string" ? { "mcp-name": params.name } : {};
  return post(JSON.stringify(body), { ...jsonHeaders, "mcp-protocol-version": MODERN, "mcp-method": method, ...name }, signal);
}

describe("every POST", () => {
  it("that is not JSON is answered 400 with -32700 and id null", async () => {
    const response = await post("{ not json");
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
  });

  it("over maxBodyBytes is refused with 413 (counted in bytes, not characters)", async () => {
    const fits = JSON.stringify({ jsonrpc: "2.0", method: "notifications/x", params: { pad: "" } });
    const pad = "é".repeat(Math.ceil((LIMIT - fits.length) / 2) + 1); // 2 bytes each: over the limit in bytes only
    expect(JSON.stringify({ pad }).length).toBeLessThan(LIMIT);
    const response = await post(JSON.stringify({ jsonrpc: "2.0", method: "notifications/x", params: { pad } }));
    expect(response.status).toBe(413);
    expect(((await response.json()) as { id: unknown }).id).toBeNull();
  });

  it("without Content-Type application/json is refused with 415, and without Accept of both types with 406", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
    expect((await post(body, { ...jsonHeaders, "content-type": "text/plain" })).status).toBe(415);
    expect((await post(body, { "content-type": "application/json; charset=utf-8", accept: "application/json" })).status).toBe(406);
    expect((await post(body, { "content-type": "application/json", accept: "text/event-stream" })).status).toBe(406);
  });

  it.each([["a number", "5"], ["an array", "[]"], ["a batch without a session", '[{"jsonrpc":"2.0","id":1,"method":"ping"}]'], ["jsonrpc 1.0", '{"jsonrpc":"1.0","id":1,"method":"ping"}'], ["no jsonrpc", '{"id":1,"method":"ping"}'], ["an object id", '{"jsonrpc":"2.0","id":{},"method":"ping"}'], ["neither a method nor a result or error", '{"jsonrpc":"2.0","id":1}'], ["a fractional id", '{"jsonrpc":"2.0","id":1.5,"method":"ping"}']])(
    "whose body is %s is answered 400 with -32600 and id null",
    async (_name, body) => {
      const response = await post(body);
      expect(response.status).toBe(400);
      const answer = (await response.json()) as { id: unknown; error: { code: number } };
      expect(answer.id).toBeNull();
      expect(answer.error.code).toBe(-32600);
    },
  );

  it("to another path is 404, a GET without a session 405, a Host not allowed 403", async () => {
    expect((await fetch(server.url.replace("/mcp", "/other"), { method: "POST", headers: jsonHeaders, body: "{}" })).status).toBe(404);
    expect((await fetch(server.url)).status).toBe(405);
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(server.url, { method: "POST", headers: { ...jsonHeaders, host: "evil.example:80" } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on("error", reject);
      req.end('{"jsonrpc":"2.0","id":1,"method":"ping"}');
    });
    expect(status).toBe(403);
  });
});

describe("2026-07-28 over HTTP", () => {
  it("answers a notification with 202 and no body", async () => {
    const response = await post(JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1, _meta: { "io.modelcontextprotocol/protocolVersion": MODERN } } }), {
      ...jsonHeaders,
      "mcp-protocol-version": MODERN,
      "mcp-method": "notifications/cancelled",
    });
    expect(response.status).toBe(202);
    expect(await response.text()).toBe("");
  });

  it("refuses a request whose Mcp-Method header disagrees with its body with 400 and -32020", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list", params: { _meta: { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} } } });
    const response = await post(body, { ...jsonHeaders, "mcp-protocol-version": MODERN, "mcp-method": "tools/call" });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { id: unknown; error: { code: number } })).toMatchObject({ id: 3, error: { code: -32020 } });
  });

  it("refuses each request its version's METHOD_TABLE names by a param (nameParam) when Mcp-Name disagrees with it, with 400 and -32020", async () => {
    const { METHOD_TABLE } = (await import(pathToFileURL(path.join(generatedDir, MODERN, "methods.ts")).href)) as { METHOD_TABLE: Record<string, { kind: string; nameParam: string | null }> };
    const named = Object.entries(METHOD_TABLE).filter(([, row]) => row.kind === "request" && row.nameParam !== null);
    expect(named.map(([method]) => method)).toContain("tools/call");
    for (const [method, row] of named) {
      const meta = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} };
      const body = JSON.stringify({ jsonrpc: "2.0", id: 5, method, params: { [row.nameParam!]: "in-the-body", _meta: meta } });
      const response = await post(body, { ...jsonHeaders, "mcp-protocol-version": MODERN, "mcp-method": method, "mcp-name": "in-the-header" });
      expect(response.status, method).toBe(400);
      expect(await response.json()).toMatchObject({ id: 5, error: { code: -32020, message: "Header mismatch: Mcp-Name in-the-header but the body names in-the-body" } });
    }
  });

  it("refuses a request whose MCP-Protocol-Version header disagrees with its _meta version with 400 and -32020", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 4, method: "tools/list", params: { _meta: { "io.modelcontextprotocol/protocolVersion": "1999-01-01", "io.modelcontextprotocol/clientCapabilities": {} } } });
    const response = await post(body, { ...jsonHeaders, "mcp-protocol-version": MODERN, "mcp-method": "tools/list" });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ id: 4, error: { code: -32020, message: `Header mismatch: MCP-Protocol-Version ${MODERN} but _meta names 1999-01-01` } });
  });

  it("aborts the handler's signal when the client disconnects mid-request", async () => {
    const before = counters.aborted;
    const gone = new AbortController();
    const pending = modernRequest(1, "tools/call", { name: "slow", arguments: { ms: 600_000 } }, gone.signal);
    await expect.poll(() => counters.started - counters.finished).toBeGreaterThan(0);
    gone.abort();
    await expect(pending).rejects.toThrow();
    await expect.poll(() => counters.aborted).toBe(before + 1);
    // The server goes on answering.
    const after = await modernRequest(2, "tools/call", { name: "echo", arguments: { ok: true } });
    expect(after.status).toBe(200);
    expect(((await after.json()) as { result: { content: unknown } }).result.content).toEqual([{ type: "text", text: '{"ok":true}' }]);
  });
});

/** The JSON-RPC messages of a response: its JSON body, or its SSE stream's events. */
async function events(response: Response): Promise<Record<string, unknown>[]> {
  const text = await response.text();
  if (response.headers.get("content-type") === "application/json") return [JSON.parse(text) as Record<string, unknown>].flat();
  return text.split("\n").filter((l) => l.startsWith("data:") && l.length > 5).map((l) => JSON.parse(l.slice(5)) as Record<string, unknown>);
}

describe("a legacy session over HTTP", () => {
  it("aborts the handler's signal when the client disconnects mid-request, and the session goes on", async () => {
    const init = await post(JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } } }));
    expect(init.status).toBe(200);
    const session = init.headers.get("mcp-session-id")!;
    expect((await events(init))[0]).toMatchObject({ id: 0, result: { protocolVersion: "2025-11-25" } });
    expect(server.handler.sessions).toBe(1);
    const headers = { ...jsonHeaders, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
    expect((await post(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), headers)).status).toBe(202);

    const before = counters.aborted;
    const gone = new AbortController();
    const slow = post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "slow", arguments: { ms: 600_000 } } }), headers, gone.signal);
    await expect.poll(() => counters.started - counters.finished).toBeGreaterThan(0); // the answer has not come
    gone.abort();
    await expect(slow).rejects.toThrow();
    await expect.poll(() => counters.aborted).toBe(before + 1);

    const echo = await post(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { n: 1 } } }), headers);
    expect(await events(echo)).toEqual([{ jsonrpc: "2.0", id: 2, result: { content: [{ type: "text", text: '{"n":1}' }], _meta: { "example.com/echo": true } } }]);
    expect((await fetch(server.url, { method: "DELETE", headers })).status).toBe(200);
    await expect.poll(() => server.handler.sessions).toBe(0);
  });

  it("answers a body with an invalid envelope in a session with 400 and -32600", async () => {
    const init = await post(JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } } }));
    const headers = { ...jsonHeaders, "mcp-session-id": init.headers.get("mcp-session-id")!, "mcp-protocol-version": "2025-11-25" };
    await init.text();
    const response = await post(JSON.stringify({ jsonrpc: "2.0", id: 5 }), headers);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ id: null, error: { code: -32600 } });
    expect((await fetch(server.url, { method: "DELETE", headers })).status).toBe(200);
  });
});
