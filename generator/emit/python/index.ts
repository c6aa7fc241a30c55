// The Python target (issue 21): pydantic v2 models, the method catalogue, the method gate and the
// result normalizers of every version, as one package. Its printer loads only when it emits.
import { methodCapabilitiesFile, protocolFactsFile } from "../../paths.js";
import type { Target } from "../target.js";
import { DEFAULT_PYTHON_PACKAGE, pythonPackageOption } from "./options.js";
import { pythonRuntime } from "./runtime.js";

export { DEFAULT_PYTHON_PACKAGE, packageNameError } from "./options.js";
export { pythonRuntimeSource } from "./paths.js";

export const pythonTarget: Target = {
  name: "python",
  title: "Python",
  folder: "python",
  options: [pythonPackageOption],
  async emit(model, context) {
    const { emitPythonTree } = await import("./printer.js");
    return emitPythonTree(model, { package: context.options["python-package"] ?? DEFAULT_PYTHON_PACKAGE, cacheDir: context.cacheDir });
  },
  // pyproject.toml heads the tree; the package's runtime.py is what makes it this target's.
  recognizes: (paths) => paths.includes("pyproject.toml") && paths.some((p) => p.endsWith("/runtime.py")),
  sources: ["emit/python/templates", "emit/python/adopting", methodCapabilitiesFile, protocolFactsFile],
  runtime: pythonRuntime,
};
