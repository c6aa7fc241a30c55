// The pinned spec sources: schemas/lock.json, and `schemas sync`, which fills
// schemas/<version>/schema.json from a local spec directory or the pinned raw address.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { InputError, pointer } from "../errors.js";

export interface LockedVersion {
  /** Path of the schema file inside the spec repository (`schema/2025-11-25/schema.json`). */
  path: string;
  sha256: string;
}

export interface SpecLock {
  repository: string;
  commit: string;
  /** Raw-file address template with `{commit}` and `{path}` placeholders. */
  rawUrl: string;
  versions: Record<string, LockedVersion>;
}

export function sha256(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

export async function readLock(file: string): Promise<SpecLock> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    throw new InputError(`cannot read the lock file (${(e as NodeJS.ErrnoException).code ?? e})`, file);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new InputError(`invalid JSON: ${(e as Error).message}`, file, "");
  }
  return validateLock(data, file);
}

function validateLock(data: unknown, file: string): SpecLock {
  const obj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
  if (!obj(data)) throw new InputError("expected an object", file, "");
  for (const key of ["repository", "commit", "rawUrl"] as const) {
    if (typeof data[key] !== "string") throw new InputError(`expected a string`, file, pointer(key));
  }
  if (!/^[0-9a-f]{40}$/.test(data.commit as string)) {
    throw new InputError("expected a 40-hex-digit commit", file, pointer("commit"));
  }
  if (!obj(data.versions)) throw new InputError("expected an object of versions", file, pointer("versions"));
  for (const [label, entry] of Object.entries(data.versions)) {
    if (!obj(entry) || typeof entry.path !== "string") {
      throw new InputError("expected { path, sha256 }", file, pointer("versions", label));
    }
    if (typeof entry.sha256 !== "string" || !/^[0-9a-f]{64}$/.test(entry.sha256)) {
      throw new InputError("expected a 64-hex-digit sha256", file, pointer("versions", label, "sha256"));
    }
  }
  return data as unknown as SpecLock;
}

/** The raw-file address of `path` at `commit`, from the lock's `rawUrl` template. */
export function rawFileUrl(template: string, commit: string, path: string): string {
  return template.replace("{commit}", commit).replace("{path}", path);
}

export function rawUrl(lock: SpecLock, version: string): string {
  return rawFileUrl(lock.rawUrl, lock.commit, lock.versions[version].path);
}

/** Where a version's schema can be found inside a local spec directory, in the order tried. */
export function specDirCandidates(specDir: string, version: string): string[] {
  return [path.join(specDir, version, "schema.json"), path.join(specDir, "schema", version, "schema.json")];
}

export interface SyncOptions {
  lock: SpecLock;
  /** Folder receiving `<version>/schema.json`. */
  schemasDir: string;
  /** Local spec directory (`<dir>/<version>/schema.json` or a spec checkout's `<dir>/schema/<version>/schema.json`). */
  specDir?: string;
  /** Versions to sync (default: every locked version). */
  versions?: string[];
  /** Download function; defaults to global fetch with a timeout. Tests inject their own. */
  download?: (url: string) => Promise<Uint8Array>;
}

export interface SyncedVersion {
  version: string;
  file: string;
  /** `present`: already there with the pinned hash; otherwise where it was copied or downloaded from. */
  status: "present" | "copied" | "downloaded";
  source: string;
}

/** Fetch a file's bytes (30 s timeout); a non-2xx answer is an error. */
export async function download(url: string): Promise<Uint8Array> {
  const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

/**
 * Make `schemasDir/<version>/schema.json` hold the pinned bytes of each version.
 * Every file is verified against the lock before anything is written; a mismatch or an
 * unreachable source throws and leaves the folder as it was.
 */
export async function syncSchemas(opts: SyncOptions): Promise<SyncedVersion[]> {
  const { lock, schemasDir } = opts;
  const versions = opts.versions ?? Object.keys(lock.versions).sort();
  const pending: Array<{ version: string; file: string; bytes: Uint8Array; status: SyncedVersion["status"]; source: string }> = [];
  const results: SyncedVersion[] = [];

  for (const version of versions) {
    const locked = lock.versions[version];
    if (!locked) throw new InputError(`version "${version}" is not in the lock (have: ${Object.keys(lock.versions).sort().join(", ")})`);
    const file = path.join(schemasDir, version, "schema.json");
    if (existsSync(file) && sha256(await readFile(file)) === locked.sha256) {
      results.push({ version, file, status: "present", source: file });
      continue;
    }
    const tried: string[] = [];
    let found: { bytes: Uint8Array; status: "copied" | "downloaded"; source: string } | undefined;
    if (opts.specDir !== undefined) {
      const mismatches: Array<{ file: string; actual: string }> = [];
      for (const candidate of specDirCandidates(opts.specDir, version)) {
        if (!existsSync(candidate)) {
          tried.push(`${candidate} (not found)`);
          continue;
        }
        const bytes = new Uint8Array(await readFile(candidate));
        const actual = sha256(bytes);
        if (actual !== locked.sha256) {
          mismatches.push({ file: candidate, actual });
          continue;
        }
        found = { bytes, status: "copied", source: candidate };
        break;
      }
      // A local file with other bytes is an error, not a reason to download: the folder is stale.
      if (!found && mismatches.length > 0) {
        throw new InputError(
          `schema for version ${version} does not match the lock: expected sha256 ${locked.sha256}, ${mismatches.map((m) => `got ${m.actual} from ${m.file}`).join("; ")}`,
          mismatches.length === 1 ? mismatches[0].file : opts.specDir,
        );
      }
    }
    if (!found) {
      const url = rawUrl(lock, version);
      let bytes: Uint8Array | undefined;
      try {
        bytes = await (opts.download ?? download)(url);
      } catch (e) {
        tried.push(`${url} (${(e as Error).message})`);
      }
      if (bytes === undefined) {
        throw new InputError(
          `cannot obtain the schema for version ${version} (expected sha256 ${locked.sha256}); tried: ${tried.join("; ")}. ` +
            `Set MCP_SPEC_DIR or pass --spec-dir to a folder holding <version>/schema.json.`,
        );
      }
      const actual = sha256(bytes);
      if (actual !== locked.sha256) {
        throw new InputError(
          `schema for version ${version} does not match the lock: expected sha256 ${locked.sha256}, got ${actual} from ${url}`,
        );
      }
      found = { bytes, status: "downloaded", source: url };
    }
    pending.push({ version, file, ...found });
  }

  // Everything verified: write each file beside its target, then rename it into place.
  await writeFilesAtomically(pending.map((p) => ({ file: p.file, bytes: p.bytes })));
  for (const p of pending) results.push({ version: p.version, file: p.file, status: p.status, source: p.source });
  return results.sort((a, b) => a.version.localeCompare(b.version));
}

/**
 * Write every file beside its target first, then rename each into place in order. A failure while
 * writing leaves no target touched and no temporary file behind; put the file that names the others
 * (a lock) last.
 */
export async function writeFilesAtomically(files: Array<{ file: string; bytes: Uint8Array | string }>): Promise<void> {
  const tmp = (f: string) => `${f}.tmp-${process.pid}`;
  const written: string[] = [];
  try {
    for (const { file, bytes } of files) {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(tmp(file), bytes);
      written.push(tmp(file));
    }
  } catch (e) {
    await Promise.all(written.map((f) => rm(f, { force: true })));
    throw e;
  }
  for (const { file } of files) await rename(tmp(file), file);
}
