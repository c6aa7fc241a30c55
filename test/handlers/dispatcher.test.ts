// The dispatcher rules: one error-code case per rule, in both eras.
import { MODERN_META } from "./modern-meta.js";
import { describe, expect, it, vi } from "vitest";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import type { Dispatcher, DispatcherOptions } from "../../generated/2025-06-18/index.js";
import * as legacy from "../../generated/2025-06-18/index.js";
import * as modern from "../../generated/2026-07-28/index.js";
import { forVersion } from "../../generated/index.js";
import { missingMethodWhy } from "../support.js";

// Both eras run the same cases; the handlers here are untyped on purpose (type tests are in types.test.ts).
type LooseHandlers = Record<string, (params: any, context: any) => unknown>;
interface LooseModule {
  createServerDispatcher(handlers: LooseHandlers, options?: DispatcherOptions): Dispatcher;
  createClientDispatcher(handlers: LooseHandlers, options?: DispatcherOptions): Dispatcher;
  JsonRpcError: typeof legacy.JsonRpcError;
  PeerError: typeof legacy.PeerError;
}

/**
 * The module with result validation off by default: these cases pin the dispatcher's own rules with
 * minimal results (test/emit/typescript/dispatch.test.ts covers result validation, which is on by default).
 * Failures go to a silent hook unless a case passes its own (one case tests the default hook).
 */
function withoutResultValidation(mod: LooseModule): LooseModule {
  const quiet = { validateResults: false, onError: () => {} };
  return {
    ...mod,
    createServerDispatcher: (handlers, options) => mod.createServerDispatcher(handlers, { ...quiet, ...options }),
    createClientDispatcher: (handlers, options) => mod.createClientDispatcher(handlers, { ...quiet, ...options }),
  };
}

const eras = [
  {
    era: "legacy",
    version: "2025-06-18",
    mod: withoutResultValidation(legacy as LooseModule),
    // The version's METHOD_TABLE: subscriptions/listen is a later version's method (which, read from the lock).
    missing: "subscriptions/listen",
    missingWhy: missingMethodWhy("2025-06-18", "subscriptions/listen"),
    withParams: { method: "resources/read", params: { uri: "file:///a" } },
    listParams: undefined as unknown,
  },
  {
    era: "modern",
    version: "2026-07-28",
    mod: withoutResultValidation(modern as unknown as LooseModule),
    // The version's METHOD_TABLE: resources/subscribe was removed after the last legacy version (which, read from the lock).
    missing: "resources/subscribe",
    missingWhy: missingMethodWhy("2026-07-28", "resources/subscribe"),
    withParams: { method: "resources/read", params: { _meta: MODERN_META, uri: "file:///a" } },
    listParams: { _meta: MODERN_META } as unknown,
  },
] as const;

const request = (id: string | number, method: string, params?: unknown) =>
  params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };

describe.each(eras)("$era era ($version)", ({ era, version, mod, missing, missingWhy, withParams, listParams }) => {
  const contents = { contents: [{ uri: "file:///a", text: "a" }] };

  it("a method of another version → -32601 with the table's verdict, naming the method and both versions", async () => {
    const d = mod.createServerDispatcher({});
    expect(await d.handle(request(1, missing, { uri: "file:///a" }))).toStrictEqual({
      jsonrpc: "2.0",
      id: 1,
      error: {
        code: -32601,
        message: `Method not found: ${missing} is not a method of protocol version ${version} ${missingWhy.text}`,
        data: { method: missing, protocolVersion: version, reason: missingWhy.reason },
      },
    });
  });

  it("a method no version has → -32601 unknown, naming the method and the version", async () => {
    const d = mod.createServerDispatcher({});
    expect(await d.handle(request(1, "x-vendor/unknown", {}))).toStrictEqual({
      jsonrpc: "2.0",
      id: 1,
      error: {
        code: -32601,
        message: `Method not found: x-vendor/unknown is not a method of protocol version ${version}`,
        data: { method: "x-vendor/unknown", protocolVersion: version, reason: "unknown" },
      },
    });
  });

  it("a method with no handler → -32601 naming the method and the version", async () => {
    const d = mod.createServerDispatcher({});
    expect(await d.handle(request(2, withParams.method, withParams.params))).toStrictEqual({
      jsonrpc: "2.0",
      id: 2,
      error: { code: -32601, message: `Method not found: no handler for resources/read (protocol version ${version})` },
    });
  });

  it("required params missing → -32602", async () => {
    const handler = vi.fn(() => contents);
    const d = mod.createServerDispatcher({ "resources/read": handler });
    expect(await d.handle(request(4, "resources/read"))).toStrictEqual({
      jsonrpc: "2.0",
      id: 4,
      error: { code: -32602, message: "Invalid params: resources/read requires params (an object)" },
    });
    expect(handler).not.toHaveBeenCalled();
  });

  it.each([["an array", [1]], ["a string", "file:///a"], ["null", null], ["a number", 1]])("params that are %s → -32602", async (_n, params) => {
    const d = mod.createServerDispatcher({ "resources/read": () => contents });
    expect(await d.handle(request(5, "resources/read", params))).toStrictEqual({
      jsonrpc: "2.0",
      id: 5,
      error: { code: -32602, message: "Invalid params: resources/read params must be an object" },
    });
  });

  it("a handler throwing a JsonRpcError → its code, message and data", async () => {
    const d = mod.createServerDispatcher({
      "resources/read": () => {
        throw new mod.JsonRpcError(-32002, "Resource not found", { uri: "file:///a" });
      },
    });
    expect(await d.handle(request(6, withParams.method, withParams.params))).toStrictEqual({
      jsonrpc: "2.0",
      id: 6,
      error: { code: -32002, message: "Resource not found", data: { uri: "file:///a" } },
    });
  });

  it("an async handler rejecting with the SDK's McpError → its code and message", async () => {
    const d = mod.createServerDispatcher({
      "resources/read": async () => {
        throw new McpError(-32602, "Unknown resource");
      },
    });
    expect(await d.handle(request(7, withParams.method, withParams.params))).toStrictEqual({
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32602, message: "MCP error -32602: Unknown resource" },
    });
  });

  it.each([
    ["an Error", new Error("db password is hunter2")],
    ["a string", "boom"],
    ["an error with a non-numeric code", Object.assign(new Error("ENOENT: /etc/secret"), { code: "ENOENT" })],
    ["an error with a fractional code", Object.assign(new Error("x"), { code: 1.5 })],
  ])("a handler throwing %s → -32603 Internal error, nothing more", async (_n, thrown) => {
    const d = mod.createServerDispatcher({
      "resources/read": () => {
        throw thrown;
      },
    });
    expect(await d.handle(request("req-8", withParams.method, withParams.params))).toStrictEqual({
      jsonrpc: "2.0",
      id: "req-8",
      error: { code: -32603, message: "Internal error" },
    });
  });

  it("the response echoes the request id, string or number", async () => {
    const d = mod.createServerDispatcher({ "tools/list": () => ({ tools: [] }) });
    const expected = version === "2026-07-28" ? { tools: [], resultType: "complete" } : { tools: [] };
    expect(await d.handle(request("abc", "tools/list", listParams))).toStrictEqual({ jsonrpc: "2.0", id: "abc", result: expected });
    expect(await d.handle(request(0, "tools/list", listParams))).toStrictEqual({ jsonrpc: "2.0", id: 0, result: expected });
  });

  it("the handler gets the params, the request id, the request's _meta and the version", async () => {
    const handler = vi.fn((_params: unknown, _context: unknown) => contents);
    const d = mod.createServerDispatcher({ "resources/read": handler });
    const meta = { ...(era === "modern" ? MODERN_META : {}), progressToken: "p" };
    const params = { ...withParams.params, _meta: meta };
    await d.handle(request(9, "resources/read", params));
    const [gotParams, context] = handler.mock.calls[0] as [unknown, { requestId: unknown; _meta: unknown; protocolVersion: unknown; signal: AbortSignal }];
    expect(gotParams).toStrictEqual(params);
    expect(context.requestId).toBe(9);
    expect(context._meta).toStrictEqual(meta);
    expect(context.protocolVersion).toBe(version);
    expect(context.signal.aborted).toBe(false);
  });

  it("notifications are never answered, known, unknown or failing", async () => {
    const onError = vi.fn();
    const d = mod.createServerDispatcher(
      {
        "notifications/cancelled": () => {
          throw new Error("handler failed");
        },
      },
      { onError },
    );
    expect(await d.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } })).toBeUndefined();
    expect(await d.handle({ jsonrpc: "2.0", method: "notifications/unknown" })).toBeUndefined();
    expect(await d.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: "bad" })).toBeUndefined();
  });

  it("a throwing or rejecting notification handler is reported to onError", async () => {
    const onError = vi.fn();
    const failure = new Error("handler failed");
    const d = mod.createClientDispatcher(
      {
        "notifications/progress": () => {
          throw failure;
        },
        "notifications/message": async () => {
          throw failure;
        },
      },
      { onError },
    );
    const progress = { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: "p", progress: 1 } };
    const message = { jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "x" } };
    expect(await d.handle(progress)).toBeUndefined();
    expect(await d.handle(message)).toBeUndefined();
    expect(onError).toHaveBeenCalledTimes(2);
    expect(onError).toHaveBeenNthCalledWith(1, failure, { kind: "notification", method: "notifications/progress", protocolVersion: version });
    expect(onError).toHaveBeenNthCalledWith(2, failure, { kind: "notification", method: "notifications/message", protocolVersion: version });
  });

  it("notifications/cancelled aborts the in-flight request's signal, and it is not answered", async () => {
    let seen: AbortSignal | undefined;
    const d = mod.createServerDispatcher({
      "resources/read": (_p, context) =>
        new Promise((resolve) => {
          seen = context.signal;
          context.signal.addEventListener("abort", () => resolve(contents));
        }),
    });
    const pending = d.handle(request(10, withParams.method, withParams.params));
    await Promise.resolve();
    expect(seen?.aborted).toBe(false);
    await d.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 10, reason: "user" } });
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toBe("user");
    expect(await pending).toBeUndefined();
  });

  it("notifications/cancelled reaches only the request of the same scope (ids are unique per peer)", async () => {
    const signals: AbortSignal[] = [];
    const d = mod.createServerDispatcher({
      "resources/read": (_p, context) =>
        new Promise((resolve) => {
          signals.push(context.signal);
          context.signal.addEventListener("abort", () => resolve(contents));
          setTimeout(() => resolve(contents), 50);
        }),
    });
    const [alice, bob] = [{}, {}];
    // Bob's request goes first: were scopes ignored, Alice's same id would shadow it and be cancelled.
    const fromBob = d.handle(request(11, withParams.method, withParams.params), { scope: bob });
    const fromAlice = d.handle(request(11, withParams.method, withParams.params), { scope: alice });
    await Promise.resolve();
    await d.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 11 } }, { scope: bob });
    expect(signals.map((s) => s.aborted)).toEqual([true, false]);
    expect(await fromBob).toBeUndefined();
    expect(await fromAlice).toMatchObject({ jsonrpc: "2.0", id: 11, result: contents });
  });

  it("a client dispatcher does not answer what a client sends → -32601", async () => {
    const d = mod.createClientDispatcher({});
    expect(await d.handle(request(12, "tools/list", listParams))).toStrictEqual({
      jsonrpc: "2.0",
      id: 12,
      error: {
        code: -32601,
        message: `Method not found: tools/list is sent by the client only in protocol version ${version}`,
        data: { method: "tools/list", protocolVersion: version, reason: "wrong_side" },
      },
    });
  });

  it("a throwing or rejecting request handler is reported to onError with its id, and answered without internals", async () => {
    const onError = vi.fn();
    const secret = new Error("db password is hunter2");
    const coded = new mod.JsonRpcError(-32002, "Resource not found");
    const d = mod.createServerDispatcher(
      {
        "resources/read": async (params: { uri: string }) => {
          throw params.uri === "file:///coded" ? coded : secret;
        },
      },
      { onError },
    );
    expect(await d.handle(request("r1", withParams.method, withParams.params))).toStrictEqual({
      jsonrpc: "2.0",
      id: "r1",
      error: { code: -32603, message: "Internal error" },
    });
    expect(await d.handle(request(2, "resources/read", { ...withParams.params, uri: "file:///coded" }))).toStrictEqual({
      jsonrpc: "2.0",
      id: 2,
      error: { code: -32002, message: "Resource not found" },
    });
    expect(onError.mock.calls).toEqual([
      [secret, { kind: "request", method: "resources/read", id: "r1", protocolVersion: version }],
      [coded, { kind: "request", method: "resources/read", id: 2, protocolVersion: version }],
    ]);
    expect(onError.mock.calls[0][0]).toBe(secret);
    expect(onError.mock.calls[1][0]).toBe(coded);
  });

  it("a thrown PeerError (the peer's own mistake) is answered with its code, message and data, and not reported to onError", async () => {
    const onError = vi.fn();
    const d = mod.createServerDispatcher(
      {
        "resources/read": (params: { uri: string }) => {
          throw new mod.PeerError(-32002, "Resource not found", { uri: params.uri });
        },
      },
      { onError },
    );
    expect(await d.handle(request(4, withParams.method, withParams.params))).toStrictEqual({
      jsonrpc: "2.0",
      id: 4,
      error: { code: -32002, message: "Resource not found", data: { uri: (withParams.params as { uri: string }).uri } },
    });
    expect(onError).not.toHaveBeenCalled();
  });

  it("a result that is not sent is reported to onError as kind result, with the -32603 the peer got", async () => {
    const onError = vi.fn();
    const d = mod.createServerDispatcher({ "resources/read": () => "not an object" }, { onError });
    const response = await d.handle(request(3, withParams.method, withParams.params));
    expect(response).toMatchObject({ jsonrpc: "2.0", id: 3, error: { code: -32603 } });
    expect((response as { error: { message: string } }).error.message).toMatch(/^Internal error: the resources\/read handler returned a string; expected .*ReadResourceResult/);
    expect(onError).toHaveBeenCalledTimes(1);
    const [error, context] = onError.mock.calls[0] as [{ code: number; message: string }, unknown];
    expect(context).toStrictEqual({ kind: "result", method: "resources/read", id: 3, protocolVersion: version });
    expect({ code: error.code, message: error.message }).toStrictEqual((response as { error: object }).error);
  });

  it("the default onError writes one line to stderr, nothing to stdout, and the answer is unchanged", async () => {
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const stdout = vi.spyOn(process.stdout, "write");
    try {
      const d = mod.createServerDispatcher(
        {
          "resources/read": () => {
            throw new Error("disk full\nat line two");
          },
        },
        { onError: undefined },
      );
      expect(await d.handle(request(4, withParams.method, withParams.params))).toStrictEqual({
        jsonrpc: "2.0",
        id: 4,
        error: { code: -32603, message: "Internal error" },
      });
      expect(stderr.mock.calls).toEqual([[`mcp-codegen ${version}: the resources/read handler (request 4) failed: Error: disk full at line two\n`]]);
      expect(stdout).not.toHaveBeenCalled();
    } finally {
      stderr.mockRestore();
      stdout.mockRestore();
    }
  });

  it("a hook that throws changes nothing", async () => {
    const d = mod.createServerDispatcher(
      {
        "resources/read": () => {
          throw new Error("x");
        },
      },
      {
        onError: () => {
          throw new Error("hook failed");
        },
      },
    );
    expect(await d.handle(request(5, withParams.method, withParams.params))).toStrictEqual({ jsonrpc: "2.0", id: 5, error: { code: -32603, message: "Internal error" } });
  });

  it.each([
    ["a BigInt", { contents: [{ uri: "file:///a", text: "a", size: 1n }] }, "a bigint at /contents/0/size"],
    ["a function", { contents: [{ uri: "file:///a", text: "a" }], _meta: { f: () => 1 } }, "a function at /_meta/f"],
    ["NaN", { contents: [{ uri: "file:///a", text: "a", n: Number.NaN }] }, "NaN at /contents/0/n"],
    ["undefined in an array", { contents: [undefined] }, "undefined at /contents/0"],
  ])("a result holding %s → -32603 naming the method and where; it survives JSON.stringify", async (_n, returned, where) => {
    const onError = vi.fn();
    const d = mod.createServerDispatcher({ "resources/read": () => returned }, { onError });
    const response = await d.handle(request(6, withParams.method, withParams.params));
    expect(response).toStrictEqual({
      jsonrpc: "2.0",
      id: 6,
      error: { code: -32603, message: `Internal error: the resources/read handler's result cannot be sent as JSON (${where})` },
    });
    expect(JSON.parse(JSON.stringify(response))).toStrictEqual(response);
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: -32603 }), { kind: "result", method: "resources/read", id: 6, protocolVersion: version });
  });

  it("a result with a cycle → -32603 naming the method; a shared (acyclic) object is fine", async () => {
    const item: Record<string, unknown> = { uri: "file:///a", text: "a" };
    item.self = item;
    const cyclic = { contents: [item] };
    const shared = { uri: "file:///b", text: "b" };
    const d = mod.createServerDispatcher({ "resources/read": (p: { uri: string }) => (p.uri === "file:///a" ? cyclic : { contents: [shared, shared] }) }, { onError: () => {} });
    expect(await d.handle(request(7, withParams.method, withParams.params))).toStrictEqual({
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32603, message: "Internal error: the resources/read handler's result cannot be sent as JSON (a cycle at /contents/0/self)" },
    });
    expect(await d.handle(request(8, "resources/read", { ...withParams.params, uri: "file:///b" }))).toMatchObject({ id: 8, result: { contents: [shared, shared] } });
    // Exactly the handler's result (plus the modern era's resultType): the shared object is sent twice, not dropped or rewritten.
    expect(await d.handle(request(10, "resources/read", { ...withParams.params, uri: "file:///b" }))).toStrictEqual({
      jsonrpc: "2.0",
      id: 10,
      result: { contents: [shared, shared], ...(era === "modern" ? { resultType: "complete" } : {}) },
    });
  });

  it("a coded error whose data JSON cannot carry → -32603 naming the method, not the data", async () => {
    const d = mod.createServerDispatcher(
      {
        "resources/read": () => {
          throw new mod.JsonRpcError(-32002, "Resource not found", { size: 2n });
        },
      },
      { onError: () => {} },
    );
    expect(await d.handle(request(9, withParams.method, withParams.params))).toStrictEqual({
      jsonrpc: "2.0",
      id: 9,
      error: { code: -32603, message: "Internal error: the resources/read handler's error data cannot be sent as JSON (a bigint at /size)" },
    });
  });

  it("a message that is not JSON-RPC → -32600; a response → undefined", async () => {
    const d = mod.createServerDispatcher({});
    expect(await d.handle({ id: 13, method: "tools/list" })).toStrictEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: 'Invalid Request: expected jsonrpc "2.0" and a string method' },
    });
    expect(await d.handle({ jsonrpc: "2.0", id: { no: 1 }, method: "tools/list" })).toStrictEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: "Invalid Request: the id must be a string or an integer" },
    });
    expect(await d.handle([1])).toStrictEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: expected a JSON-RPC message object" } });
    expect(await d.handle({ jsonrpc: "2.0", id: 14, result: {} })).toBeUndefined();
  });

  it("the envelope rule: jsonrpc 2.0 is required of notifications too; an object that is no message → -32600 id null; responses are never answered", async () => {
    const invalid = (id: unknown, message: string) => ({ jsonrpc: "2.0", id, error: { code: -32600, message: `Invalid Request: ${message}` } });
    const d = mod.createServerDispatcher({});
    expect(await d.handle({ method: "notifications/initialized" })).toStrictEqual(invalid(null, 'expected jsonrpc "2.0" and a string method'));
    expect(await d.handle({ jsonrpc: "1.0", method: "notifications/initialized" })).toStrictEqual(invalid(null, 'expected jsonrpc "2.0" and a string method'));
    expect(await d.handle({ jsonrpc: "2.0", method: 7 })).toStrictEqual(invalid(null, 'expected jsonrpc "2.0" and a string method'));
    expect(await d.handle({})).toStrictEqual(invalid(null, "expected a method, or a result or error"));
    expect(await d.handle({ jsonrpc: "2.0", id: 15 })).toStrictEqual(invalid(null, "expected a method, or a result or error"));
    expect(await d.handle({ jsonrpc: "2.0", id: null, method: "ping" })).toStrictEqual(invalid(null, "the id must be a string or an integer"));
    expect(await d.handle({ jsonrpc: "2.0", id: 1.5, method: "ping" })).toStrictEqual(invalid(null, "the id must be a string or an integer"));
    expect(await d.handle(new (class { jsonrpc = "2.0"; id = 16; method = "ping" })())).toStrictEqual(invalid(null, "expected a JSON-RPC message object"));
    // Malformed responses are not answered either: two peers must not answer each other's errors forever.
    expect(await d.handle({ id: 17, error: "bad" })).toBeUndefined();
    expect(await d.handle({ jsonrpc: "2.0", result: {}, error: {} })).toBeUndefined();
    expect(await d.handle({ jsonrpc: "2.0", method: "notifications/initialized" })).toBeUndefined();
  });

  it("validator hooks: a params hook failing is -32602; a result hook replaces the result", async () => {
    const d = mod.createServerDispatcher(
      { "resources/read": () => contents },
      {
        validators: {
          "resources/read": {
            params: (p) => {
              if ((p as { uri?: string }).uri !== "file:///ok") throw new Error("bad uri");
              return p;
            },
            result: (r) => ({ ...r, checked: true }),
          },
        },
      },
    );
    expect(await d.handle(request(15, withParams.method, withParams.params))).toStrictEqual({
      jsonrpc: "2.0",
      id: 15,
      error: { code: -32602, message: "Invalid params for resources/read" },
    });
    const ok = await d.handle(request(16, "resources/read", { ...withParams.params, uri: "file:///ok" }));
    expect(ok).toMatchObject({ id: 16, result: { checked: true } });
    const coded = mod.createServerDispatcher(
      { "resources/read": () => contents },
      {
        validators: {
          "resources/read": {
            params: () => {
              throw new mod.JsonRpcError(-32602, "uri: expected a file URI", { path: ["uri"] });
            },
          },
        },
      },
    );
    expect(await coded.handle(request(17, withParams.method, withParams.params))).toStrictEqual({
      jsonrpc: "2.0",
      id: 17,
      error: { code: -32602, message: "uri: expected a file URI", data: { path: ["uri"] } },
    });
  });
});

describe("legacy only: the modern era has no request a server sends (it asks through InputRequiredResult)", () => {
  it("a server dispatcher does not answer a request a server sends → -32601", async () => {
    const d = legacy.createServerDispatcher({});
    expect(await d.handle(request(3, "sampling/createMessage", {}))).toStrictEqual({
      jsonrpc: "2.0",
      id: 3,
      error: {
        code: -32601,
        message: "Method not found: sampling/createMessage is sent by the server only in protocol version 2025-06-18",
        data: { method: "sampling/createMessage", protocolVersion: "2025-06-18", reason: "wrong_side" },
      },
    });
  });

  it("answers what a server sends", async () => {
    const d = legacy.createClientDispatcher({ "roots/list": () => ({ roots: [{ uri: "file:///r" }] }) });
    expect(await d.handle(request(11, "roots/list"))).toStrictEqual({ jsonrpc: "2.0", id: 11, result: { roots: [{ uri: "file:///r" }] } });
  });
});

describe("optional params", () => {
  it("legacy: a request whose params may be omitted gives the handler undefined", async () => {
    const handler = vi.fn((_params: unknown) => ({ tools: [] }));
    const d = legacy.createServerDispatcher({ "tools/list": handler });
    expect(await d.handle(request(1, "tools/list"))).toStrictEqual({ jsonrpc: "2.0", id: 1, result: { tools: [] } });
    expect(handler.mock.calls[0][0]).toBeUndefined();
  });

  it("modern: tools/list requires params (its _meta), so omitting them is -32602", async () => {
    const d = modern.createServerDispatcher({ "tools/list": () => ({ tools: [], cacheScope: "public", ttlMs: 0 }) });
    expect(await d.handle(request(1, "tools/list"))).toMatchObject({ error: { code: -32602 } });
  });
});

describe("generated/index.ts", () => {
  it("offers each version's dispatchers", async () => {
    const d = forVersion("2024-11-05").createServerDispatcher({ ping: () => undefined });
    expect(await d.handle(request(1, "ping"))).toStrictEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(typeof forVersion("2026-07-28").createClientDispatcher).toBe("function");
  });
});
