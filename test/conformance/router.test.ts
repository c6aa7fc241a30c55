// The generated version router, in process: version choice at initialize, per-request versions,
// -32022, era mismatches, server/discover, the log-level gate, subscriptions, server→client requests.
import { describe, expect, it } from "vitest";
import { createServerRouter, type Send, type ServerRouter } from "../../generated/router.js";
import type { JsonRpcMessage } from "../../generated/runtime.js";
import { missingMethodWhy } from "../support.js";

const capabilities = { tools: { listChanged: true }, logging: {} };
const meta = (version: string, extra: Record<string, unknown> = {}) => ({
  "io.modelcontextprotocol/protocolVersion": version,
  "io.modelcontextprotocol/clientCapabilities": {},
  ...extra,
});

function router(): ServerRouter {
  const legacy = {
    handlers: {
      "tools/list": () => ({ tools: [] }),
      "logging/setLevel": () => ({}),
      "tools/call": async (_params: unknown, context: { notify: (m: string, p?: Record<string, unknown>) => Promise<void>; request: (m: string, p?: Record<string, unknown>) => Promise<unknown> }) => {
        await context.notify("notifications/message", { level: "info", data: "info" });
        await context.notify("notifications/message", { level: "error", data: "error" });
        const answer = await context.request("sampling/createMessage", { messages: [], maxTokens: 1 });
        return { content: [{ type: "text" as const, text: JSON.stringify(answer) }] };
      },
    },
    capabilities,
  };
  return createServerRouter({
    serverInfo: { name: "s", version: "1" },
    versions: {
      "2025-06-18": legacy as never,
      "2025-11-25": legacy as never,
      "2026-07-28": {
        handlers: {
          "tools/list": () => ({ tools: [], ttlMs: 0, cacheScope: "public" }),
          "tools/call": async (_params, context) => {
            await context.notify("notifications/message", { level: "info", data: "info" });
            await context.notify("notifications/message", { level: "error", data: "error" });
            return { content: [] };
          },
        },
        capabilities,
      },
    },
  });
}

function recorder(): { sent: JsonRpcMessage[]; send: Send } {
  const sent: JsonRpcMessage[] = [];
  return { sent, send: (message) => void sent.push(message) };
}

const initialize = (protocolVersion: string) => ({
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "c", version: "1" } },
});

describe("legacy connections", () => {
  it("take the client's version when served, and keep that version's dispatcher", async () => {
    const connection = router().connect(recorder().send);
    expect(await connection.handle(initialize("2025-06-18"))).toEqual({
      jsonrpc: "2.0",
      id: 0,
      result: { protocolVersion: "2025-06-18", capabilities, serverInfo: { name: "s", version: "1" } },
    });
    expect(connection.protocolVersion).toBe("2025-06-18");
    // tasks/list is a later version's method: the 2025-06-18 table says which (read from the lock).
    const why = missingMethodWhy("2025-06-18", "tasks/list");
    expect(await connection.handle({ jsonrpc: "2.0", id: 1, method: "tasks/list", params: {} })).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: {
        code: -32601,
        message: `Method not found: tasks/list is not a method of protocol version 2025-06-18 ${why.text}`,
        data: { method: "tasks/list", protocolVersion: "2025-06-18", reason: why.reason },
      },
    });
  });

  it("take the newest served legacy version when the client's is not served", async () => {
    const connection = router().connect(recorder().send);
    const response = await connection.handle(initialize("2024-11-05"));
    expect(response).toMatchObject({ result: { protocolVersion: "2025-11-25" } });
  });

  it("refuse a second initialize and anything but ping before the first", async () => {
    const connection = router().connect(recorder().send);
    expect(await connection.handle({ jsonrpc: "2.0", id: 1, method: "ping" })).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(await connection.handle({ jsonrpc: "2.0", id: 2, method: "tools/list" })).toEqual({
      jsonrpc: "2.0",
      id: 2,
      error: { code: -32600, message: "Invalid Request: send initialize before tools/list" },
    });
    await connection.handle(initialize("2025-11-25"));
    expect(await connection.handle({ ...initialize("2025-11-25"), id: 3 })).toEqual({
      jsonrpc: "2.0",
      id: 3,
      error: { code: -32600, message: "Invalid Request: the connection is already initialized" },
    });
  });

  it("answer a modern method with -32601 naming both versions", async () => {
    const connection = router().connect(recorder().send);
    await connection.handle(initialize("2025-11-25"));
    const why = missingMethodWhy("2025-11-25", "server/discover");
    expect(await connection.handle({ jsonrpc: "2.0", id: 1, method: "server/discover", params: {} })).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: {
        code: -32601,
        message: `Method not found: server/discover is not a method of protocol version 2025-11-25 ${why.text}`,
        data: { method: "server/discover", protocolVersion: "2025-11-25", reason: why.reason },
      },
    });
  });

  it("send log messages at or above the level set with logging/setLevel, and carry server→client requests", async () => {
    const { sent, send } = recorder();
    const connection = router().connect(send);
    await connection.handle(initialize("2025-11-25"));
    expect(await connection.handle({ jsonrpc: "2.0", id: 1, method: "logging/setLevel", params: { level: "warning" } })).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    const call = connection.handle({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "t" } });
    await expect.poll(() => sent.some((m) => "method" in m && m.method === "sampling/createMessage")).toBe(true);
    expect(sent.filter((m) => "method" in m && m.method === "notifications/message").map((m) => (m as { params?: Record<string, unknown> }).params?.level)).toEqual(["error"]);
    const request = sent.find((m) => "method" in m && m.method === "sampling/createMessage") as { id: string };
    expect(await connection.handle({ jsonrpc: "2.0", id: request.id, result: { role: "assistant", content: { type: "text", text: "hi" }, model: "m" } })).toBeUndefined();
    expect(await call).toEqual({
      jsonrpc: "2.0",
      id: 2,
      result: { content: [{ type: "text", text: JSON.stringify({ role: "assistant", content: { type: "text", text: "hi" }, model: "m" }) }] },
    });
  });
});

describe("modern requests", () => {
  it("are answered by the version their _meta names", async () => {
    expect(await router().handle({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta("2026-07-28") } })).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { tools: [], ttlMs: 0, cacheScope: "public", resultType: "complete" },
    });
  });

  it("naming an unserved version get -32022 with the served modern versions", async () => {
    for (const requested of ["2099-01-01", "2025-11-25"]) {
      expect(await router().handle({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta(requested) } })).toEqual({
        jsonrpc: "2.0",
        id: 1,
        error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["2026-07-28"], requested } },
      });
    }
  });

  it("without the required _meta keys get -32602 naming them", async () => {
    expect(await router().handle({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} })).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32602, message: "Invalid params: missing _meta keys: io.modelcontextprotocol/protocolVersion, io.modelcontextprotocol/clientCapabilities" },
    });
  });

  it("of a legacy method get -32601 naming both versions", async () => {
    const why = missingMethodWhy("2026-07-28", "resources/subscribe");
    expect(await router().handle({ jsonrpc: "2.0", id: 1, method: "resources/subscribe", params: { uri: "x", _meta: meta("2026-07-28") } })).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: {
        code: -32601,
        message: `Method not found: resources/subscribe is not a method of protocol version 2026-07-28 ${why.text}`,
        data: { method: "resources/subscribe", protocolVersion: "2026-07-28", reason: why.reason },
      },
    });
  });

  it("server/discover answers the served modern versions, the capabilities and the server's identity", async () => {
    expect(await router().handle({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: meta("2026-07-28") } })).toEqual({
      jsonrpc: "2.0",
      id: 1,
      result: {
        supportedVersions: ["2026-07-28"],
        capabilities,
        ttlMs: 0,
        cacheScope: "public",
        _meta: { "io.modelcontextprotocol/serverInfo": { name: "s", version: "1" } },
        resultType: "complete",
      },
    });
  });

  it("get no log messages without a logLevel in _meta, and those at or above it with one", async () => {
    const levels = async (extra: Record<string, unknown>) => {
      const { sent, send } = recorder();
      await router().handle({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", _meta: meta("2026-07-28", extra) } }, { send });
      return sent.map((m) => (m as { params?: Record<string, unknown> }).params?.level);
    };
    expect(await levels({})).toEqual([]);
    expect(await levels({ "io.modelcontextprotocol/logLevel": "debug" })).toEqual(["info", "error"]);
    expect(await levels({ "io.modelcontextprotocol/logLevel": "warning" })).toEqual(["error"]);
  });

  it("subscriptions/listen: acknowledged with the honored filter first, then only the asked-for notifications, tagged", async () => {
    const r = router();
    const { sent, send } = recorder();
    const listen = r.handle(
      { jsonrpc: "2.0", id: "listen:0", method: "subscriptions/listen", params: { notifications: { toolsListChanged: true, promptsListChanged: true }, _meta: meta("2026-07-28") } },
      { send },
    );
    await expect.poll(() => sent.length).toBe(1);
    const tag = { "io.modelcontextprotocol/subscriptionId": "listen:0" };
    // The server advertises no prompts capability: promptsListChanged is not honored.
    expect(sent[0]).toEqual({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: { toolsListChanged: true }, _meta: tag } });
    await r.publish("notifications/prompts/list_changed");
    await r.publish("notifications/tools/list_changed");
    expect(sent.slice(1)).toEqual([{ jsonrpc: "2.0", method: "notifications/tools/list_changed", params: { _meta: tag } }]);
    r.close();
    expect(await listen).toEqual({ jsonrpc: "2.0", id: "listen:0", result: { _meta: tag, resultType: "complete" } });
  });
});
