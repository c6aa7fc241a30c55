// The version diff: two VersionModels → what changed between them, every entry marked breaking or
// not with a one-line reason. Definitions are compared on the schema IR (VersionModel.ir). The JSON shape is `VersionDiff`, described by schemas/version-diff.schema.json.
import { erratumKey, type Erratum, type ErratumStatus, type VersionErratum } from "../model/errata.js";
import type { IntersectionNode, IrNode, IrProperty, ObjectNode } from "../model/ir.js";
import type { Era, Method, RequestMethod, Sender, VersionModel } from "../model/types.js";
import { byCodeUnit } from "../order.js";

/**
 * How a request's result is normalized: the result shape, plus `+resultType` in the modern era,
 * where every result carries `resultType`. `empty`: reduced to `{ _meta }`; `object`: passed through.
 */
export type NormalizerKind = "empty" | "empty+resultType" | "object" | "object+resultType";

export function normalizerKind(request: RequestMethod, era: Era): NormalizerKind {
  return era === "modern" ? `${request.resultShape}+resultType` : request.resultShape;
}

export interface VersionRef {
  label: string;
  era: Era;
  sha256: string;
  specCommit: string | null;
}

export type MethodChangeKind = "added" | "removed" | "sender-changed" | "params-changed" | "result-changed";

export interface MethodChange {
  method: string;
  kind: "request" | "notification";
  change: MethodChangeKind;
  /** The sender in the `to` version, or in the `from` version when the method was removed. */
  sender: Sender;
  /** What it was (sender, params or result type text); null when added or absent. */
  from: string | null;
  /** What it is; null when removed or absent. */
  to: string | null;
  breaking: boolean;
  reason: string;
}

export interface NormalizerChange {
  method: string;
  /** null: the request does not exist in the `from` version. */
  from: NormalizerKind | null;
  /** null: the request was removed. */
  to: NormalizerKind | null;
  breaking: boolean;
  reason: string;
}

export type PropertyChangeKind = "added" | "removed" | "made-required" | "made-optional" | "type-changed" | "schema-changed";

export interface PropertyChange {
  /** The property, or null for a change of the definition as a whole (its type or its constraints). */
  property: string | null;
  change: PropertyChangeKind;
  /** Type summary before (null when added); for made-required/optional the property's type. */
  from: string | null;
  to: string | null;
  breaking: boolean;
  reason: string;
}

export interface DefinitionChange {
  definition: string;
  change: "added" | "removed" | "changed";
  breaking: boolean;
  reason: string;
  /** For `changed`: each change, sorted by property (the definition-wide one first); else empty. */
  properties: PropertyChange[];
}

export interface DiffCounts {
  added: number;
  removed: number;
  changed: number;
}

/**
 * An erratum (a place where schema.json and schema.ts disagree, generator/model/errata.ts) that
 * changed: `brought` (the `to` bytes have it, the `from` bytes do not), `gone` (the `from` bytes had
 * it, the `to` bytes do not: the spec fixed it or moved it), or `status` (in both, with another
 * status: e.g. `fixed` → `open` when a reviewed patch no longer applies to new bytes).
 */
export interface ErratumChange extends Erratum {
  change: "brought" | "gone" | "status";
  /** Status in `from` (null when brought) and in `to` (null when gone); the erratum as `to` has it, or `from` when gone. */
  from: ErratumStatus | null;
  to: ErratumStatus | null;
}

export interface VersionDiff {
  format: "mcp-codegen/version-diff";
  formatVersion: 1;
  from: VersionRef;
  to: VersionRef;
  summary: {
    methods: DiffCounts;
    normalizers: { changed: number };
    definitions: DiffCounts;
    /** Entries marked breaking / not breaking: method, normalizer, definition added/removed and property entries. */
    breaking: number;
    nonBreaking: number;
  };
  methods: MethodChange[];
  normalizers: NormalizerChange[];
  definitions: DefinitionChange[];
  /** Errata changes; `compared` is false when either version has no schema.ts to compare with. */
  errata: { compared: boolean; changes: ErratumChange[] };
}

const ref = (v: VersionModel): VersionRef => ({ label: v.label, era: v.era, sha256: v.sha256, specCommit: v.specCommit });
const byString = byCodeUnit;

export function diffVersions(from: VersionModel, to: VersionModel): VersionDiff {
  const methods = diffMethods(from, to);
  const normalizers = diffNormalizers(from, to);
  const definitions = diffDefinitions(from, to);
  const leaves = [
    ...methods,
    ...normalizers,
    ...definitions.flatMap((d): Array<{ breaking: boolean }> => (d.change === "changed" ? d.properties : [d])),
  ];
  const methodNames = (pred: (c: MethodChange) => boolean) => new Set(methods.filter(pred).map((c) => `${c.kind} ${c.method}`)).size;
  const count = (change: DefinitionChange["change"]) => definitions.filter((d) => d.change === change).length;
  return {
    format: "mcp-codegen/version-diff",
    formatVersion: 1,
    from: ref(from),
    to: ref(to),
    summary: {
      methods: {
        added: methodNames((c) => c.change === "added"),
        removed: methodNames((c) => c.change === "removed"),
        changed: methodNames((c) => c.change !== "added" && c.change !== "removed"),
      },
      normalizers: { changed: normalizers.length },
      definitions: { added: count("added"), removed: count("removed"), changed: count("changed") },
      breaking: leaves.filter((e) => e.breaking).length,
      nonBreaking: leaves.filter((e) => !e.breaking).length,
    },
    methods,
    normalizers,
    definitions,
    errata: diffErrata(from.errata ?? null, to.errata ?? null),
  };
}

// ---- errata ----

function diffErrata(from: readonly VersionErratum[] | null, to: readonly VersionErratum[] | null): VersionDiff["errata"] {
  if (from === null || to === null) return { compared: false, changes: [] };
  const before = new Map(from.map((e) => [erratumKey(e), e]));
  const after = new Map(to.map((e) => [erratumKey(e), e]));
  const entry = (change: ErratumChange["change"], { status: _status, by: _by, ...erratum }: VersionErratum, was: ErratumStatus | null, now: ErratumStatus | null): ErratumChange => ({
    change,
    ...erratum,
    from: was,
    to: now,
  });
  const changes: ErratumChange[] = [];
  for (const [key, e] of after) {
    const old = before.get(key);
    if (old === undefined) changes.push(entry("brought", e, null, e.status));
    else if (old.status !== e.status) changes.push(entry("status", e, old.status, e.status));
  }
  for (const [key, e] of before) if (!after.has(key)) changes.push(entry("gone", e, e.status, null));
  changes.sort((a, b) => byString(a.pointer, b.pointer) || byString(a.kind, b.kind));
  return { compared: true, changes };
}

// ---- methods ----

const sides = (s: Sender): Array<"client" | "server"> => (s === "both" ? ["client", "server"] : [s]);

/**
 * The params by the spec's own names: the params definition, or `<Message>.params` for params declared
 * inline in the message definition (no target's type syntax: every target reads the same diff).
 */
function paramsType(m: Method): string | null {
  if (m.params === null) return null;
  return m.params.definition ?? `${m.definition}.params`;
}

function paramsText(m: Method): string | null {
  const type = paramsType(m);
  if (m.params === null) return null;
  return m.params.required ? type : `${type} (optional)`;
}

function diffMethods(from: VersionModel, to: VersionModel): MethodChange[] {
  // Requests first, then notifications; each by method.
  const key = (m: Method) => `${m.kind === "request" ? 0 : 1} ${m.method}`;
  const before = new Map<string, Method>([...from.requests, ...from.notifications].map((m) => [key(m), m]));
  const after = new Map<string, Method>([...to.requests, ...to.notifications].map((m) => [key(m), m]));
  const out: MethodChange[] = [];
  for (const k of [...new Set([...before.keys(), ...after.keys()])].sort(byString)) {
    const a = before.get(k);
    const b = after.get(k);
    if (a && !b) {
      out.push({
        method: a.method, kind: a.kind, change: "removed", sender: a.sender, from: a.sender, to: null, breaking: true,
        reason: `not in ${to.label}: code sending or handling it has no counterpart`,
      });
      continue;
    }
    if (!a && b) {
      out.push({
        method: b.method, kind: b.kind, change: "added", sender: b.sender, from: null, to: b.sender, breaking: false,
        reason: `new ${b.kind} sent by ${b.sender === "both" ? "both sides" : `the ${b.sender}`}; ${from.label} peers never send it`,
      });
      continue;
    }
    if (!a || !b) continue;
    const entry = (change: MethodChangeKind, f: string | null, t: string | null, breaking: boolean, reason: string) =>
      out.push({ method: b.method, kind: b.kind, change, sender: b.sender, from: f, to: t, breaking, reason });

    if (a.sender !== b.sender) {
      const lost = sides(a.sender).filter((s) => !sides(b.sender).includes(s));
      const gained = sides(b.sender).filter((s) => !sides(a.sender).includes(s));
      const said = [...lost.map((s) => `the ${s} no longer sends it`), ...gained.map((s) => `the ${s} may now send it`)].join("; ");
      entry("sender-changed", a.sender, b.sender, lost.length > 0, said);
    }

    const pa = paramsText(a);
    const pb = paramsText(b);
    if (pa !== pb) {
      if (a.params === null) {
        const required = b.params!.required;
        entry("params-changed", pa, pb, required, required ? "now requires params: senders must send them" : "now takes optional params");
      } else if (b.params === null) {
        entry("params-changed", pa, pb, true, "no longer takes params: code sending or reading them no longer type-checks");
      } else if (paramsType(a) !== paramsType(b)) {
        entry("params-changed", pa, pb, true, `params type is now ${paramsType(b)} (was ${paramsType(a)})`);
      } else if (b.params.required) {
        entry("params-changed", pa, pb, true, "params are now required: senders must send them");
      } else {
        entry("params-changed", pa, pb, true, "params are now optional: handlers must accept a request without them");
      }
    }

    // Results by the spec's own names (a type name may be a sanitised one).
    const resultText = (r: RequestMethod) => r.results.join(" | ");
    if (a.kind === "request" && b.kind === "request" && resultText(a) !== resultText(b)) {
      const gained = b.results.filter((r) => !a.results.includes(r));
      const lost = a.results.filter((r) => !b.results.includes(r));
      const said = [
        ...(gained.length ? [`callers must also handle ${gained.join(", ")}`] : []),
        ...(lost.length ? [`handlers can no longer return ${lost.join(", ")}`] : []),
      ];
      entry("result-changed", resultText(a), resultText(b), true, said.length ? said.join("; ") : "result union reordered");
    }
  }
  return out;
}

function diffNormalizers(from: VersionModel, to: VersionModel): NormalizerChange[] {
  const before = new Map(from.requests.map((r) => [r.method, normalizerKind(r, from.era)]));
  const after = new Map(to.requests.map((r) => [r.method, normalizerKind(r, to.era)]));
  const out: NormalizerChange[] = [];
  for (const method of [...new Set([...before.keys(), ...after.keys()])].sort(byString)) {
    const a = before.get(method) ?? null;
    const b = after.get(method) ?? null;
    if (a === b) continue;
    if (b === null) {
      out.push({ method, from: a, to: null, breaking: true, reason: "request removed; its normalizer goes with it" });
      continue;
    }
    if (a === null) {
      out.push({ method, from: null, to: b, breaking: false, reason: "new request" });
      continue;
    }
    const shapeA = a.split("+")[0];
    const shapeB = b.split("+")[0];
    const said: string[] = [];
    if (shapeA !== shapeB) {
      said.push(shapeB === "object" ? "handlers must now return the result body (it is no longer reduced to _meta)" : "the result is now reduced to _meta: other fields a handler returns are dropped");
    }
    const rtA = a.endsWith("+resultType");
    const rtB = b.endsWith("+resultType");
    if (rtA !== rtB) said.push(rtB ? "results now carry the required resultType (the normalizer sets it)" : "results no longer carry resultType");
    out.push({ method, from: a, to: b, breaking: true, reason: said.join("; ") });
  }
  return out;
}

// ---- definitions ----

/**
 * A node's structure as text: everything that validates (and `format`, which documents a value's
 * form), without source places and other annotations; references by name, properties by name.
 * Equal when two schemas validate alike. (Two versions sharing a definition share its node: `a === b`
 * is tried first.)
 */
function canonical(node: IrNode): string {
  return JSON.stringify(node, function (this: unknown, key, value: unknown) {
    if (key === "at" || key === "target") return undefined;
    if (key === "annotations") return (value as IrNode["annotations"]).format;
    if (key === "properties" && Array.isArray(value)) return [...(value as IrProperty[])].sort((x, y) => byString(x.name, y.name));
    return value;
  });
}

const wrap = (t: string) => (/[ |&]/.test(t) && !/^[{(]/.test(t) ? `(${t})` : t);

/** Properties described under `properties` (not those only named in `required`). */
const declared = (o: ObjectNode) => o.properties.filter((p) => p.requiredOnly !== true);

/**
 * A normalized, TypeScript-like summary of what a schema admits: definition names, consts and enums
 * as JSON literals, unions sorted and joined with `|`, `T[]` for arrays, `{ a: T; b?: U }` for
 * objects. Annotations and validation keywords (bounds, formats, patterns) are left out.
 */
export function typeSummary(node: IrNode): string {
  switch (node.kind) {
    case "any":
    case "not":
      return "unknown";
    case "never":
      return "never";
    case "ref":
      return node.name;
    case "literal":
      return node.keyword === "const" ? JSON.stringify(node.values[0]) : [...new Set(node.values.map((v) => JSON.stringify(v)))].sort(byString).join(" | ");
    case "null":
    case "boolean":
      return node.kind;
    case "string":
      return node.impliedType ? "unknown" : "string";
    case "number":
      return node.impliedType ? "unknown" : node.integer ? "integer" : "number";
    case "array":
      return node.impliedType ? "unknown" : `${wrap(typeSummary(node.items))}[]`;
    case "object":
      // Without `type`, only what describes properties makes it read as an object.
      return node.impliedType && declared(node).length === 0 && node.additional === null ? "unknown" : objectSummary(node);
    case "union":
      return node.source === "type" ? node.branches.map(typeSummary).sort(byString).join(" | ") : [...new Set(node.branches.map(typeSummary))].sort(byString).join(" | ");
    case "intersection":
      return intersectionSummary(node);
  }
}

/** `allOf` items joined with `&`; beside other keywords: unions first, then the allOf part, then the node's own type. */
function intersectionSummary(node: IntersectionNode): string {
  if (node.source === "allOf") return node.parts.map((p) => wrap(typeSummary(p))).join(" & ");
  const allOf = `${node.at.pointer}/allOf/`;
  const items = node.parts.filter((p) => p.at.pointer.startsWith(allOf));
  const unions = node.parts.filter((p) => p.kind === "union" && p.source !== "type" && !items.includes(p));
  const own = node.parts.filter((p) => !items.includes(p) && !unions.includes(p) && p.kind !== "not" && p.kind !== "ref");
  const ref = node.parts.find((p) => p.kind === "ref" && !items.includes(p));
  if (ref !== undefined) return typeSummary(ref);
  const parts = [
    ...unions.map(typeSummary),
    ...(items.length > 0 ? [items.map((p) => wrap(typeSummary(p))).join(" & ")] : []),
    ...own.map(typeSummary).filter((t) => t !== "unknown"),
  ];
  if (parts.length === 0) return "unknown";
  return parts.length === 1 ? parts[0] : parts.map(wrap).join(" & ");
}

function objectSummary(o: ObjectNode): string {
  const members = declared(o)
    .sort((x, y) => byString(x.name, y.name))
    .map((p) => `${/^[A-Za-z_$][\w$]*$/.test(p.name) ? p.name : JSON.stringify(p.name)}${p.required ? "" : "?"}: ${typeSummary(p.node)}`);
  const extra = o.additional;
  if (extra !== null && extra.kind !== "never" && typeSummary(extra) !== "unknown") members.push(`[key: string]: ${typeSummary(extra)}`);
  return members.length === 0 ? "object" : `{ ${members.join("; ")} }`;
}

/** The definition's node when it is an object describing properties, else null. */
function propertiesOf(node: IrNode): ObjectNode | null {
  return node.kind === "object" && declared(node).length > 0 ? node : null;
}

function diffDefinition(a: IrNode, b: IrNode): PropertyChange[] {
  // Most definitions are the same from one version to the next: skip the summaries for those.
  if (a === b || canonical(a) === canonical(b)) return [];
  const out: PropertyChange[] = [];
  const oa = propertiesOf(a);
  const ob = propertiesOf(b);
  if (oa === null || ob === null) {
    const [sa, sb] = [typeSummary(a), typeSummary(b)];
    if (sa !== sb) out.push({ property: null, change: "type-changed", from: sa, to: sb, breaking: true, reason: `the definition is now ${sb} (was ${sa})` });
  } else {
    // The definition apart from its own properties (additional properties, type).
    const rest = (o: ObjectNode) => typeSummary({ ...o, properties: [] });
    const [ra, rb] = [rest(oa), rest(ob)];
    if (ra !== rb) out.push({ property: null, change: "type-changed", from: ra, to: rb, breaking: true, reason: `the definition's own shape is now ${rb} (was ${ra})` });
    const pa = new Map(declared(oa).map((p) => [p.name, p]));
    const pb = new Map(declared(ob).map((p) => [p.name, p]));
    const requiredA = new Set(oa.properties.filter((p) => p.required).map((p) => p.name));
    const requiredB = new Set(ob.properties.filter((p) => p.required).map((p) => p.name));
    for (const p of [...new Set([...pa.keys(), ...pb.keys()])].sort(byString)) {
      const before = pa.get(p);
      const after = pb.get(p);
      if (before === undefined) {
        const req = requiredB.has(p);
        out.push({
          property: p, change: "added", from: null, to: typeSummary(after!.node), breaking: req,
          reason: req ? "added and required: producers must now send it" : "added, optional: older producers may omit it",
        });
        continue;
      }
      if (after === undefined) {
        out.push({ property: p, change: "removed", from: typeSummary(before.node), to: null, breaking: true, reason: "removed: code reading or writing it no longer type-checks" });
        continue;
      }
      const [ta, tb] = [typeSummary(before.node), typeSummary(after.node)];
      if (ta !== tb) out.push({ property: p, change: "type-changed", from: ta, to: tb, breaking: true, reason: `type is now ${tb} (was ${ta})` });
      if (!requiredA.has(p) && requiredB.has(p)) out.push({ property: p, change: "made-required", from: tb, to: tb, breaking: true, reason: "now required: producers must send it" });
      if (requiredA.has(p) && !requiredB.has(p)) out.push({ property: p, change: "made-optional", from: tb, to: tb, breaking: true, reason: "now optional: readers must handle its absence" });
    }
  }
  if (out.length === 0) {
    out.push({ property: null, change: "schema-changed", from: null, to: null, breaking: false, reason: "only validation keywords changed (bounds, formats, patterns); the types are the same" });
  }
  return out;
}

function diffDefinitions(from: VersionModel, to: VersionModel): DefinitionChange[] {
  const out: DefinitionChange[] = [];
  const before = from.ir.definitions;
  const after = to.ir.definitions;
  for (const name of [...new Set([...before.keys(), ...after.keys()])].sort(byString)) {
    const a = before.get(name);
    const b = after.get(name);
    if (a === undefined) {
      out.push({ definition: name, change: "added", breaking: false, reason: "new definition", properties: [] });
    } else if (b === undefined) {
      out.push({ definition: name, change: "removed", breaking: true, reason: `${to.label} has no ${name}: code importing it no longer compiles`, properties: [] });
    } else {
      const changes = diffDefinition(a.node, b.node);
      if (changes.length === 0) continue;
      const breaking = changes.filter((c) => c.breaking).length;
      out.push({
        definition: name,
        change: "changed",
        breaking: breaking > 0,
        reason: `${changes.length} change${changes.length === 1 ? "" : "s"}, ${breaking} breaking`,
        properties: changes,
      });
    }
  }
  return out;
}
