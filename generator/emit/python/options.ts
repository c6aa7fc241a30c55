// The Python target's command-line options (`--python-package`), read by the CLI without loading the printer.
import type { TargetOption } from "../target.js";
import { isPackageName } from "./language.js";

export const DEFAULT_PYTHON_PACKAGE = "mcp_codegen";

/** Why a package name cannot be the tree's, or null when it can (the message follows the flag: `--python-package must be …`). */
export function packageNameError(name: string): string | null {
  return isPackageName(name) ? null : `must be a Python package name such as mcp_codegen or acme.mcp_protocol, got "${name}"`;
}

/** The package the tree is (`mcp_codegen`, `acme.mcp_protocol`: dotted names make folders). */
export const pythonPackageOption: TargetOption = {
  flag: "python-package",
  placeholder: "NAME",
  description: `the Python package the tree is (default: ${DEFAULT_PYTHON_PACKAGE}; e.g. acme.mcp_protocol)`,
  default: DEFAULT_PYTHON_PACKAGE,
  validate: packageNameError,
};
