// The Ruby target: per version a module of frozen data and plain functions (catalogue, normalizers,
// params validators), the combined Methods module and the Gate, the runtime, the recipe for the Ruby SDK,
// and a root file requiring them. Its printer loads only when it emits.
import type { Target } from "../target.js";
import { rubyModuleOption } from "./options.js";
import { methodCapabilitiesFile, protocolFactsFile, rubyMethodsSource } from "./paths.js";
import { rubyRuntime } from "./runtime.js";

export { rubyRuntimeSource } from "./paths.js";

export const rubyTarget: Target = {
  name: "ruby",
  title: "Ruby",
  folder: "ruby",
  options: [rubyModuleOption],
  async emit(model, context) {
    const { emitRubyTree } = await import("./printer.js");
    return emitRubyTree(model, { module: context.options["ruby-module"], cacheDir: context.cacheDir });
  },
  // The root file (`mcp_codegen.rb`, `mcp/protocol.rb` …) requires the rest.
  recognizes: (paths) => paths.some((p) => p.endsWith(".rb")),
  // Besides its templates: the Methods helpers it prints after the constants, the recipe it copies and the reviewed capability data it prints.
  sources: [rubyMethodsSource, "emit/ruby/templates", "emit/ruby/adopting", methodCapabilitiesFile, protocolFactsFile],
  runtime: rubyRuntime,
};
