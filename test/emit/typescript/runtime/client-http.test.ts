// httpClientTransport's handling of single HTTP answers, through its `fetch` option (the end-to-end
// behaviour against real servers is test/client/real-servers.test.ts).
import { describe, expect, it } from "vitest";
import type { ClientFetch } from "../../../../generator/emit/typescript/runtime/client-fetch.js";
import { HttpStatusError, httpClientTransport } from "../../../../generator/emit/typescript/runtime/client-http.js";

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
