// The pipeline: schema folders → loaded specs → model → generated files.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { emitTree, type EmitOptions, type GeneratedFiles } from "./emit/index.js";
import { InputError } from "./errors.js";
import { buildVersionModel } from "./model/build.js";
import { readOverrides } from "./model/overrides.js";
import type { ProtocolModel } from "./model/types.js";
import type { SpecLock } from "./spec/lock.js";
import { loadSpec } from "./spec/load.js";

export interface ModelOptions {
  /** Folder of `<label>/schema.json` folders; every such folder is a version. */
  schemasDir: string;
  /** Only these labels (default: all found). */
  versions?: string[];
  /** The lock: versions whose bytes it pins carry its spec commit in their provenance. */
  lock?: SpecLock;
  patchesDir?: string;
  overridesFile?: string;
  /** Cache folder for the type compiler's output (see `EmitOptions`); absent: no cache. */
  cacheDir?: string;
}

/** Version labels in a schemas folder: its subfolders holding a schema.json, sorted. */
export function discoverVersions(schemasDir: string): string[] {
  if (!existsSync(schemasDir)) throw new InputError("the schemas folder does not exist", schemasDir);
  return readdirSync(schemasDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(path.join(schemasDir, e.name, "schema.json")))
    .map((e) => e.name)
    .sort();
}

/** Resolve the labels to generate, failing on an empty folder or an unknown label. */
export function selectVersions(schemasDir: string, wanted?: string[]): string[] {
  const found = discoverVersions(schemasDir);
  if (found.length === 0) throw new InputError("expected at least one <version>/schema.json folder, found none", schemasDir);
  if (wanted === undefined) return found;
  const unknown = wanted.filter((v) => !found.includes(v));
  if (unknown.length > 0) {
    throw new InputError(`unknown version label${unknown.length > 1 ? "s" : ""} ${unknown.map((v) => `"${v}"`).join(", ")}; available: ${found.join(", ")}`, schemasDir);
  }
  return [...new Set(wanted)].sort();
}

export function buildModel(options: ModelOptions): ProtocolModel {
  const labels = selectVersions(options.schemasDir, options.versions);
  const overrides = options.overridesFile ? readOverrides(options.overridesFile) : [];
  const versions = labels.map((label) => {
    const spec = loadSpec(path.join(options.schemasDir, label, "schema.json"), label, { patchesDir: options.patchesDir });
    const pinned = options.lock?.versions[label]?.sha256 === spec.sha256;
    return buildVersionModel(spec, { specCommit: pinned ? options.lock!.commit : null, overrides });
  });
  return { versions };
}

export async function generateFiles(
  options: ModelOptions,
  emit: Pick<EmitOptions, "targets" | "rubyModule"> = {},
): Promise<{ model: ProtocolModel; files: GeneratedFiles }> {
  const model = buildModel(options);
  return { model, files: await emitTree(model, { cacheDir: options.cacheDir, ...emit }) };
}
