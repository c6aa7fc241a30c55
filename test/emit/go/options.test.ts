// --go-package: the module path a Go tree is written under (its go.mod, every import of the runtime, the
// root package's name); a value Go cannot take is refused with exit 2 before anything is written.
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildModel } from "../../../generator/pipeline.js";
import { readLock } from "../../../generator/source/lock.js";
import { ensureSchemas, lockFile, modelOptions, runCli, tempDir } from "../../support.js";
import { go, writeGoTree } from "./support.js";

await ensureSchemas();
const lock = await readLock(lockFile);
const oldest = Object.keys(lock.versions).sort()[0];

describe("--go-package", () => {
  it("names the module of go.mod and the runtime's import path, and the tree builds under it", () => {
    const dir = tempDir("mcp-codegen-go-module-");
    const files = writeGoTree(buildModel({ ...modelOptions, lock, versions: [oldest] }), dir, "example.com/mcp-proto");
    expect(files.get("go.mod")).toMatch(/\nmodule example\.com\/mcp-proto\n/);
    const types = [...files].find(([f]) => f.endsWith("/types.go"))![1];
    expect(types).toContain('\t"example.com/mcp-proto/mcpruntime"\n');
    expect(files.get("tables.go")).toMatch(/\npackage mcp_proto\n/);
    const r = go(["build", "./..."], dir);
    expect(r.status, r.stderr).toBe(0);
  }, 120_000);

  it.each(["Bad/Path", "example.com//x", "/abs", "func"])("refuses %s with exit 2, writing nothing", async (value) => {
    const out = path.join(tempDir(), "out");
    const r = await runCli(["generate", "--target", "go", "--go-package", value, "--out", out]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`--go-package must be a Go module path`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(out)).toBe(false);
  });
});
