// The Ruby language as the Ruby printer needs it: reserved words, naming styles (snake_case,
// CONSTANT_CASE, module constants, file names) and string literals. No knowledge of MCP here.
import { labelIdentifier } from "../../model/naming.js";
import { words } from "../../print/text.js";

/** Ruby's keywords (`BEGIN`, `END` and `__FILE__` & co. are keywords even though capitalized). */
export const RUBY_KEYWORDS: ReadonlySet<string> = new Set(
  (
    "BEGIN END __ENCODING__ __END__ __FILE__ __LINE__ alias and begin break case class def defined? do else elsif end " +
    "ensure false for if in module next nil not or redo rescue retry return self super then true undef unless until " +
    "when while yield"
  ).split(" "),
);

/**
 * The constants a version module assigns itself (in either era, and layered with an extension), and
 * the modules runtime.rb declares: a method constant may not take them. Declared, not scraped from
 * printed text: test/emit/ruby/language.test.ts holds the list to the generated tree and runtime.rb.
 */
export const VERSION_MODULE_CONSTANTS: ReadonlySet<string> = new Set(
  (
    "ACROSS_ERAS CUSTOM ERA EXTENSION EXTENSION_NOTIFICATIONS EXTENSION_REQUESTS EXTENSION_VERSION INTERNAL_ERROR INVALID_PARAMS " +
    "METHOD_NOT_FOUND METHOD_TABLE NOTIFICATIONS NO_CAPABILITIES PREVIOUS_VERSION PROTOCOL_VERSION REQUESTS RESULT_TYPES_COMPLETE " +
    "RESULT_TYPES_INPUT_REQUIRED Runtime SCHEMA_MAPS SIDES VALUE_KEYWORDS"
  ).split(" "),
);

/** `logging/setLevel` → `LOGGING_SET_LEVEL`: Ruby's style for constants, as the Ruby SDK's `MCP::Methods` spells them. */
export function constantCase(text: string): string {
  return words(text).map((w) => w.toUpperCase()).join("_");
}

/**
 * A module constant for a label: `2025-11-25` → `V2025_11_25`, `draft` → `Draft`, `my-next` → `My_next`; an
 * extension module's (`<core>+<extension>`) is its core's with the extension's name in CamelCase after it:
 * `draft+tasks` → `DraftTasks`, `2026-07-28+tasks` → `V2026_07_28Tasks`.
 */
export function moduleConstant(label: string): string {
  const plus = label.indexOf("+");
  if (plus >= 0) return moduleConstant(label.slice(0, plus)) + words(label.slice(plus + 1)).map((w) => w[0].toUpperCase() + w.slice(1).toLowerCase()).join("");
  const safe = labelIdentifier(label);
  return /^[a-z]/.test(safe) ? safe[0].toUpperCase() + safe.slice(1) : /^[A-Z]/.test(safe) ? safe : `V${safe}`;
}

/** A constant path (`MCP::Protocol`) is valid Ruby: each part a capitalized identifier and not a keyword. */
export function isModulePath(name: string): boolean {
  return name.split("::").every((part) => /^[A-Z][A-Za-z0-9_]*$/.test(part) && !RUBY_KEYWORDS.has(part));
}

/** The file name Ruby's conventions give a constant: `McpCodegen` → `mcp_codegen`, `MCPTools` → `mcp_tools`, `V2025_11_25` → `v2025_11_25`. */
export function fileName(constant: string): string {
  return constant
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase();
}

/** The folder path of a module path: `MCP::Protocol` → `mcp/protocol`. */
export function modulePath(name: string): string {
  return name.split("::").map(fileName).join("/");
}

/** A double-quoted Ruby string literal holding exactly `text` (no interpolation, every control character escaped). */
export function rubyString(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === "\\" || ch === '"') out += "\\" + ch;
    else if (ch === "#") out += "\\#";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\t") out += "\\t";
    else if (ch === "\r") out += "\\r";
    else if (code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0) || code === 0x2028 || code === 0x2029) out += `\\u{${code.toString(16)}}`;
    else out += ch;
  }
  return out + '"';
}

/** A Ruby symbol literal: `:client`, or `:"odd name"` when the name is not a plain identifier. */
export function rubySymbol(name: string): string {
  return /^[a-z_][A-Za-z0-9_]*$/.test(name) ? `:${name}` : `:${rubyString(name)}`;
}

/** A Ruby comment block: every line behind `# ` (empty lines become `#`). */
export function rubyComment(text: string, indent = ""): string {
  return text
    .split("\n")
    .map((line) => (line === "" ? `${indent}#` : `${indent}# ${line}`))
    .join("\n");
}

/** `module A` / `module B` … around `body`, indented two spaces per level. */
export function inNamespace(namespace: readonly string[], body: string): string {
  const indent = (depth: number) => "  ".repeat(depth);
  const open = namespace.map((n, i) => `${indent(i)}module ${n}`).join("\n");
  const close = namespace.map((_, i) => `${indent(namespace.length - 1 - i)}end`).join("\n");
  const inner = body
    .split("\n")
    .map((line) => (line === "" ? "" : indent(namespace.length) + line))
    .join("\n");
  return `${open}\n${inner}\n${close}\n`;
}
