// The result mapping: which results a request may answer with, read from how the schema declares
// the request's response. One rule, whatever the form of the declaration:
//
//   A response declaration is read as the set of `result` schemas its envelopes allow. A `$ref` is
//   the definition it names; `anyOf`/`oneOf` is the union of its branches; `allOf` is the
//   intersection of its parts (distributed over the unions inside it); an object schema allows the
//   schema of its `result` member, and says nothing about the result when it declares none. A branch
//   that is an error envelope (an `error` member, no `result`) is not a result and is left out.
//   Each allowed `result` schema is in turn a `$ref` (a definition; one that is only a union of
//   references is its members), a union of results, or an inline schema (a derived definition).
//   Within one intersection, a result implied by another (every value the other allows, it allows:
//   `Result` beside `CallToolResult`) is dropped; what remains is the result, or, when several
//   remain, their intersection as a derived definition.
//
// A declaration this rule cannot read (no `result` anywhere, only error envelopes, a reference cycle)
// is an input error naming the file and the JSON pointer.
import { refName } from "../source/load.js";
import { ANNOTATION_KEYWORDS } from "./keywords.js";
import type { JsonSchema, LoadedSpec } from "./types.js";

type Path = Array<string | number>;

/** A result as declared: a definition, or an inline schema (which becomes a derived definition). */
export type DeclaredResult = { definition: string } | { inline: JsonSchema; where: Path };

type Fail = (message: string, ...tokens: Path) => never;

/** One way a response may be: the `result` schemas it must all satisfy, or an error envelope. */
interface Alternative {
  /** `depth`: how many references were followed from the response definition to the envelope declaring it. */
  results: Array<{ schema: JsonSchema; where: Path; depth: number }>;
  error: boolean;
}

const isObject = (v: unknown): v is JsonSchema => typeof v === "object" && v !== null && !Array.isArray(v);

/** The keywords of a schema that validate (annotations left out). */
const validating = (node: JsonSchema) => Object.keys(node).filter((k) => !ANNOTATION_KEYWORDS.has(k));

/** Every alternative pair of `a` and `b` (an intersection distributed over unions). */
function cross(a: Alternative[], b: Alternative[]): Alternative[] {
  return a.flatMap((x) => b.map((y) => ({ results: [...x.results, ...y.results], error: x.error || y.error })));
}

/**
 * The results a response declaration allows, per the rule above. `where` is the declaration's place
 * below the definitions container (`["CallToolResultResponse"]`).
 */
export function responseResults(spec: LoadedSpec, declaration: JsonSchema, where: Path, fail: Fail): DeclaredResult[] {
  const alternatives = readResponse(spec, declaration, where, where.slice(0, 1).map(String), fail).filter((a) => !a.error);
  if (alternatives.length === 0) fail("expected the response to allow a result: every branch is an error envelope", ...where);
  const out: DeclaredResult[] = [];
  const seen = new Set<string>();
  for (const alternative of alternatives) {
    if (alternative.results.length === 0) fail("expected the response to declare its result (a `result` member, or a `$ref`/`allOf`/`anyOf`/`oneOf` of envelopes that do)", ...where);
    // Each `result` schema may itself be a union: distribute the intersection over them.
    let conjunctions: Array<Array<{ result: DeclaredResult; depth: number }>> = [[]];
    for (const r of alternative.results) {
      const leaves = declaredResults(spec, r.schema, r.where);
      conjunctions = conjunctions.flatMap((c) => leaves.map((result) => [...c, { result, depth: r.depth }]));
    }
    for (const conjunction of conjunctions) {
      const result = intersect(spec, conjunction, where);
      const key = "definition" in result ? `#${result.definition}` : JSON.stringify(result.inline);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(result);
    }
  }
  return out;
}

/** The alternatives of a response schema node. `stack` holds the definitions being followed (cycles). */
function readResponse(spec: LoadedSpec, node: JsonSchema, where: Path, stack: string[], fail: Fail, depth = 0): Alternative[] {
  let alternatives: Alternative[] = [{ results: [], error: false }];
  if (typeof node.$ref === "string") {
    const name = refName(node.$ref);
    if (stack.includes(name)) fail(`the response declaration refers to itself (${[...stack, name].join(" → ")})`, ...where, "$ref");
    alternatives = cross(alternatives, readResponse(spec, spec.defs[name], [name], [...stack, name], fail, depth + 1));
  }
  if (Array.isArray(node.allOf)) {
    node.allOf.forEach((part, i) => {
      if (isObject(part)) alternatives = cross(alternatives, readResponse(spec, part, [...where, "allOf", i], stack, fail, depth));
    });
  }
  for (const key of ["anyOf", "oneOf"] as const) {
    const list = node[key];
    if (!Array.isArray(list)) continue;
    const union = list.flatMap((branch, i) => (isObject(branch) ? readResponse(spec, branch, [...where, key, i], stack, fail, depth) : []));
    alternatives = cross(alternatives, union);
  }
  const properties = isObject(node.properties) ? node.properties : {};
  if (isObject(properties.result)) {
    alternatives = cross(alternatives, [{ results: [{ schema: properties.result, where: [...where, "properties", "result"], depth }], error: false }]);
  } else if (Object.hasOwn(properties, "error")) {
    alternatives = alternatives.map((a) => ({ ...a, error: true }));
  }
  return alternatives;
}

/**
 * A `result` schema as a list of results: a `$ref` (a definition that is only a union of references
 * counts as its members), a union of results, or one inline schema.
 */
export function declaredResults(spec: LoadedSpec, result: JsonSchema, where: Path, stack: string[] = []): DeclaredResult[] {
  const keys = validating(result);
  if (typeof result.$ref === "string" && keys.length === 1) {
    const name = refName(result.$ref);
    const def = spec.defs[name];
    if (!stack.includes(name) && unionOfRefs(def)) return declaredResults(spec, def, [name], [...stack, name]);
    return [{ definition: name }];
  }
  for (const key of ["anyOf", "oneOf"] as const) {
    const list = result[key];
    if (Array.isArray(list) && list.length > 0 && keys.length === 1) {
      return list.flatMap((branch, i) =>
        isObject(branch) ? declaredResults(spec, branch, [...where, key, i], stack) : [{ inline: branch as JsonSchema, where: [...where, key, i] }],
      );
    }
  }
  return [{ inline: result, where }];
}

/** A definition that is only `anyOf`/`oneOf` of references. */
function unionOfRefs(def: JsonSchema): boolean {
  const keys = validating(def);
  if (keys.length !== 1 || (keys[0] !== "anyOf" && keys[0] !== "oneOf")) return false;
  const list = def[keys[0]];
  return Array.isArray(list) && list.length > 0 && list.every((b) => isObject(b) && typeof b.$ref === "string" && validating(b).length === 1);
}

const schemaOf = (r: DeclaredResult): JsonSchema => ("definition" in r ? { $ref: `#/$defs/${r.definition}` } : r.inline);

/**
 * The intersection of results: a result implied by another is dropped. Of two that imply each other
 * (the same values), the one declared nearer the response definition (fewer references followed:
 * the request's own `{ result: … }` rather than the shared envelope's) is kept, else the first. One
 * left is the result; several are their `allOf`.
 */
function intersect(spec: LoadedSpec, results: Array<{ result: DeclaredResult; depth: number }>, where: Path): DeclaredResult {
  const schemas = results.map((r) => schemaOf(r.result));
  const preferred = (j: number, i: number) => results[j].depth < results[i].depth || (results[j].depth === results[i].depth && j < i);
  const kept = results.filter((_, i) => !schemas.some((other, j) => j !== i && implies(spec, other, schemas[i]) && (preferred(j, i) || !implies(spec, schemas[i], other))));
  if (kept.length === 1) return kept[0].result;
  return { inline: { allOf: kept.map((r) => schemaOf(r.result)) }, where };
}

/** Annotations removed, recursively (property names kept): for comparing schemas. */
function canonical(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(canonical);
  if (!isObject(node)) return node;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(node).sort()) {
    if (ANNOTATION_KEYWORDS.has(key)) continue;
    const value = node[key];
    out[key] = key === "properties" && isObject(value) ? Object.fromEntries(Object.keys(value).sort().map((p) => [p, canonical(value[p])])) : canonical(value);
  }
  return out;
}

/** JSON Schema `type` names a value has (an integer is a number too). */
function typesOf(value: unknown): string[] {
  if (value === null) return ["null"];
  if (Array.isArray(value)) return ["array"];
  if (typeof value === "number") return Number.isInteger(value) ? ["integer", "number"] : ["number"];
  return [typeof value];
}

/** Every value `x` accepts has one of the types `yType` names: by x's `type`, or its `const`/`enum`. */
function typeImplied(x: JsonSchema, yType: unknown): boolean {
  const wanted = Array.isArray(yType) ? yType : [yType];
  if (Object.hasOwn(x, "const")) return typesOf(x.const).some((t) => wanted.includes(t));
  if (Array.isArray(x.enum)) return x.enum.every((v) => typesOf(v).some((t) => wanted.includes(t)));
  if (x.type === undefined) return false;
  const have = Array.isArray(x.type) ? x.type : [x.type];
  return have.every((t) => wanted.includes(t) || (t === "integer" && wanted.includes("number")));
}

/** The schema accepts every value (`{}`, `true`, or annotations only). */
const acceptsAll = (s: unknown) => s === true || (isObject(s) && validating(s).length === 0);

/**
 * Every value `x` accepts, `y` accepts: a sound, incomplete check (false when unsure). It knows
 * references, unions, intersections and objects that constrain only `type`, `properties`, `required`
 * and an open `additionalProperties`, which is how result bases (`Result`) are written.
 */
export function implies(spec: LoadedSpec, x: JsonSchema, y: JsonSchema, depth = 0): boolean {
  if (depth > 32) return false;
  if (acceptsAll(y)) return true;
  if (JSON.stringify(canonical(x)) === JSON.stringify(canonical(y))) return true;
  const deref = (s: JsonSchema) => spec.defs[refName(s.$ref as string)];
  const yKeys = validating(y);
  if (typeof y.$ref === "string" && yKeys.length === 1) return implies(spec, x, deref(y), depth + 1);
  if (Array.isArray(y.allOf) && yKeys.length === 1) return y.allOf.every((p) => isObject(p) && implies(spec, x, p, depth + 1));
  // x is at least as narrow as each of its conjuncts, and as the union of its branches.
  for (const key of ["anyOf", "oneOf"] as const) {
    const list = x[key];
    if (Array.isArray(list) && list.length > 0 && list.every((b) => isObject(b) && implies(spec, b, y, depth + 1))) return true;
  }
  if (typeof x.$ref === "string" && implies(spec, deref(x), y, depth + 1)) return true;
  if (Array.isArray(x.allOf) && x.allOf.some((p) => isObject(p) && implies(spec, p, y, depth + 1))) return true;
  // Objects: y may constrain only these, with extra keys allowed.
  if (!yKeys.every((k) => ["type", "properties", "required", "additionalProperties"].includes(k))) return false;
  if (y.additionalProperties !== undefined && !acceptsAll(y.additionalProperties)) return false;
  if (y.type !== undefined && !typeImplied(x, y.type)) return false;
  if (yKeys.length === 1 && yKeys[0] === "type") return true;
  if (y.type !== undefined && y.type !== "object") return false;
  const xRequired = Array.isArray(x.required) ? x.required : [];
  if (Array.isArray(y.required) && !y.required.every((r) => xRequired.includes(r))) return false;
  const xProperties = isObject(x.properties) ? x.properties : {};
  const yProperties = isObject(y.properties) ? y.properties : {};
  if (Object.keys(yProperties).length > 0 && x.type !== "object") return false;
  return Object.keys(yProperties).every((p) => {
    const wanted = yProperties[p];
    if (acceptsAll(wanted)) return true;
    if (Object.hasOwn(xProperties, p)) return isObject(xProperties[p]) && isObject(wanted) && implies(spec, xProperties[p] as JsonSchema, wanted, depth + 1);
    // Not declared by x: x allows it only through additionalProperties (or, without it, anything).
    if (x.additionalProperties === false) return true;
    return isObject(x.additionalProperties) && isObject(wanted) && implies(spec, x.additionalProperties, wanted, depth + 1);
  });
}
