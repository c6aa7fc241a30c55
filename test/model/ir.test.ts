// Synthetic schemas for each shape the spec has published or may publish that the model once
// refused or crashed on: a definition name that is not an identifier, names that collide after
// sanitising, an inline result schema, a union of inline and referenced results. The model, the
// naming pass and the schema printers are checked against literal expectations and Ajv.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { ZodType } from "zod";
import { guardsFile, schemasFile, typesFile } from "../../generator/emit/typescript/tree.js";
import { definitionNaming, versionNaming } from "../../generator/emit/typescript/naming.js";
import { InputError } from "../../generator/errors.js";
import { buildVersionModel } from "../../generator/model/build.js";
import { buildSchemaIR } from "../../generator/model/ir-build.js";
import type { VersionModel } from "../../generator/model/types.js";
import { toolRoot } from "../../generator/paths.js";
import { loadSpecBytes } from "../../generator/source/load.js";
import { ajvOracle, strictErrors, writeRuntime } from "../emit/typescript/corpus.js";

const request = (method: string, params?: object) => ({
  type: "object",
  properties: { method: { const: method, type: "string" }, ...(params ? { params } : {}) },
  required: ["method"],
});

/** Written in any key order: the names must not depend on it. */
const DEFS: Record<string, object> = {
  ClientRequest: { anyOf: [{ $ref: "#/$defs/InitializeRequest" }, { $ref: "#/$defs/PingRequest" }, { $ref: "#/$defs/ToolsCallRequest" }] },
  InitializeRequest: request("initialize", { type: "object", properties: { env: { $ref: "#/$defs/Record<string,string>" } } }),
  // An inline result; no InitializeResult definition exists, so the derived one takes that name.
  InitializeResultResponse: {
    type: "object",
    properties: { result: { type: "object", properties: { protocolVersion: { type: "string" } }, required: ["protocolVersion"] } },
  },
  PingRequest: request("ping"),
  // A union of a referenced and an inline result; PingResult is taken, so the inline one is PingResult2.
  PingResultResponse: {
    type: "object",
    properties: { result: { anyOf: [{ $ref: "#/$defs/EmptyResult" }, { type: "object", properties: { pong: { type: "boolean" } }, required: ["pong"] }] } },
  },
  PingResult: { type: "string", description: "not the result of ping: only its name is" },
  ToolsCallRequest: request("tools/call"),
  ToolsCallResult: { type: "object", properties: { content: { type: "array", items: { $ref: "#/$defs/Foo Bar" } } }, required: ["content"] },
  EmptyResult: { type: "object", properties: { _meta: { type: "object" } } },
  "Record<string,string>": { type: "object", additionalProperties: { type: "string" } },
  // Both sanitise to FooBar; so would the valid identifier Baz's neighbour `Baz!`.
  "Foo-Bar": { type: "integer" },
  "Foo Bar": { type: "string" },
  Baz: { type: "boolean" },
  "Baz!": { type: "null" },
  // Ends a comment where the printers name the original in one.
  "Odd*/Name": { type: "string" },
};

function model(defs: Record<string, object> = DEFS): VersionModel {
  const doc = { $schema: "https://json-schema.org/draft/2020-12/schema", $defs: defs };
  const spec = loadSpecBytes(Buffer.from(JSON.stringify(doc)), "fixture/schema.json", "fixture");
  return buildVersionModel(spec, { specCommit: null });
}

const names = (v: VersionModel) => Object.fromEntries([...v.ir.definitions.values()].map((d) => [d.name, Object.values(definitionNaming(v.ir).of(d)).join(" ")]));

describe("the naming pass", () => {
  const v = model();

  it("gives a definition whose name is not an identifier a derived one, for every emitted name", () => {
    expect(names(v)["Record<string,string>"]).toBe("RecordStringString RecordStringStringSchema isRecordStringString RecordStringStringSchema_");
  });

  it("disambiguates names that collide after sanitising, a spec identifier keeping its own", () => {
    expect(names(v)["Foo Bar"]).toBe("FooBar FooBarSchema isFooBar FooBarSchema_");
    expect(names(v)["Foo-Bar"]).toBe("FooBar_2 FooBar_2Schema isFooBar_2 FooBar_2Schema_");
    expect(names(v).Baz).toBe("Baz BazSchema isBaz BazSchema_");
    expect(names(v)["Baz!"]).toBe("Baz_2 Baz_2Schema isBaz_2 Baz_2Schema_");
    expect(names(v)["Odd*/Name"]).toBe("OddName OddNameSchema isOddName OddNameSchema_");
  });

  it("is stable across runs and independent of the order definitions are written in", () => {
    const reversed = Object.fromEntries(Object.entries(DEFS).reverse());
    expect(names(model(reversed))).toEqual(names(v));
  });

  it("names normalizers from the request's type name", () => {
    expect(v.requests.map((r) => `${r.method} ${versionNaming(v).normalizer(r)}`)).toEqual([
      "initialize normalizeInitializeResult",
      "ping normalizePingResult",
      "tools/call normalizeToolsCallResult",
    ]);
  });
});

describe("results of any shape", () => {
  const v = model();
  const byMethod = (m: string) => v.requests.find((r) => r.method === m)!;

  it("makes an inline result a derived definition named <Base>Result", () => {
    const r = byMethod("initialize");
    expect([r.results, versionNaming(v).resultType(r), r.resultSource, r.resultShape]).toEqual([["InitializeResult"], "InitializeResult", "result-response", "object"]);
    const d = v.ir.definitions.get("InitializeResult")!;
    expect(d.derived?.from).toEqual({ file: "fixture/schema.json", pointer: "#/$defs/InitializeResultResponse/properties/result" });
    expect(definitionNaming(v.ir).of(d).schema).toBe("InitializeResultSchema");
  });

  it("keeps referenced branches and derives a free name for inline ones in a union", () => {
    const r = byMethod("ping");
    expect([r.results, versionNaming(v).resultType(r), r.resultShape]).toEqual([["EmptyResult", "PingResult2"], "EmptyResult | PingResult2", "object"]);
    expect(v.ir.definitions.get("PingResult2")!.derived?.from.pointer).toBe("#/$defs/PingResultResponse/properties/result/anyOf/1");
    expect(v.ir.definitions.get("PingResult")!.derived).toBeNull();
  });

  it("still finds <Base>Result by name", () => {
    expect(byMethod("tools/call").results).toEqual(["ToolsCallResult"]);
  });
});

describe("schemas.ts and guards.ts of the fixture", () => {
  const v = model();
  const dir = path.join(toolRoot, ".tmp", `ir-${process.pid}`, "fixture");
  afterAll(() => rmSync(path.dirname(dir), { recursive: true, force: true }));
  const files = {
    "schemas.ts": schemasFile(v),
    "guards.ts": guardsFile(v),
    // schemas.ts declares each schema with its type.
    "types.ts": typesFile(v),
  };
  mkdirSync(dir, { recursive: true });
  writeRuntime(path.dirname(dir));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);

  it("compile under strict", () => {
    expect([...strictErrors(Object.keys(files).map((f) => path.join(dir, f)))]).toEqual([]);
  });

  it("name the original definition where the emitted name differs", () => {
    expect(files["schemas.ts"]).toContain('/** The definition "Record<string,string>" of the schema, named RecordStringString here. */\nexport const RecordStringStringSchema');
    expect(files["guards.ts"]).toContain("/** the inline result of InitializeRequest");
  });

  it("validate derived results as Ajv validates the inline schemas they come from", async () => {
    const schemas = (await import(pathToFileURL(path.join(dir, "schemas.ts")).href)) as { resultSchemas: Record<string, ZodType> };
    const guards = (await import(pathToFileURL(path.join(dir, "guards.ts")).href)) as { resultGuards: Record<string, (v: unknown) => boolean> };
    const oracleDefs = {
      ...DEFS,
      InitializeResult: (DEFS.InitializeResultResponse as { properties: { result: object } }).properties.result,
      PingResultUnion: (DEFS.PingResultResponse as { properties: { result: object } }).properties.result,
    };
    const ajv = ajvOracle("2020-12", oracleDefs);
    const cases: Array<[string, string, unknown[]]> = [
      ["initialize", "InitializeResult", [{ protocolVersion: "x" }, {}, { protocolVersion: 1 }, { protocolVersion: "x", extra: [] }, []]],
      ["ping", "PingResultUnion", [{}, { _meta: {} }, { _meta: 1 }, { pong: true }, { pong: "no", _meta: {} }, "x"]],
    ];
    for (const [method, oracle, instances] of cases) {
      const validate = ajv(oracle);
      for (const instance of instances) {
        const expected = validate(instance) as boolean;
        expect(schemas.resultSchemas[method].safeParse(instance).success, `${method} ${JSON.stringify(instance)}`).toBe(expected);
        if (guards.resultGuards[method](instance)) expect(expected, `guard of ${method} on ${JSON.stringify(instance)}`).toBe(true);
      }
    }
  });
});

describe("the IR builder", () => {
  const ir = (defs: Record<string, object>, dialect: "draft-07" | "2020-12" = "2020-12") =>
    buildSchemaIR({ label: "x", file: "x/schema.json", sha256: "0".repeat(64), dialect, container: dialect === "2020-12" ? "$defs" : "definitions", patches: [], defs: defs as never });

  it("orders definitions after what they reference and marks every member of a cycle", () => {
    const r = ir({ A: { $ref: "#/$defs/B" }, B: { type: "array", items: { $ref: "#/$defs/C" } }, C: { type: "string" }, P: { anyOf: [{ type: "null" }, { $ref: "#/$defs/Q" }] }, Q: { type: "array", items: { $ref: "#/$defs/P" } }, S: { properties: { s: { $ref: "#/$defs/S" } } } });
    expect(r.order).toEqual(["C", "B", "A", "P", "Q", "S"]);
    expect([...r.definitions.values()].filter((d) => d.recursive).map((d) => d.name)).toEqual(["P", "Q", "S"]);
    const a = r.definitions.get("A")!.node;
    expect(a.kind === "ref" && a.target).toBe(r.definitions.get("B"));
  });

  it("makes the meaning of each keyword explicit", () => {
    const r = ir({
      Untyped: { properties: { a: { type: "string" } }, required: ["a", "b"], description: "d" },
      Typed: { type: ["string", "null"], minLength: 1 },
      Lit: { type: "string", enum: ["a", 1, "b", "a"] },
      Mixed: { $ref: "#/$defs/Lit", type: "string", allOf: [{ minLength: 2 }] },
    });
    const untyped = r.definitions.get("Untyped")!.node;
    expect(untyped.kind === "object" && [untyped.impliedType, untyped.properties.map((p) => `${p.name}${p.required ? "" : "?"}:${p.node.kind}${p.requiredOnly ? "!" : ""}`), untyped.annotations]).toEqual([
      true,
      ["a:string", "b:any!"],
      { description: "d" },
    ]);
    const typed = r.definitions.get("Typed")!.node;
    expect(typed.kind === "union" && [typed.source, typed.branches.map((b) => b.kind)]).toEqual(["type", ["string", "null"]]);
    expect(r.definitions.get("Lit")!.node).toMatchObject({ kind: "literal", keyword: "enum", values: ["a", "b"] });
    const mixed = r.definitions.get("Mixed")!.node;
    expect(mixed.kind === "intersection" && [mixed.source, mixed.parts.map((p) => p.kind)]).toEqual(["siblings", ["ref", "string", "string"]]);
  });

  it("decides multipleOf once, as the divisor's shortest decimal form (digits × 10^-scale), binary fraction or not", () => {
    const r = ir({ A: { type: "number", multipleOf: 0.1 }, B: { type: "number", multipleOf: 0.25 }, C: { type: "integer", multipleOf: 3 }, D: { type: "number", multipleOf: 1.5e-7 }, E: { type: "number", multipleOf: 2.5e3 }, F: { type: "number", multipleOf: 1e21 } });
    const of = (name: string) => {
      const n = r.definitions.get(name)!.node;
      return n.kind === "number" ? n.multipleOf : undefined;
    };
    expect(["A", "B", "C", "D", "E", "F"].map(of)).toEqual([
      { value: 0.1, digits: "1", scale: 1 },
      { value: 0.25, digits: "25", scale: 2 },
      { value: 3, digits: "3", scale: 0 },
      { value: 1.5e-7, digits: "15", scale: 8 },
      { value: 2500, digits: "2500", scale: 0 },
      { value: 1e21, digits: "1000000000000000000000", scale: 0 },
    ]);
  });

  it("refuses a reference to no definition, naming the file and the pointer", () => {
    const error = (() => {
      try {
        ir({ A: { type: "object", properties: { b: { $ref: "#/$defs/Missing" } } } }, "draft-07");
      } catch (e) {
        return e as InputError;
      }
    })();
    expect(error).toBeInstanceOf(InputError);
    expect([error?.file, error?.pointer]).toEqual(["x/schema.json", "/definitions/A/properties/b/$ref"]);
    expect(error?.message).toContain('dangling $ref "#/$defs/Missing"');
  });
});
