// The README's Python section: its example runs as it is against the committed generated/python (every
// assert in it holds), type-checks under pyright --strict and passes ruff with the tests' rules.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { root, tempDir } from "../../support.js";
import { pyrightStrict, pythonTestDir, pythonTree, run } from "./support.js";

/** The ```python blocks of the README's `## Python` section. */
function examples(): string[] {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const start = readme.indexOf("\n## Python\n");
  expect(start).toBeGreaterThan(0);
  const section = readme.slice(start + 1, readme.indexOf("\n## ", start + 1));
  return [...section.matchAll(/^```python\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
}

describe("README, Python section", () => {
  const blocks = examples();

  it("has one Python example", () => {
    expect(blocks.length).toBe(1);
  });

  it("runs: every assert of the example holds against generated/python", () => {
    const file = path.join(tempDir(), "readme_example.py");
    writeFileSync(file, blocks[0]);
    const r = run("python", [file]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    // The example checks what it shows: its asserts are what ran.
    expect(blocks[0].match(/^assert /gm)?.length ?? 0).toBeGreaterThan(2);
  });

  it("type-checks under pyright --strict against generated/python", () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "readme_example.py"), blocks[0]);
    const r = pyrightStrict(dir, [pythonTree]);
    expect(r.stdout).toContain("0 errors, 0 warnings, 0 informations");
    expect(r.status).toBe(0);
  });

  it("passes ruff", () => {
    const dir = tempDir();
    const file = path.join(dir, "readme_example.py");
    writeFileSync(file, blocks[0]);
    const r = run("ruff", ["check", "--no-cache", "--config", path.join(pythonTestDir, "ruff.toml"), file]);
    expect(r.stdout + r.stderr).toBe("All checks passed!\n");
  });
});
