// types.ts: one export per definition of the schema IR, printed here (no type compiler).
//
// - An object definition is an `interface`; anything else a `type` alias. Names are the namer's
//   (./naming.ts); a definition whose type name is not the spec's, or that the
//   model derived, says so in its doc comment.
// - `any` is `unknown`, `never` is `never`, `integer` is `number`, `const`/`enum` are literal types,
//   `anyOf`/`oneOf` unions, `allOf` and sibling keywords intersections. `not` cannot be written in
//   TypeScript and is `unknown`; so is a node whose intersection says nothing a type can.
// - A node without `type` whose keywords constrain one type (`properties` alone) is printed as that
//   type, and its doc comment says the other JSON types are valid too (the validators accept them).
// - Index signatures (open objects), `object`, and `extends` follow the spec's own TypeScript where
//   the version has a schema.ts (`VersionModel.specTypes`, see generator/model/spec-typescript.ts),
//   since schema.json cannot carry them; see `objectKind` for the rule with and without it.
import type { IrDefinition, IrNode, IrProperty, ObjectNode, SchemaIR } from "../../model/ir.js";
import { objectKindAt, type ObjectKind, type SpecTypeFacts, type TypeStep } from "../../model/spec-typescript.js";
import type { VersionModel } from "../../model/types.js";
import { definitionNaming, type DefinitionNaming } from "./naming.js";

/** Operator precedence of a printed type: what needs parentheses where. */
const enum Prec {
  Union = 0,
  Intersection = 1,
  Primary = 2,
}

interface Printed {
  text: string;
  prec: Prec;
}

interface Context {
  /** The definition being printed (its original name: the key of the spec's facts). */
  definition: string;
  /** Where the node is inside that definition. */
  steps: readonly TypeStep[];
  /** The node is a `_meta` object (the value of a `_meta` property, or a definition used as one). */
  meta: boolean;
  /** Indentation depth of the line the node starts on. */
  depth: number;
}

const INDENT = "  ";
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

const primary = (text: string): Printed => ({ text, prec: Prec.Primary });
const wrap = (p: Printed, min: Prec): string => (p.prec < min ? `(${p.text})` : p.text);

/** A property name as TypeScript source: bare when it is an identifier, else a string literal. */
export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** A JSDoc block (at `depth`) from lines of text, or nothing when there are none. */
function docComment(lines: readonly string[], depth: number): string[] {
  if (lines.length === 0) return [];
  const pad = INDENT.repeat(depth);
  const body = lines.flatMap((l) => l.split("\n")).map((l) => l.replace(/\*\//g, "*\\/").trimEnd());
  while (body.length > 0 && body[body.length - 1] === "") body.pop();
  if (body.length === 0) return [];
  return [`${pad}/**`, ...body.map((l) => (l === "" ? `${pad} *` : `${pad} * ${l}`)), `${pad} */`];
}

/** A node of one JSON type that lets every other type through (a schema with keywords but no `type`). */
function isImplied(node: IrNode): boolean {
  switch (node.kind) {
    case "string":
    case "number":
    case "array":
    case "object":
      return node.impliedType;
    case "intersection":
      return node.parts.every(isImplied);
    default:
      return false;
  }
}

/**
 * The doc lines of a node: its description, `@deprecated` when it is, and a note where the type
 * shows only the JSON types a schema without `type` constrains.
 */
function annotationLines(node: IrNode): string[] {
  const lines: string[] = [];
  const { description, deprecated } = node.annotations;
  if (description !== undefined && description.trim() !== "") lines.push(description);
  if (isImplied(node)) lines.push("The schema has no `type`: values of the JSON types it does not constrain are valid too.");
  if (deprecated === true && !(description ?? "").includes("@deprecated")) lines.push("@deprecated");
  return lines;
}

/**
 * Prints the declarations of one version's IR. `facts` are the spec's schema.ts facts, or null when
 * the version came as JSON only.
 */
export class TypePrinter {
  /** Definitions used as the value of a `_meta` property somewhere: `_meta` objects themselves. */
  private readonly metaDefinitions = new Set<string>();

  constructor(
    private readonly ir: SchemaIR,
    private readonly facts: SpecTypeFacts | null,
    private readonly names: DefinitionNaming = definitionNaming(ir),
  ) {
    const visit = (node: IrNode, meta: boolean, seen: Set<IrNode>) => {
      if (seen.has(node)) return;
      seen.add(node);
      switch (node.kind) {
        case "ref":
          if (meta) this.metaDefinitions.add(node.name);
          break;
        case "object":
          for (const p of node.properties) visit(p.node, p.name === "_meta", seen);
          if (node.additional !== null) visit(node.additional, false, seen);
          break;
        case "array":
          visit(node.items, false, seen);
          break;
        case "union":
          for (const b of node.branches) visit(b, meta, seen);
          break;
        case "intersection":
          for (const p of node.parts) visit(p, meta, seen);
          break;
        default:
          break;
      }
    };
    const seen = new Set<IrNode>();
    for (const def of ir.definitions.values()) visit(def.node, false, seen);
    // A definition a `_meta` definition is made of is one too (`allOf`, aliases).
    for (let grew = true; grew; ) {
      grew = false;
      for (const name of [...this.metaDefinitions]) {
        const before = this.metaDefinitions.size;
        visit(this.ir.definitions.get(name)!.node, true, new Set());
        if (this.metaDefinitions.size > before) grew = true;
      }
    }
  }

  /** Every declaration, in the IR's order of definitions (sorted by original name). */
  declarations(): string[] {
    return [...this.ir.definitions.values()].map((d) => this.declaration(d));
  }

  /**
   * The object kind of an object node. `additionalProperties` decides when present (`false`: closed;
   * a schema: an index signature of it; `true`/`{}`: an index signature of `unknown`, or of `any` or
   * `object` where the spec's TypeScript says so). Absent: a `_meta` object is open; otherwise the
   * spec's TypeScript decides where it has this location; without it (no schema.ts, or a location it
   * does not have), an object that declares no properties is open and one that declares some is closed.
   */
  objectKind(node: ObjectNode, ctx: Context): ObjectKind {
    const fact = this.facts === null ? undefined : objectKindAt(this.facts, ctx.definition, ctx.steps);
    if (node.additional !== null) {
      if (node.additional.kind === "never") return "closed";
      if (node.additional.kind === "any" && fact === "object" && node.properties.length === 0) return "object";
      return node.additional.kind === "any" && fact === "open-any" ? fact : "open";
    }
    if (ctx.meta) return fact === "open-any" ? fact : "open";
    if (fact !== undefined) return fact === "object" && node.properties.length > 0 ? "closed" : fact;
    return node.properties.length === 0 ? "open" : "closed";
  }

  private declaration(def: IrDefinition): string {
    const ctx: Context = { definition: def.name, steps: [], meta: this.metaDefinitions.has(def.name), depth: 0 };
    const doc = annotationLines(def.node);
    const note = this.names.note(def);
    if (note !== null) doc.push(note);
    const head = docComment(doc, 0);
    const name = this.names.of(def).type;
    const node = def.node;
    if (node.kind === "object" && this.objectKind(node, ctx) !== "object") {
      const all = this.rootMembers(def);
      const bases = this.bases(def, all);
      const inherited = new Set(bases.flatMap((b) => b.lines));
      const members = all.filter((m) => !inherited.has(m.key));
      const clause = bases.length === 0 ? "" : ` extends ${bases.map((b) => b.name).join(", ")}`;
      // An object that admits no key at all (`additionalProperties: false` or `{ not: {} }`, no properties) says so, as its inline form does.
      const body = all.length === 0 && node.additional?.kind === "never" ? [`${INDENT}[key: string]: never;`] : members.flatMap((m) => m.lines);
      return [...head, `export interface ${name}${clause} {`, ...body, "}"].join("\n");
    }
    return [...head, `export type ${name} = ${this.print(node, ctx).text};`].join("\n");
  }

  /**
   * The interfaces an object definition extends: those the spec's TypeScript names, when each is an
   * object definition whose every member (and index signature) the definition has, printed the same.
   * Members printed exactly as in a base are then left to the base.
   */
  private bases(def: IrDefinition, ownMembers: readonly Member[]): Array<{ name: string; lines: string[] }> {
    const names = this.facts?.definitions[def.name]?.extends ?? [];
    if (names.length === 0 || def.node.kind !== "object") return [];
    const own = new Map(ownMembers.map((m) => [m.name, m]));
    const kept: Array<{ name: string; members: Map<string, string> }> = [];
    for (const baseName of names) {
      const base = this.ir.definitions.get(baseName);
      if (base === undefined || base === def || base.node.kind !== "object") continue;
      const baseCtx: Context = { definition: base.name, steps: [], meta: this.metaDefinitions.has(base.name), depth: 0 };
      if (this.objectKind(base.node, baseCtx) === "object") continue;
      const members = this.rootMembers(base);
      // Every member of the base must be one of ours, and its index signature exactly ours.
      if (!members.every((m) => own.has(m.name) && (m.name !== INDEX || own.get(m.name)!.key === m.key))) continue;
      // A member we print differently from the base's stays ours (it narrows the base's), unless the
      // base requires what we make optional: TypeScript would refuse that interface.
      if (members.some((m) => m.required && !own.get(m.name)!.required)) continue;
      const byName = new Map(members.map((m) => [m.name, m.key]));
      // Two bases that print a shared member differently would conflict: keep the first.
      if (kept.some((k) => [...byName].some(([n, key]) => k.members.has(n) && k.members.get(n) !== key))) continue;
      kept.push({ name: this.names.of(base).type, members: byName });
    }
    return kept.map((k) => ({ name: k.name, lines: [...k.members.values()] }));
  }

  private readonly rootMemberCache = new Map<string, Member[]>();
  /** The members of an object definition as printed at the top level (each definition printed once). */
  private rootMembers(def: IrDefinition): Member[] {
    let members = this.rootMemberCache.get(def.name);
    if (members === undefined) {
      if (def.node.kind !== "object") throw new Error(`rootMembers: ${def.name} is not an object`);
      members = this.members(def.node, { definition: def.name, steps: [], meta: this.metaDefinitions.has(def.name), depth: 0 });
      this.rootMemberCache.set(def.name, members);
    }
    return members;
  }

  /**
   * The members of an object node as printed: each with its name (`INDEX` for the index signature),
   * its lines (doc comment and member), and a key that is equal for equal members.
   */
  private members(node: ObjectNode, ctx: Context): Member[] {
    const out: Member[] = [];
    const depth = ctx.depth + 1;
    for (const p of node.properties) {
      const lines = this.property(p, ctx, depth);
      out.push({ name: p.name, key: lines.join("\n"), lines, required: p.required });
    }
    const index = this.indexSignature(node, ctx);
    if (index !== null) {
      const line = `${INDENT.repeat(depth)}[key: string]: ${index};`;
      out.push({ name: INDEX, key: line, lines: [line], required: false });
    }
    return out;
  }

  private property(p: IrProperty, ctx: Context, depth: number): string[] {
    const inner: Context = { definition: ctx.definition, steps: [...ctx.steps, { property: p.name }], meta: p.name === "_meta", depth };
    const type = this.print(p.node, inner).text;
    return [...docComment(annotationLines(p.node), depth), `${INDENT.repeat(depth)}${propertyKey(p.name)}${p.required ? "" : "?"}: ${type};`];
  }

  /** The value type of an object's index signature, or null when it has none. */
  private indexSignature(node: ObjectNode, ctx: Context): string | null {
    const kind = this.objectKind(node, ctx);
    if (kind !== "open" && kind !== "open-any") return null;
    const extra = node.additional;
    if (extra === null || extra.kind === "any") return kind === "open-any" ? "any" : "unknown";
    // A key a pattern matches holds that pattern's values, not additional ones.
    if (node.patternProperties !== undefined) return "unknown";
    const value = this.print(extra, { definition: ctx.definition, steps: [...ctx.steps, "values"], meta: false, depth: ctx.depth + 1 });
    if (node.properties.length === 0) return value.text;
    // Declared properties must fit the index signature: it also admits their types.
    const all = [value.text, ...node.properties.map((p) => this.print(p.node, { definition: ctx.definition, steps: [...ctx.steps, { property: p.name }], meta: p.name === "_meta", depth: ctx.depth + 1 }).text)];
    return [...new Set(all)].join(" | ") + (node.properties.some((p) => !p.required) ? " | undefined" : "");
  }

  /** A node as a TypeScript type expression. */
  print(node: IrNode, ctx: Context): Printed {
    switch (node.kind) {
      case "any":
      case "not":
        return primary("unknown");
      case "never":
        return primary("never");
      case "null":
        return primary("null");
      case "boolean":
        return primary("boolean");
      case "string":
        return primary("string");
      case "number":
        return primary("number");
      case "ref":
        return primary(this.names.of(node.target).type);
      case "literal": {
        const texts = node.values.map((v) => JSON.stringify(v));
        return { text: texts.join(" | "), prec: texts.length > 1 ? Prec.Union : Prec.Primary };
      }
      case "array": {
        // A tuple's items differ by position (and the array may be shorter): any item.
        if (node.prefixItems !== undefined) return primary("unknown[]");
        const items = this.print(node.items, { ...ctx, steps: [...ctx.steps, "items"], meta: false });
        return primary(`${wrap(items, Prec.Primary)}[]`);
      }
      case "object":
        return primary(this.objectLiteral(node, ctx));
      case "union": {
        const branches = unique(node.branches.map((b) => this.print(b, ctx)));
        if (branches.some((b) => b.text === "unknown")) return primary("unknown");
        if (branches.length === 1) return branches[0];
        return { text: branches.map((b) => wrap(b, Prec.Intersection)).join(" | "), prec: Prec.Union };
      }
      case "intersection": {
        // Keywords of several types without `type` (`properties` beside `items`): one type or the other.
        if (isImplied(node) && new Set(node.parts.map((p) => p.kind)).size === node.parts.length) {
          return this.print({ kind: "union", at: node.at, annotations: {}, exclusive: false, branches: node.parts, source: "type" }, ctx);
        }
        const parts = unique(node.parts.map((p) => this.print(p, ctx))).filter((p) => p.text !== "unknown");
        if (parts.some((p) => p.text === "never")) return primary("never");
        if (parts.length === 0) return primary("unknown");
        if (parts.length === 1) return parts[0];
        return { text: parts.map((p) => wrap(p, Prec.Intersection)).join(" & "), prec: Prec.Intersection };
      }
    }
  }

  private objectLiteral(node: ObjectNode, ctx: Context): string {
    const kind = this.objectKind(node, ctx);
    if (kind === "object") return "object";
    const members = this.members(node, ctx);
    if (members.length === 0) return node.additional?.kind === "never" ? "{ [key: string]: never }" : "{}";
    return ["{", ...members.flatMap((m) => m.lines), `${INDENT.repeat(ctx.depth)}}`].join("\n");
  }
}

/** A member of an object type as printed: `key` is equal for members printed the same. */
interface Member {
  /** The property name, or `INDEX` for the index signature. */
  name: string;
  key: string;
  /** Its doc comment and member line(s). */
  lines: string[];
  required: boolean;
}

/** The name under which `members` lists an index signature (no property name can be it: not a string a schema holds). */
const INDEX = "\u0000index";

function unique(printed: Printed[]): Printed[] {
  const seen = new Set<string>();
  return printed.filter((p) => (seen.has(p.text) ? false : (seen.add(p.text), true)));
}

/** The declarations of types.ts, in the order of the IR's definitions, without header. */
export function emitTypeDeclarations(version: VersionModel): string {
  return new TypePrinter(version.ir, version.specTypes ?? null).declarations().join("\n\n");
}
