// The Ruby target's command-line options (`--ruby-module`), read by the CLI without loading the printer.
import type { TargetOption } from "../target.js";
import { isModulePath } from "./language.js";

export const DEFAULT_RUBY_MODULE = "McpCodegen";

/** The namespace every generated module lives in (`McpCodegen`, `MCP::Protocol`). */
export const rubyModuleOption: TargetOption = {
  flag: "ruby-module",
  // The flag's first name, kept as a deprecated alias.
  aliases: ["module"],
  placeholder: "NAME",
  description: `the Ruby namespace (default: ${DEFAULT_RUBY_MODULE}; e.g. MCP::Protocol)`,
  default: DEFAULT_RUBY_MODULE,
  validate: (value) => (isModulePath(value) ? null : `must be a Ruby constant path such as McpCodegen or MCP::Protocol, got "${value}"`),
};
