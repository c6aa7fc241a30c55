// The pipeline: schema folders → loaded specs → model → generated files.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { emitTree, targets as shippedTargets, type EmitOptions, type GeneratedFiles } from "./emit/index.js";
import * as writer from "./writer.js";
import { buildVersionModel } from "./model/build.js";
import type { ProtocolModel, ProtocolVersions, VersionModel } from "./model/types.js";
import { diffVersions, type VersionDiff } from "./diff/version.js";
import type { SpecLock } from "./source/lock.js";
import type { StagedPatches } from "./source/patch.js";
import { selectVersions } from "./source/folders.js";
import { loadSpec, loadSpecBytes, readSchemaBytes, readSchemaDocument } from "./source/load.js";
import { erratumStatus } from "./model/errata.js";
import { Run } from "./run.js";
import { buildExtensionModel } from "./model/extensions.js";
import { extensionSchemasDir, lockedExtensions } from "./source/extensions.js";
import type { ExtensionModel, LoadedSpec } from "./model/types.js";
import { buildMethodTables } from "./model/table.js";
import { buildProtocolFacts } from "./model/protocol.js";
import { readReviewedInputs, type ReviewedInputs } from "./source/reviewed.js";
import { methodCapabilitiesFile, protocolFactsFile } from "./paths.js";

export { discoverVersions, selectVersions } from "./source/folders.js";

export interface ModelOptions {
  /** Folder of `<label>/schema.json` folders; every such folder is a version. */
  schemasDir: string;
  /** Only these labels (default: all found). */
  versions?: string[];
  /** The lock: versions whose bytes it pins carry its spec commit in their provenance. */
  lock?: SpecLock;
  patchesDir?: string;
  /** Patch files a bump is about to write into `patchesDir` (carried to new bytes), read before those there. */
  stagedPatches?: StagedPatches;
  overridesFile?: string;
  /** Errata (schema.json against schema.ts) reviewed as no defect (schemas/errata-reviewed.json). */
  errataReviewedFile?: string;
  /** Cache folder (schema.ts facts, templates); absent: no cache. */
  cacheDir?: string;
  /** The lock file, named by errors about its extension entries (default: schemas/lock.json beside the schemas). */
  lockFile?: string;
  /** Reviewed per-method capability requirements (default: the tool's schemas/method-capabilities.json). */
  methodCapabilitiesFile?: string;
  /** Reviewed protocol facts of the spec's prose (default: the tool's schemas/protocol-facts.json). */
  protocolFactsFile?: string;
  /** The reviewed inputs already read (source/reviewed.ts); absent: read from the three files above. */
  reviewed?: ReviewedInputs;
}

/** The model's reviewed inputs of these options: as given, else read once from their files. */
export function reviewedInputs(options: Pick<ModelOptions, "overridesFile" | "errataReviewedFile" | "methodCapabilitiesFile" | "protocolFactsFile" | "reviewed">): ReviewedInputs {
  return (
    options.reviewed ??
    readReviewedInputs({ overridesFile: options.overridesFile, errataReviewedFile: options.errataReviewedFile, methodCapabilitiesFile: options.methodCapabilitiesFile ?? methodCapabilitiesFile, protocolFactsFile: options.protocolFactsFile ?? protocolFactsFile })
  );
}

export function buildModel(options: ModelOptions): ProtocolModel {
  const labels = selectVersions(options.schemasDir, options.versions);
  return buildModelFromSpecs(
    labels.map((label) => {
      // The spec's TypeScript beside its schema.json, when there is one: a second input for the type printer.
      const schemaTs = path.join(options.schemasDir, label, "schema.ts");
      return { label, file: path.join(options.schemasDir, label, "schema.json"), schemaTs: existsSync(schemaTs) ? { file: schemaTs } : null };
    }),
    { ...options, extensionSources: options.lock ? extensionSources(options.schemasDir, options.lock, labels) : [] },
  );
}

/** An extension version's synced schema, for one core version. */
export interface ExtensionSource {
  name: string;
  label: string;
  core: string;
  file: string;
  bytes?: Uint8Array;
  schemaTs?: { file: string; bytes?: Uint8Array } | null;
}

/**
 * The locked extension versions layered onto the given core labels whose files are in the schemas
 * folder (`extensions/<name>/<version>/schema.json`, as `schemas sync` leaves them).
 */
export function extensionSources(schemasDir: string, lock: SpecLock, labels: readonly string[]): ExtensionSource[] {
  const out: ExtensionSource[] = [];
  for (const [name, ext] of Object.entries(lockedExtensions(lock))) {
    for (const [label, entry] of Object.entries(ext.versions)) {
      const dir = path.join(extensionSchemasDir(schemasDir, name), label);
      if (!existsSync(path.join(dir, "schema.json"))) continue;
      const ts = path.join(dir, "schema.ts");
      for (const core of entry.core) {
        if (labels.includes(core)) out.push({ name, label, core, file: path.join(dir, "schema.json"), schemaTs: existsSync(ts) ? { file: ts } : null });
      }
    }
  }
  return out;
}

/** A version's schema: its file, and its bytes when they are not (yet) on disk there. */
export interface SpecSource {
  label: string;
  file: string;
  bytes?: Uint8Array;
  /** The spec's schema.ts for the same version (its bytes when not on disk), or null when there is none. */
  schemaTs?: { file: string; bytes?: Uint8Array } | null;
}

/** The model of the given schemas (sorted by label), with the project's patches, overrides and lock. */
export function buildModelFromSpecs(
  specs: SpecSource[],
  options: Omit<ModelOptions, "schemasDir" | "versions"> & { extensionSources?: ExtensionSource[] },
): ProtocolModel {
  const { overrides, errataReviewed: reviewed, capabilities, protocolFacts } = reviewedInputs(options);
  const run = new Run(options.cacheDir);
  const loaded = new Map<string, { spec: LoadedSpec; model: VersionModel }>();
  const versions = [...specs]
    .sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0))
    .map(({ label, file, bytes: given, schemaTs }): VersionModel => {
      const bytes = given ?? readSchemaBytes(file);
      const spec = loadSpecBytes(bytes, file, label, { patchesDir: options.patchesDir, stagedPatches: options.stagedPatches });
      const locked = options.lock?.versions[label];
      const pinned = locked?.sha256 === spec.sha256;
      const ts = schemaTs ? run.schemaTs({ file: schemaTs.file, bytes: schemaTs.bytes ?? readFileSync(schemaTs.file) }) : null;
      const specTypes = ts ? run.specTypes(ts) : null;
      // The errata compare the document as published and as patched with the same schema.ts parse.
      const patched = spec.patches.length === 0 ? null : readSchemaDocument(bytes, file, { patchesDir: options.patchesDir, stagedPatches: options.stagedPatches });
      const patches = patched?.patches ?? [];
      const compared = ts
        ? run.errata(ts, { bytes, published: () => readSchemaDocument(bytes, file).root, patched: () => patched?.root ?? null, patches })
        : null;
      const model = buildVersionModel(spec, {
        specCommit: pinned ? (locked!.commit ?? options.lock!.commit) : null,
        overrides,
        specTypes,
        errata: compared && erratumStatus(compared.published, compared.patched, patches, reviewed),
      });
      loaded.set(label, { spec, model });
      return model;
    });
  const extensions: ExtensionModel[] = (options.extensionSources ?? [])
    .filter((source) => loaded.has(source.core))
    .sort((a, b) => (a.core !== b.core ? (a.core < b.core ? -1 : 1) : a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((source) => {
      const core = loaded.get(source.core)!;
      const spec = source.bytes === undefined ? loadSpec(source.file, source.label) : loadSpecBytes(source.bytes, source.file, source.label);
      const specTypes = source.schemaTs ? run.specTypes(run.schemaTs({ file: source.schemaTs.file, bytes: source.schemaTs.bytes ?? readFileSync(source.schemaTs.file) })) : null;
      const locked = lockedExtensions(options.lock)[source.name];
      return buildExtensionModel(
        core,
        { name: source.name, locked, label: source.label, spec, specTypes, lockFile: options.lockFile ?? "schemas/lock.json" },
        { specCommit: core.model.specCommit, overrides },
      );
    });
  const built: ProtocolVersions = extensions.length === 0 ? { versions } : { versions, extensions };
  const protocol = buildProtocolFacts(built, protocolFacts);
  return { ...built, tables: buildMethodTables(built, capabilities, protocol), protocol };
}

export async function generateFiles(
  options: ModelOptions,
  emit: Pick<EmitOptions, "targets" | "options" | "registry"> = {},
): Promise<{ model: ProtocolModel; files: GeneratedFiles }> {
  const model = buildModel(options);
  return { model, files: await emitTree(model, { cacheDir: options.cacheDir, ...emit }) };
}

/** Compare two version labels of a schemas folder (any labels, in the order given). */
export function diffLabels(from: string, to: string, options: Omit<ModelOptions, "versions">): VersionDiff {
  const model = buildModel({ ...options, versions: [from, to] });
  const pick = (label: string) => model.versions.find((v) => v.label === label)!;
  return diffVersions(pick(from), pick(to));
}

/**
 * Replace `outDir` with exactly `files` (see writer.ts), refusing a non-empty folder that is not a tree of
 * one of `options.registry`'s targets (default: the shipped ones).
 */
export async function writeTree(outDir: string, files: GeneratedFiles, options: writer.WriteOptions = {}): Promise<void> {
  await writer.writeTree(outDir, files, { ...options, registry: options.registry ?? shippedTargets });
}

/** Write the new tree beside `outDir` (see writer.ts), as `writeTree` would, to be committed or discarded. */
export async function stageTree(outDir: string, files: GeneratedFiles, options: writer.WriteOptions = {}): Promise<writer.StagedTree> {
  return writer.stageTree(outDir, files, { ...options, registry: options.registry ?? shippedTargets });
}
