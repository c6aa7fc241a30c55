// The transports serve a router of any set of versions: only a legacy one, only a modern one.
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyHttp } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { createServerRouter } from "../../generated/router.js";
import { serveHttp } from "../../generated/runtime/transport-http.js";
import { MODERN } from "./support.js";

const serverInfo = { name: "one-version", version: "1.0.0" };

describe("a router of one version over HTTP", () => {
  it("2024-11-05 only: the SDK 1.32.2 client (which asks for a newer version) is given 2024-11-05 and is served; a modern client is refused", async () => {
    const router = createServerRouter({ serverInfo, versions: { "2024-11-05": { capabilities: { tools: {} }, handlers: { "tools/list": () => ({ tools: [] }) } } } });
    const server = await serveHttp(router);
    try {
      const transport = new LegacyHttp(new URL(server.url));
      const client = new LegacyClient({ name: "t", version: "1" });
      await client.connect(transport);
      expect(transport.protocolVersion).toBe("2024-11-05");
      expect(await client.listTools()).toEqual({ tools: [] });
      await client.close();
      const modern = new ModernClient({ name: "t", version: "1" }, { versionNegotiation: { mode: { pin: MODERN } } });
      await expect(modern.connect(new ModernHttp(new URL(server.url)))).rejects.toThrow();
    } finally {
      router.close();
      await server.close();
    }
  });

  it("2026-07-28 only: the 2.4.0 client is served; the SDK 1.32.2 client's initialize is refused with -32601", async () => {
    const router = createServerRouter({ serverInfo, versions: { "2026-07-28": { capabilities: { tools: {} }, handlers: { "tools/list": () => ({ tools: [], ttlMs: 0, cacheScope: "public" }) } } } });
    const server = await serveHttp(router);
    try {
      const modern = new ModernClient({ name: "t", version: "1" }, { versionNegotiation: { mode: { pin: MODERN } } });
      await modern.connect(new ModernHttp(new URL(server.url)));
      expect((await modern.listTools()).tools).toEqual([]);
      await modern.close();
      const legacy = new LegacyClient({ name: "t", version: "1" });
      await expect(legacy.connect(new LegacyHttp(new URL(server.url)))).rejects.toThrow(/-32601|initialize is not available/);
      // A refused initialize leaves no session behind, though the SDK transport issued an id for it.
      const raw = await fetch(server.url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "0" } } }),
      });
      expect(raw.headers.get("mcp-session-id")).not.toBeNull();
      expect(await raw.text()).toContain("-32601");
      await expect.poll(() => server.handler.sessions).toBe(0);
    } finally {
      router.close();
      await server.close();
    }
  });
});
