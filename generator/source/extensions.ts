// Extensions in the lock (schemas/lock.json `extensions`), and their sync. An extension publishes its
// schema the way the core does (`schema/<version>/schema.json` and `schema.ts` in its own repository);
// each extension version names the core versions it layers onto. Synced copies live in
// `schemas/extensions/<name>/<version>/`, filled from `--extensions-dir`/`$MCP_EXTENSIONS_DIR`
// (`<dir>/<name>/<version>/` or a checkout's `<dir>/<name>/schema/<version>/`) or the pinned download.
// An extension version may pin its specification text too (`text`, e.g. tasks.md, whose examples the
// tests read): synced beside the schema the same way (a checkout has it at its pinned path).
import path from "node:path";
import { syncSchemas, type SpecLock, type SyncedVersion } from "./lock.js";
import type { LockedExtension, LockedExtensionVersion } from "./extension-lock.js";

export type { LockedExtension, LockedExtensionVersion } from "./extension-lock.js";

/** Where the synced files of the extension `name` are, below the schemas folder. */
export function extensionSchemasDir(schemasDir: string, name: string): string {
  return path.join(schemasDir, "extensions", name);
}

/** The synced copy of an extension version's pinned specification text, or undefined when the lock pins none. */
export function extensionTextFile(schemasDir: string, name: string, label: string, entry: LockedExtensionVersion): string | undefined {
  return entry.text === undefined ? undefined : path.join(extensionSchemasDir(schemasDir, name), label, path.posix.basename(entry.text.path));
}

/** The lock's extensions (none when it has no `extensions`). */
export function lockedExtensions(lock: SpecLock | undefined): Record<string, LockedExtension> {
  return lock?.extensions ?? {};
}

/** One extension as a lock of its own, so the core's sync (verify, obtain, write atomically) serves it. */
function asSpecLock(ext: LockedExtension): SpecLock {
  const first = Object.values(ext.versions)[0];
  return { repository: ext.repository, commit: first?.commit ?? "0".repeat(40), rawUrl: ext.rawUrl, versions: ext.versions };
}

export interface ExtensionSyncOptions {
  lock: SpecLock;
  schemasDir: string;
  /** Folder of extension folders (`<dir>/<name>/<version>/schema.json`), e.g. ../shared/mcp-extensions. */
  extensionsDir?: string;
  /** Only extension versions layered onto these core labels (default: every one). */
  coreVersions?: string[];
  download?: (url: string) => Promise<Uint8Array>;
  /** Verify only, as `SyncOptions.readOnly`: the spec shipped inside the tool. */
  readOnly?: boolean;
}

/**
 * Sync every locked extension version (those onto `coreVersions` when given) into
 * `schemas/extensions/<name>/<version>/`, verified by sha256; as `syncSchemas`, nothing of an
 * extension is written when one of its files cannot be obtained. Results are labelled `<name>@<version>`.
 */
export async function syncExtensions(opts: ExtensionSyncOptions): Promise<SyncedVersion[]> {
  const out: SyncedVersion[] = [];
  for (const [name, ext] of Object.entries(lockedExtensions(opts.lock)).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const versions = Object.keys(ext.versions)
      .filter((v) => opts.coreVersions === undefined || ext.versions[v].core.some((c) => opts.coreVersions!.includes(c)))
      .sort();
    if (versions.length === 0) continue;
    const results = await syncSchemas({
      lock: asSpecLock(ext),
      schemasDir: extensionSchemasDir(opts.schemasDir, name),
      specDir: opts.extensionsDir === undefined ? undefined : path.join(opts.extensionsDir, name),
      versions,
      download: opts.download,
      readOnly: opts.readOnly,
    });
    for (const r of results) out.push({ ...r, version: `${name}@${r.version}` });
  }
  return out;
}
