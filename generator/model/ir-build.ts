// The IR builder: a loaded spec → its schema IR (generator/model/ir.ts). Every keyword decision is
// made here, once: what a keyword means, and whether it can be expressed at all. A keyword or shape
// no printer can express faithfully fails here, with the real file and JSON pointer; the printers
// (types, zod, guards, diff) read the IR and never raw JSON Schema.
import { InputError, pointer } from "../errors.js";
import { refName } from "../source/load.js";
import { byCodeUnit } from "../order.js";
import type {
  Annotations,
  IrDefinition,
  IrNode,
  IrProperty,
  JsonType,
  LiteralValue,
  MultipleOf,
  ObjectNode,
  SchemaIR,
  SourceRef,
} from "./ir.js";
import { ANNOTATION_KEYWORDS } from "./keywords.js";
import { parsePattern, PatternError } from "./pattern.js";
import type { JsonSchema, LoadedSpec } from "./types.js";

const JSON_TYPES: readonly JsonType[] = ["object", "array", "string", "number", "integer", "boolean", "null"];

/** Keywords that constrain one instance type only (every other type passes them). */
const TYPE_KEYWORDS: Readonly<Record<string, "object" | "array" | "string" | "number">> = {
  properties: "object",
  required: "object",
  additionalProperties: "object",
  propertyNames: "object",
  patternProperties: "object",
  minProperties: "object",
  maxProperties: "object",
  items: "array",
  prefixItems: "array",
  additionalItems: "array",
  minItems: "array",
  maxItems: "array",
  contains: "array",
  minContains: "array",
  maxContains: "array",
  uniqueItems: "array",
  minLength: "string",
  maxLength: "string",
  pattern: "string",
  minimum: "number",
  maximum: "number",
  exclusiveMinimum: "number",
  exclusiveMaximum: "number",
  multipleOf: "number",
};
/** Keywords that apply to any instance type. */
const APPLICATORS: ReadonlySet<string> = new Set(["$ref", "allOf", "anyOf", "oneOf", "not", "type", "const", "enum"]);
/** Keywords lowered into the nodes above (see ir.ts): conditionals and `unevaluatedProperties`. */
const LOWERED: ReadonlySet<string> = new Set(["if", "then", "else", "dependentRequired", "dependentSchemas", "dependencies", "unevaluatedProperties", "unevaluatedItems"]);
/** Keywords of one dialect only: elsewhere they are not keywords, and refused as unknown. */
const DIALECT_ONLY: Readonly<Record<string, "draft-07" | "2020-12">> = {
  minContains: "2020-12",
  maxContains: "2020-12",
  dependentRequired: "2020-12",
  dependentSchemas: "2020-12",
  unevaluatedProperties: "2020-12",
  unevaluatedItems: "2020-12",
  dependencies: "draft-07",
  prefixItems: "2020-12",
  additionalItems: "draft-07",
};

/** What a schema evaluates under some conditions (IrBuilder.evaluations). */
interface Evaluation {
  /** Nodes that must all hold for this to be what was evaluated (branches matched or not). */
  conditions: IrNode[];
  names: Set<string>;
  patterns: string[];
  allProperties: boolean;
  /** How many leading items `prefixItems` evaluated. */
  prefix: number;
  allItems: boolean;
  /** Schemas of `contains`: an item matching one is evaluated. */
  contains: IrNode[];
}
const empty = (): Evaluation => ({ conditions: [], names: new Set(), patterns: [], allProperties: false, prefix: 0, allItems: false, contains: [] });
const merged = (a: Evaluation, b: Evaluation): Evaluation => ({
  conditions: [...a.conditions, ...b.conditions],
  names: new Set([...a.names, ...b.names]),
  patterns: [...a.patterns, ...b.patterns],
  allProperties: a.allProperties || b.allProperties,
  prefix: Math.max(a.prefix, b.prefix),
  allItems: a.allItems || b.allItems,
  contains: [...a.contains, ...b.contains],
});
/** The most alternatives one `unevaluated*` is lowered into (each a branch of the printed union). */
const MAX_EVALUATIONS = 64;

const isObject = (v: unknown): v is JsonSchema => typeof v === "object" && v !== null && !Array.isArray(v);

/** Whether a JSON value has a JSON Schema type (`integer`: an integral number). */
function hasJsonType(value: unknown, type: JsonType): boolean {
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

/** JSON equality: numbers by value, objects whatever their key order. */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && jsonEqual((a as JsonSchema)[k], (b as JsonSchema)[k]));
}

/** The schema that accepts exactly one object or array value (JSON equality): every member a `const`. */
function exactly(value: object, dialect: "draft-07" | "2020-12"): JsonSchema {
  if (Array.isArray(value)) {
    const prefix = value.map((v) => ({ const: v }));
    const tuple = dialect === "2020-12" ? { prefixItems: prefix, items: false } : { items: prefix, additionalItems: false };
    return { type: "array", ...tuple, minItems: value.length };
  }
  const keys = Object.keys(value);
  return { type: "object", properties: Object.fromEntries(keys.map((k) => [k, { const: (value as JsonSchema)[k] }])), required: keys, additionalProperties: false };
}

type Tokens = Array<string | number>;

/**
 * Builds one version's IR. Definitions first (so every `$ref` resolves to its `IrDefinition`), then
 * whatever inline schemas the model needs (`node`, `derive`), then `finish` orders them.
 */
export class IrBuilder {
  private readonly definitions = new Map<string, IrDefinition>();
  /** The definition (or derived definition) whose schema is being built, for error messages. */
  private owner = "";
  private finished: SchemaIR | null = null;

  constructor(private readonly spec: LoadedSpec) {
    for (const name of Object.keys(spec.defs)) {
      this.definitions.set(name, {
        name,
        node: { kind: "any", at: this.at([name]), annotations: {} },
        at: this.at([name]),
        recursive: false,
        derived: null,
      });
    }
    for (const name of Object.keys(spec.defs)) {
      this.definitions.get(name)!.node = this.node(spec.defs[name], [name], name);
    }
  }

  /** Where `tokens` (below the file's definitions container) point. */
  at(tokens: Tokens): SourceRef {
    return { file: this.spec.file, pointer: "#" + pointer(this.spec.container, ...tokens) };
  }

  /** Whether `name` is taken (by a definition of the spec or a derived one). */
  has(name: string): boolean {
    return this.definitions.has(name);
  }

  /** The IR node of an inline schema at `tokens`, part of the definition `owner` (for messages). */
  node(schema: unknown, tokens: Tokens, owner: string): IrNode {
    const previous = this.owner;
    this.owner = owner;
    try {
      return this.build(schema, tokens);
    } finally {
      this.owner = previous;
    }
  }

  /** Name an inline schema: a definition the model derived (an inline result, say), keyed `name`. */
  derive(name: string, schema: unknown, tokens: Tokens, reason: string): IrDefinition {
    if (this.finished !== null) throw new Error("IrBuilder: derive after finish");
    if (this.definitions.has(name)) throw new Error(`IrBuilder: ${name} is already a definition`);
    const at = this.at(tokens);
    const definition: IrDefinition = {
      name,
      node: { kind: "any", at, annotations: {} },
      at,
      recursive: false,
      derived: { from: at, reason },
    };
    this.definitions.set(name, definition);
    definition.node = this.node(schema, tokens, name);
    return definition;
  }

  /** The finished IR: definitions sorted by name, dependency order, cycles marked. */
  finish(): SchemaIR {
    if (this.finished !== null) return this.finished;
    const sorted = new Map([...this.definitions].sort(([a], [b]) => byCodeUnit(a, b)));
    const { order, recursive } = dependencyOrder(sorted);
    for (const name of recursive) sorted.get(name)!.recursive = true;
    this.finished = { label: this.spec.label, file: this.spec.file, dialect: this.spec.dialect, definitions: sorted, order };
    return this.finished;
  }

  private fail(message: string, tokens: Tokens): never {
    throw new InputError(`cannot express ${this.owner}: ${message}`, this.spec.file, pointer(this.spec.container, ...tokens));
  }

  private build(node: unknown, at: Tokens): IrNode {
    const where = this.at(at);
    if (node === true) return { kind: "any", at: where, annotations: {} };
    if (node === false) return { kind: "never", at: where, annotations: {} };
    if (!isObject(node)) return this.fail("expected a schema (an object or a boolean)", at);
    for (const k of Object.keys(node)) {
      const known = ANNOTATION_KEYWORDS.has(k) || APPLICATORS.has(k) || LOWERED.has(k) || Object.hasOwn(TYPE_KEYWORDS, k);
      if (!known || (Object.hasOwn(DIALECT_ONLY, k) && DIALECT_ONLY[k] !== this.spec.dialect)) this.fail(`the keyword "${k}" is not supported`, [...at, k]);
    }
    const annotations = this.annotations(node);
    const parts: IrNode[] = [];
    if (node.$ref !== undefined) {
      if (typeof node.$ref !== "string") this.fail("expected $ref to be a string", [...at, "$ref"]);
      const name = refName(node.$ref);
      const target = this.definitions.get(name);
      if (target === undefined) this.fail(`dangling $ref "${node.$ref}": no definition "${name}"`, [...at, "$ref"]);
      parts.push({ kind: "ref", at: where, annotations: {}, name, target });
    }
    parts.push(...this.typed(node, at));
    const allOf = node.allOf === undefined ? null : this.schemaList(node.allOf, [...at, "allOf"]).map((s, i) => this.build(s, [...at, "allOf", i]));
    if (allOf !== null) parts.push(...allOf);
    for (const key of ["anyOf", "oneOf"] as const) {
      if (node[key] === undefined) continue;
      const branches = this.schemaList(node[key], [...at, key]).map((s, i) => this.build(s, [...at, key, i]));
      parts.push({ kind: "union", at: this.at([...at, key]), annotations: {}, exclusive: key === "oneOf", branches, source: key });
    }
    if (node.not !== undefined) {
      const inner = this.build(node.not, [...at, "not"]);
      // `not` of a schema that accepts everything (`{}`, `true`) accepts nothing: that is `never`, which every printer can say.
      const bare = inner.kind === "any" && Object.keys(inner.annotations).length === 0;
      parts.push(bare ? { kind: "never", at: this.at([...at, "not"]), annotations: {} } : { kind: "not", at: this.at([...at, "not"]), annotations: {}, node: inner });
    }
    parts.push(...this.lowered(node, at));

    if (parts.length === 0) return { kind: "any", at: where, annotations };
    // `allOf` alone (even of one schema) stays an intersection, so printers see what the spec wrote.
    if (parts.length === 1 && allOf === null) {
      const only = parts[0];
      return { ...only, at: where, annotations: { ...only.annotations, ...annotations } } as IrNode;
    }
    const onlyAllOf = allOf !== null && parts.length === allOf.length;
    return { kind: "intersection", at: where, annotations, parts, source: onlyAllOf ? "allOf" : "siblings" };
  }

  private annotations(node: JsonSchema): Annotations {
    const out: Annotations = {};
    if (typeof node.title === "string") out.title = node.title;
    if (typeof node.description === "string") out.description = node.description;
    if (typeof node.deprecated === "boolean") out.deprecated = node.deprecated;
    if (typeof node.format === "string") out.format = node.format;
    if (node.default !== undefined) out.default = node.default;
    if (Array.isArray(node.examples)) out.examples = node.examples;
    if (typeof node.readOnly === "boolean") out.readOnly = node.readOnly;
    if (typeof node.writeOnly === "boolean") out.writeOnly = node.writeOnly;
    if (typeof node.$comment === "string") out.$comment = node.$comment;
    return out;
  }

  private schemaList(value: unknown, at: Tokens): unknown[] {
    if (!Array.isArray(value) || value.length === 0) return this.fail("expected a non-empty array of schemas", at);
    return value;
  }

  private count(node: JsonSchema, k: string, at: Tokens): number | undefined {
    const v = node[k];
    if (v === undefined) return undefined;
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0) return this.fail(`expected "${k}" to be a non-negative integer`, [...at, k]);
    return v;
  }

  /**
   * The `type`/`const`/`enum` part and the type-specific keywords: nothing when the node has none;
   * without `type`, one node per constrained type, each `impliedType` (other types pass).
   */
  private typed(node: JsonSchema, at: Tokens): IrNode[] {
    const where = this.at(at);
    const specific = Object.keys(node).filter((k) => Object.hasOwn(TYPE_KEYWORDS, k));
    const hasValues = node.const !== undefined || node.enum !== undefined;
    if (node.type === undefined && specific.length === 0 && !hasValues) return [];

    let types: JsonType[];
    if (node.type === undefined) types = ["object", "array", "string", "number", "boolean", "null"];
    else {
      const raw = Array.isArray(node.type) ? node.type : [node.type];
      if (raw.length === 0 || raw.some((t) => !(JSON_TYPES as readonly unknown[]).includes(t))) this.fail("expected type to be a JSON type or a non-empty array of them", [...at, "type"]);
      types = [...new Set(raw as JsonType[])];
      if (types.includes("number")) types = types.filter((t) => t !== "integer");
    }

    if (hasValues) {
      // `const` beside `enum`: the const when the enum has it (JSON equality), else nothing.
      const keyword: "const" | "enum" = node.const !== undefined ? "const" : "enum";
      let values: unknown[] = [];
      for (const k of ["const", "enum"] as const) {
        if (node[k] === undefined) continue;
        const list = k === "const" ? [node.const] : Array.isArray(node.enum) ? node.enum : this.fail("expected enum to be an array", [...at, "enum"]);
        values = k === "const" ? list : node.const !== undefined ? values.filter((v) => list.some((w) => jsonEqual(v, w))) : list;
      }
      // A value of a type the node does not allow can never validate.
      const kept = values.filter((v) => types.some((t) => hasJsonType(v, t)));
      const primitives = [...new Set(kept.filter((v) => typeof v !== "object" || v === null))] as LiteralValue[];
      // An object or array value is the schema that accepts exactly it: lowered, each member a const.
      const structured = kept.filter((v) => typeof v === "object" && v !== null).map((v) => this.build(exactly(v, this.spec.dialect), [...at, keyword]));
      const branches: IrNode[] = [...(primitives.length === 0 ? [] : [{ kind: "literal" as const, at: where, annotations: {}, values: primitives, keyword }]), ...structured];
      const literals: IrNode[] = [
        branches.length === 0
          ? { kind: "never", at: this.at([...at, keyword]), annotations: {} }
          : branches.length === 1
            ? branches[0]
            : { kind: "union", at: this.at([...at, keyword]), annotations: {}, exclusive: false, branches, source: "anyOf" },
      ];
      if (specific.length === 0) return literals;
      // Beside type keywords: the literal and the constraints of the types its values have.
      const constrained = new Set(specific.map((k) => TYPE_KEYWORDS[k]));
      return [...literals, ...[...constrained].sort(byCodeUnit).map((t) => this.typeNode(t, node, at, true))];
    }

    if (node.type === undefined) {
      // Only the types a keyword constrains get a node; every other type passes.
      const constrained = new Set(specific.map((k) => TYPE_KEYWORDS[k]));
      return [...constrained].sort(byCodeUnit).map((t) => this.typeNode(t, node, at, true));
    }
    const branches = types.map((t) => this.typeNode(t, node, at, false));
    if (branches.length === 1) return branches;
    return [{ kind: "union", at: this.at([...at, "type"]), annotations: {}, exclusive: false, branches, source: "type" }];
  }

  private typeNode(type: JsonType, node: JsonSchema, at: Tokens, impliedType: boolean): IrNode {
    const where = this.at(at);
    const base = { at: where, annotations: {} };
    switch (type) {
      case "null":
        return { kind: "null", ...base };
      case "boolean":
        return { kind: "boolean", ...base };
      case "string": {
        const pattern = node.pattern;
        if (pattern !== undefined) {
          if (typeof pattern !== "string") this.fail("expected pattern to be a string", [...at, "pattern"]);
          this.pattern(pattern, [...at, "pattern"]);
        }
        return {
          kind: "string",
          ...base,
          impliedType,
          ...optional("minLength", this.count(node, "minLength", at)),
          ...optional("maxLength", this.count(node, "maxLength", at)),
          ...optional("pattern", pattern as string | undefined),
        };
      }
      case "number":
      case "integer": {
        const bound = (k: string): number | undefined => {
          const v = node[k];
          if (v === undefined) return undefined;
          if (typeof v !== "number" || !Number.isFinite(v)) return this.fail(`expected "${k}" to be a number`, [...at, k]);
          return v;
        };
        const m = node.multipleOf;
        if (m !== undefined && (typeof m !== "number" || !Number.isFinite(m) || m <= 0)) this.fail("expected multipleOf to be a positive number", [...at, "multipleOf"]);
        return {
          kind: "number",
          ...base,
          impliedType,
          integer: type === "integer",
          ...optional("minimum", bound("minimum")),
          ...optional("maximum", bound("maximum")),
          ...optional("exclusiveMinimum", bound("exclusiveMinimum")),
          ...optional("exclusiveMaximum", bound("exclusiveMaximum")),
          ...optional("multipleOf", m === undefined ? undefined : multipleOf(m as number)),
        };
      }
      case "array": {
        // Tuples: 2020-12's `prefixItems` and `items` (the rest), draft-07's array `items` and `additionalItems` (the rest).
        const tuple = this.spec.dialect === "draft-07" ? (Array.isArray(node.items) ? "items" : null) : node.prefixItems !== undefined ? "prefixItems" : null;
        if (this.spec.dialect === "2020-12" && Array.isArray(node.items)) this.fail("expected items to be a schema (2020-12 writes a tuple as prefixItems)", [...at, "items"]);
        const prefixItems = tuple === null ? undefined : this.schemaList(node[tuple], [...at, tuple]).map((s, i) => this.build(s, [...at, tuple, i]));
        const restKey = tuple === "items" ? "additionalItems" : "items";
        const rest = tuple === null || this.spec.dialect === "2020-12" ? node.items : node.additionalItems;
        const items: IrNode = rest === undefined ? { kind: "any", at: this.at([...at, restKey]), annotations: {} } : this.build(rest, [...at, restKey]);
        let contains: { node: IrNode; min: number; max?: number } | undefined;
        if (node.contains !== undefined) {
          const max = this.count(node, "maxContains", at);
          contains = { node: this.build(node.contains, [...at, "contains"]), min: this.count(node, "minContains", at) ?? 1, ...optional("max", max) };
        }
        if (node.uniqueItems !== undefined && typeof node.uniqueItems !== "boolean") this.fail("expected uniqueItems to be a boolean", [...at, "uniqueItems"]);
        return {
          kind: "array",
          ...base,
          impliedType,
          items,
          ...optional("minItems", this.count(node, "minItems", at)),
          ...optional("maxItems", this.count(node, "maxItems", at)),
          ...optional("prefixItems", prefixItems),
          ...optional("contains", contains),
          ...(node.uniqueItems === true ? { uniqueItems: true } : {}),
        };
      }
      case "object":
        return this.object(node, at, impliedType);
    }
  }

  /** Check an ECMA-262 pattern: it compiles with the `u` flag and every construct means the same in every target. */
  private pattern(source: string, at: Tokens): void {
    try {
      parsePattern(source);
    } catch (e) {
      if (e instanceof PatternError) this.fail(`the pattern ${JSON.stringify(source)} has ${e.message}`, at);
      this.fail(`pattern ${JSON.stringify(source)} is not an ECMA-262 regular expression: ${(e as Error).message}`, at);
    }
  }

  /** An object that has every name given (`impliedType`: other types pass; else only such objects). */
  private requiring(names: string[], at: Tokens, impliedType: boolean): ObjectNode {
    const where = this.at(at);
    return { kind: "object", at: where, annotations: {}, impliedType, properties: names.map((name) => ({ name, node: { kind: "any", at: where, annotations: {} }, required: true, requiredOnly: true })), additional: null };
  }

  /** `¬(an object with name) ∨ then`: what a dependency on `name` means. */
  private dependency(name: string, then: IrNode, at: Tokens): IrNode {
    const where = this.at(at);
    const absent: IrNode = { kind: "not", at: where, annotations: {}, node: this.requiring([name], at, false) };
    return { kind: "union", at: where, annotations: {}, exclusive: false, branches: [absent, then], source: "anyOf" };
  }

  /** The keywords lowered into other nodes (ir.ts): if/then/else, dependencies, unevaluatedProperties. */
  private lowered(node: JsonSchema, at: Tokens): IrNode[] {
    const parts: IrNode[] = [];
    if (node.if !== undefined) {
      const where = this.at([...at, "if"]);
      const condition = this.build(node.if, [...at, "if"]);
      const then = node.then === undefined ? condition : { kind: "intersection" as const, at: where, annotations: {}, parts: [condition, this.build(node.then, [...at, "then"])], source: "siblings" as const };
      const negated: IrNode = { kind: "not", at: where, annotations: {}, node: condition };
      const otherwise = node.else === undefined ? negated : { kind: "intersection" as const, at: where, annotations: {}, parts: [negated, this.build(node.else, [...at, "else"])], source: "siblings" as const };
      parts.push({ kind: "union", at: where, annotations: {}, exclusive: false, branches: [then, otherwise], source: "if" });
    }
    const required = (value: unknown, tokens: Tokens): string[] => {
      if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) return this.fail("expected an array of property names", tokens);
      return value as string[];
    };
    for (const key of ["dependentRequired", "dependentSchemas", "dependencies"] as const) {
      const map = node[key];
      if (map === undefined) continue;
      if (!isObject(map)) this.fail(`expected ${key} to be an object`, [...at, key]);
      for (const name of Object.keys(map)) {
        const tokens = [...at, key, name];
        const arrayForm = key === "dependentRequired" || (key === "dependencies" && Array.isArray(map[name]));
        const then = arrayForm ? this.requiring(required(map[name], tokens), tokens, true) : this.build(map[name], tokens);
        parts.push(this.dependency(name, then, tokens));
      }
    }
    if (node.unevaluatedProperties !== undefined || node.unevaluatedItems !== undefined) parts.push(...this.unevaluated(node, at));
    return parts;
  }

  /**
   * `unevaluatedProperties`/`unevaluatedItems`, lowered. What a schema evaluates can depend on which of its
   * branches (`anyOf`, `oneOf`, `if`, `dependentSchemas`) an instance matches, so the evaluations are listed
   * as alternatives, each with the conditions that select it (a branch matched, the others not): the
   * unevaluated members must match where an alternative's conditions hold. One alternative without
   * conditions (no branch evaluates anything) is the rest schema alone.
   */
  private unevaluated(node: JsonSchema, at: Tokens): IrNode[] {
    const alternatives = this.evaluations(node, at, new Set(), true);
    const where = this.at(at);
    const any: IrNode = { kind: "any", at: where, annotations: {} };
    const rest = (e: Evaluation): IrNode[] => {
      const out: IrNode[] = [];
      if (node.unevaluatedProperties !== undefined && !e.allProperties) {
        const tokens = [...at, "unevaluatedProperties"];
        out.push({
          kind: "object",
          at: this.at(tokens),
          annotations: {},
          impliedType: true,
          properties: [...e.names].map((name) => ({ name, node: any, required: false })),
          additional: this.build(node.unevaluatedProperties, tokens),
          ...(e.patterns.length === 0 ? {} : { patternProperties: [...new Set(e.patterns)].map((pattern) => ({ pattern, node: any })) }),
        });
      }
      if (node.unevaluatedItems !== undefined && !e.allItems) {
        const tokens = [...at, "unevaluatedItems"];
        const left = this.build(node.unevaluatedItems, tokens);
        // An item a `contains` matches is evaluated by it (2020-12): past the prefix, an item matches one of them or the rest schema.
        const items: IrNode = e.contains.length === 0 ? left : { kind: "union", at: this.at(tokens), annotations: {}, exclusive: false, branches: [...e.contains, left], source: "anyOf" };
        out.push({ kind: "array", at: this.at(tokens), annotations: {}, impliedType: true, items, ...(e.prefix === 0 ? {} : { prefixItems: Array.from({ length: e.prefix }, () => any) }) });
      }
      return out;
    };
    const arms = alternatives.map((e) => [...e.conditions, ...rest(e)]);
    if (arms.length === 1) return arms[0];
    const branches: IrNode[] = arms.map((parts) => (parts.length === 0 ? any : parts.length === 1 ? parts[0] : { kind: "intersection", at: where, annotations: {}, parts, source: "siblings" }));
    return [{ kind: "union", at: where, annotations: {}, exclusive: false, branches, source: "anyOf" }];
  }

  /**
   * What a schema evaluates (2020-12 annotations: the property names and patterns, the prefix of items, the
   * `contains` schemas; or every property / item: an `additionalProperties`/`items`, a nested
   * `unevaluated*`), as alternatives, each with the conditions under which it is what the schema evaluated:
   * its own keywords and its `allOf` and `$ref` parts always; a branch of `anyOf`/`oneOf`, `then` (with
   * `if`), `else` and a `dependentSchemas` entry only where it applies and holds (an instance failing a
   * branch leaves no annotation from it). `not` evaluates nothing.
   */
  private evaluations(node: unknown, at: Tokens, seen: Set<string>, root = false): Evaluation[] {
    const own: Evaluation = { conditions: [], names: new Set(), patterns: [], allProperties: false, prefix: 0, allItems: false, contains: [] };
    if (!isObject(node)) return [own];
    if (node.additionalProperties !== undefined || (!root && node.unevaluatedProperties !== undefined)) own.allProperties = true;
    for (const name of Object.keys(isObject(node.properties) ? node.properties : {})) own.names.add(name);
    own.patterns.push(...Object.keys(isObject(node.patternProperties) ? node.patternProperties : {}));
    if (this.spec.dialect === "2020-12") {
      if (node.items !== undefined || (!root && node.unevaluatedItems !== undefined)) own.allItems = true;
      if (Array.isArray(node.prefixItems)) own.prefix = node.prefixItems.length;
      if (node.contains !== undefined) own.contains.push(this.build(node.contains, [...at, "contains"]));
    }
    let out: Evaluation[] = [own];
    const and = (more: Evaluation[]) => {
      out = out.flatMap((a) => more.map((b) => merged(a, b)));
      if (out.length > MAX_EVALUATIONS) this.fail(`unevaluatedProperties/unevaluatedItems over more than ${MAX_EVALUATIONS} combinations of the branches an instance may match is not supported`, at);
    };
    if (Array.isArray(node.allOf)) node.allOf.forEach((part, i) => and(this.evaluations(part, [...at, "allOf", i], seen)));
    if (typeof node.$ref === "string") {
      const name = refName(node.$ref);
      if (!seen.has(name) && Object.hasOwn(this.spec.defs, name)) and(this.evaluations(this.spec.defs[name], [name], new Set([...seen, name])));
    }
    // A branch that evaluates nothing whatever the instance says nothing here (its keyword still validates elsewhere).
    const relevant = (e: Evaluation[]) => e.some((x) => x.allProperties || x.allItems || x.names.size > 0 || x.patterns.length > 0 || x.prefix > 0 || x.contains.length > 0);
    const not = (n: IrNode, tokens: Tokens): IrNode => ({ kind: "not", at: this.at(tokens), annotations: {}, node: n });
    for (const key of ["anyOf", "oneOf"] as const) {
      if (!Array.isArray(node[key])) continue;
      const branches = (node[key] as unknown[])
        .map((b, i) => ({ tokens: [...at, key, i], evaluations: this.evaluations(b, [...at, key, i], seen), schema: b }))
        .filter((b) => relevant(b.evaluations))
        .map((b) => ({ ...b, node: this.build(b.schema, b.tokens) }));
      if (branches.length === 0) continue;
      const alternatives: Evaluation[] = [];
      // anyOf: every branch that holds leaves its annotations, so each set of holding branches is an alternative;
      // oneOf: at most one holds (else the schema fails anyway).
      const sets = key === "oneOf" ? [[], ...branches.map((_, i) => [i])] : Array.from({ length: 2 ** branches.length }, (_, m) => branches.map((_, i) => i).filter((i) => m & (1 << i)));
      for (const set of sets) {
        let chosen: Evaluation[] = [{ ...empty(), conditions: branches.map((b, i) => (set.includes(i) ? b.node : not(b.node, b.tokens))) }];
        if (key === "oneOf" && set.length === 1) chosen = [{ ...empty(), conditions: [branches[set[0]].node] }];
        for (const i of set) chosen = chosen.flatMap((a) => branches[i].evaluations.map((b) => merged(a, b)));
        alternatives.push(...chosen);
      }
      and(alternatives);
    }
    if (node.if !== undefined && (node.then !== undefined || node.else !== undefined)) {
      const condition = this.evaluations(node.if, [...at, "if"], seen);
      const then = node.then === undefined ? [empty()] : this.evaluations(node.then, [...at, "then"], seen);
      const otherwise = node.else === undefined ? [empty()] : this.evaluations(node.else, [...at, "else"], seen);
      if (relevant(condition) || relevant(then) || relevant(otherwise)) {
        const test = this.build(node.if, [...at, "if"]);
        and([
          ...condition.flatMap((c) => then.map((t) => merged(merged({ ...empty(), conditions: [test] }, c), t))),
          ...otherwise.map((e) => merged({ ...empty(), conditions: [not(test, [...at, "if"])] }, e)),
        ]);
      }
    } else if (node.if !== undefined) {
      // `if` alone validates nothing, but leaves its annotations where it holds.
      const condition = this.evaluations(node.if, [...at, "if"], seen);
      if (relevant(condition)) {
        const test = this.build(node.if, [...at, "if"]);
        and([...condition.map((c) => merged({ ...empty(), conditions: [test] }, c)), { ...empty(), conditions: [not(test, [...at, "if"])] }]);
      }
    }
    if (isObject(node.dependentSchemas)) {
      for (const [name, schema] of Object.entries(node.dependentSchemas)) {
        const tokens = [...at, "dependentSchemas", name];
        const inner = this.evaluations(schema, tokens, seen);
        if (!relevant(inner)) continue;
        const present = this.requiring([name], tokens, false);
        and([...inner.map((e) => merged({ ...empty(), conditions: [present] }, e)), { ...empty(), conditions: [not(present, tokens)] }]);
      }
    }
    return out;
  }

  private object(node: JsonSchema, at: Tokens, impliedType: boolean): ObjectNode {
    const properties = node.properties ?? {};
    if (!isObject(properties)) this.fail("expected properties to be an object", [...at, "properties"]);
    const required = node.required ?? [];
    if (!Array.isArray(required) || required.some((r) => typeof r !== "string")) this.fail("expected required to be an array of strings", [...at, "required"]);
    const req = new Set(required as string[]);
    const list: IrProperty[] = Object.keys(properties).map((name) => ({
      name,
      node: this.build(properties[name], [...at, "properties", name]),
      required: req.has(name),
    }));
    // Required but not described: present, with any value.
    for (const name of req) {
      if (!Object.hasOwn(properties, name)) list.push({ name, node: { kind: "any", at: this.at([...at, "required"]), annotations: {} }, required: true, requiredOnly: true });
    }
    const extra = node.additionalProperties;
    const additional = extra === undefined ? null : this.build(extra, [...at, "additionalProperties"]);
    const names = node.propertyNames === undefined ? undefined : this.build(node.propertyNames, [...at, "propertyNames"]);
    const patterns = node.patternProperties;
    if (patterns !== undefined && !isObject(patterns)) this.fail("expected patternProperties to be an object", [...at, "patternProperties"]);
    const patternProperties = patterns === undefined ? undefined : Object.keys(patterns).map((pattern) => {
      this.pattern(pattern, [...at, "patternProperties", pattern]);
      return { pattern, node: this.build(patterns[pattern], [...at, "patternProperties", pattern]) };
    });
    // A property name is always a string: `propertyNames` that admits every string says nothing (an extension writes `{ type: "string" }`).
    const everyName = names !== undefined && (names.kind === "any" || (names.kind === "string" && names.minLength === undefined && names.maxLength === undefined && names.pattern === undefined));
    return {
      kind: "object",
      at: this.at(at),
      annotations: {},
      impliedType,
      properties: list,
      additional,
      ...(patternProperties === undefined || patternProperties.length === 0 ? {} : { patternProperties }),
      ...(names === undefined || everyName ? {} : { propertyNames: names }),
      ...optional("minProperties", this.count(node, "minProperties", at)),
      ...optional("maxProperties", this.count(node, "maxProperties", at)),
    };
  }
}

/**
 * A positive number's shortest decimal form (what JSON writes, JavaScript's `String(m)`) as an integer and its
 * decimal places: 0.1 → ("1", 1), 0.25 → ("25", 2), 2 → ("2", 0), 1e21 → ("1000000000000000000000", 0).
 */
export function multipleOf(m: number): MultipleOf {
  const [mantissa, exponent] = m.toExponential().split("e");
  const [whole, fraction = ""] = mantissa.split(".");
  const places = fraction.length - Number(exponent);
  const digits = BigInt(whole + fraction) * 10n ** BigInt(Math.max(0, -places));
  return { value: m, digits: digits.toString(), scale: Math.max(0, places) };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** Every IR node below `node` (itself included), depth first, without following references. */
function* walk(node: IrNode): Generator<IrNode> {
  yield node;
  switch (node.kind) {
    case "array":
      for (const p of node.prefixItems ?? []) yield* walk(p);
      yield* walk(node.items);
      if (node.contains !== undefined) yield* walk(node.contains.node);
      break;
    case "object":
      for (const p of node.properties) yield* walk(p.node);
      for (const p of node.patternProperties ?? []) yield* walk(p.node);
      if (node.additional !== null) yield* walk(node.additional);
      if (node.propertyNames !== undefined) yield* walk(node.propertyNames);
      break;
    case "union":
      for (const b of node.branches) yield* walk(b);
      break;
    case "intersection":
      for (const p of node.parts) yield* walk(p);
      break;
    case "not":
      yield* walk(node.node);
      break;
    default:
      break;
  }
}

/** The definitions a node references, in order of appearance. */
function referencedNames(node: IrNode): string[] {
  const out = new Set<string>();
  for (const n of walk(node)) if (n.kind === "ref") out.add(n.name);
  return [...out];
}

/** Definitions in dependency order, and which are in a reference cycle (Tarjan; names sorted for determinism). */
function dependencyOrder(defs: ReadonlyMap<string, IrDefinition>): { order: string[]; recursive: Set<string> } {
  const names = [...defs.keys()];
  const edges = new Map(names.map((n) => [n, referencedNames(defs.get(n)!.node).sort(byCodeUnit)]));
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
      scc.sort(byCodeUnit);
      if (scc.length > 1 || edges.get(v)!.includes(v)) for (const s of scc) recursive.add(s);
      order.push(...scc);
    }
  };
  for (const n of names) if (!index.has(n)) visit(n);
  return { order, recursive };
}

/** One version's schema IR, with names, from its loaded spec alone (no derived definitions). */
export function buildSchemaIR(spec: LoadedSpec): SchemaIR {
  return new IrBuilder(spec).finish();
}

/** One printer's handling of each kind of IR node. */
export type IrVisitor<R> = { [K in IrNode["kind"]]: (node: Extract<IrNode, { kind: K }>) => R };

/** Apply the visitor's handler for the node's kind. */
export function visit<R>(node: IrNode, visitor: IrVisitor<R>): R {
  return (visitor[node.kind] as (n: IrNode) => R)(node);
}

/** The JSON types, in the order printers list them. */
const TYPE_ORDER: readonly JsonType[] = ["object", "array", "string", "number", "boolean", "null"];

/** The types an `impliedType` node of this kind lets through unchecked (every other JSON type). */
export function otherTypes(kind: "object" | "array" | "string" | "number"): JsonType[] {
  return TYPE_ORDER.filter((t) => t !== kind);
}
