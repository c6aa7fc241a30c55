// Cross-language agreement: the same JSON inputs through each version's TypeScript normalizers
// (generated/<v>/normalizers.ts, `resultNormalizers[method]`) and the Python ones (generated/python,
// one Python process per batch) give the reference normalizer's JSON result, or its -32603 error
// (`referenceAnswer`: the normalize rules applied to the method table's row; no runtime is the oracle), for
// every request of every version and of every extension module (generated/<core>+<name>/, the Python
// EXTENSION_MODULES). The gate verdicts, of the core versions and of the extension modules, and the
// normalizers' rules are data in test/scenarios/ (docs/scenarios.md), run by the Python driver.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { normalizedRequests, referenceAnswer, tsAnswer, tsExtensionModules, tsVersions, type TsExtensionModule, type TsVersion } from "../typescript/cross-language.js";
import { pythonJson } from "./support.js";

const RUNS_PER_REQUEST = 150;
const SEED = 20_261_201;

let labels: string[] = [];
let modules = new Map<string, TsVersion>();
let extensionModules = new Map<string, TsExtensionModule>();

beforeAll(async () => {
  ({ labels, modules } = await tsVersions());
  extensionModules = await tsExtensionModules();
});

/** `extension`: the case is the extension module's (`version` its core version, `extension` its identifier). */
type Case = ({ version: string; method: string; input: unknown } | { version: string; catalogue: true }) & { extension?: string };

const pythonBatch = (cases: Case[]) => pythonJson<unknown[]>("batch.py", cases);

// Handler returns as JSON: objects whose `_meta` and `resultType` vary over valid, invalid, null and
// absent, with nested JSON values (null included) elsewhere; and non-objects.
const member = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 3 });
const handlerObject = fc
  .record(
    {
      _meta: member(fc.oneof(fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }), fc.jsonValue())),
      resultType: member(fc.oneof(fc.constantFrom("complete", "input_required"), fc.string(), fc.integer(), fc.boolean(), fc.constant(null))),
      content: member(fc.jsonValue()),
      nextCursor: member(fc.oneof(fc.string(), fc.constant(null))),
    },
    { requiredKeys: [] },
  )
  .chain((base) => fc.dictionary(fc.string().filter((k) => !(k in base) && k !== "__proto__"), fc.jsonValue(), { maxKeys: 3 }).map((extra) => ({ ...extra, ...base })))
  .map((o) => JSON.parse(JSON.stringify(o)) as Record<string, unknown>);
const handlerReturn = fc.oneof({ arbitrary: handlerObject, weight: 4 }, { arbitrary: fc.jsonValue(), weight: 1 });

describe("TypeScript and Python normalizers, held to the reference", () => {
  it("name the same requests in every version", () => {
    const answers = pythonBatch(labels.map((version) => ({ version, catalogue: true as const })));
    labels.forEach((label, i) => {
      const python = answers[i] as { requests: string[] };
      expect(python.requests.sort(), label).toEqual(normalizedRequests(modules.get(label)!));
      expect(Object.keys(modules.get(label)!.resultNormalizers).sort(), `TypeScript: ${label}`).toEqual(normalizedRequests(modules.get(label)!));
    });
  });

  it(`give the same JSON results for every request of every version (${RUNS_PER_REQUEST} inputs each, null members included)`, () => {
    const inputs = fc.sample(handlerReturn, { numRuns: RUNS_PER_REQUEST, seed: SEED });
    const cases: Array<{ version: string; method: string; input: unknown }> = [];
    for (const label of labels) {
      for (const method of normalizedRequests(modules.get(label)!)) {
        for (const input of inputs) cases.push({ version: label, method, input });
      }
    }
    const answers = pythonBatch(cases);
    expect(answers.length).toBe(cases.length);
    let errors = 0;
    let nulls = 0;
    cases.forEach((c, i) => {
      const expected = referenceAnswer(modules.get(c.version)!.table[c.method], c.method, c.input);
      expect(tsAnswer(modules.get(c.version)!.resultNormalizers[c.method], structuredClone(c.input)), `TypeScript: ${c.version} ${c.method} ${JSON.stringify(c.input)}`).toEqual(expected);
      if ((expected as { error?: unknown }).error !== undefined) errors++;
      const ok = (expected as { ok?: unknown }).ok;
      if (typeof ok === "object" && ok !== null && Object.values(ok).includes(null)) nulls++;
      expect(answers[i], `${c.version} ${c.method} ${JSON.stringify(c.input)}`).toEqual(expected);
    });
    // Both outcomes were exercised: results (some keeping a null member) and -32603 errors.
    expect(errors).toBeGreaterThan(0);
    expect(errors).toBeLessThan(cases.length);
    expect(nulls).toBeGreaterThan(0);
  });
});

describe("TypeScript and Python extension modules, the normalizers held to the reference", () => {
  /** The Python driver's name of an extension module: its core version and the extension's identifier. */
  const moduleOf = (label: string) => ({ version: extensionModules.get(label)!.core, extension: extensionModules.get(label)!.identifier });

  it("exist for the same extension modules, and name the same requests", () => {
    expect(extensionModules.size).toBeGreaterThan(0);
    const ext = [...extensionModules.keys()];
    const answers = pythonBatch(ext.map((label) => ({ ...moduleOf(label), catalogue: true as const })));
    ext.forEach((label, i) => {
      const python = answers[i] as { requests: string[] };
      expect(python.requests.sort(), label).toEqual(normalizedRequests(extensionModules.get(label)!));
    });
  });

  it(`give the same JSON results for every request of every extension module (${RUNS_PER_REQUEST} inputs each)`, () => {
    // The inputs as above, and results of each extension request's own shape (a task's resultType "task").
    const inputs = [...fc.sample(handlerReturn, { numRuns: RUNS_PER_REQUEST, seed: SEED }), { resultType: "task", taskId: "t", status: "working" }];
    const cases: Array<{ label: string; method: string; input: unknown }> = [];
    for (const [label, m] of extensionModules) {
      for (const method of normalizedRequests(m)) for (const input of inputs) cases.push({ label, method, input });
    }
    const answers = pythonBatch(cases.map(({ label, method, input }) => ({ ...moduleOf(label), method, input })));
    expect(answers.length).toBe(cases.length);
    let tasks = 0;
    cases.forEach((c, i) => {
      const expected = referenceAnswer(extensionModules.get(c.label)!.table[c.method], c.method, c.input);
      expect(tsAnswer(extensionModules.get(c.label)!.resultNormalizers[c.method], structuredClone(c.input)), `TypeScript: ${c.label} ${c.method} ${JSON.stringify(c.input)}`).toEqual(expected);
      if ((expected as { ok?: { resultType?: unknown } }).ok?.resultType === "task") tasks++;
      expect(answers[i], `${c.label} ${c.method} ${JSON.stringify(c.input)}`).toEqual(expected);
    });
    // A result with resultType "task" was accepted by both (where the extension allows it: tools/call).
    expect(tasks).toBeGreaterThan(0);
  });

  // The gate of each extension module: test/scenarios/gate/ states its verdicts as data (modules: extension).
});
