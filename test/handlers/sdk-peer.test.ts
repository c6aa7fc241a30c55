// Through the real peer: the official SDK client (1.32.2) validates subscribe results with its strict
// EmptyResultSchema, so what it accepts interoperates and what it rejects does not.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import * as v20241105 from "../../generated/2024-11-05/index.js";
import * as v20250326 from "../../generated/2025-03-26/index.js";
import * as v20250618 from "../../generated/2025-06-18/index.js";
import * as v20251125 from "../../generated/2025-11-25/index.js";

const meta = { "example.com/trace": "t-1" };
const handlerReturn = { _meta: meta, subscriptionId: "sub-1" };

// The four versions' handler types differ; this test's handlers fit all of them.
type Server = { createServerDispatcher(handlers: Record<string, () => unknown>): v20250618.Dispatcher };

/**
 * An SDK client connected to a server whose every message is answered by the generated dispatcher,
 * except that with `raw` the subscribe/unsubscribe handler's return is sent as it is.
 */
async function connect(version: string, mod: Server, raw: boolean): Promise<{ client: Client; negotiated: string | undefined }> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  // The SDK client tells its transport the version it accepted from the server's initialize result.
  let negotiated: string | undefined;
  (clientTransport as InMemoryTransport & { setProtocolVersion(v: string): void }).setProtocolVersion = (v) => {
    negotiated = v;
  };
  const dispatcher = mod.createServerDispatcher({
    initialize: () => ({
      protocolVersion: version,
      capabilities: { resources: { subscribe: true } },
      serverInfo: { name: "generated-dispatcher", version: "0.0.0" },
    }),
    "resources/subscribe": () => handlerReturn,
    "resources/unsubscribe": () => handlerReturn,
  });
  serverTransport.onmessage = async (message) => {
    const m = message as { id?: string | number; method?: string };
    if (raw && (m.method === "resources/subscribe" || m.method === "resources/unsubscribe") && m.id !== undefined) {
      await serverTransport.send({ jsonrpc: "2.0", id: m.id, result: handlerReturn } as JSONRPCMessage);
      return;
    }
    const response = await dispatcher.handle(message);
    if (response !== undefined) await serverTransport.send(response as JSONRPCMessage);
  };
  await serverTransport.start();
  const client = new Client({ name: "sdk-client", version: "1.0.0" });
  await client.connect(clientTransport);
  return { client, negotiated };
}

describe.each([
  ["2024-11-05", v20241105 as Server],
  ["2025-03-26", v20250326 as Server],
  ["2025-06-18", v20250618 as Server],
  ["2025-11-25", v20251125 as Server],
] as const)("the SDK client at %s", (version, mod) => {
  it("gets exactly { _meta } from subscribe/unsubscribe when the handler returns { _meta, subscriptionId }, and rejects it unnormalized", async () => {
    const { client, negotiated } = await connect(version, mod, false);
    expect(negotiated).toBe(version);
    try {
      expect(client.getServerVersion()).toStrictEqual({ name: "generated-dispatcher", version: "0.0.0" });
      expect(await client.subscribeResource({ uri: "file:///watched.txt" })).toStrictEqual({ _meta: meta });
      expect(await client.unsubscribeResource({ uri: "file:///watched.txt" })).toStrictEqual({ _meta: meta });
    } finally {
      await client.close();
    }

    const { client: rawClient } = await connect(version, mod, true);
    try {
      await expect(rawClient.subscribeResource({ uri: "file:///watched.txt" })).rejects.toThrow(/subscriptionId|Unrecognized key/);
      await expect(rawClient.unsubscribeResource({ uri: "file:///watched.txt" })).rejects.toThrow(/subscriptionId|Unrecognized key/);
    } finally {
      await rawClient.close();
    }
  });
});
