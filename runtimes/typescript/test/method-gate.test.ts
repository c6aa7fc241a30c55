// The gate over a synthetic METHOD_TABLE: a lookup of each row's verdict at the receiving side (the rows
// here state them as the model does), the policy lifting only the verdicts that name it, and the protocol
// module's UNKNOWN_METHOD, its slots filled, for a method no row names.
import { describe, expect, it } from "vitest";
import { METHOD_NOT_FOUND, UNKNOWN_METHOD } from "../protocol.js";
import { methodRefusal, type GateRow, type Verdict } from "../src/method-gate.js";

const accepted: Verdict = { accepted: true };
const refused = (reason: string, message: string, policy: "custom" | "later" | null): Verdict => ({ accepted: false, code: METHOD_NOT_FOUND, reason, message, policy });
const wrongSide = refused("wrong_side", "Method not found: roots/list is sent by the server only in protocol version v2", null);
const table: Record<string, GateRow> = {
  "tools/list": { verdicts: { server: accepted, client: refused("wrong_side", "Method not found: tools/list is sent by the client only in protocol version v2", null) } },
  "roots/list": { verdicts: { server: wrongSide, client: accepted } },
  initialize: { verdicts: { server: refused("removed", "Method not found: initialize is not a method of protocol version v2 (removed after v1)", null), client: refused("removed", "removed, at the client", null) } },
  "server/discover": { verdicts: { server: refused("other_era", "Method not found: server/discover is not a method of protocol version v2 (first in v3)", "later"), client: refused("other_era", "later, at the client", "later") } },
  "tasks/get": { verdicts: { server: refused("unknown", "Method not found: tasks/get is not a method of protocol version v2", "custom"), client: refused("unknown", "extension, at the client", "custom") } },
};
const PASS = { custom: "pass", later: "pass" } as const;
const REFUSE = { custom: "refuse", later: "refuse" } as const;
const reason = (method: string, side: "client" | "server", policy: { custom: "pass" | "refuse"; later: "pass" | "refuse" }) => methodRefusal(table, method, "v2", side, policy)?.data.reason ?? null;

describe("methodRefusal", () => {
  it("serves what the row accepts at the side, and refuses what it refuses at the side, whatever the policy when the verdict names none", () => {
    expect([reason("tools/list", "server", REFUSE), reason("roots/list", "client", REFUSE)]).toEqual([null, null]);
    expect([reason("tools/list", "client", PASS), reason("roots/list", "server", PASS)]).toEqual(["wrong_side", "wrong_side"]);
    expect([reason("initialize", "server", PASS), reason("initialize", "server", REFUSE)]).toEqual(["removed", "removed"]);
  });

  it("lets a refused method through only under the policy its verdict names: later for a later one, custom for an extension's and an unknown one", () => {
    expect([reason("server/discover", "server", PASS), reason("server/discover", "server", REFUSE)]).toEqual([null, "other_era"]);
    expect([reason("server/discover", "server", { custom: "pass", later: "refuse" }), reason("server/discover", "server", { custom: "refuse", later: "pass" })]).toEqual(["other_era", null]);
    expect([reason("tasks/get", "server", PASS), reason("tasks/get", "server", REFUSE)]).toEqual([null, "unknown"]);
    expect([reason("tasks/get", "server", { custom: "refuse", later: "pass" }), reason("tasks/get", "server", { custom: "pass", later: "refuse" })]).toEqual(["unknown", null]);
    expect([reason("x/vendor", "server", PASS), reason("toString", "server", REFUSE), reason("x/vendor", "client", { custom: "refuse", later: "pass" })]).toEqual([null, "unknown", "unknown"]);
  });

  it("answers with the verdict's code and message, data naming the method, the version and the verdict's reason", () => {
    expect(methodRefusal(table, "initialize", "v2", "server", REFUSE)).toEqual({
      code: -32601,
      message: "Method not found: initialize is not a method of protocol version v2 (removed after v1)",
      data: { method: "initialize", protocolVersion: "v2", reason: "removed" },
    });
    expect(methodRefusal(table, "server/discover", "v2", "server", REFUSE)?.message).toBe("Method not found: server/discover is not a method of protocol version v2 (first in v3)");
    expect(methodRefusal(table, "roots/list", "v2", "server", REFUSE)?.message).toBe("Method not found: roots/list is sent by the server only in protocol version v2");
    expect(methodRefusal(table, "initialize", "v2", "client", REFUSE)?.message).toBe("removed, at the client");
  });

  it("answers a method no row names with UNKNOWN_METHOD, its {method} and {protocolVersion} filled once", () => {
    expect(UNKNOWN_METHOD.message).toContain("{method}");
    expect(methodRefusal(table, "x/vendor", "v2", "server", REFUSE)).toEqual({
      code: -32601,
      message: "Method not found: x/vendor is not a method of protocol version v2",
      data: { method: "x/vendor", protocolVersion: "v2", reason: "unknown" },
    });
    expect(methodRefusal(table, "{protocolVersion}$&", "v2", "server", REFUSE)?.message).toBe("Method not found: {protocolVersion}$& is not a method of protocol version v2");
  });
});
