// `generate --target python`: the Python tree alone (exactly the committed generated/python) or as the
// python/ folder beside the other targets, each target's run leaving the others' files alone,
// `--check`, `--python-package`, and bad input (exit 2, nothing written).
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { pythonRuntimeModules } from "../../../generator/emit/python/paths.js";
import { readLock } from "../../../generator/source/lock.js";
import { copyOfGenerated, ensureSchemas, lockFile, minimalLegacySchema, readTree, runCli, tempDir } from "../../support.js";
import { pythonTree, run } from "./support.js";

beforeAll(ensureSchemas);

describe("generate --target python", () => {
  it("python alone writes exactly the committed generated/python tree into --out, and --check passes on it", async () => {
    const out = path.join(tempDir(), "py");
    const r = await runCli(["generate", "--target", "python", "--out", out]);
    expect(r.status, r.stderr).toBe(0);
    expect(readTree(out)).toEqual(readTree(pythonTree));
    expect((await runCli(["generate", "--target", "python", "--out", out, "--check"])).status).toBe(0);
  });

  it("typescript alone keeps python/ as it is, and the project's configured targets (python among them) check it", async () => {
    const out = copyOfGenerated();
    const rel = "python/mcp_codegen/runtime.py";
    const committed = readTree(out).get(rel)!;
    writeFileSync(path.join(out, rel), "# hand edit\n");
    expect((await runCli(["generate", "--target", "typescript", "--out", out, "--check"])).status).toBe(0);
    expect((await runCli(["generate", "--target", "typescript", "--out", out])).status).toBe(0);
    expect(readTree(out).get(rel)).toBe("# hand edit\n");
    const check = await runCli(["generate", "--out", out, "--check"]);
    expect(check.status).toBe(1);
    expect(check.stderr).toContain(`${rel} (stale)`);
    expect((await runCli(["generate", "--out", out])).status).toBe(0);
    expect(readTree(out).get(rel)).toBe(committed);
  });

  it("--python-package acme.mcp_protocol: acme/mcp_protocol/ with a module per version, importable beside the official SDK and named in pyproject.toml", async () => {
    const out = path.join(tempDir(), "lib");
    const r = await runCli(["generate", "--target", "python", "--python-package", "acme.mcp_protocol", "--versions", "2025-06-18,2026-07-28", "--out", out]);
    expect(r.status, r.stderr).toBe(0);
    // Beside the versions' modules, one per locked extension version layered onto a selected version (`v2026_07_28_tasks.py`).
    const lock = await readLock(lockFile);
    const layered = Object.entries(lock.extensions ?? {}).flatMap(([name, x]) =>
      Object.values(x.versions).flatMap((v) => v.core.filter((c) => ["2025-06-18", "2026-07-28"].includes(c)).map((c) => `acme/mcp_protocol/v${c.replaceAll("-", "_")}_${name}.py`)),
    );
    expect([...readTree(out).keys()].sort()).toEqual(
      [
        "ADOPTING.md",
        "README.md",
        "acme/mcp_protocol/__init__.py",
        "acme/mcp_protocol/py.typed",
        // Every runtime module (each .py file of runtimes/python/src/mcp_codegen_runtime: runtime.py, dispatcher.py, …).
        ...pythonRuntimeModules().map((name) => `acme/mcp_protocol/${name}`),
        // The tree's protocol module and its projections, printed from the model.
        "acme/mcp_protocol/projections.py",
        "acme/mcp_protocol/protocol.py",
        "acme/mcp_protocol/v2025_06_18.py",
        "acme/mcp_protocol/v2026_07_28.py",
        ...layered,
        "pyproject.toml",
        "python-sdk-2.3.0.patch",
      ].sort(),
    );
    expect(readTree(out).get("pyproject.toml")).toContain('name = "acme-mcp-protocol"');
    const script = "import mcp.server.lowlevel; import acme.mcp_protocol as p; m = p.version('2026-07-28'); print(list(p.VERSION_MODULES), m.PREVIOUS_VERSION, p.version('2025-06-18').normalize_result('resources/subscribe', {'_meta': {'a': 1}, 'x': 2}))";
    const load = run("python", ["-c", script], { pythonPath: [out] });
    expect(load.stderr).toBe("");
    expect(load.stdout).toBe("['2025-06-18', '2026-07-28'] 2025-06-18 {'_meta': {'a': 1}}\n");
  });

  it.each([
    [["--target", "python", "--python-package", "Mcp-Codegen"], /--python-package must be a Python package name such as mcp_codegen or acme.mcp_protocol, got "Mcp-Codegen"/],
    [["--target", "python", "--python-package", "mcp.class"], /--python-package must be a Python package name/],
    [["--target", "typescript", "--python-package", "x"], /--python-package applies to the python target/],
  ])("bad arguments %j exit 2 and write nothing", async (args, message) => {
    const out = path.join(tempDir(), "out");
    const r = await runCli(["generate", ...args, "--out", out]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(() => readdirSync(out)).toThrow();
  });

  it("a version labelled python clashes with the Python tree beside TypeScript, not with TypeScript alone", async () => {
    const schemas = tempDir();
    mkdirSync(path.join(schemas, "python"));
    writeFileSync(path.join(schemas, "python", "schema.json"), JSON.stringify(minimalLegacySchema()));
    const both = await runCli(["generate", "--schemas", schemas, "--target", "typescript,python", "--out", path.join(tempDir(), "out")]);
    expect(both.status).toBe(2);
    expect(both.stderr).toContain('version label "python" would share its folder with the Python tree');
    const out = path.join(tempDir(), "out");
    expect((await runCli(["generate", "--schemas", schemas, "--target", "typescript", "--out", out])).status).toBe(0);
    expect(readTree(out).has("python/methods.ts")).toBe(true);
  });

  it("a version labelled as a runtime module of the tree (tasks, router, dispatcher …) or its protocol module clashes with it, exit 2, nothing written", async () => {
    for (const name of [...pythonRuntimeModules().map((m) => m.replace(/\.py$/, "")), "protocol"]) {
      const schemas = tempDir();
      mkdirSync(path.join(schemas, name));
      writeFileSync(path.join(schemas, name, "schema.json"), JSON.stringify(minimalLegacySchema()));
      const out = path.join(tempDir(), "out");
      const r = await runCli(["generate", "--schemas", schemas, "--target", "python", "--out", out]);
      expect(r.status, name).toBe(2);
      expect(r.stderr).toContain(`version label "${name}" maps to the Python module ${name}, which the Python tree uses itself; rename one folder`);
      expect(() => readdirSync(out)).toThrow();
    }
  });

  it("python alone refuses to replace a folder that is not a generated tree", async () => {
    const out = tempDir();
    writeFileSync(path.join(out, "mine.py"), "# mine\n");
    const r = await runCli(["generate", "--target", "python", "--out", out]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/refusing to replace .*: it is not empty and is not a tree generated by mcp-codegen/);
    expect(readTree(out)).toEqual(new Map([["mine.py", "# mine\n"]]));
  });

  it("ruby and python without typescript: each tree is its own folder of the output, the reports stage's MATRIX.md beside them", async () => {
    const out = path.join(tempDir(), "both");
    const r = await runCli(["generate", "--target", "ruby,python", "--versions", "2025-06-18", "--out", out]);
    expect(r.status, r.stderr).toBe(0);
    const tops = [...new Set([...readTree(out).keys()].map((f) => f.split("/")[0]))].sort();
    // One version: no version diff, so MATRIX.md is the only report (the reports run whatever targets do).
    expect(tops).toEqual(["MATRIX.md", "python", "ruby"]);
  });
});
