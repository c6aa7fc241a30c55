// The version diff: two VersionModels → what changed between them, every entry marked breaking or
// not with a one-line reason. The JSON shape is `VersionDiff`, described by schemas/version-diff.schema.json.
import { refName } from "../spec/load.js";
import type { Era, JsonSchema, Method, RequestMethod, Sender, VersionModel } from "../model/types.js";
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
  };
}

// ---- methods ----

const sides = (s: Sender): Array<"client" | "server"> => (s === "both" ? ["client", "server"] : [s]);

function paramsText(m: Method): string | null {
  if (m.params === null) return null;
  return m.params.required ? m.params.type.ts : `${m.params.type.ts} (optional)`;
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
      } else if (a.params.type.ts !== b.params.type.ts) {
        entry("params-changed", pa, pb, true, `params type is now ${b.params.type.ts} (was ${a.params.type.ts})`);
      } else if (b.params.required) {
        entry("params-changed", pa, pb, true, "params are now required: senders must send them");
      } else {
        entry("params-changed", pa, pb, true, "params are now optional: handlers must accept a request without them");
      }
    }

    if (a.kind === "request" && b.kind === "request" && a.resultType.ts !== b.resultType.ts) {
      const gained = b.results.filter((r) => !a.results.includes(r));
      const lost = a.results.filter((r) => !b.results.includes(r));
      const said = [
        ...(gained.length ? [`callers must also handle ${gained.join(", ")}`] : []),
        ...(lost.length ? [`handlers can no longer return ${lost.join(", ")}`] : []),
      ];
      entry("result-changed", a.resultType.ts, b.resultType.ts, true, said.length ? said.join("; ") : "result union reordered");
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

const ANNOTATIONS = new Set(["description", "title", "$comment", "examples", "deprecated", "readOnly", "writeOnly", "default"]);

/** The schema without annotations, keys sorted: equal when two schemas validate alike. */
function canonical(node: unknown, inProperties = false): unknown {
  if (Array.isArray(node)) return node.map((n) => canonical(n));
  if (typeof node !== "object" || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(node).sort()) {
    // Inside `properties` the keys are property names, not keywords.
    if (!inProperties && ANNOTATIONS.has(key)) continue;
    out[key] = canonical((node as Record<string, unknown>)[key], !inProperties && (key === "properties" || key === "patternProperties"));
  }
  return out;
}

const wrap = (t: string) => (/[ |&]/.test(t) && !/^[{(]/.test(t) ? `(${t})` : t);

/**
 * A normalized, TypeScript-like summary of what a schema admits: `$ref` names, consts and enums as
 * JSON literals, unions sorted and joined with `|`, `T[]` for arrays, `{ a: T; b?: U }` for inline
 * objects. Annotations and validation keywords (bounds, formats, patterns) are left out.
 */
export function typeSummary(node: unknown): string {
  if (node === true || (typeof node === "object" && node !== null && Object.keys(canonical(node) as object).length === 0)) return "unknown";
  if (node === false) return "never";
  if (typeof node !== "object" || node === null) return "unknown";
  const s = node as JsonSchema;
  if (typeof s.$ref === "string") return refName(s.$ref);
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (Array.isArray(s.enum)) return [...new Set(s.enum.map((v) => JSON.stringify(v)))].sort(byString).join(" | ");
  const parts: string[] = [];
  for (const key of ["anyOf", "oneOf"] as const) {
    if (Array.isArray(s[key])) parts.push([...new Set((s[key] as unknown[]).map(typeSummary))].sort(byString).join(" | "));
  }
  if (Array.isArray(s.allOf)) parts.push((s.allOf as unknown[]).map((n) => wrap(typeSummary(n))).join(" & "));
  const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === "string" ? [s.type] : [];
  const own = types.map((t) => {
    if (t === "array") return s.items === undefined ? "unknown[]" : `${wrap(typeSummary(s.items))}[]`;
    if (t === "object") return objectSummary(s);
    return t;
  });
  if (types.length === 0 && (s.properties !== undefined || s.additionalProperties !== undefined)) own.push(objectSummary(s));
  if (own.length > 0) parts.push([...own].sort(byString).join(" | "));
  if (parts.length === 0) return "unknown";
  return parts.length === 1 ? parts[0] : parts.map(wrap).join(" & ");
}

function objectSummary(s: JsonSchema): string {
  const props = (s.properties ?? {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const members = Object.keys(props)
    .sort(byString)
    .map((p) => `${/^[A-Za-z_$][\w$]*$/.test(p) ? p : JSON.stringify(p)}${required.has(p) ? "" : "?"}: ${typeSummary(props[p])}`);
  const extra = s.additionalProperties;
  if (typeof extra === "object" && extra !== null && typeSummary(extra) !== "unknown") members.push(`[key: string]: ${typeSummary(extra)}`);
  return members.length === 0 ? "object" : `{ ${members.join("; ")} }`;
}

function properties(def: JsonSchema): Record<string, unknown> | null {
  return typeof def.properties === "object" && def.properties !== null ? (def.properties as Record<string, unknown>) : null;
}

function requiredOf(def: JsonSchema): Set<string> {
  return new Set(Array.isArray(def.required) ? (def.required as string[]) : []);
}

function diffDefinition(a: JsonSchema, b: JsonSchema): PropertyChange[] {
  // Most definitions are the same from one version to the next: skip the summaries for those.
  if (a === b || JSON.stringify(a) === JSON.stringify(b)) return [];
  const out: PropertyChange[] = [];
  const pa = properties(a);
  const pb = properties(b);
  if (pa === null || pb === null) {
    const [sa, sb] = [typeSummary(a), typeSummary(b)];
    if (sa !== sb) out.push({ property: null, change: "type-changed", from: sa, to: sb, breaking: true, reason: `the definition is now ${sb} (was ${sa})` });
  } else {
    // The definition apart from its own properties (allOf, additionalProperties, type).
    const rest = (d: JsonSchema) => typeSummary({ ...d, properties: undefined, required: undefined });
    const [ra, rb] = [rest(a), rest(b)];
    if (ra !== rb) out.push({ property: null, change: "type-changed", from: ra, to: rb, breaking: true, reason: `the definition's own shape is now ${rb} (was ${ra})` });
    const ra2 = requiredOf(a);
    const rb2 = requiredOf(b);
    for (const p of [...new Set([...Object.keys(pa), ...Object.keys(pb)])].sort(byString)) {
      const inA = Object.hasOwn(pa, p);
      const inB = Object.hasOwn(pb, p);
      if (!inA) {
        const req = rb2.has(p);
        out.push({
          property: p, change: "added", from: null, to: typeSummary(pb[p]), breaking: req,
          reason: req ? "added and required: producers must now send it" : "added, optional: older producers may omit it",
        });
        continue;
      }
      if (!inB) {
        out.push({ property: p, change: "removed", from: typeSummary(pa[p]), to: null, breaking: true, reason: "removed: code reading or writing it no longer type-checks" });
        continue;
      }
      const [ta, tb] = [typeSummary(pa[p]), typeSummary(pb[p])];
      if (ta !== tb) out.push({ property: p, change: "type-changed", from: ta, to: tb, breaking: true, reason: `type is now ${tb} (was ${ta})` });
      if (!ra2.has(p) && rb2.has(p)) out.push({ property: p, change: "made-required", from: tb, to: tb, breaking: true, reason: "now required: producers must send it" });
      if (ra2.has(p) && !rb2.has(p)) out.push({ property: p, change: "made-optional", from: tb, to: tb, breaking: true, reason: "now optional: readers must handle its absence" });
    }
  }
  if (out.length === 0 && JSON.stringify(canonical(a)) !== JSON.stringify(canonical(b))) {
    out.push({ property: null, change: "schema-changed", from: null, to: null, breaking: false, reason: "only validation keywords changed (bounds, formats, patterns); the types are the same" });
  }
  return out;
}

function diffDefinitions(from: VersionModel, to: VersionModel): DefinitionChange[] {
  const out: DefinitionChange[] = [];
  for (const name of [...new Set([...Object.keys(from.definitions), ...Object.keys(to.definitions)])].sort(byString)) {
    const a = from.definitions[name];
    const b = to.definitions[name];
    if (a === undefined) {
      out.push({ definition: name, change: "added", breaking: false, reason: "new definition", properties: [] });
    } else if (b === undefined) {
      out.push({ definition: name, change: "removed", breaking: true, reason: `${to.label} has no ${name}: code importing it no longer compiles`, properties: [] });
    } else {
      const changes = diffDefinition(a, b);
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
