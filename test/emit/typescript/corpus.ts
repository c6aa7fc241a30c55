// A seeded corpus for the differential test: instances generated from a loaded JSON Schema
// (meant to be valid) and mutations of them (meant to be invalid). Whether an instance IS valid
// is for the oracle (Ajv) to say; this only has to produce enough of both kinds.
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { copyRuntime } from "../../../generator/emit/runtime-copy.js";
import { typescriptRuntime } from "../../../generator/emit/typescript/runtime.js";
import { buildSchemaIR } from "../../../generator/model/ir-build.js";
import { buildProtocolFacts } from "../../../generator/model/protocol.js";
import { buildMethodTables } from "../../../generator/model/table.js";
import type { Dialect, JsonSchema, LoadedSpec, ProtocolModel, VersionModel } from "../../../generator/model/types.js";
import { methodCapabilitiesFile, protocolFactsFile, toolRoot } from "../../../generator/paths.js";
import { readMethodCapabilities } from "../../../generator/source/method-capabilities.js";
import { readProtocolFacts } from "../../../generator/source/protocol-facts.js";
import { readSchemaDocument, refName } from "../../../generator/source/load.js";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Defs = Readonly<Record<string, JsonSchema>>;

/** mulberry32: small, fast, deterministic. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function seedOf(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

const isObject = (v: unknown): v is JsonSchema => typeof v === "object" && v !== null && !Array.isArray(v);
const STRINGS = ["", "a", "text", "héllo wörld", "😀 emoji", "line\nbreak", "2.0", "https://example.com/x", "1", "null", "\u0000"];
const KEYS = ["extra", "x-vendor", "_meta2", "data", "value", "io.example/key"];
const MAX_DEPTH = 5;

export class InstanceGenerator {
  constructor(
    private readonly defs: Defs,
    private readonly random: () => number,
  ) {}

  private int(lo: number, hi: number): number {
    return lo + Math.floor(this.random() * (hi - lo + 1));
  }
  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)];
  }
  private chance(p: number): boolean {
    return this.random() < p;
  }

  /** Any JSON value, bounded in depth. */
  anyJson(depth = 0): Json {
    const kinds = depth >= 3 ? ["null", "boolean", "integer", "number", "string"] : ["null", "boolean", "integer", "number", "string", "array", "object"];
    switch (this.pick(kinds)) {
      case "null":
        return null;
      case "boolean":
        return this.chance(0.5);
      case "integer":
        return this.int(-1000, 1000);
      case "number":
        return Math.round((this.random() - 0.5) * 1e6) / 100;
      case "string":
        return this.pick(STRINGS);
      case "array":
        return Array.from({ length: this.int(0, 3) }, () => this.anyJson(depth + 1));
      default: {
        const o: { [key: string]: Json } = {};
        for (let i = this.int(0, 3); i > 0; i--) o[this.pick(KEYS)] = this.anyJson(depth + 1);
        return o;
      }
    }
  }

  /** Follow `$ref`s and flatten `allOf` into one schema (properties and required merged). */
  resolve(node: unknown): unknown {
    if (!isObject(node)) return node;
    if (typeof node.$ref === "string") return this.resolve(this.defs[refName(node.$ref)]);
    if (!Array.isArray(node.allOf)) return node;
    const { allOf, ...rest } = node;
    const parts = [rest, ...(allOf as unknown[]).map((b) => this.resolve(b))].filter(isObject);
    const merged: JsonSchema = {};
    const properties: Record<string, unknown> = {};
    const required = new Set<string>();
    for (const p of parts) {
      for (const [k, v] of Object.entries(p)) {
        if (k === "properties") {
          for (const [name, s] of Object.entries(v as object)) properties[name] = name in properties ? { allOf: [properties[name], s] } : s;
        } else if (k === "required") for (const r of v as string[]) required.add(r);
        else if (!(k in merged)) merged[k] = v;
      }
    }
    if (Object.keys(properties).length > 0) merged.properties = properties;
    if (required.size > 0) merged.required = [...required];
    return merged;
  }

  /** An instance meant to satisfy the schema. */
  generate(schema: unknown, depth = 0): Json {
    const node = this.resolve(schema);
    if (node === true || node === undefined) return this.anyJson(depth);
    if (!isObject(node)) return null;
    const branches = (node.anyOf ?? node.oneOf) as unknown[] | undefined;
    if (branches) {
      const { anyOf: _a, oneOf: _o, ...rest } = node;
      const branch = this.resolve(this.pick(branches));
      // The branch with what surrounds it, properties and required merged (an `allOf` of both, as resolve flattens it).
      return this.generate(isObject(branch) ? this.resolve({ allOf: [rest, branch] }) : branch, depth + 1);
    }
    if (node.const !== undefined) return node.const as Json;
    if (Array.isArray(node.enum)) return this.pick(node.enum) as Json;
    const types = node.type === undefined ? (node.properties || node.required ? ["object"] : null) : Array.isArray(node.type) ? node.type : [node.type];
    if (types === null) return this.anyJson(depth);
    switch (this.pick(types as string[])) {
      case "null":
        return null;
      case "boolean":
        return this.chance(0.5);
      case "string":
        return this.chance(0.7) ? this.pick(STRINGS) : Math.floor(this.random() * 1e9).toString(36);
      case "integer": {
        const lo = typeof node.minimum === "number" ? Math.ceil(node.minimum) : -1000;
        const hi = typeof node.maximum === "number" ? Math.floor(node.maximum) : lo + 2000;
        // Integral numbers beyond 2^53 are integers too.
        return node.maximum === undefined && this.chance(0.05) ? 2 ** 60 : this.int(lo, hi);
      }
      case "number": {
        const lo = typeof node.minimum === "number" ? node.minimum : -1000;
        const hi = typeof node.maximum === "number" ? node.maximum : lo + 2000;
        if (this.chance(0.1)) return this.pick([lo, hi]);
        return lo + this.random() * (hi - lo);
      }
      case "array": {
        const min = typeof node.minItems === "number" ? node.minItems : 0;
        const max = Math.min(typeof node.maxItems === "number" ? node.maxItems : Infinity, min + (depth >= MAX_DEPTH ? 0 : 3));
        return Array.from({ length: this.int(min, max) }, () => this.generate(node.items ?? true, depth + 1));
      }
      default:
        return this.object(node, depth);
    }
  }

  private object(node: JsonSchema, depth: number): Json {
    const properties = (node.properties ?? {}) as Record<string, unknown>;
    const required = new Set((node.required ?? []) as string[]);
    const out: { [key: string]: Json } = {};
    for (const [name, s] of Object.entries(properties)) {
      if (required.has(name) || (depth < MAX_DEPTH && this.chance(0.5))) out[name] = this.generate(s, depth + 1);
    }
    for (const name of required) if (!(name in out)) out[name] = this.anyJson(depth + 1);
    const extra = node.additionalProperties;
    if (extra !== false && depth < MAX_DEPTH) {
      const described = isObject(extra) && Object.keys(extra).some((k) => k !== "description");
      const count = described ? this.int(0, 2) : this.chance(0.3) ? 1 : 0;
      for (let i = 0; i < count; i++) {
        const k = this.pick(KEYS) + (described ? String(i) : "");
        if (!(k in properties)) out[k] = described ? this.generate(extra, depth + 1) : this.anyJson(depth + 1);
      }
    }
    return out;
  }

  /** A copy of a value with one mutation meant to break it. */
  mutate(value: Json): Json {
    // Some schemas (open results, unions with an open branch) reject little but other types.
    if (this.chance(0.15)) return this.otherType(value);
    const copy = structuredClone(value);
    const locations: Array<{ parent: Json[] | { [key: string]: Json } | null; key: string | number; value: Json }> = [{ parent: null, key: "", value: copy }];
    const walk = (v: Json) => {
      if (Array.isArray(v)) v.forEach((item, i) => (locations.push({ parent: v, key: i, value: item }), walk(item)));
      else if (v !== null && typeof v === "object") for (const [k, item] of Object.entries(v)) locations.push({ parent: v, key: k, value: item }), walk(item);
    };
    walk(copy);
    // Half the mutations hit the top two levels, where definitions put most of their constraints.
    const shallow = locations.filter((l) => l.parent === null || l.parent === copy);
    const at = this.chance(0.5) ? this.pick(shallow) : this.pick(locations);
    const replaced = this.broken(at.value);
    if (replaced === DELETE) {
      if (at.parent !== null && !Array.isArray(at.parent)) delete at.parent[at.key as string];
      else if (Array.isArray(at.parent)) at.parent.splice(at.key as number, 1);
      else return this.otherType(copy);
      return copy;
    }
    if (at.parent === null) return replaced;
    (at.parent as Record<string | number, Json>)[at.key] = replaced;
    return copy;
  }

  /** A value of a different JSON type. */
  otherType(v: Json): Json {
    for (;;) {
      const o = this.anyJson(1);
      if (kind(o) !== kind(v)) return o;
    }
  }

  private broken(v: Json): Json | typeof DELETE {
    const ops: Array<() => Json | typeof DELETE> = [() => DELETE, () => this.otherType(v), () => null];
    if (typeof v === "string") ops.push(() => v + "!", () => "", () => this.pick(STRINGS) + Math.floor(this.random() * 1e6).toString(36));
    if (typeof v === "number") ops.push(() => v + 0.5, () => -v - 1, () => v * 1000 + 1);
    if (Array.isArray(v)) {
      ops.push(() => [], () => [...v, ...Array.from({ length: 101 }, () => (v.length > 0 ? v[0] : "x"))], () => [...v, this.anyJson(2)]);
    } else if (v !== null && typeof v === "object") {
      const keys = Object.keys(v);
      ops.push(() => ({ ...v, [this.pick(KEYS)]: this.anyJson(2) }));
      if (keys.length > 0) {
        ops.push(() => {
          const { [this.pick(keys)]: _drop, ...rest } = v;
          return rest;
        });
      }
    }
    return this.pick(ops)();
  }
}

const DELETE = Symbol("delete");

function kind(v: Json): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

/**
 * A definition's differential corpus: instances generated from its schema and mutations of the valid
 * ones, each distinct instance once, labelled by `oracle` (Ajv), until there are `wanted` of each
 * label or `maxAttempts` rounds have run. Deterministic for a seed and an oracle.
 */
export function labelledCorpus(defs: Defs, name: string, seed: number, oracle: (instance: Json) => boolean, wanted = 50, maxAttempts = 600): { valid: Json[]; invalid: Json[] } {
  const generator = new InstanceGenerator(defs, rng(seed));
  const seen = new Set<string>();
  const corpus = { valid: [] as Json[], invalid: [] as Json[] };
  const judge = (instance: Json) => {
    const text = JSON.stringify(instance);
    if (seen.has(text)) return;
    seen.add(text);
    (oracle(instance) ? corpus.valid : corpus.invalid).push(instance);
  };
  for (let i = 0; i < maxAttempts && (corpus.valid.length < wanted || corpus.invalid.length < wanted); i++) {
    const instance = corpus.valid.length < wanted ? generator.generate(defs[name]) : undefined;
    if (instance !== undefined) judge(instance);
    // Mutate valid instances: each mutation is a small step away from the schema's edge.
    const base = corpus.valid.length > 0 ? corpus.valid[i % corpus.valid.length] : (instance ?? generator.generate(defs[name]));
    judge(generator.mutate(base));
  }
  return corpus;
}

/** The schema file as Ajv should see it: the published bytes with the reviewed patches the generator applied. */
export function oracleDocument(schemasDir: string, patchesDir: string, version: string): Record<string, unknown> {
  const file = path.join(schemasDir, version, "schema.json");
  return readSchemaDocument(readFileSync(file), file, { patchesDir }).root;
}

/**
 * The schema document of an extension module, by the module's rule (docs/extensions.md): the core version's
 * document with the extension's own definitions (`definitions` of its ExtensionModel) put in, taken from the
 * extension's schema.json; their references to other definitions then resolve to the core's, as the module's do.
 */
export function extensionModuleDocument(schemasDir: string, patchesDir: string, ext: { name: string; label: string; core: string; definitions: readonly string[] }): Record<string, unknown> {
  const core = oracleDocument(schemasDir, patchesDir, ext.core);
  const file = path.join(schemasDir, "extensions", ext.name, ext.label, "schema.json");
  const own = readSchemaDocument(readFileSync(file), file).root;
  const containerOf = (doc: Record<string, unknown>) => (Object.hasOwn(doc, "$defs") ? "$defs" : "definitions");
  const [coreContainer, ownContainer] = [containerOf(core), containerOf(own)];
  const retarget = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(retarget);
    if (typeof value !== "object" || value === null) return value;
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, k === "$ref" && typeof v === "string" && v.startsWith(`#/${ownContainer}/`) ? `#/${coreContainer}/${v.slice(ownContainer.length + 3)}` : retarget(v)]),
    );
  };
  const ownDefs = own[ownContainer] as Record<string, unknown>;
  const merged = { ...(core[coreContainer] as Record<string, unknown>), ...Object.fromEntries(ext.definitions.map((name) => [name, retarget(ownDefs[name])])) };
  return { ...core, [coreContainer]: merged };
}

/**
 * How many distinct values a schema allows, when that is finite (const/enum/boolean/null and unions of
 * them), and 0 where it is provably unsatisfiable: an `allOf` whose parts' `type`s share none, or an
 * object requiring a property that allows nothing (a schema published with such a member exists).
 */
export function finiteSize(schema: unknown, defs: Defs, seen: ReadonlySet<string> = new Set()): number {
  if (!isObject(schema)) return schema === false ? 0 : Infinity;
  if (typeof schema.$ref === "string") {
    const name = refName(schema.$ref);
    return seen.has(name) ? Infinity : finiteSize(defs[name], defs, new Set([...seen, name]));
  }
  if (Array.isArray(schema.allOf)) {
    if (disjointTypes(schema.allOf)) return 0;
    if (schema.allOf.some((part) => finiteSize(part, defs, seen) === 0)) return 0;
  }
  if (isObject(schema.properties) && Array.isArray(schema.required)) {
    const properties = schema.properties;
    if (schema.required.some((p) => typeof p === "string" && Object.hasOwn(properties, p) && finiteSize(properties[p], defs, seen) === 0)) return 0;
  }
  if (schema.const !== undefined) return 1;
  if (Array.isArray(schema.enum)) return schema.enum.length;
  const branches = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  if (branches) return branches.reduce((n: number, b) => n + finiteSize(b, defs, seen), 0);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.every((t) => t === "boolean" || t === "null")) return types.reduce((n: number, t) => n + (t === "boolean" ? 2 : 1), 0);
  // An object that admits no key (no properties; additionalProperties false or `{ not: {} }`): only `{}`.
  const none = schema.additionalProperties === false || (isObject(schema.additionalProperties) && isObject(schema.additionalProperties.not) && Object.keys(schema.additionalProperties.not).length === 0);
  if (types.length === 1 && types[0] === "object" && none && (!isObject(schema.properties) || Object.keys(schema.properties).length === 0)) return 1;
  return Infinity;
}

/** `allOf` parts whose declared `type`s have no type in common (an integer is a number too). */
function disjointTypes(parts: unknown[]): boolean {
  let common: string[] | null = null;
  for (const part of parts) {
    if (!isObject(part) || part.type === undefined) continue;
    const declared = new Set((Array.isArray(part.type) ? part.type : [part.type]) as string[]);
    if (declared.has("number")) declared.add("integer");
    common = (common ?? [...declared]).filter((t) => declared.has(t));
  }
  return common !== null && common.length === 0;
}

const JSON_TYPES = ["null", "boolean", "object", "array", "number", "string"] as const;
const ANNOTATION_ONLY = ["description", "title", "$comment", "format", "default", "examples"];

/**
 * The JSON types every value of which a schema accepts: all of them for `true` or `{}`; `type` alone
 * (integer covers no type: not every number is one); an object schema whose only constraint is an
 * `additionalProperties` that accepts everything, an array one whose `items` does; the union of an
 * `anyOf`'s branches; a `$ref`'s target. A reference already being decided is assumed to accept
 * everything (the greatest fixed point: `JSONValue = JSONObject | JSONValue[] | primitives`).
 */
function coveredTypes(schema: unknown, defs: Defs, assumed: ReadonlySet<string>): Set<string> {
  const all = new Set<string>(JSON_TYPES);
  if (schema === true) return all;
  if (!isObject(schema)) return new Set();
  const keys = Object.keys(schema).filter((k) => !ANNOTATION_ONLY.includes(k));
  if (keys.length === 0) return all;
  if (keys.length === 1 && typeof schema.$ref === "string") {
    const name = refName(schema.$ref);
    return assumed.has(name) ? all : coveredTypes(defs[name], defs, new Set(assumed).add(name));
  }
  if (keys.length === 1 && Array.isArray(schema.anyOf)) return new Set(schema.anyOf.flatMap((b) => [...coveredTypes(b, defs, assumed)]));
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((t): t is string => (JSON_TYPES as readonly string[]).includes(t as string));
  const others = keys.filter((k) => k !== "type");
  const everything = (sub: unknown) => coveredTypes(sub, defs, assumed).size === JSON_TYPES.length;
  if (others.length === 0) return new Set(types);
  if (types.length === 1 && types[0] === "object" && others.length === 1 && others[0] === "additionalProperties" && everything(schema.additionalProperties)) return new Set(["object"]);
  if (types.length === 1 && types[0] === "array" && others.length === 1 && others[0] === "items" && everything(schema.items)) return new Set(["array"]);
  return new Set();
}

/** Whether a schema accepts every JSON value (nothing can be invalid). */
export function acceptsEverything(schema: unknown, defs: Defs): boolean {
  return coveredTypes(schema, defs, new Set()).size === JSON_TYPES.length;
}

/** Equal as JSON values (object key order aside). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/**
 * The independent oracle: Ajv in the dialect's own mode (draft-07 or 2020-12), formats not asserted,
 * over synthetic definitions written with `#/$defs/` references. Returns a validator by definition name.
 */
export function ajvOracle(dialect: Dialect, defs: Record<string, unknown>) {
  const options = { strict: false, validateFormats: false } as const;
  const ajv = dialect === "2020-12" ? new Ajv2020(options) : new Ajv(options);
  const container = dialect === "2020-12" ? "$defs" : "definitions";
  const text = JSON.stringify(defs).replace(/#\/\$defs\//g, `#/${container}/`);
  ajv.addSchema({ [container]: JSON.parse(text) }, "synthetic");
  return (name: string) => ajv.getSchema(`synthetic#/${container}/${name}`)!;
}

/**
 * A version model of synthetic definitions (written in the loaded form: `#/$defs/<Name>` refs), with
 * no methods: enough for the schema and guard printers. Its IR comes from the real builder.
 */
/** A run's model of synthetic versions, with its method table (over the tool's reviewed capability data) and protocol facts (over its reviewed prose facts), as the pipeline builds it. */
export function syntheticProtocolModel(...versions: VersionModel[]): ProtocolModel {
  const protocol = buildProtocolFacts({ versions }, readProtocolFacts(protocolFactsFile));
  return { versions, tables: buildMethodTables({ versions }, readMethodCapabilities(methodCapabilitiesFile), protocol), protocol };
}

export function syntheticModel(label: string, dialect: Dialect, definitions: Record<string, JsonSchema>): VersionModel {
  const spec: LoadedSpec = {
    label,
    file: `${label}/schema.json`,
    sha256: "0".repeat(64),
    dialect,
    container: dialect === "draft-07" ? "definitions" : "$defs",
    patches: [],
    defs: definitions,
  };
  return { label, era: "legacy", dialect, sha256: spec.sha256, specCommit: null, patches: [], definitions, ir: buildSchemaIR(spec), requests: [], notifications: [] };
}

/**
 * Write the hand-written runtime where files emitted into `dir/<folder>/` import it (`dir/runtime/`), with the
 * protocol module it imports (`dir/protocol.ts`: the committed tree's, printed from the pinned schemas).
 */
export function writeRuntime(dir: string): void {
  for (const [file, text] of copyRuntime(typescriptRuntime)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  writeFileSync(path.join(dir, "protocol.ts"), readFileSync(path.join(toolRoot, "generated", "protocol.ts"), "utf8"));
}

/** Compiler options generated code must pass: strict, Node's module rules, Node's globals. */
export const STRICT: ts.CompilerOptions = {
  strict: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ["lib.es2022.d.ts"],
  types: ["node"],
  skipLibCheck: true,
  noEmit: true,
};

/** Type errors of a program over `roots` under STRICT, as `file: TSnnnn message` (first line), by file. */
export function strictErrors(roots: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const d of ts.getPreEmitDiagnostics(ts.createProgram(roots, STRICT))) {
    const file = path.resolve(d.file?.fileName ?? "(global)");
    out.set(file, [...(out.get(file) ?? []), `TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, "\n").split("\n")[0]}`]);
  }
  return out;
}
