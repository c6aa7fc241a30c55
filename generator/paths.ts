// Where the project's own files are, whether running from source (tsx) or from dist/.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

function findRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = path.join(dir, "package.json");
    if (existsSync(pkg) && JSON.parse(readFileSync(pkg, "utf8")).name === "mcp-codegen") return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("cannot find the mcp-codegen package root");
    dir = parent;
  }
}

export const projectRoot = findRoot();
export const templatesDir = path.join(projectRoot, "templates");
export const defaultSchemasDir = path.join(projectRoot, "schemas");
export const defaultLockFile = path.join(projectRoot, "schemas", "lock.json");
export const defaultPatchesDir = path.join(projectRoot, "schemas", "patches");
export const defaultOverridesFile = path.join(projectRoot, "schemas", "overrides.json");
export const defaultTypeExceptionsFile = path.join(projectRoot, "schemas", "type-fidelity-exceptions.json");
export const defaultOutDir = path.join(projectRoot, "generated");
/** Where the CLI keeps its cache by default (the usual place for tools' caches). */
export const defaultCacheDir = path.join(projectRoot, "node_modules", ".cache", "mcp-codegen");
/** Hand-written runtime source, copied into every generated tree (generated/runtime/). */
export const runtimeSourceDir = path.join(projectRoot, "generator", "runtime");
