// The generated params validators (`params_errors`, each version's `<file>.params.json` run with
// json_schemer 2.4) against Ajv on the spec's own schema.json: for every method of every version and
// the same JSON params, valid in Ruby exactly when Ajv accepts them (`format` an annotation in both, never
// asserted); an absent `params` is an error exactly when the message schema requires it. Without
// json_schemer 2 (Debian's 0.2, or none) `params_errors` is nil.
import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { readLock } from "../../../generator/source/lock.js";
import { lockFile, schemasDir } from "../../support.js";
import { jsonSchemerLib, ruby, rubySdkLib, rubyTestDir, rubyTree } from "./support.js";

const SEED = 20_261_201;
const RUNS = 12;

interface Oracle {
  validate: ValidateFunction;
  required: boolean;
  properties: string[];
}

type Json = Record<string, unknown>;
let oracles = new Map<string, Map<string, Oracle>>();

/** Per method of a version: Ajv on `<Definition>.properties.params` of the spec's schema.json. */
function oraclesOf(label: string): Map<string, Oracle> {
  const schema = JSON.parse(readFileSync(path.join(schemasDir, label, "schema.json"), "utf8")) as Json;
  const container = "$defs" in schema ? "$defs" : "definitions";
  const defs = schema[container] as Record<string, Json>;
  const ajv = container === "$defs" ? new Ajv2020({ strict: false, allErrors: true }) : new Ajv({ strict: false, allErrors: true });
  ajv.addSchema({ ...schema, $id: "https://spec.example/schema.json" });
  const out = new Map<string, Oracle>();
  // The message definitions are the role unions' members, as the spec says (another definition may repeat a
  // `method` const: an early draft's ElicitationInputRequest beside its ElicitRequest).
  const members = new Set(
    ["ClientRequest", "ServerRequest", "ClientNotification", "ServerNotification"].flatMap((union) =>
      ((defs[union]?.anyOf ?? defs[union]?.oneOf ?? []) as Json[]).map((m) => String(m.$ref ?? "").split("/").pop()!),
    ),
  );
  for (const [name, def] of Object.entries(defs)) {
    const props = def.properties as Record<string, Json> | undefined;
    const method = props?.method?.const;
    if (!members.has(name) || props === undefined || typeof method !== "string") continue;
    if (out.has(method)) continue; // two members of one method: the model refuses such a schema
    const params = (props.params ?? {}) as Json;
    const target = params.$ref !== undefined ? defs[String(params.$ref).split("/").pop()!] : params;
    const validate = props.params === undefined ? ajv.compile({}) : ajv.compile({ $ref: `https://spec.example/schema.json#/${container}/${name}/properties/params` });
    out.set(method, { validate, required: ((def.required as string[] | undefined) ?? []).includes("params"), properties: Object.keys((target?.properties as Json | undefined) ?? {}) });
  }
  return out;
}

beforeAll(async () => {
  const labels = Object.keys((await readLock(lockFile)).versions).sort();
  oracles = new Map(labels.map((l) => [l, oraclesOf(l)]));
});

// Values a property may take: the right and the wrong JSON type, valid and invalid URIs, nested objects.
const value = fc.oneof(
  fc.constantFrom("file:///a", "https://example.com/x", "x", "", "info", "debug", 0, 1, -1, 2.5, true, false, null, [], {}, ["a"], { name: "n" }),
  fc.jsonValue({ maxDepth: 2 }),
);
function paramsFor(properties: string[]): fc.Arbitrary<Json> {
  const keys = [...properties, "_meta", "extra"];
  return fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: keys.length }).map((o) => JSON.parse(JSON.stringify(o)) as Json);
}

function rubyBatch(cases: object[], withSchemer: boolean): Array<{ params: unknown[] | null }> {
  const loadPath = withSchemer ? [rubyTree, rubySdkLib, jsonSchemerLib] : [rubyTree, rubySdkLib];
  const r = ruby([path.join(rubyTestDir, "normalize_batch.rb")], { input: JSON.stringify(cases), loadPath });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout);
}

describe("params validators", () => {
  it(`agree with Ajv on the spec's schema.json for every method of every version (${RUNS} params each, and none)`, () => {
    // Every method of every generated version (a definition with a `method` const may also be a shape
    // another message only embeds, as 2026-07-28's input requests are: the catalogue says which are methods).
    const versions = [...oracles.keys()];
    const catalogues = rubyBatch(versions.map((version) => ({ version, catalogue: true })), true) as unknown as Array<{ requests: string[]; notifications: string[] }>;
    const cases: Array<{ version: string; params_of: string; params?: Json }> = [];
    for (const [i, version] of versions.entries()) {
      const methods = [...catalogues[i].requests, ...catalogues[i].notifications].sort();
      expect(methods.length).toBeGreaterThan(0);
      for (const method of methods) {
        const oracle = oracles.get(version)!.get(method);
        expect(oracle, `${version} ${method}`).toBeDefined();
        cases.push({ version, params_of: method });
        for (const params of fc.sample(paramsFor(oracle!.properties), { numRuns: RUNS, seed: SEED })) cases.push({ version, params_of: method, params });
      }
    }
    const answers = rubyBatch(cases, true);
    expect(answers.length).toBe(cases.length);
    let valid = 0;
    cases.forEach((c, i) => {
      const oracle = oracles.get(c.version)!.get(c.params_of)!;
      const expected = c.params === undefined ? !oracle.required : oracle.validate(structuredClone(c.params));
      const errors = answers[i].params;
      expect(errors, `${c.version} ${c.params_of} ${JSON.stringify(c.params)}`).not.toBeNull();
      expect(errors!.length === 0, `${c.version} ${c.params_of} ${JSON.stringify(c.params)}: ${JSON.stringify(errors)} / ${JSON.stringify(oracle.validate.errors)}`).toBe(expected);
      if (expected) valid++;
    });
    // Both outcomes were exercised.
    expect(valid).toBeGreaterThan(0);
    expect(valid).toBeLessThan(cases.length);
  });

  it("are nil without json_schemer 2 on the load path", () => {
    const version = [...oracles.keys()][0];
    const [catalogue] = rubyBatch([{ version, catalogue: true }], false) as unknown as Array<{ requests: string[] }>;
    const method = catalogue.requests[0];
    expect(rubyBatch([{ version, params_of: method, params: {} }], false)).toEqual([{ params: null }]);
  });
});
