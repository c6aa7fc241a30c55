// Builds into dist/:
// - `node tools/build.mjs` (`prepare`, and the bin when dist/ is stale): compile generator/ and generated/ to
//   dist/ (tsconfig.build.json; type tests, *.check.ts, left out), then stamp dist/ with the hash of the
//   sources it was built from (see generator/build-stamp.ts);
// - `--with-package` (`npm run build`): also the generated-code package `mcp-codegen-generated` in
//   dist/generated-package/ (tsconfig.generated-package.json, into a fresh folder): the compiled .js and
//   .d.ts of generated/ beside generated/{package.json,LICENSE,README.md,MATRIX.md,DIFFS}.
//   `npm pack ./dist/generated-package` makes its tarball;
// - `--package-only --out DIR`: only the generated-code package, into DIR.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const packageOnly = args.includes("--package-only");
const withPackage = packageOnly || args.includes("--with-package");
const outIndex = args.indexOf("--out");
const packageOut = outIndex >= 0 ? path.resolve(args[outIndex + 1]) : path.join(root, "dist", "generated-package");
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

function compile(project, extra = []) {
  const r = spawnSync(process.execPath, [tsc, "-p", path.join(root, project), ...extra], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (!packageOnly) {
  compile("tsconfig.build.json");
  const { writeBuildStamp } = await import(path.join(root, "dist", "generator", "build-stamp.js"));
  writeBuildStamp(root);
}
if (withPackage) {
  rmSync(packageOut, { recursive: true, force: true });
  compile("tsconfig.generated-package.json", ["--outDir", packageOut]);
  for (const name of ["package.json", "LICENSE", "README.md", "MATRIX.md", "DIFFS"]) {
    const from = path.join(root, "generated", name);
    if (existsSync(from)) cpSync(from, path.join(packageOut, name), { recursive: true });
  }
}
