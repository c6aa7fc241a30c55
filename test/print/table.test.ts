// What the printers read of a method table: a request's normalizer as its row names it.
import { describe, expect, it } from "vitest";
import type { MethodRow, VersionTable } from "../../generator/model/types.js";
import { normalizerOf, tableOf } from "../../generator/print/table.js";

const row = (normalizer: string | null, resultTypes: string[] | null): MethodRow =>
  ({
    kind: "request",
    status: normalizer === null ? "removed" : "present",
    nearest: null,
    since: null,
    otherEra: false,
    extensions: [],
    sender: "client",
    receivers: ["server"],
    params: null,
    results: null,
    normalizer,
    resultTypes,
    capabilities: [],
    nameParam: null,
    taskResult: null,
    taskCapability: null,
    paginated: false,
  }) as MethodRow;

const table: VersionTable = {
  ping: row("empty", null),
  "subscriptions/listen": row("empty+resultType", ["complete"]),
  "tools/call": row("object+resultType", ["complete", "input_required"]),
  "tools/list": row("object", null),
  "resources/subscribe": row(null, null),
};

describe("normalizerOf", () => {
  it("reads the shape of the row's normalizer kind and its resultType values", () => {
    expect(["ping", "subscriptions/listen", "tools/call", "tools/list"].map((m) => normalizerOf(table, m))).toEqual([
      { shape: "empty", resultTypes: null },
      { shape: "empty", resultTypes: ["complete"] },
      { shape: "object", resultTypes: ["complete", "input_required"] },
      { shape: "object", resultTypes: null },
    ]);
  });

  it("refuses a method without a row or whose row has no normalizer, naming it", () => {
    expect(() => normalizerOf(table, "resources/subscribe")).toThrow("the method table has no normalizer for the request resources/subscribe");
    expect(() => normalizerOf(table, "x/none")).toThrow("the method table has no normalizer for the request x/none");
  });
});

describe("tableOf", () => {
  it("gives a label's table and refuses a label without one", () => {
    const tables = new Map([["v1", table]]);
    expect(tableOf(tables, "v1")).toBe(table);
    expect(() => tableOf(tables, "v2")).toThrow("no method table for v2");
  });
});
