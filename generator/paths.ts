// Where files are. Two roots, never confused:
// - the tool's own folder (templates, the runtimes' sources): found from this module, whether it runs from
//   source (tsx), from dist/ or from node_modules/mcp-codegen;
// - the project the user runs the CLI in (schemas/, generated/, the lock, the cache): the nearest
//   folder holding a package.json, from the current folder up (`projectPaths`). A project without a
//   schemas/lock.json of its own reads the spec the tool ships (its schemas/: lock, pinned files,
//   patches, overrides, errata), read-only.
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
/**
 * The hand-written runtimes, one package per language (runtimes/<language>/): each target declares the
 * files of its own that every tree carries a copy of (Target.runtime). The generator reads them as
 * files to copy and never imports them.
 */
export const runtimesDir = path.join(toolRoot, "runtimes");
/** The generator's source folder (a target's non-TypeScript sources are read from here, also when running from dist/). */
export const generatorSourceDir = path.join(toolRoot, "generator");
/** Reviewed per-method capability requirements (the tool's own data, shipped with it): the method table reads it. */
export const methodCapabilitiesFile = path.join(toolRoot, "schemas", "method-capabilities.json");
/** The reviewed protocol facts only the spec's prose states (source/protocol-facts.ts). */
export const protocolFactsFile = path.join(toolRoot, "schemas", "protocol-facts.json");
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
  /**
   * True when the project has no schemas/lock.json: the spec paths above (schemas, lock, patches,
   * overrides, errata) are the tool's own shipped ones, to be verified and read, never written.
   */
  embeddedSpec: boolean;
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
    embeddedSpec: false,
  };
}

/**
 * The project's paths, its spec ones from the tool's shipped schemas/ when it has no lock of its own;
 * reviewed data the project does keep (patches/, overrides.json, errata-reviewed.json) stays its own.
 */
function withSpec(project: ProjectPaths): ProjectPaths {
  if (existsSync(project.lockFile)) return project;
  const tool = pathsOf(toolRoot);
  const own = (key: "patchesDir" | "overridesFile" | "errataReviewedFile") => (existsSync(project[key]) ? project[key] : tool[key]);
  return {
    ...project,
    schemasDir: tool.schemasDir,
    lockFile: tool.lockFile,
    patchesDir: own("patchesDir"),
    overridesFile: own("overridesFile"),
    errataReviewedFile: own("errataReviewedFile"),
    embeddedSpec: true,
  };
}

/** The project around `cwd`: the nearest folder holding a package.json (else `cwd` itself). */
export function projectPaths(cwd: string): ProjectPaths {
  let dir = path.resolve(cwd);
  for (;;) {
    if (existsSync(path.join(dir, "package.json"))) return withSpec(pathsOf(dir));
    const parent = path.dirname(dir);
    if (parent === dir) return withSpec(pathsOf(path.resolve(cwd)));
    dir = parent;
  }
}

// The tool's own project (its checkout), for its tests and benchmarks.
const own = pathsOf(toolRoot);
export const defaultSchemasDir = own.schemasDir;
export const defaultPatchesDir = own.patchesDir;
export const defaultOutDir = own.outDir;
