// ECMA-262 patterns in Python's, Ruby's and Go's dialects (generator/model/pattern.ts): each translated
// pattern is run by the real engine (the venv's Python `re.search`, Ruby's `Regexp#match?`, Go's RE2 `MatchString`) over
// strings chosen where the dialects' own readings differ (line anchors, a final newline, Unicode
// digits and word characters, `.` and line terminators, ECMA-262's white space), and must give
// JavaScript's verdict (`RegExp` with the `u` flag: the oracle) on every one. Constructs whose
// meaning differs are refused, naming the construct; Go's dialect refuses lookaround (RE2 has none).
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parsePattern, PatternError, translatePattern } from "../../generator/model/pattern.js";
import { run } from "../emit/python/support.js";
import { goEnv } from "../emit/go/support.js";

const cases: Array<{ pattern: string; strings: string[] }> = [
  { pattern: "^https?://", strings: ["https://a", "http://a", "ftp://a", "x https://a", "x\nhttps://a", "HTTPS://a"] },
  { pattern: "^(https?://|data:image/)", strings: ["data:image/png", "data:text/plain", "http://", "\ndata:image/"] },
  { pattern: "^[a-z]+$", strings: ["abc", "abc\n", "ab1", "", "é"] },
  { pattern: "^\\d{2,3}$", strings: ["12", "123", "1234", "١٢", "12\n"] },
  { pattern: "\\w+\\.\\w+", strings: ["a.b", "é.é", "_._", "a . b"] },
  { pattern: "^a.b$", strings: ["axb", "a\nb", "a\rb", "a\u2028b", "aéb", "a😀b"] },
  { pattern: "^\\s$", strings: [" ", "\t", "\u00a0", "\ufeff", "\u2028", "\u001c", "\u0085", "x"] },
  { pattern: "^\\S+$", strings: ["abc", "a b", "\u00a0", "\u001c"] },
  { pattern: "\\bcat\\b", strings: ["cat", "a cat.", "concat", "écat", "caté"] },
  { pattern: "\\Bcat", strings: ["concat", "cat", " cat"] },
  { pattern: "^[^\\d\\s]*$", strings: ["abc", "a1", "a b", "٣", ""] },
  { pattern: "^[\\w-]+$", strings: ["a-b_c", "a b", "a[b", "é"] },
  { pattern: "^[[\\]&&~|]+$", strings: ["[&]", "&&", "~|", "a"] },
  { pattern: "^(?:ab)*?c|d{2,}$", strings: ["ababc", "c", "xdd", "d"] },
  { pattern: "^(?<scheme>[a-z]+):(?=//)", strings: ["http://", "http:x"] },
  { pattern: "^(?!x)\\u{1F600}\\u00e9\\x41\\t\\/\\.$", strings: ["😀éA\t/.", "😀éa\t/."] },
  { pattern: "^[\\u{1F600}-\\u{1F64F}]$", strings: ["😀", "🙏", "a"] },
  { pattern: "^[^]$", strings: ["\n", "a", ""] },
  { pattern: "^[]|b", strings: ["b", "a", ""] },
  { pattern: "^\\cJ\\0$", strings: ["\n\u0000", "J0"] },
  { pattern: "a{2}b{1,}c{0,1}$", strings: ["aab", "aabbc", "ab"] },
  { pattern: "^\\$\\^\\(\\)\\[\\]\\{\\}\\|\\*\\+\\?$", strings: ["$^()[]{}|*+?", "x"] },
];

function python(items: Array<{ pattern: string; text: string }>): boolean[] {
  const script = "import json, re, sys\nitems = json.load(sys.stdin)\nprint(json.dumps([re.search(i['pattern'], i['text']) is not None for i in items]))";
  const r = run("python", ["-c", script], { input: JSON.stringify(items) });
  expect(r.stderr).toBe("");
  return JSON.parse(r.stdout) as boolean[];
}

function ruby(items: Array<{ pattern: string; text: string }>): boolean[] {
  const script = 'require "json"; items = JSON.parse($stdin.read); puts JSON.generate(items.map { |i| Regexp.new(i["pattern"]).match?(i["text"]) })';
  const r = spawnSync("ruby", ["-e", script], { input: JSON.stringify(items), encoding: "utf8", env: { ...process.env, LANG: "C.UTF-8", LC_ALL: "C.UTF-8" } });
  expect(r.stderr).toBe("");
  return JSON.parse(r.stdout) as boolean[];
}

function go(items: Array<{ pattern: string; text: string }>): boolean[] {
  const dir = mkdtempSync(path.join(tmpdir(), "mcp-codegen-go-pattern-"));
  writeFileSync(path.join(dir, "go.mod"), "module probe\n\ngo 1.22\n");
  const main = 'package main\n\nimport (\n\t"encoding/json"\n\t"os"\n\t"regexp"\n)\n\nfunc main() {\n\tvar items []struct{ Pattern, Text string }\n\tif err := json.NewDecoder(os.Stdin).Decode(&items); err != nil {\n\t\tpanic(err)\n\t}\n\tout := []bool{}\n\tfor _, i := range items {\n\t\tout = append(out, regexp.MustCompile(i.Pattern).MatchString(i.Text))\n\t}\n\t_ = json.NewEncoder(os.Stdout).Encode(out)\n}\n';
  writeFileSync(path.join(dir, "main.go"), main);
  const r = spawnSync("go", ["run", "."], { cwd: dir, env: goEnv, input: JSON.stringify(items.map((i) => ({ Pattern: i.pattern, Text: i.text }))), encoding: "utf8" });
  expect(r.stderr).toBe("");
  return JSON.parse(r.stdout) as boolean[];
}

/** The patterns Go's RE2 cannot say (lookahead, and `\b`/`\B`, which need lookaround): refused in its dialect. */
const NOT_IN_RE2 = ["\\bcat\\b", "\\Bcat", "^(?<scheme>[a-z]+):(?=//)", "^(?!x)\\u{1F600}\\u00e9\\x41\\t\\/\\.$"];

describe("translated patterns", () => {
  const items = cases.flatMap(({ pattern, strings }) => strings.map((text) => ({ pattern, text, js: new RegExp(pattern, "u").test(text) })));

  it("hit both sides of every pattern", () => {
    for (const { pattern } of cases) expect(new Set(items.filter((i) => i.pattern === pattern).map((i) => i.js)).size, pattern).toBe(2);
  });

  for (const dialect of ["python", "ruby", "go"] as const) {
    it(`match in ${dialect} exactly where ECMA-262 matches`, () => {
      const said = dialect === "go" ? items.filter((i) => !NOT_IN_RE2.includes(i.pattern)) : items;
      const translated = said.map((i) => ({ pattern: translatePattern(i.pattern, dialect), text: i.text }));
      const verdicts = dialect === "python" ? python(translated) : dialect === "ruby" ? ruby(translated) : go(translated);
      const wrong = said.filter((item, k) => verdicts[k] !== item.js).map((i) => ({ pattern: i.pattern, text: i.text, expected: i.js }));
      expect(wrong).toEqual([]);
    }, 120_000);
  }

  it("refuses in Go's dialect exactly the patterns that need lookaround", () => {
    const refused = cases.map((c) => c.pattern).filter((p) => {
      try {
        translatePattern(p, "go");
        return false;
      } catch (e) {
        expect(e).toBeInstanceOf(PatternError);
        expect((e as Error).message).toMatch(/Go's RE2 has no look/);
        return true;
      }
    });
    expect(refused).toEqual(NOT_IN_RE2);
  });

  it("prints the issue's patterns plainly", () => {
    expect(translatePattern("^https?://", "python")).toBe("\\Ahttps?\\x3A\\x2F\\x2F");
    expect(translatePattern("^(https?://|data:image/)", "ruby")).toBe("\\A(https?\\x3A\\x2F\\x2F|data\\x3Aimage\\x2F)");
  });
});

describe("refused constructs", () => {
  const refused: Array<[string, RegExp]> = [
    ["(?<=a)b", /lookbehind/],
    ["(?<!a)b", /lookbehind/],
    ["(a)\\1", /backreference "\\1"/],
    ["(?<n>a)\\k<n>", /backreference "\\k"/],
    ["^\\p{L}+$", /Unicode property escape "\\p\{L\}"/],
    ["[\\P{L}]", /Unicode property escape/],
    ["[\\D]", /negated set "\\D" inside a class/],
    ["\\ud800", /lone surrogate/],
  ];
  it.each(refused)("%s", (pattern, message) => {
    expect(() => parsePattern(pattern)).toThrow(PatternError);
    expect(() => parsePattern(pattern)).toThrow(message);
  });

  it("refuses what is no ECMA-262 pattern with the u flag as a SyntaxError", () => {
    expect(() => parsePattern("\\q")).toThrow(SyntaxError);
  });
});
