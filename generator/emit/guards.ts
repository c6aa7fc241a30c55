// guards.ts: one plain-JS predicate per definition (`is<Name>(value): boolean`), the fast path in
// front of the zod schemas. A guard is SOUND, not complete: when it returns true the JSON Schema
// (and the zod schema) accepts the value; when it returns false the caller asks zod, which also
// produces the errors. Constructs compiled exactly: type (integer included), properties/required,
// additionalProperties, const/enum of primitives, anyOf, allOf, $ref, items, min/maxItems,
// minimum/maximum/exclusive*, string lengths in code points. Anything else (oneOf, not, pattern,
// multipleOf, propertyNames, min/maxProperties, tuple items, object consts) compiles to `false`
// for that subschema, so the value falls back to zod.
//
// Reading rules: own properties only (Object.hasOwn), objects only with the prototype JSON.parse
// gives them (Object.prototype or null), arrays are never objects, `__proto__` is a plain key,
// `undefined` is never a JSON value. Nothing is allocated on the success path.
import { InputError } from "../errors.js";
import { ANNOTATION_KEYWORDS } from "../model/keywords.js";
import { refName } from "../spec/load.js";
import type { JsonSchema, VersionModel } from "../model/types.js";


/** Keywords compiled exactly, by the instance type they constrain. */
const EXACT: Record<string, "object" | "array" | "string" | "number" | "any"> = {
  type: "any",
  const: "any",
  enum: "any",
  $ref: "any",
  allOf: "any",
  anyOf: "any",
  properties: "object",
  required: "object",
  additionalProperties: "object",
  items: "array",
  minItems: "array",
  maxItems: "array",
  minLength: "string",
  maxLength: "string",
  minimum: "number",
  maximum: "number",
  exclusiveMinimum: "number",
  exclusiveMaximum: "number",
};

const JSON_TYPES = ["object", "array", "string", "number", "integer", "boolean", "null"] as const;
type JsonType = (typeof JSON_TYPES)[number];

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const isObject = (v: unknown): v is JsonSchema => typeof v === "object" && v !== null && !Array.isArray(v);
/** A property read: `v.name` where that is valid, else `v["na-me"]` (never through the prototype: callers check hasOwn first). */
const prop = (o: string, k: string) => (IDENT.test(k) && k !== "__proto__" ? `${o}.${k}` : `${o}[${JSON.stringify(k)}]`);

/** The exported guard of a definition. */
export function guardName(definition: string): string {
  return `is${definition}`;
}

export interface GuardModule {
  /** Function declarations (exported guards and their helpers), in definition order. */
  functions: string[];
  /** Whether the `codePoints` helper is used. */
  codePoints: boolean;
  requestParams: Array<{ method: string; expr: string }>;
  results: Array<{ method: string; expr: string }>;
  notificationParams: Array<{ method: string; expr: string }>;
}

class GuardCompiler {
  readonly functions: string[] = [];
  codePoints = false;
  private readonly counters = new Map<string, number>();
  private owner = "";

  constructor(private readonly version: VersionModel) {}

  /** A helper function name under the definition being compiled. */
  private helper(): string {
    const n = (this.counters.get(this.owner) ?? 0) + 1;
    this.counters.set(this.owner, n);
    return `${guardName(this.owner)}$${n}`;
  }

  /** Emit the guard of a definition (or of an inline schema under `owner`, named `name`). */
  define(name: string, owner: string, node: unknown, exported: boolean): void {
    this.owner = owner;
    const doc = exported ? `/** True only if the value is a valid ${owner} (false: ask ${owner}Schema). */\nexport ` : "";
    const body = this.objectBody(node);
    if (body !== null) this.functions.push(`${doc}function ${name}(v: unknown): boolean {\n${body}\n}`);
    else this.functions.push(`${doc}function ${name}(v: unknown): boolean {\n  return ${this.expr(node, "v")};\n}`);
  }

  /** A boolean expression: whether `x` (a side-effect-free reference) is valid against `node`. */
  expr(node: unknown, x: string): string {
    if (node === true) return `${x} !== undefined`;
    if (node === false || !isObject(node)) return "false";
    const keys = Object.keys(node).filter((k) => !ANNOTATION_KEYWORDS.has(k));
    if (keys.some((k) => !Object.hasOwn(EXACT, k))) return "false";
    const parts: string[] = [];
    if (typeof node.$ref === "string") parts.push(`${guardName(refName(node.$ref))}(${x})`);
    else if (node.$ref !== undefined) return "false";
    const typed = this.typed(node, x);
    if (typed !== null) parts.push(typed);
    if (node.allOf !== undefined) {
      if (!Array.isArray(node.allOf) || node.allOf.length === 0) return "false";
      for (const s of node.allOf) parts.push(this.expr(s, x));
    }
    if (node.anyOf !== undefined) {
      if (!Array.isArray(node.anyOf) || node.anyOf.length === 0) return "false";
      const branches = node.anyOf.map((s) => this.expr(s, x));
      parts.push(branches.length === 1 ? branches[0] : `(${branches.join(" || ")})`);
    }
    if (parts.includes("false")) return "false";
    if (parts.length === 0) return `${x} !== undefined`;
    return parts.join(" && ");
  }

  /** The `type`/`const`/`enum` part with the type-specific keywords, or null when the node has none. */
  private typed(node: JsonSchema, x: string): string | null {
    const specific = Object.keys(node).filter((k) => Object.hasOwn(EXACT, k) && EXACT[k] !== "any");
    const hasValues = node.const !== undefined || node.enum !== undefined;
    if (node.type === undefined && specific.length === 0 && !hasValues) return null;

    let types: JsonType[];
    if (node.type === undefined) types = ["object", "array", "string", "number", "boolean", "null"];
    else {
      const raw = Array.isArray(node.type) ? node.type : [node.type];
      if (raw.length === 0 || raw.some((t) => !(JSON_TYPES as readonly unknown[]).includes(t))) return "false";
      types = [...new Set(raw as JsonType[])];
      if (types.includes("number")) types = types.filter((t) => t !== "integer");
    }

    if (hasValues) {
      // zod refuses these combinations; stay conservative rather than guess.
      if (specific.length > 0 || (node.const !== undefined && node.enum !== undefined)) return "false";
      const values = node.const !== undefined ? [node.const] : Array.isArray(node.enum) ? node.enum : null;
      if (values === null || values.some((v) => typeof v === "object" && v !== null)) return "false";
      const allowed = [...new Set(values.filter((v) => types.some((t) => hasType(v, t))))];
      if (allowed.length === 0) return "false";
      const tests = allowed.map((v) => `${x} === ${JSON.stringify(v)}`);
      return tests.length === 1 ? tests[0] : `(${tests.join(" || ")})`;
    }

    const branches = types.map((t) => this.typeBranch(t, node, x));
    if (branches.includes("false")) {
      const kept = branches.filter((b) => b !== "false");
      if (kept.length === 0) return "false";
      return kept.length === 1 ? kept[0] : `(${kept.join(" || ")})`;
    }
    return branches.length === 1 ? branches[0] : `(${branches.join(" || ")})`;
  }

  private typeBranch(type: JsonType, node: JsonSchema, x: string): string {
    switch (type) {
      case "null":
        return `${x} === null`;
      case "boolean":
        return `typeof ${x} === "boolean"`;
      case "string":
        return this.string(node, x);
      case "number":
      case "integer":
        return this.number(type, node, x);
      case "array":
        return this.array(node, x);
      case "object":
        return this.object(node, x);
    }
  }

  private count(node: JsonSchema, k: string): number | undefined | null {
    const v = node[k];
    if (v === undefined) return undefined;
    return typeof v === "number" && Number.isInteger(v) && v >= 0 ? v : null;
  }

  private string(node: JsonSchema, x: string): string {
    const min = this.count(node, "minLength");
    const max = this.count(node, "maxLength");
    if (min === null || max === null) return "false";
    const tests = [`typeof ${x} === "string"`];
    // UTF-16 length bounds code points from above: a short string needs no counting.
    if (max !== undefined) tests.push(`(${x}.length <= ${max} || codePoints(${x}) <= ${max})`);
    if (min !== undefined && min > 0) tests.push(`${x}.length >= ${min} && codePoints(${x}) >= ${min}`);
    if (min !== undefined || max !== undefined) this.codePoints = true;
    return tests.join(" && ");
  }

  private number(type: "number" | "integer", node: JsonSchema, x: string): string {
    const tests = [`typeof ${x} === "number"`, type === "integer" ? `Number.isInteger(${x})` : `Number.isFinite(${x})`];
    const bounds: Array<[string, string]> = [
      ["minimum", ">="],
      ["maximum", "<="],
      ["exclusiveMinimum", ">"],
      ["exclusiveMaximum", "<"],
    ];
    for (const [k, op] of bounds) {
      const v = node[k];
      if (v === undefined) continue;
      if (typeof v !== "number" || !Number.isFinite(v)) return "false";
      tests.push(`${x} ${op} ${JSON.stringify(v)}`);
    }
    return tests.join(" && ");
  }

  /** Arrays need a loop: a helper function, unless nothing but the type is checked. */
  private array(node: JsonSchema, x: string): string {
    const min = this.count(node, "minItems");
    const max = this.count(node, "maxItems");
    if (min === null || max === null || Array.isArray(node.items) || node.items === false) return "false";
    const items = node.items;
    const checksItems = items !== undefined && !(isObject(items) && Object.keys(items).every((k) => ANNOTATION_KEYWORDS.has(k))) && items !== true;
    if (!checksItems && min === undefined && max === undefined) return `Array.isArray(${x})`;
    const lines = ["  if (!Array.isArray(v)) return false;"];
    if (min !== undefined && min > 0) lines.push(`  if (v.length < ${min}) return false;`);
    if (max !== undefined) lines.push(`  if (v.length > ${max}) return false;`);
    if (checksItems) {
      const name = this.helper();
      const test = this.expr(items, "x");
      if (test === "false") return "false";
      lines.push(`  for (let i = 0; i < v.length; i++) {\n    const x: unknown = v[i];\n    if (!(${test})) return false;\n  }`);
      lines.push("  return true;");
      this.functions.push(`function ${name}(v: unknown): boolean {\n${lines.join("\n")}\n}`);
      return `${name}(${x})`;
    }
    const name = this.helper();
    lines.push("  return true;");
    this.functions.push(`function ${name}(v: unknown): boolean {\n${lines.join("\n")}\n}`);
    return `${name}(${x})`;
  }

  private object(node: JsonSchema, x: string): string {
    const body = this.objectStatements(node);
    if (body === null || body === "  return false;") return "false";
    if (body === PLAIN_RECORD_BODY) return `isPlainRecord(${x})`;
    const name = this.helper();
    this.functions.push(`function ${name}(v: unknown): boolean {\n${body}\n}`);
    return `${name}(${x})`;
  }

  /** The statements of an object guard when `node` is an object schema and nothing else, else null. */
  private objectBody(node: unknown): string | null {
    if (!isObject(node) || node.type !== "object") return null;
    const keys = Object.keys(node).filter((k) => !ANNOTATION_KEYWORDS.has(k));
    if (!keys.every((k) => k === "type" || EXACT[k] === "object")) return null;
    return this.objectStatements(node);
  }

  /**
   * The statements of an object guard. Values are read with a plain `v.k` (one inline-cached load)
   * and used only when they are the object's own: the prototype is Object.prototype or null, so an
   * inherited value can only come from Object.prototype, and `"k" in OP` (false unless the key is
   * there, say by pollution) sends that case to Object.hasOwn. Keys Object.prototype has anyway
   * (`constructor`, `__proto__`, …) are tested with Object.hasOwn first.
   */
  private objectStatements(node: JsonSchema): string | null {
    const properties = node.properties ?? {};
    const required = node.required ?? [];
    if (!isObject(properties) || !Array.isArray(required) || required.some((r) => typeof r !== "string")) return null;
    const isRequired = (k: string) => (required as string[]).includes(k);
    const lines = ["  if (!isPlainRecord(v)) return false;"];
    const checks: Array<{ rank: number; line: string }> = [];
    let usesX = false;
    const names = Object.keys(properties);
    for (const k of names) {
      const key = JSON.stringify(k);
      const schema = properties[k];
      if (k in Object.prototype) {
        const test = this.expr(schema, prop("v", k));
        if (test === "false" && isRequired(k)) return "  return false;";
        if (test === "false") checks.push({ rank: 3, line: `  if (Object.hasOwn(v, ${key})) return false;` });
        else if (isRequired(k)) checks.push({ rank: 2, line: `  if (!Object.hasOwn(v, ${key}) || !(${test})) return false;` });
        else checks.push({ rank: 3, line: `  if (Object.hasOwn(v, ${key}) && !(${test})) return false;` });
        continue;
      }
      const test = this.expr(schema, "x");
      const own = `(${key} in OP && !Object.hasOwn(v, ${key}))`;
      usesX = true;
      if (test === "false") {
        if (isRequired(k)) return "  return false;";
        checks.push({ rank: 3, line: `  x = ${prop("v", k)};
  if (x !== undefined && (${key} in OP ? Object.hasOwn(v, ${key}) : true)) return false;` });
      } else if (isRequired(k)) {
        // A required const is the cheapest test and tells anyOf branches apart: it goes first.
        const rank = isObject(schema) && schema.const !== undefined ? 1 : 2;
        checks.push({ rank, line: `  x = ${prop("v", k)};
  if (x === undefined || !(${test}) || ${own}) return false;` });
      } else checks.push({ rank: 3, line: `  x = ${prop("v", k)};
  if (x !== undefined && (!(${test}) || ${own})) return false;` });
    }
    for (const k of required as string[]) {
      if (Object.hasOwn(properties, k)) continue;
      const key = JSON.stringify(k);
      checks.push({ rank: 2, line: `  if (!Object.hasOwn(v, ${key}) || ${prop("v", k)} === undefined) return false;` });
    }
    if (usesX) lines.push("  let x: unknown;");
    lines.push(...checks.sort((a, b) => a.rank - b.rank).map((c) => c.line));
    const known = [...new Set([...names, ...(required as string[])])];
    const isKnown = known.length === 0 ? "false" : known.map((k) => `k === ${JSON.stringify(k)}`).join(" || ");
    const extra = node.additionalProperties;
    const trivial = extra === undefined || extra === true || (isObject(extra) && Object.keys(extra).every((k) => ANNOTATION_KEYWORDS.has(k)));
    if (!trivial) {
      const test = extra === false ? "false" : this.expr(extra, "y");
      // for-in also lists inherited enumerable keys (JSON.parse never makes them): an unknown one fails.
      if (test === "false") lines.push(`  for (const k in v) if (!(${isKnown})) return false;`);
      else {
        lines.push(
          `  for (const k in v) {\n    if (${isKnown}) continue;\n    const y: unknown = v[k];\n    if (!(${test}) || !Object.hasOwn(v, k)) return false;\n  }`,
        );
      }
    }
    if (lines.length === 1) return PLAIN_RECORD_BODY;
    lines.push("  return true;");
    return lines.join("\n");
  }
}

/** The body of an object guard that checks nothing but the object itself. */
const PLAIN_RECORD_BODY = "  return isPlainRecord(v);";

function hasType(value: unknown, type: JsonType): boolean {
  switch (type) {
    case "null":
      return value === null;
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "array":
      return Array.isArray(value);
    case "object":
      return isObject(value);
    default:
      return typeof value === type;
  }
}

/** The guard module of a version: a guard per definition, helpers, and per-method tables. */
export function guardModule(version: VersionModel): GuardModule {
  const names = Object.keys(version.definitions).sort();
  for (const name of names) {
    if (!IDENT.test(name) || name.includes("$")) throw new InputError(`the definition name ${JSON.stringify(name)} cannot name a guard function`, `${version.label}/schema.json`);
    if (name === "PlainObject") throw new InputError(`the guard of PlainObject would be isPlainObject, which the runtime exports`, `${version.label}/schema.json`);
  }
  const compiler = new GuardCompiler(version);
  for (const name of names) compiler.define(guardName(name), name, version.definitions[name], true);

  const paramsExpr = (definition: string, schema: JsonSchema | undefined): string => {
    if (schema === undefined) return "acceptAny";
    if (typeof schema.$ref === "string" && Object.keys(schema).every((k) => k === "$ref" || ANNOTATION_KEYWORDS.has(k))) return guardName(refName(schema.$ref));
    const name = `${guardName(definition)}$params`;
    compiler.define(name, definition, schema, false);
    return name;
  };
  const requestParams = version.requests.map((r) => ({ method: r.method, expr: paramsExpr(r.definition, r.params?.schema) }));
  const notificationParams = version.notifications.map((n) => ({ method: n.method, expr: paramsExpr(n.definition, n.params?.schema) }));
  const results = version.requests.map((r) => ({
    method: r.method,
    expr: r.results.length === 1 ? guardName(r.results[0]) : `(v: unknown): boolean => ${r.results.map((d) => `${guardName(d)}(v)`).join(" || ")}`,
  }));
  return { functions: compiler.functions, codePoints: compiler.codePoints, requestParams, results, notificationParams };
}
