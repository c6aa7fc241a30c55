// Schema folders: `<dir>/<label>/schema.json`, one folder per version label.
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { InputError } from "../errors.js";

/** Version labels in a schemas folder: its subfolders holding a schema.json, sorted. */
export function discoverVersions(schemasDir: string): string[] {
  if (!existsSync(schemasDir)) throw new InputError("the schemas folder does not exist", schemasDir);
  if (!statSync(schemasDir).isDirectory()) throw new InputError("the schemas folder: expected a folder, found a file", schemasDir);
  return readdirSync(schemasDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(path.join(schemasDir, e.name, "schema.json")))
    .map((e) => e.name)
    .sort();
}

/** Resolve the labels to generate, failing on an empty folder or an unknown label. */
export function selectVersions(schemasDir: string, wanted?: string[]): string[] {
  const found = discoverVersions(schemasDir);
  if (found.length === 0) throw new InputError("expected at least one <version>/schema.json folder, found none", schemasDir);
  if (wanted === undefined) return found;
  const unknown = wanted.filter((v) => !found.includes(v));
  if (unknown.length > 0) {
    throw new InputError(`unknown version label${unknown.length > 1 ? "s" : ""} ${unknown.map((v) => `"${v}"`).join(", ")}; available: ${found.join(", ")}`, schemasDir);
  }
  return [...new Set(wanted)].sort();
}
