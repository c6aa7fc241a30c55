// The Python tree's provenance: the shared wording (print/provenance.ts), whose last line is the exact
// command that regenerates (and, with --check, checks) the tree wherever it is vendored or installed
// from, naming the generator's version, as the Ruby tree's does (emit/ruby/provenance.ts).
import { toolVersion } from "../../paths.js";
import type { VersionModel } from "../../model/types.js";
import { pythonPackageOption } from "./options.js";

/** The command that regenerates a tree of these versions and package, and how to check it. */
export function regenerateCommand(versions: readonly VersionModel[], pkg: string): string {
  const command = `mcp-codegen generate --target python --${pythonPackageOption.flag} ${pkg} --versions ${versions.map((v) => v.label).join(",")} --out DIR`;
  return `Regenerate with \`${command}\` (mcp-codegen ${toolVersion}, with the spec it ships or where a schemas/lock.json pins another; DIR: the folder holding pyproject.toml); check with the same command plus \`--check\`.`;
}
