// What the printers read of a method table: a request's normalizer as its row holds it, and its name in the reports.
import { describe, expect, it } from "vitest";
import type { MethodRow, RowNormalizer, VersionTable } from "../../generator/model/types.js";
import { normalizerKind, normalizerOf, tableOf } from "../../generator/print/table.js";

const row = (normalizer: RowNormalizer | null): MethodRow => ({
  kind: "request",
  status: normalizer === null ? "removed" : "present",
  nearest: null,
  since: null,
  otherEra: false,
  extensions: [],
  sender: "client",
  receivers: ["server"],
  verdicts: { client: { accepted: true }, server: { accepted: true } },
  params: null,
  results: null,
  normalizer,
  resultTypes: normalizer?.resultTypes ?? null,
  capabilities: [],
  nameParam: null,
  taskResult: null,
  taskCapability: null,
  paginated: false,
});

const table: VersionTable = {
  ping: row({ shape: "empty", resultTypes: null }),
  "subscriptions/listen": row({ shape: "empty", resultTypes: ["complete"] }),
  "tools/call": row({ shape: "object", resultTypes: ["complete", "input_required"] }),
  "tools/list": row({ shape: "object", resultTypes: null }),
  "resources/subscribe": row(null),
};

describe("normalizerOf", () => {
  it("gives the row's structured normalizer, its shape and resultType values as the row holds them", () => {
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

describe("normalizerKind", () => {
  it("names a normalizer as the reports do: its shape, +resultType where it has resultType values", () => {
    expect(["ping", "subscriptions/listen", "tools/call", "tools/list"].map((m) => normalizerKind(normalizerOf(table, m)))).toEqual(["empty", "empty+resultType", "object+resultType", "object"]);
  });
});

describe("tableOf", () => {
  it("gives a label's table and refuses a label without one", () => {
    const tables = new Map([["v1", table]]);
    expect(tableOf(tables, "v1")).toBe(table);
    expect(() => tableOf(tables, "v2")).toThrow("no method table for v2");
  });
});
