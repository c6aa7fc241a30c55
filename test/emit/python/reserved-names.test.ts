// Reserved names held to the printed Python tree (issue 36, item 5): every module the Python printer
// writes (the runtime copies are hand-written) is read by Python's own parser (reserved_names.py), and no
// identifier may be a keyword, bound twice at module level, private-looking, a builtin the module reads,
// or a field that shadows a BaseModel attribute, a sibling field or a module-level name. The rules come
// from the interpreter and pydantic, not from the naming pass (generator/emit/python/naming.ts).
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { pythonJson, pythonRuntimePackage, pythonTree } from "./support.js";

const pkg = path.join(pythonTree, "mcp_codegen");
// The runtime package's own __init__.py is not copied: the tree's is printed.
const runtimeModules = new Set(readdirSync(path.join(pythonRuntimePackage, "src", "mcp_codegen_runtime")).filter((f) => f.endsWith(".py") && f !== "__init__.py"));

describe("the printed Python tree", () => {
  it("holds no identifier that collides with a reserved name or another in its scope", () => {
    const printed = readdirSync(pkg).filter((f) => f.endsWith(".py") && !runtimeModules.has(f));
    // Every version and extension module and the package's __init__.py, not the runtime copies.
    expect(printed).toContain("__init__.py");
    expect(printed).toContain("v2025_11_25.py");
    const out = pythonJson<{ problems: string[]; counts: Record<string, number> }>("reserved_names.py", { files: printed.map((f) => path.join(pkg, f)) });
    expect(out.problems).toEqual([]);
    // Not vacuous: the models and their fields were read.
    expect(out.counts.modules).toBe(printed.length);
    expect(out.counts.classes).toBeGreaterThan(100);
    expect(out.counts.fields).toBeGreaterThan(300);
  });
});

describe("the reader of printed names", () => {
  it("reports each kind of collision it looks for (a hand-made module)", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "reserved-names-"));
    try {
      const file = path.join(dir, "bad.py");
      writeFileSync(
        file,
        ["from . import runtime", "", "class Tool(runtime.OpenModel):", "    json: str", "    a: str", "    a: int", "    runtime: str", "", "class Tool(runtime.OpenModel):", "    pass", "", "list = 1", "x: list[str] = []", "_hidden = 2", ""].join("\n"),
      );
      const out = pythonJson<{ problems: string[] }>("reserved_names.py", { files: [file] });
      expect(out.problems.map((p) => p.slice(file.length + 1))).toEqual([
        "9: Tool is bound at module level again (first at line 3)",
        "14: _hidden is a private-looking module-level name",
        "12: list shadows the builtin the module reads",
        "4: Tool.json shadows BaseModel.json",
        "6: Tool.a is a field again (first at line 5)",
        "7: Tool.runtime shadows the module-level runtime (line 1) in the class body",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
