// The Python printer on synthetic definitions (both dialects): every construct it prints agrees with
// Ajv on a generated corpus plus hand-picked edges, and the tree passes pyright --strict and ruff; names
// Python, pydantic or the module's own names cannot take become aliases; oneOf, not and an allOf that is
// no merge of open objects are checked at run time, part by part, and so are what pydantic's types
// cannot say (a pattern, an untyped constraint, propertyNames, a fractional constant): never approximately.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { emitPythonTree } from "../../../generator/emit/python/printer.js";
import type { Dialect, JsonSchema } from "../../../generator/model/types.js";
import { tempDir } from "../../support.js";
import { ajvOracle, type Json, labelledCorpus, seedOf, syntheticModel, syntheticProtocolModel } from "../typescript/corpus.js";
import { pyrightStrict, pythonJson, pythonRuntimePackage, run } from "./support.js";

const DEFS: Record<string, JsonSchema> = {
  Closed: { type: "object", properties: { a: { type: "string" }, from: { type: "integer", minimum: 0, maximum: 10 } }, required: ["a"], additionalProperties: false },
  Empty: { type: "object", additionalProperties: false },
  Extra: { type: "object", properties: { a: { type: "integer" } }, additionalProperties: { type: "string" } },
  Names: {
    type: "object",
    description: 'Quotes """ and a backslash \\ in a docstring.',
    properties: { _meta: { type: "object" }, $schema: { type: "string" }, json: { type: "boolean", description: "line one\nline two" }, class: { type: "number" }, "io.example/key": { type: "string" }, runtime: { type: "string" } },
  },
  Nullable: { type: "object", properties: { n: { type: ["string", "null"] }, s: { type: "string" }, any: {} } },
  Literals: { type: "object", properties: { one: { const: 1 }, yes: { const: true }, e: { enum: ["a", "b"] }, mixed: { enum: [1, "1", true, null] } } },
  Int: { type: "integer", minimum: 0, exclusiveMaximum: 10 },
  Num: { type: "number", exclusiveMinimum: 0, maximum: 1 },
  // Bounded below 2^53, where Ajv's binary division and the decimal rule of every target agree (beyond it, the
  // keyword fixtures' MultipleOfLarge is judged by json_schemer).
  Triple: { type: "integer", multipleOf: 3, minimum: -1e15, maximum: 1e15 },
  Len: { type: "string", minLength: 2, maxLength: 3 },
  Arr: { type: "array", items: { $ref: "#/$defs/Int" }, minItems: 1, maxItems: 3 },
  Any: { anyOf: [{ type: "string" }, { $ref: "#/$defs/Closed" }] },
  TypeArray: { type: ["string", "null", "integer"] },
  Base: { type: "object", properties: { code: { type: "integer" }, message: { type: "string" }, data: {} }, required: ["code", "message"] },
  Merged: { allOf: [{ $ref: "#/$defs/Base" }, { type: "object", properties: { code: { const: -5, type: "integer" }, data: { type: "object", properties: { x: { type: "string" } }, required: ["x"] } }, required: ["code"] }] },
  Tree: { type: "object", properties: { value: { type: "number" }, children: { type: "array", items: { $ref: "#/$defs/Tree" } } }, required: ["value"] },
  JsonValue: { anyOf: [{ type: "string" }, { type: "number" }, { type: "boolean" }, { type: "null" }, { $ref: "#/$defs/JsonArray" }, { $ref: "#/$defs/JsonObject" }] },
  JsonArray: { type: "array", items: { $ref: "#/$defs/JsonValue" } },
  JsonObject: { type: "object", additionalProperties: { $ref: "#/$defs/JsonValue" } },
  One: { oneOf: [{ type: "integer" }, { type: "number", minimum: 5 }] },
  NotString: { not: { type: "string" } },
  ClosedAll: { allOf: [{ $ref: "#/$defs/Closed" }, { type: "object", properties: { a: { const: "x" } } }] },
  ObjectAndInteger: { type: "object", properties: { ttl: { allOf: [{ type: "object", properties: { minimum: { const: 0 } } }, { type: "integer" }] } } },
  Nested: { type: "object", properties: { inner: { type: "object", properties: { deep: { type: "object", properties: { z: { type: "boolean" } }, required: ["z"], additionalProperties: false } } } } },
};

/** Instances at each definition's edges, beside the generated corpus. */
const EDGES: Record<string, Json[]> = {
  Closed: [{ a: "x" }, { a: "x", from: 10 }, { a: "x", from: 11 }, { a: "x", from: 1.0 }, { a: "x", b: 1 }, { a: 1 }, {}],
  Empty: [{}, { a: 1 }, []],
  Extra: [{ a: 1, b: "s" }, { a: 1, b: 2 }, { a: "1" }],
  Names: [{ _meta: {}, $schema: "s", json: true, class: 1, "io.example/key": "k", runtime: "r" }, { meta: 5 }, { _meta: null }, { json: 1 }, { schema: 1 }, { class: "x" }, { runtime: 1 }],
  Nullable: [{ n: null }, { s: null }, { any: null }, { n: "x", s: "y" }],
  Literals: [{ one: 1 }, { one: true }, { yes: 1 }, { yes: true }, { mixed: null }, { mixed: "1" }, { mixed: true }, { mixed: 1 }, { mixed: false }, { e: "c" }],
  Int: [0, 9, 10, -1, 1e21, 5.5, true, "1"],
  Num: [0, 1, 0.5, 1.5, "0.5"],
  Triple: [3, 0, -9, 4, 1.5],
  Len: ["ab", "abc", "a", "abcd", "😀😀", "😀"],
  Arr: [[1], [], [1, 2, 3, 4], [11]],
  Any: ["s", { a: "x" }, { a: 1 }, 5],
  TypeArray: ["s", null, 1, 1.5, true],
  Merged: [{ code: -5, message: "m" }, { code: -4, message: "m" }, { code: -5 }, { code: -5, message: "m", data: { x: "y" } }, { code: -5, message: "m", data: {} }, { code: -5, message: "m", data: null }],
  Tree: [{ value: 1, children: [{ value: 2, children: [] }] }, { value: 1, children: [{ children: [] }] }],
  JsonValue: [{ a: [1, { b: null }] }, [[[]]], "s", null],
  One: [1, 5, 5.5, 4.5, "x"],
  NotString: ["s", 1, null, {}],
  ClosedAll: [{ a: "x" }, { a: "y" }, { a: "x", b: 1 }],
  ObjectAndInteger: [{}, { ttl: 1 }, { ttl: {} }, { ttl: { minimum: 0 } }],
  Nested: [{ inner: { deep: { z: true } } }, { inner: { deep: { z: true, y: 1 } } }, { inner: { deep: {} } }, { inner: 5 }],
};

function emitTo(dialect: Dialect, defs: Record<string, JsonSchema>): { dir: string; label: string } {
  const label = `synthetic-${dialect}`;
  const files = emitPythonTree(syntheticProtocolModel(syntheticModel(label, dialect, defs)));
  const dir = tempDir();
  for (const [rel, text] of files) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return { dir, label };
}

describe.each(["draft-07", "2020-12"] as const)("Python printer, %s", (dialect) => {
  const { dir, label } = emitTo(dialect, DEFS);

  it("agrees with Ajv on every synthetic definition, its edges and a generated corpus, and dumps what it accepts unchanged", () => {
    const ajv = ajvOracle(dialect, DEFS);
    const names = Object.keys(DEFS);
    const instances = names.map((name) => {
      const validate = ajv(name);
      const corpus = labelledCorpus(DEFS, name, seedOf(name), (i) => validate(i) as boolean, 30, 300);
      return [...(EDGES[name] ?? []), ...corpus.valid, ...corpus.invalid];
    });
    const answers = pythonJson<Array<{ valid: boolean[]; changed: number[] }>>(
      "batch.py",
      names.map((definition, i) => ({ version: label, definition, instances: instances[i].map((x) => JSON.stringify(x)) })),
      [dir],
    );
    const disagreements: string[] = [];
    let valid = 0;
    names.forEach((name, i) => {
      const validate = ajv(name);
      instances[i].forEach((instance, j) => {
        const a = validate(instance) as boolean;
        if (a) valid++;
        if (answers[i].valid[j] !== a) disagreements.push(`${name}: Ajv ${a ? "accepts" : "rejects"}, pydantic ${a ? "rejects" : "accepts"} ${JSON.stringify(instance)}`);
      });
      for (const j of answers[i].changed) disagreements.push(`${name}: dumps ${JSON.stringify(instances[i][j])} differently`);
    });
    expect(disagreements).toEqual([]);
    expect(valid).toBeGreaterThan(100);
  });

  it("prints aliases for names Python or pydantic cannot take, closed objects as ClosedModel, descriptions as docstrings", () => {
    const text = run("python", ["-c", `import inspect, mcp_codegen; print(inspect.getsource(mcp_codegen.version(${JSON.stringify(label)})))`], { pythonPath: [dir] }).stdout;
    expect(text).toContain('    meta: Annotated[dict[str, Any] | None, runtime.NotNull] = Field(default=None, validation_alias="_meta", serialization_alias="_meta")');
    expect(text).toContain('    schema_: Annotated[runtime.Str | None, runtime.NotNull] = Field(default=None, validation_alias="$schema", serialization_alias="$schema")');
    expect(text).toContain('    json_: Annotated[runtime.Bool | None, runtime.NotNull] = Field(default=None, validation_alias="json", serialization_alias="json")');
    expect(text).toContain('    class_: Annotated[runtime.Number | None, runtime.NotNull] = Field(default=None, validation_alias="class", serialization_alias="class")');
    expect(text).toContain('    io_example_key: Annotated[runtime.Str | None, runtime.NotNull] = Field(default=None, validation_alias="io.example/key", serialization_alias="io.example/key")');
    expect(text).toContain('    runtime_: Annotated[runtime.Str | None, runtime.NotNull] = Field(default=None, validation_alias="runtime", serialization_alias="runtime")');
    expect(text).toContain('    n: runtime.Str | None = None');
    expect(text).toContain('    any: Any = None');
    expect(text).toContain("class Closed(runtime.ClosedModel):");
    expect(text).toContain("class Empty(runtime.ClosedModel):");
    // Only a run of three quotes is escaped (a lone quote gets no backslash); a backslash is doubled.
    expect(text).toContain('    """Quotes ""\\" and a backslash \\\\ in a docstring."""');
    expect(text).toContain('    """line one\n    line two\n    """');
    expect(text).toContain('JsonValue = TypeAliasType("JsonValue", ');
  });

  it("passes pyright --strict and ruff", () => {
    const r = pyrightStrict(dir);
    expect(r.stdout).toContain("0 errors, 0 warnings, 0 informations");
    expect(r.status).toBe(0);
    const lint = run("ruff", ["check", "--no-cache", "--config", path.join(pythonRuntimePackage, "ruff.toml"), dir]);
    expect(lint.stdout + lint.stderr).toBe("All checks passed!\n");
  });
});

describe("Python printer says at run time what pydantic's types cannot (issue 35)", () => {
  // Once refused ("the Python target cannot print …"); the keyword fixtures (test/emit/keywords.test.ts) judge them against Ajv.
  it.each([
    ["Pattern", { type: "string", pattern: "^a" }, 'Pattern = TypeAliasType("Pattern", Annotated[runtime.Str, runtime.pattern("\\\\Aa")])'],
    ["Untyped", { properties: { a: { type: "string" } } }, 'Untyped = TypeAliasType("Untyped", Annotated[Any, runtime.if_type("object", Untyped_)])'],
    ["Names", { type: "object", propertyNames: { maxLength: 3 } }, "runtime.object_keys(names=Annotated[Any, runtime.if_type(\"string\", Annotated[runtime.Str, Field(max_length=3)])])"],
    ["Fraction", { enum: [1.5, 2] }, "Annotated[Literal[2], runtime.NoBool] | Annotated[runtime.Number, runtime.number_in(1.5)]"],
  ])("%s prints", (name, schema, expected) => {
    const files = emitPythonTree(syntheticProtocolModel(syntheticModel("v", "draft-07", { [name]: schema as JsonSchema })));
    const module = [...files].find(([file]) => file.endsWith("/v.py"))?.[1] ?? [...files.values()].join("\n");
    expect(module).toContain(expected);
  });
});
