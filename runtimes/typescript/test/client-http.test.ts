// httpClientTransport's handling of single HTTP answers, through its `fetch` option (the end-to-end
// behaviour against real servers is test/client/real-servers.test.ts).
import { describe, expect, it } from "vitest";
import type { ClientFetch } from "../src/client-fetch.js";
import { HttpStatusError, httpClientTransport } from "../src/client-http.js";

/** A transport whose every fetch answers `response()`, recording what it received. */
async function transportAnswering(response: () => Response) {
  const received: unknown[] = [];
  const problems: unknown[] = [];
  const fetch: ClientFetch = async () => response();
  const transport = httpClientTransport("http://127.0.0.1:1/mcp", { fetch, openStream: false });
  await transport.start({ message: (m) => received.push(m), closed: () => undefined, problem: (e) => problems.push(e), requestFailed: () => undefined });
  return { transport, received, problems };
}

describe("httpClientTransport: a 202 Accepted", () => {
  // mcp 2.3.0 (the Python SDK) answers notifications/initialized with 202, `content-type: application/json` and no body.
  it("takes a notification's empty 202 as delivered, even when it names Content-Type application/json", async () => {
    const { transport, received, problems } = await transportAnswering(() => new Response(null, { status: 202, headers: { "content-type": "application/json" } }));
    await expect(transport.send({ jsonrpc: "2.0", method: "notifications/initialized" }, { protocolVersion: "2025-11-25", era: "legacy" })).resolves.toBeUndefined();
    expect([received, problems]).toEqual([[], []]);
  });

  it("takes a response's 202 as delivered", async () => {
    const { transport } = await transportAnswering(() => new Response(null, { status: 202 }));
    await expect(transport.send({ jsonrpc: "2.0", id: 3, result: {} }, { protocolVersion: "2025-11-25", era: "legacy" })).resolves.toBeUndefined();
  });

  it("rejects a request answered by 202, which carries no answer to it", async () => {
    const { transport } = await transportAnswering(() => new Response(null, { status: 202, headers: { "content-type": "application/json" } }));
    const sent = transport.send({ jsonrpc: "2.0", id: 7, method: "tools/list" }, { protocolVersion: "2025-11-25", era: "legacy" });
    await expect(sent).rejects.toBeInstanceOf(HttpStatusError);
    await expect(sent).rejects.toMatchObject({ status: 202, message: "HTTP 202: no answer to request 7" });
  });
});

describe("httpClientTransport: maxBodyBytes", () => {
  const request = (text: string) => ({ jsonrpc: "2.0" as const, id: 1, method: "tools/call", params: { name: "echo", arguments: { text } } });
  const framing = JSON.stringify(request("")).length;
  const answer = (text: string) => JSON.stringify({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text }] } });

  it("refuses before sending a message whose UTF-8 bytes exceed the limit, counting multi-byte characters as their bytes", async () => {
    let fetched = 0;
    const fetch: ClientFetch = async () => (fetched++, new Response(answer("ok"), { headers: { "content-type": "application/json" } }));
    const transport = httpClientTransport("http://127.0.0.1:1/mcp", { fetch, openStream: false, maxBodyBytes: framing + 20 });
    await transport.start({ message: () => undefined, closed: () => undefined, problem: () => undefined, requestFailed: () => undefined });
    // 20 ASCII characters are 20 bytes: within the limit. 11 "é" are 11 characters but 22 bytes: over it.
    await expect(transport.send(request("a".repeat(20)), { protocolVersion: "2025-11-25", era: "legacy" })).resolves.toBeUndefined();
    await expect(transport.send(request("é".repeat(11)), { protocolVersion: "2025-11-25", era: "legacy" })).rejects.toThrow(`the message exceeds ${framing + 20} bytes (maxBodyBytes)`);
    expect(fetched).toBe(1);
  });

  it.each([
    ["declared by Content-Length", (body: string) => ({ "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) })],
    ["streamed without Content-Length", () => ({ "content-type": "application/json" })],
    ["declared smaller than it is (a ClientFetch of one's own)", () => ({ "content-type": "application/json", "content-length": "10" })],
  ])("refuses a JSON answer over the limit, %s", async (_how, headers) => {
    const body = answer("x".repeat(200));
    const { transport, received } = await transportAnswering(() => new Response(body, { headers: headers(body) }));
    const limited = httpClientTransport("http://127.0.0.1:1/mcp", { fetch: async () => new Response(body, { headers: headers(body) }), openStream: false, maxBodyBytes: 100 });
    await limited.start({ message: (m) => received.push(m), closed: () => undefined, problem: () => undefined, requestFailed: () => undefined });
    await expect(limited.send(request("hi"), { protocolVersion: "2025-11-25", era: "legacy" })).rejects.toThrow("the response body exceeds 100 bytes (maxBodyBytes)");
    expect(received).toEqual([]);
    // The same answer within the default limit is delivered.
    await transport.send(request("hi"), { protocolVersion: "2025-11-25", era: "legacy" });
    expect(received).toEqual([JSON.parse(body)]);
  });
});
