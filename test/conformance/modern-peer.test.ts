// The real modern peer: @modelcontextprotocol/client@2.4.0, pinned to 2026-07-28, against the
// generated router behind the conformance server. The client validates every result strictly
// (it rejects a 2026-07-28 result without resultType, and list results without ttlMs/cacheScope);
// the raw bodies it received are recorded too, to assert what went over the wire.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "./server.js";
import { missingMethodWhy } from "../support.js";

const VERSION = "2026-07-28";

/** Every JSON-RPC message the server sent back, from JSON bodies and SSE `data:` lines. */
function recordingFetch(received: Record<string, unknown>[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const type = response.headers.get("content-type") ?? "";
    if (type.includes("application/json")) {
      received.push((await response.clone().json()) as Record<string, unknown>);
      return response;
    }
    if (!type.includes("text/event-stream") || response.body === null) return response;
    // Tee the stream: one branch for the client, one read here line by line.
    const [mine, theirs] = response.body.tee();
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = "";
      for await (const chunk of mine as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n")) >= 0) {
          const line = buffer.slice(0, end).trim();
          buffer = buffer.slice(end + 1);
          if (line.startsWith("data:")) received.push(JSON.parse(line.slice(5)) as Record<string, unknown>);
        }
      }
    })().catch(() => undefined);
    return new Response(theirs, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

describe("@modelcontextprotocol/client@2.4.0 against the generated router at 2026-07-28", () => {
  let server: RunningServer;
  let client: Client;
  let received: Record<string, unknown>[];

  beforeEach(async () => {
    server = await startServer(0);
    received = [];
    client = new Client({ name: "peer-test", version: "1.0.0" }, { versionNegotiation: { mode: { pin: VERSION } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { fetch: recordingFetch(received) }));
  });

  afterEach(async () => {
    await client.close();
    await server.close();
  });

  function resultOf(id: unknown): Record<string, unknown> {
    const message = received.find((m) => m.id === id && "result" in m);
    expect(message, `a result for request ${String(id)}`).toBeDefined();
    return message!.result as Record<string, unknown>;
  }

  it("negotiates 2026-07-28 through server/discover", () => {
    expect(client.getNegotiatedProtocolVersion()).toBe(VERSION);
    const discover = received.find((m) => "result" in m && "supportedVersions" in (m.result as object))!.result as Record<string, unknown>;
    expect(discover.supportedVersions).toEqual([VERSION]);
    expect(discover.resultType).toBe("complete");
  });

  it("accepts tools/list, sent with resultType, ttlMs and cacheScope", async () => {
    const listed = await client.listTools();
    expect(listed.tools.map((t) => t.name)).toContain("test_simple_text");
    const raw = resultOf(received.at(-1)!.id);
    expect(raw).toMatchObject({ resultType: "complete", ttlMs: 0, cacheScope: "public" });
  });

  it("accepts tools/call, sent with resultType", async () => {
    const called = await client.callTool({ name: "test_simple_text", arguments: {} });
    expect(called.content).toEqual([{ type: "text", text: "This is a simple text response for testing." }]);
    expect(resultOf(received.at(-1)!.id)).toEqual({ content: [{ type: "text", text: "This is a simple text response for testing." }], resultType: "complete" });
  });

  it("accepts subscriptions/listen: acknowledged, notified, and its result (with resultType) when the server ends it", async () => {
    const changed: unknown[] = [];
    client.setNotificationHandler("notifications/tools/list_changed", (n) => void changed.push(n));
    const subscription = await client.listen({ toolsListChanged: true, promptsListChanged: true });
    expect(subscription.honoredFilter).toEqual({ toolsListChanged: true, promptsListChanged: true });
    await server.router.publish("notifications/tools/list_changed");
    await expect.poll(() => changed.length).toBe(1);
    server.router.close();
    expect(await subscription.closed).toBe("graceful");
    const listenId = received.find((m) => m.method === "notifications/subscriptions/acknowledged")!.params as { _meta: Record<string, unknown> };
    const subscriptionId = listenId._meta["io.modelcontextprotocol/subscriptionId"];
    expect(resultOf(subscriptionId)).toEqual({ _meta: { "io.modelcontextprotocol/subscriptionId": subscriptionId }, resultType: "complete" });
  });

  it("refuses a legacy-only method: the client will not send it, and the router answers it with 404 and -32601 naming both versions", async () => {
    // The 2.4.0 client refuses before sending: it knows the method is not in the 2026-07-28 era.
    await expect(async () => client.request({ method: "resources/subscribe", params: { uri: "test://watched-resource" } })).rejects.toThrow(
      "Method 'resources/subscribe' is not supported by the negotiated protocol version",
    );
    // Sent anyway, with the envelope that client puts on every request, the router refuses it.
    const response = await fetch(server.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": VERSION,
        "mcp-method": "resources/subscribe",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 7,
        method: "resources/subscribe",
        params: {
          uri: "test://watched-resource",
          _meta: { "io.modelcontextprotocol/protocolVersion": VERSION, "io.modelcontextprotocol/clientCapabilities": {} },
        },
      }),
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: {
        code: -32601,
        message: `Method not found: resources/subscribe is not a method of protocol version ${VERSION} ${missingMethodWhy(VERSION, "resources/subscribe").text}`,
        data: { method: "resources/subscribe", protocolVersion: VERSION, reason: missingMethodWhy(VERSION, "resources/subscribe").reason },
      },
    });
  });
});
