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
import { emitTree, targets as shippedTargets, type EmitOptions, type GeneratedFiles, type TargetRegistry } from "./emit/index.js";
import { InputError } from "./errors.js";
import { sha256, stageFiles, type FileWrite } from "./files.js";
import { proposeCapabilityEntries, unreviewedMethods } from "./model/capabilities.js";
import type { VersionModel } from "./model/types.js";
import { buildModelFromSpecs, extensionSources, reviewedInputs, stageTree, type SpecSource } from "./pipeline.js";
import { syncSchemas, type SpecLock } from "./source/lock.js";
import { applyPatches, carryPatches, formatPatchFile, patchesFor, patchFileFor, stalePatchFiles, type PatchFile } from "./source/patch.js";
import { readSchemaDocument } from "./source/load.js";
import { bumpReviewMarkdown, needsReview, reopenedReason, type BumpReview } from "./reports/bump-review.js";
import type { StagedVersion } from "./source/pin.js";
import { formatLock, stagePin, type PinOptions, type StagedPin } from "./source/pin.js";

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
  /** Target options by flag (`{ "ruby-module": "MCP::Protocol" }`), or as resolved for the run (see `EmitOptions`). */
  targetOptions?: EmitOptions["options"];
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
  /** The bump's own review items (patches carried or reopened, capability entries proposed); null without a diff. */
  review?: BumpReview | null;
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
  review?: BumpReview,
): string[] {
  const [fromLabel, fromSha] = names.from;
  const [toLabel, toSha] = names.to;
  const shown: VersionDiff = { ...diff, from: { ...diff.from, label: `${fromLabel}@${fromSha.slice(0, PREFIX)}` }, to: { ...diff.to, label: `${toLabel}@${toSha.slice(0, PREFIX)}` } };
  const md = reviewReportPath(names.label, fromSha, toSha, "md");
  files.set(md, versionDiffMarkdown(shown, { generated: { versions: [after] } }) + (review === undefined ? "" : bumpReviewMarkdown(review)));
  if (!names.json) return [md];
  const json = reviewReportPath(names.label, fromSha, toSha, "json");
  files.set(json, JSON.stringify(review === undefined ? diff : { ...diff, review }, null, 2) + "\n");
  return [md, json];
}

/**
 * Write the staged spec files (schemas/, the lock) and the tree, all or nothing: each side is staged
 * first and discarded when the other fails.
 */
export async function writeBump(opts: Pick<BumpOptions, "outDir" | "registry" | "targets">, files: GeneratedFiles, writes: FileWrite[]): Promise<void> {
  const registry = opts.registry ?? shippedTargets;
  const tree = await stageTree(opts.outDir, files, { owned: registry.owned(registry.select(opts.targets ?? registry.names)), registry });
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
  /** A rehearsal only (`dryRun`): each target's refusal, by target name (absent: it generated). */
  refusals: Map<string, InputError>;
  /** A rehearsal only: the targets tried, in order, with the number of files each generated (0 when refused). */
  tried: Array<{ target: string; files: number }>;
}

/** The old label an added version is reviewed against: the newest old label before it, else the newest. */
function baseLabel(previous: SpecLock, label: string): string | null {
  const labels = Object.keys(previous.versions).sort();
  const before = labels.filter((l) => l < label);
  return before.at(-1) ?? labels.at(-1) ?? null;
}

/** The reviewed patches a bump carries: the files to stage, each version's outcomes, the old files it retires. */
interface Carry {
  staged: Map<string, PatchFile>;
  byVersion: Map<string, BumpReview["patches"]>;
  /** Old patch files whose bytes are no longer pinned and whose every patch was carried: deleted by the bump. */
  retired: string[];
}

/**
 * Carry the reviewed patches of each changed version's old bytes (of an added version's base) to its
 * new bytes: every patch whose own `test` operations hold there (tested as loading applies them, after
 * any the new bytes' own file already has) goes into the new bytes' patch file, which the bump writes
 * beside the schema; the others are reopened. Patches of bytes the new lock no longer pins, all of
 * them carried, leave with their file.
 */
function carryReviewedPatches(patchesDir: string, previous: SpecLock, lock: SpecLock, versions: readonly StagedVersion[], bases: Map<string, string | null>): Carry {
  const staged = new Map<string, PatchFile>();
  const byVersion = new Map<string, BumpReview["patches"]>();
  const name = (sha: string) => path.basename(patchFileFor(patchesDir, sha));
  const fullyCarried = new Map<string, boolean>();
  for (const s of versions) {
    const base = s.status === "added" ? (bases.get(s.version) ?? null) : s.status === "changed" ? s.version : null;
    if (base === null) continue;
    const oldSha = previous.versions[base].sha256;
    const newSha = s.schema.sha256;
    const old = patchesFor(patchesDir, oldSha);
    if (old === null) {
      byVersion.set(s.version, { from: null, to: null, outcomes: [] });
      continue;
    }
    // What the new bytes' own reviewed file (or one staged for them by another version) already applies.
    const own = staged.get(newSha)?.patches ?? patchesFor(patchesDir, newSha)?.patches ?? [];
    const doc = readSchemaDocument(s.schema.bytes, s.schema.source).root;
    if (own.length > 0) applyPatches(doc, own, patchFileFor(patchesDir, newSha), s.schema.source);
    const have = new Set(own.map((p) => p.name));
    const { carried, outcomes } = carryPatches(doc, old.patches.filter((p) => !have.has(p.name)));
    const all = old.patches.map((p) => (have.has(p.name) ? { name: p.name, status: "carried" as const } : outcomes.find((o) => o.name === p.name)!));
    if (carried.length > 0) staged.set(newSha, { sha256: newSha, patches: [...own, ...carried] });
    byVersion.set(s.version, { from: name(oldSha), to: own.length + carried.length > 0 ? name(newSha) : null, outcomes: all });
    fullyCarried.set(oldSha, (fullyCarried.get(oldSha) ?? true) && all.every((o) => o.status === "carried"));
  }
  const pinned = new Set(Object.values(lock.versions).map((v) => v.sha256));
  const retired = [...fullyCarried]
    .filter(([sha, all]) => all && !pinned.has(sha) && !staged.has(sha))
    .map(([sha]) => patchFileFor(patchesDir, sha))
    .sort();
  return { staged, byVersion, retired };
}

interface PrepareMode {
  /** Old bytes that cannot be synced fail the run (bump), or only lose their diff (pin). */
  strictOld: boolean;
  /** Write review reports into the tree with these options (bump); null: no tree options (pin). */
  withReports: BumpOptions | null;
  /** A rehearsal: nothing is synced or written (the old bytes must be synced already), each target is generated on its own and its refusal kept. */
  dryRun?: boolean;
}

async function prepare(opts: UpdateOptions, mode: PrepareMode): Promise<Prepared> {
  const { strictOld, withReports } = mode;
  const dryRun = mode.dryRun === true;
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
  if (!dryRun && mustHave.length > 0) await syncSchemas({ lock: previous, schemasDir: opts.schemasDir, specDir: opts.specDir, versions: mustHave });
  if (!dryRun && niceToHave.length > 0) {
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
  // A rehearsal syncs nothing: a version kept as it is must be there already.
  const unsynced = dryRun ? mustHave.filter((v) => !oldBytes.has(v)) : [];
  if (unsynced.length > 0) throw new InputError(`the rehearsal reads the locked schemas as synced, and ${unsynced.map(oldFile).join(", ")} ${unsynced.length > 1 ? "are" : "is"} not: run \`schemas sync\` first`);

  // The reviewed patches of the old bytes that carry to the new ones, staged so that the model is the one the bump commits.
  const carry = opts.patchesDir === undefined ? null : carryReviewedPatches(opts.patchesDir, previous, lock, staged.versions, bases);

  // The new model of every version of the new lock, and the whole tree, in memory.
  // The reviewed inputs are read once, for the new model, the old ones and the capability proposals.
  const reviewed = reviewedInputs({ overridesFile: opts.overridesFile, errataReviewedFile: opts.errataReviewedFile });
  const modelOptions = { lock, patchesDir: opts.patchesDir, reviewed, cacheDir: opts.cacheDir };
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
  const model = buildModelFromSpecs(sources, {
    ...modelOptions,
    stagedPatches: carry?.staged,
    lockFile: opts.lockFile,
    extensionSources: extensionSources(opts.schemasDir, lock, Object.keys(lock.versions)),
  });
  const emitOptions = { cacheDir: opts.cacheDir, options: withReports?.targetOptions, registry: withReports?.registry };
  const refusals = new Map<string, InputError>();
  const tried: Array<{ target: string; files: number }> = [];
  let files: GeneratedFiles;
  if (!dryRun) files = await emitTree(model, { ...emitOptions, targets: withReports?.targets });
  else {
    // Every target on its own, so that one target's refusal (a keyword its printer cannot say) does not hide another's.
    files = new Map();
    const registry = withReports?.registry ?? shippedTargets;
    for (const target of withReports?.targets ?? registry.names) {
      try {
        const own = await emitTree(model, { ...emitOptions, targets: [target] });
        tried.push({ target, files: own.size });
        // Each alone writes at the root of its own tree: keep the first's (the reports land there too).
        for (const [p, text] of own) if (!files.has(p)) files.set(p, text);
      } catch (e) {
        if (!(e instanceof InputError)) throw e;
        tried.push({ target, files: 0 });
        refusals.set(target, e);
      }
    }
  }
  const newModel = (label: string) => model.versions.find((m) => m.label === label)!;
  const oldModel = (label: string): VersionModel | null => {
    const bytes = oldBytes.get(label);
    return bytes === undefined ? null : buildModelFromSpecs([{ label, file: oldFile(label), bytes, schemaTs: onDisk(label) }], { ...modelOptions, lock: previous }).versions[0];
  };

  const capabilityData = reviewed.capabilities;
  const versions: PinnedVersion[] = [];
  const lapsedWarnings: string[] = [];
  for (const s of staged.versions) {
    const base = s.status === "added" ? (bases.get(s.version) ?? null) : s.status === "changed" ? s.version : null;
    const before = base === null ? null : oldModel(base);
    const after = newModel(s.version);
    const diff = before === null ? null : diffVersions(before, after);
    const patches = carry?.byVersion.get(s.version) ?? { from: null, to: null, outcomes: [] };
    if (s.status === "changed") {
      for (const o of patches.outcomes) {
        if (o.status === "reopened") lapsedWarnings.push(`${s.version}: reviewed patch "${o.name}" is not carried to the new bytes: ${reopenedReason(o)}; what it fixed is open again unless the spec fixed it (see the report)`);
      }
    }
    const review: BumpReview | null = diff === null ? null : { patches, capabilities: proposeCapabilityEntries(before, after, capabilityData) };
    const reports =
      withReports !== null && diff !== null && base !== null
        ? addReviewReports(files, diff, after, { label: s.version, from: [base, previous.versions[base].sha256], to: [s.version, s.schema.sha256], json: withReports.json === true }, review ?? undefined)
        : [];
    versions.push({ version: s.version, status: s.status, previousSha256: s.previousSha256, sha256: s.schema.sha256, source: s.schema.source, diff, base: s.status === "added" ? base : null, reports, review });
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
  // The carried patches, keyed to the new bytes, and the old files they all left.
  if (carry !== null && opts.patchesDir !== undefined) {
    for (const [sha, file] of [...carry.staged].sort(([a], [b]) => (a < b ? -1 : 1))) writes.push({ file: patchFileFor(opts.patchesDir, sha), bytes: formatPatchFile(file) });
    for (const file of carry.retired) writes.push({ file, bytes: null });
  }
  writes.push({ file: opts.lockFile, bytes: formatLock(lock) });
  // A method the bump brings that the reviewed per-method data has no entry for: a finding naming the file to edit.
  const moved = model.versions.filter((v) => staged.versions.some((s) => s.version === v.label));
  const unreviewed = unreviewedMethods(moved, capabilityData).map(
    (m) => `${m.replace(" ", ': method "')}" has no reviewed capability entry: add { "requires": [...], "reason": "..." } for it to schemas/method-capabilities.json (its test fails until then)`,
  );
  const lapsed = lapsedPatches(opts.patchesDir, previous, lock, new Set([...(carry?.retired ?? [])]), new Set([...(carry?.staged.keys() ?? [])]));
  return { staged: { ...staged, warnings: [...staged.warnings, ...lapsedWarnings, ...lapsed, ...unreviewed] }, files, versions, writes, refusals, tried };
}

/** A warning per reviewed patch file that applied to the old lock's bytes and applies to none of the new (nor leaves with the bump). */
function lapsedPatches(patchesDir: string | undefined, previous: SpecLock, lock: SpecLock, retired: Set<string>, stagedShas: Set<string>): string[] {
  if (patchesDir === undefined) return [];
  const shas = (l: SpecLock) => Object.values(l.versions).map((v) => v.sha256);
  const before = new Set(stalePatchFiles(patchesDir, shas(previous)));
  const staged = new Set([...stagedShas].map((sha) => patchFileFor(patchesDir, sha)));
  return stalePatchFiles(patchesDir, shas(lock))
    .filter((f) => !before.has(f) && !retired.has(f) && !staged.has(f))
    .map((f) => `${f} no longer applies: the bytes it was reviewed against are no longer pinned and not all of its patches carry to the new ones (see the review reports); review it against the new bytes or delete it`);
}

/** `schemas pin`: check that the new spec generates, then write schemas/ and the lock (not the tree). */
export async function pinLock(opts: UpdateOptions): Promise<PinResult> {
  const { staged, versions, writes } = await prepare(opts, { strictOld: false, withReports: null });
  const files = await stageFiles(writes);
  await files.commit();
  return { previousCommit: staged.previous.commit, lock: staged.lock, versions, warnings: staged.warnings, files: 0 };
}

/** `bump`: pin, regenerate and write a review report per changed or added version, all or nothing. */
export async function bump(opts: BumpOptions): Promise<PinResult> {
  const { staged, files, versions, writes } = await prepare(opts, { strictOld: true, withReports: opts });
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

// ---- a rehearsal: what a bump would do, writing nothing ----

/** A target of a rehearsal: generated, or refused with the InputError its printer threw. */
export interface RehearsedTarget {
  target: string;
  /** Files the target would write (0 when refused). */
  files: number;
  refusal: { message: string; file: string | null; pointer: string | null } | null;
}

export interface Rehearsal extends PinResult {
  targets: RehearsedTarget[];
  /** Whether anything needs a person before the bump goes in cleanly (see `rehearsalNeedsReview`). */
  needsReview: boolean;
}

/**
 * Errata a version's diff leaves open for review: brought open, or changed to open (a patch that did
 * not carry). Those that are gone or stay fixed need nothing.
 */
function openedErrata(diff: VersionDiff | null) {
  return (diff?.errata.changes ?? []).filter((e) => e.to === "open");
}

/**
 * Whether a rehearsal has review items: a target that refuses, a reviewed patch reopened, an erratum
 * left open, or a method without a reviewed capability entry.
 */
function rehearsalNeedsReview(targets: readonly RehearsedTarget[], versions: readonly PinnedVersion[]): boolean {
  return targets.some((t) => t.refusal !== null) || versions.some((v) => openedErrata(v.diff).length > 0 || (v.review != null && needsReview(v.review)));
}

/**
 * `bump --dry-run`: everything `bump` reads, checks and builds (the new spec staged, every version's
 * model, each target generated on its own, the review of every changed or added version), and nothing
 * written: not schemas/, the lock, the patches nor the tree; nothing is synced either (the locked
 * schemas must be synced already) and no cache is written. A target whose printer refuses the new spec
 * is listed with its InputError, not thrown; bad input elsewhere (the spec folder, a schema that cannot
 * be loaded) throws as `bump` does.
 */
export async function rehearseBump(opts: BumpOptions): Promise<Rehearsal> {
  const { staged, files, versions, refusals, tried } = await prepare({ ...opts, cacheDir: undefined }, { strictOld: true, withReports: { ...opts, json: false }, dryRun: true });
  const targets = tried.map(({ target, files: count }): RehearsedTarget => {
    const e = refusals.get(target);
    return { target, files: count, refusal: e === undefined ? null : { message: e.message, file: e.file ?? null, pointer: e.pointer ?? null } };
  });
  return { previousCommit: staged.previous.commit, lock: staged.lock, versions, warnings: staged.warnings, files: files.size, targets, needsReview: rehearsalNeedsReview(targets, versions) };
}

/** A rehearsal for people: per version what changes, what the review needs, and per target whether it generates. */
export function rehearsalSummary(r: Rehearsal): string {
  const lines = [`rehearsal (nothing written): lock commit ${r.previousCommit} → ${r.lock.commit}`];
  const list = (title: string, items: string[]) => {
    if (items.length > 0) lines.push(`    ${title}:`, ...items.map((i) => `      ${i}`));
  };
  for (const v of r.versions) {
    if (v.status === "unchanged") {
      lines.push(`  ${v.version}: unchanged`);
      continue;
    }
    const against = v.status === "added" ? `new version, against ${v.base ?? "nothing"}` : "changed";
    lines.push(`  ${v.version}: ${against} (sha256 ${v.previousSha256 ?? "—"} → ${v.sha256})`);
    const own = r.lock.versions[v.version]?.commit;
    if (own !== undefined) lines.push(`    pinned at its own commit ${own}`);
    const d = v.diff;
    if (d === null) {
      lines.push("    no diff: the old bytes are not synced");
      continue;
    }
    const methods = (change: string) => d.methods.filter((m) => m.change === change).map((m) => `${m.method} (${m.kind} sent by ${m.sender === "both" ? "both sides" : `the ${m.sender}`})`);
    list("new methods", [...new Set(methods("added"))]);
    list("removed methods", [...new Set(methods("removed"))]);
    list("new definitions", d.definitions.filter((x) => x.change === "added").map((x) => x.definition));
    list("removed definitions", d.definitions.filter((x) => x.change === "removed").map((x) => x.definition));
    list("breaking changes", [
      ...d.methods.filter((m) => m.breaking).map((m) => `${m.method}: ${m.change}: ${m.reason}`),
      ...d.normalizers.filter((n) => n.breaking).map((n) => `${n.method} normalizer: ${n.reason}`),
      ...d.definitions.flatMap((x) => (x.change === "changed" ? x.properties.filter((p) => p.breaking).map((p) => `${x.definition}${p.property === null ? "" : `.${p.property}`}: ${p.change}: ${p.reason}`) : x.breaking ? [`${x.definition}: ${x.change}: ${x.reason}`] : [])),
    ]);
    list(
      "errata",
      d.errata.changes.map((e) => `${e.change} ${e.kind} at ${e.pointer}: ${e.from ?? "—"} → ${e.to ?? "—"}`),
    );
    const review = v.review;
    if (review != null) {
      list("patches carried", review.patches.outcomes.filter((o) => o.status === "carried").map((o) => `${o.name} (${review.patches.from} → ${review.patches.to})`));
      list("patches reopened", review.patches.outcomes.flatMap((o) => (o.status === "reopened" ? [`${o.name}: ${reopenedReason(o)}`] : [])));
      list("capability entries to add to schemas/method-capabilities.json (PROPOSED, review each)", review.capabilities.map((p) => `"${p.method}": ${JSON.stringify(p.entry)}`));
    }
  }
  lines.push("targets:");
  for (const t of r.targets) {
    if (t.refusal === null) lines.push(`  ${t.target}: generates (${t.files} files)`);
    else lines.push(`  ${t.target}: REFUSES: ${t.refusal.message}`);
  }
  lines.push(r.needsReview ? "the bump needs review (the items above) before it goes in cleanly" : "the bump would go in cleanly");
  return lines.join("\n") + "\n";
}
