// The legacy side of a router over a synthetic table: a connection takes its version at initialize
// (committed only on a result), answers only ping before it, and tells the audience what it takes.
import { describe, expect, it } from "vitest";
import { createDispatcher, type DispatcherOptions } from "../src/dispatcher.js";
import type { RoutedMethodTable } from "../src/method-gate.js";
import { emptyNormalizer, objectNormalizer } from "../src/normalize.js";
import { legacySessions } from "../src/router-legacy.js";
import { ServedVersions } from "../src/router-served.js";
import { Audience } from "../src/router-subscriptions.js";
import { METHOD_NOT_FOUND } from "../protocol.js";

// A request a client sends: the server accepts it, a client refuses it (the table's verdicts; the message is this test's).
const verdicts = { server: { accepted: true }, client: { accepted: false, code: METHOD_NOT_FOUND, reason: "wrong_side", message: "Method not found: sent by the client only", policy: null } } as const;
const present = { status: "present", sender: "client", receivers: ["server"], nearest: null, verdicts, nameParam: null, resultTypes: null };
const methodTable: RoutedMethodTable = { initialize: present, "resources/subscribe": present, "tools/list": present };

function version<V extends string>(label: V) {
  return {
    label,
    era: "legacy" as const,
    methodTable,
    customResultTypes: null,
    createDispatcher: (handlers: object, options?: DispatcherOptions) =>
      createDispatcher(
        {
          protocolVersion: label,
          side: "server",
          requests: {
            initialize: { paramsRequired: true, normalize: objectNormalizer("initialize", "InitializeResult", null) },
            "resources/subscribe": { paramsRequired: true, normalize: emptyNormalizer(null) },
            "tools/list": { paramsRequired: false, normalize: objectNormalizer("tools/list", "ListToolsResult", null) },
          },
          notifications: [],
          methodTable,
        },
        handlers,
        options,
      ),
  };
}

const table = { versions: [version("rev-a"), version("rev-b")] };
const capabilities = { tools: { listChanged: true }, resources: { subscribe: true } };
const options = {
  serverInfo: { name: "s", version: "1" },
  versions: { "rev-a": { handlers: { "tools/list": () => ({ tools: ["a"] }), "resources/subscribe": () => ({}) }, capabilities }, "rev-b": { handlers: {}, capabilities: {} } },
};
const initialize = (protocolVersion: string, id = 0) => ({ jsonrpc: "2.0", id, method: "initialize", params: { protocolVersion, capabilities: {}, clientInfo: { name: "c", version: "1" } } });

describe("legacySessions", () => {
  it("answers only ping before initialize, then takes the asked version (else the newest served) and keeps it", async () => {
    const sessions = legacySessions(new ServedVersions<"rev-a" | "rev-b", never>(table, options), options, new Audience());
    const c = sessions.connect(() => {});
    expect(await c.handle({ jsonrpc: "2.0", id: 1, method: "ping" })).toStrictEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(await c.handle({ jsonrpc: "2.0", id: 2, method: "tools/list" })).toStrictEqual({ jsonrpc: "2.0", id: 2, error: { code: -32600, message: "Invalid Request: send initialize before tools/list" } });
    expect(await c.handle(initialize("rev-a"))).toStrictEqual({ jsonrpc: "2.0", id: 0, result: { protocolVersion: "rev-a", capabilities, serverInfo: options.serverInfo } });
    expect(c.protocolVersion).toBe("rev-a");
    expect(await c.handle({ jsonrpc: "2.0", id: 3, method: "tools/list" })).toStrictEqual({ jsonrpc: "2.0", id: 3, result: { tools: ["a"] } });
    const other = sessions.connect(() => {});
    expect(await other.handle(initialize("rev-z"))).toMatchObject({ result: { protocolVersion: "rev-b" } });
  });

  it("commits nothing on an initialize that fails (invalid params), so the client may try again", async () => {
    const sessions = legacySessions(new ServedVersions<"rev-a" | "rev-b", never>(table, options), options, new Audience());
    const c = sessions.connect(() => {});
    expect(await c.handle({ jsonrpc: "2.0", id: 1, method: "initialize" })).toMatchObject({ error: { code: -32602 } });
    expect(c.protocolVersion).toBeUndefined();
    expect(await c.handle(initialize("rev-a", 2))).toMatchObject({ result: { protocolVersion: "rev-a" } });
  });

  it("tells the audience the list_changed its capabilities declare and the resources it subscribes to, until it closes", async () => {
    const audience = new Audience();
    const sessions = legacySessions(new ServedVersions<"rev-a" | "rev-b", never>(table, options), options, audience);
    const sent: unknown[] = [];
    const c = sessions.connect((m) => void sent.push(m));
    await c.handle(initialize("rev-a"));
    await c.handle({ jsonrpc: "2.0", id: 1, method: "resources/subscribe", params: { uri: "file:///x" } });
    await audience.deliver("notifications/tools/list_changed", undefined);
    await audience.deliver("notifications/resources/updated", { uri: "file:///x" });
    sessions.close();
    await audience.deliver("notifications/tools/list_changed", undefined);
    expect(sent).toEqual([
      { jsonrpc: "2.0", method: "notifications/tools/list_changed" },
      { jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: "file:///x" } },
    ]);
  });
});
