// The documentation's fenced code blocks and sections, for the tests that run what it shows.
// Pages are README.md and docs/*.md, named by their path from the project's root ("docs/client.md").
// A block that a test runs carries a marker on the line above its opening fence:
//   <!-- example NAME: run by TEST[, TEST …] -->   (NAME unique in its page; TEST a path from the root)
// A block of a runnable language that no test runs says why instead:
//   <!-- illustration: REASON -->
// `text` blocks are output or illustration and need no marker (one may still be claimed as an example).
// test/docs/docs.test.ts holds every page to this.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Fence languages whose blocks are code a reader would run: each needs a marker. */
export const RUNNABLE = new Set(["ts", "typescript", "tsx", "js", "javascript", "mjs", "sh", "bash", "shell", "console", "python", "py", "ruby", "rb"]);

export type Marker = { kind: "example"; name: string; tests: string[] } | { kind: "illustration"; reason: string };

export interface DocBlock {
  page: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  /** The block's text, without the fences and without the indentation of its opening fence (a block inside a list). */
  text: string;
  /** The nearest heading above it, without its `#`s. */
  heading: string;
  marker?: Marker;
}

/** README.md and every docs/*.md, as page paths. */
export function docPages(): string[] {
  const docs = readdirSync(path.join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`);
  return ["README.md", ...docs];
}

export function docText(page: string): string {
  return readFileSync(path.join(root, page), "utf8");
}

const MARKER = /^\s*<!--\s*(example|illustration)\b\s*(.*?)\s*-->\s*$/;

function marker(line: string | undefined): Marker | undefined {
  const m = line === undefined ? null : MARKER.exec(line);
  if (m === null) return undefined;
  if (m[1] === "illustration") return { kind: "illustration", reason: m[2].replace(/^:\s*/, "") };
  const example = /^([^\s:]+):\s*run by\s+(.+)$/.exec(m[2]);
  if (example === null) throw new Error(`malformed example marker ${JSON.stringify(line)}: write <!-- example NAME: run by TEST -->`);
  return { kind: "example", name: example[1], tests: example[2].split(/\s*,\s*/) };
}

/** Every fenced block of a page, in order. */
export function docBlocks(page: string): DocBlock[] {
  const lines = docText(page).split("\n");
  const blocks: DocBlock[] = [];
  let heading = "";
  for (let i = 0; i < lines.length; i++) {
    const heading_ = /^#{1,6} (.*)$/.exec(lines[i]);
    if (heading_) {
      heading = heading_[1].trim();
      continue;
    }
    const open = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)(.*)$/.exec(lines[i]);
    if (open === null) continue;
    const [, indent, fence, lang] = open;
    let end = i + 1;
    while (end < lines.length && !(lines[end].trim().startsWith(fence) && lines[end].trim().replace(/[`~]/g, "") === "")) end++;
    if (end >= lines.length) throw new Error(`${page}:${i + 1}: a code block that never closes`);
    let before = i - 1;
    while (before >= 0 && lines[before].trim() === "") before--;
    const text = lines
      .slice(i + 1, end)
      .map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l.trimStart()))
      .join("\n");
    blocks.push({ page, line: i + 1, lang, text: text + "\n", heading, marker: marker(lines[before]) });
    i = end;
  }
  return blocks;
}

/** The text of the block a page marks `<!-- example NAME: … -->`; exactly one must. */
export function docExample(page: string, name: string): string {
  const found = docBlocks(page).filter((b) => b.marker?.kind === "example" && b.marker.name === name);
  if (found.length !== 1) throw new Error(`${page} has ${found.length} examples named ${name} (expected one)`);
  return found[0].text;
}

/** The examples a page marks as run by `test` (a path from the root), by name. */
export function docExamplesRunBy(page: string, test: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const b of docBlocks(page)) if (b.marker?.kind === "example" && b.marker.tests.includes(test)) found.set(b.marker.name, b.text);
  return found;
}

/** A section's text: from its heading (`## Title` or deeper, by its title) to the next heading of its level or above. */
export function docSection(page: string, title: string): string {
  const lines = docText(page).split("\n");
  const at = lines.findIndex((l) => /^#{1,6} /.test(l) && l.replace(/^#+ /, "").trim() === title);
  if (at < 0) throw new Error(`${page} has no section "${title}"`);
  const level = /^#+/.exec(lines[at])![0].length;
  let end = at + 1;
  let fenced = false;
  for (; end < lines.length; end++) {
    if (/^\s*(```|~~~)/.test(lines[end])) fenced = !fenced;
    const h = fenced ? null : /^(#+) /.exec(lines[end]);
    if (h && h[1].length <= level) break;
  }
  return lines.slice(at, end).join("\n");
}
