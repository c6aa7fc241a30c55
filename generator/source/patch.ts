// Reviewed JSON patches (schemas/patches/<sha256 prefix>.json), applied to a schema before it is
// loaded. Each patch is named and says why it exists, like a code review. A patch file belongs to
// exact bytes, not to a label: it applies to every version whose schema.json has those bytes, and to
// no other (after a bump that changes them it no longer applies, and the errata it fixed are open again).
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { InputError, parsePointer, pointer } from "../errors.js";
import { readJsonFile } from "../files.js";

export interface PatchOperation {
  op: "add" | "remove" | "replace" | "test";
  path: string;
  value?: unknown;
}

export interface NamedPatch {
  name: string;
  why: string;
  ops: PatchOperation[];
}

export interface PatchFile {
  /** The schema bytes (sha256) the patches were reviewed against; they apply to those bytes only. */
  sha256: string;
  patches: NamedPatch[];
}

/** How many hex digits of the sha256 name a patch file. */
const NAME_DIGITS = 12;

/** Where the patches of the schema bytes with this sha256 are: `<patchesDir>/<first 12 hex digits>.json`. */
export function patchFileFor(patchesDir: string, sha: string): string {
  return path.join(patchesDir, `${sha.slice(0, NAME_DIGITS)}.json`);
}

/**
 * The reviewed patches of the schema bytes with this sha256, or null when there are none. A file
 * named for these bytes that was reviewed against other bytes is bad input.
 */
export function patchesFor(patchesDir: string, sha: string): { file: string; patches: NamedPatch[] } | null {
  const file = patchFileFor(patchesDir, sha);
  const reviewed = readPatches(file);
  if (reviewed === null) return null;
  if (reviewed.sha256 !== sha) throw new InputError(`a patch file is named by the first ${NAME_DIGITS} hex digits of the sha256 it was reviewed against: this one is for ${reviewed.sha256}, not ${sha}`, file, pointer("sha256"));
  return { file, patches: reviewed.patches };
}

/** The patch files of `patchesDir` that apply to none of the given schema bytes (by sha256), sorted. */
export function stalePatchFiles(patchesDir: string, sha256s: Iterable<string>): string[] {
  if (!existsSync(patchesDir)) return [];
  const names = new Set([...sha256s].map((sha) => path.basename(patchFileFor(patchesDir, sha))));
  return readdirSync(patchesDir)
    .filter((f) => f.endsWith(".json") && !names.has(f))
    .sort()
    .map((f) => path.join(patchesDir, f));
}

export function readPatches(file: string): PatchFile | null {
  const data = readJsonFile(file);
  if (data === undefined) return null;
  const sha = (data as { sha256?: unknown })?.sha256;
  if (typeof sha !== "string" || !/^[0-9a-f]{64}$/.test(sha)) throw new InputError("expected the sha256 of the schema the patches were reviewed against", file, pointer("sha256"));
  const list = (data as { patches?: unknown })?.patches;
  if (!Array.isArray(list)) throw new InputError("expected { patches: [...] }", file, pointer("patches"));
  list.forEach((p, i) => {
    if (typeof p?.name !== "string" || typeof p?.why !== "string" || !Array.isArray(p?.ops)) {
      throw new InputError("expected { name, why, ops: [...] }", file, pointer("patches", i));
    }
    p.ops.forEach((op: PatchOperation, j: number) => {
      if (!["add", "remove", "replace", "test"].includes(op?.op) || typeof op?.path !== "string") {
        throw new InputError("expected an RFC 6902 operation (add, remove, replace, test) with a path", file, pointer("patches", i, "ops", j));
      }
    });
  });
  return { sha256: sha, patches: list as NamedPatch[] };
}

/** Apply patches in place to a parsed schema document. */
export function applyPatches(doc: Record<string, unknown>, patches: NamedPatch[], patchFile: string, schemaFile: string): void {
  patches.forEach((patch, i) => {
    patch.ops.forEach((op, j) => {
      const where = pointer("patches", i, "ops", j);
      const tokens = parsePointer(op.path);
      const last = tokens.pop();
      let parent: unknown = doc;
      for (const t of tokens) {
        parent = (parent as Record<string, unknown>)?.[t];
        if (typeof parent !== "object" || parent === null) {
          throw new InputError(`patch "${patch.name}": ${schemaFile} has nothing at ${op.path}`, patchFile, where);
        }
      }
      if (last === undefined) throw new InputError(`patch "${patch.name}": cannot patch the document root`, patchFile, where);
      const container = parent as Record<string, unknown> & unknown[];
      const exists = Array.isArray(container) ? last === "-" || Number(last) < container.length : Object.hasOwn(container, last);
      if (op.op !== "add" && !exists) {
        throw new InputError(`patch "${patch.name}": ${schemaFile} has nothing at ${op.path}`, patchFile, where);
      }
      switch (op.op) {
        case "test":
          if (JSON.stringify(container[last as never]) !== JSON.stringify(op.value)) {
            throw new InputError(`patch "${patch.name}": test failed at ${op.path} (the schema changed; review the patch)`, patchFile, where);
          }
          break;
        case "remove":
          if (Array.isArray(container)) container.splice(Number(last), 1);
          else delete (container as Record<string, unknown>)[last];
          break;
        case "add":
          if (Array.isArray(container)) container.splice(last === "-" ? container.length : Number(last), 0, structuredClone(op.value));
          else (container as Record<string, unknown>)[last] = structuredClone(op.value);
          break;
        case "replace":
          (container as Record<string, unknown>)[last] = structuredClone(op.value);
          break;
      }
    });
  });
}
