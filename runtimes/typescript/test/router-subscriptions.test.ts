// Who takes what publish sends: the honored SubscriptionFilter, the legacy indexes, and the
// subscriptions/listen handler's acknowledgement and end.
import { describe, expect, it } from "vitest";
import type { RequestContext } from "../src/dispatcher.js";
import { Audience, honoredFilter, listenHandler, wants } from "../src/router-subscriptions.js";

const capabilities = { tools: { listChanged: true }, prompts: {}, resources: { subscribe: true } };

describe("honoredFilter and wants", () => {
  it("honor only what the capabilities support (string uris only), and take a notification by its filter key or uri", () => {
    const honored = honoredFilter({ toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true, resourceSubscriptions: ["a", 1, "b"] }, capabilities);
    expect(honored).toEqual({ toolsListChanged: true, resourceSubscriptions: ["a", "b"] });
    expect(wants(honored, "notifications/tools/list_changed", undefined)).toBe(true);
    expect(wants(honored, "notifications/prompts/list_changed", undefined)).toBe(false);
    expect(wants(honored, "notifications/resources/updated", { uri: "b" })).toBe(true);
    expect(wants(honored, "notifications/resources/updated", { uri: "c" })).toBe(false);
    expect(wants(honored, "notifications/message", undefined)).toBe(false);
  });
});

describe("Audience", () => {
  it("delivers to the legacy connections whose capabilities declare the list_changed, and to a resource's subscribers, until removed", async () => {
    const audience = new Audience();
    const got: string[] = [];
    const a = { deliver: async (m: string) => void got.push(`a ${m}`) };
    const b = { deliver: async (m: string) => void got.push(`b ${m}`) };
    audience.joinListChanged(a, capabilities);
    audience.joinListChanged(b, {});
    audience.subscribe(b, "file:///x");
    await audience.deliver("notifications/tools/list_changed", undefined);
    await audience.deliver("notifications/prompts/list_changed", undefined);
    await audience.deliver("notifications/resources/updated", { uri: "file:///x" });
    audience.unsubscribe(b, "file:///x");
    audience.remove(a, []);
    await audience.deliver("notifications/tools/list_changed", undefined);
    await audience.deliver("notifications/resources/updated", { uri: "file:///x" });
    expect(got).toEqual(["a notifications/tools/list_changed", "b notifications/resources/updated"]);
  });

  it("a failing delivery does not stop the others; endAll ends every subscription once", async () => {
    const audience = new Audience();
    const got: string[] = [];
    audience.joinListChanged({ deliver: () => Promise.reject(new Error("gone")) }, capabilities);
    audience.joinListChanged(
      {
        deliver: () => {
          throw new Error("sync");
        },
      },
      capabilities,
    );
    let ended = 0;
    audience.listen({ toolsListChanged: true }, async (m) => void got.push(m), () => ended++);
    await audience.deliver("notifications/tools/list_changed", undefined);
    audience.endAll();
    audience.endAll();
    await audience.deliver("notifications/tools/list_changed", undefined);
    expect([got, ended]).toEqual([["notifications/tools/list_changed"], 1]);
  });
});

describe("listenHandler", () => {
  function context(signal: AbortSignal, notified: Array<[string, unknown]>): RequestContext {
    return {
      requestId: 9,
      _meta: {},
      protocolVersion: "2026-07-28",
      signal,
      notify: async (method, params) => void notified.push([method, params]),
      request: async () => ({}),
    };
  }

  it("acknowledges the honored filter tagged with the request id, delivers what is published, and answers when cancelled", async () => {
    const audience = new Audience();
    const notified: Array<[string, unknown]> = [];
    const abort = new AbortController();
    const tag = { "io.modelcontextprotocol/subscriptionId": 9 };
    const answer = listenHandler(capabilities, [], audience)({ notifications: { toolsListChanged: true, promptsListChanged: true } }, context(abort.signal, notified));
    await new Promise((r) => setImmediate(r));
    await audience.deliver("notifications/tools/list_changed", { _meta: { k: 1 } });
    abort.abort();
    expect(await answer).toEqual({ _meta: tag });
    expect(notified).toEqual([
      ["notifications/subscriptions/acknowledged", { notifications: { toolsListChanged: true }, _meta: tag }],
      ["notifications/tools/list_changed", { _meta: { k: 1, ...tag } }],
    ]);
  });

  it("refuses a request without a SubscriptionFilter with -32602", async () => {
    await expect(listenHandler(capabilities, [], new Audience())({}, context(new AbortController().signal, []))).rejects.toMatchObject({ code: -32602 });
  });
});
