// docs/go.md: its Go example runs as it is against the committed generated/go and prints exactly the text
// block that follows it.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { generatedDir, root, tempDir } from "../../support.js";
import { go } from "./support.js";

it("docs/go.md's example prints what the page says", () => {
  const page = readFileSync(path.join(root, "docs", "go.md"), "utf8");
  const blocks = [...page.matchAll(/^```go\n([\s\S]*?)^```\n\nprints\n\n```text\n([\s\S]*?)^```$/gm)];
  expect(blocks.length).toBe(1);
  const [, program, output] = blocks[0];
  const dir = tempDir("mcp-codegen-go-docs-");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "main.go"), program);
  writeFileSync(path.join(dir, "go.mod"), `module example\n\ngo 1.22\n\nrequire mcpcodegen v0.0.0\n\nreplace mcpcodegen => ${path.join(generatedDir, "go")}\n`);
  const r = go(["run", "."], dir);
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toBe(output);
});
