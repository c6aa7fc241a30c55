// The result normalizer rules, pinned line by line, through each version's dispatcher.
import { MODERN_META } from "./modern-meta.js";
import { describe, expect, it } from "vitest";
import * as v20241105 from "../../generated/2024-11-05/index.js";
import * as v20250326 from "../../generated/2025-03-26/index.js";
import * as v20250618 from "../../generated/2025-06-18/index.js";
import * as v20251125 from "../../generated/2025-11-25/index.js";
import * as v20260728 from "../../generated/2026-07-28/index.js";

const legacy = [
  ["2024-11-05", v20241105],
  ["2025-03-26", v20250326],
  ["2025-06-18", v20250618],
  ["2025-11-25", v20251125],
] as const;

type AnyDispatcherModule = { createServerDispatcher: (handlers: never, options?: object) => { handle(m: unknown): Promise<unknown> } };

/**
 * What a server dispatcher answers when `method`'s handler returns `returned`. Result validation is
 * off: these tests pin what the normalizer sends (test/emit/typescript/dispatch.test.ts covers validation).
 */
async function answer(mod: AnyDispatcherModule, method: string, params: unknown, returned: unknown): Promise<unknown> {
  const dispatcher = mod.createServerDispatcher({ [method]: () => returned } as never, { validateResults: false });
  return dispatcher.handle({ jsonrpc: "2.0", id: 7, method, params });
}

const subscribeParams = { uri: "file:///watched.txt" };

// Each row: what the handler returned → the result sent (legacy era).
const emptyTable: Array<[string, unknown, object]> = [
  ["a _meta object passes through", { _meta: { "example.com/trace": "t-1" } }, { _meta: { "example.com/trace": "t-1" } }],
  ["{ subscriptionId } gives {}", { subscriptionId: "sub-1" }, {}],
  ["_meta plus extra fields gives only the _meta", { _meta: { k: "v" }, subscriptionId: "sub-1", extra: 1 }, { _meta: { k: "v" } }],
  ["a string _meta gives {}", { _meta: "m" }, {}],
  ["a number _meta gives {}", { _meta: 1 }, {}],
  ["an array _meta gives {}", { _meta: [{ k: "v" }] }, {}],
  ["a null _meta gives {}", { _meta: null }, {}],
  ["undefined gives {}", undefined, {}],
  ["null gives {}", null, {}],
  ["a string gives {}", "ok", {}],
  ["a number gives {}", 42, {}],
  ["an array gives {}", [{ _meta: { k: "v" } }], {}],
  ["an object without _meta gives {}", { other: true }, {}],
  ["a class instance with _meta gives {}", new (class { _meta = { k: "v" } })(), {}],
];

describe.each(legacy)("empty results on %s", (version, mod) => {
  describe.each(["resources/subscribe", "resources/unsubscribe"])("%s", (method) => {
    it.each(emptyTable)("%s", async (_name, returned, expected) => {
      const response = await answer(mod, method, subscribeParams, returned);
      expect(response).toStrictEqual({ jsonrpc: "2.0", id: 7, result: expected });
    });

    it("passes the handler's _meta object by reference", async () => {
      const meta = { k: "v" };
      const response = (await answer(mod, method, subscribeParams, { _meta: meta, subscriptionId: "s" })) as { result: { _meta: object } };
      expect(response.result._meta).toBe(meta);
    });

    it("never reads an inherited _meta", async () => {
      const returned = Object.create({ _meta: { inherited: true } }) as object;
      expect(await answer(mod, method, subscribeParams, returned)).toStrictEqual({ jsonrpc: "2.0", id: 7, result: {} });
      const nullProto = Object.assign(Object.create(null) as object, { subscriptionId: "s" });
      expect(await answer(mod, method, subscribeParams, nullProto)).toStrictEqual({ jsonrpc: "2.0", id: 7, result: {} });
    });
  });

  it(`${version}: a handler returning nothing is {} for ping and logging/setLevel too`, async () => {
    expect(await answer(mod, "ping", undefined, undefined)).toStrictEqual({ jsonrpc: "2.0", id: 7, result: {} });
    expect(await answer(mod, "logging/setLevel", { level: "info" }, { _meta: { k: 1 }, level: "x" })).toStrictEqual({
      jsonrpc: "2.0",
      id: 7,
      result: { _meta: { k: 1 } },
    });
  });
});

describe("empty results in the modern era: subscriptions/listen on 2026-07-28", () => {
  const params = { _meta: MODERN_META, notifications: {} };
  const modernTable: Array<[string, unknown, object]> = emptyTable.map(([name, returned, expected]) => [name, returned, { ...expected, resultType: "complete" }]);

  it.each(modernTable)("%s, with resultType complete", async (_name, returned, expected) => {
    const response = await answer(v20260728, "subscriptions/listen", params, returned);
    expect(response).toStrictEqual({ jsonrpc: "2.0", id: 7, result: expected });
  });

  it("a resultType the handler returned is not sent through: the result is always complete", async () => {
    const response = await answer(v20260728, "subscriptions/listen", params, { _meta: { k: "v" }, resultType: "input_required" });
    expect(response).toStrictEqual({ jsonrpc: "2.0", id: 7, result: { _meta: { k: "v" }, resultType: "complete" } });
  });
});

describe("a _meta parsed from JSON with __proto__ and constructor keys", () => {
  it.each([...legacy, ["2026-07-28", v20260728] as const])("passes through as data on %s, no prototype changes", async (version, mod) => {
    const meta = JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "k": "v"}') as object;
    const returned = JSON.parse('{"subscriptionId": "s", "__proto__": {"polluted": true}}') as object;
    Object.defineProperty(returned, "_meta", { value: meta, enumerable: true });
    const method = version === "2026-07-28" ? "subscriptions/listen" : "resources/subscribe";
    const params = version === "2026-07-28" ? { _meta: MODERN_META, notifications: {} } : subscribeParams;
    const response = (await answer(mod, method, params, returned)) as { result: Record<string, unknown> };
    expect(response.result._meta).toBe(meta);
    expect(Object.getPrototypeOf(response.result)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(meta)).toBe(Object.prototype);
    expect(Object.keys(meta)).toEqual(["__proto__", "constructor", "k"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const metaJson = '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"k":"v"}';
    expect(JSON.stringify(response.result)).toBe(version === "2026-07-28" ? `{"_meta":${metaJson},"resultType":"complete"}` : `{"_meta":${metaJson}}`);
  });
});

describe("a getter that throws", () => {
  it.each([
    ["resources/subscribe on 2025-06-18", v20250618, "resources/subscribe", subscribeParams],
    ["subscriptions/listen on 2026-07-28", v20260728, "subscriptions/listen", { _meta: MODERN_META, notifications: {} }],
    ["tools/list on 2025-06-18", v20250618, "tools/list", undefined],
    ["tools/list on 2026-07-28", v20260728, "tools/list", { _meta: MODERN_META }],
  ] as const)("gives -32603 on %s", async (_name, mod, method, params) => {
    const returned = {
      get _meta(): never {
        throw new Error("secret detail");
      },
    };
    const response = await answer(mod, method, params, returned);
    expect(response).toStrictEqual({ jsonrpc: "2.0", id: 7, error: { code: -32603, message: "Internal error" } });
  });
});

describe("object results", () => {
  const tool = { name: "echo", inputSchema: { type: "object" } };

  it.each(legacy)("%s: a plain object is sent as returned; extra fields kept", async (_v, mod) => {
    const returned = { tools: [tool], nextCursor: "c", "example.com/extra": 1, _meta: { k: "v" } };
    expect(await answer(mod, "tools/list", undefined, returned)).toStrictEqual({ jsonrpc: "2.0", id: 7, result: returned });
  });

  it.each(legacy)("%s: undefined fields and a non-object _meta are dropped", async (_v, mod) => {
    const returned = { tools: [tool], nextCursor: undefined, _meta: "not an object" };
    expect(await answer(mod, "tools/list", undefined, returned)).toStrictEqual({ jsonrpc: "2.0", id: 7, result: { tools: [tool] } });
  });

  it("the handler's object is not modified when fields are dropped", async () => {
    const returned = { tools: [tool], nextCursor: undefined, _meta: [1] };
    await answer(v20250618, "tools/list", undefined, returned);
    expect(returned).toStrictEqual({ tools: [tool], nextCursor: undefined, _meta: [1] });
  });

  it("a top-level __proto__ field from JSON stays a field", async () => {
    const returned = JSON.parse('{"tools": [], "__proto__": {"polluted": true}, "dropped": null}') as Record<string, unknown>;
    returned.undef = undefined;
    const response = (await answer(v20250618, "tools/list", undefined, returned)) as { result: object };
    expect(Object.getPrototypeOf(response.result)).toBe(Object.prototype);
    expect(Object.keys(response.result)).toEqual(["tools", "__proto__", "dropped"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ["undefined", undefined, "undefined"],
    ["null", null, "null"],
    ["a string", "tools", "a string"],
    ["an array", [tool], "an array"],
    ["a class instance", new Date(0), "an object that is not a plain object"],
  ])("%s is answered -32603 naming the method and the expected type (legacy)", async (_name, returned, described) => {
    expect(await answer(v20250618, "tools/list", undefined, returned)).toStrictEqual({
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32603, message: `Internal error: the tools/list handler returned ${described}; expected ListToolsResult` },
    });
  });

  it("a non-object is answered -32603 naming the method and the union it expects (modern)", async () => {
    expect(await answer(v20260728, "tools/call", { _meta: MODERN_META, name: "echo" }, "text")).toStrictEqual({
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32603, message: "Internal error: the tools/call handler returned a string; expected InputRequiredResult | CallToolResult" },
    });
  });

  it("modern: resultType defaults to complete", async () => {
    expect(await answer(v20260728, "tools/list", { _meta: MODERN_META }, { tools: [tool] })).toStrictEqual({
      jsonrpc: "2.0",
      id: 7,
      result: { tools: [tool], resultType: "complete" },
    });
  });

  it("modern: an InputRequiredResult keeps its resultType where the union allows it", async () => {
    const returned = { resultType: "input_required", requestState: "state-1" };
    expect(await answer(v20260728, "tools/call", { _meta: MODERN_META, name: "echo" }, returned)).toStrictEqual({ jsonrpc: "2.0", id: 7, result: returned });
  });

  it("modern: input_required where the union does not allow it is -32603, nothing malformed sent", async () => {
    expect(await answer(v20260728, "tools/list", { _meta: MODERN_META }, { resultType: "input_required", requestState: "s" })).toStrictEqual({
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32603, message: 'Internal error: the tools/list handler returned resultType "input_required"; expected ListToolsResult with resultType "complete"' },
    });
  });

  it("legacy: resultType is not added", async () => {
    expect(await answer(v20251125, "tools/list", undefined, { tools: [] })).toStrictEqual({ jsonrpc: "2.0", id: 7, result: { tools: [] } });
  });

  it("tasks/result on 2025-11-25 is an object result (overridden): its payload is kept", async () => {
    const payload = { content: [{ type: "text", text: "done" }], _meta: { k: "v" } };
    expect(await answer(v20251125, "tasks/result", { taskId: "t" }, payload)).toStrictEqual({ jsonrpc: "2.0", id: 7, result: payload });
  });
});

describe("the exported normalizers", () => {
  it("are named after the request definition and mapped by method", () => {
    expect(v20250618.resultNormalizers["resources/subscribe"]).toBe(v20250618.normalizeSubscribeResult);
    expect(v20250618.resultNormalizers["tools/call"]).toBe(v20250618.normalizeCallToolResult);
    expect(v20260728.resultNormalizers["subscriptions/listen"]).toBe(v20260728.normalizeSubscriptionsListenResult);
    expect(Object.keys(v20250618.resultNormalizers).sort()).toEqual(Object.keys(v20250618.requests).sort());
  });

  it("normalize directly, without a dispatcher", () => {
    expect(v20241105.normalizeUnsubscribeResult({ _meta: { k: "v" }, subscriptionId: "s" })).toStrictEqual({ _meta: { k: "v" } });
    expect(v20260728.normalizeSubscriptionsListenResult(undefined)).toStrictEqual({ resultType: "complete" });
    expect(() => v20250326.normalizeListToolsResult(null)).toThrow(v20250326.JsonRpcError);
  });
});
