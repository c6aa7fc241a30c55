// The Go tree's provenance: the shared wording (print/provenance.ts) as `//` comments, whose first line
// is Go's generated-code marker and whose last is the exact command that regenerates (and, with --check,
// checks) the tree wherever it is vendored.
import { toolVersion } from "../../paths.js";
import type { VersionModel } from "../../model/types.js";
import { goModuleOption, goPackageOption, type GoModuleKind } from "./options.js";

/** The command that regenerates a tree of these versions, module path and kind, and how to check it. */
export function regenerateCommand(versions: readonly VersionModel[], module: string, moduleKind: GoModuleKind = "own"): string {
  const kind = moduleKind === "own" ? "" : ` --${goModuleOption.flag} ${moduleKind}`;
  const command = `mcp-codegen generate --target go --${goPackageOption.flag} ${module}${kind} --versions ${versions.map((v) => v.label).join(",")} --out DIR`;
  return `Regenerate with \`${command}\` (mcp-codegen ${toolVersion}, with the spec it ships or where a schemas/lock.json pins another; DIR: the folder holding ${moduleKind === "own" ? "go.mod" : "tables.go"}); check with the same command plus \`--check\`.`;
}
