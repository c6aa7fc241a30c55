// The Python language as the Python printer needs it: reserved words, identifiers, naming styles
// and string literals. No knowledge of MCP here.
import { words } from "../../print/text.js";

/** Python's keywords (soft keywords are fine as names). */
export const PYTHON_KEYWORDS: ReadonlySet<string> = new Set(
  (
    "False None True and as assert async await break class continue def del elif else except finally for from " +
    "global if import in is lambda nonlocal not or pass raise return try while with yield"
  ).split(" "),
);

/**
 * Attributes of pydantic's BaseModel (public and deprecated ones): a field may not shadow them, so a
 * property of that name gets a trailing underscore and the wire name as its alias.
 */
export const BASE_MODEL_ATTRIBUTES: ReadonlySet<string> = new Set(
  (
    "construct copy dict from_orm json model_computed_fields model_config model_construct model_copy model_dump " +
    "model_dump_json model_extra model_fields model_fields_set model_json_schema model_parametrized_name " +
    "model_post_init model_rebuild model_validate model_validate_json model_validate_strings parse_file parse_obj " +
    "parse_raw schema schema_json update_forward_refs validate"
  ).split(" "),
);

/** Names a version or extension module binds itself (imports and its own constants and functions): no definition may take them. */
export const MODULE_NAMES: ReadonlySet<string> = new Set([
  "Annotated",
  "Any",
  "Final",
  "Literal",
  "Mapping",
  "MappingProxyType",
  "Field",
  "TypeAliasType",
  "runtime",
  "PROTOCOL_VERSION",
  "ERA",
  "PREVIOUS_VERSION",
  "EXTENSION",
  "EXTENSION_VERSION",
  "EXTENSION_REQUESTS",
  "EXTENSION_NOTIFICATIONS",
  "REQUESTS",
  "NOTIFICATIONS",
  "REMOVED_METHODS",
  "METHOD_TABLE",
  "DEFINITIONS",
  "normalize_result",
  "method_error",
  "dispatcher",
  "create_server_dispatcher",
  "create_client_dispatcher",
]);

/** Builtins a printed module reads (in annotations and signatures): a module-level name must not replace them. */
export const BUILTINS_READ: ReadonlySet<string> = new Set(["bool", "dict", "list", "object", "str", "tuple"]);

/** `structuredContent` → `StructuredContent`, `io.example/key` → `IoExampleKey`. */
export function pascalCase(text: string): string {
  return words(text).map((w) => w[0].toUpperCase() + w.slice(1)).join("");
}

/** A name made a Python identifier: other characters become `_`, a leading digit gets a prefix, a keyword a trailing `_`. */
export function identifier(text: string, prefix = "_"): string {
  let out = text.replace(/[^A-Za-z0-9_]/g, "_");
  if (out === "" || /^[0-9]/.test(out)) out = prefix + out;
  return PYTHON_KEYWORDS.has(out) ? `${out}_` : out;
}

/** A version label's module name: `2025-11-25` → `v2025_11_25`, `draft` → `draft`. */
export function moduleName(label: string): string {
  const safe = label.replace(/[^A-Za-z0-9_]/g, "_").toLowerCase();
  return identifier(/^[a-z_]/.test(safe) ? safe : `v${safe}`, "v");
}

/** A dotted package name (`mcp_codegen`, `acme.mcp_protocol`) whose every part is a lowercase identifier that is not a keyword. */
export function isPackageName(name: string): boolean {
  return name.split(".").every((part) => /^[a-z_][a-z0-9_]*$/.test(part) && !PYTHON_KEYWORDS.has(part));
}

/** A double-quoted Python string literal holding exactly `text`. */
export function pyString(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === "\\" || ch === '"') out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\t") out += "\\t";
    else if (ch === "\r") out += "\\r";
    else if (code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0) || code === 0x2028 || code === 0x2029) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else if (code >= 0xd800 && code <= 0xdfff) out += `\\u${code.toString(16)}`;
    else out += ch;
  }
  return out + '"';
}

/**
 * A docstring literal (`"""…"""`) for `text`, indented, trailing blanks dropped; backslashes escaped, and
 * a quote only where the literal needs it (in a run of three, or last on the closing line).
 */
export function docstring(text: string, indent: string): string {
  const body = text
    .replace(/\r\n?/g, "\n")
    .replace(/\\/g, "\\\\")
    .replace(/"""/g, '""\\"')
    .split("\n")
    .map((line) => line.replace(/\s+$/, ""))
    .join("\n")
    .trim()
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
  const lines = body.split("\n");
  // One line: a quote last would run into the closing `"""`.
  if (lines.length === 1) return `${indent}"""${body.replace(/"$/, '\\"')}"""`;
  return `${indent}"""${lines[0]}\n${lines.slice(1).map((l) => (l === "" ? "" : indent + l)).join("\n")}\n${indent}"""`;
}

/** A `#` comment block: every line behind `# ` (empty lines become `#`). */
export function pyComment(text: string, indent = ""): string {
  return text
    .split("\n")
    .map((line) => (line === "" ? `${indent}#` : `${indent}# ${line}`))
    .join("\n");
}
