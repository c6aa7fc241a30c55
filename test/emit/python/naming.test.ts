// The Python namer (generator/emit/python/naming.ts): spec names made Python identifiers, over the
// neutral collision pass (model/naming.ts) under the one Python policy (a trailing `_`), never a name the module binds.
import { describe, expect, it } from "vitest";
import { MODULE_NAMES } from "../../../generator/emit/python/language.js";
import { definitionNames, ModuleNaming } from "../../../generator/emit/python/naming.js";
import type { SchemaIR } from "../../../generator/model/ir.js";
import type { VersionModel } from "../../../generator/model/types.js";

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

  it("tell colliding names apart by the Python policy (a trailing `_`, the spec's own name first), in code-unit order of the spec names", () => {
    const names = definitionNames(irOf(["a-b", "a_b", "_a_b"]));
    expect([...names.keys()]).toEqual(["_a_b", "a-b", "a_b"]);
    // `a_b` is its own candidate and keeps it; `_a_b` (candidate `a_b_`) comes next in code-unit order,
    // so `a-b` (candidate `a_b`, taken) skips `a_b_` as well.
    expect(names.get("a_b")).toBe("a_b");
    expect(names.get("_a_b")).toBe("a_b_");
    expect(names.get("a-b")).toBe("a_b__");
  });
});

const moduleOf = (definitions: string[], requests: string[] = []) =>
  new ModuleNaming({ ir: irOf(definitions), requests: requests.map((method) => ({ method })) } as unknown as VersionModel);

describe("a Python module's names", () => {
  it("give normalizers `normalize_<method>`, with a trailing `_` when a definition or another request took it", () => {
    const naming = moduleOf(["normalize_ping"], ["ping", "tools/call", "tools.call"]);
    expect(naming.normalizer("ping")).toBe("normalize_ping_");
    // Code-unit order decides which request keeps the plain name.
    expect(naming.normalizer("tools.call")).toBe("normalize_tools_call");
    expect(naming.normalizer("tools/call")).toBe("normalize_tools_call_");
  });

  it("give fields snake_case names: a keyword, a BaseModel attribute, a module-level name or a sibling field takes a trailing `_`", () => {
    const naming = moduleOf(["Tool", "runtime_x"], ["ping"]);
    expect(naming.fields(["inputSchema", "class", "json", "schema", "runtime", "Tool", "runtime_x", "normalize_ping", "a-b", "a_b", "2d", ""])).toEqual([
      "input_schema",
      "class_",
      "json_",
      "schema_",
      "runtime_",
      "tool",
      "runtime_x_",
      "normalize_ping_",
      "a_b",
      "a_b_",
      "field_2d",
      "field_",
    ]);
  });

  it("name inline classes from their context, a trailing `_` when a module-level name or a field took it", () => {
    const naming = moduleOf(["Tool", "ToolInput"]);
    expect(naming.inlineClass(naming.propertyContext("Tool", "inputSchema"))).toBe("ToolInputSchema");
    expect(naming.inlineClass(naming.propertyContext("Tool", "inputSchema"))).toBe("ToolInputSchema_");
    expect(naming.inlineClass("ToolInput")).toBe("ToolInput_");
    expect(naming.fields(["lower"])).toEqual(["lower"]);
    expect(naming.inlineClass("lower")).toBe("lower_");
  });

  it("forget what a dry run named", () => {
    const naming = moduleOf(["Tool"]);
    const restore = naming.snapshot();
    expect(naming.inlineClass("ToolMeta")).toBe("ToolMeta");
    restore();
    expect(naming.inlineClass("ToolMeta")).toBe("ToolMeta");
  });
});
