// The schema IR: every definition of a version (and every inline schema an emitter needs) as a
// typed tree, built once per version from the loaded spec (generator/model/ir-build.ts). The
// TypeScript, zod, guard, diff and other printers read these nodes and never raw JSON Schema:
// what a keyword means, and whether a keyword can be expressed at all, is decided once, when the
// IR is built (an InputError naming the file and JSON pointer otherwise).
//
// Semantics are JSON Schema's, made explicit:
// - A schema node with several validating keywords is an `intersection` of one node per part
//   (`$ref` beside `type` beside `allOf` in 2020-12 is the intersection of the three).
// - `type: [a, b]` is a `union` of one node per type; `integer` is a `number` node with `integer`.
// - Type-specific keywords without `type` (`properties` alone) constrain only their own type and
//   let every other JSON type through: such a node carries `impliedType: true`. Validators must
//   accept the other types; a type printer may print only the constrained type (and says so).
// - `const`/`enum` become a `literal` node holding only the values the node's `type` allows; beside
//   type keywords, the intersection of the literal and the typed node.
// - Keywords that say "if … then …" are lowered into the nodes above, once, here: `if`/`then`/`else`
//   is `(if ∧ then) ∨ (¬if ∧ else)` (a union of source "if"); `dependentRequired` (draft-07's
//   array `dependencies`) and `dependentSchemas` (schema `dependencies`) are, per name, `¬(an object
//   with the name) ∨ (what it requires)`; `unevaluatedProperties` is an object node whose declared
//   properties and patterns are every name the schema evaluates (its own, its `allOf` and `$ref`
//   parts'), `additional` the unevaluated schema; where the evaluated names depend on which branches of
//   an `anyOf`/`oneOf`/`if`/`dependentSchemas` hold, a union of one such node per combination, each beside
//   the branches it assumes (and the negations of the others). `unevaluatedItems` likewise, as an array
//   node: the evaluated prefix, then items matching a `contains` or the unevaluated schema.
// - `pattern` and `patternProperties` keys are ECMA-262 (`u` flag), parsed by model/pattern.ts;
//   a construct whose meaning differs between ECMA-262, Python and Ruby is refused.

/** Where a node comes from: the schema file and the JSON pointer inside it (RFC 6901, with `#`). */
export interface SourceRef {
  file: string;
  /** `#/$defs/CallToolResult/properties/content` (the file's own container: `definitions` or `$defs`). */
  pointer: string;
}

/** Keywords that describe and never constrain. Kept for doc comments and diffs. */
export interface Annotations {
  title?: string;
  description?: string;
  deprecated?: boolean;
  /** An annotation in both dialects here: never asserted by the validators. */
  format?: string;
  default?: unknown;
  examples?: unknown[];
  readOnly?: boolean;
  writeOnly?: boolean;
  $comment?: string;
}

export type JsonType = "object" | "array" | "string" | "number" | "integer" | "boolean" | "null";
export type LiteralValue = string | number | boolean | null;

interface NodeBase {
  at: SourceRef;
  annotations: Annotations;
}

/** `true`, `{}` or annotations only: every JSON value. */
export interface AnyNode extends NodeBase {
  kind: "any";
}

/** `false`, or a `const`/`enum` none of whose values the node's `type` allows. */
export interface NeverNode extends NodeBase {
  kind: "never";
}

/** A `$ref` to a definition of the same version, resolved. */
export interface RefNode extends NodeBase {
  kind: "ref";
  /** The definition's original name (key of `SchemaIR.definitions`). */
  name: string;
  /** The definition itself (the same object as `SchemaIR.definitions.get(name)`). */
  target: IrDefinition;
}

/** `const` (one value) or `enum` (several), primitive values only, in source order, no duplicates. */
export interface LiteralNode extends NodeBase {
  kind: "literal";
  values: LiteralValue[];
  /** Which keyword it came from (diffs and doc comments may care). */
  keyword: "const" | "enum";
}

export interface NullNode extends NodeBase {
  kind: "null";
}

export interface BooleanNode extends NodeBase {
  kind: "boolean";
}

export interface StringNode extends NodeBase {
  kind: "string";
  impliedType: boolean;
  /** In code points, as JSON Schema counts. */
  minLength?: number;
  maxLength?: number;
  /** An ECMA-262 pattern, checked to compile with the `u` flag. */
  pattern?: string;
}

export interface NumberNode extends NodeBase {
  kind: "number";
  impliedType: boolean;
  /** JSON Schema `integer`: any integral number (1.0 included). */
  integer: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  /** `multipleOf`, positive: see {@link MultipleOf} for the one rule every target follows. */
  multipleOf?: MultipleOf;
}

/**
 * A `multipleOf` divisor as every target divides by it: JSON Schema's "the division results in an integer" taken in
 * exact decimal arithmetic on the shortest decimal forms (what JSON writes) of the value and of the divisor, so 0.3
 * is a multiple of 0.1 (Ajv, dividing in binary, says no) and 1e21 of 3 is not. The divisor is
 * `digits` × 10^-`scale`; a value's own shortest form is scaled alike by each target's runtime (BigInt in
 * TypeScript, `fractions` in Python, BigDecimal in Ruby's json_schemer, `math/big` in Go).
 */
export interface MultipleOf {
  /** The divisor as the schema writes it. */
  value: number;
  /** The divisor's shortest decimal form without its point, as an integer in decimal ("1" for 0.1, "25" for 0.25). */
  digits: string;
  /** The divisor's decimal places (1 for 0.1, 0 for 2 and for 1e21). */
  scale: number;
}

export interface ArrayNode extends NodeBase {
  kind: "array";
  impliedType: boolean;
  /** The first items' schemas, in order (2020-12 `prefixItems`, draft-07 array `items`); an array may be shorter. */
  prefixItems?: IrNode[];
  /** The schema of every item (after `prefixItems`: 2020-12 `items`, draft-07 `additionalItems`); an `any` node when absent. */
  items: IrNode;
  minItems?: number;
  maxItems?: number;
  /** `contains` with 2020-12's `minContains` (default 1) and `maxContains`. */
  contains?: { node: IrNode; min: number; max?: number };
  /** `uniqueItems: true` (JSON equality: 1 and 1.0 are equal, key order does not count). */
  uniqueItems?: boolean;
}

export interface IrProperty {
  /** The property name exactly as in the schema (may be any string, `__proto__` included). */
  name: string;
  node: IrNode;
  required: boolean;
  /** True for a name that is only in `required`, not described under `properties` (its node is `any`). */
  requiredOnly?: boolean;
}

export interface ObjectNode extends NodeBase {
  kind: "object";
  impliedType: boolean;
  /** Declared properties in source order, then names that are only `required` (node `any`). */
  properties: IrProperty[];
  /**
   * `additionalProperties` as given: null when absent (open: any extra key, any value), an `any`
   * node for `true`/`{}`, a `never` node for `false`, else the schema extra values must match.
   */
  additional: IrNode | null;
  /**
   * `patternProperties` in source order: a key matching a pattern (ECMA-262, anywhere in the key)
   * must match its schema, and is not additional.
   */
  patternProperties?: Array<{ pattern: string; node: IrNode }>;
  propertyNames?: IrNode;
  minProperties?: number;
  maxProperties?: number;
}

/** `anyOf` (`exclusive: false`) or `oneOf` (`exclusive: true`), or the types of `type: [..]`. */
export interface UnionNode extends NodeBase {
  kind: "union";
  exclusive: boolean;
  branches: IrNode[];
  /** Which construct made it. */
  source: "anyOf" | "oneOf" | "type" | "if";
}

/** `allOf`, or several validating parts of one schema node. */
export interface IntersectionNode extends NodeBase {
  kind: "intersection";
  parts: IrNode[];
  source: "allOf" | "siblings";
}

/** `not`. */
export interface NotNode extends NodeBase {
  kind: "not";
  node: IrNode;
}

export type IrNode =
  | AnyNode
  | NeverNode
  | RefNode
  | LiteralNode
  | NullNode
  | BooleanNode
  | StringNode
  | NumberNode
  | ArrayNode
  | ObjectNode
  | UnionNode
  | IntersectionNode
  | NotNode;

export interface IrDefinition {
  /** The name as the spec writes it (may be any string: `Record<string,string>`). */
  name: string;
  node: IrNode;
  at: SourceRef;
  /** In a reference cycle (itself included): printers declare it lazily / with an explicit type. */
  recursive: boolean;
  /**
   * null for the spec's own definitions. For a definition the model derived (an inline result
   * schema, say), where the inline schema is and why it got a name.
   */
  derived: { from: SourceRef; reason: string } | null;
}

/** One version's schema IR. */
export interface SchemaIR {
  label: string;
  file: string;
  dialect: "draft-07" | "2020-12";
  /** Definitions by original name, sorted by name (code-unit order). */
  definitions: ReadonlyMap<string, IrDefinition>;
  /** Names in dependency order: a definition after everything it references (cycles aside). */
  order: readonly string[];
}
