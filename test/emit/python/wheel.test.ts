// The Python package as its users install it: `pip wheel` into a temporary folder and `pip install` from
// the committed tree leave that tree as generated (`generate --check` clean); the wheel, installed into a
// fresh venv holding nothing but what the package declares (pydantic and what it pulls in), imports
// every version module and runs the package README's example. Every import is declared.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readTree, root, runCli, tempDir } from "../../support.js";
import { pythonBin, pythonTree } from "./support.js";

function sh(command: string, args: string[], cwd = tempDir()): { status: number | null; stdout: string; stderr: string } {
  // Nothing of the checkout on the import path, no bytecode written beside sources.
  const env = { ...process.env, PYTHONDONTWRITEBYTECODE: "1", PIP_DISABLE_PIP_VERSION_CHECK: "1" } as Record<string, string | undefined>;
  delete env.PYTHONPATH;
  const r = spawnSync(command, args, { cwd, encoding: "utf8", env, maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Every entry (files and folders) below `dir`, relative. */
function entries(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)) + (e.isDirectory() ? "/" : ""))
    .sort();
}

describe("the Python package, built and installed", () => {
  const pip = () => path.join(path.dirname(pythonBin()), "pip");

  it("pip wheel and pip install leave the committed tree as generated", async () => {
    const before = { entries: entries(pythonTree), files: readTree(pythonTree) };
    const wheels = tempDir();
    // --no-build-isolation: the pinned build backend (flit_core in requirements-python.txt), offline.
    const wheel = sh(pip(), ["wheel", "--no-build-isolation", "--no-deps", "--quiet", "--wheel-dir", wheels, pythonTree]);
    expect(wheel.status, wheel.stderr).toBe(0);
    expect(readdirSync(wheels).filter((f) => f.endsWith(".whl"))).toHaveLength(1);
    const install = sh(pip(), ["install", "--no-build-isolation", "--no-deps", "--quiet", "--target", tempDir(), pythonTree]);
    expect(install.status, install.stderr).toBe(0);
    expect(entries(pythonTree)).toEqual(before.entries);
    expect(readTree(pythonTree)).toEqual(before.files);
    const check = await runCli(["generate", "--target", "python", "--check"]);
    expect(check.status, check.stdout.slice(0, 2000) + check.stderr).toBe(0);
  });

  it("every module the tree imports is the standard library's, the package's own, or a declared dependency (an extra only inside a function)", () => {
    const r = sh(pythonBin(), ["-c", IMPORTS, pythonTree]);
    expect(r.status, r.stderr).toBe(0);
    const { undeclared, declared, extras } = JSON.parse(r.stdout) as { undeclared: string[]; declared: string[]; extras: string[] };
    expect(undeclared).toEqual([]);
    expect(declared).toEqual(["pydantic", "typing_extensions"]);
    expect(extras).toEqual(["cryptography", "httpx2", "pyjwt", "redis", "uvicorn"]);
  });

  it("the wheel in a fresh venv with its dependencies alone: imports every version and extension module, runs its README's example", () => {
    const work = tempDir();
    const wheels = path.join(work, "wheels");
    expect(sh(pip(), ["wheel", "--no-build-isolation", "--no-deps", "--quiet", "--wheel-dir", wheels, pythonTree]).status).toBe(0);
    const [whl] = readdirSync(wheels);
    const venv = path.join(work, "venv");
    const made = sh("python3", ["-m", "venv", venv]);
    expect(made.status, made.stderr).toBe(0);
    const python = path.join(venv, "bin", "python");
    // Its dependencies from the index, held to the versions the project pins.
    const install = sh(python, ["-m", "pip", "install", "--quiet", "--constraint", path.join(root, "requirements-python.txt"), path.join(wheels, whl)]);
    expect(install.status, install.stderr).toBe(0);

    // What is installed is the package and what its metadata requires, transitively; nothing else.
    const installed = sh(python, ["-c", CLOSURE]);
    expect(installed.status, installed.stderr).toBe(0);
    const { extra, missing } = JSON.parse(installed.stdout) as { extra: string[]; missing: string[] };
    expect({ extra, missing }).toEqual({ extra: [], missing: [] });

    // Every version module and every extension module (each a row of the README's table).
    const script = [
      "import importlib, mcp_codegen",
      "modules = [*mcp_codegen.VERSION_MODULES.values(), *(m for x in mcp_codegen.EXTENSION_MODULES.values() for m in x.values())]",
      "for m in modules: importlib.import_module(m)",
      "print(len(modules))",
    ].join("\n");
    const imports = sh(python, ["-W", "error", "-c", script]);
    expect(imports.status, imports.stderr).toBe(0);
    const readme = readFileSync(path.join(pythonTree, "README.md"), "utf8");
    expect(Number(imports.stdout.trim())).toBe(readme.match(/^\| `mcp_codegen\.[a-z0-9_]+` \| protocol version /gm)?.length);
    const example = /```python\n([\s\S]*?)```/.exec(readme)![1];
    const ran = sh(python, ["-c", example], work);
    expect(ran, example).toEqual({ status: 0, stdout: "", stderr: "" });
  });
});

/** Reads every .py file of the tree (argv[1]) and pyproject.toml's dependencies; prints what is undeclared. */
const IMPORTS = String.raw`
import ast, importlib.metadata, json, pathlib, re, sys, tomllib
tree = pathlib.Path(sys.argv[1])
project = tomllib.loads((tree / "pyproject.toml").read_text())["project"]
requirement = lambda d: re.split(r"[<>=!~ ;\[]", d, maxsplit=1)[0].replace("-", "_").lower()
declared = sorted(requirement(d) for d in project["dependencies"])
extras = sorted({requirement(d) for ds in project.get("optional-dependencies", {}).values() for d in ds})
own = {p.name for p in tree.iterdir() if p.is_dir()}
providers = importlib.metadata.packages_distributions()
undeclared = set()
for file in tree.rglob("*.py"):
    module = ast.parse(file.read_text())
    # An extra may be imported only where a function runs (lazily), never when the module is imported.
    lazy = {id(n) for f in ast.walk(module) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) for n in ast.walk(f)}
    for node in ast.walk(module):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module else []
        for name in names:
            top = name.split(".")[0]
            # The distributions installing that import name here (PyJWT installs jwt), else the name itself.
            dists = {d.replace("-", "_").lower() for d in providers.get(top, [top])}
            if top in sys.stdlib_module_names or top in own or dists & set(declared) or (dists & set(extras) and id(node) in lazy):
                continue
            undeclared.add(f"{file.relative_to(tree)}: {name}")
print(json.dumps({"undeclared": sorted(undeclared), "declared": declared, "extras": extras}))
`;

/** The installed distributions against the closure of what mcp-codegen's metadata requires (pip's own aside). */
const CLOSURE = String.raw`
import json, re
from importlib import metadata
norm = lambda n: re.sub(r"[-_.]+", "-", n).lower()
installed = {norm(d.metadata["Name"]) for d in metadata.distributions()} - {"pip", "setuptools", "wheel"}
need, todo = set(), ["mcp-codegen"]
while todo:
    name = todo.pop()
    if name in need:
        continue
    need.add(name)
    try:
        requires = metadata.requires(name) or []
    except metadata.PackageNotFoundError:
        continue
    for r in requires:
        if "extra ==" in r:
            continue
        todo.append(norm(re.split(r"[<>=!~ ;\[(]", r, maxsplit=1)[0]))
print(json.dumps({"extra": sorted(installed - need), "missing": sorted(need - installed)}))
`;
