// Reviewed patches (generator/source/patch.ts): which patches of old bytes carry to new bytes. A patch
// carries where each of its own `test` operations holds on the new document (tested in order, as
// loading applies them); otherwise it is reopened with the pointer whose expected value moved; a patch
// without a test is never carried. The expected outcomes are written out by hand.
import { describe, expect, it } from "vitest";
import { applyPatches, carryPatches, formatPatchFile, type NamedPatch } from "../../generator/source/patch.js";

const doc = () => ({ $defs: { A: { type: "integer" }, B: { type: ["string", "integer"] }, C: { properties: { x: { type: "string" } } } } });
const widenA: NamedPatch = { name: "a-number", why: "w", ops: [{ op: "test", path: "/$defs/A/type", value: "integer" }, { op: "replace", path: "/$defs/A/type", value: "number" }] };
const widenB: NamedPatch = { name: "b-number", why: "w", ops: [{ op: "test", path: "/$defs/B/type", value: ["string", "integer"] }, { op: "replace", path: "/$defs/B/type", value: ["string", "number"] }] };

describe("carryPatches", () => {
  it("carries every patch whose tests hold, in order, and leaves the given document as it was", () => {
    const d = doc();
    const { carried, outcomes } = carryPatches(d, [widenA, widenB]);
    expect(carried).toEqual([widenA, widenB]);
    expect(outcomes).toEqual([
      { name: "a-number", status: "carried" },
      { name: "b-number", status: "carried" },
    ]);
    expect(d).toEqual(doc());
  });

  it("reopens a patch whose test fails, naming the pointer, what it expected and what is there", () => {
    const d = doc();
    d.$defs.A.type = "number";
    const { carried, outcomes } = carryPatches(d, [widenA, widenB]);
    expect(carried).toEqual([widenB]);
    expect(outcomes).toEqual([
      { name: "a-number", status: "reopened", reason: "test failed", pointer: "/$defs/A/type", expected: "integer", found: "number" },
      { name: "b-number", status: "carried" },
    ]);
  });

  it("reopens a patch whose tested place is gone, with no value found", () => {
    const d = doc() as { $defs: Record<string, unknown> };
    delete d.$defs.A;
    expect(carryPatches(d, [widenA]).outcomes).toEqual([{ name: "a-number", status: "reopened", reason: "test failed", pointer: "/$defs/A/type", expected: "integer" }]);
  });

  it("tests a patch on the document as the carried patches before it leave it", () => {
    // The second patch tests what the first writes: it carries only after the first.
    const then: NamedPatch = { name: "a-then", why: "w", ops: [{ op: "test", path: "/$defs/A/type", value: "number" }, { op: "add", path: "/$defs/A/minimum", value: 0 }] };
    expect(carryPatches(doc(), [widenA, then]).outcomes.map((o) => o.status)).toEqual(["carried", "carried"]);
    expect(carryPatches(doc(), [then]).outcomes).toEqual([{ name: "a-then", status: "reopened", reason: "test failed", pointer: "/$defs/A/type", expected: "number", found: "integer" }]);
  });

  it("never carries a patch without a test: reopened with no pointer", () => {
    const blind: NamedPatch = { name: "blind", why: "w", ops: [{ op: "replace", path: "/$defs/A/type", value: "number" }] };
    const { carried, outcomes } = carryPatches(doc(), [blind]);
    expect(carried).toEqual([]);
    expect(outcomes).toEqual([{ name: "blind", status: "reopened", reason: "no test", pointer: null }]);
  });

  it("reopens a patch whose tests hold but whose other operations do not apply, naming that operation's path", () => {
    const removeMissing: NamedPatch = { name: "rm", why: "w", ops: [{ op: "test", path: "/$defs/A/type", value: "integer" }, { op: "remove", path: "/$defs/A/format" }] };
    expect(carryPatches(doc(), [removeMissing]).outcomes).toEqual([{ name: "rm", status: "reopened", reason: "does not apply", pointer: "/$defs/A/format" }]);
  });

  it("a carried patch applies to the new document as loading applies it", () => {
    const d = doc();
    const { carried } = carryPatches(d, [widenA, widenB]);
    applyPatches(d, carried, "p.json", "s.json");
    expect(d.$defs.A.type).toBe("number");
    expect(d.$defs.B.type).toEqual(["string", "number"]);
  });
});

describe("formatPatchFile", () => {
  it("writes the sha256 and the patches as two-space JSON with a final newline", () => {
    const text = new TextDecoder().decode(formatPatchFile({ sha256: "a".repeat(64), patches: [widenA] }));
    expect(text.endsWith("}\n")).toBe(true);
    expect(JSON.parse(text)).toEqual({ sha256: "a".repeat(64), patches: [widenA] });
    expect(text.split("\n")[1]).toBe(`  "sha256": "${"a".repeat(64)}",`);
  });
});
