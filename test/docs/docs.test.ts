// The documentation (README.md and docs/*.md) against what the tests run: every code block of a runnable
// language is an example some test runs (marked `<!-- example NAME: run by TEST -->`, TEST naming the page
// and the example) or says it is an illustration; every relative link resolves, to a file and, for `#anchor`,
// to a heading of it. test/docs/blocks.ts reads the marks.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support.js";
import { docBlocks, docExample, docPages, docText, RUNNABLE, root } from "./blocks.js";
import { PENDING_PAGES } from "./pending-pages.js";

const pages = docPages();

/** The README's first block: the two commands, which .ci/run runs on a fresh clone (the test below). */
const FRONT_DOOR = { page: "README.md", line: 3 };

describe("the README's front door", () => {
  it("opens with the two commands, each with what it does, and .ci/run runs them", () => {
    const lines = docText("README.md").split("\n");
    expect(lines.slice(0, 6)).toEqual([
      "# mcp-codegen",
      "",
      "```sh",
      "npm ci && npm run generate   # set up (builds dist/), then generate generated/ for every pinned MCP version",
      "npm test                     # set up what the tests need (tools/setup.ts), then run every test",
      "```",
    ]);
    const ci = readFileSync(path.join(root, ".ci", "run"), "utf8");
    expect(ci).toMatch(/^npm ci\b/m);
    expect(ci).toMatch(/^npm test\b/m);
    // `npm ci` builds dist/ through `prepare`, which `npm run generate` runs.
    const scripts = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
    expect(scripts.prepare).toBe("node tools/build.mjs");
    expect(scripts.generate).toBe("node dist/generator/bin.js generate");
  });

  it("ships with docs/ beside it in the package, where its links point", () => {
    const files = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { files: string[] }).files;
    expect(files).toContain("docs");
  });

  it("stays a front door: at most 300 lines", () => {
    expect(docText("README.md").split("\n").length).toBeLessThanOrEqual(300);
  });
});

describe("every code block", () => {
  const blocks = pages.flatMap(docBlocks);

  it("reads blocks from the README and from docs/", () => {
    expect(pages).toContain("README.md");
    expect(pages).toContain("docs/README.md");
    expect(blocks.filter((b) => b.marker?.kind === "example").length).toBeGreaterThan(10);
  });

  it("names its language", () => {
    expect(blocks.filter((b) => b.lang === "").map((b) => `${b.page}:${b.line}`)).toEqual([]);
  });

  it("of a runnable language is an example a test runs, or marked as an illustration", () => {
    const unmarked = blocks.filter((b) => RUNNABLE.has(b.lang) && b.marker === undefined && !(b.page === FRONT_DOOR.page && b.line === FRONT_DOOR.line));
    expect(unmarked.map((b) => `${b.page}:${b.line} (${b.lang}, under "${b.heading}")`)).toEqual([]);
  });

  it("that is an illustration says why", () => {
    const bare = blocks.filter((b) => b.marker?.kind === "illustration" && b.marker.reason.length < 10);
    expect(bare.map((b) => `${b.page}:${b.line}`)).toEqual([]);
  });

  it("that is an example has a name unique in its page, and each test it names reads that page and that example", () => {
    const problems: string[] = [];
    for (const page of pages) {
      const examples = docBlocks(page).flatMap((b) => (b.marker?.kind === "example" ? [{ ...b.marker, line: b.line }] : []));
      const names = examples.map((e) => e.name);
      for (const name of new Set(names)) if (names.filter((n) => n === name).length > 1) problems.push(`${page}: two examples named ${name}`);
      for (const e of examples) {
        for (const test of e.tests) {
          const file = path.join(root, test);
          if (!/\.test\.ts$/.test(test) || !existsSync(file)) {
            problems.push(`${page}:${e.line}: ${e.name} names ${test}, which is no test file`);
            continue;
          }
          const source = readFileSync(file, "utf8");
          if (!source.includes(`"${page}"`)) problems.push(`${page}:${e.line}: ${test} never names "${page}"`);
          if (!source.includes(`"${e.name}"`) && !source.includes(`"// ${e.name}`)) problems.push(`${page}:${e.line}: ${test} never names "${e.name}"`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

it("docs/cli.md's synopsis is the usage `help` prints", async () => {
  const r = await runCli(["help"]);
  expect(r.status).toBe(0);
  const usage = r.stdout.slice(r.stdout.indexOf("Usage:\n") + "Usage:\n".length).split("\n\n")[0];
  expect(usage.split("\n").length).toBeGreaterThan(5);
  expect(docExample("docs/cli.md", "usage")).toBe(
    usage
      .split("\n")
      .map((l) => l.trim())
      .join("\n") + "\n",
  );
});

/** GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`; repeats get `-1`, `-2` …. */
function anchors(page: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of docText(page).split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const h = fenced ? null : /^#{1,6} (.*)$/.exec(line);
    if (h === null) continue;
    const slug = h[1]
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

/** Every inline link of a page outside code: `[text](target)`, with its line. */
function links(page: string): { target: string; line: number }[] {
  const found: { target: string; line: number }[] = [];
  let fenced = false;
  docText(page)
    .split("\n")
    .forEach((line, i) => {
      if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
      if (fenced) return;
      const text = line.replace(/`[^`]*`/g, "");
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) found.push({ target: m[1], line: i + 1 });
    });
  return found;
}

describe("every relative link", () => {
  it("resolves: the file exists (or is a page listed as pending), and an #anchor names a heading of it", () => {
    const broken: string[] = [];
    let checked = 0;
    for (const page of pages) {
      for (const { target, line } of links(page)) {
        if (/^[a-z]+:/i.test(target)) continue;
        checked++;
        const [file, anchor] = target.split("#");
        const resolved = file === "" ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), file));
        if (!existsSync(path.join(root, resolved))) {
          if (!PENDING_PAGES.includes(resolved)) broken.push(`${page}:${line}: ${target} (no ${resolved})`);
          continue;
        }
        if (anchor !== undefined && !(resolved.endsWith(".md") && anchors(resolved).has(anchor))) broken.push(`${page}:${line}: ${target} (no heading #${anchor} in ${resolved})`);
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(broken).toEqual([]);
  });

  it("may point at a pending page only while it is missing, and is linked from the README and docs/README.md", () => {
    for (const pending of PENDING_PAGES) {
      expect(existsSync(path.join(root, pending)), `${pending} exists: remove it from test/docs/pending-pages.ts`).toBe(false);
      const name = path.posix.basename(pending);
      expect(links("README.md").map((l) => l.target)).toContain(`docs/${name}`);
      expect(links("docs/README.md").map((l) => l.target)).toContain(name);
    }
  });

  it("finds broken links: a made-up target and a made-up anchor are not among the resolvable", () => {
    expect(existsSync(path.join(root, "docs", "no-such-page.md"))).toBe(false);
    expect(anchors("docs/cli.md").has("no-such-heading")).toBe(false);
    expect(anchors("docs/cli.md").has("bump---dry-run")).toBe(true);
    expect(anchors("docs/typescript.md").has("scale-out-n-instances-behind-a-load-balancer")).toBe(true);
  });
});
