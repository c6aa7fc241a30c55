// --go-package: the module path a Go tree is written under (its go.mod, every import of the runtime, the
// root package's name); a value Go cannot take is refused with exit 2 before anything is written.
// --go-module enclosing: no go.mod, the tree is a folder of the module around it (how a library vendors it).
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
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

describe("--go-module", () => {
  it("enclosing: writes no go.mod, and the tree builds as a folder of the module around it, imported by that module's code", async () => {
    const lib = path.join(tempDir("mcp-codegen-go-enclosing-"), "lib");
    const out = path.join(lib, "internal", "gen");
    const command = ["generate", "--target", "go", "--go-package", "example.com/lib/internal/gen", "--go-module", "enclosing", "--versions", oldest, "--out", out];
    const r = await runCli(command);
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(path.join(out, "go.mod"))).toBe(false);
    expect(existsSync(path.join(out, "tables.go"))).toBe(true);
    writeFileSync(path.join(lib, "go.mod"), "module example.com/lib\n\ngo 1.22\n");
    mkdirSync(path.join(lib, "use"));
    writeFileSync(path.join(lib, "use", "use.go"), 'package use\n\nimport gen "example.com/lib/internal/gen"\n\n// Labels is every generated label.\nfunc Labels() int { return len(gen.Tables()) }\n');
    for (const args of [["build", "./..."], ["vet", "./..."]]) {
      const b = go(args, lib);
      expect(b.status, b.stderr).toBe(0);
    }
    // Regenerating and checking the folder again, as its header says.
    expect((await runCli(command)).status).toBe(0);
    const check = await runCli([...command, "--check"]);
    expect(check.status, check.stderr).toBe(0);
  }, 180_000);

  it("refuses a kind it does not know with exit 2, writing nothing", async () => {
    const out = path.join(tempDir(), "out");
    const r = await runCli(["generate", "--target", "go", "--go-module", "vendored", "--out", out]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`--go-module must be one of own, enclosing, got "vendored"`);
    expect(existsSync(out)).toBe(false);
  });
});
