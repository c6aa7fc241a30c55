// The Go language as the Go printer needs it: identifiers, package names, string literals, comments.
// No knowledge of MCP here.
import { labelIdentifier } from "../../model/naming.js";
import { words } from "../../print/text.js";
import { goDocComment } from "./doc-comment.js";

/** Go's keywords and predeclared identifiers a package-level name must not be. */
export const GO_KEYWORDS: ReadonlySet<string> = new Set(
  ("break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var " +
    "any bool byte comparable complex128 complex64 error float32 float64 int int16 int32 int64 int8 rune string uint uint16 uint32 uint64 uint8 uintptr " +
    "true false iota nil append cap clear close complex copy delete imag len make max min new panic print println real recover").split(" "),
);

/** A module path go accepts: "/"-separated elements of lowercase letters, digits and ".-_~", none empty or dot-only. */
export function isModulePath(value: string): boolean {
  return value.split("/").every((e) => /^[a-z0-9][a-z0-9._~-]*$/.test(e) && !e.endsWith(".")) && !GO_KEYWORDS.has(packageName(value));
}

/** The package name of an import path: its last element in identifier characters (`example.com/mcp-proto` → `mcp_proto`). */
export function packageName(importPath: string): string {
  const last = importPath.slice(importPath.lastIndexOf("/") + 1);
  const name = last.replace(/[^a-z0-9_]/g, "_");
  return /^[a-z_]/.test(name) ? name : `p${name}`;
}

/** A version's (or extension module's) package: `2025-11-25` → `v2025_11_25`, `2026-07-28+tasks` → `v2026_07_28_tasks`, `draft` → `draft`. */
export function versionPackage(label: string): string {
  const safe = labelIdentifier(label).toLowerCase();
  const name = /^[a-z]/.test(safe) ? safe : `v${safe}`;
  return GO_KEYWORDS.has(name) ? `${name}_` : name;
}

/** An exported Go identifier from any name: `logging/setLevel` → `LoggingSetLevel`, `_meta` → `Meta`, `` → `X`. */
export function exported(text: string): string {
  const name = words(text).map((w) => w[0].toUpperCase() + w.slice(1)).join("");
  if (name === "") return "X";
  return /^[0-9]/.test(name) ? `X${name}` : name;
}

/** A Go interpreted string literal holding exactly `text` (JSON's escapes are Go's). */
export function goString(text: string): string {
  return JSON.stringify(text).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

/**
 * Go line comments. At the top level (no indent) they are a declaration's doc comment, laid out as gofmt lays doc
 * comments out (code blocks behind a tab, lists, blank lines between blocks); indented ones (struct fields, members
 * of a declaration group) gofmt leaves alone: every line behind `// `, empty lines as `//`.
 */
export function goComment(text: string, indent = ""): string {
  if (indent === "") return goDocComment(text);
  return text
    .replace(/\r\n?/g, "\n")
    .trimEnd()
    .split("\n")
    .map((line) => (line.trim() === "" ? `${indent}//` : `${indent}// ${line.trimEnd()}`))
    .join("\n");
}
