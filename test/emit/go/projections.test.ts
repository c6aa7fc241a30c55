// The Go tree's projections (issue 41, item 4 for Go): each version package's Projection (the model's data,
// printed) read by mcpruntime's interpreter. Over every ordered pair of the locked versions (no label
// assumed) and every request both have, the source version's corpus of valid results (values Ajv accepts
// at the source) is projected onto the target by the Go tree, and each projected value is judged by
// jsonschema-go against the target's own schema file (test/emit/go/main.go, `project`): valid at the
// target, or refused with a JSON pointer into the value; never silently invalid; a closed result never gets a
// root member the target's schema file does not declare (the schemas leave most results open to extra
// members, so validity alone would not see one kept). The Go interpreter answers
// as the TypeScript runtime's does (the same value, the same members dropped and defaults added, the same
// refusal pointer), and the root package prints the protocol order.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import { pointerToken } from "../../../generator/errors.js";
import { versionPackage } from "../../../generator/emit/go/language.js";
import { extensionLabel } from "../../../generator/model/extensions.js";
import { buildProjections } from "../../../generator/model/projections.js";
import { protocolOrder } from "../../../generator/model/protocol-order.js";
import type { ProtocolModel } from "../../../generator/model/types.js";
import { buildModel } from "../../../generator/pipeline.js";
import { loadSpec } from "../../../generator/source/load.js";
import { readLock } from "../../../generator/source/lock.js";
import { projectResult, type VersionProjection } from "../../../runtimes/typescript/src/projection.js";
import { ensureSchemas, lockFile, modelOptions, tempDir } from "../../support.js";
import { type Json, labelledCorpus, oracleDocument, sameJson, seedOf } from "../typescript/corpus.js";
import { type Alternative, alternatives, fitsSome, openRoot, pointsInto } from "../../model/schema-alternatives.js";
import { go, writeGoTree, writeHarness } from "./support.js";

const WANTED = 6;
const MAX_ATTEMPTS = 80;

interface Outcome {
  from: string;
  to: string;
  method: string;
  index: number;
  refused: boolean;
  pointer: string;
  reason?: string;
  value?: Json;
  dropped: string[] | null;
  added: string[] | null;
  valid: boolean;
  schemaError?: string;
}

let model: ProtocolModel;
let labels: string[];
let outcomes: Outcome[] = [];
/** The values projected, by `from to method index`. */
const inputs = new Map<string, Json>();
let treeFiles = new Map<string, string>();
/** Per case (`from to method`): the object alternatives of the target's result definitions (schema file), or null when one leaves its root open. */
const alternativesAtTarget = new Map<string, Alternative[] | null>();

type RawSchema = Record<string, unknown>;



beforeAll(async () => {
  await ensureSchemas();
  const lock = await readLock(lockFile);
  labels = Object.keys(lock.versions).sort();
  model = buildModel({ ...modelOptions, versions: labels, lock });
  const dir = tempDir("mcp-codegen-go-projections-");
  treeFiles = writeGoTree(model, path.join(dir, "tree"));
  const harness = writeHarness(dir, model.versions.map((v) => ({ label: v.label, version: v, definitions: [], projected: true })));
  // Per version: its schema file as the generator reads it (written for the harness), and Ajv on it.
  const docs = new Map<string, { file: string; container: string; validate: (name: string) => ValidateFunction; defs: Record<string, never> }>();
  for (const label of labels) {
    const spec = loadSpec(path.join(modelOptions.schemasDir, label, "schema.json"), label, { patchesDir: modelOptions.patchesDir });
    const doc = oracleDocument(modelOptions.schemasDir, modelOptions.patchesDir, label);
    const file = path.join(dir, `${label}.schema.json`);
    writeFileSync(file, JSON.stringify(doc));
    const options = { strict: false, validateFormats: false } as const;
    const ajv = spec.dialect === "2020-12" ? new Ajv2020(options) : new Ajv(options);
    ajv.addSchema(doc, "mcp");
    docs.set(label, { file, container: spec.container, validate: (name) => ajv.getSchema(`mcp#/${spec.container}/${pointerToken(name)}`) as ValidateFunction, defs: spec.defs as Record<string, never> });
  }
  const cases: { from: string; to: string; method: string; schema: string; pointers: string[]; instances: Json[] }[] = [];
  for (const from of model.versions) {
    const source = docs.get(from.label)!;
    for (const request of from.requests) {
      // The source's valid results of the method (each of its result definitions).
      const values = request.results.flatMap((name) => labelledCorpus(source.defs, name, seedOf(`go-projection/${from.label}/${name}`), (v) => source.validate(name)(v) as boolean, WANTED, MAX_ATTEMPTS).valid);
      for (const to of model.versions) {
        const target = to.requests.find((r) => r.method === request.method);
        if (to === from || target === undefined || values.length === 0) continue;
        const t = docs.get(to.label)!;
        const raw = t.defs as Record<string, RawSchema>;
        alternativesAtTarget.set(`${from.label} ${to.label} ${request.method}`, target.results.some((n) => openRoot(raw, raw[n])) ? null : target.results.flatMap((n) => alternatives(raw, raw[n])));
        cases.push({ from: from.label, to: to.label, method: request.method, schema: t.file, pointers: target.results.map((n) => `#/${t.container}/${pointerToken(n)}`), instances: values });
        values.forEach((v, i) => inputs.set(`${from.label} ${to.label} ${request.method} ${i}`, v));
      }
    }
  }
  const file = path.join(dir, "projections.json");
  writeFileSync(file, JSON.stringify(cases));
  const binary = path.join(dir, "harness-bin");
  const build = go(["build", "-o", binary, "."], harness);
  expect(build.status, build.stderr).toBe(0);
  const run = spawnSync(binary, ["project", file], { encoding: "utf8", maxBuffer: 1 << 30 });
  expect(run.status, run.stderr).toBe(0);
  outcomes = run.stdout.trim().split("\n").map((l) => JSON.parse(l) as Outcome);
}, 600_000);

describe("the Go tree's projections", () => {
  it("project every valid result of every ordered pair of versions to a value jsonschema-go accepts at the target, or refuse it with a pointer into it", () => {
    expect(outcomes.length).toBe(inputs.size);
    const key = (o: Outcome) => `${o.from} ${o.to} ${o.method} ${o.index}`;
    const silent = outcomes.filter((o) => !o.refused && !o.valid).map((o) => `${key(o)}: ${o.schemaError}\n    ${JSON.stringify(o.value)}`);
    const pointless = outcomes.filter((o) => o.refused && !pointsInto(inputs.get(key(o)), o.pointer)).map((o) => `${key(o)}: ${o.pointer}: ${o.reason}`);
    const projected = outcomes.filter((o) => !o.refused);
    const dropping = projected.filter((o) => (o.dropped ?? []).length > 0);
    const adding = projected.filter((o) => (o.added ?? []).length > 0);
    console.log(`Go projections: ${outcomes.length} results over ${new Set(outcomes.map((o) => `${o.from} ${o.to}`)).size} ordered pairs: ${projected.length} projected (valid by jsonschema-go), ${dropping.length} of them dropping members, ${adding.length} supplying defaults; ${outcomes.length - projected.length} refused with a pointer`);
    expect(silent).toEqual([]);
    expect(pointless).toEqual([]);
    // Not vacuous: values are projected, and some of them lose members or gain defaults on the way.
    expect(projected.length).toBeGreaterThan(0);
    expect(dropping.length + adding.length).toBeGreaterThan(0);
  });

  it("never give a target a root member its result does not declare (read from the target's schema file), where the result is closed", () => {
    let checked = 0;
    const leaked: string[] = [];
    for (const o of outcomes.filter((x) => !x.refused)) {
      const alts = alternativesAtTarget.get(`${o.from} ${o.to} ${o.method}`);
      if (alts === null || alts === undefined) continue;
      checked++;
      // The value is one alternative of the target's result (a union's branch): every member it carries is that alternative's.
      if (!fitsSome(alts, o.value as object)) leaked.push(`${o.from} → ${o.to} ${o.method} #${o.index}: ${Object.keys(o.value as object).join(", ")}`);
    }
    expect(checked).toBeGreaterThan(0);
    expect(leaked).toEqual([]);
  });

  it("answer as the TypeScript runtime's interpreter on the same data: the same value, members dropped and defaults added, or the same refusal pointer", () => {
    const data = buildProjections(model);
    const differ: string[] = [];
    for (const o of outcomes) {
      const key = `${o.from} ${o.to} ${o.method} ${o.index}`;
      const ts = projectResult(data.versions.find((v) => v.label === o.to)! as VersionProjection, o.method, inputs.get(key));
      const sorted = (l: string[] | null) => [...(l ?? [])].sort();
      const same = ts.ok
        ? !o.refused && sameJson(ts.value, o.value) && sameJson(sorted(ts.dropped), sorted(o.dropped)) && sameJson(sorted(ts.added), sorted(o.added))
        : o.refused && ts.pointer === o.pointer;
      if (!same) differ.push(`${key}: TypeScript ${JSON.stringify(ts)}; Go ${JSON.stringify(o)}`);
    }
    expect(differ).toEqual([]);
  });

  it("print the protocol order in the root package and one Projection per version package (none for an extension module)", () => {
    const order = protocolOrder(model.versions);
    expect(treeFiles.get("tables.go")).toContain(`var ProtocolOrder = []string{${order.map((l) => JSON.stringify(l)).join(", ")}}`);
    const packages = [...treeFiles.keys()].filter((f) => f.endsWith("/projection.go") && !f.startsWith("mcpruntime/"));
    expect(packages.length).toBe(model.versions.length);
    expect(packages.sort()).toEqual(model.versions.map((v) => `${versionPackage(v.label)}/projection.go`).sort());
    for (const ext of model.extensions ?? []) expect(treeFiles.has(`${versionPackage(extensionLabel(ext))}/projection.go`)).toBe(false);
  });
});
