// The legacy lifecycle through the generated router: what initialize commits, which version it picks,
// and what router.publish delivers to a legacy connection.
import { describe, expect, it } from "vitest";
import { createServerRouter, type Send } from "../../generated/router.js";
import type { JsonRpcMessage } from "../../generated/runtime.js";

const serverInfo = { name: "s", version: "1" };

function recorder(): { sent: JsonRpcMessage[]; send: Send } {
  const sent: JsonRpcMessage[] = [];
  return { sent, send: (message) => void sent.push(message) };
}

const initialize = (protocolVersion: unknown, id: number | null = 0) => ({
  jsonrpc: "2.0",
  ...(id === null ? {} : { id }),
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "c", version: "1" } },
});

/** A router serving two legacy versions, with resources that can be subscribed to. */
function router(capabilities: Record<string, unknown>) {
  const version = {
    handlers: { "resources/subscribe": () => ({}), "resources/unsubscribe": () => ({}), "tools/list": () => ({ tools: [] }) },
    capabilities,
  };
  return createServerRouter({ serverInfo, versions: { "2024-11-05": version as never, "2025-06-18": version as never } });
}

describe("initialize", () => {
  it("picks the newest served legacy version, not the newest generated one, when the client's is not served", async () => {
    const connection = router({}).connect(recorder().send);
    expect(await connection.handle(initialize("2025-03-26"))).toMatchObject({ result: { protocolVersion: "2025-06-18" } });
    expect(connection.protocolVersion).toBe("2025-06-18");
  });

  it("commits nothing when its params are invalid: the client can try again", async () => {
    const connection = router({}).connect(recorder().send);
    expect(await connection.handle(initialize(5))).toMatchObject({ id: 0, error: { code: -32602 } });
    expect(connection.protocolVersion).toBeUndefined();
    expect(await connection.handle(initialize("2024-11-05", 1))).toMatchObject({ id: 1, result: { protocolVersion: "2024-11-05" } });
    expect(connection.protocolVersion).toBe("2024-11-05");
  });

  it("as a notification (no id) initializes nothing", async () => {
    const connection = router({}).connect(recorder().send);
    expect(await connection.handle(initialize("2024-11-05", null))).toBeUndefined();
    expect(connection.protocolVersion).toBeUndefined();
    expect(await connection.handle({ jsonrpc: "2.0", id: 3, method: "tools/list" })).toMatchObject({ error: { code: -32600 } });
  });
});

describe("router.publish to a legacy connection", () => {
  async function connected(capabilities: Record<string, unknown>) {
    const r = router(capabilities);
    const { sent, send } = recorder();
    const connection = r.connect(send);
    await connection.handle(initialize("2025-06-18"));
    return { r, sent, connection };
  }

  it("delivers resources/updated for subscribed URIs only, and stops after unsubscribe", async () => {
    const { r, sent, connection } = await connected({ resources: { subscribe: true } });
    await connection.handle({ jsonrpc: "2.0", id: 1, method: "resources/subscribe", params: { uri: "file:///a" } });
    await r.publish("notifications/resources/updated", { uri: "file:///a" });
    await r.publish("notifications/resources/updated", { uri: "file:///b" });
    expect(sent).toEqual([{ jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "file:///a" } }]);
    await connection.handle({ jsonrpc: "2.0", id: 2, method: "resources/unsubscribe", params: { uri: "file:///a" } });
    await r.publish("notifications/resources/updated", { uri: "file:///a" });
    expect(sent).toHaveLength(1);
  });

  it("delivers list_changed only where the served capabilities say listChanged", async () => {
    const withIt = await connected({ tools: { listChanged: true } });
    await withIt.r.publish("notifications/tools/list_changed");
    expect(withIt.sent).toEqual([{ jsonrpc: "2.0", method: "notifications/tools/list_changed" }]);
    const without = await connected({ tools: {} });
    await without.r.publish("notifications/tools/list_changed");
    expect(without.sent).toEqual([]);
  });
});
