// Projections between protocol versions (issue 41): what a value valid at one version becomes at
// another, decided once from the schema IR and printed as data for every target (the runtimes'
// projection interpreters read it; the reports print what it does per pair of versions).
//
// A value is projected onto the TARGET version's shape of the same method's result (or params):
// - an object keeps the members the target declares (each projected in turn) and drops the others,
//   except where the schema leaves the object open on purpose: an object with `additionalProperties`
//   (its extra members kept, projected onto that schema), an object that declares no member at all,
//   and any location (definition + member path) that some generated version leaves open that way
//   (`_meta`, `inputSchema`, `structuredContent`): there extra members are kept whole;
// - a member the target requires and the value lacks is supplied where the spec gives a default (a
//   schema `default`, or the method's default `resultType`), else the value is refused;
// - a union whose branches are told apart by one member's constants (a content block's `type`, a
//   result's `resultType`) takes the branches that member's value names, none: refused (a content block
//   type the target lacks); of the branches left, the one that accepts the value dropping the fewest
//   members; none: refused (where every branch refuses at the same place inside the value, there);
// - a literal, string, number, boolean or null must already be what the target allows, else refused.
// A refusal names the JSON pointer (RFC 6901) of the value at fault and the reason.
//
// "Newer" is the protocol order (model/protocol-order.ts), never the order of labels: one handler set is
// written for the newest version served, params are lifted to it, and the reports print what it sends
// to each older one.
import type { IrNode, LiteralValue, SchemaIR } from "./ir.js";
import type { ProtocolModel, VersionModel } from "./types.js";
import { byCodeUnit } from "../order.js";
import { inProtocolOrder } from "./protocol-order.js";
import { resultTypesOfDefinition } from "./rules.js";

/** One node of a target version's shape (plain JSON: printed as data). */
export type Shape =
  | { k: "any" }
  | { k: "never" }
  | { k: "lit"; values: LiteralValue[] }
  | { k: "str"; minLength?: number; maxLength?: number; pattern?: string }
  | { k: "num"; integer: boolean; minimum?: number; maximum?: number; exclusiveMinimum?: number; exclusiveMaximum?: number }
  | { k: "bool" }
  | { k: "null" }
  | { k: "arr"; items: Shape; minItems?: number; maxItems?: number }
  | { k: "obj"; props: ShapeMember[]; extra: Shape | null }
  | { k: "ref"; name: string; open?: true }
  | { k: "union"; branches: Shape[]; tag?: UnionTag };

/**
 * How a union's branches are told apart before any is tried: by the value of one member, `values[i]`
 * being those branch i takes (null: it leaves the member open). A content block's `type` (every branch
 * requires it, each with its own constants) or a modern result's `resultType` (model/rules.ts). A value
 * whose member matches no branch is refused at the union; one that lacks the member is the method's
 * default (`resultType`), else every branch is tried.
 */
export interface UnionTag {
  member: string;
  values: (LiteralValue[] | null)[];
}

export interface ShapeMember {
  name: string;
  s: Shape;
  required: boolean;
  /** The value supplied when the member is required and absent (a schema `default`). */
  default?: unknown;
}

/** One method's result (or params) at a version: its shape and the root members' defaults (`resultType`). */
export interface MethodProjection {
  shape: Shape;
  defaults: Record<string, unknown>;
}

/** A version's projection data: every definition the results and params reach, by name; methods sorted. */
export interface VersionProjections {
  label: string;
  definitions: Record<string, Shape>;
  results: Record<string, MethodProjection>;
  params: Record<string, Shape>;
  /** The version's server capabilities (`ServerCapabilities`, as the capability model names it), or null. */
  serverCapabilities: Shape | null;
}

export interface Projections {
  /** Versions in protocol order (model/protocol-order.ts: the newest last). */
  versions: VersionProjections[];
}

const ANY: Shape = { k: "any" };
/** The definition of the server's capabilities (the name model/capabilities.ts reads). */
const SERVER_CAPABILITIES = "ServerCapabilities";
const key = (definition: string, path: readonly string[]) => `${definition}/${path.join("/")}`;

/** Locations (`Definition/member/[]/member`) where some version leaves an object open on purpose. */
function openLocations(versions: readonly VersionModel[]): Set<string> {
  const open = new Set<string>();
  for (const v of versions) {
    for (const def of v.ir.definitions.values()) {
      const walk = (n: IrNode, path: string[]): void => {
        if (n.kind === "object") {
          if ((n.additional !== null && n.additional.kind !== "never") || (n.properties.length === 0 && !n.patternProperties)) open.add(key(def.name, path));
          for (const p of n.properties) walk(p.node, [...path, p.name]);
        } else if (n.kind === "array") walk(n.items, [...path, "[]"]);
        else if (n.kind === "union") n.branches.forEach((b) => walk(b, path));
        else if (n.kind === "intersection") n.parts.forEach((b) => walk(b, path));
      };
      walk(def.node, []);
    }
  }
  return open;
}

/** The members of an intersection's object parts, merged (the parts' refs followed); null when a part is not an object. */
function mergedObject(ir: SchemaIR, parts: readonly IrNode[], seen = new Set<string>()): { props: Map<string, { nodes: IrNode[]; required: boolean; def: unknown }>; additional: IrNode[] } | null {
  const props = new Map<string, { nodes: IrNode[]; required: boolean; def: unknown }>();
  const additional: IrNode[] = [];
  for (const part of parts) {
    let n: IrNode = part;
    while (n.kind === "ref") {
      if (seen.has(n.name)) return null;
      seen.add(n.name);
      n = n.target.node;
    }
    if (n.kind === "any") continue;
    if (n.kind === "intersection") {
      const inner = mergedObject(ir, n.parts, seen);
      if (inner === null) return null;
      for (const [name, p] of inner.props) {
        const e = props.get(name) ?? { nodes: [], required: false, def: undefined };
        props.set(name, { nodes: [...e.nodes, ...p.nodes], required: e.required || p.required, def: e.def ?? p.def });
      }
      additional.push(...inner.additional);
      continue;
    }
    if (n.kind !== "object") return null;
    for (const p of n.properties) {
      const e = props.get(p.name) ?? { nodes: [], required: false, def: undefined };
      props.set(p.name, { nodes: [...e.nodes, p.node], required: e.required || p.required, def: e.def ?? p.node.annotations.default });
    }
    if (n.additional !== null && n.additional.kind !== "never") additional.push(n.additional);
  }
  return { props, additional };
}

class ShapeBuilder {
  readonly definitions = new Map<string, Shape>();
  constructor(
    private readonly ir: SchemaIR,
    private readonly open: ReadonlySet<string>,
  ) {}

  /** The shape of a definition, built once (recursive definitions are reached by `ref`). */
  definition(name: string): void {
    if (this.definitions.has(name)) return;
    const def = this.ir.definitions.get(name);
    if (!def) throw new Error(`projection: no definition ${name}`);
    this.definitions.set(name, ANY); // placeholder while building (cycles)
    this.definitions.set(name, this.node(def.node, name, []));
  }

  node(n: IrNode, def: string, path: string[]): Shape {
    const isOpen = this.open.has(key(def, path));
    switch (n.kind) {
      case "any":
        return ANY;
      case "never":
        return { k: "never" };
      case "ref":
        this.definition(n.name);
        return isOpen ? { k: "ref", name: n.name, open: true } : { k: "ref", name: n.name };
      case "literal":
        return { k: "lit", values: [...n.values] };
      case "null":
        return { k: "null" };
      case "boolean":
        return { k: "bool" };
      case "string":
        return n.impliedType ? ANY : omitUndefined({ k: "str", minLength: n.minLength, maxLength: n.maxLength, pattern: n.pattern });
      case "number":
        return n.impliedType ? ANY : omitUndefined({ k: "num", integer: n.integer, minimum: n.minimum, maximum: n.maximum, exclusiveMinimum: n.exclusiveMinimum, exclusiveMaximum: n.exclusiveMaximum });
      case "array":
        if (n.impliedType || n.prefixItems || n.contains || n.uniqueItems) return ANY;
        return omitUndefined({ k: "arr", items: this.node(n.items, def, [...path, "[]"]), minItems: n.minItems, maxItems: n.maxItems });
      case "object": {
        if (n.impliedType || n.patternProperties || n.propertyNames || n.minProperties !== undefined || n.maxProperties !== undefined) return ANY;
        const props = n.properties.map((p) => member(p.name, this.node(p.node, def, [...path, p.name]), p.required, p.node.annotations.default));
        const extra = n.additional !== null ? (n.additional.kind === "never" ? null : this.node(n.additional, def, [...path, "{}"])) : isOpen || n.properties.length === 0 ? ANY : null;
        return { k: "obj", props, extra };
      }
      case "union": {
        return union(n.branches.map((b) => this.node(b, def, path)), discriminator(this.ir, n.branches));
      }
      case "intersection": {
        const merged = mergedObject(this.ir, n.parts);
        if (merged === null) return ANY;
        const props = [...merged.props].map(([name, p]) => member(name, p.nodes.length === 1 ? this.node(p.nodes[0], def, [...path, name]) : ANY, p.required, p.def));
        const extra = merged.additional.length === 1 ? this.node(merged.additional[0], def, [...path, "{}"]) : merged.additional.length > 1 || isOpen ? ANY : null;
        return { k: "obj", props, extra };
      }
      case "not":
        return ANY;
    }
  }
}

/**
 * The member that tells a union's branches apart, where there is one: every branch an object (refs and
 * `allOf` followed) requiring it with constants of its own, no constant shared by two branches; the first
 * such member of the first branch. Null otherwise (the branches are then tried in turn).
 */
function discriminator(ir: SchemaIR, branches: readonly IrNode[]): UnionTag | null {
  if (branches.length < 2) return null;
  const objects = branches.map((b) => mergedObject(ir, [b]));
  if (objects.some((o) => o === null)) return null;
  const constants = (o: NonNullable<(typeof objects)[number]>, name: string): LiteralValue[] | null => {
    const p = o.props.get(name);
    if (p === undefined || !p.required || p.nodes.length !== 1) return null;
    let n = p.nodes[0];
    while (n.kind === "ref") n = n.target.node;
    return n.kind === "literal" ? n.values : null;
  };
  for (const name of objects[0]!.props.keys()) {
    const values = objects.map((o) => constants(o!, name));
    if (values.some((v) => v === null)) continue;
    const all = values.flatMap((v) => v!.map((x) => JSON.stringify(x)));
    if (new Set(all).size === all.length) return { member: name, values };
  }
  return null;
}

/** A union shape, with its tag where its branches have one. */
function union(branches: Shape[], tag: UnionTag | null): Shape {
  return tag === null ? { k: "union", branches } : { k: "union", branches, tag };
}

function member(name: string, s: Shape, required: boolean, def: unknown): ShapeMember {
  return def === undefined ? { name, s, required } : { name, s, required, default: def };
}

function omitUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** The projection data of one version; `open` from every version of the run. */
export function versionProjections(version: VersionModel, open: ReadonlySet<string>): VersionProjections {
  const b = new ShapeBuilder(version.ir, open);
  const results: Record<string, MethodProjection> = {};
  const params: Record<string, Shape> = {};
  for (const r of [...version.requests].sort((x, y) => byCodeUnit(x.method, y.method))) {
    const branches: Shape[] = r.results.map((name) => {
      b.definition(name);
      return { k: "ref", name };
    });
    // A modern result union is told apart by `resultType` (model/rules.ts), a legacy one by what its branches accept.
    const tag: UnionTag | null = r.resultTypes !== null && branches.length > 1 ? { member: "resultType", values: r.results.map((name) => resultTypesOfDefinition(version.ir, name)) } : null;
    const shape: Shape = branches.length === 1 ? branches[0] : union(branches, tag);
    results[r.method] = { shape, defaults: r.resultTypes ? { resultType: r.resultTypes[0] } : {} };
    if (r.params) params[r.method] = r.params.definition ? (b.definition(r.params.definition), { k: "ref", name: r.params.definition }) : b.node(r.params.node, r.definition, ["params"]);
  }
  let serverCapabilities: Shape | null = null;
  if (version.ir.definitions.has(SERVER_CAPABILITIES)) {
    b.definition(SERVER_CAPABILITIES);
    serverCapabilities = { k: "ref", name: SERVER_CAPABILITIES };
  }
  const definitions: Record<string, Shape> = {};
  for (const name of [...b.definitions.keys()].sort(byCodeUnit)) definitions[name] = b.definitions.get(name)!;
  return { label: version.label, definitions, results, params, serverCapabilities };
}

/** The projection data of every version of a run (extension modules aside), in protocol order. */
export function buildProjections(model: Pick<ProtocolModel, "versions">): Projections {
  const versions = inProtocolOrder(model.versions);
  const open = openLocations(versions);
  return { versions: versions.map((v) => versionProjections(v, open)) };
}

/** What projecting a method's result from one version to another does, per definition member (`Tool.execution`). */
export interface ProjectionSummary {
  /** Members the source declares and the target drops (sorted). */
  dropped: string[];
  /** Members the target requires, the source may lack, and the target supplies a default for. */
  defaults: string[];
  /** What the target refuses: a variant it lacks, a literal value it does not allow, a required member without a default the source may lack. */
  refusals: string[];
}

/** The summary of projecting `method`'s result from `from` to `to` (read from both versions' data). */
export function projectionSummary(from: VersionProjections, to: VersionProjections, method: string): ProjectionSummary | null {
  const s = from.results[method];
  const t = to.results[method];
  if (!s || !t) return null;
  const dropped = new Set<string>();
  const defaults = new Set<string>();
  const refusals = new Set<string>();
  const visited = new Set<string>();
  const resolve = (shape: Shape, data: VersionProjections): { shape: Shape; name: string | null } => {
    let name: string | null = null;
    while (shape.k === "ref") {
      name = shape.name;
      shape = data.definitions[shape.name];
    }
    return { shape, name };
  };
  const label = (owner: string, member: string) => `${owner}.${member}`;
  const walk = (sIn: Shape, tIn: Shape, owner: string, rootDefaults: Record<string, unknown> | null): void => {
    const sr = resolve(sIn, from);
    const tr = resolve(tIn, to);
    const here = sr.name ?? owner;
    if (sr.name !== null && tr.name !== null) {
      const pair = `${sr.name}>${tr.name}`;
      if (visited.has(pair)) return;
      visited.add(pair);
    }
    const [a, b] = [sr.shape, tr.shape];
    if (b.k === "any") return;
    if (a.k === "union" || b.k === "union") {
      const sBranches = a.k === "union" ? a.branches : [sIn];
      const tBranches = b.k === "union" ? b.branches : [tIn];
      for (const branch of sBranches) {
        const name = branch.k === "ref" ? branch.name : null;
        const match = tBranches.find((x) => (name !== null ? x.k === "ref" && x.name === name : x.k === resolve(branch, from).shape.k));
        if (match) walk(branch, match, here, rootDefaults);
        else if (name !== null && !tBranches.some((x) => x.k === "any")) refusals.add(`${name} (no such variant)`);
      }
      return;
    }
    if (a.k === "lit" && b.k === "lit") {
      for (const v of a.values) if (!b.values.includes(v)) refusals.add(`${here}: ${JSON.stringify(v)}`);
      return;
    }
    if (a.k === "arr" && b.k === "arr") return walk(a.items, b.items, here, null);
    if (a.k === "obj" && b.k === "obj") {
      const tProps = new Map(b.props.map((p) => [p.name, p]));
      for (const p of a.props) {
        const q = tProps.get(p.name);
        if (q) walk(p.s, q.s, here, null);
        else if (b.extra === null && !(tIn.k === "ref" && tIn.open)) dropped.add(label(here, p.name));
      }
      const sProps = new Map(a.props.map((p) => [p.name, p]));
      for (const q of b.props) {
        if (!q.required || sProps.get(q.name)?.required) continue;
        if ((rootDefaults && Object.hasOwn(rootDefaults, q.name)) || q.default !== undefined) defaults.add(label(tr.name ?? here, q.name));
        else refusals.add(`${label(tr.name ?? here, q.name)} (required, no default)`);
      }
    }
  };
  walk(s.shape, t.shape, method, t.defaults);
  const sorted = (x: Set<string>) => [...x].sort(byCodeUnit);
  return { dropped: sorted(dropped), defaults: sorted(defaults), refusals: sorted(refusals) };
}
