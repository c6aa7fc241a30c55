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

/** Whether the tree is a module of its own (its go.mod) or package folders of the module enclosing it. */
export const GO_MODULE_KINDS = ["own", "enclosing"] as const;
export type GoModuleKind = (typeof GO_MODULE_KINDS)[number];

export const goModuleOption: TargetOption = {
  flag: "go-module",
  placeholder: "own|enclosing",
  description: "own (default): the tree is a Go module, with its go.mod; enclosing: no go.mod, the tree is a folder of the module around it and --go-package is that folder's import path (vendoring it into a library)",
  default: "own",
  validate: (value) => ((GO_MODULE_KINDS as readonly string[]).includes(value) ? null : `must be one of ${GO_MODULE_KINDS.join(", ")}, got "${value}"`),
};
