// `bump --extensions-from DIR`: an extension bump reviewed as a version bump is. Every locked
// extension version (or those of `--extensions a,b`) is re-read from DIR (`<DIR>/<name>/<version>/` or
// a checkout's `<DIR>/<name>/schema/<version>/`), verified and staged; the core versions stay as locked
// (their synced bytes in schemas/). The whole tree is generated in memory with the new extension bytes
// before anything is written: an extension that cannot be generated is refused with the lock,
// schemas/ and the tree untouched. Each changed extension version gets, per core version it layers
// onto, a review report `DIFFS/<core>+<name>@<old sha256 prefix>..<new prefix>.md` (and .json): the
// extension module's old model against its new one.
import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { addReviewReports, writeBump, type BumpOptions, type PinnedVersion, type PinResult } from "./bump.js";
import { diffVersions, type VersionDiff } from "./diff/version.js";
import { emitTree } from "./emit/index.js";
import { InputError } from "./errors.js";
import { sha256, type FileWrite } from "./files.js";
import { extensionLabel } from "./model/extensions.js";
import type { ExtensionModel } from "./model/types.js";
import { buildModelFromSpecs, extensionSources, reviewedInputs, type ExtensionSource, type SpecSource } from "./pipeline.js";
import { readLock, syncSchemas, type SpecLock } from "./source/lock.js";
import { extensionSchemasDir, lockedExtensions, syncExtensions } from "./source/extensions.js";
import { findSpecVersions, formatLock, gitHead } from "./source/pin.js";

export interface ExtensionBumpOptions extends Omit<BumpOptions, "from" | "versions" | "as"> {
  /** The folder of extension folders holding the new bytes. */
  extensionsFrom: string;
  /** Only these extensions (names in the lock); default every locked one. */
  extensions?: string[];
  /** Where the old pinned extension bytes come from when not synced (as `schemas sync --extensions-dir`). */
  extensionsDir?: string;
}

interface StagedExtensionVersion {
  name: string;
  label: string;
  status: "unchanged" | "changed";
  previousSha256: string;
  schema: { bytes: Uint8Array; sha256: string; source: string };
  schemaTs: { bytes: Uint8Array; sha256: string; source: string } | null;
  /** The specification text the lock pins (by its file name, beside schema.json in DIR), when it pins one. */
  text: { bytes: Uint8Array; sha256: string; source: string; name: string } | null;
}

/** Read the new extension bytes and compute the new lock. Reads, hashes; never writes. */
function stageExtensions(old: SpecLock, opts: ExtensionBumpOptions): { lock: SpecLock; staged: StagedExtensionVersion[]; warnings: string[] } {
  if (opts.commit !== undefined && !/^[0-9a-f]{40}$/.test(opts.commit)) throw new InputError(`expected a 40-hex-digit commit, got "${opts.commit}"`);
  const dir = path.resolve(opts.extensionsFrom);
  const locked = lockedExtensions(old);
  const names = opts.extensions ?? Object.keys(locked).sort();
  if (names.length === 0) throw new InputError("the lock pins no extension", opts.lockFile, "/extensions");
  const unknown = names.filter((n) => !Object.hasOwn(locked, n));
  if (unknown.length > 0) throw new InputError(`the lock has no extension ${unknown.join(", ")} (locked: ${Object.keys(locked).join(", ") || "none"})`, opts.lockFile, "/extensions");
  const warnings: string[] = [];
  const staged: StagedExtensionVersion[] = [];
  const extensions = { ...locked };
  for (const name of names) {
    const folder = path.join(dir, name);
    const found = findSpecVersions(folder);
    const missing = Object.keys(locked[name].versions).filter((v) => !found.has(v)).sort();
    if (missing.length > 0) throw new InputError(`the extension folder has no schema for the locked ${name} version${missing.length > 1 ? "s" : ""} ${missing.join(", ")}`, folder);
    const head = opts.commit ?? gitHead(folder);
    if (head === null) warnings.push(`${folder} is not a git checkout and no --commit was given: ${name}'s changed versions keep their commits, so their downloads will fail the hash check; sync them with --extensions-dir ${dir}`);
    const versions = { ...locked[name].versions };
    for (const [label, entry] of Object.entries(locked[name].versions).sort(([a], [b]) => (a < b ? -1 : 1))) {
      const file = found.get(label)!;
      const bytes = new Uint8Array(readFileSync(file));
      const tsFile = path.join(path.dirname(file), "schema.ts");
      const ts = existsSync(tsFile) ? new Uint8Array(readFileSync(tsFile)) : null;
      const schema = { bytes, sha256: sha256(bytes), source: file };
      const schemaTs = ts === null ? null : { bytes: ts, sha256: sha256(ts), source: tsFile };
      // The pinned text is pinned again from the same folder: a locked text the folder lacks is refused
      // (the tests read it), never dropped.
      let text: StagedExtensionVersion["text"] = null;
      if (entry.text !== undefined) {
        const textName = path.posix.basename(entry.text.path);
        const textFile = path.join(path.dirname(file), textName);
        if (!existsSync(textFile)) throw new InputError(`the extension folder has no ${textName} beside ${name} ${label}'s schema.json (the lock pins it)`, path.dirname(file));
        const textBytes = new Uint8Array(readFileSync(textFile));
        text = { bytes: textBytes, sha256: sha256(textBytes), source: textFile, name: textName };
      }
      const changed = schema.sha256 !== entry.sha256 || (schemaTs?.sha256 ?? null) !== (entry.schemaTs?.sha256 ?? null) || (text?.sha256 ?? null) !== (entry.text?.sha256 ?? null);
      staged.push({ name, label, status: changed ? "changed" : "unchanged", previousSha256: entry.sha256, schema, schemaTs, text });
      if (!changed) continue;
      const { schemaTs: _old, text: _oldText, ...rest } = entry;
      versions[label] = {
        ...rest,
        sha256: schema.sha256,
        commit: head ?? entry.commit,
        ...(schemaTs === null ? {} : { schemaTs: { path: entry.schemaTs?.path ?? entry.path.replace(/schema\.json$/, "schema.ts"), sha256: schemaTs.sha256 } }),
        ...(text === null ? {} : { text: { path: entry.text!.path, sha256: text.sha256 } }),
      };
    }
    extensions[name] = { ...locked[name], versions };
  }
  return { lock: { ...old, extensions }, staged, warnings };
}


/** `bump --extensions-from DIR`: pin new extension bytes, regenerate, and write a review report per changed extension module; all or nothing. */
export async function bumpExtensions(opts: ExtensionBumpOptions): Promise<PinResult> {
  const previous = await readLock(opts.lockFile);
  const { lock, staged, warnings } = stageExtensions(previous, opts);
  const labels = Object.keys(lock.versions).sort();
  // The core versions as locked, and the old extension bytes (the review's "before"), synced first.
  await syncSchemas({ lock: previous, schemasDir: opts.schemasDir, specDir: opts.specDir, versions: labels });
  await syncExtensions({ lock: previous, schemasDir: opts.schemasDir, extensionsDir: opts.extensionsDir });
  const modelOptions = { patchesDir: opts.patchesDir, reviewed: reviewedInputs({ overridesFile: opts.overridesFile, errataReviewedFile: opts.errataReviewedFile }), cacheDir: opts.cacheDir, lockFile: opts.lockFile };
  const coreSources: SpecSource[] = labels.map((label) => {
    const ts = path.join(opts.schemasDir, label, "schema.ts");
    return { label, file: path.join(opts.schemasDir, label, "schema.json"), schemaTs: existsSync(ts) ? { file: ts } : null };
  });
  const byKey = new Map(staged.map((s) => [`${s.name}@${s.label}`, s]));
  const newSources: ExtensionSource[] = extensionSources(opts.schemasDir, previous, labels).map((src) => {
    const s = byKey.get(`${src.name}@${src.label}`);
    if (s === undefined || s.status === "unchanged") return src;
    return { ...src, file: s.schema.source, bytes: s.schema.bytes, schemaTs: s.schemaTs === null ? null : { file: s.schemaTs.source, bytes: s.schemaTs.bytes } };
  });
  const model = buildModelFromSpecs(coreSources, { ...modelOptions, lock, extensionSources: newSources });
  const files = await emitTree(model, { cacheDir: opts.cacheDir, targets: opts.targets, options: opts.targetOptions, registry: opts.registry });

  const oldModel = (src: ExtensionSource): ExtensionModel | undefined =>
    buildModelFromSpecs(coreSources.filter((c) => c.label === src.core), { ...modelOptions, lock: previous, extensionSources: [src] }).extensions?.[0];
  const oldSources = extensionSources(opts.schemasDir, previous, labels);
  const versions: PinnedVersion[] = [];
  for (const s of staged) {
    for (const src of oldSources.filter((o) => o.name === s.name && o.label === s.label)) {
      const after = model.extensions?.find((x) => x.name === s.name && x.label === s.label && x.core === src.core);
      if (after === undefined) continue;
      const module = extensionLabel(after);
      const reports: string[] = [];
      let diff: VersionDiff | null = null;
      if (s.status === "changed") {
        const before = sha256(new Uint8Array(await readFile(src.file))) === s.previousSha256 ? oldModel(src) : undefined;
        if (before !== undefined) {
          diff = diffVersions(before.model, after.model);
          reports.push(...addReviewReports(files, diff, after.model, { label: module, from: [module, s.previousSha256], to: [module, s.schema.sha256], json: opts.json === true }));
        }
      }
      versions.push({ version: `${module} (${s.name}@${s.label})`, status: s.status, previousSha256: s.previousSha256, sha256: s.schema.sha256, source: s.schema.source, diff, base: null, reports });
    }
  }

  // schemas/extensions/<name>/<version>/ for the changed versions, then the lock.
  const writes: FileWrite[] = [];
  for (const s of staged.filter((x) => x.status === "changed")) {
    const dir = path.join(extensionSchemasDir(opts.schemasDir, s.name), s.label);
    writes.push({ file: path.join(dir, "schema.json"), bytes: s.schema.bytes });
    writes.push({ file: path.join(dir, "schema.ts"), bytes: s.schemaTs === null ? null : s.schemaTs.bytes });
    if (s.text !== null) writes.push({ file: path.join(dir, s.text.name), bytes: s.text.bytes });
  }
  writes.push({ file: opts.lockFile, bytes: formatLock(lock) });

  await writeBump(opts, files, writes);
  return { previousCommit: previous.commit, lock, versions, warnings, files: files.size };
}
