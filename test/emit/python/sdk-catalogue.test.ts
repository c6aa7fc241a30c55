// The generated Python catalogue and gate against the official Python SDK's own method maps
// (`mcp_types.methods` of mcp / mcp-types 2.3.0: `(method, version)` keys, "key absence is the
// version gate"), for every version both have. Where both speak they must agree (a method both list
// goes the same way; a result both name is the same definition); every difference is printed as a
// finding about one side, not hidden.
import { describe, expect, it } from "vitest";
import { readLock } from "../../../generator/source/lock.js";
import { lockFile } from "../../support.js";
import { pythonJson } from "./support.js";

type Row = [method: string, version: string, names: string[]];
interface Dump {
  known: string[];
  sdk: Record<"CLIENT_REQUESTS" | "SERVER_REQUESTS" | "CLIENT_NOTIFICATIONS" | "SERVER_NOTIFICATIONS" | "SERVER_RESULTS" | "CLIENT_RESULTS", Row[]>;
  input_required: string[];
  generated: Record<
    string,
    {
      requests: Record<string, { sender: "client" | "server" | "both"; results: string[]; models: string[]; result_types: string[] | null }>;
      notifications: Record<string, "client" | "server" | "both">;
      gate: Record<string, { code: number; message: string; data?: Record<string, string> } | null>;
    }
  >;
}

const data = pythonJson<Dump>("sdk_catalogue.py", null);
const labels = Object.keys((await readLock(lockFile)).versions).sort();
const shared = labels.filter((l) => data.known.includes(l));
const sends = (sender: string, side: "client" | "server") => sender === side || sender === "both";
const list = (xs: string[]) => (xs.length === 0 ? "none" : xs.join(", "));

function sdkMethods(map: keyof Dump["sdk"], version: string): Map<string, string[]> {
  return new Map(data.sdk[map].filter((r) => r[1] === version).map((r) => [r[0], r[2]]));
}

describe("generated Python catalogue vs the Python SDK's method maps (mcp-types 2.3.0)", () => {
  it("has a module per locked version, and shares versions with the SDK", () => {
    expect(Object.keys(data.generated).sort()).toEqual(labels);
    expect(shared.length).toBeGreaterThan(0);
  });

  it("agrees wherever both speak: a method both list is sent the same way and answers with the same result definitions", () => {
    const conflicts: string[] = [];
    let both = 0;
    for (const v of shared) {
      const g = data.generated[v];
      for (const [map, side, kind] of [["CLIENT_REQUESTS", "client", "requests"], ["SERVER_REQUESTS", "server", "requests"], ["CLIENT_NOTIFICATIONS", "client", "notifications"], ["SERVER_NOTIFICATIONS", "server", "notifications"]] as const) {
        for (const [method, [model]] of sdkMethods(map, v)) {
          const ours = kind === "requests" ? g.requests[method]?.sender : g.notifications[method];
          if (ours === undefined) continue;
          both++;
          if (!sends(ours, side)) conflicts.push(`${v}: the SDK's ${map} has ${method} (${model}); the generated catalogue says it is sent by the ${ours}`);
        }
      }
      for (const [map, side] of [["SERVER_RESULTS", "client"], ["CLIENT_RESULTS", "server"]] as const) {
        for (const [method, results] of sdkMethods(map, v)) {
          const ours = g.requests[method];
          if (ours === undefined || !sends(ours.sender, side)) continue;
          // By the model each result definition is (the spec's EmptyResult is its Result).
          if ([...results].sort().join() !== [...ours.models].sort().join()) conflicts.push(`${v}: ${method} answers with ${results.join(" | ")} in the SDK's ${map}, ${ours.results.join(" | ")} here`);
        }
      }
    }
    expect(conflicts).toEqual([]);
    expect(both).toBeGreaterThan(20);
  });

  it("lists where they differ, and where the gates answer differently (findings, printed)", () => {
    const lines: string[] = [];
    for (const v of shared) {
      const g = data.generated[v];
      for (const [map, side, kind] of [["CLIENT_REQUESTS", "client", "requests"], ["SERVER_REQUESTS", "server", "requests"], ["CLIENT_NOTIFICATIONS", "client", "notifications"], ["SERVER_NOTIFICATIONS", "server", "notifications"]] as const) {
        const sdk = sdkMethods(map, v);
        const ours = Object.entries(kind === "requests" ? Object.fromEntries(Object.entries(g.requests).map(([m, e]) => [m, e.sender])) : g.notifications)
          .filter(([, sender]) => sends(sender, side))
          .map(([m]) => m);
        lines.push(`${v} ${map}: spec methods the SDK's map lacks: ${list(ours.filter((m) => !sdk.has(m)).sort())}; SDK entries the spec has not: ${list([...sdk.keys()].filter((m) => !ours.includes(m)).sort())}`);
      }
      // The SDK's gate is key absence in CLIENT_REQUESTS; the generated one is method_error.
      const sdkGate = sdkMethods("CLIENT_REQUESTS", v);
      const openHere = Object.entries(g.gate).filter(([m, e]) => e === null && !sdkGate.has(m)).map(([m]) => m);
      const closedHere = Object.entries(g.gate).filter(([m, e]) => e !== null && sdkGate.has(m)).map(([m]) => m);
      lines.push(`${v} gate: method_error lets through what the SDK's CLIENT_REQUESTS gates: ${list(openHere.sort())}; refuses what it lets through: ${list(closedHere.sort())}`);
      for (const [m, e] of Object.entries(g.gate)) {
        if (e !== null) expect(e, m).toMatchObject({ code: -32601, data: { method: m, protocolVersion: v } });
        else expect([...Object.keys(g.requests), ...Object.keys(g.notifications)], m).toContain(m);
      }
    }
    // INPUT_REQUIRED_METHODS (derived by the SDK from its result maps) against the modern versions' resultType values.
    const modern = shared.filter((v) => Object.values(data.generated[v].requests).some((r) => r.result_types !== null));
    for (const v of modern) {
      const ours = Object.entries(data.generated[v].requests).filter(([, r]) => r.result_types?.includes("input_required")).map(([m]) => m).sort();
      lines.push(`${v} input_required: allowed here but not in INPUT_REQUIRED_METHODS: ${list(ours.filter((m) => !data.input_required.includes(m)))}; in INPUT_REQUIRED_METHODS but not allowed here: ${list(data.input_required.filter((m) => !ours.includes(m)))}`);
      // Where both speak: a method the SDK marks input-required may answer input_required here.
      for (const m of data.input_required) if (m in data.generated[v].requests) expect(ours, m).toContain(m);
    }
    lines.push(`versions generated that the SDK does not know: ${list(labels.filter((l) => !data.known.includes(l)))}; versions the SDK knows that are not generated: ${list(data.known.filter((l) => !labels.includes(l)))}`);
    console.log(["mcp-types 2.3.0 method maps vs the generated Python catalogue:", ...lines.map((l) => `  - ${l}`)].join("\n"));
    expect(lines.length).toBe(shared.length * 5 + modern.length + 1);
  });
});
