// The projection interpreter (issue 41): a value valid at one protocol version projected onto another
// version's shape of the same method's result or params. The shapes are data the generator decides
// from the schemas (generator/model/projections.ts, printed as projections.ts of the tree); this only
// walks them: undeclared members of a closed object dropped, required members supplied from the
// defaults given, a union's branches narrowed by the member the data names for telling them apart (the
// value's, else the default given), of those the branch dropping the fewest members taken, and anything
// else refused with the JSON pointer at fault and the reason. No protocol fact is decided here.
import { pointerToken } from "./schema-support.js";

export type ProjectionLiteral = string | number | boolean | null;

export type ProjectionShape =
  | { k: "any" }
  | { k: "never" }
  | { k: "lit"; values: readonly ProjectionLiteral[] }
  | { k: "str"; minLength?: number; maxLength?: number; pattern?: string }
  | { k: "num"; integer: boolean; minimum?: number; maximum?: number; exclusiveMinimum?: number; exclusiveMaximum?: number }
  | { k: "bool" }
  | { k: "null" }
  | { k: "arr"; items: ProjectionShape; minItems?: number; maxItems?: number }
  | { k: "obj"; props: readonly ProjectionMember[]; extra: ProjectionShape | null }
  | { k: "ref"; name: string; open?: true }
  | { k: "union"; branches: readonly ProjectionShape[]; tag?: ProjectionTag };

/** The member a union's branches are told apart by, `values[i]` those branch i takes (null: any). */
export interface ProjectionTag {
  member: string;
  values: readonly (readonly ProjectionLiteral[] | null)[];
}

export interface ProjectionMember {
  name: string;
  s: ProjectionShape;
  required: boolean;
  default?: unknown;
}

/** One version's printed projection data. */
export interface VersionProjection {
  label: string;
  definitions: Readonly<Record<string, ProjectionShape>>;
  results: Readonly<Record<string, { shape: ProjectionShape; defaults: Readonly<Record<string, unknown>> }>>;
  params: Readonly<Record<string, ProjectionShape>>;
  /** The version's server capabilities (a ref to its definition), where it has one. */
  serverCapabilities?: ProjectionShape | null;
}

/** What a projection did: the value at the target, the pointers of members dropped and of defaults supplied. */
export interface Projected {
  ok: true;
  value: unknown;
  dropped: string[];
  added: string[];
}

/** No faithful value at the target: the JSON pointer of the value at fault, and why. */
export interface Refused {
  ok: false;
  pointer: string;
  reason: string;
}

export type ProjectionOutcome = Projected | Refused;

class Refusal {
  constructor(
    readonly pointer: string,
    readonly reason: string,
  ) {}
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const jsonType = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);
const codePoints = (s: string) => [...s].length;
/** Strings in code point order (UTF-8 byte order: Go's, Python's and Ruby's string order; not UTF-16's). */
const byCodePoint = (a: string, b: string): number => {
  const [x, y] = [[...a], [...b]];
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i].codePointAt(0)! - y[i].codePointAt(0)!;
  return x.length - y.length;
};

class Walker {
  dropped: string[] = [];
  added: string[] = [];
  constructor(private readonly data: VersionProjection) {}

  walk(value: unknown, shape: ProjectionShape, at: string, defaults: Readonly<Record<string, unknown>> | null, open = false): unknown {
    switch (shape.k) {
      case "any":
        return value;
      case "never":
        throw new Refusal(at, `version ${this.data.label} allows no value here`);
      case "lit":
        if (!shape.values.some((v) => v === value)) throw new Refusal(at, `version ${this.data.label} allows only ${shape.values.map((v) => JSON.stringify(v)).join(", ")} here, not ${JSON.stringify(value)}`);
        return value;
      case "str":
        if (typeof value !== "string") throw this.type(at, "a string", value);
        if ((shape.minLength !== undefined && codePoints(value) < shape.minLength) || (shape.maxLength !== undefined && codePoints(value) > shape.maxLength) || (shape.pattern !== undefined && !new RegExp(shape.pattern, "u").test(value)))
          throw new Refusal(at, `the string does not meet version ${this.data.label}'s length or pattern`);
        return value;
      case "num":
        if (typeof value !== "number") throw this.type(at, "a number", value);
        if (
          (shape.integer && !Number.isInteger(value)) ||
          (shape.minimum !== undefined && value < shape.minimum) ||
          (shape.maximum !== undefined && value > shape.maximum) ||
          (shape.exclusiveMinimum !== undefined && value <= shape.exclusiveMinimum) ||
          (shape.exclusiveMaximum !== undefined && value >= shape.exclusiveMaximum)
        )
          throw new Refusal(at, `${value} is out of version ${this.data.label}'s range`);
        return value;
      case "bool":
        if (typeof value !== "boolean") throw this.type(at, "a boolean", value);
        return value;
      case "null":
        if (value !== null) throw this.type(at, "null", value);
        return value;
      case "arr": {
        if (!Array.isArray(value)) throw this.type(at, "an array", value);
        if ((shape.minItems !== undefined && value.length < shape.minItems) || (shape.maxItems !== undefined && value.length > shape.maxItems)) throw new Refusal(at, `the array's length is out of version ${this.data.label}'s bounds`);
        return value.map((item, i) => this.walk(item, shape.items, `${at}/${i}`, null));
      }
      case "ref": {
        const target = this.data.definitions[shape.name];
        if (target === undefined) throw new Refusal(at, `version ${this.data.label} has no definition ${shape.name}`);
        return this.walk(value, target, at, defaults, open || shape.open === true);
      }
      case "union": {
        let best: { value: unknown; dropped: string[]; added: string[] } | null = null;
        let first: Refusal | null = null;
        let agreed = true;
        const branches = this.tagged(value, shape, at, defaults);
        for (const branch of branches) {
          const w = new Walker(this.data);
          try {
            const v = w.walk(value, branch, at, defaults, open);
            if (best === null || w.dropped.length < best.dropped.length) best = { value: v, dropped: w.dropped, added: w.added };
          } catch (e) {
            if (!(e instanceof Refusal)) throw e;
            first ??= e;
            agreed &&= e.pointer === first.pointer;
          }
        }
        if (best === null) {
          // One branch named by the tag, or every branch refusing at the same place inside the value: that refusal
          // says where the value fails.
          if (first !== null && (branches.length === 1 || (agreed && first.pointer !== at))) throw first;
          const type = isPlainObject(value) && typeof value.type === "string" ? ` (type ${JSON.stringify(value.type)})` : "";
          throw new Refusal(at, `no variant of version ${this.data.label} accepts this value${type}${first && first.pointer !== at ? `: ${first.pointer}: ${first.reason}` : ""}`);
        }
        this.dropped.push(...best.dropped);
        this.added.push(...best.added);
        return best.value;
      }
      case "obj": {
        if (!isPlainObject(value)) throw this.type(at, "an object", value);
        const out: Record<string, unknown> = {};
        const declared = new Set(shape.props.map((p) => p.name));
        for (const p of shape.props) {
          const where = `${at}/${pointerToken(p.name)}`;
          if (Object.hasOwn(value, p.name)) {
            out[p.name] = this.walk(value[p.name], p.s, where, null);
          } else if (p.required) {
            const supplied = defaults !== null && Object.hasOwn(defaults, p.name) ? defaults[p.name] : p.default;
            if (supplied === undefined) throw new Refusal(where, `version ${this.data.label} requires this member and gives it no default`);
            out[p.name] = structuredClone(supplied);
            this.added.push(where);
          }
        }
        // Undeclared members in code point order, as every runtime walks them: the first to fail names the refusal.
        for (const name of Object.keys(value).sort(byCodePoint)) {
          if (declared.has(name)) continue;
          const where = `${at}/${pointerToken(name)}`;
          const extra = shape.extra ?? (open ? { k: "any" as const } : null);
          if (extra === null) this.dropped.push(where);
          else out[name] = this.walk(value[name], extra, where, null);
        }
        return out;
      }
    }
  }

  /** The branches a union's tag names for the value (the value's member, else its default); all where it names none. */
  private tagged(value: unknown, shape: Extract<ProjectionShape, { k: "union" }>, at: string, defaults: Readonly<Record<string, unknown>> | null): readonly ProjectionShape[] {
    const tag = shape.tag;
    if (tag === undefined || !isPlainObject(value)) return shape.branches;
    const given = Object.hasOwn(value, tag.member) ? value[tag.member] : defaults !== null && Object.hasOwn(defaults, tag.member) ? defaults[tag.member] : undefined;
    if (given === undefined) return shape.branches;
    const named = shape.branches.filter((_, i) => tag.values[i] === null || tag.values[i]!.some((v) => v === given));
    if (named.length === 0) throw new Refusal(at, `version ${this.data.label} has no variant whose ${tag.member} is ${JSON.stringify(given)}`);
    return named;
  }

  private type(at: string, expected: string, value: unknown): Refusal {
    return new Refusal(at, `version ${this.data.label} expects ${expected} here, not ${jsonType(value)}`);
  }
}

function run(data: VersionProjection, value: unknown, shape: ProjectionShape, defaults: Readonly<Record<string, unknown>> | null): ProjectionOutcome {
  const w = new Walker(data);
  try {
    const out = w.walk(value, shape, "", defaults);
    return { ok: true, value: out, dropped: w.dropped, added: w.added };
  } catch (e) {
    if (e instanceof Refusal) return { ok: false, pointer: e.pointer, reason: e.reason };
    throw e;
  }
}

/** A result of `method` (valid at any version) projected onto `target`'s result of the method. */
export function projectResult(target: VersionProjection, method: string, value: unknown): ProjectionOutcome {
  const entry = target.results[method];
  if (entry === undefined) return { ok: false, pointer: "", reason: `version ${target.label} has no request ${method}` };
  return run(target, value, entry.shape, entry.defaults);
}

/** Params of `method` (valid at any version) projected onto `target`'s params (lifting an older request to the newest shape). */
export function projectParams(target: VersionProjection, method: string, value: unknown): ProjectionOutcome {
  const shape = target.params[method];
  if (value === undefined) return { ok: true, value, dropped: [], added: [] };
  if (shape === undefined) return value === undefined ? { ok: true, value, dropped: [], added: [] } : { ok: false, pointer: "", reason: `version ${target.label} has no params for ${method}` };
  return run(target, value, shape, null);
}

/** Any value projected onto a shape of `target`'s data (its `serverCapabilities`, a definition's `ref`). */
export function projectShape(target: VersionProjection, shape: ProjectionShape, value: unknown): ProjectionOutcome {
  return run(target, value, shape, null);
}
