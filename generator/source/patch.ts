// Reviewed JSON patches (schemas/patches/<sha256 prefix>.json), applied to a schema before it is
// loaded. Each patch is named and says why it exists, like a code review. A patch file belongs to
// exact bytes, not to a label: it applies to every version whose schema.json has those bytes, and to
// no other. A bump carries a patch to new bytes where its own `test` operations still hold there
// (`carryPatches`, bump.ts writes it into the new bytes' file); one whose tests fail is reopened.
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

/**
 * Patch files a bump is about to write (patches carried to new bytes), by the sha256 of the bytes
 * they are for: read before the files in the folder, so that the bump's model is the one it commits.
 */
export type StagedPatches = ReadonlyMap<string, PatchFile>;

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
export function patchesFor(patchesDir: string, sha: string, staged?: StagedPatches): { file: string; patches: NamedPatch[] } | null {
  const file = patchFileFor(patchesDir, sha);
  const reviewed = staged?.get(sha) ?? readPatches(file);
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
      const failure = applyOperation(doc, op);
      if (failure === null) return;
      const where = pointer("patches", i, "ops", j);
      if (failure === "test") throw new InputError(`patch "${patch.name}": test failed at ${op.path} (the schema changed; review the patch)`, patchFile, where);
      if (failure === "root") throw new InputError(`patch "${patch.name}": cannot patch the document root`, patchFile, where);
      throw new InputError(`patch "${patch.name}": ${schemaFile} has nothing at ${op.path}`, patchFile, where);
    });
  });
}

/** One operation applied in place: null when it did, else why not (a failed test, nothing at its path, the root). */
function applyOperation(doc: Record<string, unknown>, op: PatchOperation): "test" | "missing" | "root" | null {
  const tokens = parsePointer(op.path);
  const last = tokens.pop();
  let parent: unknown = doc;
  for (const t of tokens) {
    parent = (parent as Record<string, unknown>)?.[t];
    if (typeof parent !== "object" || parent === null) return "missing";
  }
  if (last === undefined) return "root";
  const container = parent as Record<string, unknown> & unknown[];
  const exists = Array.isArray(container) ? last === "-" || Number(last) < container.length : Object.hasOwn(container, last);
  if (op.op !== "add" && !exists) return op.op === "test" ? "test" : "missing";
  switch (op.op) {
    case "test":
      if (JSON.stringify(container[last as never]) !== JSON.stringify(op.value)) return "test";
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
  return null;
}

/** The value at a JSON pointer of a document, or undefined when there is none. */
function valueAt(doc: unknown, at: string): unknown {
  let node = doc;
  for (const t of parsePointer(at)) {
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, t)) return undefined;
    node = (node as Record<string, unknown>)[t];
  }
  return node;
}

/**
 * What became of a reviewed patch of old bytes on new bytes (`carryPatches`): `carried` when every
 * `test` operation it makes holds on the new document (and it applies), `reopened` otherwise, naming
 * the pointer whose expected value moved and what is there now (`found` absent: nothing is). A patch
 * without a `test` operation states no expectation to check, so it is never carried: reopened, with no
 * pointer, for a person to review against the new bytes.
 */
export type PatchCarry =
  | { name: string; status: "carried" }
  | { name: string; status: "reopened"; reason: "test failed" | "no test" | "does not apply"; pointer: string | null; expected?: unknown; found?: unknown };

/**
 * The patches of old bytes that carry to new bytes (a ledger keyed by pointer and expected value: a
 * patch carries wherever its own `test` operations hold), in order, each tested on the document as the
 * patches before it leave it (as loading applies them). `doc` is the new bytes' parsed document; it is
 * not changed.
 */
export function carryPatches(doc: Record<string, unknown>, patches: readonly NamedPatch[]): { carried: NamedPatch[]; outcomes: PatchCarry[] } {
  const work = structuredClone(doc);
  const carried: NamedPatch[] = [];
  const outcomes: PatchCarry[] = [];
  for (const patch of patches) {
    if (!patch.ops.some((op) => op.op === "test")) {
      outcomes.push({ name: patch.name, status: "reopened", reason: "no test", pointer: null });
      continue;
    }
    const trial = structuredClone(work);
    const failed = patch.ops.find((op) => applyOperation(trial, op) !== null);
    if (failed === undefined) {
      applyPatchOps(work, patch);
      carried.push(patch);
      outcomes.push({ name: patch.name, status: "carried" });
      continue;
    }
    // Which expectation moved: the failed test itself, or (an operation past the tests failing) its own path.
    const found = failed.op === "test" ? valueAt(trialBefore(work, patch, failed), failed.path) : undefined;
    outcomes.push(
      failed.op === "test"
        ? { name: patch.name, status: "reopened", reason: "test failed", pointer: failed.path, expected: failed.value, ...(found === undefined ? {} : { found }) }
        : { name: patch.name, status: "reopened", reason: "does not apply", pointer: failed.path },
    );
  }
  return { carried, outcomes };
}

function applyPatchOps(doc: Record<string, unknown>, patch: NamedPatch): void {
  for (const op of patch.ops) applyOperation(doc, op);
}

/** The document as it is when `failed` runs: the patch's operations before it applied to a copy. */
function trialBefore(doc: Record<string, unknown>, patch: NamedPatch, failed: PatchOperation): Record<string, unknown> {
  const copy = structuredClone(doc);
  for (const op of patch.ops) {
    if (op === failed) break;
    applyOperation(copy, op);
  }
  return copy;
}

/** A patch file's bytes as committed: two-space JSON and a final newline. */
export function formatPatchFile(file: PatchFile): Uint8Array {
  return new TextEncoder().encode(JSON.stringify({ sha256: file.sha256, patches: file.patches }, null, 2) + "\n");
}
