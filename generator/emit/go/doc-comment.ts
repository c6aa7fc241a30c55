// Go doc comments in the form gofmt gives them (https://go.dev/doc/comment). gofmt rewrites the comment above a
// top-level declaration: it reads the text as paragraphs, headings, lists and code blocks, and prints each block in
// one canonical layout (code behind a tab, list items as "  - ", a blank line between blocks). Schema descriptions
// are free text (an indented JSON example, a bulleted list, a one-line title between paragraphs), so the printer
// lays them out the same way and the generated tree is gofmt-clean whatever a revision's descriptions hold.
// No knowledge of MCP here.

type Block =
  | { kind: "paragraph"; lines: string[] }
  | { kind: "heading"; text: string }
  | { kind: "code"; lines: string[] }
  | { kind: "list"; items: Array<{ number: string; paragraphs: string[][] }>; blankBefore: boolean; blankBetween: boolean }
  | { kind: "links"; lines: string[] };

/** The lines of a doc comment's text (without the `//` markers) as gofmt prints them. */
export function docCommentLines(text: string): string[] {
  const lines = unindent(text.replace(/\r\n?/g, "\n").split("\n"));
  const blocks = parse(lines);
  const out: string[] = [];
  const links: string[] = [];
  let first = true;
  for (const b of blocks) {
    if (b.kind === "links") {
      links.push(...b.lines);
      continue;
    }
    if (!first && (b.kind !== "list" || b.blankBefore)) out.push("");
    first = false;
    print(b, out);
  }
  // Link definitions ("[text]: url") move to the end; gofmt orders them by use, which a schema's plain text keeps.
  if (links.length > 0) out.push("", ...links);
  return out;
}

/** Go line comments for a top-level declaration: the doc comment lines behind `//` (a code line behind `//` and its tab). */
export function goDocComment(text: string): string {
  return docCommentLines(text)
    .map((line) => (line === "" ? "//" : line.startsWith("\t") ? `//${line}` : `// ${line}`))
    .join("\n");
}

function print(b: Exclude<Block, { kind: "links" }>, out: string[]): void {
  switch (b.kind) {
    case "paragraph":
      out.push(...b.lines);
      return;
    case "heading":
      out.push(`# ${b.text}`);
      return;
    case "code":
      for (const line of b.lines) out.push(line === "" ? "" : `\t${line}`);
      return;
    case "list":
      b.items.forEach((item, i) => {
        if (i > 0 && b.blankBetween) out.push("");
        const marker = item.number === "" ? "  - " : ` ${item.number}. `;
        item.paragraphs.forEach((para, j) => {
          if (j > 0) out.push("");
          para.forEach((line, k) => out.push(j === 0 && k === 0 ? `${marker}${line}` : `    ${line}`));
        });
      });
      return;
  }
}

const indented = (line: string): boolean => line.startsWith(" ") || line.startsWith("\t");
const leadingSpace = (line: string): string => /^[ \t]*/.exec(line)![0];

/** The lines without their common leading spaces and tabs, blank lines empty, leading and trailing blank lines dropped. */
function unindent(input: string[]): string[] {
  const lines = input.map((l) => l.replace(/[ \t]+$/, ""));
  while (lines.length > 0 && lines[0] === "") lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  if (lines.length === 0) return [];
  let prefix = leadingSpace(lines[0]);
  for (const line of lines.slice(1)) {
    if (line === "") continue;
    const lead = leadingSpace(line);
    let i = 0;
    while (i < prefix.length && i < lead.length && prefix[i] === lead[i]) i++;
    prefix = prefix.slice(0, i);
  }
  return lines.map((l) => (l.startsWith(prefix) ? l.slice(prefix.length) : l)).map((l) => (l.trim() === "" ? "" : l));
}

/** A list marker at the line's start (after spaces): a bullet (•, *, +, -) or a number with "." or ")", then a space. */
function listMarker(line: string): { number: string; rest: string } | undefined {
  const t = line.trim();
  const m = /^(?:([•*+-])|([0-9]+)[.)])/u.exec(t);
  if (m === null) return undefined;
  const rest = t.slice(m[0].length);
  if (!indented(rest) || rest.trim() === "") return undefined;
  return { number: m[2] ?? "", rest };
}

const isList = (line: string): boolean => listMarker(line) !== undefined;
const isHeading = (line: string): boolean => /^#[ \t]/.test(line) && line.trim() !== "#";

/** A one-line paragraph between blank lines that reads as a title: gofmt makes it a `# ` heading. */
function isOldHeading(lines: string[], at: number): boolean {
  if (at <= 0 || lines[at - 1] !== "" || at + 2 >= lines.length || lines[at + 1] !== "" || leadingSpace(lines[at + 2]) !== "") return false;
  const line = lines[at].trim();
  const chars = [...line];
  if (!/^\p{Lu}$/u.test(chars[0]) || !/^[\p{L}\p{N}]$/u.test(chars[chars.length - 1])) return false;
  if (/[;:!?+*/=[\]{}_^°&§~%#@<">\\]/.test(line)) return false;
  for (const [i, c] of chars.entries()) {
    if (c === "'" && !(chars[i + 1] === "s" && (i + 2 === chars.length || chars[i + 2] === " "))) return false;
    if (c === "." && (i + 1 === chars.length || chars[i + 1] === " ")) return false;
  }
  return true;
}

/** A link definition line: `[text]: url`, the url with a scheme Go's doc comments link (http, https, …). */
function isLinkDef(line: string): boolean {
  if (!line.startsWith("[")) return false;
  const i = line.indexOf("]:");
  if (i < 0 || i + 3 >= line.length || (line[i + 2] !== " " && line[i + 2] !== "\t")) return false;
  const url = line.slice(i + 3).trim();
  const j = url.indexOf("://");
  return j >= 0 && ["file", "ftp", "gopher", "http", "https", "mailto", "nntp"].includes(url.slice(0, j));
}

/** A link definition as gofmt prints it: one space after the colon, the url trimmed. */
function linkDef(line: string): string {
  const i = line.indexOf("]:");
  return `${line.slice(0, i + 2)} ${line.slice(i + 3).trim()}`;
}

function parse(lines: string[]): Block[] {
  const blocks: Block[] = [];
  let prevEnd = 0;
  let i = 0;
  let forceIndent = 0;
  for (;;) {
    while (i < lines.length && lines[i] === "") i++;
    if (i >= lines.length) break;
    const start = i;
    let end: number;
    if (i < forceIndent || indented(lines[i])) {
      // An indented span (blank lines inside it are its own) is a list when it starts with a marker, else code.
      let listOk = isList(lines[i]) && i < forceIndent;
      i++;
      while (i < lines.length && (lines[i] === "" || i < forceIndent || indented(lines[i]) || (listOk && isList(lines[i])))) {
        if (lines[i] === "") listOk = false;
        i++;
      }
      end = i;
      while (end > start && lines[end - 1] === "") end--;
      if (end < lines.length && lines[end].startsWith("}")) end++;
      const span = lines.slice(start, end);
      blocks.push(isList(lines[start]) ? list(span, prevEnd < start) : { kind: "code", lines: unindent(span) });
    } else {
      // An unindented span runs to the next blank or indented line; a last line that opens an unindented list or
      // code (a marker, or a line ending in "{" or "\") joins the indented lines after it.
      i++;
      while (i < lines.length && lines[i] !== "" && !indented(lines[i])) i++;
      end = i;
      if (i < lines.length && lines[i] !== "" && !isList(lines[i])) {
        if (isList(lines[i - 1])) {
          forceIndent = end;
          end--;
          while (end > start && isList(lines[end - 1])) end--;
        } else if (lines[i - 1].endsWith("{") || lines[i - 1].endsWith("\\")) {
          forceIndent = end;
          end--;
        }
        if (start === end && forceIndent > start) {
          i = start;
          continue;
        }
      }
      const span = lines.slice(start, end);
      if (span.length === 1 && isHeading(span[0])) blocks.push({ kind: "heading", text: span[0].slice(1).trim() });
      else if (span.length === 1 && isOldHeading(lines, start)) blocks.push({ kind: "heading", text: span[0].trim() });
      else if (span.every(isLinkDef)) blocks.push({ kind: "links", lines: span.map(linkDef) });
      else blocks.push({ kind: "paragraph", lines: span });
    }
    prevEnd = end;
    i = end;
  }
  return blocks;
}

function list(lines: string[], forceBlankBefore: boolean): Block {
  const numbered = listMarker(lines[0])!.number !== "";
  const items: Array<{ number: string; paragraphs: string[][] }> = [];
  let text: string[] = [];
  let blankBetween = false;
  const flush = (): void => {
    if (items.length > 0 && text.length > 0) items[items.length - 1].paragraphs.push(text);
    text = [];
  };
  for (let line of lines) {
    const m = listMarker(line);
    if (m !== undefined && (m.number !== "") === numbered) {
      flush();
      items.push({ number: m.number, paragraphs: [] });
      line = m.rest;
    }
    line = line.trim();
    if (line === "") {
      blankBetween = true;
      flush();
      continue;
    }
    text.push(line);
  }
  flush();
  const loose = blankBetween || items.some((item) => item.paragraphs.length > 1);
  return { kind: "list", items, blankBefore: forceBlankBefore || loose, blankBetween: loose };
}
