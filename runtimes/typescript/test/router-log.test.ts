// The router's log-level gate: notifications/message below the threshold is dropped, everything else passes.
import { describe, expect, it } from "vitest";
import type { Peer } from "../src/peer.js";
import { levelFiltered, modernThreshold, notifyOnly } from "../src/router-log.js";

function recorder() {
  const sent: Array<[string, unknown]> = [];
  const peer: Peer = {
    notify: async (method, params) => void sent.push([method, params]),
    request: async (method) => ({ asked: method }),
  };
  return { sent, peer };
}

const log = (level: unknown) => ({ level, data: "x" });

describe("levelFiltered", () => {
  it("sends notifications/message at or above the threshold, drops the rest and a non-string level", async () => {
    const { sent, peer } = recorder();
    const gated = levelFiltered(peer, () => "warning");
    for (const level of ["debug", "warning", "error", 3]) await gated.notify("notifications/message", log(level), 1);
    expect(sent.map(([, p]) => (p as { level: unknown }).level)).toEqual(["warning", "error"]);
  });

  it("drops every log message with no threshold, sends every one with '*', and never gates other notifications or requests", async () => {
    const { sent, peer } = recorder();
    await levelFiltered(peer, () => undefined).notify("notifications/message", log("emergency"), 1);
    await levelFiltered(peer, () => undefined).notify("notifications/progress", { progress: 1 }, 1);
    await levelFiltered(peer, () => "*").notify("notifications/message", log("debug"), 1);
    expect(sent.map(([m]) => m)).toEqual(["notifications/progress", "notifications/message"]);
    expect(await levelFiltered(peer, () => undefined).request("roots/list", undefined, 1, new AbortController().signal)).toEqual({ asked: "roots/list" });
  });
});

describe("modernThreshold", () => {
  it("is the request's _meta log level when it is a LoggingLevel, else undefined", () => {
    expect(modernThreshold({ "io.modelcontextprotocol/logLevel": "info" })).toBe("info");
    expect(modernThreshold({ "io.modelcontextprotocol/logLevel": "loud" })).toBeUndefined();
    expect(modernThreshold({})).toBeUndefined();
    expect(modernThreshold(undefined)).toBeUndefined();
  });
});

describe("notifyOnly", () => {
  it("carries notifications to send and refuses server→client requests with -32603 naming input_required", async () => {
    const sent: unknown[] = [];
    const peer = notifyOnly((message) => void sent.push(message), "2026-07-28")!;
    await peer.notify("notifications/progress", { progress: 1 }, 7);
    expect(sent).toEqual([{ jsonrpc: "2.0", method: "notifications/progress", params: { progress: 1 } }]);
    await expect(peer.request("sampling/createMessage", {}, 7, new AbortController().signal)).rejects.toMatchObject({
      code: -32603,
      message: "Internal error: sampling/createMessage cannot be sent to the client in 2026-07-28; return an input_required result instead",
    });
    expect(notifyOnly(undefined, "2026-07-28")).toBeUndefined();
  });
});
