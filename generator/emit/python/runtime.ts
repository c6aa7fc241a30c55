// The Python runtime (runtimes/python/, a package checked by ruff and pyright): every module of its package
// folder is copied into the tree's package under the same module name by the one copier
// (emit/runtime-copy.ts), behind the header naming its source, as written.
import type { TargetRuntime } from "../target.js";
import { DEFAULT_PYTHON_PACKAGE, pythonPackageOption } from "./options.js";
import { pythonRuntimeDir, pythonRuntimeModules } from "./paths.js";

/** runtimes/python/src/mcp_codegen_runtime/<module>.py → <package path>/<module>.py of the tree. */
export const pythonRuntime: TargetRuntime = {
  dir: pythonRuntimeDir,
  files: pythonRuntimeModules,
  destination: (file, options) => `${(options[pythonPackageOption.flag] ?? DEFAULT_PYTHON_PACKAGE).split(".").join("/")}/${file}`,
  wrap: (source, header) => header.map((line) => `# ${line}\n`).join("") + source,
};
