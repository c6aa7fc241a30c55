// `schemas pin`: move schemas/lock.json to a new spec commit or a local spec folder, and say what
// changed. Everything is fetched, hashed and loaded before anything is written; then the new schema
// files and the lock are each written beside their target and renamed into place.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { InputError } from "../errors.js";
import { buildVersionModel } from "../model/build.js";
import { readOverrides } from "../model/overrides.js";
import type { VersionModel } from "../model/types.js";
import { download, rawFileUrl, readLock, sha256, specDirCandidates, writeFilesAtomically, type SpecLock } from "../spec/lock.js";
import { loadSpecBytes } from "../spec/load.js";
import { diffVersions, type VersionDiff } from "./version.js";
import { byKey } from "../order.js";

export interface PinOptions {
  /** The lock to move (schemas/lock.json; tests pass a copy). */
  lockFile: string;
  /** The synced schemas folder: old bytes are read from it, new bytes are written to it. */
  schemasDir: string;
  /** The spec commit to pin. Required unless `from` is given; with `from`, names the checkout's commit. */
  commit?: string;
  /** A local spec folder: `<from>/<version>/schema.json` or a checkout's `<from>/schema/<version>/schema.json`. */
  from?: string;
  /** With `commit` alone: versions to add to the locked ones (a commit has no listing to find them in). */
  versions?: string[];
  patchesDir?: string;
  overridesFile?: string;
  /** Download function for `commit`; defaults to fetch. Tests inject their own. */
  download?: (url: string) => Promise<Uint8Array>;
}

export interface PinnedVersion {
  version: string;
  status: "unchanged" | "changed" | "added";
  /** The locked sha256 before, or null for an added version. */
  previousSha256: string | null;
  sha256: string;
  /** Where the new bytes came from (a file or an address). */
  source: string;
  /** For a changed version whose old bytes were in the schemas folder: old model → new model. */
  diff: VersionDiff | null;
}

export interface PinResult {
  previousCommit: string;
  lock: SpecLock;
  versions: PinnedVersion[];
  /** Things the user should know that are not errors (e.g. the commit could not be determined). */
  warnings: string[];
}

/** Version folders of a local spec folder, each with the file it was found in (`<dir>/<v>` first). */
export function findSpecVersions(dir: string): Map<string, string> {
  if (!existsSync(dir)) throw new InputError("the spec folder does not exist", dir);
  const found = new Map<string, string>();
  for (const base of [dir, path.join(dir, "schema")]) {
    if (!existsSync(base)) continue;
    for (const e of readdirSync(base, { withFileTypes: true })) {
      if (!e.isDirectory() || found.has(e.name)) continue;
      const file = specDirCandidates(dir, e.name).find((f) => existsSync(f));
      if (file !== undefined) found.set(e.name, file);
    }
  }
  return new Map([...found].sort(byKey));
}

function gitHead(dir: string): string | null {
  if (!existsSync(path.join(dir, ".git"))) return null;
  try {
    return execFileSync("git", ["-C", dir, "rev-parse", "HEAD"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return null;
  }
}

/** The lock's text: one line per version, as committed. */
export function formatLock(lock: SpecLock): string {
  const versions = Object.keys(lock.versions)
    .sort()
    .map((v) => `    ${JSON.stringify(v)}: { "path": ${JSON.stringify(lock.versions[v].path)}, "sha256": ${JSON.stringify(lock.versions[v].sha256)} }`);
  return [
    "{",
    `  "repository": ${JSON.stringify(lock.repository)},`,
    `  "commit": ${JSON.stringify(lock.commit)},`,
    `  "rawUrl": ${JSON.stringify(lock.rawUrl)},`,
    `  "versions": {`,
    versions.join(",\n"),
    "  }",
    "}",
    "",
  ].join("\n");
}

export async function pinLock(opts: PinOptions): Promise<PinResult> {
  if (opts.commit === undefined && opts.from === undefined) throw new InputError("expected --commit SHA or --from DIR");
  if (opts.commit !== undefined && !/^[0-9a-f]{40}$/.test(opts.commit)) {
    throw new InputError(`expected a 40-hex-digit commit, got "${opts.commit}"`);
  }
  const old = await readLock(opts.lockFile);
  const warnings: string[] = [];
  const fetched = new Map<string, { bytes: Uint8Array; source: string; path: string }>();
  let commit: string;

  if (opts.from !== undefined) {
    const dir = path.resolve(opts.from);
    const found = findSpecVersions(dir);
    if (found.size === 0) throw new InputError("expected <version>/schema.json or schema/<version>/schema.json folders, found none", dir);
    const missing = Object.keys(old.versions).filter((v) => !found.has(v)).sort();
    if (missing.length > 0) {
      throw new InputError(`the spec folder has no schema for the locked version${missing.length > 1 ? "s" : ""} ${missing.join(", ")}; a spec folder must hold every locked version`, dir);
    }
    for (const [version, file] of found) {
      fetched.set(version, { bytes: new Uint8Array(await readFile(file)), source: file, path: old.versions[version]?.path ?? `schema/${version}/schema.json` });
    }
    const head = opts.commit ?? gitHead(dir);
    if (head === null) {
      warnings.push(
        `${dir} is not a git checkout and no --commit was given: the lock keeps commit ${old.commit}, so downloads of changed versions will fail their hash check; sync them with --spec-dir ${opts.from}`,
      );
    }
    commit = head ?? old.commit;
  } else {
    commit = opts.commit!;
    const versions = [...new Set([...Object.keys(old.versions), ...(opts.versions ?? [])])].sort();
    for (const version of versions) {
      const p = old.versions[version]?.path ?? `schema/${version}/schema.json`;
      const url = rawFileUrl(old.rawUrl, commit, p);
      let bytes: Uint8Array;
      try {
        bytes = await (opts.download ?? download)(url);
      } catch (e) {
        throw new InputError(`cannot download the schema of version ${version} at commit ${commit}: ${url} (${(e as Error).message})`);
      }
      fetched.set(version, { bytes, source: url, path: p });
    }
  }

  const overrides = opts.overridesFile ? readOverrides(opts.overridesFile) : [];
  const model = (bytes: Uint8Array, file: string, version: string): VersionModel =>
    buildVersionModel(loadSpecBytes(bytes, file, version, { patchesDir: opts.patchesDir }), { specCommit: null, overrides });

  const lock: SpecLock = { repository: old.repository, commit, rawUrl: old.rawUrl, versions: {} };
  const versions: PinnedVersion[] = [];
  const writes: Array<{ file: string; bytes: Uint8Array | string }> = [];
  for (const [version, { bytes, source, path: p }] of [...fetched].sort(byKey)) {
    const digest = sha256(bytes);
    // Loading every new schema checks it before anything is written.
    const after = model(bytes, source, version);
    lock.versions[version] = { path: p, sha256: digest };
    const previous = old.versions[version]?.sha256 ?? null;
    const status = previous === null ? "added" : previous === digest ? "unchanged" : "changed";
    let diff: VersionDiff | null = null;
    const target = path.join(opts.schemasDir, version, "schema.json");
    if (status === "changed" && existsSync(target)) {
      const oldBytes = new Uint8Array(await readFile(target));
      if (sha256(oldBytes) === previous) diff = diffVersions(model(oldBytes, target, version), after);
    }
    if (status !== "unchanged") writes.push({ file: target, bytes });
    versions.push({ version, status, previousSha256: previous, sha256: digest, source, diff });
  }
  writes.push({ file: opts.lockFile, bytes: formatLock(lock) });
  await writeFilesAtomically(writes);
  return { previousCommit: old.commit, lock, versions, warnings };
}

/** What a pin changed, in a few lines for people. */
export function pinSummary(result: PinResult): string {
  const lines = [`lock: commit ${result.previousCommit} → ${result.lock.commit}`];
  for (const v of result.versions) {
    if (v.status === "unchanged") lines.push(`  ${v.version}: unchanged`);
    else if (v.status === "added") lines.push(`  ${v.version}: new version (sha256 ${v.sha256})`);
    else if (v.diff === null) lines.push(`  ${v.version}: changed (sha256 ${v.previousSha256} → ${v.sha256}); the old schema was not synced, so no diff`);
    else {
      const s = v.diff.summary;
      lines.push(
        `  ${v.version}: changed (sha256 ${v.previousSha256} → ${v.sha256}): ` +
          `methods +${s.methods.added} -${s.methods.removed} ~${s.methods.changed}, normalizers ~${s.normalizers.changed}, ` +
          `definitions +${s.definitions.added} -${s.definitions.removed} ~${s.definitions.changed}; ${s.breaking} breaking, ${s.nonBreaking} not`,
      );
    }
  }
  return lines.join("\n") + "\n";
}
