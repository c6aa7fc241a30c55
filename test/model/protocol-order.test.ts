// The protocol order is the one order of "earlier" and "later" (generator/model/protocol-order.ts): the method
// table's `removed` and `later` rows read it, not the order of labels. Shown on a run where the two differ:
// a legacy schema under a label that sorts after a modern one's (as a bump re-pinning `draft` to a legacy
// revision does). Expected rows are read from the schema files (schemaMethods), not from the model.
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { inProtocolOrder, protocolOrder } from "../../generator/model/protocol-order.js";
import type { ProtocolModel } from "../../generator/model/types.js";
import { buildModelFromSpecs } from "../../generator/pipeline.js";
import { ensureSchemas, lockedProtocolOrder, modelOptions, schemaMethods, schemasDir } from "../support.js";

/** An undated label that sorts after every locked one by code unit, given to a legacy schema. */
const LATE_LEGACY = "zz-legacy";

let legacy: string;
let modern: string;
let model: ProtocolModel;

beforeAll(async () => {
  await ensureSchemas();
  const ordered = lockedProtocolOrder();
  // The newest legacy and the newest modern locked versions (the test's own order, from the schema files).
  const isLegacy = (l: string) => schemaMethods(l).has("initialize");
  legacy = ordered.filter(isLegacy).at(-1)!;
  modern = ordered.filter((l) => !isLegacy(l)).at(-1)!;
  expect(legacy, "the lock has a legacy version").toBeDefined();
  expect(modern, "the lock has a modern version").toBeDefined();
  const spec = (label: string, from: string) => ({ label, file: path.join(schemasDir, from, "schema.json"), schemaTs: null });
  model = buildModelFromSpecs([spec(legacy, legacy), spec(modern, modern), spec(LATE_LEGACY, legacy)], { patchesDir: modelOptions.patchesDir, overridesFile: modelOptions.overridesFile });
}, 300_000);

describe("the protocol order", () => {
  it("puts a legacy version under a late label before the modern one, though its label sorts after", () => {
    expect([modern, LATE_LEGACY].sort()).toEqual([modern, LATE_LEGACY]);
    // Legacy before modern; the undated late label after the other legacy one (dated, or an undated label before it).
    expect(protocolOrder(model.versions)).toEqual([legacy, LATE_LEGACY, modern]);
    expect(inProtocolOrder(model.versions).map((v) => v.label)).toEqual(protocolOrder(model.versions));
  });

  it("is the method table's: at the late legacy label a modern-only method is later (first in the modern version); at the modern version a legacy-only one was removed after the late legacy label", () => {
    const legacyMethods = schemaMethods(legacy);
    const modernMethods = schemaMethods(modern);
    const modernOnly = [...modernMethods].filter((m) => !legacyMethods.has(m));
    const legacyOnly = [...legacyMethods].filter((m) => !modernMethods.has(m));
    expect(modernOnly.length).toBeGreaterThan(0);
    expect(legacyOnly).toContain("initialize");
    const late = model.tables.get(LATE_LEGACY)!;
    for (const m of modernOnly) expect({ method: m, status: late[m].status, nearest: late[m].nearest, since: late[m].since }).toEqual({ method: m, status: "later", nearest: modern, since: modern });
    const at = model.tables.get(modern)!;
    for (const m of legacyOnly) expect({ method: m, status: at[m].status, nearest: at[m].nearest, since: at[m].since }).toEqual({ method: m, status: "removed", nearest: LATE_LEGACY, since: modern });
    // The tables are still listed by label.
    expect([...model.tables.keys()]).toEqual([legacy, modern, LATE_LEGACY].sort());
  });
});
