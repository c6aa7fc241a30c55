// The IR object questions the printers share (generator/model/ir-objects.ts), on IR built from small schemas.
import { describe, expect, it } from "vitest";
import { buildSchemaIR } from "../../generator/model/ir-build.js";
import type { IrNode, ObjectNode } from "../../generator/model/ir.js";
import { hasKeyRules, intersectionObjects } from "../../generator/model/ir-objects.js";

const node = (defs: Record<string, object>, name: string): IrNode =>
  buildSchemaIR({ label: "x", file: "x/schema.json", sha256: "0".repeat(64), dialect: "2020-12", container: "$defs", patches: [], defs: defs as never }).definitions.get(name)!.node;

const base = { type: "object", properties: { a: { type: "string" } }, required: ["a"] };

describe("hasKeyRules", () => {
  it("is true for an object with propertyNames, patternProperties, minProperties or maxProperties, false for plain members", () => {
    expect(hasKeyRules(node({ O: base }, "O") as ObjectNode)).toBe(false);
    for (const rule of [{ propertyNames: { maxLength: 3 } }, { patternProperties: { "^x": { type: "string" } } }, { minProperties: 1 }, { maxProperties: 2 }]) {
      expect(hasKeyRules(node({ O: { ...base, ...rule } }, "O") as ObjectNode), JSON.stringify(rule)).toBe(true);
    }
  });
});

describe("intersectionObjects", () => {
  const parts = (defs: Record<string, object>): IrNode[] => {
    const n = node(defs, "I");
    expect(n.kind).toBe("intersection");
    return (n as Extract<IrNode, { kind: "intersection" }>).parts;
  };

  it("gives the objects of an allOf in order, through references and nested allOf", () => {
    const defs = { B: base, C: { type: "object", properties: { c: { type: "number" } } }, N: { allOf: [{ $ref: "#/$defs/C" }, { type: "object", properties: { d: { type: "boolean" } } }] }, I: { allOf: [{ $ref: "#/$defs/B" }, { $ref: "#/$defs/N" }] } };
    const objects = intersectionObjects(parts(defs));
    expect(objects?.map((o) => o.properties.map((p) => p.name))).toEqual([["a"], ["c"], ["d"]]);
  });

  it("is null when a part is not a plain object: a string, one with key rules, or one with typed extra members", () => {
    expect(intersectionObjects(parts({ B: base, I: { allOf: [{ $ref: "#/$defs/B" }, { type: "string" }] } }))).toBeNull();
    expect(intersectionObjects(parts({ B: base, I: { allOf: [{ $ref: "#/$defs/B" }, { type: "object", minProperties: 1 }] } }))).toBeNull();
    expect(intersectionObjects(parts({ B: base, I: { allOf: [{ $ref: "#/$defs/B" }, { type: "object", additionalProperties: { type: "string" } }] } }))).toBeNull();
  });
});
