// The recipe that adopts the Python tree in the official Python SDK (`mcp` 2.3.0): ADOPTING.md and the
// patch against the SDK, hand-written beside this file and copied into every Python tree as they are.
import { readFileSync } from "node:fs";
import path from "node:path";
import { pythonAdoptingDir } from "./paths.js";

/** The recipe's files: name in the tree → text. */
export const PYTHON_ADOPTING_FILES = ["ADOPTING.md", "python-sdk-2.3.0.patch"] as const;

export function pythonAdoptingFiles(): Map<string, string> {
  return new Map(PYTHON_ADOPTING_FILES.map((f) => [f, readFileSync(path.join(pythonAdoptingDir, f), "utf8")]));
}
