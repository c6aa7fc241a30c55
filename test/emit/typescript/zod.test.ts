// The zod emitter on small synthetic schemas: every keyword it supports, against Ajv in both
// dialects (including constructs the MCP schemas do not use yet: closed objects, oneOf, not,
// string lengths in code points, propertyNames, recursion), the type test failing on a mismatch,
// and generation failing on what it cannot express.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import type { ZodType } from "zod";
import { emitVersion } from "../../../generator/emit/typescript/tree.js";
import { zodModule } from "../../../generator/emit/typescript/zod.js";
import { definitionNaming } from "../../../generator/emit/typescript/naming.js";
import { InputError } from "../../../generator/errors.js";
import type { Dialect, JsonSchema, VersionModel } from "../../../generator/model/types.js";
import { toolRoot } from "../../../generator/paths.js";
import { ajvOracle, InstanceGenerator, type Json, rng, sameJson, seedOf, syntheticModel, syntheticProtocolModel, writeRuntime } from "./corpus.js";

const DEFS: Record<string, JsonSchema> = {
  Closed: { type: "object", properties: { a: { type: "string" }, b: { type: "integer" } }, required: ["a"], additionalProperties: false },
  Empty: { type: "object", additionalProperties: false },
  Extra: { type: "object", properties: { a: { type: "integer" } }, additionalProperties: { type: "string" } },
  Untyped: { properties: { a: { type: "string" } }, required: ["a"] },
  RequiredOnly: { required: ["x"] },
  TypeArray: { type: ["string", "null", "integer"], minimum: 2, maxLength: 3 },
  Int: { type: "integer", minimum: 0, exclusiveMaximum: 10 },
  Num: { type: "number", exclusiveMinimum: 0, maximum: 1 },
  Triple: { type: "number", multipleOf: 3 },
  Str: { type: "string", minLength: 2, maxLength: 3, pattern: "^[a-zé😀]+$" },
  Arr: { type: "array", items: { $ref: "#/$defs/Int" }, minItems: 1, maxItems: 3 },
  NoItems: { type: "array", items: false },
  One: { oneOf: [{ type: "integer" }, { type: "number", minimum: 5 }] },
  Any: { anyOf: [{ type: "string" }, { $ref: "#/$defs/Closed" }] },
  All: { allOf: [{ $ref: "#/$defs/Closed" }, { properties: { a: { const: "x" } } }] },
  NotString: { not: { type: "string" } },
  Mixed: { enum: ["a", 1, null, true] },
  TypedEnum: { type: "string", enum: ["a", 1, "b"] },
  Zero: { const: 0 },
  Names: { type: "object", propertyNames: { pattern: "^[a-z]+$" }, minProperties: 1, maxProperties: 2 },
  Tree: { type: "object", properties: { value: { type: "integer" }, children: { type: "array", items: { $ref: "#/$defs/Tree" } } }, required: ["value"] },
  Ping: { anyOf: [{ type: "null" }, { $ref: "#/$defs/Pong" }] },
  Pong: { type: "array", items: { $ref: "#/$defs/Ping" } },
  Anything: { description: "the true schema" },
  Cat: { type: "object", properties: { kind: { type: "string", const: "cat" }, lives: { type: "integer" } }, required: ["kind", "lives"] },
  Dog: { type: "object", properties: { kind: { type: "string", const: "dog" }, good: { type: "boolean" } }, required: ["kind"] },
  Pet: { anyOf: [{ $ref: "#/$defs/Cat" }, { $ref: "#/$defs/Dog" }] },
};

/**
 * Constructs json-schema-to-typescript types more narrowly than JSON Schema validates (an interface
 * for a schema without `type`, tuples for small `maxItems`, nothing for `not`): faithful schemas of
 * these are wider than their types.ts type, so the type test leaves them out. The MCP schemas use none.
 */
const UNTYPABLE = new Set(["All", "Arr", "NotString", "RequiredOnly", "Untyped"]);

/** Instances at the edges of what the synthetic schemas say, on top of the generated corpus. */
const EDGES: Record<string, Json[]> = {
  Closed: [{ a: "x" }, { a: "x", c: 1 }, { a: "x", b: 1.0 }, { a: "x", b: 1.5 }, { b: 1 }, []],
  Empty: [{}, { a: 1 }, []],
  Extra: [{ a: 1, z: "s" }, { a: 1, z: 2 }, { z: "s" }, { a: "1" }],
  Untyped: ["s", 1, null, [], {}, { a: 1 }, { a: "x", b: [] }],
  RequiredOnly: [{}, { x: null }, 5, "x"],
  TypeArray: [null, 1, 2, 2.5, "abcd", "abc", "😀😀😀", true],
  Int: [0, -1, 9, 10, 9.5, 2 ** 60, 1e-7],
  Num: [0, 1e-9, 1, 1.0000001],
  // Ajv divides in binary, so beyond 2^53 (2^60, 1e21) it departs from the decimal rule zod follows: those are
  // judged by json_schemer in the keyword fixtures (MultipleOfLarge); here the values where both agree.
  Triple: [0, 3, 4, -9, 3 * 2 ** 50, 2 ** 50, 1.5],
  Str: ["a", "ab", "abcd", "😀😀", "😀😀😀", "😀😀😀😀", "é", "AB", "a😀"],
  Arr: [[], [1], [1, 2, 3], [1, 2, 3, 4], [1.5], ["1"]],
  NoItems: [[], [1], [null]],
  One: [2, 6, 5.5, 4.5, "x"],
  Any: ["s", { a: "x" }, { a: "x", z: 1 }, 3],
  All: [{ a: "x" }, { a: "y" }, { a: "x", c: 1 }, "x"],
  NotString: [1, null, "s", {}],
  Mixed: ["a", 1, 1.0, null, true, false, "b", 2],
  TypedEnum: ["a", "b", 1],
  Zero: [0, -0, 0.0, 1, "0", false, null],
  Names: [{}, { a: 1 }, { a: 1, b: 2 }, { a: 1, b: 2, c: 3 }, { A: 1 }, { "a-b": 1 }, []],
  Tree: [{ value: 1 }, { value: 1, children: [{ value: 2, children: [] }] }, { value: 1, children: [{ children: [] }] }],
  Ping: [null, [], [null, [null]], [[[]]], [null, null, null], [[1]]],
  Pong: [[], [null], [[null]], null, [1], [[[2]]]],
  Anything: [null, 1, "s", [], {}],
  Cat: [{ kind: "cat", lives: 9 }, { kind: "dog", lives: 9 }],
  Dog: [{ kind: "dog" }, { kind: "dog", good: 1 }],
  Pet: [{ kind: "cat", lives: 9 }, { kind: "dog" }, { kind: "cat" }, { kind: "cow" }, {}, "cat"],
};

function model(dialect: Dialect, definitions: Record<string, JsonSchema> = DEFS): VersionModel {
  return syntheticModel(`synthetic-${dialect}`, dialect, definitions);
}

const tmpRoot = path.join(toolRoot, ".tmp", `zod-emit-${process.pid}`);
afterAll(() => rmSync(tmpRoot, { recursive: true, force: true }));

/** Emit a synthetic version into .tmp/ (inside the project, so `zod` resolves) and return its folder. */
async function emitToDisk(dialect: Dialect, tweak?: (files: Map<string, string>) => void, typable = false): Promise<string> {
  const definitions = Object.fromEntries(Object.entries(DEFS).filter(([name]) => !typable || !UNTYPABLE.has(name)));
  const version = model(dialect, definitions);
  const files = await emitVersion(version, syntheticProtocolModel(version).tables.get(version.label)!);
  tweak?.(files);
  const dir = path.join(tmpRoot, `${dialect}-${tweak ? "tweaked" : "plain"}${typable ? "-typable" : ""}`);
  mkdirSync(dir, { recursive: true });
  writeRuntime(tmpRoot);
  for (const [file, text] of files) writeFileSync(path.join(dir, path.basename(file)), text);
  return dir;
}

const oracle = (dialect: Dialect) => ajvOracle(dialect, DEFS);

describe.each(["draft-07", "2020-12"] as const)("zod emitter, %s", (dialect) => {
  it("agrees with Ajv on every synthetic definition, edges and a generated corpus", async () => {
    const dir = await emitToDisk(dialect);
    const zod = (await import(pathToFileURL(path.join(dir, "schemas.ts")).href)) as Record<string, ZodType>;
    const ajv = oracle(dialect);
    const disagreements: string[] = [];
    for (const name of Object.keys(DEFS)) {
      const validate = ajv(name);
      const generator = new InstanceGenerator(DEFS, rng(seedOf(name)));
      const corpus: Json[] = [...EDGES[name]];
      for (let i = 0; i < 100; i++) {
        const instance = generator.generate(DEFS[name]);
        corpus.push(instance, generator.mutate(instance));
      }
      for (const instance of corpus) {
        const expected = validate(instance) as boolean;
        const result = zod[`${name}Schema`].safeParse(instance);
        if (result.success !== expected) disagreements.push(`${name} ${JSON.stringify(instance)}: Ajv says ${expected}`);
        else if (result.success && !sameJson(result.data, instance)) disagreements.push(`${name} ${JSON.stringify(instance)}: zod returned ${JSON.stringify(result.data)}`);
      }
    }
    expect(disagreements).toEqual([]);
  });

  it("keeps unknown keys of open objects and rejects them on closed ones", async () => {
    const dir = await emitToDisk(dialect);
    const zod = (await import(pathToFileURL(path.join(dir, "schemas.ts")).href)) as Record<string, ZodType>;
    expect(zod.TreeSchema.parse({ value: 1, note: "kept" })).toEqual({ value: 1, note: "kept" });
    expect(zod.ClosedSchema.safeParse({ a: "x", note: "no" }).success).toBe(false);
    expect(zod.OneSchema.safeParse(6).success).toBe(false);
    expect(zod.StrSchema.safeParse("😀😀😀").success).toBe(true);
    expect(zod.IntSchema.safeParse(1.5).success).toBe(false);
  });
});

describe("the types of schemas.ts", () => {
  /** Strict type errors of schemas.ts, each as `<line text>: <first message line>`. */
  function typeErrors(dir: string): string[] {
    const program = ts.createProgram([path.join(dir, "schemas.ts")], {
      strict: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      skipLibCheck: true,
      noEmit: true,
      types: [],
    });
    return ts.getPreEmitDiagnostics(program).map((d) => {
      const line = d.file && d.start !== undefined ? d.file.text.split("\n")[d.file.getLineAndCharacterOfPosition(d.start).line].trim() : "";
      return `${line}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n").split("\n")[0]}`;
    });
  }
  const editTypes = (edit: (text: string) => string) => (files: Map<string, string>) => {
    const file = "synthetic-2020-12/types.ts";
    const text = files.get(file)!;
    const edited = edit(text);
    expect(edited).not.toBe(text);
    files.set(file, edited);
  };

  it("declares every exported schema as z.ZodType of its type, so declarations do not carry zod's inferred types", async () => {
    const text = readFileSync(path.join(await emitToDisk("2020-12", undefined, true), "schemas.ts"), "utf8");
    const exported = [...text.matchAll(/^export const (\w+)(.*)$/gm)].filter(([, name]) => name.endsWith("Schema"));
    expect(exported.length).toBeGreaterThan(0);
    for (const [, name, rest] of exported) {
      const type = `z\\.ZodType<T\\.${name.slice(0, -"Schema".length)}>`;
      expect(rest).toMatch(new RegExp(`^(: ${type} = | = ${name}_ as unknown as ${type};$)`));
    }
  });

  it("compiles when every schema's output fits its type, and fails the type test at the schema whose output does not", async () => {
    expect(typeErrors(await emitToDisk("2020-12", undefined, true))).toEqual([]);
    // Narrow one type so the (unchanged) schema's output no longer fits it.
    const errors = typeErrors(await emitToDisk("2020-12", editTypes((t) => t.replace(/(export interface Dog \{[^}]*good\?: )boolean/, "$1true")), true));
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((e) => /^Within<z\.output<typeof (Dog|Pet)Schema_>, T\.(Dog|Pet)>,: .* does not satisfy the constraint '(Dog|Pet)'/.test(e))).toBe(true);
  });

  it("fails its type test when a type declares a property the schema does not (which assignability lets through)", async () => {
    // An optional property only in the type: the schema's output (an open object) is still assignable to it.
    const errors = typeErrors(await emitToDisk("2020-12", editTypes((t) => t.replace(/(export interface Dog \{)/, "$1\n  name?: string;")), true));
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((e) => /^Within<.*typeof (Dog|Pet)Schema_.*: Type '.*' does not satisfy the constraint/.test(e))).toBe(true);
    // The direction that fails is the type's names within the schema's.
    expect(errors.some((e) => e.startsWith("Within<DeclaredKeys<T.Dog>, DeclaredKeys<z.output<typeof DogSchema_>>>"))).toBe(true);
  });
});

describe("the IR builder refuses what no printer can express", () => {
  const fails = (defs: Record<string, JsonSchema>, dialect: Dialect = "2020-12") => {
    try {
      model(dialect, defs);
    } catch (e) {
      return e as InputError;
    }
    return null;
  };

  it("names the file, the definition and the JSON pointer of an unsupported keyword", () => {
    const error = fails({ Bad: { type: "object", properties: { x: { type: "array", $recursiveRef: "#" } } } });
    expect(error).toBeInstanceOf(InputError);
    expect(error?.file).toBe("synthetic-2020-12/schema.json");
    expect(error?.pointer).toBe("/$defs/Bad/properties/x/$recursiveRef");
    expect(error?.message).toContain('cannot express Bad: the keyword "$recursiveRef" is not supported');
  });

  it("points into `definitions` for draft-07", () => {
    expect(fails({ Later: { type: "array", prefixItems: [{ type: "string" }] } }, "draft-07")?.pointer).toBe("/definitions/Later/prefixItems");
  });

  it("refuses a multipleOf that is no positive number and a pattern that is not ECMA-262 (u); takes a decimal multipleOf", () => {
    expect(fails({ Zero: { type: "number", multipleOf: 0 } })?.pointer).toBe("/$defs/Zero/multipleOf");
    expect(fails({ Tenth: { type: "number", multipleOf: 0.1 } })).toBeNull();
    expect(fails({ Half: { type: "number", multipleOf: 0.5 } })).toBeNull();
    expect(fails({ Bad: { type: "string", pattern: "(?<" } })?.pointer).toBe("/$defs/Bad/pattern");
  });
});

describe("names decided by the naming pass", () => {
  it("gives a definition named like another's schema constant a distinct, stable schema name", () => {
    const v = model("2020-12", { Foo: { type: "string" }, FooSchema: { type: "string" } });
    const names = (n: string) => definitionNaming(v.ir).of(n);
    // The type FooSchema keeps its name, so Foo's schema constant cannot be FooSchema (the version's
    // index.ts exports both): it is FooSchema_2, and the schema as built is named after it.
    expect(names("FooSchema")).toEqual({ type: "FooSchema", schema: "FooSchemaSchema", guard: "isFooSchema", built: "FooSchemaSchema_" });
    expect(names("Foo")).toEqual({ type: "Foo", schema: "FooSchema_2", guard: "isFoo", built: "FooSchema_2_" });
  });
});
