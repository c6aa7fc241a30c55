// Where the Python target's own files are (read from the source folder, also when running from dist/).
import path from "node:path";
import { generatorSourceDir } from "../../paths.js";

/** The Python target's folder in the generator's sources. */
export const pythonSourceDir = path.join(generatorSourceDir, "emit", "python");
/** Hand-written Python runtime, copied into every Python tree. */
export const pythonRuntimeSource = path.join(pythonSourceDir, "runtime.py");
/** Hand-written Python dispatcher (asyncio), copied into every Python tree beside runtime.py. */
export const pythonDispatcherSource = path.join(pythonSourceDir, "dispatcher.py");
/** The Python target's templates (its header). */
export const pythonTemplatesDir = path.join(pythonSourceDir, "templates");
/** The hand-written recipe that adopts the tree in the Python SDK (ADOPTING.md, the patch), copied into every Python tree. */
export const pythonAdoptingDir = path.join(pythonSourceDir, "adopting");
