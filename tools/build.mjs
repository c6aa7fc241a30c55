// `npm run build` (and `prepare`): compile generator/ and generated/ to dist/, then stamp dist/
// with the hash of the sources it was built from (see generator/build-stamp.ts).
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const r = spawnSync(process.execPath, [tsc, "-p", path.join(root, "tsconfig.build.json")], { cwd: root, stdio: "inherit" });
if (r.status !== 0) process.exit(r.status ?? 1);
const { writeBuildStamp } = await import(path.join(root, "dist", "generator", "build-stamp.js"));
writeBuildStamp(root);
