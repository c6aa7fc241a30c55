// guards.ts: one plain-JS predicate per definition (`is<Name>(value): boolean`), printed from the
// schema IR, the fast path in front of the zod schemas. A guard is SOUND, not complete: true means
// the JSON Schema (and the zod schema) accepts the value; false means "ask zod", which also gives
// the errors. Printed exactly: types (integer included), properties/required, additional
// properties, literals, anyOf, allOf, references, items, min/maxItems, numeric bounds, string
// lengths in code points. Left to zod (the subschema prints `false`): oneOf, not, pattern,
// multipleOf, propertyNames, patternProperties, min/maxProperties, tuples, contains, uniqueItems, `items: false`.
//
// Reading rules: own properties only, objects only with the prototype JSON.parse gives them
// (Object.prototype or null), arrays are never objects, `__proto__` is a plain key, `undefined` is
// never a JSON value. Nothing is allocated on the success path.
import { otherTypes, visit, type IrVisitor } from "../../model/ir-build.js";
import type { IrDefinition, IrNode, JsonType, ObjectNode } from "../../model/ir.js";
import { definitionNaming, guardHelper, paramsGuard, type DefinitionNaming } from "./naming.js";
import type { MethodParams, VersionModel } from "../../model/types.js";

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** A property read: `v.name` where that is valid, else `v["na-me"]` (never through the prototype: callers check hasOwn first). */
const prop = (o: string, k: string) => (IDENT.test(k) && k !== "__proto__" ? `${o}.${k}` : `${o}[${JSON.stringify(k)}]`);

/** The test of a JSON type nothing else constrains, on the value `x`. */
const TYPE_TEST: Record<JsonType, (x: string) => string> = {
  object: (x) => `isPlainObject(${x})`,
  array: (x) => `Array.isArray(${x})`,
  string: (x) => `typeof ${x} === "string"`,
  number: (x) => `typeof ${x} === "number" && Number.isFinite(${x})`,
  integer: (x) => `typeof ${x} === "number" && Number.isInteger(${x})`,
  boolean: (x) => `typeof ${x} === "boolean"`,
  null: (x) => `${x} === null`,
};

/** `a || b || …` of the tests that can hold (a "false" one is dropped); "false" when none can. */
function anyOf(tests: string[]): string {
  const kept = tests.filter((t) => t !== "false");
  if (kept.length === 0) return "false";
  return kept.length === 1 ? kept[0] : `(${kept.join(" || ")})`;
}

/** The body of an object guard that checks nothing but the object itself. */
const PLAIN_RECORD_BODY = "  return isPlainObject(v);";

export interface GuardModule {
  /** Function declarations (exported guards and their helpers), in definition order. */
  functions: string[];
  /** Helpers of generated/runtime/schema-support.ts the functions use. */
  runtimeImports: string[];
  requestParams: Array<{ method: string; expr: string }>;
  results: Array<{ method: string; expr: string }>;
  notificationParams: Array<{ method: string; expr: string }>;
}

class GuardPrinter {
  readonly functions: string[] = [];
  readonly runtime = new Set<string>(["isPlainObject"]);
  private readonly counters = new Map<string, number>();
  /** The guard name helper functions are numbered under. */
  private owner = "";

  constructor(private readonly names: DefinitionNaming) {}

  /** A helper function name under the definition being printed. */
  private helper(): string {
    const n = (this.counters.get(this.owner) ?? 0) + 1;
    this.counters.set(this.owner, n);
    return guardHelper(this.owner, n);
  }

  /** Declare the guard `name` of `node`, its helpers numbered under `owner`'s guard. */
  define(name: string, owner: IrDefinition, node: IrNode, doc: string | null): void {
    this.owner = this.names.of(owner).guard;
    const body = node.kind === "object" && !node.impliedType ? this.objectStatements(node) : null;
    const text = body !== null ? body : `  return ${this.test(node, "v")};`;
    this.functions.push(`${doc === null ? "" : `${doc}\nexport `}function ${name}(v: unknown): boolean {\n${text}\n}`);
  }

  /** A boolean expression: whether `x` (a side-effect-free reference) is valid against `node`. */
  test(node: IrNode, x: string): string {
    return visit(node, this.on(x));
  }

  private on(x: string): IrVisitor<string> {
    return {
      any: () => `${x} !== undefined`,
      never: () => "false",
      not: () => "false",
      null: () => TYPE_TEST.null(x),
      boolean: () => TYPE_TEST.boolean(x),
      ref: (n) => `${this.names.of(n.target).guard}(${x})`,
      literal: (n) => anyOf(n.values.map((v) => `${x} === ${JSON.stringify(v)}`)),
      string: (n) => this.implied(n, x, this.string(n, x)),
      number: (n) => this.implied(n, x, this.number(n, x)),
      array: (n) => this.implied(n, x, this.array(n, x)),
      object: (n) => this.implied(n, x, this.object(n, x)),
      // oneOf needs every branch decided exactly: left to zod.
      union: (n) => (n.exclusive ? "false" : anyOf(n.branches.map((b) => this.test(b, x)))),
      intersection: (n) => {
        const parts = n.parts.map((p) => this.test(p, x));
        return parts.includes("false") ? "false" : parts.join(" && ");
      },
    };
  }

  private implied(n: { kind: "object" | "array" | "string" | "number"; impliedType: boolean }, x: string, own: string): string {
    return n.impliedType ? anyOf([own, ...otherTypes(n.kind).map((t) => TYPE_TEST[t](x))]) : own;
  }

  private string(n: Extract<IrNode, { kind: "string" }>, x: string): string {
    if (n.pattern !== undefined) return "false";
    const tests = [TYPE_TEST.string(x)];
    // UTF-16 length bounds code points from above: a short string needs no counting.
    if (n.maxLength !== undefined) tests.push(`(${x}.length <= ${n.maxLength} || codePoints(${x}) <= ${n.maxLength})`);
    if (n.minLength !== undefined && n.minLength > 0) tests.push(`${x}.length >= ${n.minLength} && codePoints(${x}) >= ${n.minLength}`);
    if (n.minLength !== undefined || n.maxLength !== undefined) this.runtime.add("codePoints");
    return tests.join(" && ");
  }

  private number(n: Extract<IrNode, { kind: "number" }>, x: string): string {
    if (n.multipleOf !== undefined) return "false";
    const tests = [TYPE_TEST[n.integer ? "integer" : "number"](x)];
    const bounds: Array<[number | undefined, string]> = [
      [n.minimum, ">="],
      [n.maximum, "<="],
      [n.exclusiveMinimum, ">"],
      [n.exclusiveMaximum, "<"],
    ];
    for (const [v, op] of bounds) if (v !== undefined) tests.push(`${x} ${op} ${JSON.stringify(v)}`);
    return tests.join(" && ");
  }

  /** Arrays need a loop: a helper function, unless nothing but the type is checked. */
  private array(n: Extract<IrNode, { kind: "array" }>, x: string): string {
    if (n.items.kind === "never" || n.prefixItems !== undefined || n.contains !== undefined || n.uniqueItems === true) return "false";
    const checksItems = n.items.kind !== "any";
    if (!checksItems && n.minItems === undefined && n.maxItems === undefined) return TYPE_TEST.array(x);
    const lines = ["  if (!Array.isArray(v)) return false;"];
    if (n.minItems !== undefined && n.minItems > 0) lines.push(`  if (v.length < ${n.minItems}) return false;`);
    if (n.maxItems !== undefined) lines.push(`  if (v.length > ${n.maxItems}) return false;`);
    if (checksItems) {
      const name = this.helper();
      const test = this.test(n.items, "x");
      if (test === "false") return "false";
      lines.push(`  for (let i = 0; i < v.length; i++) {\n    const x: unknown = v[i];\n    if (!(${test})) return false;\n  }`);
      return this.helperFunction(name, lines, x);
    }
    return this.helperFunction(this.helper(), lines, x);
  }

  private helperFunction(name: string, lines: string[], x: string): string {
    this.functions.push(`function ${name}(v: unknown): boolean {\n${[...lines, "  return true;"].join("\n")}\n}`);
    return `${name}(${x})`;
  }

  private object(n: ObjectNode, x: string): string {
    const body = this.objectStatements(n);
    if (body === "  return false;") return "false";
    if (body === PLAIN_RECORD_BODY) return TYPE_TEST.object(x);
    const name = this.helper();
    this.functions.push(`function ${name}(v: unknown): boolean {\n${body}\n}`);
    return `${name}(${x})`;
  }

  /**
   * The statements of an object guard. Values are read with a plain `v.k` (one inline-cached load)
   * and used only when they are the object's own: the prototype is Object.prototype or null, so an
   * inherited value can only come from Object.prototype, and `"k" in OP` (false unless the key is
   * there, say by pollution) sends that case to Object.hasOwn. Keys Object.prototype has anyway
   * (`constructor`, `__proto__`, …) are tested with Object.hasOwn first.
   */
  private objectStatements(n: ObjectNode): string {
    if (n.patternProperties !== undefined || n.propertyNames !== undefined || n.minProperties !== undefined || n.maxProperties !== undefined) return "  return false;";
    const lines = ["  if (!isPlainObject(v)) return false;"];
    const checks: Array<{ rank: number; line: string }> = [];
    let usesX = false;
    for (const p of n.properties) {
      const key = JSON.stringify(p.name);
      if (p.node.kind === "any" && p.required) {
        checks.push({ rank: 2, line: `  if (!Object.hasOwn(v, ${key}) || ${prop("v", p.name)} === undefined) return false;` });
        continue;
      }
      if (p.name in Object.prototype) {
        const test = this.test(p.node, prop("v", p.name));
        if (test === "false" && p.required) return "  return false;";
        if (test === "false") checks.push({ rank: 3, line: `  if (Object.hasOwn(v, ${key})) return false;` });
        else if (p.required) checks.push({ rank: 2, line: `  if (!Object.hasOwn(v, ${key}) || !(${test})) return false;` });
        else checks.push({ rank: 3, line: `  if (Object.hasOwn(v, ${key}) && !(${test})) return false;` });
        continue;
      }
      const test = this.test(p.node, "x");
      const own = `(${key} in OP && !Object.hasOwn(v, ${key}))`;
      usesX = true;
      if (test === "false") {
        if (p.required) return "  return false;";
        checks.push({ rank: 3, line: `  x = ${prop("v", p.name)};\n  if (x !== undefined && (${key} in OP ? Object.hasOwn(v, ${key}) : true)) return false;` });
      } else if (p.required) {
        // A required const is the cheapest test and tells anyOf branches apart: it goes first.
        const rank = p.node.kind === "literal" && p.node.keyword === "const" ? 1 : 2;
        checks.push({ rank, line: `  x = ${prop("v", p.name)};\n  if (x === undefined || !(${test}) || ${own}) return false;` });
      } else checks.push({ rank: 3, line: `  x = ${prop("v", p.name)};\n  if (x !== undefined && (!(${test}) || ${own})) return false;` });
    }
    if (usesX) {
      lines.push("  let x: unknown;");
      this.runtime.add("OP");
    }
    lines.push(...checks.sort((a, b) => a.rank - b.rank).map((c) => c.line));
    const known = n.properties.map((p) => `k === ${JSON.stringify(p.name)}`);
    const isKnown = known.length === 0 ? "false" : known.join(" || ");
    const extra = n.additional;
    if (extra !== null && extra.kind !== "any") {
      const test = this.test(extra, "y");
      // for-in also lists inherited enumerable keys (JSON.parse never makes them): an unknown one fails.
      if (test === "false") lines.push(`  for (const k in v) if (!(${isKnown})) return false;`);
      else lines.push(`  for (const k in v) {\n    if (${isKnown}) continue;\n    const y: unknown = v[k];\n    if (!(${test}) || !Object.hasOwn(v, k)) return false;\n  }`);
    }
    if (lines.length === 1) return PLAIN_RECORD_BODY;
    lines.push("  return true;");
    return lines.join("\n");
  }
}

/** The guard module of a version: a guard per definition, helpers, and per-method tables. */
export function guardModule(version: VersionModel): GuardModule {
  const { ir } = version;
  const names = definitionNaming(ir);
  const printer = new GuardPrinter(names);
  for (const d of ir.definitions.values()) {
    const doc = names.doc(d) ?? `/** True only if the value is a valid ${names.of(d).type} (false: ask ${names.of(d).schema}). */`;
    printer.define(names.of(d).guard, d, d.node, doc);
  }
  const params = (definition: string, p: MethodParams | null): string => {
    if (p === null) {
      printer.runtime.add("acceptAny");
      return "acceptAny";
    }
    if (p.node.kind === "ref") return names.of(p.node.target).guard;
    const owner = ir.definitions.get(definition)!;
    const name = paramsGuard(names.of(owner).guard);
    printer.define(name, owner, p.node, null);
    return name;
  };
  const requestParams = version.requests.map((r) => ({ method: r.method, expr: params(r.definition, r.params) }));
  const notificationParams = version.notifications.map((n) => ({ method: n.method, expr: params(n.definition, n.params) }));
  const guardOf = (definition: string) => names.of(definition).guard;
  const results = version.requests.map((r) => ({
    method: r.method,
    expr: r.results.length === 1 ? guardOf(r.results[0]) : `(v: unknown): boolean => ${r.results.map((d) => `${guardOf(d)}(v)`).join(" || ")}`,
  }));
  return { functions: printer.functions, runtimeImports: [...printer.runtime].sort(), requestParams, results, notificationParams };
}
