// Pinning: read a new spec (a commit's raw files or a local folder), hash every file and work out
// the new lock. Nothing here writes: `stagePin` returns the bytes and the lock, and the caller
// (generator/bump.ts) checks that they generate before writing anything.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { InputError } from "../errors.js";
import { sha256 } from "../files.js";
import { byKey } from "../order.js";
import { assertFolder, download, rawFileUrl, readLock, specDirCandidates, type LockedFile, type LockedVersion, type SpecLock } from "./lock.js";

export interface PinOptions {
  /** The lock to move (schemas/lock.json; tests pass a copy). */
  lockFile: string;
  /** The spec commit to pin. Required unless `from` is given; with `from`, names the folder's commit. */
  commit?: string;
  /** A local spec folder: `<from>/<version>/schema.json` or a checkout's `<from>/schema/<version>/schema.json`. */
  from?: string;
  /**
   * With `commit`: versions to add to the locked ones (a commit has no listing to find them in).
   * With `from`: only these version folders are pinned; the other locked versions keep their entries.
   */
  versions?: string[];
  /** With `from` and exactly one version: pin that folder's schema under this label instead. */
  as?: string;
  /** Download function for `commit`; defaults to fetch. Tests inject their own. */
  download?: (url: string) => Promise<Uint8Array>;
}

/** A pinned file's new bytes, hash, path in the spec repository and where they were read. */
export interface StagedFile extends LockedFile {
  bytes: Uint8Array;
  source: string;
}

export interface StagedVersion {
  version: string;
  status: "unchanged" | "changed" | "added";
  /** The locked sha256 of schema.json before, or null for an added version. */
  previousSha256: string | null;
  schema: StagedFile;
  /** The spec's schema.ts beside it, when the source has one. */
  schemaTs: StagedFile | null;
}

export interface StagedPin {
  previous: SpecLock;
  lock: SpecLock;
  /** Every version of the new lock whose bytes were read, sorted by label. */
  versions: StagedVersion[];
  /** Things the user should know that are not errors (e.g. the commit could not be determined). */
  warnings: string[];
}

/** Version folders of a local spec folder, each with the file it was found in (`<dir>/<v>` first). */
export function findSpecVersions(dir: string): Map<string, string> {
  assertFolder(dir, "the spec folder");
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

/** The commit of a spec checkout at `dir` (its own root: a folder inside another repository is not one). */
export function gitHead(dir: string): string | null {
  if (!existsSync(path.join(dir, ".git"))) return null;
  try {
    return execFileSync("git", ["-C", dir, "rev-parse", "HEAD"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return null;
  }
}

/** The lock's text: one line per version, as committed. */
export function formatLock(lock: SpecLock): string {
  const file = (f: LockedFile) => `"path": ${JSON.stringify(f.path)}, "sha256": ${JSON.stringify(f.sha256)}`;
  const versions = Object.keys(lock.versions)
    .sort()
    .map((v) => {
      const e = lock.versions[v];
      const commit = e.commit !== undefined ? `"commit": ${JSON.stringify(e.commit)}, ` : "";
      const ts = e.schemaTs !== undefined ? `, "schemaTs": { ${file(e.schemaTs)} }` : "";
      return `    ${JSON.stringify(v)}: { ${commit}${file(e)}${ts} }`;
    });
  return [
    "{",
    `  "repository": ${JSON.stringify(lock.repository)},`,
    `  "commit": ${JSON.stringify(lock.commit)},`,
    `  "rawUrl": ${JSON.stringify(lock.rawUrl)},`,
    `  "versions": {`,
    versions.join(",\n"),
    lock.extensions === undefined ? "  }" : "  },",
    ...(lock.extensions === undefined ? [] : formatExtensions(lock.extensions)),
    "}",
    "",
  ].join("\n");
}

/** The lock's `extensions` lines: one line per extension version, as committed. */
function formatExtensions(extensions: NonNullable<SpecLock["extensions"]>): string[] {
  const names = Object.keys(extensions).sort();
  const lines = [`  "extensions": {`];
  names.forEach((name, i) => {
    const ext = extensions[name];
    lines.push(`    ${JSON.stringify(name)}: {`);
    lines.push(`      "identifier": ${JSON.stringify(ext.identifier)},`, `      "repository": ${JSON.stringify(ext.repository)},`, `      "rawUrl": ${JSON.stringify(ext.rawUrl)},`, `      "versions": {`);
    const labels = Object.keys(ext.versions).sort();
    labels.forEach((label, j) => {
      const e = ext.versions[label];
      const file = (f: LockedFile) => `"path": ${JSON.stringify(f.path)}, "sha256": ${JSON.stringify(f.sha256)}`;
      const ts = e.schemaTs !== undefined ? `, "schemaTs": { ${file(e.schemaTs)} }` : "";
      const text = e.text !== undefined ? `, "text": { ${file(e.text)} }` : "";
      const results = e.results !== undefined ? `, "results": ${JSON.stringify(e.results).replace(/,/g, ", ").replace(/:/g, ": ").replace(/^\{/, "{ ").replace(/\}$/, " }")}` : "";
      lines.push(`        ${JSON.stringify(label)}: { "core": ${JSON.stringify(e.core).replace(/,/g, ", ")}, "commit": ${JSON.stringify(e.commit)}, ${file(e)}${ts}${text}${results} }${j < labels.length - 1 ? "," : ""}`);
    });
    lines.push("      }", `    }${i < names.length - 1 ? "," : ""}`);
  });
  lines.push("  }");
  return lines;
}

const schemaTsPath = (schemaPath: string) => schemaPath.replace(/schema\.json$/, "schema.ts");

/** Read the new spec and compute the new lock. Reads, hashes; never writes. */
export async function stagePin(opts: PinOptions): Promise<StagedPin> {
  if (opts.commit === undefined && opts.from === undefined) throw new InputError("expected --commit SHA or --from DIR");
  if (opts.commit !== undefined && !/^[0-9a-f]{40}$/.test(opts.commit)) {
    throw new InputError(`expected a 40-hex-digit commit, got "${opts.commit}"`);
  }
  if (opts.as !== undefined && (opts.from === undefined || opts.versions?.length !== 1)) {
    throw new InputError("--as needs --from DIR and exactly one version in --versions");
  }
  const old = await readLock(opts.lockFile);
  const warnings: string[] = [];
  /** label → new files; a label not here keeps its lock entry. */
  const fetched = new Map<string, { schema: StagedFile; schemaTs: StagedFile | null }>();
  let commit: string;
  /** Set when only some versions move: they carry their own commit in the lock. */
  let subsetCommit: string | null = null;

  if (opts.from !== undefined) {
    const dir = path.resolve(opts.from);
    const found = findSpecVersions(dir);
    if (found.size === 0) throw new InputError("expected <version>/schema.json or schema/<version>/schema.json folders, found none", dir);
    let wanted: string[];
    if (opts.versions !== undefined) {
      const missing = opts.versions.filter((v) => !found.has(v));
      if (missing.length > 0) throw new InputError(`the spec folder has no schema for ${missing.join(", ")} (found: ${[...found.keys()].join(", ")})`, dir);
      wanted = opts.versions;
    } else {
      const missing = Object.keys(old.versions).filter((v) => !found.has(v)).sort();
      if (missing.length > 0) {
        throw new InputError(
          `the spec folder has no schema for the locked version${missing.length > 1 ? "s" : ""} ${missing.join(", ")}; a spec folder must hold every locked version (or name the ones to pin with --versions)`,
          dir,
        );
      }
      wanted = [...found.keys()];
    }
    const head = opts.commit ?? gitHead(dir);
    for (const source of wanted) {
      const label = opts.as ?? source;
      const file = found.get(source)!;
      const p = old.versions[label]?.path ?? `schema/${label}/schema.json`;
      const bytes = new Uint8Array(readFileSync(file));
      const tsFile = path.join(path.dirname(file), "schema.ts");
      const schemaTs = existsSync(tsFile) ? staged(new Uint8Array(readFileSync(tsFile)), schemaTsPath(p), tsFile) : null;
      fetched.set(label, { schema: staged(bytes, p, file), schemaTs });
    }
    if (head === null) {
      warnings.push(
        `${dir} is not a git checkout and no --commit was given: the lock keeps commit ${old.commit}, so downloads of changed versions will fail their hash check; sync them with --spec-dir ${opts.from}`,
      );
    }
    if (opts.versions === undefined) commit = head ?? old.commit;
    else {
      commit = old.commit;
      subsetCommit = head;
    }
  } else {
    commit = opts.commit!;
    const versions = [...new Set([...Object.keys(old.versions), ...(opts.versions ?? [])])].sort();
    const failures: string[] = [];
    for (const version of versions) {
      const p = old.versions[version]?.path ?? `schema/${version}/schema.json`;
      const url = rawFileUrl(old.rawUrl, commit, p);
      let bytes: Uint8Array;
      try {
        bytes = await (opts.download ?? download)(url);
      } catch (e) {
        failures.push(`${version}: ${url} (${(e as Error).message})`);
        continue;
      }
      // schema.ts is optional: a revision published only as JSON has none (404).
      const tsPath = old.versions[version]?.schemaTs?.path ?? schemaTsPath(p);
      const tsUrl = rawFileUrl(old.rawUrl, commit, tsPath);
      let schemaTs: StagedFile | null = null;
      try {
        schemaTs = staged(await (opts.download ?? download)(tsUrl), tsPath, tsUrl);
      } catch (e) {
        if (!/\b404\b/.test((e as Error).message)) failures.push(`${version}: ${tsUrl} (${(e as Error).message})`);
      }
      fetched.set(version, { schema: staged(bytes, p, url), schemaTs });
    }
    if (failures.length > 0) throw new InputError(`cannot download at commit ${commit}:\n  ${failures.join("\n  ")}`);
  }

  const lock: SpecLock = { repository: old.repository, commit, rawUrl: old.rawUrl, versions: {}, ...(old.extensions === undefined ? {} : { extensions: old.extensions }) };
  // Versions not re-read keep their entries (a subset pin); re-read ones get fresh entries.
  for (const [label, entry] of Object.entries(old.versions)) if (!fetched.has(label)) lock.versions[label] = entry;
  const versions: StagedVersion[] = [];
  for (const [version, { schema, schemaTs }] of [...fetched].sort(byKey)) {
    const entry: LockedVersion = { path: schema.path, sha256: schema.sha256 };
    if (subsetCommit !== null && subsetCommit !== commit) entry.commit = subsetCommit;
    if (schemaTs !== null) entry.schemaTs = { path: schemaTs.path, sha256: schemaTs.sha256 };
    lock.versions[version] = entry;
    const previous = old.versions[version]?.sha256 ?? null;
    const status = previous === null ? "added" : previous === schema.sha256 ? "unchanged" : "changed";
    versions.push({ version, status, previousSha256: previous, schema, schemaTs });
  }
  lock.versions = Object.fromEntries(Object.entries(lock.versions).sort(byKey));
  return { previous: old, lock, versions, warnings };
}

function staged(bytes: Uint8Array, p: string, source: string): StagedFile {
  return { bytes, path: p, sha256: sha256(bytes), source };
}
