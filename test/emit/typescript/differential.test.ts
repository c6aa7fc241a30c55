// Differential test: every generated `<Name>Schema` against Ajv on the version's own schema.json
// (draft-07 for the legacy files, 2020-12 for the newer ones; formats not asserted), over a seeded
// corpus of generated instances and mutations of them. Ajv labels each instance; zod must agree on
// every one, and return what it accepts unchanged (no key stripped). The guards (`is<Name>`,
// guards.ts) must be sound on the same corpus: a guard that says true means Ajv accepts; how many
// of the Ajv-valid instances each version's guards accept (completeness) is printed and bounded.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import type { ZodType } from "zod";
import { pointerToken } from "../../../generator/errors.js";
import { defaultOutDir, defaultPatchesDir, defaultSchemasDir } from "../../../generator/paths.js";
import { loadSpec } from "../../../generator/source/load.js";
import { acceptsEverything, finiteSize, type Json, labelledCorpus, oracleDocument, sameJson, seedOf } from "./corpus.js";
import { lockFile, tempDir } from "../../support.js";

const WANTED = 50;
const MAX_ATTEMPTS = 600;
/** The guards compile every construct the MCP schemas use exactly; below this something regressed. */
const MIN_COMPLETENESS = 0.95;

const versions = readdirSync(defaultOutDir, { withFileTypes: true })
  .filter((e) => e.isDirectory() && existsSync(path.join(defaultOutDir, e.name, "schemas.ts")))
  .map((e) => e.name)
  .sort();

/**
 * An extension module (`<core>+<name>`): Ajv's document is the core version's with the extension's own
 * definitions put in (docs/extensions.md: the names its schema.ts declares, and its schema.json's
 * definitions the core lacks; where the core defines one too, the extension's wins), and only those
 * definitions are checked here (the core's are checked with the core version).
 */
function extensionOracle(folder: string): { file: string; own: Set<string> } | null {
  const plus = folder.indexOf("+");
  if (plus < 0) return null;
  const [core, name] = [folder.slice(0, plus), folder.slice(plus + 1)];
  const lock = JSON.parse(readFileSync(lockFile, "utf8")) as { extensions?: Record<string, { versions: Record<string, { core: string[] }> }> };
  const label = Object.entries(lock.extensions?.[name]?.versions ?? {}).find(([, v]) => v.core.includes(core))?.[0];
  if (label === undefined) throw new Error(`no locked extension ${name} layered onto ${core}`);
  const doc = oracleDocument(defaultSchemasDir, defaultPatchesDir, core) as { $defs?: Record<string, unknown>; definitions?: Record<string, unknown> };
  // The core's container: `$defs` (2020-12), or `definitions` in a draft-07 revision a bump brings.
  const container = doc.$defs ?? doc.definitions!;
  const extFolder = path.join(defaultSchemasDir, "extensions", name, label);
  const ext = JSON.parse(readFileSync(path.join(extFolder, "schema.json"), "utf8")) as { $defs: Record<string, Record<string, unknown>> };
  const ts = path.join(extFolder, "schema.ts");
  const declared = new Set(existsSync(ts) ? [...readFileSync(ts, "utf8").matchAll(/^export (?:interface|type) ([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]) : []);
  const own = new Set(Object.keys(ext.$defs).filter((d) => !Object.hasOwn(container, d) || declared.has(d)));
  // The extension's references retargeted to the core's container (its own names are put there).
  const retarget = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(retarget)
      : typeof value === "object" && value !== null
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === "$ref" && typeof v === "string" && v.startsWith("#/$defs/") ? `#/${doc.$defs ? "$defs" : "definitions"}/${v.slice(8)}` : retarget(v)]))
        : value;
  for (const d of own) {
    const { $schema: _dialect, ...schema } = ext.$defs[d];
    container[d] = retarget(schema);
  }
  const file = path.join(tempDir("mcp-codegen-ext-oracle-"), "schema.json");
  writeFileSync(file, JSON.stringify(doc));
  return { file, own };
}

interface Disagreement {
  definition: string;
  instance: Json;
  ajv: boolean;
  zod: boolean;
  detail: string;
}

type Guard = (value: unknown) => boolean;

/**
 * The exported name a generated file gives each definition whose name is no identifier: the file says so
 * in the doc comment above it (`The definition "Record<string,string>" of the schema, named …`).
 */
function renamed(file: string, exported: RegExp): Map<string, string> {
  const text = readFileSync(file, "utf8");
  const out = new Map<string, string>();
  const doc = /\/\*\* The definition ("(?:[^"\\]|\\.)*") of the schema, named \w+ here\. \*\/\n([^\n]*)/g;
  for (const m of text.matchAll(doc)) {
    const name = exported.exec(m[2])?.[1];
    if (name !== undefined) out.set(JSON.parse(m[1]) as string, name);
  }
  return out;
}

describe("zod schemas agree with Ajv on every definition", () => {
  it("has generated schemas for every synced version", () => {
    expect(versions.length).toBeGreaterThan(0);
    for (const v of versions.filter((f) => !f.includes("+"))) expect(existsSync(path.join(defaultSchemasDir, v, "schema.json")), `schemas/${v}/schema.json`).toBe(true);
  });

  it.each(versions)("%s", async (version) => {
    const extension = extensionOracle(version);
    const spec = extension === null ? loadSpec(path.join(defaultSchemasDir, version, "schema.json"), version, { patchesDir: defaultPatchesDir }) : loadSpec(extension.file, version);
    const doc = extension === null ? oracleDocument(defaultSchemasDir, defaultPatchesDir, version) : (JSON.parse(readFileSync(extension.file, "utf8")) as Record<string, unknown>);
    const options = { strict: false, validateFormats: false, allErrors: false } as const;
    const ajv = spec.dialect === "2020-12" ? new Ajv2020(options) : new Ajv(options);
    ajv.addSchema(doc, "mcp");
    const zod = (await import(`../../../generated/${version}/schemas.ts`)) as Record<string, ZodType>;
    const guards = (await import(`../../../generated/${version}/guards.ts`)) as Record<string, Guard>;
    const unsound: string[] = [];
    let guardAccepted = 0;

    const disagreements: Disagreement[] = [];
    const short: string[] = [];
    let valid = 0;
    let invalid = 0;
    const names = Object.keys(spec.defs)
      .filter((n) => extension === null || extension.own.has(n))
      .sort();
    const schemaNames = renamed(path.join(defaultOutDir, version, "schemas.ts"), /^export const (\w+)/);
    const guardNames = renamed(path.join(defaultOutDir, version, "guards.ts"), /^export function (\w+)/);
    for (const name of names) {
      const ajvValidate = ajv.getSchema(`mcp#/${spec.container}/${pointerToken(name)}`) as ValidateFunction;
      const schemaName = schemaNames.get(name) ?? `${name}Schema`;
      const schema = zod[schemaName];
      expect(schema, `${schemaName} is exported`).toBeDefined();
      const guardName = guardNames.get(name) ?? `is${name}`;
      const guard = guards[guardName];
      expect(guard, `${guardName} is exported`).toBeTypeOf("function");
      const corpus = labelledCorpus(spec.defs, name, seedOf(`${version}/${name}`), (instance) => ajvValidate(instance) as boolean, WANTED, MAX_ATTEMPTS);
      const judge = (instance: Json, a: boolean) => {
        const text = JSON.stringify(instance);
        const z = schema.safeParse(instance);
        const g = guard(instance);
        if (g && (!a || !z.success)) unsound.push(`${guardName} accepts what ${a ? "zod" : "Ajv"} rejects: ${text}\n  ${JSON.stringify(ajvValidate.errors?.slice(0, 3))}`);
        if (g && a) guardAccepted++;
        if (a !== z.success) {
          const detail = a ? JSON.stringify(z.error?.issues.slice(0, 3)) : JSON.stringify(ajvValidate.errors?.slice(0, 3));
          disagreements.push({ definition: name, instance, ajv: a, zod: z.success, detail });
        } else if (z.success && !sameJson(z.data, instance)) {
          // Accepting is not enough: nothing may be stripped or changed on the way through.
          disagreements.push({ definition: name, instance, ajv: a, zod: z.success, detail: `zod output differs: ${JSON.stringify(z.data)}` });
        }
      };
      for (const instance of corpus.valid) judge(instance, true);
      for (const instance of corpus.invalid) judge(instance, false);
      valid += corpus.valid.length;
      invalid += corpus.invalid.length;
      const wantValid = Math.min(WANTED, finiteSize(spec.defs[name], spec.defs));
      const wantInvalid = acceptsEverything(spec.defs[name], spec.defs) ? 0 : WANTED;
      if (corpus.valid.length < wantValid || corpus.invalid.length < wantInvalid) {
        short.push(`${name}: ${corpus.valid.length} valid (want ${wantValid}), ${corpus.invalid.length} invalid (want ${wantInvalid})`);
      }
    }
    console.log(`${version}: ${names.length} definitions, ${valid + invalid} instances (${valid} valid, ${invalid} invalid per Ajv), ${disagreements.length} disagreements`);
    const completeness = guardAccepted / valid;
    console.log(`${version} guards: ${unsound.length} unsound verdicts; accept ${guardAccepted} of ${valid} Ajv-valid instances (${(completeness * 100).toFixed(2)}%)`);

    expect(unsound.slice(0, 5)).toEqual([]);
    expect(completeness).toBeGreaterThanOrEqual(MIN_COMPLETENESS);

    expect(disagreements.slice(0, 5).map((d) => `${d.definition}: Ajv ${d.ajv ? "accepts" : "rejects"}, zod ${d.zod ? "accepts" : "rejects"} ${JSON.stringify(d.instance)}\n  ${d.detail}`)).toEqual([]);
    expect(short).toEqual([]);
  });
});
