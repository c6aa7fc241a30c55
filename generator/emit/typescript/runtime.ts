// The TypeScript runtime (runtimes/typescript/, a package type-checked and unit-tested as ordinary
// TypeScript): every file of its src/ is copied into the tree under runtime/ by the one copier
// (emit/runtime-copy.ts), behind the header naming its source.
import path from "node:path";
import { runtimesDir } from "../../paths.js";
import { filesIn } from "../runtime-copy.js";
import type { TargetRuntime } from "../target.js";

/** runtimes/typescript/src/<name>.ts (tests and declarations excluded) → runtime/<name>.ts of the tree. */
export const typescriptRuntime: TargetRuntime = {
  dir: path.join(runtimesDir, "typescript", "src"),
  files: () => filesIn(typescriptRuntime.dir, (n) => n.endsWith(".ts") && !n.endsWith(".test.ts") && !n.endsWith(".d.ts")),
  destination: (file) => `runtime/${file}`,
  wrap: (source, header) => header.map((line) => `// ${line}\n`).join("") + source,
};
