// The Python target's namer, over the model's neutral names and the neutral collision pass of
// model/naming.ts (`_2`, `_3` … in a fixed order), as the other targets' namers: a definition's class or
// alias name is its spec name made a Python identifier (language.ts), without leading underscores
// (Python's mark of a private name, which `from module import *` skips) but with a trailing one
// instead, and never a name the version module binds itself (language.ts MODULE_NAMES).
import type { SchemaIR } from "../../model/ir.js";
import { unique } from "../../model/naming.js";
import { byCodeUnit } from "../../order.js";
import { identifier, MODULE_NAMES } from "./language.js";

/** The candidate Python name of a spec definition name. */
export function definitionCandidate(name: string): string {
  const py = identifier(name);
  return py.startsWith("_") || MODULE_NAMES.has(py) ? `${py.replace(/^_+/, "")}_` : py;
}

/** The Python name of every definition of a version's IR, unique and free of the module's own names, in code-unit order of the spec names. */
export function definitionNames(ir: SchemaIR): Map<string, string> {
  const names = unique([...ir.definitions.keys()], definitionCandidate, MODULE_NAMES);
  return new Map([...names].sort(([a], [b]) => byCodeUnit(a, b)));
}
