// The TypeScript target: per version types, zod schemas, guards, the method catalogue, handler types,
// normalizers and dispatchers; the runtime, the router, the catalogue types and the root index; the
// matrix, the diffs and the generated package's files. Its printers load only when it emits.
import { methodCapabilitiesFile } from "../../paths.js";
import type { Target } from "../target.js";

export const typescriptTarget: Target = {
  name: "typescript",
  title: "TypeScript",
  folder: "",
  options: [],
  async emit(model, context) {
    const { emitTypeScriptTree } = await import("./tree.js");
    return emitTypeScriptTree(model, context);
  },
  recognizes: (paths) => paths.includes("index.ts"),
  // Its templates, the diff reports' (templates/), and the runtime copied into the tree (the generator's own code is hashed anyway).
  sources: ["emit/typescript/templates", "../templates", "runtime", methodCapabilitiesFile],
};
