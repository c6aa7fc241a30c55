// Generated inputs (fast-check) over both transports, bounded in count: the stdio transport on in-process
// streams, the HTTP transport on real loopback HTTP. Whatever arrives:
// - nothing crashes: every POST gets an HTTP answer, every stdio output line is one JSON-RPC message, and
//   the server answers a well-formed request afterwards;
// - a message that is not a JSON-RPC 2.0 request, notification or response is answered -32600 with id null
//   (400 over HTTP), a line or body that is not JSON -32700 with id null;
// - a notification is never answered (202 and no body over HTTP; no output line over stdio).
import { PassThrough } from "node:stream";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpServer, serveHttp } from "../../generated/runtime/transport-http.js";
import { serveStdio } from "../../generated/runtime/transport-stdio.js";
import { router } from "./fixtures/server.js";
import { MODERN } from "./support.js";

const RUNS = 60;

/**
 * The envelope rule, restated from the JSON-RPC 2.0 specification and MCP (ids are strings or integers, never
 * null; params are not the envelope's concern): an object with a string `method` and `jsonrpc: "2.0"` is a
 * notification without `id` and a request with a valid one; an object without `method` but with `result` or
 * `error` is a response (never answered, whatever its shape); anything else is invalid.
 */
function envelopeKind(value: unknown): "request" | "notification" | "response" | "invalid" {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "invalid";
  const m = value as Record<string, unknown>;
  if (!("method" in m)) return "result" in m || "error" in m ? "response" : "invalid";
  if (typeof m.method !== "string" || m.jsonrpc !== "2.0") return "invalid";
  if (!("id" in m)) return "notification";
  return typeof m.id === "string" || Number.isInteger(m.id) ? "request" : "invalid";
}

const methodName = fc.oneof(fc.constantFrom("ping", "initialize", "tools/call", "tools/list", "notifications/cancelled", "notifications/initialized", "server/discover", "resources/subscribe"), fc.stringMatching(/^[a-z][a-z/_]{0,20}$/));
const modernMeta = fc.record({ "io.modelcontextprotocol/protocolVersion": fc.constantFrom(MODERN, "2025-11-25", "1999-01-01"), "io.modelcontextprotocol/clientCapabilities": fc.constant({}) }, { requiredKeys: ["io.modelcontextprotocol/protocolVersion"] });
const params = fc.oneof(fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }), fc.record({ _meta: modernMeta, name: fc.constantFrom("echo", "nope") }));
/** Objects with the envelope's keys present or not, each of a right or a wrong type. */
const envelopeLike = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant("2.0"), fc.constant("2.0"), fc.constantFrom("1.0", 2, null)),
    id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constantFrom(null, true, 1.5), fc.constant({})),
    method: fc.oneof(methodName, methodName, fc.constantFrom(7, null)),
    params,
    result: fc.jsonValue({ maxDepth: 1 }),
    error: fc.record({ code: fc.integer(), message: fc.string({ maxLength: 8 }) }),
  },
  { requiredKeys: [] },
);
const anyJson = fc.oneof(envelopeLike, envelopeLike, fc.jsonValue({ maxDepth: 3 }));
/** A 2026-07-28 notification (any method name), as the modern client would post it. */
const modernNotification = fc.record({ jsonrpc: fc.constant("2.0"), method: methodName, params: fc.record({ _meta: fc.constant({ "io.modelcontextprotocol/protocolVersion": MODERN }), x: fc.jsonValue({ maxDepth: 1 }) }) });

describe("the HTTP transport under generated bodies", () => {
  let server: HttpServer;
  beforeAll(async () => {
    server = await serveHttp(router, { maxBodyBytes: 4096 });
  });
  afterAll(async () => {
    await server.close();
  });
  const jsonHeaders = { "content-type": "application/json", accept: "application/json, text/event-stream" };

  async function stillServes(): Promise<void> {
    const body = { jsonrpc: "2.0", id: "alive", method: "tools/list", params: { _meta: { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} } } };
    const response = await fetch(server.url, { method: "POST", headers: { ...jsonHeaders, "mcp-protocol-version": MODERN, "mcp-method": "tools/list" }, body: JSON.stringify(body) });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: "alive", result: { resultType: "complete" } });
  }

  it("answers any bytes, with any of the content types, with an HTTP status and never stops serving", async () => {
    const bodies = fc.oneof(fc.string({ maxLength: 200 }), fc.uint8Array({ maxLength: 200 }), anyJson.map((v) => JSON.stringify(v)), fc.constant("x".repeat(5000)));
    const types = fc.constantFrom("application/json", "text/plain", "application/json; charset=utf-8");
    await fc.assert(
      fc.asyncProperty(bodies, types, async (body, type) => {
        const response = await fetch(server.url, { method: "POST", headers: { ...jsonHeaders, "content-type": type }, body });
        expect([200, 202, 400, 404, 413, 415]).toContain(response.status);
        const text = await response.text();
        if (response.status !== 202 && response.headers.get("content-type")?.includes("application/json")) expect(() => JSON.parse(text)).not.toThrow();
      }),
      { numRuns: RUNS },
    );
    await stillServes();
  });

  it("answers every body whose envelope is invalid with 400, -32600 and id null", async () => {
    await fc.assert(
      fc.asyncProperty(anyJson.filter((v) => envelopeKind(v) === "invalid"), async (value) => {
        const response = await fetch(server.url, { method: "POST", headers: jsonHeaders, body: JSON.stringify(value) });
        expect(response.status).toBe(400);
        expect(await response.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
      }),
      { numRuns: RUNS },
    );
  });

  it("never answers a 2026-07-28 notification: 202 and an empty body", async () => {
    await fc.assert(
      fc.asyncProperty(modernNotification, async (message) => {
        const response = await fetch(server.url, { method: "POST", headers: { ...jsonHeaders, "mcp-protocol-version": MODERN, "mcp-method": message.method }, body: JSON.stringify(message) });
        expect(response.status).toBe(202);
        expect(await response.text()).toBe("");
      }),
      { numRuns: RUNS },
    );
    await stillServes();
  });
});

describe("the stdio transport under generated lines", () => {
  /** Feed lines to a fresh stdio server, then a sentinel request; every output line once all settled. */
  async function exchange(lines: string[]): Promise<Record<string, unknown>[]> {
    const input = new PassThrough();
    const output = new PassThrough();
    const server = serveStdio(router, { input, output, maxLineBytes: 4096, onError: () => undefined });
    let text = "";
    output.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    for (const line of lines) input.write(line + "\n");
    input.write(JSON.stringify({ jsonrpc: "2.0", id: "sentinel", method: "ping" }) + "\n");
    await expect.poll(() => text.includes('"id":"sentinel"')).toBe(true);
    server.close();
    await server.closed;
    return text.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>);
  }

  it("answers each line that is not JSON with -32700 and each invalid envelope with -32600, both id null; answers no notification; answers only requests it was sent", async () => {
    const line = fc.oneof(
      anyJson.map((v) => ({ text: JSON.stringify(v), kind: envelopeKind(v) as string })),
      fc.string({ maxLength: 60 }).filter((s) => !s.includes("\n")).map((s) => ({ text: s, kind: "text" })),
      modernNotification.map((v) => ({ text: JSON.stringify(v), kind: "notification" })),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 12 }), async (sent) => {
        const out = await exchange(sent.map((s) => s.text));
        const parsed = sent.map((s) => {
          if (s.text.trim() === "") return "blank";
          try {
            return envelopeKind(JSON.parse(s.text));
          } catch {
            return "not json";
          }
        });
        const nullIds = out.filter((m) => m.id === null);
        expect(nullIds.filter((m) => (m.error as { code: number }).code === -32700).length).toBe(parsed.filter((k) => k === "not json").length);
        expect(nullIds.filter((m) => (m.error as { code: number }).code === -32600).length).toBe(parsed.filter((k) => k === "invalid").length);
        expect(nullIds.length).toBe(parsed.filter((k) => k === "not json" || k === "invalid").length);
        // Every other line answers a request that was sent, once; nothing answers a notification or a response.
        const requestIds = sent.filter((_, i) => parsed[i] === "request").map((s) => (JSON.parse(s.text) as { id: unknown }).id);
        const answered = out.filter((m) => m.id !== null).map((m) => m.id);
        expect(answered.filter((id) => id === "sentinel")).toEqual(["sentinel"]);
        for (const id of answered.filter((i) => i !== "sentinel")) expect(requestIds).toContain(id);
        expect(answered.length - 1).toBeLessThanOrEqual(requestIds.length);
      }),
      { numRuns: RUNS },
    );
  });

  it("answers a line longer than maxLineBytes with -32600 (id null) and reads on", async () => {
    const out = await exchange(["x".repeat(5000), JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" })]);
    expect(out).toEqual([
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: a message longer than 4096 bytes" } },
      { jsonrpc: "2.0", id: 1, result: {} },
      { jsonrpc: "2.0", id: "sentinel", result: {} },
    ]);
  });
});
