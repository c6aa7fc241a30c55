// A generated tree compiles under strict tsc whatever versions it holds: each pinned version alone,
// each era alone, all of them, and a revision under a label nobody knows. The labels and eras come
// from the lock and the model, so the cases follow the spec when it moves.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildModel } from "../../../generator/pipeline.js";
import { readLock } from "../../../generator/source/lock.js";
import { ensureSchemas, lockFile, root, runCli, schemasDir } from "../../../test/support.js";

beforeAll(ensureSchemas);

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** Trees live under the project (gitignored .tmp/) so that `zod` resolves from its node_modules. */
function workDir(): string {
  mkdirSync(path.join(root, ".tmp"), { recursive: true });
  const dir = mkdtempSync(path.join(root, ".tmp", "subsets-"));
  made.push(dir);
  return dir;
}

describe("generate --versions V --out X, then strict tsc", () => {
  it("compiles for each pinned version alone, each era alone, all versions, and a lone revision of an unknown label", async () => {
    const labels = Object.keys((await readLock(lockFile)).versions).sort();
    const model = buildModel({ schemasDir, versions: labels });
    const eraOf = new Map(model.versions.map((v) => [v.label, v.era]));
    const work = workDir();
    const trees: Array<{ name: string; args: string[] }> = [];
    for (const label of labels) trees.push({ name: `only-${label}`, args: ["--versions", label] });
    for (const era of ["legacy", "modern"] as const) {
      const members = labels.filter((l) => eraOf.get(l) === era);
      expect(members.length, `the lock has ${era} versions`).toBeGreaterThan(0);
      trees.push({ name: `era-${era}`, args: ["--versions", members.join(",")] });
    }
    trees.push({ name: "all", args: ["--versions", labels.join(",")] });
    // The newest version of each era, copied under a label that is neither a date nor a known one.
    for (const era of ["legacy", "modern"] as const) {
      const newest = labels.filter((l) => eraOf.get(l) === era).at(-1)!;
      const folder = path.join(work, `schemas-${era}`, `rev.${era}-x`);
      mkdirSync(folder, { recursive: true });
      cpSync(path.join(schemasDir, newest, "schema.json"), path.join(folder, "schema.json"));
      trees.push({ name: `unknown-${era}`, args: ["--schemas", path.dirname(folder)] });
    }
    for (const tree of trees) {
      const r = await runCli(["generate", ...tree.args, "--out", path.join(work, tree.name)]);
      expect(r.status, `${tree.name}: ${r.stderr}`).toBe(0);
    }
    // One strict program over every tree (the options of tsconfig.generated.json).
    writeFileSync(
      path.join(work, "tsconfig.json"),
      JSON.stringify({ extends: path.join(root, "tsconfig.generated.json"), compilerOptions: { rootDir: "." }, include: trees.map((t) => `${t.name}/**/*.ts`) }),
    );
    const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
    const r = spawnSync(process.execPath, [tsc, "-p", path.join(work, "tsconfig.json"), "--noEmit"], { encoding: "utf8" });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  }, 600_000);
});
