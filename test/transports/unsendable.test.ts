// A result JSON cannot carry (a BigInt, a cycle) never reaches the wire as it is: both transports answer
// the request -32603 with its id, report the problem to onError, and go on serving.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { RoutedServer } from "../../generated/runtime/transport-jsonrpc.js";
import { serveHttp } from "../../generated/runtime/transport-http.js";
import { serveStdio } from "../../generated/runtime/transport-stdio.js";
import { MODERN } from "./support.js";

const cyclic: Record<string, unknown> = {};
cyclic.self = cyclic;

/**
 * A server whose answers the transport must send: the transport's own guarantee, whatever the router in
 * front of it already checks. `tools/call` named "big" or "cycle" is answered with a BigInt or a cycle.
 */
function unsendableRouter(): RoutedServer {
  const answer = async (message: unknown) => {
    const { id, params } = message as { id?: number; params: { name: string } };
    if (id === undefined) return undefined;
    const extra = params.name === "big" ? 1n : params.name === "cycle" ? cyclic : "fine";
    return { jsonrpc: "2.0", id, result: { content: [{ type: "text", text: params.name }], extra } };
  };
  return {
    eraOf: () => "modern",
    handle: answer,
    connect: () => ({ protocolVersion: undefined, handle: answer, close: () => undefined }),
  };
}
const meta = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} };
const request = (id: number, name: string) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, _meta: meta } });

describe("a result JSON cannot carry", () => {
  it("over stdio: -32603 with the request's id, reported to onError, the next request answered", async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const errors: unknown[] = [];
    const server = serveStdio(unsendableRouter(), { input, output, onError: (e) => errors.push(e) });
    let text = "";
    output.on("data", (c: Buffer) => (text += c.toString()));
    for (const [id, name] of [[1, "big"], [2, "cycle"], [3, "ok"]] as const) input.write(JSON.stringify(request(id, name)) + "\n");
    await expect.poll(() => text.split("\n").filter(Boolean).length).toBe(3);
    server.close();
    await server.closed;
    const lines = text.split("\n").filter(Boolean).map((l) => JSON.parse(l) as { id: number });
    expect(lines.sort((a, b) => a.id - b.id)).toEqual([
      { jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Internal error: the result cannot be sent as JSON" } },
      { jsonrpc: "2.0", id: 2, error: { code: -32603, message: "Internal error: the result cannot be sent as JSON" } },
      { jsonrpc: "2.0", id: 3, result: { content: [{ type: "text", text: "ok" }], extra: "fine" } },
    ]);
    expect(errors).toHaveLength(2);
  });

  it("over HTTP: -32603 with the request's id, reported to onError, the next request answered", async () => {
    const errors: unknown[] = [];
    const server = await serveHttp(unsendableRouter(), { onError: (e) => errors.push(e) });
    try {
      const post = (id: number, name: string) =>
        fetch(server.url, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": name },
          body: JSON.stringify(request(id, name)),
        }).then((r) => r.json());
      expect(await post(1, "big")).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Internal error: the result cannot be sent as JSON" } });
      expect(await post(2, "cycle")).toEqual({ jsonrpc: "2.0", id: 2, error: { code: -32603, message: "Internal error: the result cannot be sent as JSON" } });
      expect(await post(3, "ok")).toMatchObject({ id: 3, result: { extra: "fine" } });
      expect(errors).toHaveLength(2);
    } finally {
      await server.close();
    }
  });
});
