// Where the Python target's own files are (read from the source folder, also when running from dist/).
import path from "node:path";
import { generatorSourceDir, runtimesDir } from "../../paths.js";
import { filesIn } from "../runtime-copy.js";

/** The Python target's folder in the generator's sources. */
export const pythonSourceDir = path.join(generatorSourceDir, "emit", "python");
/** The Python runtime's package folder (runtimes/python/, a package checked by ruff and pyright with its own configuration). */
export const pythonRuntimeDir = path.join(runtimesDir, "python", "src", "mcp_codegen_runtime");
/** Hand-written Python runtime's rules module, copied into every Python tree as `<package>.runtime`. */
export const pythonRuntimeSource = path.join(pythonRuntimeDir, "runtime.py");
/**
 * The hand-written Python modules, each copied into every Python tree beside the version modules under the
 * same module name: every `.py` file of the runtime's package folder (runtime.py, dispatcher.py, …) but its
 * `__init__.py` (the tree prints its own) and its protocol.py (the tree prints its own protocol module; the
 * runtime's re-exports the project tree's for the runtime's own checks), by name. A new runtime module is one new file there.
 */
/** The runtime package's stand-in for the tree's printed protocol module: never copied. */
export const PYTHON_PROTOCOL_SHIM = "protocol.py";

export function pythonRuntimeModules(): string[] {
  return filesIn(pythonRuntimeDir, (name) => name.endsWith(".py") && name !== "__init__.py" && name !== PYTHON_PROTOCOL_SHIM);
}
/** The Python target's templates (its header). */
export const pythonTemplatesDir = path.join(pythonSourceDir, "templates");
/** The hand-written recipe that adopts the tree in the Python SDK (ADOPTING.md, the patch), copied into every Python tree. */
export const pythonAdoptingDir = path.join(pythonSourceDir, "adopting");
