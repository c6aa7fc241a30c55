// The Go target's doc comments are gofmt's own layout: every description and title of every schema here (the pinned
// revisions, the Tasks extension, each published revision of ../shared/mcp-spec-history) and a set of texts built to
// reach each of Go's doc comment forms, printed above a declaration, leave gofmt nothing to change. gofmt is the oracle.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { goComment } from "../../../generator/emit/go/language.js";

const toolRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const shared = path.join(toolRoot, "..", "shared");
const historyDir = path.resolve(process.env.MCP_SPEC_HISTORY_DIR || path.join(shared, "mcp-spec-history"));

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** Every `*.json` under `dir`. */
function jsonFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? jsonFiles(p) : name.endsWith(".json") ? [p] : [];
  });
}

/** Every string a schema keeps under `description` or `title`, anywhere in it. */
function texts(value: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const v of value) texts(v, out);
  else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if ((k === "description" || k === "title") && typeof v === "string") out.add(v);
      else texts(v, out);
    }
  }
  return out;
}

/** The files gofmt would change among doc comments printed above declarations, one file per text, and what it would change. */
function gofmtChanges(docs: string[]): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "mcp-codegen-go-doc-"));
  made.push(dir);
  docs.forEach((text, i) => writeFileSync(path.join(dir, `t${i}.go`), `package docs\n\n${goComment(`T${i} is a type.\n\n${text}`)}\ntype T${i} struct{}\n`));
  const r = spawnSync("gofmt", ["-d", "."], { cwd: dir, encoding: "utf8", maxBuffer: 1 << 28 });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

/** Texts that reach each form of Go's doc comments: code, lists (bulleted, numbered, loose, unindented), headings, links. */
const forms: Record<string, string> = {
  "an indented example after a paragraph": "Hints, for example:\n  { readOnly: false, destructive: true }\nand more.",
  "an indented bulleted list": "Kinds:\n  - one\n  - two\n    continued",
  "a numbered list after a blank line": "Steps:\n\n 1) first\n 2) second",
  "a loose list": "Kinds:\n  - one\n\n  - two",
  "an unindented list wrapped by an indented line": "Kinds:\n- one\n  wrapped\n- two",
  "a line ending in a brace before indented lines": "Example:\nfunc main() {\n\tcall()\n}",
  "a title alone between paragraphs": "First paragraph.\n\nNotes\n\nSecond paragraph.",
  "a # heading": "First.\n\n# Details\n\nMore.",
  "a code block with a blank line inside": "Example:\n\n    a := 1\n\n    b := 2\nDone.",
  "link definitions in the middle": "See [the spec].\n\n[the spec]: https://modelcontextprotocol.io\n\nMore text.",
  "tabs and spaces mixed in indentation": "Mixed:\n\t  tab then spaces\n  \tspaces then tab",
  "a bullet that is not a list (no space after it)": "Values:\n  -1 is refused\n  +2 is kept",
  "CRLF line ends and trailing spaces": "One  \r\n  two\r\n\r\nthree\t",
};

describe("Go doc comments as gofmt lays them out", () => {
  it.each(Object.entries(forms))("%s: gofmt changes nothing, and every word of the text is kept", (_name, text) => {
    expect(gofmtChanges([text])).toBe("");
    // A layout that dropped lines would please gofmt too: every word must survive (gofmt's own rewrites aside:
    // a numbered item's "1)" becomes "1.", link definitions move to the end).
    const words = (t: string) => t.split(/\s+/).filter((w) => w !== "" && w !== "//" && w !== "#").map((w) => w.replace(/^(\d+)\)$/, "$1.")).sort();
    expect(words(goComment(text).replace(/^\/\/\s?/gm, ""))).toEqual(words(text));
  });

  it("an indented example becomes a code block: behind a tab, set apart by blank lines", () => {
    expect(goComment("Hints, for example:\n  { readOnly: false }\nand more.")).toBe("// Hints, for example:\n//\n//\t{ readOnly: false }\n//\n// and more.");
  });

  it("an indented list: each item behind '  - ', its wrapped lines behind four spaces", () => {
    expect(goComment("Kinds:\n  - one\n  - two\n    continued")).toBe("// Kinds:\n//   - one\n//   - two\n//     continued");
  });

  it("a struct field's comment (indented, which gofmt leaves alone) keeps its lines as written", () => {
    expect(goComment("Hints:\n  { readOnly: false }", "\t")).toBe("\t// Hints:\n\t//   { readOnly: false }");
  });

  it("every description and title of the pinned schemas, the Tasks extension and each published revision", () => {
    const roots = [path.join(toolRoot, "schemas"), path.join(shared, "mcp-extensions"), historyDir];
    const found = new Set<string>();
    for (const root of roots) {
      expect(existsSync(root), root).toBe(true);
      for (const file of jsonFiles(root)) {
        try {
          texts(JSON.parse(readFileSync(file, "utf8")), found);
        } catch {
          // a file that is not JSON holds no schema text
        }
      }
    }
    expect(found.size).toBeGreaterThan(0);
    expect(gofmtChanges([...found].sort())).toBe("");
  });
});
