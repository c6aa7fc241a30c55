// schemas.ts: one zod 4 schema per definition (`XSchema` validates `X`), compiled from the model's
// JSON Schema into static source, with the dialect's semantics where zod's defaults differ:
// objects never strip unknown keys, a schema without `type` accepts every type it does not
// constrain, `integer` is any integral number, string lengths count code points, `format` is an
// annotation. A keyword that cannot be expressed faithfully fails generation (InputError with the
// definition's pointer); nothing falls back to `z.any()`.
import { InputError, pointer } from "../errors.js";
import { ANNOTATION_KEYWORDS } from "../model/keywords.js";
import { refName } from "../spec/load.js";
import type { JsonSchema, VersionModel } from "../model/types.js";


const JSON_TYPES = ["object", "array", "string", "number", "integer", "boolean", "null"] as const;
type JsonType = (typeof JSON_TYPES)[number];

/** Which keywords constrain which instance type (they pass every other type). */
const TYPE_KEYWORDS: Record<string, "object" | "array" | "string" | "number"> = {
  properties: "object",
  required: "object",
  additionalProperties: "object",
  propertyNames: "object",
  minProperties: "object",
  maxProperties: "object",
  items: "array",
  minItems: "array",
  maxItems: "array",
  minLength: "string",
  maxLength: "string",
  pattern: "string",
  minimum: "number",
  maximum: "number",
  exclusiveMinimum: "number",
  exclusiveMaximum: "number",
  multipleOf: "number",
};
const APPLICATORS = new Set(["$ref", "allOf", "anyOf", "oneOf", "not", "type", "const", "enum"]);

/** Helpers a schemas.ts may need, emitted only when used. */
const HELPERS = {
  integer: `/** JSON Schema \`integer\`: any integral number (1.0 included, not only safe integers). */
const integer = () => z.number().refine(Number.isInteger, { message: "Invalid input: expected integer" });`,
  codePoints: `/** String length as JSON Schema counts it: in code points, not UTF-16 units. */
const codePoints = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};`,
} as const;
type Helper = keyof typeof HELPERS;

export interface ZodDeclaration {
  /** The definition (`CallToolResult`). */
  definition: string;
  /** The exported schema constant (`CallToolResultSchema`). */
  name: string;
  /** The zod expression, multi-line, indented from column 0. */
  expr: string;
  /** In a reference cycle: declared as `z.ZodType<X>` and referenced through `z.lazy`. */
  recursive: boolean;
}

export interface ZodModule {
  /** Declarations in dependency order (a definition after everything it references, cycles aside). */
  declarations: ZodDeclaration[];
  /** Helper functions the declarations use, as source. */
  helpers: string[];
  /** Definitions named as types in the source (the recursive ones). */
  typeImports: string[];
  requestParams: Array<{ method: string; expr: string }>;
  results: Array<{ method: string; expr: string }>;
  notificationParams: Array<{ method: string; expr: string }>;
}

/** The exported name of a definition's schema. */
export function schemaName(definition: string): string {
  return `${definition}Schema`;
}

const isObject = (v: unknown): v is JsonSchema => typeof v === "object" && v !== null && !Array.isArray(v);
const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const key = (k: string) => (IDENT.test(k) ? k : JSON.stringify(k));

/** Indent every line after the first by two spaces (for nesting a multi-line expression). */
const nest = (text: string) => text.replace(/\n/g, "\n  ");

function list(open: string, items: string[], close: string): string {
  if (items.length === 0) return open + close;
  const flat = `${open}${items.join(", ")}${close}`;
  if (!flat.includes("\n") && flat.length <= 100) return flat;
  return `${open}\n  ${items.map(nest).join(",\n  ")},\n${close}`;
}

/** Definitions a schema node references, in order of appearance. */
function references(node: unknown, out: Set<string> = new Set()): Set<string> {
  if (Array.isArray(node)) for (const item of node) references(item, out);
  else if (isObject(node)) {
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string") out.add(refName(v));
      else if (k !== "const" && k !== "enum" && k !== "default" && k !== "examples") references(v, out);
    }
  }
  return out;
}

/** Definitions in dependency order, and which are in a reference cycle (Tarjan, names sorted for determinism). */
function orderDefinitions(defs: Readonly<Record<string, JsonSchema>>): { order: string[]; recursive: Set<string> } {
  const names = Object.keys(defs).sort();
  const edges = new Map(names.map((n) => [n, [...references(defs[n])].sort()]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const order: string[] = [];
  const recursive = new Set<string>();
  let counter = 0;
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      scc.sort();
      if (scc.length > 1 || edges.get(v)!.includes(v)) for (const s of scc) recursive.add(s);
      order.push(...scc);
    }
  };
  for (const n of names) if (!index.has(n)) visit(n);
  return { order, recursive };
}

interface Ctx {
  version: VersionModel;
  definition: string;
  /** Definitions already declared above the one being compiled. */
  declared: Set<string>;
  recursive: Set<string>;
  helpers: Set<Helper>;
}

class Compiler {
  constructor(private readonly ctx: Ctx) {}

  fail(message: string, tokens: Array<string | number>): never {
    const { version, definition } = this.ctx;
    const container = version.dialect === "draft-07" ? "definitions" : "$defs";
    throw new InputError(`cannot express ${definition} in zod faithfully: ${message}`, `${version.label}/schema.json`, pointer(container, definition, ...tokens));
  }

  ref(name: string): string {
    const { declared, recursive, definition } = this.ctx;
    const target = schemaName(name);
    // A definition not yet declared (or one of a cycle) is reached lazily, at parse time.
    if (!declared.has(name) || (recursive.has(name) && recursive.has(definition))) return `z.lazy(() => ${target})`;
    return target;
  }

  /** The zod expression of one schema node. */
  compile(node: unknown, at: Array<string | number>): string {
    if (node === true) return "z.unknown()";
    if (node === false) return "z.never()";
    if (!isObject(node)) return this.fail("expected a schema (an object or a boolean)", at);

    for (const k of Object.keys(node)) {
      if (!ANNOTATION_KEYWORDS.has(k) && !APPLICATORS.has(k) && !Object.hasOwn(TYPE_KEYWORDS, k)) this.fail(`the keyword "${k}" is not supported`, [...at, k]);
    }
    const parts: string[] = [];
    if (typeof node.$ref === "string") parts.push(this.ref(refName(node.$ref)));
    const base = this.typed(node, at);
    if (base !== null) parts.push(base);
    if (node.allOf !== undefined) {
      this.schemaList(node.allOf, [...at, "allOf"]).forEach((s, i) => parts.push(this.compile(s, [...at, "allOf", i])));
    }
    if (node.anyOf !== undefined) parts.push(this.union(this.schemaList(node.anyOf, [...at, "anyOf"]), [...at, "anyOf"], false));
    if (node.oneOf !== undefined) parts.push(this.union(this.schemaList(node.oneOf, [...at, "oneOf"]), [...at, "oneOf"], true));
    if (node.not !== undefined) {
      parts.push(`z.unknown().refine((v) => !${nest(this.compile(node.not, [...at, "not"]))}.safeParse(v).success, { message: "Invalid input: matches a schema it must not" })`);
    }
    if (parts.length === 0) return "z.unknown()";
    return parts.reduce((acc, p) => `z.intersection(${nest(acc)}, ${nest(p)})`);
  }

  schemaList(value: unknown, at: Array<string | number>): unknown[] {
    if (!Array.isArray(value) || value.length === 0) return this.fail("expected a non-empty array of schemas", at);
    return value;
  }

  /** `anyOf` (`exclusive`: `oneOf`): a discriminated union where the branches make one possible, else a union. */
  union(branches: unknown[], at: Array<string | number>, exclusive: boolean): string {
    const compiled = branches.map((b, i) => this.compile(b, [...at, i]));
    if (compiled.length === 1) return compiled[0];
    const discriminator = this.discriminator(branches);
    // With a discriminator at most one branch can match, so a plain union is already exclusive.
    if (discriminator !== null) return `z.discriminatedUnion(${JSON.stringify(discriminator)}, ${list("[", compiled, "]")})`;
    return `${exclusive ? "z.xor" : "z.union"}(${list("[", compiled, "]")})`;
  }

  /**
   * A property every branch requires with a distinct string `const`, when every branch is a `$ref`
   * to a non-recursive, already declared definition that compiles to a plain zod object.
   */
  discriminator(branches: unknown[]): string | null {
    const defs = this.ctx.version.definitions;
    const targets: JsonSchema[] = [];
    for (const b of branches) {
      if (!isObject(b) || typeof b.$ref !== "string" || Object.keys(b).some((k) => k !== "$ref" && !ANNOTATION_KEYWORDS.has(k))) return null;
      const name = refName(b.$ref);
      if (!this.ctx.declared.has(name) || this.ctx.recursive.has(name) || !compilesToObject(defs[name])) return null;
      targets.push(defs[name]);
    }
    const candidates = Object.keys((targets[0].properties as object | undefined) ?? {}).sort();
    for (const prop of candidates) {
      const values = targets.map((t) => {
        const p = (t.properties as Record<string, unknown> | undefined)?.[prop];
        const required = Array.isArray(t.required) && t.required.includes(prop);
        return required && isObject(p) && typeof p.const === "string" ? p.const : null;
      });
      if (values.every((v) => v !== null) && new Set(values).size === values.length) return prop;
    }
    return null;
  }

  /** The `type`/`const`/`enum` part and the type-specific keywords, or null when the node has none. */
  typed(node: JsonSchema, at: Array<string | number>): string | null {
    const specific = Object.keys(node).filter((k) => Object.hasOwn(TYPE_KEYWORDS, k));
    const hasValues = node.const !== undefined || node.enum !== undefined;
    if (node.type === undefined && specific.length === 0 && !hasValues) return null;

    let types: JsonType[];
    if (node.type === undefined) types = ["object", "array", "string", "number", "boolean", "null"];
    else {
      const raw = Array.isArray(node.type) ? node.type : [node.type];
      if (raw.length === 0 || raw.some((t) => !(JSON_TYPES as readonly unknown[]).includes(t))) this.fail("expected type to be a JSON type or a non-empty array of them", [...at, "type"]);
      types = [...new Set(raw as JsonType[])];
      if (types.includes("number")) types = types.filter((t) => t !== "integer");
    }

    if (hasValues) {
      if (specific.length > 0) this.fail(`"const"/"enum" beside ${specific.map((s) => `"${s}"`).join(", ")} is not supported`, at);
      const values = node.const !== undefined ? [node.const] : Array.isArray(node.enum) ? node.enum : this.fail("expected enum to be an array", [...at, "enum"]);
      if (node.const !== undefined && node.enum !== undefined) this.fail(`"const" beside "enum" is not supported`, at);
      for (const v of values) {
        if (typeof v === "object" && v !== null) this.fail("only string, number, boolean and null values are supported in const/enum", [...at, node.const !== undefined ? "const" : "enum"]);
      }
      // A value of a type the node does not allow can never validate.
      const allowed = [...new Set(values.filter((v) => types.some((t) => hasType(v, t))))];
      if (allowed.length === 0) return "z.never()";
      if (allowed.length === 1) return `z.literal(${JSON.stringify(allowed[0])})`;
      if (allowed.every((v) => typeof v === "string")) return `z.enum([${allowed.map((v) => JSON.stringify(v)).join(", ")}])`;
      return `z.literal([${allowed.map((v) => JSON.stringify(v)).join(", ")}])`;
    }

    const branches = types.map((t) => this.typeBranch(t, node, at));
    if (branches.length === 1) return branches[0];
    if (branches.length === 2 && types.includes("null")) return `${branches[types.indexOf("null") === 0 ? 1 : 0]}.nullable()`;
    return `z.union(${list("[", branches, "]")})`;
  }

  typeBranch(type: JsonType, node: JsonSchema, at: Array<string | number>): string {
    switch (type) {
      case "null":
        return "z.null()";
      case "boolean":
        return "z.boolean()";
      case "string":
        return this.string(node, at);
      case "number":
      case "integer":
        return this.number(type, node, at);
      case "array":
        return this.array(node, at);
      case "object":
        return this.object(node, at);
    }
  }

  count(node: JsonSchema, k: string, at: Array<string | number>): number | undefined {
    const v = node[k];
    if (v === undefined) return undefined;
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0) return this.fail(`expected "${k}" to be a non-negative integer`, [...at, k]);
    return v;
  }

  string(node: JsonSchema, at: Array<string | number>): string {
    let s = "z.string()";
    const min = this.count(node, "minLength", at);
    const max = this.count(node, "maxLength", at);
    if (min !== undefined || max !== undefined) this.ctx.helpers.add("codePoints");
    if (min !== undefined) s += `.refine((s) => codePoints(s) >= ${min}, { message: "Too small: expected at least ${min} characters" })`;
    if (max !== undefined) s += `.refine((s) => codePoints(s) <= ${max}, { message: "Too big: expected at most ${max} characters" })`;
    if (node.pattern !== undefined) {
      if (typeof node.pattern !== "string") this.fail("expected pattern to be a string", [...at, "pattern"]);
      try {
        new RegExp(node.pattern, "u");
      } catch (e) {
        this.fail(`pattern is not an ECMA-262 regular expression: ${(e as Error).message}`, [...at, "pattern"]);
      }
      s += `.regex(new RegExp(${JSON.stringify(node.pattern)}, "u"))`;
    }
    return s;
  }

  number(type: "number" | "integer", node: JsonSchema, at: Array<string | number>): string {
    let s = "z.number()";
    if (type === "integer") {
      this.ctx.helpers.add("integer");
      s = "integer()";
    }
    const bound = (k: string, method: string) => {
      const v = node[k];
      if (v === undefined) return;
      if (typeof v !== "number") this.fail(`expected "${k}" to be a number`, [...at, k]);
      s += `.${method}(${JSON.stringify(v)})`;
    };
    bound("minimum", "gte");
    bound("maximum", "lte");
    bound("exclusiveMinimum", "gt");
    bound("exclusiveMaximum", "lt");
    if (node.multipleOf !== undefined) {
      // zod's multipleOf rounds through decimal strings; only integer divisors agree with Ajv everywhere.
      const m = node.multipleOf;
      if (typeof m !== "number" || !Number.isSafeInteger(m) || m <= 0) this.fail("only positive integer multipleOf is supported", [...at, "multipleOf"]);
      s += `.refine((n) => Number.isInteger(n / ${m}), { message: "Invalid input: expected a multiple of ${m}" })`;
    }
    return s;
  }

  array(node: JsonSchema, at: Array<string | number>): string {
    if (Array.isArray(node.items)) this.fail("tuple items are not supported", [...at, "items"]);
    const items = node.items === undefined ? "z.unknown()" : this.compile(node.items, [...at, "items"]);
    let s = `z.array(${nest(items)})`;
    const min = this.count(node, "minItems", at);
    const max = this.count(node, "maxItems", at);
    if (min !== undefined) s += `.min(${min})`;
    if (max !== undefined) s += `.max(${max})`;
    return s;
  }

  object(node: JsonSchema, at: Array<string | number>): string {
    const properties = node.properties ?? {};
    if (!isObject(properties)) this.fail("expected properties to be an object", [...at, "properties"]);
    const required = node.required ?? [];
    if (!Array.isArray(required) || required.some((r) => typeof r !== "string")) this.fail("expected required to be an array of strings", [...at, "required"]);
    const shape: string[] = [];
    for (const [name, schema] of Object.entries(properties as JsonSchema)) {
      const expr = this.compile(schema, [...at, "properties", name]);
      shape.push(`${key(name)}: ${required.includes(name) ? expr : `${expr}.optional()`}`);
    }
    // Required but not described: present, with any value.
    for (const name of required as string[]) if (!Object.hasOwn(properties, name)) shape.push(`${key(name)}: z.unknown()`);
    const fields = list("{", shape, "}");

    const extra = node.additionalProperties;
    let s: string;
    if (extra === undefined || extra === true || (isObject(extra) && isTrivial(extra))) s = `z.looseObject(${fields})`;
    else if (extra === false) {
      // Not z.strictObject: inside z.intersection (allOf) zod forgives a key one side does not know
      // when the other side does, where JSON Schema rejects it. A custom issue per key is not forgiven.
      const known = [...new Set([...Object.keys(properties as JsonSchema), ...(required as string[])])];
      const test = known.length === 0 ? "false" : known.map((k) => `k === ${JSON.stringify(k)}`).join(" || ");
      s = `z.looseObject(${fields}).superRefine((o, ctx) => {
  for (const k of Object.keys(o)) if (!(${test})) ctx.addIssue({ code: "custom", path: [k], message: \`Unrecognized key: "\${k}"\` });
})`;
    }
    else s = `z.object(${fields}).catchall(${nest(this.compile(extra, [...at, "additionalProperties"]))})`;

    if (node.propertyNames !== undefined) {
      const names = this.compile(node.propertyNames, [...at, "propertyNames"]);
      s += `.refine((o) => Object.keys(o).every((k) => ${nest(names)}.safeParse(k).success), { message: "Invalid input: a property name is not allowed" })`;
    }
    const min = this.count(node, "minProperties", at);
    const max = this.count(node, "maxProperties", at);
    if (min !== undefined) s += `.refine((o) => Object.keys(o).length >= ${min}, { message: "Too small: expected at least ${min} properties" })`;
    if (max !== undefined) s += `.refine((o) => Object.keys(o).length <= ${max}, { message: "Too big: expected at most ${max} properties" })`;
    return s;
  }
}

/** Whether a value has a JSON type (`integer`: an integral number). */
function hasType(value: unknown, type: JsonType): boolean {
  switch (type) {
    case "null":
      return value === null;
    case "integer":
      return Number.isInteger(value);
    case "array":
      return Array.isArray(value);
    case "object":
      return isObject(value);
    default:
      return typeof value === type;
  }
}

/** A schema that accepts everything: `{}` or annotations only. */
function isTrivial(node: JsonSchema): boolean {
  return Object.keys(node).every((k) => ANNOTATION_KEYWORDS.has(k));
}

/** Whether a definition compiles to a plain zod object (a discriminated union can hold it). */
function compilesToObject(def: JsonSchema): boolean {
  const validating = Object.keys(def).filter((k) => !ANNOTATION_KEYWORDS.has(k));
  return (
    def.type === "object" &&
    validating.every((k) => k === "type" || k === "properties" || k === "required" || k === "additionalProperties")
  );
}

/** The zod module of a version: declarations, helpers and per-method tables. */
export function zodModule(version: VersionModel): ZodModule {
  const defs = version.definitions;
  for (const name of Object.keys(defs)) {
    if (Object.hasOwn(defs, schemaName(name))) {
      throw new InputError(`the schema of ${name} would be exported as ${schemaName(name)}, which is also a definition`, `${version.label}/schema.json`);
    }
  }
  const { order, recursive } = orderDefinitions(defs);
  const declared = new Set<string>();
  const helpers = new Set<Helper>();
  const declarations: ZodDeclaration[] = [];
  for (const definition of order) {
    const compiler = new Compiler({ version, definition, declared, recursive, helpers });
    declarations.push({ definition, name: schemaName(definition), expr: compiler.compile(defs[definition], []), recursive: recursive.has(definition) });
    declared.add(definition);
  }

  const paramsExpr = (definition: string, schema: JsonSchema | undefined) => {
    if (schema === undefined) return "z.unknown()";
    if (typeof schema.$ref === "string") return schemaName(refName(schema.$ref));
    return nest(new Compiler({ version, definition, declared, recursive, helpers }).compile(schema, ["properties", "params"]));
  };
  return {
    declarations,
    helpers: (Object.keys(HELPERS) as Helper[]).filter((h) => helpers.has(h)).map((h) => HELPERS[h]),
    typeImports: declarations.filter((d) => d.recursive).map((d) => d.definition).sort(),
    requestParams: version.requests.map((r) => ({ method: r.method, expr: paramsExpr(r.definition, r.params?.schema) })),
    results: version.requests.map((r) => ({
      method: r.method,
      expr: r.results.length === 1 ? schemaName(r.results[0]) : nest(list("z.union([", r.results.map(schemaName), "])")),
    })),
    notificationParams: version.notifications.map((n) => ({ method: n.method, expr: paramsExpr(n.definition, n.params?.schema) })),
  };
}
