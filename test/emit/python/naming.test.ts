// The Python namer (generator/emit/python/naming.ts): spec names made Python identifiers, over the
// neutral collision rule every target's namer uses (model/naming.ts), never a name the module binds.
import { describe, expect, it } from "vitest";
import { MODULE_NAMES } from "../../../generator/emit/python/language.js";
import { definitionNames } from "../../../generator/emit/python/naming.js";
import type { SchemaIR } from "../../../generator/model/ir.js";

const irOf = (names: string[]) => ({ definitions: new Map(names.map((n) => [n, {}])) }) as unknown as SchemaIR;

describe("Python definition names", () => {
  it("keep a spec name that is a free identifier, and make the others identifiers", () => {
    // A leading digit gets a leading `_`, which then moves to the end (no private-looking names).
    expect([...definitionNames(irOf(["Tool", "Record<string,string>", "2x", "class"]))]).toEqual([
      ["2x", "2x_"],
      ["Record<string,string>", "Record_string_string_"],
      ["Tool", "Tool"],
      ["class", "class_"],
    ]);
  });

  it("never take a name the version module binds (Annotated, METHOD_TABLE …): those get a trailing underscore", () => {
    expect(MODULE_NAMES.has("Annotated")).toBe(true);
    expect([...definitionNames(irOf(["Annotated", "METHOD_TABLE", "Tool"]))]).toEqual([
      ["Annotated", "Annotated_"],
      ["METHOD_TABLE", "METHOD_TABLE_"],
      ["Tool", "Tool"],
    ]);
  });

  it("tell colliding names apart as every target does (`_2`, the spec's own name first), in code-unit order of the spec names", () => {
    const names = definitionNames(irOf(["a-b", "a_b", "_a_b"]));
    expect([...names.keys()]).toEqual(["_a_b", "a-b", "a_b"]);
    // `a_b` is its own candidate and keeps it; `a-b` and `_a_b` (candidate `a_b_`) are told apart by _2.
    expect(names.get("a_b")).toBe("a_b");
    expect(names.get("a-b")).toBe("a_b_2");
    expect(names.get("_a_b")).toBe("a_b_");
  });
});
