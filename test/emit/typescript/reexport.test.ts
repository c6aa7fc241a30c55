// Versions with the same schema.json share their types only when their schema.ts says the same to the
// type printer: a version given as JSON only, beside one with a schema.ts, gets its own types.ts.
import { copyFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { generateFiles } from "../../../generator/pipeline.js";
import { readLock } from "../../../generator/source/lock.js";
import { ensureSchemas, lockFile, schemasDir, tempDir } from "../../support.js";

it("re-exports types only between versions whose schema.json and schema.ts facts are the same", async () => {
  await ensureSchemas();
  // Any locked version that has a schema.ts in the spec folder.
  const label = Object.keys((await readLock(lockFile)).versions).sort()[0];
  const dir = tempDir();
  for (const copy of ["a", "b", "c"]) {
    mkdirSync(path.join(dir, copy));
    copyFileSync(path.join(schemasDir, label, "schema.json"), path.join(dir, copy, "schema.json"));
  }
  // a and c: the same schema.ts; b: JSON only.
  copyFileSync(path.join(schemasDir, label, "schema.ts"), path.join(dir, "a", "schema.ts"));
  copyFileSync(path.join(schemasDir, label, "schema.ts"), path.join(dir, "c", "schema.ts"));
  const { files } = await generateFiles({ schemasDir: dir }, { targets: ["typescript"] });
  const types = (v: string) => files.get(`${v}/types.ts`)!;
  expect(types("a")).toMatch(/^export interface /m);
  expect(types("c")).toContain('export * from "../a/types.js";');
  expect(types("b")).toMatch(/^export interface /m);
  expect(types("b")).not.toContain("export * from");
});
