// schemas.ts: one zod 4 schema per definition (`XSchema` validates `X`), printed from the schema IR
// (generator/model/ir.ts) as static source, with JSON Schema's semantics where zod's defaults differ:
// objects never strip unknown keys, an `impliedType` node lets every other type through, `integer`
// is any integral number, string lengths count code points. What can be expressed was decided when
// the IR was built; this file only prints.
import { otherTypes, visit, type IrVisitor } from "../../model/ir-build.js";
import type { IrDefinition, IrNode, JsonType, ObjectNode, RefNode, SchemaIR } from "../../model/ir.js";
import { definitionNaming, type DefinitionNaming } from "./naming.js";
import { propertyKey } from "./declarations.js";
import type { MethodParams, VersionModel } from "../../model/types.js";

export interface ZodDeclaration {
  /** The definition's original name (`CallToolResult`, `Record<string,string>`). */
  definition: string;
  /** Its type name in types.ts. */
  typeName: string;
  /** The exported schema constant (`CallToolResultSchema`). */
  name: string;
  /** The schema as built, before the assertion to its type (`CallToolResultSchema_`). */
  built: string;
  /** The zod expression, multi-line, indented from column 0. */
  expr: string;
  /**
   * In a reference cycle: referenced through `z.lazy`. Every schema is exported as `z.ZodType<T.X>`;
   * a non-recursive one is built as `XSchema_` (its inferred type, for the type test) and asserted to it.
   */
  recursive: boolean;
  /** A doc comment where the names do not show the definition (a derived name or definition), else null. */
  doc: string | null;
}

export interface ZodModule {
  /** Declarations in dependency order (a definition after everything it references, cycles aside). */
  declarations: ZodDeclaration[];
  /** Helpers of generated/runtime/schema-support.ts the declarations use. */
  runtimeImports: string[];
  /**
   * The declarations the type test compares with their types (output and property names): the non-recursive
   * ones (a recursive one is declared with its type, so its output is that type).
   */
  keyChecks: ZodDeclaration[];
  requestParams: Array<{ method: string; expr: string }>;
  results: Array<{ method: string; expr: string }>;
  notificationParams: Array<{ method: string; expr: string }>;
}

/** Indent every line after the first by two spaces (for nesting a multi-line expression). */
const nest = (text: string) => text.replace(/\n/g, "\n  ");

function list(open: string, items: string[], close: string): string {
  if (items.length === 0) return open + close;
  const flat = `${open}${items.join(", ")}${close}`;
  if (!flat.includes("\n") && flat.length <= 100) return flat;
  return `${open}\n  ${items.map(nest).join(",\n  ")},\n${close}`;
}

/** The zod schema of a JSON type that nothing else constrains. */
const BARE: Record<JsonType, string> = {
  object: "z.looseObject({})",
  array: "z.array(z.unknown())",
  string: "z.string()",
  number: "z.number()",
  integer: "integer()",
  boolean: "z.boolean()",
  null: "z.null()",
};

/** Prints IR nodes as zod expressions, inside one definition (`current`) of a module being declared in order. */
class ZodPrinter {
  constructor(
    private readonly current: IrDefinition | null,
    private readonly declared: ReadonlySet<string>,
    private readonly runtime: Set<string>,
    private readonly names: DefinitionNaming,
  ) {}

  print(node: IrNode): string {
    return visit(node, this.visitor);
  }

  private readonly visitor: IrVisitor<string> = {
    any: () => "z.unknown()",
    never: () => "z.never()",
    null: () => "z.null()",
    boolean: () => "z.boolean()",
    ref: (n) => {
      // A definition not yet declared (or one of the current cycle) is reached lazily, at parse time.
      const lazy = !this.declared.has(n.name) || (n.target.recursive && this.current?.recursive === true);
      return lazy ? `z.lazy(() => ${this.names.of(n.target).schema})` : this.names.of(n.target).schema;
    },
    literal: (n) => {
      const values = n.values.map((v) => JSON.stringify(v));
      if (values.length === 1) return `z.literal(${values[0]})`;
      return n.values.every((v) => typeof v === "string") ? `z.enum([${values.join(", ")}])` : `z.literal([${values.join(", ")}])`;
    },
    string: (n) => {
      let s = "z.string()";
      if (n.minLength !== undefined || n.maxLength !== undefined) this.runtime.add("codePoints");
      if (n.minLength !== undefined) s += `.refine((s) => codePoints(s) >= ${n.minLength}, { message: "Too small: expected at least ${n.minLength} characters" })`;
      if (n.maxLength !== undefined) s += `.refine((s) => codePoints(s) <= ${n.maxLength}, { message: "Too big: expected at most ${n.maxLength} characters" })`;
      if (n.pattern !== undefined) s += `.regex(new RegExp(${JSON.stringify(n.pattern)}, "u"))`;
      return this.implied(n, s);
    },
    number: (n) => {
      if (n.integer) this.runtime.add("integer");
      let s = n.integer ? "integer()" : "z.number()";
      if (n.minimum !== undefined) s += `.gte(${JSON.stringify(n.minimum)})`;
      if (n.maximum !== undefined) s += `.lte(${JSON.stringify(n.maximum)})`;
      if (n.exclusiveMinimum !== undefined) s += `.gt(${JSON.stringify(n.exclusiveMinimum)})`;
      if (n.exclusiveMaximum !== undefined) s += `.lt(${JSON.stringify(n.exclusiveMaximum)})`;
      if (n.multipleOf !== undefined) {
        this.runtime.add("multipleOf");
        const { value, digits, scale } = n.multipleOf;
        s += `.refine((n) => multipleOf(n, ${JSON.stringify(digits)}, ${scale}), { message: "Invalid input: expected a multiple of ${value}" })`;
      }
      return this.implied(n, s);
    },
    array: (n) => {
      let s = `z.array(${nest(this.print(n.items))})`;
      if (n.prefixItems !== undefined) {
        // A tuple: item i by prefixItems[i], the rest by items; the array may be shorter than the prefix.
        const prefix = n.prefixItems.map((p) => nest(nest(this.print(p))));
        const rest = n.items.kind === "any" ? null : nest(nest(this.print(n.items)));
        const checks = prefix.map((p, i) => `a.length <= ${i} || ${p}.safeParse(a[${i}]).success`);
        if (rest !== null) checks.push(`a.slice(${prefix.length}).every((x) => ${rest}.safeParse(x).success)`);
        s = `z.array(z.unknown()).refine((a) => ${checks.map((c) => `(${c})`).join(" && ")}, { message: "Invalid input: an item does not match its schema" })`;
      }
      if (n.minItems !== undefined) s += `.min(${n.minItems})`;
      if (n.maxItems !== undefined) s += `.max(${n.maxItems})`;
      if (n.contains !== undefined) {
        const { min, max } = n.contains;
        const count = `a.filter((x) => ${nest(this.print(n.contains.node))}.safeParse(x).success).length`;
        const bounds = max === undefined ? `n >= ${min}` : `n >= ${min} && n <= ${max}`;
        s += `.refine((a) => { const n = ${count}; return ${bounds}; }, { message: "Invalid input: expected ${max === undefined ? `at least ${min}` : `${min} to ${max}`} items matching \`contains\`" })`;
      }
      if (n.uniqueItems === true) {
        this.runtime.add("uniqueItems");
        s += `.refine(uniqueItems, { message: "Invalid input: expected unique items" })`;
      }
      return this.implied(n, s);
    },
    object: (n) => this.implied(n, this.object(n)),
    union: (n) => {
      const branches = n.branches.map((b) => this.print(b));
      if (branches.length === 1) return branches[0];
      if (n.source === "type") {
        const nulls = n.branches.findIndex((b) => b.kind === "null");
        if (branches.length === 2 && nulls >= 0) return `${branches[1 - nulls]}.nullable()`;
        return `z.union(${list("[", branches, "]")})`;
      }
      const discriminator = this.discriminator(n.branches);
      // With a discriminator at most one branch can match, so a plain union is already exclusive.
      // Its branches are the objects as built (`XSchema_`): zod types the options of a discriminated union by their shapes.
      if (discriminator !== null) {
        const objects = n.branches.map((b) => this.names.of((b as RefNode).target).built);
        return `z.discriminatedUnion(${JSON.stringify(discriminator)}, ${list("[", objects, "]")})`;
      }
      return `${n.exclusive ? "z.xor" : "z.union"}(${list("[", branches, "]")})`;
    },
    intersection: (n) => n.parts.map((p) => this.print(p)).reduce((acc, p) => `z.intersection(${nest(acc)}, ${nest(p)})`),
    not: (n) => `z.unknown().refine((v) => !${nest(this.print(n.node))}.safeParse(v).success, { message: "Invalid input: matches a schema it must not" })`,
  };

  /** A node that constrains only its own type: every other JSON type passes. */
  private implied(n: { kind: "object" | "array" | "string" | "number"; impliedType: boolean }, s: string): string {
    if (!n.impliedType) return s;
    return `z.union(${list("[", [s, ...otherTypes(n.kind).map((t) => BARE[t])], "]")})`;
  }

  private object(n: ObjectNode): string {
    const shape = n.properties.map((p) => {
      const expr = this.print(p.node);
      return `${propertyKey(p.name)}: ${p.required ? expr : `${expr}.optional()`}`;
    });
    const fields = list("{", shape, "}");
    let s: string;
    const extra = n.additional;
    if (n.patternProperties !== undefined) s = this.patterned(n, fields);
    else if (extra === null || extra.kind === "any") s = `z.looseObject(${fields})`;
    // No property and no other key: a custom issue per key (as below: no intersection forgives it), then a
    // pipe into `z.record(z.string(), z.never())` for the output type, the type's `{ [key: string]: never }`.
    else if (extra.kind === "never" && n.properties.length === 0) {
      s = `z.looseObject({}).superRefine((o, ctx) => {
  for (const k of Object.keys(o)) ctx.addIssue({ code: "custom", path: [k], message: \`Unrecognized key: "\${k}"\` });
}).pipe(z.record(z.string(), z.never()))`;
    } else if (extra.kind === "never") {
      // Not z.strictObject: inside z.intersection (allOf) zod forgives a key one side does not know
      // when the other side does, where JSON Schema rejects it. A custom issue per key is not forgiven.
      const known = [...new Set(n.properties.map((p) => p.name))];
      const test = known.length === 0 ? "false" : known.map((k) => `k === ${JSON.stringify(k)}`).join(" || ");
      s = `z.looseObject(${fields}).superRefine((o, ctx) => {
  for (const k of Object.keys(o)) if (!(${test})) ctx.addIssue({ code: "custom", path: [k], message: \`Unrecognized key: "\${k}"\` });
})`;
    } else s = `z.object(${fields}).catchall(${nest(this.print(extra))})`;
    if (n.propertyNames !== undefined) {
      s += `.refine((o) => Object.keys(o).every((k) => ${nest(this.print(n.propertyNames))}.safeParse(k).success), { message: "Invalid input: a property name is not allowed" })`;
    }
    if (n.minProperties !== undefined) s += `.refine((o) => Object.keys(o).length >= ${n.minProperties}, { message: "Too small: expected at least ${n.minProperties} properties" })`;
    if (n.maxProperties !== undefined) s += `.refine((o) => Object.keys(o).length <= ${n.maxProperties}, { message: "Too big: expected at most ${n.maxProperties} properties" })`;
    return s;
  }

  /**
   * An object with `patternProperties`: the declared properties by the shape, then per key every
   * pattern it matches, and `additionalProperties` for a key neither declared nor matched.
   */
  private patterned(n: ObjectNode, fields: string): string {
    const checks = n.patternProperties!.map((p) => {
      const node = p.node.kind === "any" ? null : nest(nest(this.print(p.node)));
      return node === null
        ? `if (new RegExp(${JSON.stringify(p.pattern)}, "u").test(k)) matched = true;`
        : `if (new RegExp(${JSON.stringify(p.pattern)}, "u").test(k)) {\n    matched = true;\n    if (!${node}.safeParse(o[k]).success) ctx.addIssue({ code: "custom", path: [k], message: "Invalid input: the value of a pattern property" });\n  }`;
    });
    const known = [...new Set(n.properties.map((p) => p.name))].map((k) => `k === ${JSON.stringify(k)}`);
    const extra = n.additional;
    let rest = "";
    if (extra !== null && extra.kind !== "any") {
      const test = extra.kind === "never" ? "false" : `${nest(nest(this.print(extra)))}.safeParse(o[k]).success`;
      rest = `\n  if (!matched${known.length === 0 ? "" : ` && !(${known.join(" || ")})`} && !${test}) ctx.addIssue({ code: "custom", path: [k], message: \`Unrecognized key: "\${k}"\` });`;
    }
    return `z.looseObject(${fields}).superRefine((o, ctx) => {\n  for (const k of Object.keys(o)) {\n  let matched = false;\n  ${checks.join("\n  ")}${rest}\n  }\n})`;
  }

  /**
   * A property every branch requires with a distinct string `const`, when every branch references a
   * non-recursive, already declared definition that prints as a plain zod object.
   */
  private discriminator(branches: IrNode[]): string | null {
    const targets: ObjectNode[] = [];
    for (const b of branches) {
      if (b.kind !== "ref" || !this.declared.has(b.name) || b.target.recursive) return null;
      const node = b.target.node;
      if (node.kind !== "object" || node.impliedType || node.patternProperties !== undefined || node.propertyNames !== undefined || node.minProperties !== undefined || node.maxProperties !== undefined) return null;
      targets.push(node);
    }
    const constOf = (o: ObjectNode, name: string): string | null => {
      const p = o.properties.find((q) => q.name === name);
      const n = p?.node;
      return p?.required && n?.kind === "literal" && n.keyword === "const" && typeof n.values[0] === "string" ? n.values[0] : null;
    };
    for (const name of targets[0].properties.map((p) => p.name).sort()) {
      const values = targets.map((t) => constOf(t, name));
      if (values.every((v) => v !== null) && new Set(values).size === values.length) return name;
    }
    return null;
  }
}

/**
 * Whether types.ts declares a node only approximately (declarations.ts): a node without `type`
 * printed as the one type it constrains, where the schema (and zod) also accept every other type.
 * The type test cannot compare those; the schema constant is still declared with the type.
 */
function approximate(node: IrNode): boolean {
  switch (node.kind) {
    case "string":
    case "number":
      return node.impliedType;
    case "array":
      return node.impliedType || approximate(node.items) || (node.contains !== undefined && approximate(node.contains.node));
    case "object":
      return node.impliedType || node.properties.some((p) => approximate(p.node)) || (node.additional !== null && approximate(node.additional)) || (node.patternProperties ?? []).some((p) => approximate(p.node));
    case "union":
      return node.branches.some(approximate);
    case "intersection":
      return node.parts.some(approximate);
    default:
      return false;
  }
}

/** The zod module of a version: declarations, runtime imports and per-method tables. */
export function zodModule(version: VersionModel): ZodModule {
  const ir: SchemaIR = version.ir;
  const names = definitionNaming(ir);
  const declared = new Set<string>();
  const runtime = new Set<string>();
  const declarations: ZodDeclaration[] = [];
  for (const name of ir.order) {
    const d = ir.definitions.get(name)!;
    const expr = new ZodPrinter(d, declared, runtime, names).print(d.node);
    declarations.push({ definition: name, typeName: names.of(d).type, name: names.of(d).schema, built: names.of(d).built, expr, recursive: d.recursive, doc: names.doc(d) });
    declared.add(name);
  }
  const params = (definition: string, p: MethodParams | null) => {
    if (p === null) return "z.unknown()";
    if (p.node.kind === "ref") return names.of(p.node.target).schema;
    return nest(new ZodPrinter(ir.definitions.get(definition) ?? null, declared, runtime, names).print(p.node));
  };
  const schemaOf = (definition: string) => names.of(definition).schema;
  return {
    declarations,
    runtimeImports: [...runtime].sort(),
    keyChecks: declarations.filter((d) => !d.recursive && !approximate(ir.definitions.get(d.definition)!.node)),
    requestParams: version.requests.map((r) => ({ method: r.method, expr: params(r.definition, r.params) })),
    results: version.requests.map((r) => ({
      method: r.method,
      expr: r.results.length === 1 ? schemaOf(r.results[0]) : nest(list("z.union([", r.results.map(schemaOf), "])")),
    })),
    notificationParams: version.notifications.map((n) => ({ method: n.method, expr: params(n.definition, n.params) })),
  };
}
