// createRouter as source, over synthetic tables: a router of one era only, and versions of any label.
import { describe, expect, it } from "vitest";
import { createDispatcher, type DispatcherOptions, type DispatcherTables } from "../src/dispatcher.js";
import { emptyNormalizer, objectNormalizer } from "../src/normalize.js";
import type { RoutedMethodTable } from "../src/method-gate.js";
import { createRouter, type RouterTable } from "../src/router.js";
import { METHOD_NOT_FOUND } from "../protocol.js";

/** The tables of a tiny version: ping and tools/list, plus initialize in the legacy era. */
function tables(protocolVersion: string, era: "legacy" | "modern"): DispatcherTables {
  const modern = era === "modern";
  const requests: DispatcherTables["requests"] = {
    ping: { paramsRequired: false, normalize: emptyNormalizer(modern ? ["complete"] : null) },
    "tools/list": { paramsRequired: modern, normalize: objectNormalizer("tools/list", "ListToolsResult", modern ? ["complete"] : null) },
    ...(modern ? {} : { initialize: { paramsRequired: true, normalize: objectNormalizer("initialize", "InitializeResult", null) } }),
  };
  return { protocolVersion, side: "server", requests, notifications: ["notifications/cancelled"], methodTable: methodTable(era) };
}

const accepted = { accepted: true } as const;
const refused = (reason: string, message: string) => ({ accepted: false, code: METHOD_NOT_FOUND, reason, message, policy: null }) as const;
/** A request the client sends, as the gate and router read its row: the table's verdicts (the server accepts it, a client refuses it). */
const fromClient = (method: string, nameParam: string | null = null) => ({
  verdicts: { server: accepted, client: refused("wrong_side", `Method not found: ${method} is sent by the client only`) },
  nameParam,
  resultTypes: null,
});

/** The METHOD_TABLE of a tiny version (`next` the modern one): its requests present, sent by the client (ping by both); initialize removed from the modern one. */
function methodTable(era: "legacy" | "modern"): RoutedMethodTable {
  const removed = refused("removed", "Method not found: initialize is not a method of protocol version next (removed after rev-a)");
  return {
    ping: { verdicts: { server: accepted, client: accepted }, nameParam: null, resultTypes: null },
    "tools/list": fromClient("tools/list"),
    initialize: era === "legacy" ? fromClient("initialize") : { verdicts: { server: removed, client: removed }, nameParam: null, resultTypes: null },
  };
}

function version<V extends string, E extends "legacy" | "modern">(label: V, era: E) {
  return { label, era, methodTable: methodTable(era), customResultTypes: era === "modern" ? ["complete"] : null, createDispatcher: (handlers: object, options?: DispatcherOptions) => createDispatcher(tables(label, era), handlers, options) };
}

const serverInfo = { name: "s", version: "1" };
const handlers = { "tools/list": () => ({ tools: [] }) };
const initialize = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "x", capabilities: {}, clientInfo: { name: "c", version: "1" } } };

describe("a router of one legacy version", () => {
  const table: RouterTable<"rev-a", never> = { versions: [version("rev-a", "legacy")] };

  it("initializes a connection with its only version, whatever the client asks", async () => {
    const router = createRouter<"rev-a", never>(table, { serverInfo, versions: { "rev-a": { handlers, capabilities: { tools: {} } } } });
    expect(router.modernVersions).toEqual([]);
    const connection = router.connect(() => {});
    expect(await connection.handle(initialize)).toStrictEqual({ jsonrpc: "2.0", id: 0, result: { protocolVersion: "rev-a", capabilities: { tools: {} }, serverInfo } });
    expect(await connection.handle({ jsonrpc: "2.0", id: 1, method: "tools/list" })).toStrictEqual({ jsonrpc: "2.0", id: 1, result: { tools: [] } });
  });

  it("answers a modern request with -32022 and no supported versions", async () => {
    const router = createRouter<"rev-a", never>(table, { serverInfo, versions: { "rev-a": { handlers, capabilities: {} } } });
    const meta = { "io.modelcontextprotocol/protocolVersion": "rev-a", "io.modelcontextprotocol/clientCapabilities": {} };
    expect(await router.handle({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta } })).toStrictEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32022, message: "Unsupported protocol version", data: { supported: [], requested: "rev-a" } },
    });
  });
});

describe("a router of one modern version", () => {
  const table: RouterTable<never, "next"> = { versions: [version("next", "modern")] };
  const meta = { "io.modelcontextprotocol/protocolVersion": "next", "io.modelcontextprotocol/clientCapabilities": {} };

  it("answers requests naming it, and refuses initialize on a connection naming what it serves", async () => {
    const router = createRouter<never, "next">(table, { serverInfo, versions: { next: { handlers, capabilities: {} } } });
    expect(await router.handle({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta } })).toStrictEqual({
      jsonrpc: "2.0",
      id: 1,
      result: { tools: [], resultType: "complete" },
    });
    expect(await router.connect(() => {}).handle(initialize)).toStrictEqual({
      jsonrpc: "2.0",
      id: 0,
      error: { code: -32601, message: "Method not found: initialize is not available; this server serves next" },
    });
  });

  it("refuses what its METHOD_TABLE does not serve (a removed method, an unregistered custom one) with the table's reason; serves a registered custom method", async () => {
    const custom = { "x-vendor/echo": { kind: "request" as const, handler: () => ({ echoed: true }) } };
    const router = createRouter<never, "next">(table, { serverInfo, versions: { next: { handlers, capabilities: {}, custom } } });
    expect(await router.handle({ jsonrpc: "2.0", id: 1, method: "initialize", params: { _meta: meta } })).toStrictEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32601, message: "Method not found: initialize is not a method of protocol version next (removed after rev-a)", data: { method: "initialize", protocolVersion: "next", reason: "removed" } },
    });
    expect(await router.handle({ jsonrpc: "2.0", id: 2, method: "x-vendor/other", params: { _meta: meta } })).toStrictEqual({
      jsonrpc: "2.0",
      id: 2,
      error: { code: -32601, message: "Method not found: x-vendor/other is not a method of protocol version next", data: { method: "x-vendor/other", protocolVersion: "next", reason: "unknown" } },
    });
    expect(await router.handle({ jsonrpc: "2.0", id: 3, method: "x-vendor/echo", params: { _meta: meta } })).toStrictEqual({ jsonrpc: "2.0", id: 3, result: { echoed: true, resultType: "complete" } });
    // A refused notification is dropped, never answered.
    expect(await router.handle({ jsonrpc: "2.0", method: "initialize", params: { _meta: meta } })).toBeUndefined();
  });

  it("refuses a custom method taking a name its METHOD_TABLE has, even one the version removed", () => {
    const custom = { initialize: { kind: "request" as const, handler: () => ({}) } };
    expect(() => createRouter<never, "next">(table, { serverInfo, versions: { next: { handlers, capabilities: {}, custom } } })).toThrow("custom method initialize is a method of protocol version next already");
  });

  it("names a request for routing (Mcp-Name) by its METHOD_TABLE row's nameParam, else a served extension module's row", () => {
    const named = { ...methodTable("modern"), "tools/call": fromClient("tools/call", "name") };
    const extensionTable = { ...named, "ext/get": fromClient("ext/get", "id") };
    const base = version("next", "modern");
    const withExtension: RouterTable<never, "next"> = {
      versions: [{ ...base, methodTable: named, extensions: { "example.com/ext": { createDispatcher: base.createDispatcher, methods: ["ext/get"], methodTable: extensionTable } } }],
    };
    const plain = createRouter<never, "next">(withExtension, { serverInfo, versions: { next: { handlers, capabilities: {} } } });
    expect([plain.nameParam("tools/call", "next"), plain.nameParam("ext/get", "next"), plain.nameParam("tools/list", "next"), plain.nameParam("tools/call", "other")]).toEqual(["name", undefined, undefined, undefined]);
    const extended = createRouter<never, "next">(withExtension, { serverInfo, versions: { next: { handlers, capabilities: {}, extensions: { "example.com/ext": {} } } } });
    expect(extended.nameParam("ext/get", "next")).toBe("id");
  });

  it("gives the router's onError to a version without its own, and the version's own takes precedence", async () => {
    const seen: unknown[] = [];
    const failing = {
      "tools/list": () => {
        throw new Error("x");
      },
    };
    const router = createRouter<never, "next">(table, { serverInfo, versions: { next: { handlers: failing, capabilities: {} } }, onError: (_e, c) => void seen.push(["router", c]) });
    await router.handle({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta } });
    const own = createRouter<never, "next">(table, {
      serverInfo,
      versions: { next: { handlers: failing, capabilities: {}, dispatcher: { onError: (_e, c) => void seen.push(["version", c]) } } },
      onError: (_e, c) => void seen.push(["router", c]),
    });
    await own.handle({ jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: meta } });
    expect(seen).toEqual([
      ["router", { kind: "request", method: "tools/list", id: 1, protocolVersion: "next" }],
      ["version", { kind: "request", method: "tools/list", id: 2, protocolVersion: "next" }],
    ]);
  });
});
