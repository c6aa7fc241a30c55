// Loading: one schema.json of either dialect → `LoadedSpec`, the single form the model reads.
import { readFileSync } from "node:fs";
import { InputError, pointer, unescapePointerToken } from "../errors.js";
import { sha256 } from "../files.js";
import { ANNOTATION_KEYWORDS, MAP_KEYWORDS } from "./keywords.js";
import type { Dialect, JsonSchema, LoadedSpec } from "./types.js";
import { jsonErrorOffset, lineColumn } from "./json-position.js";
import { applyPatches, patchesFor, type NamedPatch, type StagedPatches } from "./patch.js";

/** Keywords whose values are data, not schemas. */
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples"]);


export interface LoadOptions {
  /** Folder of reviewed patches (`<sha256 prefix>.json`); none are applied when absent. */
  patchesDir?: string;
  /** Patch files a bump is about to write into `patchesDir`, read before those there (see StagedPatches). */
  stagedPatches?: StagedPatches;
}

/** A schema file's bytes; one that cannot be read is bad input. */
export function readSchemaBytes(file: string): Uint8Array {
  try {
    return readFileSync(file);
  } catch (e) {
    throw new InputError(`cannot read the schema (${(e as NodeJS.ErrnoException).code ?? e})`, file);
  }
}

export function loadSpec(file: string, label: string, options: LoadOptions = {}): LoadedSpec {
  return loadSpecBytes(readSchemaBytes(file), file, label, options);
}

/**
 * A schema file's parsed document, with the reviewed patches of its bytes applied (none without a
 * `patchesDir`): what loading reads, and what an oracle given the same bytes should read.
 */
export function readSchemaDocument(bytes: Uint8Array, file: string, options: LoadOptions = {}): { root: Record<string, unknown>; sha256: string; patches: NamedPatch[] } {
  const text = Buffer.from(bytes).toString("utf8");
  const doc = parseJson(text, file);
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
    throw new InputError("expected a JSON Schema object", file, "");
  }
  const root = doc as Record<string, unknown>;
  const digest = sha256(bytes);
  // Patches were reviewed against particular bytes: they apply to those bytes only.
  const reviewed = options.patchesDir === undefined ? null : patchesFor(options.patchesDir, digest, options.stagedPatches);
  if (reviewed !== null) applyPatches(root, reviewed.patches, reviewed.file, file);
  return { root, sha256: digest, patches: reviewed?.patches ?? [] };
}

export function loadSpecBytes(bytes: Uint8Array, file: string, label: string, options: LoadOptions = {}): LoadedSpec {
  const { root, sha256: digest, patches: applied } = readSchemaDocument(bytes, file, options);
  const patches = applied.map((p) => p.name);

  const container = Object.hasOwn(root, "$defs") ? "$defs" : Object.hasOwn(root, "definitions") ? "definitions" : null;
  if (container === null) throw new InputError("expected definitions under $defs (2020-12) or definitions (draft-07)", file, "");
  const dialect = detectDialect(root, container);
  const source = root[container];
  if (typeof source !== "object" || source === null || Array.isArray(source)) {
    throw new InputError("expected an object of definitions", file, pointer(container));
  }

  const defs: Record<string, JsonSchema> = {};
  const sourceDefs = source as Record<string, unknown>;
  const anchors = dialect === "2020-12" ? anchorsOf(sourceDefs) : new Map<string, string>();
  for (const [name, def] of Object.entries(sourceDefs)) {
    defs[name] = withoutOwnDialect(normalizeNode(def, { file, dialect, container, defs: sourceDefs, anchors }, [container, name]), root.$schema, file, [container, name]) as JsonSchema;
  }
  return deepFreeze({ label, file, sha256: digest, dialect, container, patches, defs });
}

/**
 * A definition may repeat the document's `$schema` (generated schemas, such as an extension's, write it
 * on every definition): the same dialect says nothing more and is dropped; another dialect is bad input.
 */
function withoutOwnDialect(def: unknown, declared: unknown, file: string, at: Array<string | number>): unknown {
  if (typeof def !== "object" || def === null || Array.isArray(def) || !Object.hasOwn(def, "$schema")) return def;
  const own = (def as Record<string, unknown>).$schema;
  if (own !== declared) throw new InputError(`a definition declares the dialect ${JSON.stringify(own)}, the document ${JSON.stringify(declared)}; expected one dialect per file`, file, pointer(...at, "$schema"));
  const { $schema: _same, ...rest } = def as Record<string, unknown>;
  return rest;
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const offset = jsonErrorOffset(text);
    const where = offset >= 0 ? lineColumn(text, Math.min(offset, text.length)) : null;
    const at = where ? ` at line ${where.line}, column ${where.column}` : "";
    throw new InputError(`invalid JSON${at}: ${(e as Error).message}`, file);
  }
}

function detectDialect(root: Record<string, unknown>, container: "definitions" | "$defs"): Dialect {
  const declared = typeof root.$schema === "string" ? root.$schema : "";
  if (declared.includes("2020-12")) return "2020-12";
  if (declared.includes("draft-07")) return "draft-07";
  return container === "$defs" ? "2020-12" : "draft-07";
}

interface Ctx {
  file: string;
  dialect: Dialect;
  container: "definitions" | "$defs";
  defs: Record<string, unknown>;
  /** 2020-12: each `$anchor`/`$dynamicAnchor` name a definition carries on itself → that definition. */
  anchors: Map<string, string>;
}

/** The anchors (`$anchor`, `$dynamicAnchor`) definitions carry on themselves, by name. */
function anchorsOf(defs: Record<string, unknown>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, def] of Object.entries(defs)) {
    if (typeof def !== "object" || def === null) continue;
    for (const k of ["$anchor", "$dynamicAnchor"]) {
      const anchor = (def as Record<string, unknown>)[k];
      if (typeof anchor === "string") out.set(anchor, name);
    }
  }
  return out;
}

/**
 * Bring a schema node into the loaded form (local refs as `#/$defs/Name`, `$ref` siblings settled).
 * The node was just parsed from JSON and belongs to the loader alone, so it is rewritten in place;
 * `at` is the JSON pointer path, kept as a stack for error messages.
 */
function normalizeNode(node: unknown, ctx: Ctx, at: Array<string | number>): unknown {
  if (typeof node !== "object" || node === null) return node;
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      at.push(i);
      node[i] = normalizeNode(node[i], ctx, at);
      at.pop();
    }
    return node;
  }
  const obj = node as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    // `const`, `enum`, `default` and `examples` hold data, not schemas: left as they are.
    if (DATA_KEYWORDS.has(key)) continue;
    at.push(key);
    const value = obj[key];
    if (MAP_KEYWORDS.has(key) && typeof value === "object" && value !== null && !Array.isArray(value)) {
      // A map from names to schemas: its keys are names (a property may be called `default` or `$ref`).
      const map = value as Record<string, unknown>;
      for (const name of Object.keys(map)) {
        at.push(name);
        map[name] = normalizeNode(map[name], ctx, at);
        at.pop();
      }
    } else {
      obj[key] = normalizeNode(value, ctx, at);
    }
    at.pop();
  }
  if (obj.$dynamicRef !== undefined && ctx.dialect === "2020-12") {
    // One document is one schema resource (an `$id` inside it is refused by the model), so a `$dynamicRef`
    // has one target whatever the dynamic scope: the anchor's one holder, as a `$ref` to it would.
    at.push("$dynamicRef");
    if (typeof obj.$dynamicRef !== "string") throw new InputError("expected $dynamicRef to be a string", ctx.file, pointer(...at));
    if (obj.$ref !== undefined) throw new InputError("expected $ref or $dynamicRef, not both", ctx.file, pointer(...at));
    obj.$ref = resolveRef(obj.$dynamicRef, ctx, at);
    delete obj.$dynamicRef;
    at.pop();
  } else if (typeof obj.$ref === "string") {
    at.push("$ref");
    obj.$ref = resolveRef(obj.$ref, ctx, at);
    at.pop();
  }
  if (typeof obj.$ref !== "string") return obj;

  const siblings = Object.keys(obj).filter((k) => k !== "$ref");
  if (siblings.length === 0) return obj;
  // draft-07 ignores every keyword beside $ref.
  if (ctx.dialect === "draft-07") return { $ref: obj.$ref };
  // 2020-12 applies them: annotations stay; anything that validates becomes an allOf branch.
  const validating = siblings.filter((k) => !ANNOTATION_KEYWORDS.has(k));
  if (validating.length === 0) return obj;
  const result: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  // `unevaluatedProperties`/`unevaluatedItems` stay beside the allOf: they see what the reference evaluates.
  for (const k of siblings) (ANNOTATION_KEYWORDS.has(k) || k === "unevaluatedProperties" || k === "unevaluatedItems" ? result : rest)[k] = obj[k];
  result.allOf = [{ $ref: obj.$ref }, rest];
  return result;
}

function resolveRef(ref: string, ctx: Ctx, at: Array<string | number>): string {
  const prefix = `#/${ctx.container}/`;
  // 2020-12: a plain-name fragment names an anchor; one a definition carries on itself is that definition.
  if (ctx.dialect === "2020-12" && /^#[A-Za-z_][-A-Za-z0-9._]*$/.test(ref)) {
    const held = ctx.anchors.get(ref.slice(1));
    if (held === undefined) throw new InputError(`the reference "${ref}" names no anchor a definition carries on itself ($anchor or $dynamicAnchor at a definition's root)`, ctx.file, pointer(...at));
    return `#/$defs/${held}`;
  }
  if (!ref.startsWith(prefix)) {
    throw new InputError(`expected a local reference to ${prefix}<Name>, got "${ref}"`, ctx.file, pointer(...at));
  }
  const name = unescapePointerToken(ref.slice(prefix.length));
  if (name.includes("/") || !Object.hasOwn(ctx.defs, name)) {
    throw new InputError(`dangling $ref "${ref}": no definition "${name}"`, ctx.file, pointer(...at));
  }
  return `#/$defs/${name}`;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** The definition name a loaded `$ref` points to. */
export function refName(ref: string): string {
  return ref.slice("#/$defs/".length);
}
