// Facts read from a version's schema.ts, the spec's own TypeScript source of its schema.json, for the
// two decisions schema.json cannot carry (issue 13):
// - whether an object type is open (has a string index signature, declared or inherited), closed
//   (members only), or TypeScript's `object` keyword — schema.json writes an interface that extends
//   an open one (`CallToolResult extends Result`) without `additionalProperties`, and `object` much
//   like `{ [key: string]: unknown }`;
// - which interfaces an interface `extends` (schema.json flattens inherited properties).
// Nothing else is taken from schema.ts: every type is still printed from the schema IR.
//
// The file is parsed (syntax only: no type checker, no lib files) with the TypeScript that ts-morph,
// a dependency of the generator, bundles. Facts are plain JSON; the pipeline's run caches them by the
// file's sha256 (generator/run.ts). This module reads no file.
import { createRequire } from "node:module";
import type { ts as tsTypes } from "ts-morph";
import { pointerToken } from "../errors.js";
import { sha256 } from "../files.js";

/**
 * `open`: a string index signature; `open-any`: one whose value type is `any` (which, unlike
 * `unknown`, every object type is assignable to, interfaces included); `closed`: members only;
 * `object`: the `object` keyword.
 */
export type ObjectKind = "open" | "open-any" | "closed" | "object";

/**
 * One step into a type: a property by name, the element type of an array (`items`), or the value
 * type of an index signature or `Record` (`values`).
 */
export type TypeStep = { property: string } | "items" | "values";

export interface DefinitionTypeFacts {
  /**
   * The object kind at each location inside the definition, keyed by `locationKey(steps)` (`""` for
   * the definition itself). A location holding a reference to another declaration has that
   * declaration's kind and is not walked further (its own facts describe its inside).
   */
  objects: Record<string, ObjectKind>;
  /** For an interface: the declarations of the file it extends by plain name, in source order. */
  extends: string[];
}

export interface SpecTypeFacts {
  /** The schema.ts path, as given. */
  file: string;
  /** sha256 (hex) of its bytes. */
  sha256: string;
  /** By declaration name: every top-level interface and type alias of the file. */
  definitions: Record<string, DefinitionTypeFacts>;
  /**
   * The file's exported constants whose initializer is a number or string literal (a negative number
   * included), by name, in source order: `PARSE_ERROR` → -32700, `LATEST_PROTOCOL_VERSION` → "2025-11-25".
   */
  constants: Record<string, number | string>;
}

/** The key of a location: its steps, one per line-free token (`/params/_meta`, `/content/[]`). */
function locationKey(steps: readonly TypeStep[]): string {
  return steps.map((s) => (s === "items" ? "/[]" : s === "values" ? "/{}" : "/." + pointerToken(s.property))).join("");
}

/** The object kind at `steps` inside `definition`, following references to other declarations. */
export function objectKindAt(facts: SpecTypeFacts, definition: string, steps: readonly TypeStep[]): ObjectKind | undefined {
  return facts.definitions[definition]?.objects[locationKey(steps)];
}

type Ts = typeof tsTypes;
/** ts-morph's TypeScript, loaded on first use (a warm cache never needs it; Node keeps the loaded module). */
function typescript(): Ts {
  return (createRequire(import.meta.url)("ts-morph") as { ts: Ts }).ts;
}

type TypeNode = tsTypes.TypeNode;
/** A top-level interface or type alias of a schema.ts. */
export type SpecDeclaration = tsTypes.InterfaceDeclaration | tsTypes.TypeAliasDeclaration;

/** A member of an object type: its type node, whether it is optional (`?`), and the member itself (for its line). */
export interface SpecMember {
  type: TypeNode;
  optional: boolean;
  node: tsTypes.TypeElement;
}

/** What a location of a schema.ts type holds: its members by name, the array element, or the index-signature value type. */
export interface SpecInside {
  members: Map<string, SpecMember>;
  items?: TypeNode;
  values?: TypeNode;
}

/**
 * A schema.ts parsed (syntax only) with the readings of its types that the facts and the errata
 * comparison (errata.ts) share: which declaration a reference names, what an object type holds
 * (inherited members, `Omit`/`Pick`/`Partial`/`Required` applied), and an object type's kind.
 */
export interface SpecSource {
  ts: Ts;
  source: tsTypes.SourceFile;
  /** Every top-level interface and type alias, by name (the first declaration of a name wins). */
  declarations: ReadonlyMap<string, SpecDeclaration>;
  unwrap(node: TypeNode): TypeNode;
  /** The local declaration a type reference names, when it names one without type arguments. */
  localRef(node: TypeNode): SpecDeclaration | undefined;
  /** The object kind of a type, or undefined when it is not (only) an object type. */
  kindOf(node: TypeNode): ObjectKind | undefined;
  /** The object kind of a declaration (an interface's own or inherited index signature), or undefined. */
  declarationKind(decl: SpecDeclaration): ObjectKind | undefined;
  /** The types an interface extends (as type references), in source order. */
  heritage(decl: tsTypes.InterfaceDeclaration): TypeNode[];
  /** The members, element or index value a type or declaration holds. */
  insideOf(node: TypeNode | SpecDeclaration): SpecInside;
  /** The 1-based line a node starts on. */
  line(node: tsTypes.Node): number;
}

/**
 * Parse schema.ts source text (syntax only: no type checker, no lib files, comments not parsed as
 * JSDoc). The facts and the errata of one version read the one parse the pipeline makes of the bytes
 * it loaded (see pipeline.ts).
 */
export function parseSpecSource(file: string, text: string): SpecSource {
  const ts = typescript();
  const source = ts.createSourceFile(file, text, { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone }, false, ts.ScriptKind.TS);
  const declarations = new Map<string, tsTypes.InterfaceDeclaration | tsTypes.TypeAliasDeclaration>();
  for (const statement of source.statements) {
    if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) {
      // Declaration merging of interfaces is not used by the spec; the first declaration wins.
      if (!declarations.has(statement.name.text)) declarations.set(statement.name.text, statement);
    }
  }
  type Decl = SpecDeclaration;

  /** The local declaration a type reference names, when it names one without type arguments. */
  const localRef = (node: TypeNode): Decl | undefined => {
    if (!ts.isTypeReferenceNode(node) || node.typeArguments !== undefined || !ts.isIdentifier(node.typeName)) return undefined;
    return declarations.get(node.typeName.text);
  };
  /** `Omit<X, …>`, `Pick<X, …>`, `Partial<X>`, `Required<X>`, `Readonly<X>`: X, whose kind they keep. */
  const KIND_PRESERVING = new Set(["Omit", "Pick", "Partial", "Required", "Readonly"]);
  const unwrap = (node: TypeNode): TypeNode => {
    while (ts.isParenthesizedTypeNode(node)) node = node.type;
    return node;
  };
  const heritage = (decl: tsTypes.InterfaceDeclaration): TypeNode[] => {
    const out: TypeNode[] = [];
    for (const clause of decl.heritageClauses ?? []) {
      for (const t of clause.types) {
        if (!ts.isIdentifier(t.expression)) continue;
        out.push(ts.factory.createTypeReferenceNode(t.expression.text, t.typeArguments));
      }
    }
    return out;
  };
  const typeReferenceName = (node: TypeNode): string | undefined =>
    ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName) ? node.typeName.text : undefined;

  const indexKind = (index: tsTypes.IndexSignatureDeclaration): ObjectKind =>
    index.type.kind === ts.SyntaxKind.AnyKeyword ? "open-any" : "open";
  const kindMemo = new Map<Decl, ObjectKind | undefined>();
  const inProgress = new Set<Decl>();
  const declKind = (decl: Decl): ObjectKind | undefined => {
    if (kindMemo.has(decl)) return kindMemo.get(decl);
    if (inProgress.has(decl)) return undefined;
    inProgress.add(decl);
    let kind: ObjectKind | undefined;
    if (ts.isInterfaceDeclaration(decl)) {
      const own = decl.members.find(ts.isIndexSignatureDeclaration);
      const inherited = heritage(decl).map(kindOf).find((k) => k === "open" || k === "open-any");
      kind = own !== undefined ? indexKind(own) : inherited ?? "closed";
    } else {
      kind = kindOf(decl.type);
    }
    inProgress.delete(decl);
    kindMemo.set(decl, kind);
    return kind;
  };
  /** The object kind of a type, or undefined when it is not (only) an object type. */
  const kindOf = (raw: TypeNode): ObjectKind | undefined => {
    const node = unwrap(raw);
    if (node.kind === ts.SyntaxKind.ObjectKeyword) return "object";
    if (ts.isTypeLiteralNode(node)) {
      const index = node.members.find(ts.isIndexSignatureDeclaration);
      return index === undefined ? "closed" : indexKind(index);
    }
    if (ts.isMappedTypeNode(node)) return node.type?.kind === ts.SyntaxKind.AnyKeyword ? "open-any" : "open";
    if (ts.isIntersectionTypeNode(node)) {
      const kinds = node.types.map(kindOf);
      const open = kinds.find((k) => k === "open" || k === "open-any");
      if (open !== undefined) return open;
      return kinds.some((k) => k !== undefined) ? "closed" : undefined;
    }
    const name = typeReferenceName(node);
    if (name === undefined) return undefined;
    const local = localRef(node);
    if (local !== undefined) return declKind(local);
    const args = (node as tsTypes.TypeReferenceNode).typeArguments;
    if (name === "Record" && !declarations.has(name)) return args?.[1]?.kind === ts.SyntaxKind.AnyKeyword ? "open-any" : "open";
    if (KIND_PRESERVING.has(name) && !declarations.has(name) && args !== undefined && args.length > 0) return kindOf(args[0]);
    return undefined;
  };

  type Inside = SpecInside;
  const membersInside = (members: readonly tsTypes.TypeElement[]): Inside => {
    const inside: Inside = { members: new Map() };
    for (const m of members) {
      if (ts.isPropertySignature(m) && m.type !== undefined) {
        const name = propertyName(m.name);
        if (name !== undefined) inside.members.set(name, { type: m.type, optional: m.questionToken !== undefined, node: m });
      } else if (ts.isIndexSignatureDeclaration(m)) {
        inside.values = m.type;
      }
    }
    return inside;
  };
  /** Merge `other` into `into`; `override`: `other` wins where both have a member. */
  const merge = (into: Inside, other: Inside, override: boolean) => {
    for (const [k, v] of other.members) if (override || !into.members.has(k)) into.members.set(k, v);
    if (other.items !== undefined && (override || into.items === undefined)) into.items = other.items;
    if (other.values !== undefined && (override || into.values === undefined)) into.values = other.values;
  };
  const insideOf = (raw: TypeNode | Decl, seen: ReadonlySet<Decl>): Inside => {
    const inside: Inside = { members: new Map() };
    if (ts.isInterfaceDeclaration(raw) || ts.isTypeAliasDeclaration(raw)) {
      if (seen.has(raw)) return inside;
      const next = new Set(seen).add(raw);
      if (ts.isTypeAliasDeclaration(raw)) return insideOf(raw.type, next);
      for (const base of heritage(raw)) merge(inside, insideOf(base, next), false);
      merge(inside, membersInside(raw.members), true);
      return inside;
    }
    const node = unwrap(raw);
    if (ts.isTypeLiteralNode(node)) return membersInside(node.members);
    if (ts.isArrayTypeNode(node)) inside.items = node.elementType;
    // `Base & { specific }`: a later part says more about a member the parts share.
    else if (ts.isIntersectionTypeNode(node)) for (const part of node.types) merge(inside, insideOf(part, seen), true);
    else if (ts.isTypeReferenceNode(node)) {
      const local = localRef(node);
      const name = typeReferenceName(node);
      const args = node.typeArguments;
      if (local !== undefined) return insideOf(local, seen);
      if (name === "Array" && args?.length === 1) inside.items = args[0];
      else if (name === "Record" && args?.length === 2) inside.values = args[1];
      else if (name !== undefined && KIND_PRESERVING.has(name) && args !== undefined && args.length > 0) {
        const base = insideOf(args[0], seen);
        if (name === "Omit" && args[1] !== undefined) for (const key of literalKeys(args[1])) base.members.delete(key);
        if (name === "Pick" && args[1] !== undefined) {
          const kept = new Set(literalKeys(args[1]));
          for (const key of [...base.members.keys()]) if (!kept.has(key)) base.members.delete(key);
        }
        if (name === "Partial" || name === "Required") for (const [key, m] of base.members) base.members.set(key, { ...m, optional: name === "Partial" });
        return base;
      }
    }
    return inside;
  };
  const propertyName = (name: tsTypes.PropertyName): string | undefined =>
    ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name) ? name.text : undefined;
  const literalKeys = (node: TypeNode): string[] => {
    const n = unwrap(node);
    if (ts.isLiteralTypeNode(n) && ts.isStringLiteral(n.literal)) return [n.literal.text];
    if (ts.isUnionTypeNode(n)) return n.types.flatMap(literalKeys);
    return [];
  };

  return {
    ts,
    source,
    declarations,
    unwrap,
    localRef,
    kindOf,
    declarationKind: declKind,
    heritage,
    insideOf: (node) => insideOf(node, new Set()),
    line: (node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
  };
}

/** Plain JSON facts from schema.ts source text. */
export function readSpecTypeFacts(file: string, text: string): SpecTypeFacts {
  return specTypeFacts(parseSpecSource(file, text));
}

/** Plain JSON facts from a parsed schema.ts. */
export function specTypeFacts(spec: SpecSource): SpecTypeFacts {
  const { ts, declarations, unwrap, localRef, kindOf, declarationKind: declKind, insideOf, heritage } = spec;
  const file = spec.source.fileName;
  const definitions: Record<string, DefinitionTypeFacts> = {};
  for (const [name, decl] of declarations) {
    const objects: Record<string, ObjectKind> = {};
    const kind = declKind(decl);
    if (kind !== undefined) objects[""] = kind;
    // Walk the inside of the definition; a reference to another declaration is recorded, not entered.
    const walk = (inside: SpecInside, steps: TypeStep[], depth: number) => {
      if (depth > 32) return;
      const visit = (node: TypeNode, step: TypeStep) => {
        const at = [...steps, step];
        const k = kindOf(node);
        if (k !== undefined) objects[locationKey(at)] = k;
        if (localRef(unwrap(node)) === undefined) walk(insideOf(node), at, depth + 1);
      };
      for (const [prop, member] of inside.members) visit(member.type, { property: prop });
      if (inside.items !== undefined) visit(inside.items, "items");
      if (inside.values !== undefined) visit(inside.values, "values");
    };
    walk(insideOf(decl), [], 0);
    const bases = ts.isInterfaceDeclaration(decl)
      ? heritage(decl)
          .filter((b) => ts.isTypeReferenceNode(b) && b.typeArguments === undefined && localRef(b) !== undefined)
          .map((b) => ((b as tsTypes.TypeReferenceNode).typeName as tsTypes.Identifier).text)
      : [];
    definitions[name] = { objects, extends: bases };
  }
  return { file, sha256: sha256(spec.source.text), definitions, constants: exportedConstants(spec) };
}

/** The exported `const` declarations of a literal number or string value (see SpecTypeFacts.constants). */
function exportedConstants(spec: SpecSource): Record<string, number | string> {
  const { ts, source } = spec;
  const out: Record<string, number | string> = {};
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    if (!(statement.modifiers ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    if ((statement.declarationList.flags & ts.NodeFlags.Const) === 0) continue;
    for (const decl of statement.declarationList.declarations) {
      if (!ts.isIdentifier(decl.name) || decl.initializer === undefined) continue;
      const init = decl.initializer;
      if (ts.isStringLiteral(init)) out[decl.name.text] = init.text;
      else if (ts.isNumericLiteral(init)) out[decl.name.text] = Number(init.text);
      else if (ts.isPrefixUnaryExpression(init) && init.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(init.operand)) out[decl.name.text] = -Number(init.operand.text);
    }
  }
  return out;
}
