// Cross-language agreement: the same JSON inputs through each version's TypeScript normalizers
// (generated/<v>/normalizers.ts, `resultNormalizers[method]`) and the Ruby ones (generated/ruby, a
// Ruby subprocess driven in batches) give the reference normalizer's JSON result, or its -32603 error
// (`referenceAnswer` of ../typescript/cross-language.ts: the rules applied to the method table's row), for every
// request of every version and of every extension module (generated/<core>+<name>/, the Ruby EXTENSIONS).
// The gate verdicts, of the core versions and of the extension modules (a Gate serving the extension), and the
// normalizers' rules are data in test/scenarios/ (docs/scenarios.md), run by the Ruby driver.
import path from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { normalizedRequests, referenceAnswer, tsAnswer, tsExtensionModules, tsVersions, type TsExtensionModule, type TsVersion } from "../typescript/cross-language.js";
import { ruby, rubyTestDir } from "./support.js";

const RUNS_PER_REQUEST = 150;
const SEED = 20_261_130;

let labels: string[] = [];
let modules = new Map<string, TsVersion>();
let extensionModules = new Map<string, TsExtensionModule>();

beforeAll(async () => {
  ({ labels, modules } = await tsVersions());
  extensionModules = await tsExtensionModules();
});

type Case = { version: string; method: string; input: unknown } | { version: string; catalogue: true };

/** Run cases through the Ruby driver in one process. */
function rubyBatch(cases: Case[]): unknown[] {
  const r = ruby([path.join(rubyTestDir, "normalize_batch.rb")], { input: JSON.stringify(cases) });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as unknown[];
}

// Handler returns as JSON: objects whose `_meta` and `resultType` vary over valid, invalid and
// absent, with nested JSON values elsewhere; and non-objects. No top-level null member: Ruby's nil is
// JavaScript's undefined (dropped), so a null member is the one known difference (pinned below).
const nonNull = fc.jsonValue().filter((v) => v !== null);
const member = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 3 });
const handlerObject = fc
  .record(
    {
      _meta: member(fc.oneof(fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }), nonNull)),
      resultType: member(fc.oneof(fc.constantFrom("complete", "input_required", "task"), fc.string(), fc.integer(), fc.boolean())),
      content: member(nonNull),
      nextCursor: member(fc.string()),
    },
    { requiredKeys: [] },
  )
  .chain((base) => fc.dictionary(fc.string().filter((k) => !(k in base) && k !== "__proto__"), nonNull, { maxKeys: 3 }).map((extra) => ({ ...extra, ...base })))
  .map((o) => JSON.parse(JSON.stringify(o)) as Record<string, unknown>);
/** An object's top-level null members removed (see above); anything else as it is. */
const withoutNullMembers = (v: unknown): unknown =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null)) : v;
const handlerReturn = fc.oneof({ arbitrary: handlerObject, weight: 4 }, { arbitrary: fc.jsonValue().map(withoutNullMembers), weight: 1 });

describe("TypeScript and Ruby normalizers, held to the reference", () => {
  it("name the same requests in every version", () => {
    const answers = rubyBatch(labels.map((version) => ({ version, catalogue: true as const })));
    labels.forEach((label, i) => {
      const ruby = answers[i] as { requests: string[] };
      expect(ruby.requests.sort(), label).toEqual(normalizedRequests(modules.get(label)!));
      expect(Object.keys(modules.get(label)!.resultNormalizers).sort(), `TypeScript: ${label}`).toEqual(normalizedRequests(modules.get(label)!));
    });
  });

  it(`give the same JSON results for every request of every version (${RUNS_PER_REQUEST} inputs each)`, () => {
    const inputs = fc.sample(handlerReturn, { numRuns: RUNS_PER_REQUEST, seed: SEED });
    const cases: Array<{ version: string; method: string; input: unknown }> = [];
    for (const label of labels) {
      for (const method of normalizedRequests(modules.get(label)!)) {
        for (const input of inputs) cases.push({ version: label, method, input });
      }
    }
    const answers = rubyBatch(cases);
    expect(answers.length).toBe(cases.length);
    let errors = 0;
    cases.forEach((c, i) => {
      const expected = referenceAnswer(modules.get(c.version)!.table[c.method], c.method, c.input);
      expect(tsAnswer(modules.get(c.version)!.resultNormalizers[c.method], structuredClone(c.input)), `TypeScript: ${c.version} ${c.method} ${JSON.stringify(c.input)}`).toEqual(expected);
      if ((expected as { error?: unknown }).error !== undefined) errors++;
      expect(answers[i], `${c.version} ${c.method} ${JSON.stringify(c.input)}`).toEqual(expected);
    });
    // Both outcomes were exercised: results and -32603 errors.
    expect(errors).toBeGreaterThan(0);
    expect(errors).toBeLessThan(cases.length);
  });

  it("differ on a top-level null member: TypeScript keeps it, Ruby drops it (nil is Ruby's undefined)", () => {
    const label = labels.find((l) => Object.values(modules.get(l)!.resultNormalizers).length > 0)!;
    const method = Object.keys(modules.get(label)!.resultNormalizers).find((m) => "nextCursor" in (tsAnswer(modules.get(label)!.resultNormalizers[m], { nextCursor: null }) as { ok?: object }).ok!);
    expect(method).toBeDefined();
    const ts = tsAnswer(modules.get(label)!.resultNormalizers[method!], { nextCursor: null, x: 1 }) as { ok: Record<string, unknown> };
    const [rb] = rubyBatch([{ version: label, method: method!, input: { nextCursor: null, x: 1 } }]) as Array<{ ok: Record<string, unknown> }>;
    expect(ts.ok.nextCursor).toBeNull();
    expect("nextCursor" in rb.ok).toBe(false);
    expect(rb.ok.x).toBe(1);
  });
  // The gate of each core version: test/scenarios/gate/ states its verdicts as data, the Ruby driver runs them
  // under each policy (test/emit/gate-verdicts.test.ts holds Gate to Runtime.refusal and the other targets).
});

describe("TypeScript and Ruby extension modules", () => {
  it("exist for the same extension modules, and name the same requests", () => {
    expect(extensionModules.size).toBeGreaterThan(0);
    const ext = [...extensionModules.keys()];
    const answers = rubyBatch(ext.map((version) => ({ version, catalogue: true as const })));
    ext.forEach((label, i) => {
      const ruby = answers[i] as { requests: string[] };
      expect(ruby.requests.sort(), label).toEqual(normalizedRequests(extensionModules.get(label)!));
    });
  });

  it(`give the same JSON results for every request of every extension module (${RUNS_PER_REQUEST} inputs each)`, () => {
    const inputs = fc.sample(handlerReturn, { numRuns: RUNS_PER_REQUEST, seed: SEED });
    const cases: Array<{ version: string; method: string; input: unknown }> = [];
    for (const [label, m] of extensionModules) {
      for (const method of normalizedRequests(m)) for (const input of inputs) cases.push({ version: label, method, input });
    }
    const answers = rubyBatch(cases);
    expect(answers.length).toBe(cases.length);
    let tasks = 0;
    cases.forEach((c, i) => {
      const expected = referenceAnswer(extensionModules.get(c.version)!.table[c.method], c.method, c.input);
      expect(tsAnswer(extensionModules.get(c.version)!.resultNormalizers[c.method], structuredClone(c.input)), `TypeScript: ${c.version} ${c.method} ${JSON.stringify(c.input)}`).toEqual(expected);
      if ((expected as { ok?: { resultType?: unknown } }).ok?.resultType === "task") tasks++;
      expect(answers[i], `${c.version} ${c.method} ${JSON.stringify(c.input)}`).toEqual(expected);
    });
    // A result with resultType "task" was accepted by both (where the extension allows it).
    expect(tasks).toBeGreaterThan(0);
  });

  // The gate of each extension module, served or not: test/scenarios/gate/ states its verdicts as data.
});
