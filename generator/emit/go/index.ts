// The Go target: per protocol version and extension module a Go package (a type for every definition,
// the method table, method-name constants, the gate and one result normalizer per request), the runtime
// package they share, the protocol module, the go-sdk recipe and a go.mod naming the module. Its printer loads only when it emits.
import type { Target } from "../target.js";
import { goModuleOption, goPackageOption, type GoModuleKind } from "./options.js";
import { goRuntime } from "./runtime.js";

export const goTarget: Target = {
  name: "go",
  title: "Go",
  folder: "go",
  options: [goPackageOption, goModuleOption],
  async emit(model, context) {
    const { emitGoTree } = await import("./printer.js");
    return emitGoTree(model, { module: context.options["go-package"], moduleKind: context.options["go-module"] as GoModuleKind | undefined, cacheDir: context.cacheDir });
  },
  // The root package (tables.go, behind the generated header) and the runtime package; go.mod too unless the
  // tree is a folder of an enclosing module.
  recognizes: (paths) => paths.includes("tables.go") && paths.some((p) => p.startsWith("mcpruntime/") && p.endsWith(".go")),
  // Besides its TypeScript: the header template and the go-sdk recipe.
  sources: ["emit/go/templates", "emit/go/adopting"],
  runtime: goRuntime,
};
