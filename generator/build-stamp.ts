// Is dist/ built from the current sources? `npm run build` (tools/build.mjs) records a hash of the
// generator's sources and the compiler settings in dist/generator/.source-sha256; the bin entry
// compares it with the sources before running, so a checkout never runs a stale dist/.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { listFiles, sha256 } from "./files.js";

const here = path.dirname(fileURLToPath(import.meta.url));
/** The checkout's root when this module runs from `<root>/dist/generator/`, else null. */
function checkoutOfDist(): string | null {
  if (path.basename(here) !== "generator" || path.basename(path.dirname(here)) !== "dist") return null;
  const root = path.dirname(path.dirname(here));
  return existsSync(path.join(root, "generator", "cli.ts")) ? root : null;
}

/** sha256 over the generator's .ts sources (paths and bytes) and the compiler settings. */
export function sourceHash(root: string): string {
  const files = [
    ...listFiles(path.join(root, "generator"))
      .filter((rel) => rel.endsWith(".ts"))
      .map((rel) => `generator/${rel}`),
    "tsconfig.json",
    "tsconfig.build.json",
  ];
  const parts = files.map((rel) => `${rel}\0${sha256(readFileSync(path.join(root, rel)))}`);
  return sha256(parts.join("\n"));
}

const stampFile = (root: string) => path.join(root, "dist", "generator", ".source-sha256");

/** Record that dist/ was built from the current sources (run by tools/build.mjs after tsc). */
export function writeBuildStamp(root: string): void {
  writeFileSync(stampFile(root), sourceHash(root) + "\n");
}

/**
 * Inside a checkout, rebuild dist/ when its stamp does not match the sources. Returns what to tell
 * the user (null when nothing was done); throws when the build fails.
 */
export function ensureFreshBuild(): string | null {
  const root = checkoutOfDist();
  if (root === null) return null;
  const recorded = existsSync(stampFile(root)) ? readFileSync(stampFile(root), "utf8").trim() : "";
  if (recorded === sourceHash(root)) return null;
  const r = spawnSync(process.execPath, [path.join(root, "tools", "build.mjs")], { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
  if (r.status !== 0) throw new Error(`dist/ is older than generator/ and rebuilding it failed (node tools/build.mjs exited ${r.status})`);
  return "mcp-codegen: dist/ was older than generator/: rebuilt it (npm run build)\n";
}
