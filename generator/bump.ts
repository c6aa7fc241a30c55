// Moving to a new spec, end to end: `schemas pin` (lock + schemas) and `bump` (lock + schemas +
// generated tree + review reports). Both read and verify the new spec, build the model of every
// version and emit the whole tree in memory before writing anything, so a spec that cannot be
// generated is refused with the lock, schemas/ and generated/ untouched. The review report of a
// changed version compares the old bytes (still synced in schemas/ at that moment) with the new.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { diffVersions, type VersionDiff } from "./diff/version.js";
import { versionDiffMarkdown } from "./reports/diff-markdown.js";
import { emitTree, targets as shippedTargets, type GeneratedFiles, type TargetRegistry } from "./emit/index.js";
import { InputError } from "./errors.js";
import { sha256, stageFiles, type FileWrite } from "./files.js";
import { unreviewedMethods } from "./model/capabilities.js";
import type { VersionModel } from "./model/types.js";
import { methodCapabilitiesFile } from "./paths.js";
import { buildModelFromSpecs, extensionSources, type SpecSource } from "./pipeline.js";
import { syncSchemas, type SpecLock } from "./source/lock.js";
import { readMethodCapabilities } from "./source/method-capabilities.js";
import { stalePatchFiles } from "./source/patch.js";
import { formatLock, stagePin, type PinOptions, type StagedPin } from "./source/pin.js";
import { stageTree } from "./writer.js";

export interface UpdateOptions extends PinOptions {
  /** The synced schemas folder: old bytes are read from it, new bytes are written to it. */
  schemasDir: string;
  patchesDir?: string;
  overridesFile?: string;
  errataReviewedFile?: string;
  /** Where the old pinned bytes come from when they are not synced yet (as for `schemas sync`). */
  specDir?: string;
  /** Type compiler cache (see `EmitOptions`). */
  cacheDir?: string;
}

export interface BumpOptions extends UpdateOptions {
  /** The targets the tree holds, by name (default: every target); files of the others are kept as they are. */
  targets?: readonly string[];
  /** Target options by flag (`{ "ruby-module": "MCP::Protocol" }`). */
  targetOptions?: Readonly<Record<string, string>>;
  /** The targets to choose from (default: the shipped ones). */
  registry?: TargetRegistry;
  /** The generated tree to replace (generated/). */
  outDir: string;
  /** Also write each review report as JSON (`--format json`). */
  json?: boolean;
}

export interface PinnedVersion {
  version: string;
  status: "unchanged" | "changed" | "added";
  /** The locked sha256 before, or null for an added version. */
  previousSha256: string | null;
  sha256: string;
  /** Where the new bytes came from (a file or an address). */
  source: string;
  /**
   * Old model → new model: for a changed version, its own old bytes; for an added one, the old
   * version it is compared with (`base`). Null when the old bytes could not be obtained (pin only).
   */
  diff: VersionDiff | null;
  /** For an added version: the old label its report compares with. */
  base: string | null;
  /** Review reports written for this version, relative to the generated tree. */
  reports: string[];
}

export interface PinResult {
  previousCommit: string;
  lock: SpecLock;
  versions: PinnedVersion[];
  warnings: string[];
  /** Files in the generated tree after a bump (0 for a pin). */
  files: number;
}

/** Length of the sha256 prefixes in report names. */
const PREFIX = 12;

/** `DIFFS/<label>@<old sha256 prefix>..<new sha256 prefix>.<ext>` */
export function reviewReportPath(label: string, oldSha: string, newSha: string, ext: "md" | "json"): string {
  return `DIFFS/${label}@${oldSha.slice(0, PREFIX)}..${newSha.slice(0, PREFIX)}.${ext}`;
}

/**
 * Add the review report of `diff` to the tree (`DIFFS/<label>@<old>..<new>.md`, and .json with `json`),
 * both sides named by label and sha256 prefix in the Markdown (the labels alone may be equal); returns
 * the report paths.
 */
export function addReviewReports(
  files: GeneratedFiles,
  diff: VersionDiff,
  after: VersionModel,
  names: { label: string; from: [string, string]; to: [string, string]; json: boolean },
): string[] {
  const [fromLabel, fromSha] = names.from;
  const [toLabel, toSha] = names.to;
  const shown: VersionDiff = { ...diff, from: { ...diff.from, label: `${fromLabel}@${fromSha.slice(0, PREFIX)}` }, to: { ...diff.to, label: `${toLabel}@${toSha.slice(0, PREFIX)}` } };
  const md = reviewReportPath(names.label, fromSha, toSha, "md");
  files.set(md, versionDiffMarkdown(shown, { generated: { versions: [after] } }));
  if (!names.json) return [md];
  const json = reviewReportPath(names.label, fromSha, toSha, "json");
  files.set(json, JSON.stringify(diff, null, 2) + "\n");
  return [md, json];
}

/**
 * Write the staged spec files (schemas/, the lock) and the tree, all or nothing: each side is staged
 * first and discarded when the other fails.
 */
export async function writeBump(opts: Pick<BumpOptions, "outDir" | "registry" | "targets">, files: GeneratedFiles, writes: FileWrite[]): Promise<void> {
  const registry = opts.registry ?? shippedTargets;
  const tree = await stageTree(opts.outDir, files, { owned: registry.owned(registry.select(opts.targets ?? registry.names)) });
  let spec;
  try {
    spec = await stageFiles(writes);
  } catch (e) {
    await tree.discard();
    throw e;
  }
  try {
    await tree.commit();
  } catch (e) {
    await spec.discard();
    throw e;
  }
  await spec.commit();
}

interface Prepared {
  staged: StagedPin;
  files: GeneratedFiles;
  versions: PinnedVersion[];
  writes: FileWrite[];
}

/** The old label an added version is reviewed against: the newest old label before it, else the newest. */
function baseLabel(previous: SpecLock, label: string): string | null {
  const labels = Object.keys(previous.versions).sort();
  const before = labels.filter((l) => l < label);
  return before.at(-1) ?? labels.at(-1) ?? null;
}

async function prepare(opts: UpdateOptions, strictOld: boolean, withReports: BumpOptions | null): Promise<Prepared> {
  const staged = await stagePin(opts);
  const { previous, lock } = staged;
  const fetched = new Map(staged.versions.map((v) => [v.version, v]));

  // The old bytes: every version kept as it is (a subset pin), every changed one and every base.
  const bases = new Map(staged.versions.filter((v) => v.status === "added").map((v) => [v.version, baseLabel(previous, v.version)]));
  const oldNeeded = new Set<string>([
    ...Object.keys(previous.versions).filter((v) => !fetched.has(v)),
    ...staged.versions.filter((v) => v.status === "changed").map((v) => v.version),
    ...[...bases.values()].filter((b): b is string => b !== null),
  ]);
  const oldFile = (v: string) => path.join(opts.schemasDir, v, "schema.json");
  const mustHave = [...oldNeeded].filter((v) => !fetched.has(v)).sort();
  const niceToHave = [...oldNeeded].filter((v) => fetched.has(v)).sort();
  if (mustHave.length > 0) await syncSchemas({ lock: previous, schemasDir: opts.schemasDir, specDir: opts.specDir, versions: mustHave });
  if (niceToHave.length > 0) {
    try {
      await syncSchemas({ lock: previous, schemasDir: opts.schemasDir, specDir: opts.specDir, versions: niceToHave });
    } catch (e) {
      if (strictOld || !(e instanceof InputError)) throw e;
    }
  }
  const oldBytes = new Map<string, Uint8Array>();
  for (const v of oldNeeded) {
    try {
      const bytes = new Uint8Array(await readFile(oldFile(v)));
      if (sha256(bytes) === previous.versions[v].sha256) oldBytes.set(v, bytes);
    } catch {
      // Not synced: no diff for it (a pin says so; a bump has already failed in the sync above).
    }
  }

  // The new model of every version of the new lock, and the whole tree, in memory.
  const modelOptions = { lock, patchesDir: opts.patchesDir, overridesFile: opts.overridesFile, errataReviewedFile: opts.errataReviewedFile, cacheDir: opts.cacheDir };
  const onDisk = (label: string) => {
    const file = path.join(opts.schemasDir, label, "schema.ts");
    return existsSync(file) ? { file } : null;
  };
  const sources: SpecSource[] = Object.keys(lock.versions).map((label) => {
    const s = fetched.get(label);
    return s !== undefined
      ? { label, file: s.schema.source, bytes: s.schema.bytes, schemaTs: s.schemaTs === null ? null : { file: s.schemaTs.source, bytes: s.schemaTs.bytes } }
      : { label, file: oldFile(label), bytes: oldBytes.get(label), schemaTs: onDisk(label) };
  });
  // The locked extensions, as synced in the schemas folder: their modules are part of the tree too.
  const model = buildModelFromSpecs(sources, { ...modelOptions, lockFile: opts.lockFile, extensionSources: extensionSources(opts.schemasDir, lock, Object.keys(lock.versions)) });
  const files = await emitTree(model, { cacheDir: opts.cacheDir, targets: withReports?.targets, options: withReports?.targetOptions, registry: withReports?.registry });
  const newModel = (label: string) => model.versions.find((m) => m.label === label)!;
  const oldModel = (label: string): VersionModel | null => {
    const bytes = oldBytes.get(label);
    return bytes === undefined ? null : buildModelFromSpecs([{ label, file: oldFile(label), bytes, schemaTs: onDisk(label) }], { ...modelOptions, lock: previous }).versions[0];
  };

  const versions: PinnedVersion[] = [];
  const lapsedWarnings: string[] = [];
  for (const s of staged.versions) {
    const base = s.status === "added" ? (bases.get(s.version) ?? null) : s.status === "changed" ? s.version : null;
    const before = base === null ? null : oldModel(base);
    const after = newModel(s.version);
    const diff = before === null ? null : diffVersions(before, after);
    if (s.status === "changed" && before !== null) {
      const lapsed = before.patches.filter((p) => !after.patches.includes(p));
      if (lapsed.length > 0) lapsedWarnings.push(`${s.version}: reviewed patch ${lapsed.map((p) => `"${p}"`).join(", ")} applied to the old bytes and does not apply to the new ones; what it fixed is open again unless the spec fixed it (see the report)`);
    }
    const reports =
      withReports !== null && diff !== null && base !== null
        ? addReviewReports(files, diff, after, { label: s.version, from: [base, previous.versions[base].sha256], to: [s.version, s.schema.sha256], json: withReports.json === true })
        : [];
    versions.push({ version: s.version, status: s.status, previousSha256: s.previousSha256, sha256: s.schema.sha256, source: s.schema.source, diff, base: s.status === "added" ? base : null, reports });
  }

  // schemas/<v>/schema.json and schema.ts where they differ from what is there, then the lock.
  const writes: FileWrite[] = [];
  for (const s of staged.versions) {
    for (const f of [s.schema, s.schemaTs]) {
      if (f === null) continue;
      const target = path.join(opts.schemasDir, s.version, path.basename(f.path));
      let current: string | null = null;
      try {
        current = sha256(await readFile(target));
      } catch {
        current = null;
      }
      if (current !== f.sha256) writes.push({ file: target, bytes: f.bytes });
    }
    // A version now pinned without schema.ts (a revision given as JSON only) keeps no stale copy.
    if (s.schemaTs === null) writes.push({ file: path.join(opts.schemasDir, s.version, "schema.ts"), bytes: null });
  }
  writes.push({ file: opts.lockFile, bytes: formatLock(lock) });
  // A method the bump brings that the reviewed per-method data has no entry for: a finding naming the file to edit.
  const moved = model.versions.filter((v) => staged.versions.some((s) => s.version === v.label));
  const unreviewed = unreviewedMethods(moved, readMethodCapabilities(methodCapabilitiesFile)).map(
    (m) => `${m.replace(" ", ': method "')}" has no reviewed capability entry: add { "requires": [...], "reason": "..." } for it to schemas/method-capabilities.json (its test fails until then)`,
  );
  return { staged: { ...staged, warnings: [...staged.warnings, ...lapsedWarnings, ...lapsedPatches(opts.patchesDir, previous, lock), ...unreviewed] }, files, versions, writes };
}

/** A warning per reviewed patch file that applied to the old lock's bytes and applies to none of the new. */
function lapsedPatches(patchesDir: string | undefined, previous: SpecLock, lock: SpecLock): string[] {
  if (patchesDir === undefined) return [];
  const shas = (l: SpecLock) => Object.values(l.versions).map((v) => v.sha256);
  const before = new Set(stalePatchFiles(patchesDir, shas(previous)));
  return stalePatchFiles(patchesDir, shas(lock))
    .filter((f) => !before.has(f))
    .map((f) => `${f} no longer applies: the bytes it was reviewed against are no longer pinned, so the errata it fixed are open again (see the review reports); review it against the new bytes or delete it`);
}

/** `schemas pin`: check that the new spec generates, then write schemas/ and the lock (not the tree). */
export async function pinLock(opts: UpdateOptions): Promise<PinResult> {
  const { staged, versions, writes } = await prepare(opts, false, null);
  const files = await stageFiles(writes);
  await files.commit();
  return { previousCommit: staged.previous.commit, lock: staged.lock, versions, warnings: staged.warnings, files: 0 };
}

/** `bump`: pin, regenerate and write a review report per changed or added version, all or nothing. */
export async function bump(opts: BumpOptions): Promise<PinResult> {
  const { staged, files, versions, writes } = await prepare(opts, true, opts);
  await writeBump(opts, files, writes);
  return { previousCommit: staged.previous.commit, lock: staged.lock, versions, warnings: staged.warnings, files: files.size };
}

/** What a pin or bump changed, in a few lines for people. */
export function pinSummary(result: PinResult): string {
  const lines = [`lock: commit ${result.previousCommit} → ${result.lock.commit}`];
  for (const v of result.versions) {
    const counts = (d: VersionDiff) => {
      const s = d.summary;
      return (
        `methods +${s.methods.added} -${s.methods.removed} ~${s.methods.changed}, normalizers ~${s.normalizers.changed}, ` +
        `definitions +${s.definitions.added} -${s.definitions.removed} ~${s.definitions.changed}; ${s.breaking} breaking, ${s.nonBreaking} not`
      );
    };
    const own = result.lock.versions[v.version]?.commit;
    if (own !== undefined && v.status !== "unchanged") lines.push(`  ${v.version}: pinned at its own commit ${own}`);
    if (v.status === "unchanged") lines.push(`  ${v.version}: unchanged`);
    else if (v.status === "added") lines.push(`  ${v.version}: new version (sha256 ${v.sha256})${v.diff !== null ? `, against ${v.base}: ${counts(v.diff)}` : ""}`);
    else if (v.diff === null) lines.push(`  ${v.version}: changed (sha256 ${v.previousSha256} → ${v.sha256}); the old schema was not synced, so no diff`);
    else lines.push(`  ${v.version}: changed (sha256 ${v.previousSha256} → ${v.sha256}): ${counts(v.diff)}`);
    for (const r of v.reports) lines.push(`    report: ${r}`);
  }
  return lines.join("\n") + "\n";
}
