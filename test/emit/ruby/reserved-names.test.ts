// Reserved names held to the printed Ruby tree (issue 36, item 5): every .rb file of the tree is read
// with Ruby's own parser (reserved_names.rb, Ripper), and no module may assign a constant or define a
// method twice, name a method by a keyword, or assign a constant that hides one of the namespace around
// it (a version module's `Runtime` would replace the tree's). The rules come from Ruby, not from the
// naming pass (generator/emit/ruby/naming.ts).
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ruby, rubyTestDir, rubyTree } from "./support.js";

function read(files: string[]): { problems: string[]; counts: Record<string, number> } {
  const r = ruby([path.join(rubyTestDir, "reserved_names.rb")], { input: JSON.stringify({ files }), loadPath: [] });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as { problems: string[]; counts: Record<string, number> };
}

describe("the printed Ruby tree", () => {
  it("holds no constant or method that collides with a keyword or another in its scope", () => {
    const files = readdirSync(rubyTree, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".rb")).map((f) => path.join(rubyTree, f));
    expect(files.map((f) => path.basename(f))).toEqual(expect.arrayContaining(["mcp_codegen.rb", "methods.rb", "v2025_11_25.rb", "runtime.rb"]));
    const out = read(files);
    expect(out.problems).toEqual([]);
    // Not vacuous: every version module's method constants and normalizers were read.
    expect(out.counts.constants).toBeGreaterThan(200);
    expect(out.counts.methods).toBeGreaterThan(100);
  });
});

describe("the reader of printed names", () => {
  it("reports each kind of collision it looks for (a hand-made file)", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "rb-reserved-"));
    try {
      const file = path.join(dir, "bad.rb");
      writeFileSync(file, ["module Top", "  Runtime = 1", "  module V1", "    PING = 1", "    PING = 2", "    Runtime = 3", "    def end; end", "    def normalize_ping(v); end", "    def normalize_ping(v); end", "  end", "end", ""].join("\n"));
      expect(read([file]).problems.map((p) => p.slice(file.length + 1))).toEqual([
        "5: Top::V1::PING is assigned again (first at " + file + ":4)",
        "7: Top::V1.end is named by a keyword",
        "9: Top::V1.normalize_ping is defined again (first at " + file + ":8)",
        "6: Top::V1::Runtime hides Top::Runtime (" + file + ":2)",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
