// `npm run build`: compile into a fresh dist/ (no file of an earlier build is shipped):
// - dist/generator/ and dist/generated/: the root package `mcp-codegen` (tsconfig.build.json);
// - dist/generated-package/: the generated-code package `mcp-codegen-generated` (tsconfig.generated-package.json):
//   the compiled .js and .d.ts of generated/ beside generated/{package.json,LICENSE,README.md,MATRIX.md,DIFFS}.
// Type tests (*.check.ts) are compiled into neither. `npm pack ./dist/generated-package` makes its tarball.
// `node tools/build.mjs --package-only --out DIR` builds only the generated-code package, into DIR.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const packageOnly = args.includes("--package-only");
const outIndex = args.indexOf("--out");
const packageOut = outIndex >= 0 ? path.resolve(args[outIndex + 1]) : path.join(root, "dist", "generated-package");
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");

function compile(project, extra = []) {
  const r = spawnSync(process.execPath, [tsc, "-p", path.join(root, project), ...extra], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (!packageOnly) {
  rmSync(path.join(root, "dist"), { recursive: true, force: true });
  compile("tsconfig.build.json");
}
rmSync(packageOut, { recursive: true, force: true });
compile("tsconfig.generated-package.json", ["--outDir", packageOut]);
for (const name of ["package.json", "LICENSE", "README.md", "MATRIX.md", "DIFFS"]) {
  const from = path.join(root, "generated", name);
  if (existsSync(from)) cpSync(from, path.join(packageOut, name), { recursive: true });
}
