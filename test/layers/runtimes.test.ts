// The runtimes (runtimes/<language>/) and the printers (generator/) are independent: neither imports the
// other. The generator reads a runtime's files only to copy them (emit/runtime-copy.ts, and the TypeScript
// package's manifest for the generated package's peers); a runtime imports only its own files, the tree's
// protocol module (printed from the model beside the runtime's copy: `../protocol.js`, `.protocol`,
// `require_relative "protocol"`; for the runtime's own checks a stand-in re-exports the project tree's),
// its language's standard library and the dependencies its own manifest declares. Each runtime is a package
// checked by its own language's tools (Ruby's `ruby -wc`: test/emit/ruby/printer.test.ts).
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { root, tempDir } from "../support.js";

const runtimes = path.join(root, "runtimes");
const ts = path.join(runtimes, "typescript");
const pythonPackage = path.join(runtimes, "python", "src", "mcp_codegen_runtime");
const rubyDir = path.join(runtimes, "ruby");

/** Every file under `dir` (recursively) whose name `accept` takes, absolute. */
function filesUnder(dir: string, accept: (name: string) => boolean): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && accept(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

/** The module specifiers of a TypeScript file: static imports and re-exports, dynamic import(). */
function specifiers(text: string): string[] {
  return [...text.matchAll(/^\s*(?:import|export)\b[^"';]*?\bfrom\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/gm)].map((m) => m[1] ?? m[2] ?? m[3]);
}

describe("printers and runtimes are independent", () => {
  it("generator/ imports nothing under runtimes/", () => {
    const files = filesUnder(path.join(root, "generator"), (n) => n.endsWith(".ts"));
    // The scan is real: it reads the generator's own relative imports (the library's of the pipeline among them).
    expect(specifiers(readFileSync(path.join(root, "generator", "index.ts"), "utf8"))).toContain("./pipeline.js");
    const into = files.flatMap((file) =>
      specifiers(readFileSync(file, "utf8"))
        .filter((s) => s.startsWith("."))
        .filter((s) => path.resolve(path.dirname(file), s).startsWith(runtimes + path.sep))
        .map((s) => `${path.relative(root, file)} → ${s}`),
    );
    expect(into).toEqual([]);
  });

  it("the TypeScript runtime imports only its own files, node: modules and the dependencies its package.json declares, each of which it uses", () => {
    const manifest = JSON.parse(readFileSync(path.join(ts, "package.json"), "utf8")) as { private?: boolean; dependencies?: Record<string, string>; peerDependencies?: Record<string, string>; peerDependenciesMeta?: Record<string, { optional?: boolean }> };
    expect(manifest.private).toBe(true);
    const declared = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})].sort();
    // The peers are optional: each is imported by one runtime file, which a server or client that does not use it never loads.
    for (const peer of Object.keys(manifest.peerDependencies ?? {})) expect(manifest.peerDependenciesMeta?.[peer]?.optional, peer).toBe(true);
    const outside: string[] = [];
    const packages = new Set<string>();
    const src = path.join(ts, "src");
    for (const file of filesUnder(src, (n) => n.endsWith(".ts"))) {
      for (const s of specifiers(readFileSync(file, "utf8"))) {
        if (s === "../protocol.js") continue; // the tree's protocol module
        if (s.startsWith(".")) {
          if (path.dirname(path.resolve(path.dirname(file), s)) !== src) outside.push(`${path.relative(root, file)} → ${s}`);
        } else if (!s.startsWith("node:")) packages.add(s.startsWith("@") ? s.split("/").slice(0, 2).join("/") : s.split("/")[0]);
      }
    }
    expect(outside).toEqual([]);
    expect([...packages].sort()).toEqual(declared);
    // Outside a tree, ../protocol.js is the stand-in, which re-exports the project tree's module and nothing else.
    expect(specifiers(readFileSync(path.join(ts, "protocol.ts"), "utf8"))).toEqual(["../../generated/protocol.js"]);
  });

  it("the Python runtime imports, of its package, only its own modules (the tree's version modules only by name, at run time)", () => {
    const own = new Set(readdirSync(pythonPackage).filter((n) => n.endsWith(".py")).map((n) => n.replace(/\.py$/, "")));
    const strays: string[] = [];
    const imported = new Set<string>();
    // The stand-in for the tree's protocol module (never copied) re-exports the project tree's, and nothing else.
    const shim = path.join(pythonPackage, "protocol.py");
    expect([...readFileSync(shim, "utf8").matchAll(/^\s*(?:from|import)\s+(\S+)/gm)].map((m) => m[1])).toEqual(["mcp_codegen.protocol"]);
    for (const file of filesUnder(pythonPackage, (n) => n.endsWith(".py")).filter((f) => f !== shim)) {
      for (const m of readFileSync(file, "utf8").matchAll(/^[ \t]*from[ \t]+(\.+)(\w*)[ \t]+import[ \t]+(?:\(([^)]*)\)|([\w ,]+)$)/gm)) {
        const names = m[2] !== "" ? [m[2]] : (m[3] ?? m[4]).split(",").map((n) => n.trim().split(/\s+as\s+/)[0]).filter((n) => n !== "");
        if (m[1] !== ".") strays.push(`${path.basename(file)}: ${m[0].trim()}`);
        for (const name of names) imported.add(name);
        for (const name of names) if (!own.has(name)) strays.push(`${path.basename(file)}: ${m[0].trim()}`);
      }
      expect(readFileSync(file, "utf8"), file).not.toMatch(/^\s*(?:from|import)\s+mcp_codegen\b/m);
    }
    expect(strays).toEqual([]);
    // The check is real: the modules import each other (the router's dispatcher, the rules module).
    expect([...imported].sort()).toEqual(expect.arrayContaining(["dispatcher", "router", "runtime"]));
  });

  it("the Ruby runtime requires only its own files and Ruby's standard library", () => {
    const own = new Set(readdirSync(rubyDir).filter((n) => n.endsWith(".rb")).map((n) => n.replace(/\.rb$/, "")));
    const requires = filesUnder(rubyDir, (n) => n.endsWith(".rb")).flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/^require(_relative)?\s+"([^"]+)"/gm)].map((m) => ({ file: path.basename(file), relative: m[1] !== undefined, name: m[2] })),
    );
    // `protocol` and `projections` are the tree's printed data modules, beside the runtime's copy: the gate
    // reads the first, the projection interpreter the second.
    const printed: Record<string, string> = { protocol: "runtime.rb", projections: "projection.rb" };
    expect(requires.filter((r) => r.relative && !own.has(r.name) && !Object.hasOwn(printed, r.name))).toEqual([]);
    for (const [name, reader] of Object.entries(printed)) expect(requires.filter((r) => r.relative && r.name === name).map((r) => r.file)).toEqual([reader]);
    expect(new Set(requires.filter((r) => !r.relative).map((r) => r.name))).toEqual(new Set(["json"]));
  });
});

describe("each runtime is a package checked by its own language's tools", () => {
  it("runtimes/typescript: `tsc -p runtimes/typescript` (strict, the runtime alone) reports nothing", () => {
    const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
    const config = JSON.parse(readFileSync(path.join(ts, "tsconfig.json"), "utf8")) as { compilerOptions: { strict?: boolean }; include: string[] };
    expect(config.compilerOptions.strict).toBe(true);
    expect(config.include).toEqual(["src/**/*.ts", "sdk/**/*.ts", "protocol.ts"]);
    const r = spawnSync(process.execPath, [tsc, "-p", ts], { cwd: root, encoding: "utf8" });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  it("runtimes/python: its pyproject.toml builds a wheel holding exactly the package's modules", () => {
    const bin = path.join(root, ".venv", "bin");
    const wheels = tempDir();
    // --no-build-isolation: the pinned build backend (flit_core in requirements-python.txt), offline.
    const r = spawnSync(path.join(bin, "pip"), ["wheel", "--no-build-isolation", "--no-deps", "--quiet", "--wheel-dir", wheels, path.join(runtimes, "python")], { encoding: "utf8", env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1" } });
    expect(r.status, r.stderr).toBe(0);
    const [wheel] = readdirSync(wheels).filter((f) => f.endsWith(".whl"));
    expect(wheel).toMatch(/^mcp_codegen_runtime-0\.1\.0-py3-none-any\.whl$/);
    const list = spawnSync(path.join(bin, "python"), ["-c", "import sys, zipfile; print('\\n'.join(sorted(n for n in zipfile.ZipFile(sys.argv[1]).namelist() if n.endswith('.py'))))", path.join(wheels, wheel)], { encoding: "utf8" });
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout.trim().split("\n")).toEqual(readdirSync(pythonPackage).filter((n) => n.endsWith(".py")).sort().map((n) => `mcp_codegen_runtime/${n}`));
  });
});
