// Every way a schema may declare a request's response (test/fixtures/response-shapes/generate/<form>/,
// synthetic schemas, one form each; see generator/model/results.ts for the rule): each generates, the
// whole tree compiles under strict, the model maps the request to the results the declaration
// allows, and the generated result validator accepts exactly the results Ajv accepts inside the
// response envelope, read against the response definition itself (the independent oracle). The
// declarations the rule cannot read (…/refused/<case>/) are exit 2 naming the file and the JSON
// pointer, with nothing written.
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ZodType } from "zod";
import { toolRoot } from "../../generator/paths.js";
import { buildModel, discoverVersions } from "../../generator/pipeline.js";
import type { VersionModel } from "../../generator/model/types.js";
import { readTree, runCli } from "../support.js";
import { strictErrors } from "../emit/typescript/corpus.js";

const fixtures = path.join(toolRoot, "test", "fixtures", "response-shapes");
const generateDir = path.join(fixtures, "generate");
const refusedDir = path.join(fixtures, "refused");
const forms = discoverVersions(generateDir);
// Inside the project, so that the generated files' `zod` import resolves.
const tmpRoot = path.join(toolRoot, ".tmp", `response-shapes-${process.pid}`);
afterAll(() => rmSync(tmpRoot, { recursive: true, force: true }));

/** Per form: each request's results as the declaration allows them, and results to try on both validators. */
const expected: Record<string, Record<string, { results: string[]; samples: unknown[] }>> = {
  "ref-to-envelope": {
    "widgets/get": { results: ["GetWidgetResult"], samples: [{ widget: "w" }, { widget: 1 }, {}, { widget: "w", resultType: 2 }] },
  },
  "allof-envelope": {
    "widgets/get": { results: ["GetWidgetResult"], samples: [{ widget: "w", resultType: "complete" }, { resultType: "complete" }, { widget: ["w"] }] },
  },
  "anyof-incomplete": {
    "tasks/result": {
      results: ["IncompleteResult", "GetTaskPayloadResult"],
      samples: [{ inputRequests: {} }, { inputRequests: 1 }, {}, { content: [] }, { resultType: 3 }, "text"],
    },
  },
  "oneof-input-required": {
    "tools/call": {
      results: ["InputRequiredResult", "CallToolResult"],
      samples: [{ inputRequests: {}, resultType: "input_required" }, { inputRequests: {}, resultType: "complete" }, { content: ["x"] }, { content: [1] }, { code: 1, message: "m" }],
    },
  },
  "nested-allof": {
    "tools/call": { results: ["CallToolResult"], samples: [{ content: ["a"] }, { content: "a" }, {}] },
  },
  "result-union": {
    "things/list": { results: ["TextThing", "LinkThing"], samples: [{ text: "t" }, { href: "h" }, { blob: "b" }, { href: 1 }] },
    "things/read": {
      // The inline branch does not constrain `resultType`, the shared envelope's `Result` does: their intersection.
      results: ["TextThing", "BlobThing", "ReadThingResult"],
      samples: [{ text: "t" }, { blob: "b" }, { size: 3 }, { size: 3, resultType: 1 }, { size: "3" }, { href: "h" }],
    },
  },
  "draft07-inline-and-allof": {
    initialize: { results: ["InitializeResult"], samples: [{ protocolVersion: "1" }, {}, { protocolVersion: 1 }] },
    ping: { results: ["EmptyResult"], samples: [{}, { _meta: {} }, { _meta: 1 }] },
    "things/list": { results: ["ListThingsResult"], samples: [{ things: ["a"] }, { things: [1] }, {}] },
  },
};

/** Refused declarations: the pointer each error must name. */
const refused: Record<string, { pointer: string; message: RegExp }> = {
  "only-error": { pointer: "/$defs/CallToolResultResponse", message: /every branch is an error envelope/ },
  "no-result": { pointer: "/$defs/CallToolResultResponse", message: /expected the response to declare its result/ },
  cycle: { pointer: "/$defs/LoopEnvelope/anyOf/0/$ref", message: /refers to itself/ },
};

const out = (form: string) => path.join(tmpRoot, form);
let diagnostics = new Map<string, string[]>();
const models = new Map<string, VersionModel>();
const generated = new Map<string, { status: number | null; stderr: string }>();

beforeAll(async () => {
  for (const form of forms) {
    models.set(form, buildModel({ schemasDir: generateDir, versions: [form] }).versions[0]);
    const r = await runCli(["generate", "--schemas", generateDir, "--versions", form, "--out", out(form), "--target", "typescript"]);
    generated.set(form, r);
  }
  const files = forms.filter((f) => existsSync(out(f))).flatMap((f) => [...readTree(out(f)).keys()].filter((k) => k.endsWith(".ts")).map((k) => path.join(out(f), k)));
  diagnostics = strictErrors(files);
}, 300_000);

/** Ajv's verdict on `result` inside a response envelope, read against the fixture's response definition. */
function oracle(form: string, method: string): (result: unknown) => boolean {
  const doc = JSON.parse(readFileSync(path.join(generateDir, form, "schema.json"), "utf8")) as Record<string, Record<string, unknown>>;
  const container = Object.hasOwn(doc, "$defs") ? "$defs" : "definitions";
  const options = { strict: false, validateFormats: false } as const;
  const ajv = container === "$defs" ? new Ajv2020(options) : new Ajv(options);
  ajv.addSchema(doc, "fixture");
  const request = models.get(form)!.requests.find((r) => r.method === method)!.definition;
  const base = request.replace(/Request$/, "");
  // The response definition where the fixture has one, else the generic envelope with the result the name rules name.
  const response = [`${base}ResultResponse`, `${base}Response`].find((n) => Object.hasOwn(doc[container], n));
  const validate = response
    ? ajv.getSchema(`fixture#/${container}/${response}`)!
    : ajv.compile({ allOf: [{ $ref: `fixture#/${container}/JSONRPCResultResponse` }, { properties: { result: { $ref: `fixture#/${container}/${expected[form][method].results[0]}` } } }] });
  return (result) => validate({ jsonrpc: "2.0", id: 1, result }) as boolean;
}

it("has a fixture for every form and an expectation for every fixture", () => {
  expect(forms).toEqual(Object.keys(expected).sort());
  expect(discoverVersions(refusedDir)).toEqual(Object.keys(refused).sort());
});

describe.each(forms)("the response form %s", (form) => {
  it("generates", () => {
    const r = generated.get(form)!;
    expect(r.status, r.stderr).toBe(0);
  });

  it("gives a tree that compiles under strict", () => {
    const errors = [...diagnostics].filter(([file]) => file.startsWith(out(form) + path.sep)).flatMap(([file, d]) => d.map((m) => `${path.relative(out(form), file)}: ${m}`));
    expect(errors.slice(0, 10)).toEqual([]);
  });

  it("maps each request to the results its response declaration allows", () => {
    const model = models.get(form)!;
    expect(Object.fromEntries(model.requests.map((r) => [r.method, r.results]))).toEqual(Object.fromEntries(Object.entries(expected[form]).map(([m, e]) => [m, e.results])));
  });

  it("validates results as Ajv does inside the declared response", async () => {
    const { resultSchemas } = (await import(path.join(out(form), form, "schemas.ts"))) as { resultSchemas: Record<string, ZodType> };
    for (const [method, { samples }] of Object.entries(expected[form])) {
      const ajv = oracle(form, method);
      const verdicts = samples.map((s) => ({ sample: s, ajv: ajv(s), zod: resultSchemas[method].safeParse(s).success }));
      // The samples are chosen to hit both sides of the oracle.
      expect(verdicts.some((v) => v.ajv) && verdicts.some((v) => !v.ajv), `${method}: samples on both sides`).toBe(true);
      expect(verdicts.filter((v) => v.ajv !== v.zod), method).toEqual([]);
    }
  });
});

describe.each(Object.keys(refused))("the unreadable declaration %s", (name) => {
  it("is exit 2 naming the file and the JSON pointer, with nothing written", async () => {
    const target = path.join(tmpRoot, `refused-${name}`);
    const r = await runCli(["generate", "--schemas", refusedDir, "--versions", name, "--out", target]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${path.join(refusedDir, name, "schema.json")}#${refused[name].pointer}:`);
    expect(r.stderr).toMatch(refused[name].message);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(existsSync(target)).toBe(false);
  });
});
