// The type printer over the schema IR (generator/emit/typescript.ts), on synthetic schemas: exact
// output for each construct, the openness rule with and without a schema.ts, `extends`, names and
// doc comments; and every printed module compiles under strict.
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { TypePrinter } from "../../../generator/emit/typescript/declarations.js";
import { buildSchemaIR } from "../../../generator/model/ir-build.js";
import { readSpecTypeFacts } from "../../../generator/model/spec-typescript.js";
import { loadSpecBytes } from "../../../generator/source/load.js";
import { OPTIONS } from "./fidelity.js";

type Defs = Record<string, unknown>;

/** The declarations printed for `defs` (a 2020-12 schema), with `schemaTs` as the version's schema.ts. */
function print(defs: Defs, schemaTs?: string): string {
  const spec = loadSpecBytes(Buffer.from(JSON.stringify({ $schema: "https://json-schema.org/draft/2020-12/schema", $defs: defs })), "schema.json", "synthetic");
  const facts = schemaTs === undefined ? null : readSpecTypeFacts("schema.ts", schemaTs);
  return new TypePrinter(buildSchemaIR(spec), facts).declarations().join("\n\n");
}

/** The one declaration of `name` in printed output (its doc comment included). */
function declaration(printed: string, name: string): string {
  const blocks = printed.split("\n\n");
  const found = blocks.find((b) => new RegExp(`^export (interface|type) ${name}\\b`, "m").test(b));
  if (found === undefined) throw new Error(`no declaration of ${name} in:\n${printed}`);
  return found;
}

/** Strict TypeScript diagnostics of a module, with `extra` appended (for type assertions). */
function compile(source: string, extra = ""): string[] {
  const file = "/virtual/types.ts";
  const options: ts.CompilerOptions = { ...OPTIONS, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler };
  const host = ts.createCompilerHost(options);
  const original = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, onError, create) => (name === file ? ts.createSourceFile(name, `${source}\n${extra}`, language) : original(name, language, onError, create));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === file || fileExists(name);
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

describe("printing IR nodes", () => {
  const defs: Defs = {
    Role: { enum: ["user", "assistant"], type: "string" },
    Code: { const: -32021, type: "integer" },
    Id: { type: ["string", "integer"] },
    Anything: { description: "Any JSON value." },
    Nothing: false,
    NotString: { not: { type: "string" } },
    Pair: { type: "array", items: { anyOf: [{ $ref: "#/$defs/Role" }, { type: "null" }] } },
    Both: { allOf: [{ $ref: "#/$defs/Point" }, { anyOf: [{ $ref: "#/$defs/Role" }, { $ref: "#/$defs/Code" }] }] },
    Point: {
      type: "object",
      description: "A point. Ends a comment: */ here.",
      properties: { x: { type: "number", description: "Across." }, "y-axis": { type: "number", deprecated: true }, tag: { $ref: "#/$defs/Role" } },
      required: ["x"],
    },
    "Record<string,string>": { type: "object", additionalProperties: { type: "string" } },
  };
  const printed = print(defs);

  it("prints literals, unions, arrays, intersections, unknown and never exactly", () => {
    expect(declaration(printed, "Role")).toBe(`export type Role = "user" | "assistant";`);
    expect(declaration(printed, "Code")).toBe("export type Code = -32021;");
    expect(declaration(printed, "Id")).toBe("export type Id = string | number;");
    expect(declaration(printed, "Anything")).toBe("/**\n * Any JSON value.\n */\nexport type Anything = unknown;");
    expect(declaration(printed, "Nothing")).toBe("export type Nothing = never;");
    expect(declaration(printed, "NotString")).toBe("export type NotString = unknown;");
    expect(declaration(printed, "Pair")).toBe("export type Pair = (Role | null)[];");
    expect(declaration(printed, "Both")).toBe("export type Both = Point & (Role | Code);");
  });

  it("prints an object definition as an interface with its doc comments, optional and quoted keys", () => {
    expect(declaration(printed, "Point")).toBe(
      [
        "/**",
        " * A point. Ends a comment: *\\/ here.",
        " */",
        "export interface Point {",
        "  /**",
        "   * Across.",
        "   */",
        "  x: number;",
        "  /**",
        "   * @deprecated",
        "   */",
        '  "y-axis"?: number;',
        "  tag?: Role;",
        "}",
      ].join("\n"),
    );
  });

  it("names a definition by the naming pass, and says which spec definition a renamed one is", () => {
    const renamed = declaration(printed, "RecordStringString");
    expect(renamed).toContain('The definition "Record<string,string>" of the schema, named RecordStringString here.');
    expect(renamed).toContain("export interface RecordStringString {\n  [key: string]: string;\n}");
  });

  it("compiles under strict", () => {
    expect(compile(printed)).toEqual([]);
  });

  it("is the same text on every run", () => {
    expect(print(defs)).toBe(printed);
  });
});

describe("open and closed objects without a schema.ts (the fallback rule)", () => {
  const defs: Defs = {
    Closed: { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
    Strict: { type: "object", properties: { a: { type: "string" } }, additionalProperties: false },
    Bag: { type: "object" },
    Open: { type: "object", properties: { a: { type: "string" } }, additionalProperties: true },
    Numbers: { type: "object", additionalProperties: { type: "number" } },
    Mixed: { type: "object", properties: { a: { type: "string" } }, required: ["a"], additionalProperties: { type: "number" } },
    Meta: { type: "object", properties: { progressToken: { type: "string" } } },
    Message: {
      type: "object",
      properties: {
        _meta: { $ref: "#/$defs/Meta" },
        params: { type: "object", properties: { _meta: { type: "object", properties: { id: { type: "string" } } } } },
      },
    },
    Loose: { properties: { a: { type: "string" } } },
  };
  const printed = print(defs);

  it("closes an object with properties, and one whose additionalProperties is false", () => {
    expect(declaration(printed, "Closed")).toBe("export interface Closed {\n  a: string;\n}");
    expect(declaration(printed, "Strict")).toBe("export interface Strict {\n  a?: string;\n}");
  });

  it("opens an object without properties, and one whose additionalProperties allows", () => {
    expect(declaration(printed, "Bag")).toBe("export interface Bag {\n  [key: string]: unknown;\n}");
    expect(declaration(printed, "Open")).toBe("export interface Open {\n  a?: string;\n  [key: string]: unknown;\n}");
    expect(declaration(printed, "Numbers")).toBe("export interface Numbers {\n  [key: string]: number;\n}");
    // The declared properties must fit the index signature.
    expect(declaration(printed, "Mixed")).toBe("export interface Mixed {\n  a: string;\n  [key: string]: number | string;\n}");
  });

  it("opens every _meta object: inline ones, and definitions used as one", () => {
    expect(declaration(printed, "Meta")).toBe("export interface Meta {\n  progressToken?: string;\n  [key: string]: unknown;\n}");
    expect(declaration(printed, "Message")).toBe(
      "export interface Message {\n  _meta?: Meta;\n  params?: {\n    _meta?: {\n      id?: string;\n      [key: string]: unknown;\n    };\n  };\n}",
    );
  });

  it("prints an object schema without type as the object, saying other types are valid", () => {
    expect(declaration(printed, "Loose")).toBe(
      "/**\n * The schema has no `type`: values of the JSON types it does not constrain are valid too.\n */\nexport interface Loose {\n  a?: string;\n}",
    );
  });

  it("compiles, and the openness is what TypeScript sees", () => {
    const checks = [
      "export const a: Message = { _meta: { progressToken: 't', traceparent: 'x' }, params: { _meta: { extra: 1 } } };",
      "export const b: Open = { a: 'x', b: 1 };",
      "// @ts-expect-error closed",
      "export const c: Closed = { a: 'x', b: 1 };",
    ].join("\n");
    expect(compile(printed, checks)).toEqual([]);
  });
});

describe("with a schema.ts: open objects, object and extends as the spec's TypeScript writes them", () => {
  // What the spec's generator writes: inherited members flattened, inherited index signatures lost,
  // `object` as an empty object with additionalProperties true.
  const defs: Defs = {
    Result: { type: "object", properties: { _meta: { type: "object", additionalProperties: {} } }, additionalProperties: {} },
    ToolResult: { type: "object", properties: { _meta: { type: "object", additionalProperties: {} }, content: { type: "array", items: { type: "string" } } }, required: ["content"] },
    Request: { type: "object", properties: { method: { type: "string" }, params: { type: "object", additionalProperties: {} } }, required: ["method"] },
    PingParams: { type: "object", properties: { id: { type: "string" } } },
    PingRequest: {
      type: "object",
      properties: { method: { const: "ping", type: "string" }, params: { $ref: "#/$defs/PingParams" }, hint: { type: "object", additionalProperties: true, properties: {} } },
      required: ["method"],
    },
    Narrowed: { type: "object", properties: { method: { type: "string" } } },
    Closed: { type: "object", properties: { a: { type: "string" } } },
  };
  const schemaTs = `
    export interface Result { _meta?: { [key: string]: unknown }; [key: string]: unknown }
    export interface ToolResult extends Result { content: string[] }
    export interface Request { method: string; params?: { [key: string]: any } }
    export interface PingParams { id?: string }
    export interface PingRequest extends Request { method: "ping"; params?: PingParams; hint?: object }
    /** Says it extends Request, but schema.json lost the required method: no extends then. */
    export interface Narrowed extends Request {}
    export type Closed = { a?: string };
  `;
  const printed = print(defs, schemaTs);

  it("extends what the spec extends, leaving inherited members to the base", () => {
    expect(declaration(printed, "ToolResult")).toBe("export interface ToolResult extends Result {\n  content: string[];\n}");
    expect(declaration(printed, "Result")).toBe("export interface Result {\n  _meta?: {\n    [key: string]: unknown;\n  };\n  [key: string]: unknown;\n}");
  });

  it("keeps `any` index signatures and `object` where the spec writes them, and narrowed members", () => {
    expect(declaration(printed, "Request")).toBe("export interface Request {\n  method: string;\n  params?: {\n    [key: string]: any;\n  };\n}");
    expect(declaration(printed, "PingRequest")).toBe('export interface PingRequest extends Request {\n  method: "ping";\n  params?: PingParams;\n  hint?: object;\n}');
  });

  it("does not extend a base whose member the definition does not have as required", () => {
    expect(declaration(printed, "Narrowed")).toBe("export interface Narrowed {\n  method?: string;\n}");
  });

  it("keeps a closed object closed", () => {
    expect(declaration(printed, "Closed")).toBe("export interface Closed {\n  a?: string;\n}");
  });

  it("compiles, and an extended open result accepts extra keys", () => {
    const checks = ["export const r: ToolResult = { content: [], extra: 1 };", "export const p: PingRequest = { method: 'ping', hint: { any: 1 } };"].join("\n");
    expect(compile(printed, checks)).toEqual([]);
  });
});

describe("reading schema.ts", () => {
  const source = `
    export type MetaObject = Record<string, unknown>;
    export interface RequestMeta extends MetaObject { token?: string }
    export interface Base { a: string; [key: string]: unknown }
    export interface Child extends Base, Other { b: { c: object; d: { [key: string]: any } }[] }
    export interface Other { o?: number }
    export interface Trimmed extends Omit<Base, "a"> { e: Base & { f: { g: string } } }
    export type Alias = { h: string };
    export type Union = Base | Other;
  `;
  const facts = readSpecTypeFacts("schema.ts", source);

  it("knows open, closed and object locations, inherited index signatures included", () => {
    expect(facts.definitions.MetaObject.objects).toEqual({ "": "open" });
    expect(facts.definitions.RequestMeta.objects[""]).toBe("open");
    expect(facts.definitions.Other.objects[""]).toBe("closed");
    expect(facts.definitions.Child.objects).toEqual({ "": "open", "/.b/[]": "closed", "/.b/[]/.c": "object", "/.b/[]/.d": "open-any" });
    expect(facts.definitions.Child.objects["/.b/[]/.c"]).toBe("object");
    expect(facts.definitions.Child.objects["/.b/[]/.d"]).toBe("open-any");
    expect(facts.definitions.Trimmed.objects[""]).toBe("open");
    expect(facts.definitions.Trimmed.objects["/.e"]).toBe("open");
    expect(facts.definitions.Trimmed.objects["/.e/.f"]).toBe("closed");
    expect(facts.definitions.Alias.objects[""]).toBe("closed");
    expect(facts.definitions.Union.objects[""]).toBeUndefined();
  });

  it("lists plain-name bases only, in order", () => {
    expect(facts.definitions.Child.extends).toEqual(["Base", "Other"]);
    expect(facts.definitions.RequestMeta.extends).toEqual(["MetaObject"]);
    expect(facts.definitions.Trimmed.extends).toEqual([]);
  });
});
