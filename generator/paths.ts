// Where files are. Two roots, never confused:
// - the tool's own folder (templates, runtime source): found from this module, whether it runs from
//   source (tsx), from dist/ or from node_modules/mcp-codegen;
// - the project the user runs the CLI in (schemas/, generated/, the lock, the cache): the nearest
//   folder holding a package.json, from the current folder up (`projectPaths`).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

function findToolRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = path.join(dir, "package.json");
    if (existsSync(pkg) && JSON.parse(readFileSync(pkg, "utf8")).name === "mcp-codegen") return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("cannot find the mcp-codegen package root");
    dir = parent;
  }
}

/** The mcp-codegen package's own folder. */
export const toolRoot = findToolRoot();
export const templatesDir = path.join(toolRoot, "templates");
/** Hand-written runtime source, copied into every generated tree (generated/runtime/). */
export const runtimeSourceDir = path.join(toolRoot, "generator", "runtime");
/** The generator's source folder (a target's non-TypeScript sources are read from here, also when running from dist/). */
export const generatorSourceDir = path.join(toolRoot, "generator");
/** Reviewed per-method capability requirements (the tool's own data, shipped with it): the method table reads it. */
export const methodCapabilitiesFile = path.join(toolRoot, "schemas", "method-capabilities.json");
/** The tool's version, from its package.json. */
export const toolVersion: string = JSON.parse(readFileSync(path.join(toolRoot, "package.json"), "utf8")).version;

/** The files of a project that uses mcp-codegen (the tool's own checkout is one). */
export interface ProjectPaths {
  root: string;
  schemasDir: string;
  lockFile: string;
  patchesDir: string;
  overridesFile: string;
  /** Errata (schema.json against schema.ts) reviewed as no defect. */
  errataReviewedFile: string;
  outDir: string;
  /** Where the CLI keeps its cache by default (the usual place for tools' caches). */
  cacheDir: string;
}

export function pathsOf(root: string): ProjectPaths {
  return {
    root,
    schemasDir: path.join(root, "schemas"),
    lockFile: path.join(root, "schemas", "lock.json"),
    patchesDir: path.join(root, "schemas", "patches"),
    overridesFile: path.join(root, "schemas", "overrides.json"),
    errataReviewedFile: path.join(root, "schemas", "errata-reviewed.json"),
    outDir: path.join(root, "generated"),
    cacheDir: path.join(root, "node_modules", ".cache", "mcp-codegen"),
  };
}

/** The project around `cwd`: the nearest folder holding a package.json (else `cwd` itself). */
export function projectPaths(cwd: string): ProjectPaths {
  let dir = path.resolve(cwd);
  for (;;) {
    if (existsSync(path.join(dir, "package.json"))) return pathsOf(dir);
    const parent = path.dirname(dir);
    if (parent === dir) return pathsOf(path.resolve(cwd));
    dir = parent;
  }
}

// The tool's own project (its checkout), for its tests and benchmarks.
const own = pathsOf(toolRoot);
export const defaultSchemasDir = own.schemasDir;
export const defaultPatchesDir = own.patchesDir;
export const defaultOutDir = own.outDir;
