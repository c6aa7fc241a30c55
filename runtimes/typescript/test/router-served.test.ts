// The served versions of a router over synthetic tables: which are served, their dispatcher options,
// their custom methods in front, and the extensions the tree must have.
import { describe, expect, it } from "vitest";
import { createDispatcher, type DispatcherOptions } from "../src/dispatcher.js";
import { objectNormalizer } from "../src/normalize.js";
import { caller, ServedVersions, servedExtensions } from "../src/router-served.js";
import { METHOD_NOT_FOUND } from "../protocol.js";

// A request a client sends: the server accepts it, a client refuses it (the table's verdicts; the message is this test's).
const verdicts = { server: { accepted: true }, client: { accepted: false, code: METHOD_NOT_FOUND, reason: "wrong_side", message: "Method not found: sent by the client only", policy: null } } as const;
const row = { status: "present", sender: "client", receivers: ["server"], nearest: null, verdicts, nameParam: null, resultTypes: null };

function version<V extends string, E extends "legacy" | "modern">(label: V, era: E) {
  const resultTypes = era === "modern" ? ["complete"] : null;
  return {
    label,
    era,
    methodTable: { "tools/list": row },
    customResultTypes: resultTypes,
    createDispatcher: (handlers: object, options?: DispatcherOptions) =>
      createDispatcher(
        { protocolVersion: label, side: "server", requests: { "tools/list": { paramsRequired: false, normalize: objectNormalizer("tools/list", "ListToolsResult", resultTypes) } }, notifications: [], methodTable: { "tools/list": row } },
        handlers,
        options,
      ),
  };
}

const table = { versions: [version("old", "legacy"), version("mid", "legacy"), version("new", "modern")] };
const serverInfo = { name: "s", version: "1" };

describe("ServedVersions", () => {
  it("lists the served versions in table order, legacy and modern apart", () => {
    const s = new ServedVersions<"old" | "mid", "new">(table, { serverInfo, versions: { new: { handlers: {}, capabilities: {} }, old: { handlers: {}, capabilities: {} } } });
    expect([s.versions, s.legacyVersions, s.modernVersions]).toEqual([["old", "new"], ["old"], ["new"]]);
    expect(s.routed("mid")?.label).toBe("mid");
    expect(s.routed("nope")).toBeUndefined();
  });

  it("gives a version the router's onError unless it has its own", () => {
    const own = () => {};
    const router = () => {};
    const s = new ServedVersions<"old" | "mid", "new">(table, {
      serverInfo,
      onError: router,
      versions: { old: { handlers: {}, capabilities: {} }, new: { handlers: {}, capabilities: {}, dispatcher: { onError: own, validateResults: false } } },
    });
    expect(s.dispatcherOptions("old")).toEqual({ onError: router });
    expect(s.dispatcherOptions("new")).toEqual({ onError: own, validateResults: false });
  });

  it("calls a handler factory with the connection, and puts custom methods in front of the version's dispatcher, with its customResultTypes", async () => {
    const custom = { "x/echo": { kind: "request" as const, handler: () => ({ ok: true }) } };
    const s = new ServedVersions<"old" | "mid", "new">(table, { serverInfo, versions: { new: { handlers: (c) => ({ "tools/list": () => ({ tools: [], seen: c.protocolVersion ?? "none" }) }), capabilities: {}, custom } } });
    const d = s.dispatcher("new", s.handlersFor("new", { protocolVersion: undefined, initializeParams: undefined }));
    expect(await d.handle({ jsonrpc: "2.0", id: 1, method: "tools/list" })).toStrictEqual({ jsonrpc: "2.0", id: 1, result: { tools: [], seen: "none", resultType: "complete" } });
    expect(await d.handle({ jsonrpc: "2.0", id: 2, method: "x/echo" })).toStrictEqual({ jsonrpc: "2.0", id: 2, result: { ok: true, resultType: "complete" } });
  });

  it("refuses a custom method taking a name of the version's table", () => {
    const s = new ServedVersions<"old" | "mid", "new">(table, { serverInfo, versions: { old: { handlers: {}, capabilities: {}, custom: { "tools/list": { kind: "request", handler: () => ({}) } } } } });
    expect(() => s.dispatcher("old", {})).toThrow("custom method tools/list is a method of protocol version old already");
  });
});

describe("servedExtensions", () => {
  it("lists the served extensions in identifier order, skips undefined ones, and refuses one the tree lacks", () => {
    const routed = { createDispatcher: version("new", "modern").createDispatcher, methods: ["ext/get"], methodTable: {} };
    const v = { ...version("new", "modern"), extensions: { "b.example/x": routed, "a.example/y": routed } };
    expect(servedExtensions({ handlers: {}, capabilities: {}, extensions: { "b.example/x": {}, "a.example/y": {}, "c.example/z": undefined } }, v).map((e) => e.id)).toEqual(["a.example/y", "b.example/x"]);
    expect(() => servedExtensions({ handlers: {}, capabilities: {}, extensions: { "d.example/w": {} } }, v)).toThrow("protocol version new has no extension d.example/w in the generated tree");
  });
});

describe("caller", () => {
  it("passes auth and principal as given, derives the principal from auth, and is empty with neither", () => {
    expect(caller({})).toEqual({});
    expect(caller({ principal: "p" })).toEqual({ principal: "p" });
    const auth = { token: "t", clientId: "c", scopes: [] };
    expect(caller({ auth })).toEqual({ auth, principal: "client:c" });
    expect(caller({ auth: { ...auth, subject: "alice" } })).toEqual({ auth: { ...auth, subject: "alice" }, principal: "sub:alice" });
    expect(caller({ auth, principal: "q" })).toEqual({ auth, principal: "q" });
  });
});
