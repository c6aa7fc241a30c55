// The Go side of the Go target's tests: the generated tree written to a folder, the go tool run on it,
// and the proof harness (main.go beside this file, a module needing jsonschema-go) set up against a tree.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { definitionTypeNames, emitGoTree } from "../../../generator/emit/go/printer.js";
import { versionPackage } from "../../../generator/emit/go/language.js";
import type { ProtocolModel, VersionModel } from "../../../generator/model/types.js";

const here = path.dirname(fileURLToPath(import.meta.url));

/** The environment the go tool runs in: modules resolved from go.mod (the proxy when go.sum lacks one), no workspace. */
export const goEnv = { ...process.env, GOFLAGS: "-mod=mod", GOWORK: "off", GOTOOLCHAIN: "local" };

export interface GoRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function go(args: string[], cwd: string): GoRun {
  const r = spawnSync("go", args, { cwd, env: goEnv, encoding: "utf8", maxBuffer: 1 << 30 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Writes the Go tree of `model` into `dir` (module path `module`). */
export function writeGoTree(model: ProtocolModel, dir: string, module = "mcpcodegen"): Map<string, string> {
  const files = emitGoTree(model, { module });
  for (const [rel, text] of files) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), text);
  }
  return files;
}

/** One line of the harness's output: an instance of a definition, as the schema and the Go types judged it. */
export interface Verdict {
  label: string;
  definition: string;
  index: number;
  schema: boolean;
  schemaError?: string;
  decoded: boolean;
  decodeError?: string;
  encoded: string | null;
}

/**
 * The proof harness in `dir`/harness against the tree in `dir`/tree: main.go, go.mod and go.sum of this
 * folder, the tree required by a replace directive, and registry.go naming each definition's Go type
 * of every module in `modules` (label → model, definitions), and the projection data of those `projected`
 * (the versions; an extension module has none of its own).
 */
export function writeHarness(dir: string, modules: ReadonlyArray<{ label: string; version: VersionModel; definitions: readonly string[]; projected?: boolean }>, module = "mcpcodegen"): string {
  const harness = path.join(dir, "harness");
  mkdirSync(harness, { recursive: true });
  for (const f of ["main.go", "go.sum"]) copyFileSync(path.join(here, f), path.join(harness, f));
  writeFileSync(path.join(harness, "go.mod"), `${readFileSync(path.join(here, "go.mod"), "utf8")}\nrequire ${module} v0.0.0\n\nreplace ${module} => ../tree\n`);
  const imports = modules.map((m) => `\t${versionPackage(m.label)} "${module}/${versionPackage(m.label)}"`);
  const inits = modules.flatMap((m) => {
    const names = definitionTypeNames(m.version);
    const pkg = versionPackage(m.label);
    return [
      `\tregistry[${JSON.stringify(m.label)}] = map[string]Codec{`,
      ...m.definitions.map((d) => `\t\t${JSON.stringify(d)}: RoundTrip[${pkg}.${names.get(d)!}],`),
      "\t}",
      `\tpackages[${JSON.stringify(m.label)}] = Package{Table: ${pkg}.MethodTable, Refusal: ${pkg}.Refusal, Normalize: ${pkg}.NormalizeResult}`,
      ...(m.projected === true ? [`\tprojections[${JSON.stringify(m.label)}] = ${pkg}.Projection`] : []),
    ];
  });
  writeFileSync(path.join(harness, "registry.go"), `package main\n\nimport (\n${imports.join("\n")}\n)\n\nfunc init() {\n${inits.join("\n")}\n}\n`);
  return harness;
}
