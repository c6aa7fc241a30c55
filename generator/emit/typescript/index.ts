// The TypeScript target: per version types, zod schemas, guards, the method catalogue, handler types,
// normalizers and dispatchers; the runtime, the router, the catalogue types and the root index; the
// generated package's files. Its printers load only when it emits. (MATRIX.md and DIFFS/ beside its
// files are the reports stage's: generator/reports/.)
import { methodCapabilitiesFile, protocolFactsFile } from "../../paths.js";
import type { Target } from "../target.js";
import { typescriptRuntime } from "./runtime.js";

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
  // Its templates and the reviewed capabilities the table reads (the generator's own code and the runtime are hashed anyway).
  sources: ["emit/typescript/templates", "emit/typescript/adopting", methodCapabilitiesFile, protocolFactsFile],
  runtime: typescriptRuntime,
};
