// The output targets: one line per target. A new language is a folder under generator/emit/ with an
// index.ts exporting its Target (see target.ts), plus its line here. Everything that depends on the
// set of targets (the CLI's --target list and per-target options, the writer's tree recognition, what
// a run owns of the output folder, the fingerprint's inputs) asks a TargetRegistry.
//
// The registry is a value, not module state: the library and the CLI take one (default: `targets`),
// and `targets.with(another)` is a registry with one more target, for a project's own target or a test's.
import { TargetRegistry } from "./registry.js";
import { typescriptTarget } from "./typescript/index.js";
import { rubyTarget } from "./ruby/index.js";
import { pythonTarget } from "./python/index.js";
import { goTarget } from "./go/index.js";

export { TargetRegistry } from "./registry.js";
export type { Target, TargetContext, TargetOption } from "./target.js";

/** The targets mcp-codegen ships, in the order `--target` lists them. */
export const targets: TargetRegistry = new TargetRegistry([
  typescriptTarget,
  rubyTarget,
  pythonTarget,
  goTarget,
]);
