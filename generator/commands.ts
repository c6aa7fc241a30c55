// The commands of mcp-codegen as library functions: generate, check, diff, errata, table and schemas
// sync, with the project's defaults (schemas/, the lock, generated/, the targets it configures) applied
// here, once. They never print or exit: each returns what happened, and the CLI (cli.ts) parses the
// arguments, calls one of them and prints the result. `schemas pin` and `bump` are bump.ts's and
// extension-bump.ts's; `ownLockFile` gives them the project's own lock.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { apiDiffMarkdown, versionDiffMarkdown } from "./reports/diff-markdown.js";
import { diffGeneratedTrees } from "./diff/api.js";
import { resolveTargetOptions, targets as shippedTargets, type TargetOptionValues, type TargetRegistry } from "./emit/index.js";
import type { Target } from "./emit/target.js";
import { methodTableJson, methodTableMarkdown } from "./emit/method-table.js";
import { InputError, UsageError } from "./errors.js";
import { checkFingerprint, recordFingerprint, type FingerprintInputs } from "./fingerprint.js";
import type { VersionModel } from "./model/types.js";
import type { UpdateOptions } from "./bump.js";
import type { ProjectPaths } from "./paths.js";
import { buildModel, diffLabels, generateFiles, writeTree } from "./pipeline.js";
import { errataJson, errataMarkdown } from "./reports/errata-markdown.js";
import { syncExtensions } from "./source/extensions.js";
import { discoverVersions } from "./source/folders.js";
import { readLock, syncSchemas, type SpecLock, type SyncedVersion } from "./source/lock.js";
import { stalePatchFiles } from "./source/patch.js";
import { checkTree, keptAsIs, type StaleFile } from "./writer.js";

/** Where a command reads the spec from. Absent paths take the project's defaults. */
export interface SpecInputs {
  /** The project the defaults come from (`projectPaths(cwd)`). */
  project: ProjectPaths;
  /** A schemas folder of one's own (its lock optional); absent: the project's lock-managed folder, synced first. */
  schemasDir?: string;
  /** The lock (default: the project's). */
  lockFile?: string;
  /** Where sync finds a pinned file missing from the schemas folder (absent: downloaded). */
  specDir?: string;
  /** Where sync finds the locked extensions' files (absent: `mcp-extensions` beside `specDir` when there, else downloaded). */
  extensionsDir?: string;
  /** Told what each sync found, as soon as it is done (before the command goes on). */
  onSynced?: (results: SyncedVersion[]) => void;
}

/**
 * Whether a run reads the spec shipped inside the tool (the project has no schemas/lock.json and
 * neither a lock nor a schemas folder is given): verified, never written.
 */
function shippedSpec(o: SpecInputs): boolean {
  return o.project.embeddedSpec && o.lockFile === undefined && o.schemasDir === undefined;
}

/** The extensions folder sync reads: as given, else `mcp-extensions` beside the spec folder when that exists (an offline layout such as ../shared), else none. */
export function extensionsDirOf(o: Pick<SpecInputs, "extensionsDir" | "specDir">): string | undefined {
  if (o.extensionsDir !== undefined) return o.extensionsDir;
  const beside = o.specDir === undefined ? undefined : path.join(path.dirname(o.specDir), "mcp-extensions");
  return beside !== undefined && existsSync(beside) ? beside : undefined;
}

function unknownLabels(labels: readonly string[], known: readonly string[], where: string): void {
  const unknown = labels.filter((l) => !known.includes(l));
  if (unknown.length > 0) {
    throw new InputError(`unknown version label${unknown.length > 1 ? "s" : ""} ${unknown.map((v) => `"${v}"`).join(", ")}; available: ${[...known].sort().join(", ")}`, where);
  }
}

/** The project's own lock for a command that writes it (bump, schemas pin): `lockFile` as given, never the one shipped inside the tool. */
export function ownLockFile(project: ProjectPaths, lockFile?: string): string {
  if (lockFile !== undefined) return lockFile;
  if (project.embeddedSpec) {
    const own = path.join(project.root, "schemas", "lock.json");
    throw new InputError(`cannot read the lock file (ENOENT): bump and schemas pin move a project's own lock; start one by copying ${project.lockFile} (and the pinned files beside it)`, own);
  }
  return project.lockFile;
}

/**
 * The targets of a run: `names`, else the project's own choice (`"mcp-codegen": { "targets": [...] }`
 * in its package.json), else the registry's first target alone.
 */
export function selectTargets(project: ProjectPaths, names?: readonly string[], registry: TargetRegistry = shippedTargets): Target[] {
  const known = (t: string) => registry.get(t) !== undefined;
  if (names !== undefined) {
    for (const t of names) if (!known(t)) throw new UsageError(`unknown --target "${t}"; expected: ${registry.names.join(", ")}`);
    return registry.select(names);
  }
  const pkgFile = path.join(project.root, "package.json");
  let configured: unknown;
  try {
    configured = (JSON.parse(readFileSync(pkgFile, "utf8")) as { "mcp-codegen"?: { targets?: unknown } })["mcp-codegen"]?.targets;
  } catch {
    configured = undefined;
  }
  if (configured === undefined) return registry.targets.slice(0, 1);
  if (!Array.isArray(configured) || configured.length === 0 || configured.some((t) => typeof t !== "string" || !known(t))) {
    throw new InputError(`expected a non-empty array of targets (${registry.names.join(", ")})`, pkgFile, "/mcp-codegen/targets");
  }
  return registry.select(configured as string[]);
}

/** The targets of a run and their options, resolved once (see `selectTargets`, `resolveTargetOptions`). */
export interface TargetSelection {
  targets: Target[];
  options: TargetOptionValues;
}

/** `targets` (names; absent: the project's) and the target options given by spelling, checked and defaulted. */
export function resolveTargets(project: ProjectPaths, targets: readonly string[] | undefined, given: Readonly<Record<string, string>>, registry: TargetRegistry = shippedTargets): TargetSelection {
  const selected = selectTargets(project, targets, registry);
  return { targets: selected, options: resolveTargetOptions(given, selected, registry) };
}

/**
 * The schemas folder and lock a command works on: `schemasDir` as given (its lock optional), else the
 * project's lock-managed folder, synced first (verified; read-only for the spec shipped with the tool) for
 * `versions` (every locked one when undefined; a label the lock lacks is an error), with the locked
 * extensions when `extensions`.
 */
export async function readSchemas(
  o: SpecInputs,
  options: { versions?: readonly string[]; extensions?: boolean } = {},
): Promise<{ schemasDir: string; lockFile: string; lock: SpecLock | undefined; schemasGiven: boolean; synced: SyncedVersion[] }> {
  const schemasGiven = o.schemasDir !== undefined;
  const schemasDir = o.schemasDir ?? o.project.schemasDir;
  const lockFile = o.lockFile ?? o.project.lockFile;
  const lock = schemasGiven ? await readLock(lockFile).catch(() => undefined) : await readLock(lockFile);
  const synced: SyncedVersion[] = [];
  if (!schemasGiven) {
    if (options.versions) unknownLabels(options.versions, Object.keys(lock!.versions), lockFile);
    const readOnly = shippedSpec(o);
    synced.push(...(await syncSchemas({ lock: lock!, schemasDir, specDir: o.specDir, versions: options.versions ? [...options.versions] : undefined, readOnly })));
    if (options.extensions) synced.push(...(await syncExtensions({ lock: lock!, schemasDir, extensionsDir: extensionsDirOf(o), readOnly })));
    o.onSynced?.(synced);
  }
  return { schemasDir, lockFile, lock, schemasGiven, synced };
}

/** `schemas sync`: check the lock-managed folder (schemas and extensions) against the lock and fill what is missing. */
export async function syncSpec(o: SpecInputs & { versions?: string[] }): Promise<SyncedVersion[]> {
  const lock = await readLock(o.lockFile ?? o.project.lockFile);
  const schemasDir = o.schemasDir ?? o.project.schemasDir;
  const readOnly = shippedSpec(o);
  const core = await syncSchemas({ lock, schemasDir, specDir: o.specDir, versions: o.versions, readOnly });
  return [...core, ...(await syncExtensions({ lock, schemasDir, extensionsDir: extensionsDirOf(o), coreVersions: o.versions, readOnly }))];
}

export interface GenerateOptions extends SpecInputs {
  /** The output folder (default: the project's generated/, or the one target's folder of it). */
  outDir?: string;
  /** Only these labels. Into the project's own tree (no `outDir`), the others' folders are kept as they are. */
  versions?: string[];
  /** The targets by name (default: the project's choice, else the first). */
  targets?: readonly string[];
  /** Target options by spelling (a flag or its deprecated alias). */
  targetOptions?: Readonly<Record<string, string>>;
  /** The cache folder (templates, schema.ts facts, errata, the whole-tree fingerprint); absent: no cache. */
  cacheDir?: string;
  /** The targets to choose from (default: the shipped ones). */
  registry?: TargetRegistry;
}

/** What `generate` or `check` did. `versions`: the models generated; `kept`: the version folders left as they were. */
export interface GenerateResult {
  outDir: string;
  synced: SyncedVersion[];
  /** Files generated (or, for a check that took the fingerprint, files on record). */
  files: number;
  /** Versions generated (or on record). */
  versionCount: number;
  versions: VersionModel[];
  kept: string[];
}

/** What `check` found: up to date (`fast`: by the fingerprint of the last generation, without generating), or the stale files. */
export type CheckResult = GenerateResult & ({ status: "up-to-date"; fast: boolean } | { status: "stale"; stale: StaleFile[] });

/** Everything generate and check share: the inputs synced, the output scope, the fingerprint's inputs. */
async function prepare(o: GenerateOptions) {
  const registry = o.registry ?? shippedTargets;
  const { project } = o;
  const selection = resolveTargets(project, o.targets, o.targetOptions ?? {}, registry);
  const selected = selection.targets;
  const emit = { targets: selected.map((t) => t.name), options: selection.options };
  const lockFile = o.lockFile ?? project.lockFile;
  const versions = o.versions;
  const outGiven = o.outDir !== undefined;
  const schemasGiven = o.schemasDir !== undefined;
  const schemasDir = o.schemasDir ?? project.schemasDir;
  const lock = schemasGiven && o.lockFile === undefined ? await readLock(lockFile).catch(() => undefined) : await readLock(lockFile);
  let synced: Set<string> | undefined;
  const syncResults: SyncedVersion[] = [];
  if (!schemasGiven) {
    // The default folder is lock-managed: fetch what is missing before generating.
    if (versions) unknownLabels(versions, Object.keys(lock!.versions), lockFile);
    // Into a tree of its own (an outDir) only the chosen versions are needed; the project's tree names them all.
    const needed = versions !== undefined && outGiven ? versions : undefined;
    const readOnly = shippedSpec(o);
    const results = await syncSchemas({ lock: lock!, schemasDir, specDir: o.specDir, versions: needed, readOnly });
    const extensions = await syncExtensions({ lock: lock!, schemasDir, extensionsDir: extensionsDirOf(o), coreVersions: needed, readOnly });
    syncResults.push(...results, ...extensions);
    o.onSynced?.(syncResults);
    synced = new Set(results.map((r) => r.version));
  }
  // A target alone is the whole output folder: by default, its own folder of the project's tree.
  const outDir = o.outDir ?? (selected.length === 1 ? path.join(project.outDir, selected[0].folder) : project.outDir);
  // Version folders are the root tree's.
  const rootTree = selected.some((t) => t.folder === "");
  const all = discoverVersions(schemasDir);
  if (versions) unknownLabels(versions, all, schemasDir);
  // Versions into the project's own tree: every version is generated (the shared files name them all)
  // and only the chosen ones' folders are replaced; the others stay as they are on disk.
  const others = versions !== undefined && !outGiven && rootTree ? new Set(all.filter((v) => !versions.includes(v))) : new Set<string>();
  const byTarget = registry.owned(selected);
  const scope = { owned: (rel: string) => byTarget(rel) && !others.has(rel.split("/")[0]), registry };
  const chosen = others.size > 0 ? undefined : versions;
  const modelOptions = {
    schemasDir,
    versions: chosen,
    lock,
    lockFile,
    patchesDir: project.patchesDir,
    overridesFile: project.overridesFile,
    errataReviewedFile: project.errataReviewedFile,
    cacheDir: o.cacheDir,
  };
  const fingerprint: FingerprintInputs | undefined =
    o.cacheDir !== undefined ? { ...modelOptions, cacheDir: o.cacheDir, labels: chosen ?? all, kept: [...others].sort(), synced, emit, targets: selected } : undefined;
  const kept = [...others].sort();
  const base = { outDir, synced: syncResults, kept };
  const generateTree = async () => {
    const { model, files } = await generateFiles(modelOptions, { ...emit, registry });
    // The versions kept as they are: their freshly generated files are set aside, the disk's kept.
    for (const rel of [...files.keys()]) if (others.has(rel.split("/")[0])) files.delete(rel);
    return { model, files };
  };
  return { base, scope, fingerprint, others, generateTree };
}

/** `generate --check`: whether the output folder holds exactly what generate would write. Writes nothing but the cache. */
export async function check(o: GenerateOptions): Promise<CheckResult> {
  const { base, scope, fingerprint, generateTree } = await prepare(o);
  if (fingerprint !== undefined) {
    const fast = await checkFingerprint(base.outDir, fingerprint, (rel) => keptAsIs(rel, scope));
    if (fast !== null) return { ...base, status: "up-to-date", fast: true, files: fast.files, versionCount: fast.versions, versions: [] };
  }
  const { model, files } = await generateTree();
  const versionCount = model.versions.length;
  const result = { ...base, files: files.size, versionCount, versions: model.versions };
  const stale = await checkTree(base.outDir, files, scope);
  if (stale.length > 0) return { ...result, status: "stale", stale };
  if (fingerprint !== undefined) await recordFingerprint(base.outDir, fingerprint, files, versionCount);
  return { ...result, status: "up-to-date", fast: false };
}

/** `generate`: write the tree (atomically; review reports and the folders of `kept` versions stay as they are). */
export async function generate(o: GenerateOptions): Promise<GenerateResult> {
  const { base, scope, fingerprint, others, generateTree } = await prepare(o);
  const { model, files } = await generateTree();
  await writeTree(base.outDir, files, scope);
  const versionCount = model.versions.length;
  if (fingerprint !== undefined) await recordFingerprint(base.outDir, fingerprint, files, versionCount);
  return { ...base, files: files.size, versionCount, versions: model.versions.filter((v) => !others.has(v.label)) };
}

/** `diff <from> <to>`: two versions' models compared, as Markdown or JSON text. */
export async function diffVersionsText(o: SpecInputs & { from: string; to: string; format: "md" | "json" }): Promise<string> {
  const { schemasDir, lock } = await readSchemas(o, { versions: [...new Set([o.from, o.to])] });
  const { project } = o;
  const report = diffLabels(o.from, o.to, { schemasDir, lock, patchesDir: project.patchesDir, overridesFile: project.overridesFile, errataReviewedFile: project.errataReviewedFile });
  return o.format === "json" ? JSON.stringify(report, null, 2) + "\n" : versionDiffMarkdown(report);
}

/** `diff --generated <old> <new>`: the public API of two generated trees compared, as Markdown or JSON text. */
export async function diffTreesText(o: { project: ProjectPaths; oldDir: string; newDir: string; labels: { old: string; new: string }; format: "md" | "json" }): Promise<string> {
  const report = await diffGeneratedTrees(o.oldDir, o.newDir, { labels: o.labels, projectRoot: o.project.root });
  return o.format === "json" ? JSON.stringify(report, null, 2) + "\n" : apiDiffMarkdown(report);
}

/** `errata`: where each version's schema.json and schema.ts disagree, and the patch files that apply to no pinned version; `relativeTo` shortens their paths. */
export async function errataText(o: SpecInputs & { versions?: string[]; format: "md" | "json"; relativeTo: string }): Promise<string> {
  const { project } = o;
  const { schemasDir, lock, schemasGiven } = await readSchemas(o, { versions: o.versions });
  if (o.versions) unknownLabels(o.versions, discoverVersions(schemasDir), schemasDir);
  const model = buildModel({ schemasDir, versions: o.versions, lock, patchesDir: project.patchesDir, overridesFile: project.overridesFile, errataReviewedFile: project.errataReviewedFile });
  const pinned = lock !== undefined && !schemasGiven ? Object.values(lock.versions).map((v) => v.sha256) : model.versions.map((v) => v.sha256);
  const stale = stalePatchFiles(project.patchesDir, pinned).map((f) => path.relative(o.relativeTo, f));
  return o.format === "json" ? errataJson(model, stale) : errataMarkdown(model, stale);
}

/** `table`: the method table of every version and extension module (or of `versions` and their extension modules), as JSON or Markdown text. */
export async function methodTableText(o: SpecInputs & { versions?: string[]; format: "md" | "json" }): Promise<string> {
  const { project } = o;
  // Every version is read (the table's statuses compare them); `versions` picks entries afterwards.
  const { schemasDir, lock, lockFile } = await readSchemas(o, { extensions: true });
  const model = buildModel({ schemasDir, lock, lockFile, patchesDir: project.patchesDir, overridesFile: project.overridesFile, errataReviewedFile: project.errataReviewedFile });
  const cores = new Map<string, string>([...model.versions.map((v) => [v.label, v.label] as [string, string]), ...(model.extensions ?? []).map((x) => [`${x.core}+${x.name}`, x.core] as [string, string])]);
  const versions = o.versions;
  if (versions) unknownLabels(versions, [...cores.keys()], schemasDir);
  const picked = new Map([...model.tables].filter(([label]) => versions === undefined || versions.includes(label) || versions.includes(cores.get(label)!)));
  return o.format === "json" ? methodTableJson(picked) : methodTableMarkdown(picked);
}

/** What `schemas pin` and `bump` are given; absent paths take the project's defaults. */
export interface ProjectUpdate {
  lockFile?: string;
  schemasDir?: string;
  commit?: string;
  from?: string;
  versions?: string[];
  as?: string;
  specDir?: string;
  cacheDir?: string;
}

/**
 * The options of `schemas pin` and `bump` (bump.ts) in a project: its own lock (never the one shipped
 * with the tool), its schemas folder, patches, overrides and errata reviews.
 */
export function projectUpdateOptions(project: ProjectPaths, o: ProjectUpdate): UpdateOptions {
  return {
    lockFile: ownLockFile(project, o.lockFile),
    schemasDir: o.schemasDir ?? project.schemasDir,
    commit: o.commit,
    from: o.from,
    versions: o.versions,
    as: o.as,
    patchesDir: project.patchesDir,
    overridesFile: project.overridesFile,
    errataReviewedFile: project.errataReviewedFile,
    specDir: o.specDir,
    cacheDir: o.cacheDir,
  };
}
