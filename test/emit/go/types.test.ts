// Proof of the Go target's types (issue 38, item 2): every definition of every version of the lock (and
// each extension module's own definitions) over the seeded corpus the other targets' differential tests
// use (instances drawn from the schema and mutations of them), each instance judged by jsonschema-go
// against the version's schema (test/emit/go/main.go), decoded with the definition's generated Go type
// and encoded again. An instance the schema accepts decodes and encodes to the same JSON value. An
// instance it refuses is refused by the Go decoding where Go's types can say why; the rest (constraints
// the types do not check: patterns, lengths, bounds, `not`, key rules) are counted and printed.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { pointerToken } from "../../../generator/errors.js";
import { extensionLabel } from "../../../generator/model/extensions.js";
import { defaultPatchesDir, defaultSchemasDir } from "../../../generator/paths.js";
import { buildModel } from "../../../generator/pipeline.js";
import { extensionSchemasDir } from "../../../generator/source/extensions.js";
import { loadSpec } from "../../../generator/source/load.js";
import { readLock } from "../../../generator/source/lock.js";
import { ensureSchemas, lockFile, modelOptions, schemasDir, tempDir } from "../../support.js";
import { extensionModuleDocument, oracleDocument, sameJson } from "../typescript/corpus.js";
import { type Module, moduleCorpus } from "./corpus.js";
import { go, type Verdict, writeGoTree, writeHarness } from "./support.js";

await ensureSchemas();
const model = buildModel({ ...modelOptions, lock: await readLock(lockFile) });
const labels = Object.keys((await readLock(lockFile)).versions).sort();

const modules: Module[] = [];
for (const label of labels) {
  const spec = loadSpec(path.join(defaultSchemasDir, label, "schema.json"), label, { patchesDir: defaultPatchesDir });
  const version = model.versions.find((v) => v.label === label)!;
  modules.push(moduleCorpus(label, version, oracleDocument(defaultSchemasDir, defaultPatchesDir, label), spec.defs as Record<string, never>, Object.keys(spec.defs).sort()));
}
for (const ext of model.extensions ?? []) {
  const spec = loadSpec(path.join(extensionSchemasDir(schemasDir, ext.name), ext.label, "schema.json"), ext.label);
  modules.push(moduleCorpus(extensionLabel(ext), ext.model, extensionModuleDocument(schemasDir, defaultPatchesDir, ext), spec.defs as Record<string, never>, [...ext.definitions]));
}

let verdicts: Verdict[] = [];

beforeAll(() => {
  const dir = tempDir("mcp-codegen-go-");
  writeGoTree(model, path.join(dir, "tree"));
  const harness = writeHarness(dir, modules);
  const cases = modules.flatMap((m) => {
    const file = path.join(dir, `${m.label}.schema.json`);
    writeFileSync(file, JSON.stringify(m.document));
    const container = Object.hasOwn(m.document, "$defs") ? "$defs" : "definitions";
    return m.definitions.map((definition) => ({ label: m.label, schema: file, definition, pointer: `#/${container}/${pointerToken(definition)}`, instances: m.instances.get(definition)! }));
  });
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "cases.json"), JSON.stringify(cases));
  const build = go(["build", "-o", path.join(dir, "proof"), "."], harness);
  expect(build.status, build.stderr).toBe(0);
  const run = spawnSync(path.join(dir, "proof"), ["proof", path.join(dir, "cases.json")], { encoding: "utf8", maxBuffer: 1 << 30 });
  expect(run.status, run.stderr).toBe(0);
  verdicts = run.stdout.trim().split("\n").map((line) => JSON.parse(line) as Verdict);
}, 600_000);

describe("the generated Go types on the corpus, judged by jsonschema-go", () => {
  it("judge every instance of every module", () => {
    const expected = modules.reduce((n, m) => n + [...m.instances.values()].reduce((k, xs) => k + xs.length, 0), 0);
    expect(verdicts.length).toBe(expected);
    expect(verdicts.filter((v) => v.schema).length).toBeGreaterThan(0);
    expect(verdicts.filter((v) => !v.schema).length).toBeGreaterThan(0);
  });

  it.each(modules.map((m) => m.label))("%s: every instance the schema accepts decodes and encodes to the same JSON value", (label) => {
    const m = modules.find((x) => x.label === label)!;
    const failures: string[] = [];
    for (const v of verdicts.filter((x) => x.label === label && x.schema)) {
      const instance = m.instances.get(v.definition)![v.index];
      if (!v.decoded) failures.push(`${v.definition}: refuses ${JSON.stringify(instance)}: ${v.decodeError}`);
      else if (!sameJson(JSON.parse(v.encoded!), instance)) failures.push(`${v.definition}: ${JSON.stringify(instance)} encodes as ${v.encoded}`);
    }
    expect(failures.slice(0, 8)).toEqual([]);
  });

  it.each(modules.map((m) => m.label))("%s: instances the schema refuses, refused by the Go decoding where the types can say it (counted)", (label) => {
    const refused = verdicts.filter((x) => x.label === label && !x.schema);
    const byGo = refused.filter((v) => !v.decoded);
    const m = modules.find((x) => x.label === label)!;
    const passed = refused.filter((v) => v.decoded).map((v) => `  ${v.definition} ${JSON.stringify(m.instances.get(v.definition)![v.index]).slice(0, 160)}: ${v.schemaError?.slice(0, 160)}`);
    console.log(`${label} (go): ${refused.length} instances jsonschema-go refuses, ${byGo.length} refused by the Go decoding, ${passed.length} decoded (the first, with jsonschema-go's reason):\n${passed.slice(0, 8).join("\n")}`);
    expect(byGo.length).toBeGreaterThan(0);
  });
});
