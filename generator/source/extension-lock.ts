// The lock's `extensions` member: its types and its check (read by source/lock.ts's readLock).
import { InputError, pointer } from "../errors.js";

/** A file pinned by path and sha256 (the shape of source/lock.ts's LockedFile). */
interface PinnedFile {
  path: string;
  sha256: string;
}

export interface LockedExtensionVersion extends PinnedFile {
  /** The extension's own schema.ts, when pinned. */
  schemaTs?: PinnedFile;
  /**
   * The extension's specification text (`specification/<version>/tasks.md`), when pinned: the examples
   * the tests judge the generated models by. Synced to `schemas/extensions/<name>/<version>/` under its
   * file name, like the schema.
   */
  text?: PinnedFile;
  /** The extension repository's commit the files were pinned at. */
  commit: string;
  /** The core version labels (keys of the lock's `versions`) this extension version layers onto. */
  core: string[];
  /**
   * Core requests that may answer with results the extension defines, by method (`"tools/call":
   * ["CreateTaskResult"]`): what the extension's specification text says and its schema cannot.
   */
  results?: Record<string, string[]>;
}

export interface LockedExtension {
  /** The identifier negotiated under `capabilities.extensions` (`io.modelcontextprotocol/tasks`). */
  identifier: string;
  repository: string;
  /** Raw-file address template with `{commit}` and `{path}`. */
  rawUrl: string;
  versions: Record<string, LockedExtensionVersion>;
}

const NAME = /^[a-z][a-z0-9-]*$/;
const HEX40 = /^[0-9a-f]{40}$/;
const HEX64 = /^[0-9a-f]{64}$/;
/** A pinned text's path: its file name (the name it is synced under) neither of the schema files'. */
const FILE = /^(?:[^/]+\/)*(?!schema\.json$|schema\.ts$)[\w.-]+$/;

/** Check the lock's `extensions` member (absent is fine); throws InputError at the pointer. */
export function validateLockedExtensions(data: Record<string, unknown>, file: string): void {
  if (data.extensions === undefined) return;
  const obj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
  const fail: (message: string, ...at: Array<string | number>) => never = (message, ...at) => {
    throw new InputError(message, file, pointer("extensions", ...at));
  };
  if (!obj(data.extensions)) fail("expected an object of extensions by name");
  const versions = obj(data.versions) ? data.versions : {};
  for (const [name, ext] of Object.entries(data.extensions as Record<string, unknown>)) {
    if (!NAME.test(name)) fail("expected a lowercase name (letters, digits, dashes): it names folders", name);
    if (!obj(ext)) fail("expected { identifier, repository, rawUrl, versions }", name);
    for (const key of ["identifier", "repository", "rawUrl"]) if (typeof ext[key] !== "string") fail("expected a string", name, key);
    if (!obj(ext.versions)) fail("expected an object of extension versions", name, "versions");
    for (const [label, entry] of Object.entries(ext.versions as Record<string, unknown>)) {
      const at = [name, "versions", label];
      if (!obj(entry) || typeof entry.path !== "string") fail("expected { path, sha256, commit, core }", ...at);
      if (typeof entry.sha256 !== "string" || !HEX64.test(entry.sha256)) fail("expected a 64-hex-digit sha256", ...at, "sha256");
      if (typeof entry.commit !== "string" || !HEX40.test(entry.commit)) fail("expected a 40-hex-digit commit", ...at, "commit");
      if (entry.schemaTs !== undefined) {
        const ts = entry.schemaTs;
        if (!obj(ts) || typeof ts.path !== "string") fail("expected { path, sha256 }", ...at, "schemaTs");
        if (typeof ts.sha256 !== "string" || !HEX64.test(ts.sha256)) fail("expected a 64-hex-digit sha256", ...at, "schemaTs", "sha256");
      }
      if (entry.text !== undefined) {
        const text = entry.text;
        if (!obj(text) || typeof text.path !== "string" || !FILE.test(text.path)) fail("expected { path, sha256 }, the path's file name not schema.json or schema.ts", ...at, "text");
        if (typeof text.sha256 !== "string" || !HEX64.test(text.sha256)) fail("expected a 64-hex-digit sha256", ...at, "text", "sha256");
      }
      if (!Array.isArray(entry.core) || entry.core.length === 0) fail("expected a non-empty list of core version labels", ...at, "core");
      (entry.core as unknown[]).forEach((core, i) => {
        if (typeof core !== "string") fail("expected a core version label", ...at, "core", i);
        if (!Object.hasOwn(versions, core)) fail(`core version "${core}" is not in the lock (have: ${Object.keys(versions).sort().join(", ")})`, ...at, "core", i);
      });
      if (entry.results !== undefined) {
        if (!obj(entry.results)) fail("expected { <core method>: [<result definition>, ...] }", ...at, "results");
        for (const [method, list] of Object.entries(entry.results)) {
          if (!Array.isArray(list) || list.length === 0 || !list.every((r) => typeof r === "string")) fail("expected a non-empty list of definition names", ...at, "results", method);
        }
      }
    }
  }
}

