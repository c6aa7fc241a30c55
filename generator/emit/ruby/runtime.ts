// The Ruby runtime (runtimes/ruby/): runtime.rb, gate.rb and projection.rb are copied into the tree by the one copier
// (emit/runtime-copy.ts), behind the header naming their source. The one transform a copy takes is the
// namespace: a Ruby tree lives in the module its option names (`McpCodegen`, `MCP::Protocol`), so the
// source's requires go first and the rest is put inside that module. methods.rb is no copy: its helpers
// follow the method constants the printer prints (printer.ts).
import path from "node:path";
import { finish } from "../../print/text.js";
import type { TargetRuntime } from "../target.js";
import { inNamespace, modulePath } from "./language.js";
import { DEFAULT_RUBY_MODULE, rubyModuleOption } from "./options.js";
import { rubyGateSource, rubyProjectionSource, rubyRuntimeDir, rubyRuntimeSource } from "./paths.js";

const MAGIC_COMMENT = "# frozen_string_literal: true";

/** runtimes/ruby/{gate,projection,runtime}.rb → <namespace path>/{gate,projection,runtime}.rb of the tree, inside the namespace. */
export const rubyRuntime: TargetRuntime = {
  dir: rubyRuntimeDir,
  files: () => [path.basename(rubyGateSource), path.basename(rubyProjectionSource), path.basename(rubyRuntimeSource)],
  destination: (file, options) => `${modulePath(options[rubyModuleOption.flag] ?? DEFAULT_RUBY_MODULE)}/${file}`,
  wrap: (source, header, options) => {
    const lines = source.split("\n");
    const isRequire = (line: string) => /^require(_relative)? /.test(line);
    const body = lines.filter((line) => line !== MAGIC_COMMENT && !isRequire(line)).join("\n").trim();
    const namespace = (options[rubyModuleOption.flag] ?? DEFAULT_RUBY_MODULE).split("::");
    return finish([MAGIC_COMMENT, ...header.map((line) => `# ${line}`), "", ...lines.filter(isRequire), "", inNamespace(namespace, body)].join("\n"));
  },
};
