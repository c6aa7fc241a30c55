// The gate over a synthetic METHOD_TABLE: each status and side gives its reason, and the policy decides
// only custom and later methods.
import { describe, expect, it } from "vitest";
import { methodRefusal, type GateRow } from "../src/method-gate.js";

const table: Record<string, GateRow> = {
  "tools/list": { status: "present", sender: "client", receivers: ["server"], nearest: null },
  "roots/list": { status: "present", sender: "server", receivers: ["client"], nearest: null },
  initialize: { status: "removed", sender: "client", receivers: ["server"], nearest: "v1" },
  "server/discover": { status: "later", sender: "client", receivers: ["server"], nearest: "v3" },
  "tasks/get": { status: "extension", sender: "client", receivers: ["server"], nearest: null },
};
const PASS = { custom: "pass", later: "pass" } as const;
const REFUSE = { custom: "refuse", later: "refuse" } as const;
const reason = (method: string, side: "client" | "server", policy: typeof PASS | typeof REFUSE) => methodRefusal(table, method, "v2", side, policy)?.data.reason ?? null;

describe("methodRefusal", () => {
  it("serves a present method at a side that receives it, and refuses it at the other side whatever the policy", () => {
    expect([reason("tools/list", "server", REFUSE), reason("roots/list", "client", REFUSE)]).toEqual([null, null]);
    expect([reason("tools/list", "client", PASS), reason("roots/list", "server", PASS)]).toEqual(["wrong_side", "wrong_side"]);
  });

  it("refuses a removed method whatever the policy; a later one, an extension's and an unknown one as the policy says", () => {
    expect([reason("initialize", "server", PASS), reason("initialize", "server", REFUSE)]).toEqual(["removed", "removed"]);
    expect([reason("server/discover", "server", PASS), reason("server/discover", "server", REFUSE)]).toEqual([null, "other_era"]);
    expect([reason("tasks/get", "server", PASS), reason("tasks/get", "server", REFUSE)]).toEqual([null, "unknown"]);
    expect([reason("x/vendor", "server", PASS), reason("toString", "server", REFUSE)]).toEqual([null, "unknown"]);
  });

  it("answers -32601 naming the method, the version and why", () => {
    expect(methodRefusal(table, "initialize", "v2", "server", REFUSE)).toEqual({
      code: -32601,
      message: "Method not found: initialize is not a method of protocol version v2 (removed after v1)",
      data: { method: "initialize", protocolVersion: "v2", reason: "removed" },
    });
    expect(methodRefusal(table, "server/discover", "v2", "server", REFUSE)?.message).toBe("Method not found: server/discover is not a method of protocol version v2 (first in v3)");
    expect(methodRefusal(table, "roots/list", "v2", "server", REFUSE)?.message).toBe("Method not found: roots/list is sent by the server only in protocol version v2");
    expect(methodRefusal(table, "x/vendor", "v2", "server", REFUSE)?.message).toBe("Method not found: x/vendor is not a method of protocol version v2");
  });
});
