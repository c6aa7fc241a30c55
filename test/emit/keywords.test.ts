// Every JSON Schema keyword in every target (issue 35): the synthetic specs of
// test/fixtures/keywords/ (one per dialect: draft-07 `definitions`, 2020-12 `$defs`; cases.ts says
// what each case proves) generate in every target, and each target's validator agrees with Ajv (the
// oracle, run on the fixture itself) on every instance: zod's `<Case>ParamsSchema` (and the guard,
// which may only say true where Ajv does), the Python model through `runtime.validate` (the venv's
// python), Ruby's `params_errors` (json_schemer 2.4.0, with the translated patterns). A pattern
// construct whose meaning differs between the dialects is exit 2 naming it, the file and the pointer.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ZodType } from "zod";
import { toolRoot } from "../../generator/paths.js";
import { readTree, runCli } from "../support.js";
import { strictErrors } from "./typescript/corpus.js";
import { cases, DIALECTS, fixtureText, generateDir, label, type Dialect } from "../fixtures/keywords/cases.js";
import { run } from "./python/support.js";
import { jsonSchemerLib, ruby } from "./ruby/support.js";

const tmpRoot = path.join(toolRoot, ".tmp", `keywords-${process.pid}`);
afterAll(() => rmSync(tmpRoot, { recursive: true, force: true }));
const out = (d: Dialect) => path.join(tmpRoot, label(d));

interface Instance {
  name: string;
  value: unknown;
  meant: boolean;
}
const instances = (d: Dialect): Instance[] =>
  cases.filter((c) => c.schema[d] !== null).flatMap((c) => [...c.valid.map((value) => ({ name: c.name, value, meant: true })), ...c.invalid.map((value) => ({ name: c.name, value, meant: false }))]);

const generated = new Map<Dialect, { status: number | null; stderr: string }>();
beforeAll(async () => {
  for (const d of DIALECTS) generated.set(d, await runCli(["generate", "--schemas", generateDir, "--versions", label(d), "--out", out(d)]));
}, 300_000);

/** Ajv's verdict on `{ v: value }` against `<Case>Params` of the fixture. */
function oracle(d: Dialect): (name: string, value: unknown) => boolean {
  const doc = JSON.parse(readFileSync(path.join(generateDir, label(d), "schema.json"), "utf8")) as object;
  const options = { strict: false, validateFormats: false } as const;
  const ajv = d === "2020-12" ? new Ajv2020(options) : new Ajv(options);
  ajv.addSchema(doc, "fixture");
  const container = d === "2020-12" ? "$defs" : "definitions";
  return (name, value) => ajv.validate(`fixture#/${container}/${name}Params`, { v: value }) as boolean;
}

it("the fixtures are what cases.ts writes (npx tsx test/fixtures/keywords/cases.ts)", () => {
  for (const d of DIALECTS) expect(readFileSync(path.join(generateDir, label(d), "schema.json"), "utf8")).toBe(fixtureText(d));
});

describe.each(DIALECTS)("the %s keyword fixture", (d) => {
  const judge = oracle(d);
  const all = instances(d);
  const verdicts = all.map((i) => ({ ...i, ajv: judge(i.name, i.value) }));
  const disagree = (target: boolean[]) => verdicts.filter((v, k) => v.ajv !== target[k]).map((v) => ({ case: v.name, value: v.value, ajv: v.ajv }));

  it("has instances on the side each case means them for, by Ajv", () => {
    expect(verdicts.filter((v) => v.ajv !== v.meant).map((v) => ({ case: v.name, value: v.value }))).toEqual([]);
  });

  it("generates in every target", () => {
    const r = generated.get(d)!;
    expect(r.status, r.stderr).toBe(0);
    for (const target of ["typescript", "python", "ruby"]) expect(existsSync(path.join(out(d), target === "typescript" ? label(d) : target)), target).toBe(true);
  });

  it("gives a TypeScript tree that compiles under strict", () => {
    const files = [...readTree(path.join(out(d), label(d))).keys()].filter((k) => k.endsWith(".ts")).map((k) => path.join(out(d), label(d), k));
    const errors = [...strictErrors(files)].flatMap(([file, ds]) => ds.map((m) => `${path.relative(out(d), file)}: ${m}`));
    expect(errors.slice(0, 10)).toEqual([]);
  }, 300_000);

  it("zod agrees with Ajv on every instance, and the guards never accept what Ajv refuses", async () => {
    const schemas = (await import(path.join(out(d), label(d), "schemas.ts"))) as Record<string, ZodType>;
    const guards = (await import(path.join(out(d), label(d), "guards.ts"))) as Record<string, (v: unknown) => boolean>;
    expect(disagree(all.map((i) => schemas[`${i.name}ParamsSchema`].safeParse({ v: i.value }).success))).toEqual([]);
    const guardYes = all.map((i) => guards[`is${i.name}Params`]({ v: i.value }));
    expect(verdicts.filter((v, k) => guardYes[k] && !v.ajv).map((v) => ({ case: v.name, value: v.value }))).toEqual([]);
  });

  it("the Python models agree with Ajv on every instance", () => {
    const module = label(d).replace("-", "_");
    const script = [
      "import importlib, json, sys",
      "from pydantic import ValidationError",
      "from mcp_codegen import runtime",
      `m = importlib.import_module("mcp_codegen.${module}")`,
      "out = []",
      "for name, value in json.load(sys.stdin):",
      "    try:",
      "        runtime.validate(m.DEFINITIONS[name + 'Params'], {'v': value})",
      "        out.append(True)",
      "    except ValidationError:",
      "        out.append(False)",
      "print(json.dumps(out))",
    ].join("\n");
    const r = run("python", ["-c", script], { input: JSON.stringify(all.map((i) => [i.name, i.value])), pythonPath: [path.join(out(d), "python")] });
    expect(r.stderr).toBe("");
    expect(disagree(JSON.parse(r.stdout) as boolean[])).toEqual([]);
  });

  it("Ruby's params validator agrees with Ajv on every instance", () => {
    const constant = `Keywords_${d.replace("-", "")}`;
    const script = [
      'require "json"',
      'require "mcp_codegen"',
      `version = McpCodegen.const_get(${JSON.stringify(constant)})`,
      "items = JSON.parse($stdin.read)",
      'puts JSON.generate(items.map { |name, value| version.params_errors("keywords/#{name}", { "v" => value }).empty? })',
    ].join("\n");
    const r = ruby(["-e", script], { input: JSON.stringify(all.map((i) => [i.name, i.value])), loadPath: [path.join(out(d), "ruby"), jsonSchemerLib] });
    expect(r.stderr).toBe("");
    expect(disagree(JSON.parse(r.stdout) as boolean[])).toEqual([]);
  });
});

it("README's keyword coverage table names every case, and only cases", () => {
  const readme = readFileSync(path.join(toolRoot, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("### Keyword coverage"), readme.indexOf("## Version router and conformance"));
  const rows = section.split("\n").filter((l) => l.startsWith("| `"));
  const named = rows.flatMap((r) => [...r.split("|").at(-2)!.matchAll(/`([A-Za-z]+)`/g)].map((m) => m[1]));
  expect(rows.length).toBeGreaterThan(10);
  expect([...new Set(named)].sort()).toEqual(cases.map((c) => c.name).sort());
});

describe("a pattern construct whose meaning differs", () => {
  it("is exit 2 naming the construct, the file and the JSON pointer, with nothing written", async () => {
    const schemas = path.join(tmpRoot, "refused");
    const doc = JSON.parse(fixtureText("2020-12")) as { $defs: Record<string, { properties: { v: unknown } }> };
    doc.$defs.PatternUrlParams.properties.v = { type: "string", pattern: "^\\p{Lu}" };
    mkdirSync(path.join(schemas, "refused"), { recursive: true });
    writeFileSync(path.join(schemas, "refused", "schema.json"), JSON.stringify(doc));
    const target = path.join(tmpRoot, "refused-out");
    const r = await runCli(["generate", "--schemas", schemas, "--versions", "refused", "--out", target]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${path.join(schemas, "refused", "schema.json")}#/$defs/PatternUrlParams/properties/v/pattern:`);
    expect(r.stderr).toContain('the Unicode property escape "\\p{Lu}"');
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(existsSync(target)).toBe(false);
  });
});
