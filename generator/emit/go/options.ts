// The Go target's command-line options (`--go-package`), read by the CLI without loading the printer.
import type { TargetOption } from "../target.js";
import { isModulePath } from "./language.js";

export const DEFAULT_GO_PACKAGE = "mcpcodegen";

/** The Go module path of the tree (its go.mod's `module`); each version is a package under it. */
export const goPackageOption: TargetOption = {
  flag: "go-package",
  placeholder: "PATH",
  description: `the Go module import path of the tree (default: ${DEFAULT_GO_PACKAGE}; e.g. example.com/mcp/protocol)`,
  default: DEFAULT_GO_PACKAGE,
  validate: (value) =>
    isModulePath(value) ? null : `must be a Go module path such as mcpcodegen or example.com/mcp/protocol (lowercase letters, digits, ".", "-", "_", "~" in "/"-separated elements), got "${value}"`,
};
