// The dispatcher uses the generated zod schemas: params before the handler, results before sending.
import { describe, expect, it, vi } from "vitest";
import * as legacy from "../../../generated/2025-06-18/index.js";
import * as modern from "../../../generated/2026-07-28/index.js";
import { MODERN_META } from "../../handlers/modern-meta.js";

const request = (method: string, params: unknown) => ({ jsonrpc: "2.0", id: 5, method, params });

describe("params validation (-32602 with the failing paths)", () => {
  it("legacy: resources/subscribe with a non-string uri never reaches the handler", async () => {
    const handler = vi.fn();
    const d = legacy.createServerDispatcher({ "resources/subscribe": handler });
    const response = await d.handle(request("resources/subscribe", { uri: 5 }));
    expect(response).toMatchObject({ jsonrpc: "2.0", id: 5, error: { code: -32602, data: { paths: ["/params/uri"] } } });
    expect((response as { error: { message: string } }).error.message).toMatch(/^Invalid params for resources\/subscribe: \/uri: /);
    expect(handler).not.toHaveBeenCalled();
  });

  it("modern: tools/call without a name, and without the required _meta keys", async () => {
    const handler = vi.fn();
    const d = modern.createServerDispatcher({ "tools/call": handler });
    const noName = await d.handle(request("tools/call", { _meta: MODERN_META }));
    expect(noName).toMatchObject({ id: 5, error: { code: -32602, data: { paths: ["/params/name"] } } });
    const noMeta = await d.handle(request("tools/call", { name: "echo", _meta: {} }));
    expect(noMeta).toMatchObject({
      id: 5,
      error: {
        code: -32602,
        data: { paths: ["/params/_meta/io.modelcontextprotocol~1clientCapabilities", "/params/_meta/io.modelcontextprotocol~1protocolVersion"] },
      },
    });
    expect(handler).not.toHaveBeenCalled();
  });

  it("valid params reach the handler unchanged", async () => {
    const handler = vi.fn((_params: unknown) => ({ content: [] }));
    const d = legacy.createServerDispatcher({ "tools/call": handler });
    const params = { name: "echo", arguments: { a: 1 } };
    expect(await d.handle(request("tools/call", params))).toStrictEqual({ jsonrpc: "2.0", id: 5, result: { content: [] } });
    expect(handler.mock.calls[0][0]).toBe(params);
  });
});

describe("result validation (on by default; -32603 naming the method and the path; nothing invalid sent)", () => {
  it("legacy: a CallToolResult whose content is not an array", async () => {
    const d = legacy.createServerDispatcher({ "tools/call": () => ({ content: "text" }) as never });
    const response = await d.handle(request("tools/call", { name: "echo" }));
    expect(response).toStrictEqual({
      jsonrpc: "2.0",
      id: 5,
      error: { code: -32603, message: "Internal error: the tools/call handler's result is not a valid CallToolResult (at /content)" },
    });
  });

  it("modern: a ListToolsResult without the caching fields the 2026-07-28 schema requires", async () => {
    const d = modern.createServerDispatcher({ "tools/list": () => ({ tools: [] }) as never });
    const response = await d.handle(request("tools/list", { _meta: MODERN_META }));
    expect(response).toStrictEqual({
      jsonrpc: "2.0",
      id: 5,
      error: { code: -32603, message: "Internal error: the tools/list handler's result is not a valid ListToolsResult (at /cacheScope, /ttlMs)" },
    });
  });

  it("modern: subscriptions/listen must close with the subscription id the schema requires in _meta", async () => {
    const d = modern.createServerDispatcher({
      "subscriptions/listen": (_params, context) => ({ _meta: { "io.modelcontextprotocol/subscriptionId": context.requestId } }),
    });
    expect(await d.handle(request("subscriptions/listen", { _meta: MODERN_META, notifications: {} }))).toStrictEqual({
      jsonrpc: "2.0",
      id: 5,
      result: { _meta: { "io.modelcontextprotocol/subscriptionId": 5 }, resultType: "complete" },
    });
    const bare = modern.createServerDispatcher({ "subscriptions/listen": () => undefined });
    expect(await bare.handle(request("subscriptions/listen", { _meta: MODERN_META, notifications: {} }))).toMatchObject({
      error: { code: -32603, message: "Internal error: the subscriptions/listen handler's result is not a valid SubscriptionsListenResult (at /_meta)" },
    });
  });

  it("validateResults: false sends the normalized result as it is", async () => {
    const d = legacy.createServerDispatcher({ "tools/call": () => ({ content: "text" }) as never }, { validateResults: false });
    expect(await d.handle(request("tools/call", { name: "echo" }))).toStrictEqual({ jsonrpc: "2.0", id: 5, result: { content: "text" } });
  });

  it("a valid result is sent", async () => {
    const d = modern.createServerDispatcher({ "tools/list": () => ({ tools: [], ttlMs: 0, cacheScope: "public" }) });
    expect(await d.handle(request("tools/list", { _meta: MODERN_META }))).toStrictEqual({
      jsonrpc: "2.0",
      id: 5,
      result: { tools: [], ttlMs: 0, cacheScope: "public", resultType: "complete" },
    });
  });
});

describe("notifications with invalid params go to onError and are not delivered", () => {
  it.each([
    ["legacy", legacy.createClientDispatcher as (h: object, o: object) => legacy.Dispatcher, { progressToken: {}, progress: 1 }],
    ["modern", modern.createClientDispatcher as (h: object, o: object) => legacy.Dispatcher, { progressToken: "t", progress: "half" }],
  ])("%s: notifications/progress", async (era, create, params) => {
    const handler = vi.fn();
    const onError = vi.fn();
    const d = create({ "notifications/progress": handler }, { onError });
    expect(await d.handle({ jsonrpc: "2.0", method: "notifications/progress", params })).toBeUndefined();
    expect(handler).not.toHaveBeenCalled();
    expect(onError).toHaveBeenCalledTimes(1);
    const [error, notification] = onError.mock.calls[0];
    expect(error).toMatchObject({ code: -32602 });
    expect(notification).toStrictEqual({ kind: "invalid-params", method: "notifications/progress", protocolVersion: era === "legacy" ? "2025-06-18" : "2026-07-28" });
  });
});
