// Two versions whose schema files are the same bytes: the second (in code-unit order of labels)
// re-exports the first's types.ts, schemas.ts and guards.ts instead of a second copy; its own label,
// era and catalogue stay its own. Built from a temporary folder holding one pinned schema under two
// labels, so the test does not depend on which pinned versions happen to be equal today.
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolRoot } from "../../../generator/paths.js";
import { discoverVersions, generateFiles } from "../../../generator/pipeline.js";
import { ensureSchemas, modelOptions, schemasDir } from "../../support.js";
import { strictErrors } from "./corpus.js";

const tmp = path.join(toolRoot, ".tmp", `identical-${process.pid}`);
const [first, second] = ["same-a", "same-b"];
let files: Map<string, string>;
let source: string;

beforeAll(async () => {
  await ensureSchemas();
  source = discoverVersions(schemasDir)[0];
  const schemas = path.join(tmp, "schemas");
  for (const label of [second, first]) {
    mkdirSync(path.join(schemas, label), { recursive: true });
    copyFileSync(path.join(schemasDir, source, "schema.json"), path.join(schemas, label, "schema.json"));
  }
  files = (await generateFiles({ schemasDir: schemas, overridesFile: modelOptions.overridesFile })).files;
  for (const [file, text] of files) {
    mkdirSync(path.dirname(path.join(tmp, "out", file)), { recursive: true });
    writeFileSync(path.join(tmp, "out", file), text);
  }
}, 300_000);
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("a version whose schema bytes equal another's", () => {
  it("re-exports the first label's types, schemas and guards", () => {
    for (const module of ["types", "schemas", "guards"]) {
      const text = files.get(`${second}/${module}.ts`)!;
      expect(text.split("\n").filter((l) => !l.startsWith("//"))).toEqual([`export * from "../${first}/${module}.js";`, ""]);
      expect(files.get(`${first}/${module}.ts`)!.length).toBeGreaterThan(text.length);
    }
  });

  it("keeps its own label in its header, catalogue and constants", async () => {
    expect(files.get(`${second}/types.ts`)).toContain(`// Protocol version ${second} (`);
    const a = await import(pathToFileURL(path.join(tmp, "out", first, "index.ts")).href);
    const b = await import(pathToFileURL(path.join(tmp, "out", second, "index.ts")).href);
    expect([a.protocolVersion, b.protocolVersion]).toEqual([first, second]);
    expect(b.era).toBe(a.era);
    // The very same schema objects: one copy of the code.
    expect(b.requestParamsSchemas).toBe(a.requestParamsSchemas);
    expect(b.resultGuards).toBe(a.resultGuards);
  });

  it("compiles under strict", () => {
    expect([...strictErrors([path.join(tmp, "out", second, "index.ts")])]).toEqual([]);
  });
});
