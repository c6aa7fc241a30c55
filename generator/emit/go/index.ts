// The Go target: per protocol version and extension module a Go package (a type for every definition,
// the method table, method-name constants, the gate and one result normalizer per request), the runtime
// package they share, the protocol module, the go-sdk recipe and a go.mod naming the module. Its printer loads only when it emits.
import type { Target } from "../target.js";
import { goPackageOption } from "./options.js";
import { goRuntime } from "./runtime.js";

export const goTarget: Target = {
  name: "go",
  title: "Go",
  folder: "go",
  options: [goPackageOption],
  async emit(model, context) {
    const { emitGoTree } = await import("./printer.js");
    return emitGoTree(model, { module: context.options["go-package"], cacheDir: context.cacheDir });
  },
  // go.mod carries the generated header; the packages are .go files.
  recognizes: (paths) => paths.includes("go.mod") && paths.some((p) => p.endsWith(".go")),
  // Besides its TypeScript: the header template and the go-sdk recipe.
  sources: ["emit/go/templates", "emit/go/adopting"],
  runtime: goRuntime,
};
