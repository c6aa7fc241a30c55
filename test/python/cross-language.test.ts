// Cross-language agreement: the same JSON inputs through each version's TypeScript normalizers
// (generated/<v>/normalizers.ts, `resultNormalizers[method]`) and the Python ones (generated/python,
// one Python process per batch) give the same JSON results, or the same -32603 error, for every
// request of every version; the Python method gate answers as the TypeScript dispatcher does.
import path from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { readLock } from "../../generator/spec/lock.js";
import { generatedDir, lockFile } from "../support.js";
import { pythonJson } from "./support.js";

const RUNS_PER_REQUEST = 150;
const SEED = 20_261_201;

type Normalizer = (value: unknown) => unknown;
interface TsVersion {
  resultNormalizers: Record<string, Normalizer>;
  createServerDispatcher: (handlers: object, options?: object) => { handle(message: unknown): Promise<unknown> };
}

let labels: string[] = [];
const modules = new Map<string, TsVersion>();

beforeAll(async () => {
  labels = Object.keys((await readLock(lockFile)).versions).sort();
  for (const label of labels) {
    const normalizers = await import(pathToFileURL(path.join(generatedDir, label, "normalizers.ts")).href);
    const index = await import(pathToFileURL(path.join(generatedDir, label, "index.ts")).href);
    modules.set(label, { resultNormalizers: normalizers.resultNormalizers, createServerDispatcher: index.createServerDispatcher });
  }
});

type Case = { version: string; method: string; input: unknown } | { version: string; gate: string } | { version: string; catalogue: true };

const pythonBatch = (cases: Case[]) => pythonJson<unknown[]>("batch.py", cases);

/** The TypeScript side's answer in the driver's terms. */
function tsAnswer(normalize: Normalizer, input: unknown): unknown {
  try {
    return { ok: JSON.parse(JSON.stringify(normalize(input))) };
  } catch (e) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code !== "number") throw e;
    return { error: { code, message } };
  }
}

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

describe("TypeScript and Python normalizers", () => {
  it("name the same requests in every version", () => {
    const answers = pythonBatch(labels.map((version) => ({ version, catalogue: true as const })));
    labels.forEach((label, i) => {
      const python = answers[i] as { requests: string[] };
      expect(python.requests.sort(), label).toEqual(Object.keys(modules.get(label)!.resultNormalizers).sort());
    });
  });

  it(`give the same JSON results for every request of every version (${RUNS_PER_REQUEST} inputs each, null members included)`, () => {
    const inputs = fc.sample(handlerReturn, { numRuns: RUNS_PER_REQUEST, seed: SEED });
    const cases: Array<{ version: string; method: string; input: unknown }> = [];
    for (const label of labels) {
      for (const method of Object.keys(modules.get(label)!.resultNormalizers).sort()) {
        for (const input of inputs) cases.push({ version: label, method, input });
      }
    }
    const answers = pythonBatch(cases);
    expect(answers.length).toBe(cases.length);
    let errors = 0;
    let nulls = 0;
    cases.forEach((c, i) => {
      const expected = tsAnswer(modules.get(c.version)!.resultNormalizers[c.method], structuredClone(c.input));
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

  it("gate methods as the TypeScript dispatcher does: -32601 with its message for a method the version has no request for", async () => {
    const known = new Set<string>();
    for (const label of labels) for (const m of Object.keys(modules.get(label)!.resultNormalizers)) known.add(m);
    const names = [...known, "notifications/initialized", "notifications/cancelled", "no/such", "", ...fc.sample(fc.string(), { numRuns: 40, seed: SEED })];
    const cases = labels.flatMap((version) => names.map((gate) => ({ version, gate })));
    const answers = pythonBatch(cases) as Array<{ gate: unknown }>;
    let gated = 0;
    for (const [i, c] of cases.entries()) {
      const dispatcher = modules.get(c.version)!.createServerDispatcher({});
      const response = (await dispatcher.handle({ jsonrpc: "2.0", id: 1, method: c.gate })) as { error?: { code: number; message: string } };
      const notInVersion = response.error?.message.endsWith(`is not a request of protocol version ${c.version}`) === true;
      if (notInVersion) gated++;
      expect(answers[i].gate, `${c.version} ${JSON.stringify(c.gate)}`).toEqual(notInVersion ? response.error : null);
    }
    expect(gated).toBeGreaterThan(0);
    expect(gated).toBeLessThan(cases.length);
  });
});
