// The Python target (issue 21): pydantic v2 models, the method catalogue, the method gate and the
// result normalizers of every version, as one package. Its folder is `python/` beside the other targets.
import type { ProtocolModel } from "../../model/types.js";
import type { Target } from "../target.js";
import { DEFAULT_PYTHON_PACKAGE, emitPythonTree, packageNameError } from "./printer.js";

export { DEFAULT_PYTHON_PACKAGE, emitPythonTree, pythonNormalizerName, pythonRuntimeSource } from "./printer.js";

/** Where the Python tree sits inside the output folder when other targets are generated too. */
export const PYTHON_FOLDER = "python";

export const pythonTarget: Target = {
  name: "python",
  folder: PYTHON_FOLDER,
  options: [
    {
      flag: "python-package",
      description: "the Python package the tree is (default: mcp_codegen; e.g. acme.mcp_protocol)",
      default: DEFAULT_PYTHON_PACKAGE,
      validate: packageNameError,
    },
  ],
  async emit(model: ProtocolModel, context) {
    return emitPythonTree(model, { package: context.options["python-package"] ?? DEFAULT_PYTHON_PACKAGE });
  },
  recognizes(paths) {
    return paths.includes("pyproject.toml") && paths.some((p) => p.endsWith("/runtime.py"));
  },
  sources: ["emit/python"],
};
