// The modern side of a router over a synthetic table: the envelope's _meta keys, the -32022 of an
// unserved version, server/discover, extension routing (-32021 without negotiation) and Mcp-Name params.
import { describe, expect, it } from "vitest";
import { createDispatcher, type DispatcherOptions } from "../src/dispatcher.js";
import type { RoutedMethodTable } from "../src/method-gate.js";
import { objectNormalizer } from "../src/normalize.js";
import { eraOf, modernRoutes } from "../src/router-modern.js";
import { ServedVersions } from "../src/router-served.js";
import { Audience } from "../src/router-subscriptions.js";
import { METHOD_NOT_FOUND } from "../protocol.js";

// A request a client sends: the server accepts it, a client refuses it (the table's verdicts; the message is this test's).
const verdicts = { server: { accepted: true }, client: { accepted: false, code: METHOD_NOT_FOUND, reason: "wrong_side", message: "Method not found: sent by the client only", policy: null } } as const;
const present = (nameParam: string | null = null) => ({ status: "present", sender: "client", receivers: ["server"], nearest: null, verdicts, nameParam, resultTypes: ["complete"] });

function dispatcherOver(label: string, methods: string[], methodTable: RoutedMethodTable) {
  return (handlers: object, options?: DispatcherOptions) =>
    createDispatcher(
      { protocolVersion: label, side: "server", requests: Object.fromEntries(methods.map((m) => [m, { paramsRequired: false, normalize: objectNormalizer(m, m, ["complete"]) }])), notifications: [], methodTable },
      handlers,
      options,
    );
}

const core: RoutedMethodTable = { "tools/call": present("name"), "server/discover": present(), "subscriptions/listen": present() };
const withExt: RoutedMethodTable = { ...core, "ext/get": present("id") };
const table = {
  versions: [
    {
      label: "next" as const,
      era: "modern" as const,
      methodTable: core,
      customResultTypes: ["complete"],
      createDispatcher: dispatcherOver("next", ["tools/call", "server/discover", "subscriptions/listen"], core),
      extensions: { "example.com/ext": { createDispatcher: dispatcherOver("next", ["tools/call", "server/discover", "subscriptions/listen", "ext/get"], withExt), methods: ["ext/get"], methodTable: withExt } },
    },
  ],
};
const options = {
  serverInfo: { name: "s", version: "1" },
  versions: { next: { handlers: { "tools/call": () => ({ content: [] }) }, capabilities: { tools: {} }, extensions: { "example.com/ext": { settings: { x: 1 }, handlers: { "ext/get": () => ({ got: true }) } } } } },
};
const meta = (extensions?: object) => ({ "io.modelcontextprotocol/protocolVersion": "next", "io.modelcontextprotocol/clientCapabilities": extensions === undefined ? {} : { extensions } });
const routes = () => modernRoutes(new ServedVersions<never, "next">(table, options), options, new Audience());

describe("modernRoutes", () => {
  it("answers a request naming a served version, and -32602 naming the missing _meta keys", async () => {
    const r = routes();
    expect(await r.handle({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", _meta: meta() } })).toStrictEqual({ jsonrpc: "2.0", id: 1, result: { content: [], resultType: "complete" } });
    expect(await r.handle({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { _meta: { "io.modelcontextprotocol/protocolVersion": "next" } } })).toStrictEqual({
      jsonrpc: "2.0",
      id: 2,
      error: { code: -32602, message: "Invalid params: missing _meta keys: io.modelcontextprotocol/clientCapabilities" },
    });
  });

  it("answers an unserved version with -32022 and the served ones, and drops such a notification", async () => {
    const r = routes();
    const other = { "io.modelcontextprotocol/protocolVersion": { v: 1 }, "io.modelcontextprotocol/clientCapabilities": {} };
    expect(await r.handle({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { _meta: other } })).toStrictEqual({
      jsonrpc: "2.0",
      id: 3,
      error: { code: -32022, message: "Unsupported protocol version", data: { supported: ["next"], requested: '{"v":1}' } },
    });
    expect(await r.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: { _meta: other } })).toBeUndefined();
  });

  it("advertises the served extensions in server/discover, and routes an extension's method only when the request negotiates it", async () => {
    const r = routes();
    const discover = (await r.handle({ jsonrpc: "2.0", id: 4, method: "server/discover", params: { _meta: meta() } })) as { result: Record<string, unknown> };
    expect(discover.result).toMatchObject({ supportedVersions: ["next"], capabilities: { tools: {}, extensions: { "example.com/ext": { x: 1 } } }, ttlMs: 0, cacheScope: "public" });
    expect(await r.handle({ jsonrpc: "2.0", id: 5, method: "ext/get", params: { _meta: meta() } })).toStrictEqual({
      jsonrpc: "2.0",
      id: 5,
      error: { code: -32021, message: "Missing required client capability", data: { requiredCapabilities: { extensions: { "example.com/ext": {} } } } },
    });
    expect(await r.handle({ jsonrpc: "2.0", id: 6, method: "ext/get", params: { _meta: meta({ "example.com/ext": {} }) } })).toStrictEqual({ jsonrpc: "2.0", id: 6, result: { got: true, resultType: "complete" } });
  });

  it("names a request by its table row's nameParam, else the served extension module's", () => {
    const r = routes();
    expect([r.nameParam("tools/call", "next"), r.nameParam("ext/get", "next"), r.nameParam("server/discover", "next"), r.nameParam("tools/call", "old")]).toEqual(["name", "id", undefined, undefined]);
  });
});

describe("eraOf", () => {
  it("is modern when params._meta names a protocol version, else legacy (a hostile message too)", () => {
    expect(eraOf({ jsonrpc: "2.0", id: 1, method: "x", params: { _meta: { "io.modelcontextprotocol/protocolVersion": "next" } } })).toBe("modern");
    expect(eraOf({ jsonrpc: "2.0", id: 1, method: "x", params: {} })).toBe("legacy");
    const hostile = {
      get params() {
        throw new Error("no");
      },
    };
    expect(eraOf(hostile)).toBe("legacy");
  });
});
