// The pinned spec sources: schemas/lock.json, and `schemas sync`, which checks schemas/<version>/schema.json
// (and schema.ts) against the lock and fills what is missing from a local spec directory or the pinned
// raw address. The tool's own schemas/ holds every pinned file (committed and shipped), so a sync there
// only verifies; a file with other bytes is refused by name, never silently replaced by a download.
import { existsSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { InputError, pointer } from "../errors.js";
import { sha256, writeFilesAtomically } from "../files.js";
import { validateLockedExtensions, type LockedExtension } from "./extension-lock.js";

// Re-exported: callers that hash or write spec files have always found these here.
export { sha256, writeFilesAtomically };

/** One pinned file of the spec repository: its path there and the sha256 of its bytes. */
export interface LockedFile {
  /** Path of the file inside the spec repository (`schema/2025-11-25/schema.json`). */
  path: string;
  sha256: string;
}

export interface LockedVersion extends LockedFile {
  /** The spec commit this version was pinned at, when it is not the lock's own `commit`. */
  commit?: string;
  /**
   * The same commit's `schema.ts` (the spec's own TypeScript, an oracle for generated types), when
   * the version has one; a revision given only as JSON has none.
   */
  schemaTs?: LockedFile;
  /** A text pinned beside the schema (an extension's specification text, extension-lock.ts); synced under its file name. */
  text?: LockedFile;
}

export interface SpecLock {
  repository: string;
  commit: string;
  /** Raw-file address template with `{commit}` and `{path}` placeholders. */
  rawUrl: string;
  versions: Record<string, LockedVersion>;
  /** Extensions by name (spec/extension-lock.ts): each version pins its schema and names its core versions. */
  extensions?: Record<string, LockedExtension>;
}

/** The files a version pins, by their name in `schemas/<version>/`. */
export function lockedFiles(entry: LockedVersion): Array<{ name: SpecFileName; locked: LockedFile }> {
  const files: Array<{ name: SpecFileName; locked: LockedFile }> = [{ name: "schema.json", locked: entry }];
  if (entry.schemaTs !== undefined) files.push({ name: "schema.ts", locked: entry.schemaTs });
  if (entry.text !== undefined) files.push({ name: path.posix.basename(entry.text.path), locked: entry.text });
  return files;
}

/** `schema.json`, `schema.ts`, or a pinned text's file name (`tasks.md`). */
export type SpecFileName = string;

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
    if (entry.commit !== undefined && (typeof entry.commit !== "string" || !/^[0-9a-f]{40}$/.test(entry.commit))) {
      throw new InputError("expected a 40-hex-digit commit", file, pointer("versions", label, "commit"));
    }
    if (entry.schemaTs !== undefined) {
      const ts = entry.schemaTs;
      if (!obj(ts) || typeof ts.path !== "string") throw new InputError("expected { path, sha256 }", file, pointer("versions", label, "schemaTs"));
      if (typeof ts.sha256 !== "string" || !/^[0-9a-f]{64}$/.test(ts.sha256)) {
        throw new InputError("expected a 64-hex-digit sha256", file, pointer("versions", label, "schemaTs", "sha256"));
      }
    }
  }
  validateLockedExtensions(data, file);
  return data as unknown as SpecLock;
}

/** The raw-file address of `path` at `commit`, from the lock's `rawUrl` template. */
export function rawFileUrl(template: string, commit: string, path: string): string {
  return template.replace("{commit}", commit).replace("{path}", path);
}

export function rawUrl(lock: SpecLock, version: string, file: LockedFile = lock.versions[version]): string {
  return rawFileUrl(lock.rawUrl, lock.versions[version]?.commit ?? lock.commit, file.path);
}

/**
 * Where a version's file can be found inside a local spec directory, in the order tried: `<dir>/<version>/`,
 * a checkout's `<dir>/schema/<version>/`, and, given the file's path in the repository, a checkout's
 * `<dir>/<path>` (an extension's text is `specification/<version>/tasks.md` there).
 */
export function specDirCandidates(specDir: string, version: string, name: SpecFileName = "schema.json", repositoryPath?: string): string[] {
  const out = [path.join(specDir, version, name), path.join(specDir, "schema", version, name)];
  if (repositoryPath !== undefined && !out.includes(path.join(specDir, repositoryPath))) out.push(path.join(specDir, repositoryPath));
  return out;
}

/** Fail unless `dir` is an existing folder (`what` names it in the message, e.g. `--spec-dir`). */
export function assertFolder(dir: string, what: string): void {
  let stat;
  try {
    stat = statSync(dir);
  } catch {
    throw new InputError(`${what}: the folder does not exist`, dir);
  }
  if (!stat.isDirectory()) throw new InputError(`${what}: expected a folder, found a file`, dir);
}

export interface SyncOptions {
  lock: SpecLock;
  /** Folder receiving `<version>/schema.json` (and `<version>/schema.ts` where the lock pins one). */
  schemasDir: string;
  /** Local spec directory (`<dir>/<version>/schema.json` or a spec checkout's `<dir>/schema/<version>/schema.json`). */
  specDir?: string;
  /** Versions to sync (default: every locked version). */
  versions?: string[];
  /** Download function; defaults to global fetch with a timeout. Tests inject their own. */
  download?: (url: string) => Promise<Uint8Array>;
  /**
   * Verify only (the spec shipped inside the tool, which is never written): every file must already be
   * there with the pinned bytes; `specDir` and downloads are not used.
   */
  readOnly?: boolean;
}

export interface SyncedVersion {
  version: string;
  file: string;
  /** `present`: already there with the pinned hashes; otherwise where the files were copied or downloaded from. */
  status: "present" | "copied" | "downloaded";
  source: string;
}

/** Fetch a file's bytes (30 s timeout); a non-2xx answer is an error. */
export async function download(url: string): Promise<Uint8Array> {
  const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

/** Read a file's bytes, or undefined when it does not exist. */
async function readIfFile(file: string): Promise<Uint8Array | undefined> {
  try {
    return new Uint8Array(await readFile(file));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT" || (e as NodeJS.ErrnoException).code === "ENOTDIR") return undefined;
    if ((e as NodeJS.ErrnoException).code === "EISDIR") throw new InputError("expected a file, found a folder", file);
    throw e;
  }
}

type Obtained = { bytes: Uint8Array; status: "copied" | "downloaded"; source: string };

/**
 * Make `schemasDir/<version>/schema.json` (and `schema.ts` where pinned) hold the pinned bytes of
 * each version. Every file is verified against the lock before anything is written; a mismatch or
 * an unreachable source throws, naming every version that could not be obtained, and leaves the
 * folder as it was.
 */
export async function syncSchemas(opts: SyncOptions): Promise<SyncedVersion[]> {
  const { lock, schemasDir } = opts;
  if (opts.specDir !== undefined) assertFolder(opts.specDir, "the spec folder");
  if (existsSync(schemasDir) && !statSync(schemasDir).isDirectory()) throw new InputError("the schemas folder: expected a folder, found a file", schemasDir);
  const versions = opts.versions ?? Object.keys(lock.versions).sort();
  const unknown = versions.filter((v) => !lock.versions[v]);
  if (unknown.length > 0) throw new InputError(`version${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")} not in the lock (have: ${Object.keys(lock.versions).sort().join(", ")})`);
  const pending: Array<{ file: string; bytes: Uint8Array }> = [];
  const results: SyncedVersion[] = [];
  const failures: string[] = [];

  for (const version of versions) {
    const entry = lock.versions[version];
    const statuses: Array<Obtained | "present"> = [];
    for (const { name, locked } of lockedFiles(entry)) {
      const target = path.join(schemasDir, version, name);
      const current = await readIfFile(target);
      const currentHash = current === undefined ? undefined : sha256(current);
      if (currentHash === locked.sha256) {
        statuses.push("present");
        continue;
      }
      if (opts.readOnly === true) {
        failures.push(
          currentHash === undefined
            ? `${target} is missing (the lock pins sha256 ${locked.sha256}); reinstall mcp-codegen`
            : `${target} has sha256 ${currentHash}, the lock pins ${locked.sha256}; reinstall mcp-codegen`,
        );
        continue;
      }
      // A file there with other bytes was edited (the pinned files are committed): say so, naming it,
      // rather than replace it with a download. A spec folder given explicitly may restore it.
      if (currentHash !== undefined && opts.specDir === undefined) {
        failures.push(
          `${target} has sha256 ${currentHash}, the lock pins ${locked.sha256}: restore it (git checkout ${path.join(path.basename(schemasDir), version, name)}), ` +
            `sync it from a spec folder (--spec-dir DIR or MCP_SPEC_DIR), or pin the new bytes (schemas pin --from)`,
        );
        continue;
      }
      const got = await obtain(opts, version, name, locked);
      if (typeof got === "string") {
        // Say what is wrong with the synced copy too: a hand-edited file is not "missing".
        const synced = currentHash === undefined ? "" : `; ${target} has sha256 ${currentHash}, not the pinned one`;
        failures.push(got + synced);
        continue;
      }
      statuses.push(got);
      pending.push({ file: target, bytes: got.bytes });
    }
    const fetched = statuses.filter((s): s is Obtained => s !== "present");
    results.push(
      fetched.length === 0
        ? { version, file: path.join(schemasDir, version, "schema.json"), status: "present", source: path.join(schemasDir, version, "schema.json") }
        : { version, file: path.join(schemasDir, version, "schema.json"), status: fetched[0].status, source: fetched.map((f) => f.source).join(", ") },
    );
  }
  if (failures.length > 0) {
    const count = `${failures.length} file${failures.length > 1 ? "s" : ""}`;
    throw new InputError(
      opts.readOnly === true
        ? `the spec shipped with mcp-codegen does not match its lock (${count}):\n  ${failures.join("\n  ")}`
        : `cannot sync ${count} (nothing was written):\n  ${failures.join("\n  ")}\n` + `Set MCP_SPEC_DIR or pass --spec-dir to a folder holding <version>/schema.json.`,
    );
  }
  // Everything verified: write each file beside its target, then rename it into place.
  await writeFilesAtomically(pending);
  return results.sort((a, b) => (a.version < b.version ? -1 : a.version > b.version ? 1 : 0));
}

/** The pinned bytes of one file, from the spec folder or the pinned address; a string says why not. */
async function obtain(opts: SyncOptions, version: string, name: SpecFileName, locked: LockedFile): Promise<Obtained | string> {
  const tried: string[] = [];
  if (opts.specDir !== undefined) {
    const mismatches: string[] = [];
    for (const candidate of specDirCandidates(opts.specDir, version, name, locked.path)) {
      const bytes = await readIfFile(candidate);
      if (bytes === undefined) {
        tried.push(`${candidate} (not found)`);
        continue;
      }
      const actual = sha256(bytes);
      if (actual === locked.sha256) return { bytes, status: "copied", source: candidate };
      mismatches.push(`got ${actual} from ${candidate}`);
    }
    // A local file with other bytes is an error, not a reason to download: the folder is stale.
    if (mismatches.length > 0) return `${name} of version ${version} does not match the lock: expected sha256 ${locked.sha256}, ${mismatches.join("; ")}`;
  }
  const url = rawUrl(opts.lock, version, locked);
  let bytes: Uint8Array;
  try {
    bytes = await (opts.download ?? download)(url);
  } catch (e) {
    tried.push(`${url} (${(e as Error).message})`);
    return `cannot obtain ${name} of version ${version} (expected sha256 ${locked.sha256}); tried: ${tried.join("; ")}`;
  }
  const actual = sha256(bytes);
  if (actual !== locked.sha256) return `${name} of version ${version} does not match the lock: expected sha256 ${locked.sha256}, got ${actual} from ${url}`;
  return { bytes, status: "downloaded", source: url };
}
