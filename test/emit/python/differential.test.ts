// Differential test: every generated pydantic model (`DEFINITIONS[name]` of each version module)
// against Ajv on the version's own schema.json (draft-07 or 2020-12, formats not asserted), over the
// same seeded corpus the zod differential uses. Ajv labels each instance; the model, validating the
// instance's JSON text, must agree on every one, and dump what it accepts back to the same JSON (by
// alias, unset fields left out: nothing dropped or changed). The same corpus through the official
// SDK's models (mcp-types 2.3.0) lists, per definition, where they disagree with the spec: findings, printed.
// Each extension module (`DEFINITIONS` of mcp_codegen.extension(label)) likewise, on the definitions the
// extension adds, against Ajv on the extension's own schema.json.
import path from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { pointerToken } from "../../../generator/errors.js";
import { defaultPatchesDir, defaultSchemasDir } from "../../../generator/paths.js";
import { extensionLabel } from "../../../generator/model/extensions.js";
import { buildModel } from "../../../generator/pipeline.js";
import { extensionSchemasDir } from "../../../generator/source/extensions.js";
import { readLock } from "../../../generator/source/lock.js";
import { loadSpec } from "../../../generator/source/load.js";
import type { ExtensionModel, LoadedSpec } from "../../../generator/model/types.js";
import { ensureSchemas, lockFile, modelOptions, schemasDir } from "../../support.js";
import { extensionModuleDocument, type Json, labelledCorpus, oracleDocument, seedOf } from "../typescript/corpus.js";
import { pythonJson } from "./support.js";

const WANTED = 50;
const MAX_ATTEMPTS = 600;

interface Corpus {
  spec: LoadedSpec;
  /** Per definition: instances and Ajv's verdict on each. */
  byDefinition: Map<string, { instances: Json[]; ajv: boolean[] }>;
}

const corpora = new Map<string, Corpus>();
const labels = Object.keys((await readLock(lockFile)).versions).sort();

function corpusOf(version: string): Corpus {
  let c = corpora.get(version);
  if (c !== undefined) return c;
  const spec = loadSpec(path.join(defaultSchemasDir, version, "schema.json"), version, { patchesDir: defaultPatchesDir });
  const options = { strict: false, validateFormats: false, allErrors: false } as const;
  const ajv = spec.dialect === "2020-12" ? new Ajv2020(options) : new Ajv(options);
  ajv.addSchema(oracleDocument(defaultSchemasDir, defaultPatchesDir, version), "mcp");
  const byDefinition = new Map<string, { instances: Json[]; ajv: boolean[] }>();
  for (const name of Object.keys(spec.defs).sort()) {
    const validate = ajv.getSchema(`mcp#/${spec.container}/${pointerToken(name)}`) as ValidateFunction;
    const corpus = labelledCorpus(spec.defs, name, seedOf(`${version}/${name}`), (instance) => validate(instance) as boolean, WANTED, MAX_ATTEMPTS);
    byDefinition.set(name, { instances: [...corpus.valid, ...corpus.invalid], ajv: [...corpus.valid.map(() => true), ...corpus.invalid.map(() => false)] });
  }
  c = { spec, byDefinition };
  corpora.set(version, c);
  return c;
}

/**
 * Each definition an extension adds, its corpus drawn from the extension's own schema.json and labelled by
 * Ajv on the module's document (the extension's definitions over the core's, the module's rule).
 */
function extensionCorpus(ext: ExtensionModel): Corpus {
  const file = path.join(extensionSchemasDir(schemasDir, ext.name), ext.label, "schema.json");
  const spec = loadSpec(file, ext.label);
  const options = { strict: false, validateFormats: false, allErrors: false } as const;
  const root = extensionModuleDocument(schemasDir, defaultPatchesDir, ext);
  const container = Object.hasOwn(root, "$defs") ? "$defs" : "definitions";
  const ajv = root.$schema === "https://json-schema.org/draft/2020-12/schema" ? new Ajv2020(options) : new Ajv(options);
  ajv.addSchema(root, "ext");
  const byDefinition = new Map<string, { instances: Json[]; ajv: boolean[] }>();
  for (const name of ext.definitions) {
    const validate = ajv.getSchema(`ext#/${container}/${pointerToken(name)}`) as ValidateFunction;
    const corpus = labelledCorpus(spec.defs, name, seedOf(`${extensionLabel(ext)}/${name}`), (instance) => validate(instance) as boolean, WANTED, MAX_ATTEMPTS);
    byDefinition.set(name, { instances: [...corpus.valid, ...corpus.invalid], ajv: [...corpus.valid.map(() => true), ...corpus.invalid.map(() => false)] });
  }
  return { spec, byDefinition };
}

await ensureSchemas();
const model = buildModel({ ...modelOptions, lock: await readLock(lockFile) });
const extensions: ExtensionModel[] = [...(model.extensions ?? [])];
const sorted = (xs: Iterable<string>) => [...xs].sort();

/** Each definition's verdicts and round trips through the Python driver, checked against Ajv's labels. */
function compare(module: { version: string; extension?: string }, version: string, byDefinition: Corpus["byDefinition"], kind: string): void {
  const names = [...byDefinition.keys()];
  const cases = names.map((definition) => ({ ...module, definition, instances: byDefinition.get(definition)!.instances.map((i) => JSON.stringify(i)) }));
  const answers = pythonJson<Array<{ valid: boolean[]; changed: number[] }>>("batch.py", cases);
  const disagreements: string[] = [];
  const changed: string[] = [];
  names.forEach((name, i) => {
    const { instances, ajv } = byDefinition.get(name)!;
    expect(answers[i].valid.length, name).toBe(instances.length);
    ajv.forEach((a, j) => {
      if (answers[i].valid[j] !== a) disagreements.push(`${name}: Ajv ${a ? "accepts" : "rejects"}, pydantic ${a ? "rejects" : "accepts"} ${JSON.stringify(instances[j])}`);
    });
    for (const j of answers[i].changed) changed.push(`${name}: dumps ${JSON.stringify(instances[j])} differently`);
  });
  const instances = [...byDefinition.values()].flatMap((c) => c.ajv);
  console.log(`${version} (python${kind}): ${names.length} definitions, ${instances.length} instances (${instances.filter(Boolean).length} valid per Ajv), ${disagreements.length} disagreements, ${changed.length} changed on the way through`);
  expect(disagreements.slice(0, 5)).toEqual([]);
  expect(changed.slice(0, 5)).toEqual([]);
}

describe("generated pydantic models agree with Ajv on every definition", () => {
  it("cover every version of the lock, each module with the model's requests and notifications", async () => {
    expect(labels.length).toBeGreaterThan(0);
    const answers = pythonJson<Array<{ requests: string[]; notifications: string[] }>>("batch.py", labels.map((version) => ({ version, catalogue: true })));
    labels.forEach((label, i) => {
      const version = model.versions.find((v) => v.label === label)!;
      expect(sorted(answers[i].requests), label).toEqual(sorted(version.requests.map((r) => r.method)));
      expect(sorted(answers[i].notifications), label).toEqual(sorted(version.notifications.map((n) => n.method)));
    });
  });

  it.each(labels)("%s", (version) => {
    compare({ version }, version, corpusOf(version).byDefinition, "");
  });
});

describe("extension modules' pydantic models agree with Ajv on the extension's own schema, on every definition it adds", () => {
  it("cover every extension module of the model, each with the extension's requests and notifications", () => {
    expect(extensions.length).toBeGreaterThan(0);
    const answers = pythonJson<Array<{ requests: string[]; notifications: string[] }>>("batch.py", extensions.map((x) => ({ version: x.core, extension: x.identifier, catalogue: true })));
    extensions.forEach((x, i) => {
      expect(answers[i].requests, extensionLabel(x)).toEqual(expect.arrayContaining(x.requests));
      expect(answers[i].notifications, extensionLabel(x)).toEqual(expect.arrayContaining(x.notifications));
    });
  });

  it.each(extensions.map((x) => [extensionLabel(x), x] as const))("%s", (label, ext) => {
    expect(ext.definitions.length).toBeGreaterThan(0);
    compare({ version: ext.core, extension: ext.identifier }, label, extensionCorpus(ext).byDefinition, ", extension's own definitions");
  });
});

describe("the official SDK's models (mcp-types 2.3.0) on the same corpus", () => {
  it.each(labels)("%s: where they disagree with Ajv, per definition (findings, printed)", (version) => {
    const { byDefinition } = corpusOf(version);
    const definitions = Object.fromEntries([...byDefinition].map(([name, c]) => [name, c.instances.map((i) => JSON.stringify(i))]));
    // The SDK's module for the version's era, as the model decides it (a bump's draft may be of either).
    const era = model.versions.find((v) => v.label === version)!.era;
    const answer = pythonJson<{ module: string; verdicts: Record<string, boolean[]> }>("sdk_types.py", { version, era, definitions });
    const compared = Object.keys(answer.verdicts).sort();
    const lines: string[] = [];
    let agreeing = 0;
    for (const name of compared) {
      const { instances, ajv } = byDefinition.get(name)!;
      const sdk = answer.verdicts[name];
      expect(sdk.length, name).toBe(instances.length);
      const rejectsValid = ajv.map((a, j) => a && !sdk[j]).filter(Boolean).length;
      const acceptsInvalid = ajv.map((a, j) => !a && sdk[j]).filter(Boolean).length;
      if (rejectsValid + acceptsInvalid === 0) {
        agreeing++;
        continue;
      }
      const example = ajv.findIndex((a, j) => a !== sdk[j]);
      lines.push(
        `${name}: rejects ${rejectsValid} of ${ajv.filter((a) => a).length} valid, accepts ${acceptsInvalid} of ${ajv.filter((a) => !a).length} invalid; e.g. ${ajv[example] ? "rejects" : "accepts"} ${JSON.stringify(instances[example]).slice(0, 160)}`,
      );
    }
    const missing = [...byDefinition.keys()].filter((n) => !(n in answer.verdicts));
    console.log(
      [
        `mcp-types 2.3.0 (${answer.module}) vs Ajv on ${version}: ${compared.length} definitions compared, ${agreeing} agree on every instance, ${lines.length} disagree:`,
        ...lines.map((l) => `  - ${l}`),
        `  definitions the SDK module has no model for: ${missing.length === 0 ? "none" : missing.join(", ")}`,
      ].join("\n"),
    );
    // The comparison ran: the SDK models most definitions of the version and gave a verdict on each instance.
    expect(compared.length).toBeGreaterThan(byDefinition.size / 2);
    expect(agreeing + lines.length).toBe(compared.length);
  });
});
