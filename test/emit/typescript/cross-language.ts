// The TypeScript side of the cross-language tests (test/emit/ruby/, test/emit/python/): each locked version's
// generated normalizers and method table, a normalizer's answer in the drivers' terms (`{ ok }` / `{ error }`),
// and the reference normalizer every runtime's answers are held to (`referenceAnswer`: the rules of
// docs/scenarios.md's normalize kind, applied to the method table's row, run by no runtime).
import path from "node:path";
import { pathToFileURL } from "node:url";
import { readLock } from "../../../generator/source/lock.js";
import { generatedDir, lockFile } from "../../support.js";

export type Normalizer = (value: unknown) => unknown;
/** What a method table row (the model's facts, generated/<v>/methods.ts) says about a request's result. */
export interface ResultRow {
  normalizer: { shape: "empty" | "object"; resultTypes: readonly string[] | null } | null;
  results: readonly string[] | null;
  resultTypes: readonly string[] | null;
}
export interface TsVersion {
  resultNormalizers: Record<string, Normalizer>;
  /** The version's METHOD_TABLE. */
  table: Record<string, ResultRow>;
}

/** The locked labels, sorted, and each one's generated/<v>/normalizers.ts and methods.ts. */
export async function tsVersions(): Promise<{ labels: string[]; modules: Map<string, TsVersion> }> {
  const labels = Object.keys((await readLock(lockFile)).versions).sort();
  const modules = new Map<string, TsVersion>();
  for (const label of labels) {
    const normalizers = await import(pathToFileURL(path.join(generatedDir, label, "normalizers.ts")).href);
    const { METHOD_TABLE } = await import(pathToFileURL(path.join(generatedDir, label, "methods.ts")).href);
    modules.set(label, { resultNormalizers: normalizers.resultNormalizers, table: METHOD_TABLE });
  }
  return { labels, modules };
}

/** A locked extension module (`<core>+<name>`): its core version, the extension's identifier, its generated code. */
export interface TsExtensionModule extends TsVersion {
  core: string;
  identifier: string;
}

/** Every locked extension version × each locked core version it layers onto, by label, sorted: generated/<core>+<name>/. */
export async function tsExtensionModules(): Promise<Map<string, TsExtensionModule>> {
  const lock = await readLock(lockFile);
  const entries: Array<[string, { core: string; identifier: string }]> = [];
  for (const [name, ext] of Object.entries(lock.extensions ?? {})) {
    for (const version of Object.values(ext.versions)) {
      for (const core of version.core) if (Object.hasOwn(lock.versions, core)) entries.push([`${core}+${name}`, { core, identifier: ext.identifier }]);
    }
  }
  const modules = new Map<string, TsExtensionModule>();
  for (const [label, facts] of entries.sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const normalizers = await import(pathToFileURL(path.join(generatedDir, label, "normalizers.ts")).href);
    const { METHOD_TABLE } = await import(pathToFileURL(path.join(generatedDir, label, "methods.ts")).href);
    modules.set(label, { ...facts, resultNormalizers: normalizers.resultNormalizers, table: METHOD_TABLE });
  }
  return modules;
}

/** A normalizer's answer as the drivers write it: `{ ok: result as JSON }` or `{ error: { code, message } }`. */
export function tsAnswer(normalize: Normalizer, input: unknown): unknown {
  try {
    return { ok: JSON.parse(JSON.stringify(normalize(input))) };
  } catch (e) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code !== "number") throw e;
    return { error: { code, message } };
  }
}

/** The requests of a version whose results are normalized: its table's rows that name a normalizer, sorted. */
export function normalizedRequests(version: TsVersion): string[] {
  return Object.keys(version.table)
    .filter((m) => version.table[m].normalizer !== null)
    .sort();
}

const plain = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A JSON value as the -32603 messages name what a handler returned. */
function described(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return `a ${typeof v}`;
}

/**
 * What a runtime must answer for a handler's JSON return `input` to `method`, by the row's facts and the
 * normalize rules (docs/scenarios.md; test/scenarios/normalize/ states them case by case): an `empty` result
 * is `{_meta}` of an object `_meta`, else `{}`; an `object` result keeps the object's members but a non-object
 * `_meta`, and anything but an object is -32603 naming it and the results expected (the row's, joined by
 * " | "); with `resultTypes` (the modern era), an absent `resultType` is their first, one they do not list -32603.
 */
export function referenceAnswer(row: ResultRow, method: string, input: unknown): { ok: unknown } | { error: { code: number; message: string } } {
  const meta = plain(input) && plain(input._meta) ? input._meta : undefined;
  const types = row.resultTypes;
  if (row.normalizer?.shape === "empty") {
    return { ok: { ...(meta === undefined ? {} : { _meta: meta }), ...(types === null ? {} : { resultType: types[0] }) } };
  }
  const expected = (row.results ?? []).join(" | ");
  if (!plain(input)) return { error: { code: -32603, message: `Internal error: the ${method} handler returned ${described(input)}; expected ${expected}` } };
  const out = Object.fromEntries(Object.entries(input).filter(([k, v]) => k !== "_meta" || plain(v)));
  if (types !== null) {
    const given = Object.hasOwn(input, "resultType") ? input.resultType : undefined;
    if (given === undefined) out.resultType = types[0];
    else if (typeof given !== "string" || !types.includes(given)) {
      return { error: { code: -32603, message: `Internal error: the ${method} handler returned resultType ${JSON.stringify(given)}; expected ${expected} with resultType ${types.map((t) => JSON.stringify(t)).join(" or ")}` } };
    }
  }
  return { ok: out };
}
