// The TypeScript side of the cross-language tests (test/emit/ruby/, test/emit/python/): each locked version's
// generated normalizers and dispatcher, a normalizer's answer and the gate's in the drivers' terms
// (`{ ok }` / `{ error }`, an error object or null), and the method names the gates are asked about.
import path from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { readLock } from "../../../generator/source/lock.js";
import { generatedDir, lockFile } from "../../support.js";

export type Normalizer = (value: unknown) => unknown;
export interface TsVersion {
  resultNormalizers: Record<string, Normalizer>;
  createServerDispatcher: (handlers: object, options?: object) => { handle(message: unknown): Promise<unknown> };
}

/** The locked labels, sorted, and each one's generated/<v>/normalizers.ts and index.ts. */
export async function tsVersions(): Promise<{ labels: string[]; modules: Map<string, TsVersion> }> {
  const labels = Object.keys((await readLock(lockFile)).versions).sort();
  const modules = new Map<string, TsVersion>();
  for (const label of labels) {
    const normalizers = await import(pathToFileURL(path.join(generatedDir, label, "normalizers.ts")).href);
    const index = await import(pathToFileURL(path.join(generatedDir, label, "index.ts")).href);
    modules.set(label, { resultNormalizers: normalizers.resultNormalizers, createServerDispatcher: index.createServerDispatcher });
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
    const index = await import(pathToFileURL(path.join(generatedDir, label, "index.ts")).href);
    modules.set(label, { ...facts, resultNormalizers: normalizers.resultNormalizers, createServerDispatcher: index.createServerDispatcher });
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

/** Method names to gate: every request of any version, two notifications, unknown names and fuzzed strings. */
export function gateNames(modules: ReadonlyMap<string, TsVersion>, seed: number): string[] {
  const known = new Set<string>();
  for (const m of modules.values()) for (const method of Object.keys(m.resultNormalizers)) known.add(method);
  return [...known, "notifications/initialized", "notifications/cancelled", "no/such", "", ...fc.sample(fc.string(), { numRuns: 40, seed })];
}

/**
 * The TypeScript dispatcher's gate for `method`: its -32601 error object when a server dispatcher with a
 * handler for every name refuses it (its METHOD_TABLE's verdict, or a notification sent as a request),
 * else null (the handler ran: a result or another error).
 */
export async function tsGate(version: TsVersion, _label: string, method: string): Promise<{ code: number; message: string } | null> {
  const everyHandler = new Proxy({}, { get: () => () => ({}) });
  const response = (await version.createServerDispatcher(everyHandler, { validateResults: false, onError: () => {} }).handle({ jsonrpc: "2.0", id: 1, method })) as { error?: { code: number; message: string } };
  return response.error?.code === -32601 ? response.error : null;
}
