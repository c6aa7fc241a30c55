// Where the Python target's own files are (read from the source folder, also when running from dist/).
import { readdirSync } from "node:fs";
import path from "node:path";
import { generatorSourceDir } from "../../paths.js";

/** The Python target's folder in the generator's sources. */
export const pythonSourceDir = path.join(generatorSourceDir, "emit", "python");
/** Hand-written Python runtime, copied into every Python tree. */
export const pythonRuntimeSource = path.join(pythonSourceDir, "runtime.py");
/**
 * The hand-written Python modules, each copied into every Python tree beside the version modules: every
 * `.py` file of this folder (runtime.py, dispatcher.py, …), by name. A new runtime module is one new file here.
 */
export function pythonRuntimeModules(): string[] {
  return readdirSync(pythonSourceDir)
    .filter((name) => name.endsWith(".py"))
    .sort();
}
/** The Python target's templates (its header). */
export const pythonTemplatesDir = path.join(pythonSourceDir, "templates");
/** The hand-written recipe that adopts the tree in the Python SDK (ADOPTING.md, the patch), copied into every Python tree. */
export const pythonAdoptingDir = path.join(pythonSourceDir, "adopting");
