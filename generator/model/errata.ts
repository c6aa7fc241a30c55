// Errata (issue 17): where a version's schema.json and the spec's own schema.ts (the TypeScript it is
// generated from) both say something about the same value, do they say the same? Each disagreement
// is a finding, with the schema.json JSON pointer (into the file as published) and the schema.ts line.
//
// Compared, definition by definition, wherever both sides speak:
// - `integer`: schema.json admits only integers where schema.ts says `number`;
// - `null`: one side admits null, the other does not;
// - `type`: one side admits a kind of value (string, number, boolean, object, array) the other does not;
// - `literal`: the enum/const members differ (or one side is a literal set, the other the whole kind);
// - `required`: a member required on one side is optional on the other;
// - `property`: a member one side declares and the other does not;
// - `open`: `additionalProperties: false` against an index signature, or an `additionalProperties`
//   schema against an object type without one. schema.json's generator writes no
//   `additionalProperties` for a closed interface: an absent keyword says nothing.
// A side that accepts anything (`{}`, `unknown`, `any`) says nothing about what is inside.
// References on both sides to a definition of the same name are compared once, at that definition.
//
// This module reads no file and keeps no cache: it is given the documents and the parsed schema.ts the
// pipeline loaded (pipeline.ts), and the pipeline's run caches the findings (run.ts).
import type { ts as tsTypes } from "ts-morph";
import { InputError, pointer as jsonPointer, unescapePointerToken } from "../errors.js";
import type { NamedPatch } from "../source/patch.js";
import type { SpecDeclaration, SpecSource } from "./spec-typescript.js";

import type { ErratumKind, ReviewedErratum } from "../source/reviewed.js";
export type { ErratumKind, ReviewedErratum };

export interface Erratum {
  kind: ErratumKind;
  /** The definition whose comparison found it (a name both files declare). */
  definition: string;
  /** JSON pointer into schema.json as published. */
  pointer: string;
  /** What schema.json says there. */
  schemaJson: string;
  /** What schema.ts says. */
  schemaTs: string;
  /** The 1-based schema.ts line of what it says. */
  line: number;
}

type Json = unknown;
type JsonObject = Record<string, Json>;
type TypeNode = tsTypes.TypeNode;

const isObject = (v: Json): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

/** The kinds of primitive value; `number` covers every JSON number, `integer` only integral ones. */
type Primitive = "string" | "number" | "integer" | "boolean" | "null";
/** Per primitive kind: every value of it, or only these literals (JSON text). */
type Admits = Map<Primitive, "all" | Set<string>>;

interface SchemaObject {
  at: string[];
  properties: Map<string, { schema: Json; at: string[] }>;
  required: Map<string, string[]>;
  /** `false`: closed; a schema: open with values of it; undefined: not said. */
  additional: Json;
  additionalAt: string[];
}

/** What one side says a value may be. */
interface Summary {
  any: boolean;
  admits: Admits;
  /** Where a primitive kind is (or would be) written, as JSON pointer steps (schema side only). */
  primitivesAt: string[] | null;
  /** TS nodes that say each primitive kind (TS side only). */
  nodes: Map<Primitive, TypeNode>;
  objects: Array<SchemaObject | TypeNode>;
  arrays: Array<{ items: Json | TypeNode; at: string[] }>;
  /** Definitions referenced by name (compared at their own definition when both sides name them). */
  refs: Set<string>;
}

const emptySummary = (): Summary => ({ any: false, admits: new Map(), primitivesAt: null, nodes: new Map(), objects: [], arrays: [], refs: new Set() });

function admit(admits: Admits, kind: Primitive, literal?: string): void {
  const had = admits.get(kind);
  if (literal === undefined) admits.set(kind, "all");
  else if (had === undefined) admits.set(kind, new Set([literal]));
  else if (had !== "all") had.add(literal);
}

function literalKind(value: Json): Primitive | null {
  if (value === null) return "null";
  if (typeof value === "string") return "string";
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "boolean";
  return null;
}

/** Compare a version's schema.json (parsed, as published or patched) with its parsed schema.ts. */
export function findErrata(doc: JsonObject, spec: SpecSource): Erratum[] {
  const container = Object.hasOwn(doc, "$defs") ? "$defs" : "definitions";
  const defs = isObject(doc[container]) ? (doc[container] as JsonObject) : {};
  return new Comparison(spec, container, defs).run();
}

class Comparison {
  private readonly findings = new Map<string, Erratum>();
  private readonly seen = new Set<string>();
  private definition = "";
  private readonly ts: SpecSource["ts"];

  constructor(
    private readonly spec: SpecSource,
    private readonly container: string,
    private readonly defs: JsonObject,
  ) {
    this.ts = spec.ts;
  }

  run(): Erratum[] {
    for (const name of Object.keys(this.defs).sort()) {
      const decl = this.spec.declarations.get(name);
      if (decl === undefined) continue;
      this.definition = name;
      this.compare(this.defs[name], [this.container, name], decl, 0);
    }
    return [...this.findings.values()].sort((a, b) => (a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
  }

  private report(kind: ErratumKind, at: string[], schemaJson: string, schemaTs: string, node: tsTypes.Node): void {
    const pointer = jsonPointer(...at);
    const key = `${kind} ${pointer}`;
    if (!this.findings.has(key)) this.findings.set(key, { kind, definition: this.definition, pointer, schemaJson, schemaTs, line: this.spec.line(node) });
  }

  // ---- schema.json side ----

  private refName(ref: Json): string | null {
    const prefix = `#/${this.container}/`;
    if (typeof ref !== "string" || !ref.startsWith(prefix)) return null;
    const name = unescapePointerToken(ref.slice(prefix.length));
    return Object.hasOwn(this.defs, name) ? name : null;
  }

  private summarizeSchema(schema: Json, at: string[], out: Summary, depth: number): void {
    if (schema === true || (isObject(schema) && Object.keys(schema).every((k) => ANNOTATIONS.has(k)))) {
      out.any = true;
      return;
    }
    if (!isObject(schema) || depth > 16) return;
    const ref = this.refName(schema.$ref);
    if (ref !== null) {
      out.refs.add(ref);
      return;
    }
    for (const key of ["anyOf", "oneOf"] as const) {
      const list = schema[key];
      if (!Array.isArray(list)) continue;
      list.forEach((member, i) => this.summarizeSchema(member, [...at, key, String(i)], out, depth + 1));
      return;
    }
    if (Array.isArray(schema.allOf)) {
      out.objects.push(this.mergedObject(schema, at, depth));
      return;
    }
    const literals = Object.hasOwn(schema, "const") ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : null;
    const types = typeof schema.type === "string" ? [schema.type] : Array.isArray(schema.type) ? (schema.type as Json[]) : null;
    if (literals !== null) {
      for (const value of literals) {
        const kind = literalKind(value);
        if (kind === "number" && types?.includes("integer") && !types.includes("number")) admit(out.admits, "integer", JSON.stringify(value));
        else if (kind !== null) admit(out.admits, kind, JSON.stringify(value));
      }
      out.primitivesAt ??= [...at, Object.hasOwn(schema, "const") ? "const" : "enum"];
      return;
    }
    const kinds = types ?? (isObject(schema.properties) || Object.hasOwn(schema, "additionalProperties") ? ["object"] : schema.items !== undefined ? ["array"] : null);
    if (kinds === null) {
      out.any = true;
      return;
    }
    for (const kind of kinds) {
      if (kind === "object") out.objects.push(this.schemaObject(schema, at));
      else if (kind === "array") out.arrays.push({ items: schema.items ?? true, at: [...at, "items"] });
      else if (kind === "string" || kind === "number" || kind === "integer" || kind === "boolean" || kind === "null") {
        admit(out.admits, kind);
        out.primitivesAt ??= [...at, "type"];
      }
    }
  }

  private schemaObject(schema: JsonObject, at: string[]): SchemaObject {
    const properties = new Map<string, { schema: Json; at: string[] }>();
    if (isObject(schema.properties)) for (const [name, s] of Object.entries(schema.properties)) properties.set(name, { schema: s, at: [...at, "properties", name] });
    const required = new Map<string, string[]>();
    if (Array.isArray(schema.required)) schema.required.forEach((name, i) => typeof name === "string" && required.set(name, [...at, "required", String(i)]));
    return { at, properties, required, additional: schema.additionalProperties, additionalAt: [...at, "additionalProperties"] };
  }

  /** An `allOf` as one object: its object parts (references followed) merged, later parts winning. */
  private mergedObject(schema: JsonObject, at: string[], depth: number): SchemaObject {
    const merged = this.schemaObject({ ...schema, allOf: undefined }, at);
    const add = (part: Json, partAt: string[], d: number) => {
      if (!isObject(part) || d > 16) return;
      const ref = this.refName(part.$ref);
      if (ref !== null) return add(this.defs[ref], [this.container, ref], d + 1);
      if (Array.isArray(part.allOf)) part.allOf.forEach((p, i) => add(p, [...partAt, "allOf", String(i)], d + 1));
      const o = this.schemaObject(part, partAt);
      for (const [k, v] of o.properties) merged.properties.set(k, v);
      for (const [k, v] of o.required) merged.required.set(k, v);
      if (o.additional !== undefined) {
        merged.additional = o.additional;
        merged.additionalAt = o.additionalAt;
      }
    };
    (schema.allOf as Json[]).forEach((p, i) => add(p, [...at, "allOf", String(i)], depth + 1));
    return merged;
  }

  // ---- schema.ts side ----

  private summarizeTs(raw: TypeNode, out: Summary, depth: number): void {
    const ts = this.ts;
    const node = this.spec.unwrap(raw);
    if (depth > 16) return;
    if (ts.isUnionTypeNode(node)) {
      for (const member of node.types) this.summarizeTs(member, out, depth + 1);
      return;
    }
    const local = this.spec.localRef(node);
    if (local !== undefined) {
      out.refs.add(local.name.text);
      return;
    }
    const primitive = (kind: Primitive, literal?: string) => {
      admit(out.admits, kind, literal);
      if (!out.nodes.has(kind)) out.nodes.set(kind, node);
    };
    switch (node.kind) {
      case ts.SyntaxKind.StringKeyword:
        return primitive("string");
      case ts.SyntaxKind.NumberKeyword:
        return primitive("number");
      case ts.SyntaxKind.BooleanKeyword:
        return primitive("boolean");
      case ts.SyntaxKind.UnknownKeyword:
      case ts.SyntaxKind.AnyKeyword:
        out.any = true;
        return;
      case ts.SyntaxKind.UndefinedKeyword:
      case ts.SyntaxKind.NeverKeyword:
        return;
    }
    if (ts.isLiteralTypeNode(node)) {
      const lit = node.literal;
      if (lit.kind === ts.SyntaxKind.NullKeyword) return primitive("null");
      if (lit.kind === ts.SyntaxKind.TrueKeyword) return primitive("boolean", "true");
      if (lit.kind === ts.SyntaxKind.FalseKeyword) return primitive("boolean", "false");
      if (ts.isStringLiteral(lit)) return primitive("string", JSON.stringify(lit.text));
      if (ts.isNumericLiteral(lit)) return primitive("number", JSON.stringify(Number(lit.text)));
      if (ts.isPrefixUnaryExpression(lit) && ts.isNumericLiteral(lit.operand)) {
        return primitive("number", JSON.stringify(lit.operator === ts.SyntaxKind.MinusToken ? -Number(lit.operand.text) : Number(lit.operand.text)));
      }
      out.any = true;
      return;
    }
    if (ts.isArrayTypeNode(node)) {
      out.arrays.push({ items: node.elementType, at: [] });
      return;
    }
    if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName) && (node.typeName.text === "Array" || node.typeName.text === "ReadonlyArray") && node.typeArguments?.length === 1) {
      out.arrays.push({ items: node.typeArguments[0], at: [] });
      return;
    }
    if (this.spec.kindOf(node) !== undefined) {
      out.objects.push(node);
      return;
    }
    out.any = true; // a type this comparison does not read says nothing
  }

  // ---- both ----

  /** Follow one-sided references until both sides name the same ones (or none). */
  private settle(s: Summary, t: Summary, depth: number): void {
    for (let round = 0; round < 8; round++) {
      const sOnly = [...s.refs].filter((name) => !t.refs.has(name));
      const tOnly = [...t.refs].filter((name) => !s.refs.has(name));
      if (sOnly.length === 0 && tOnly.length === 0) return;
      for (const name of sOnly) {
        s.refs.delete(name);
        this.summarizeSchema(this.defs[name], [this.container, name], s, depth + 1);
      }
      for (const name of tOnly) {
        t.refs.delete(name);
        const decl = this.spec.declarations.get(name)!;
        if (this.ts.isTypeAliasDeclaration(decl)) this.summarizeTs(decl.type, t, depth + 1);
        else t.objects.push(decl as unknown as TypeNode);
      }
    }
  }

  private compare(schema: Json, at: string[], ts: TypeNode | SpecDeclaration, depth: number): void {
    if (depth > 24) return;
    const tsNode = ts as TypeNode;
    const key = `${jsonPointer(...at)} ${tsNode.pos}:${tsNode.end}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const s = emptySummary();
    const t = emptySummary();
    this.summarizeSchema(schema, at, s, depth);
    if (this.ts.isInterfaceDeclaration(ts)) t.objects.push(ts as unknown as TypeNode);
    else if (this.ts.isTypeAliasDeclaration(ts)) this.summarizeTs(ts.type, t, depth);
    else this.summarizeTs(tsNode, t, depth);
    this.settle(s, t, depth);
    if (s.any || t.any) return;
    const where = s.primitivesAt ?? at;
    const anyTsNode = (): tsTypes.Node => t.nodes.values().next().value ?? (t.objects[0] as TypeNode | undefined) ?? tsNode;
    const tsLine = (kind: Primitive) => t.nodes.get(kind) ?? anyTsNode();

    // The kinds of value each side admits (null aside): one finding where they differ.
    const sKinds = valueKinds(s);
    const tKinds = valueKinds(t);
    const differing = [...sKinds.keys(), ...tKinds.keys()].filter((k) => sKinds.has(k) !== tKinds.has(k));
    if (differing.length > 0) {
      const primitiveOnly = differing.every((k) => k !== "object" && k !== "array");
      const show = (kinds: Map<string, string>) => [...kinds.values()].sort().join(" | ") || "no other kind";
      this.report("type", primitiveOnly ? where : at, show(sKinds), show(tKinds), anyTsNode());
    }
    // Numbers: schema.json's integer against schema.ts's number; literal sets per kind both admit.
    const sNumber = s.admits.get("number");
    const sInteger = s.admits.get("integer");
    const tNumber = t.admits.get("number");
    if (tNumber === "all" && sInteger === "all" && sNumber !== "all") this.report("integer", where, "integer", "number", tsLine("number"));
    else this.literals("number", joinLiterals(sNumber, sInteger), tNumber, where, tsLine("number"));
    this.literals("string", s.admits.get("string"), t.admits.get("string"), where, tsLine("string"));
    this.literals("boolean", s.admits.get("boolean"), t.admits.get("boolean"), where, tsLine("boolean"));
    if (s.admits.has("null") !== t.admits.has("null")) {
      this.report("null", where, s.admits.has("null") ? "null" : "no null", t.admits.has("null") ? "null" : "no null", tsLine("null"));
    }
    if (s.objects.length === 1 && t.objects.length === 1) this.compareObjects(s.objects[0] as SchemaObject, t.objects[0] as TypeNode, depth);
    if (s.arrays.length === 1 && t.arrays.length === 1) this.compare(s.arrays[0].items, s.arrays[0].at, t.arrays[0].items as TypeNode, depth + 1);
  }

  /** Literal sets of a kind both sides admit: the same literals, or the whole kind on both. */
  private literals(kind: Primitive, s: "all" | Set<string> | undefined, t: "all" | Set<string> | undefined, at: string[], node: tsTypes.Node): void {
    if (s === undefined || t === undefined) return; // a kind one side lacks is a `type` finding
    if (s === "all" && t === "all") return;
    if (s !== "all" && t !== "all" && s.size === t.size && [...s].every((v) => t.has(v))) return;
    const show = (v: "all" | Set<string>) => (v === "all" ? kind : [...v].sort().join(" | "));
    this.report("literal", at, show(s), show(t), node);
  }

  private compareObjects(s: SchemaObject, tNode: TypeNode, depth: number): void {
    const ts = this.ts;
    const inside = this.spec.insideOf(tNode as TypeNode);
    const decl = ts.isInterfaceDeclaration(tNode as unknown as tsTypes.Node) || ts.isTypeAliasDeclaration(tNode as unknown as tsTypes.Node);
    const kind = decl ? this.spec.declarationKind(tNode as unknown as SpecDeclaration) : this.spec.kindOf(tNode);
    const open = kind === "open" || kind === "open-any" || kind === "object";
    if (kind === "object") return; // `object`: any object, nothing more said
    for (const [name, prop] of s.properties) {
      const member = inside.members.get(name);
      if (member === undefined) {
        if (!open) this.report("property", prop.at, "declared", "not declared", tNode);
        continue;
      }
      const requiredAt = s.required.get(name);
      if ((requiredAt !== undefined) === member.optional) {
        this.report("required", requiredAt ?? prop.at, requiredAt !== undefined ? "required" : "optional", member.optional ? "optional" : "required", member.node);
      }
      this.compare(prop.schema, prop.at, member.type, depth + 1);
    }
    for (const [name, member] of inside.members) {
      if (!s.properties.has(name)) this.report("property", [...s.at, "properties", name], "not declared", "declared", member.node);
    }
    if (s.additional === false && open) this.report("open", s.additionalAt, "closed (additionalProperties: false)", "open (index signature)", tNode);
    else if (s.additional !== undefined && s.additional !== false && !open) this.report("open", s.additionalAt, "open (additionalProperties)", "closed (no index signature)", tNode);
    else if (s.additional !== undefined && s.additional !== false && inside.values !== undefined) this.compare(s.additional, s.additionalAt, inside.values, depth + 1);
  }
}

/** The kinds of value a side admits besides null, each with how it is named (`integer` for integers only). */
function valueKinds(x: Summary): Map<string, string> {
  const kinds = new Map<string, string>();
  if (x.admits.has("string")) kinds.set("string", "string");
  if (x.admits.has("number")) kinds.set("number", "number");
  else if (x.admits.has("integer")) kinds.set("number", "integer");
  if (x.admits.has("boolean")) kinds.set("boolean", "boolean");
  if (x.objects.length > 0) kinds.set("object", "object");
  if (x.arrays.length > 0) kinds.set("array", "array");
  return kinds;
}

function joinLiterals(a: "all" | Set<string> | undefined, b: "all" | Set<string> | undefined): "all" | Set<string> | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  if (a === "all" || b === "all") return "all";
  return new Set([...a, ...b]);
}

/** Keywords that do not constrain a value. */
const ANNOTATIONS = new Set(["description", "title", "$comment", "default", "examples", "deprecated", "readOnly", "writeOnly", "format", "$schema", "$id"]);

// ---- a version's errata: found in the bytes as published, fixed by a reviewed patch, or reviewed ----

/**
 * `fixed`: found in schema.json as published, gone once the reviewed patches of its bytes are applied;
 * `reviewed`: judged not a defect (schemas/errata-reviewed.json says why); `open`: neither.
 */
export type ErratumStatus = "fixed" | "reviewed" | "open";

export interface VersionErratum extends Erratum {
  status: ErratumStatus;
  /** `fixed`: the patch that fixes it; `reviewed`: why it is not a defect; `open`: null. */
  by: string | null;
}

/** A finding's identity across versions: its kind and pointer, whichever container holds the definitions. */
export function erratumKey(e: Pick<Erratum, "kind" | "pointer">): string {
  return `${e.kind} ${e.pointer.replace(/^\/(\$defs|definitions)\//, "/")}`;
}

/**
 * The status of each finding: those of the bytes as published (`published`) that the patched
 * document no longer has are fixed, by the patch touching their pointer (else every applied patch);
 * the others, and any the patches bring, are reviewed when an entry covers them, else open.
 */
export function erratumStatus(published: readonly Erratum[], patched: readonly Erratum[], patches: readonly NamedPatch[], reviewed: readonly ReviewedErratum[]): VersionErratum[] {
  const remaining = new Set(patched.map(erratumKey));
  const why = new Map<string, string>();
  for (const r of reviewed) for (const p of r.pointers) why.set(erratumKey({ kind: r.kind, pointer: p }), r.why);
  const fixedBy = (e: Erratum) => {
    const touching = patches.filter((p) => p.ops.some((op) => op.path === e.pointer || op.path.startsWith(e.pointer + "/") || e.pointer.startsWith(op.path + "/")));
    return (touching.length > 0 ? touching : patches).map((p) => p.name).join(", ");
  };
  const status = (e: Erratum): VersionErratum => {
    const reason = why.get(erratumKey(e));
    return reason !== undefined ? { ...e, status: "reviewed", by: reason } : { ...e, status: "open", by: null };
  };
  const publishedKeys = new Set(published.map(erratumKey));
  return [
    ...published.map((e): VersionErratum => (remaining.has(erratumKey(e)) ? status(e) : { ...e, status: "fixed", by: fixedBy(e) })),
    ...patched.filter((e) => !publishedKeys.has(erratumKey(e))).map(status),
  ].sort((a, b) => (a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
}

export interface ErrataInput {
  /** The version's schema.json as published, parsed. */
  published: JsonObject;
  /** The same document with the reviewed patches applied, or null when none apply. */
  patched: JsonObject | null;
  /** The patches applied to `patched`. */
  patches: readonly NamedPatch[];
  /** The spec's schema.ts of the same version, parsed. */
  schemaTs: SpecSource;
}

/** The findings of schema.json as published and as patched, against schema.ts. */
export function compareVersion(input: ErrataInput): { published: Erratum[]; patched: Erratum[] } {
  const published = findErrata(input.published, input.schemaTs);
  return { published, patched: input.patched === null || input.patches.length === 0 ? published : findErrata(input.patched, input.schemaTs) };
}
