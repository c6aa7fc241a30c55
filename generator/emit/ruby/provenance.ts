// The Ruby tree's provenance: the shared wording (print/provenance.ts), whose last line is the exact
// command that regenerates (and, with --check, checks) the tree wherever it is vendored, naming the
// generator's version. Ruby files carry it as comments (templates/header.rb.hbs); the files that are not
// Ruby (params documents, the recipe) carry provenanceLines(versions, regenerate) as they can.
import { toolVersion } from "../../paths.js";
import type { VersionModel } from "../../model/types.js";
import type { Templates } from "../../print/templates.js";
import { rubyModuleOption } from "./options.js";

/** The command that regenerates a tree of these versions and module, and how to check it. */
export function regenerateCommand(versions: readonly VersionModel[], module: string, root: string): string {
  const command = `mcp-codegen generate --target ruby --${rubyModuleOption.flag} ${module} --versions ${versions.map((v) => v.label).join(",")} --out DIR`;
  return `Regenerate with \`${command}\` (mcp-codegen ${toolVersion}, run where its schemas/lock.json is; DIR: the folder holding ${root}.rb); check with the same command plus \`--check\`.`;
}

/** The provenance header as Ruby comments, then the magic comment. */
export function rubyHeader(templates: Templates, versions: readonly VersionModel[], regenerate: string): string {
  return templates.get("header.rb.hbs")({ versions, regenerate });
}
