// Every JSON Schema keyword in every target (issue 35): the synthetic specs of
// test/fixtures/keywords/ (one per dialect: draft-07 `definitions`, 2020-12 `$defs`; cases.ts says
// what each case proves) generate in every target, and each target's validator agrees with Ajv (the
// oracle, run on the fixture itself; json_schemer where a case says how Ajv departs from the dialect) on every instance: zod's `<Case>ParamsSchema` (and the guard,
// which may only say true where Ajv does), the Python model through `runtime.validate` (the venv's
// python), Ruby's `params_errors` (json_schemer 2.4.0, with the translated patterns), Go's decoding into the
// generated `<Case>Params` type (its UnmarshalJSON checks what the types cannot say). A pattern
// construct whose meaning differs between the dialects is exit 2 naming it, the file and the pointer.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ZodType } from "zod";
import { toolRoot } from "../../generator/paths.js";
import { lockFile, readTree, runCli, schemasDir } from "../support.js";
import { strictErrors } from "./typescript/corpus.js";
import { cases, DIALECTS, fixtureText, generateDir, label, type Dialect } from "../fixtures/keywords/cases.js";
import { run } from "./python/support.js";
import { jsonSchemerLib, ruby } from "./ruby/support.js";
import { docSection } from "../docs/blocks.js";
import { exported, versionPackage } from "../../generator/emit/go/language.js";
import { goEnv } from "./go/support.js";

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

/**
 * Whether each `{ v: value }` decodes into the Go type of `<name>Params` of the package `pkg` of the Go tree in
 * `tree` (a harness module written into `dir`, run once).
 */
function goDecodes(tree: string, pkg: string, dir: string, items: ReadonlyArray<{ name: string; value: unknown }>): boolean[] {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "go.mod"), `module probe\n\ngo 1.22\n\nrequire mcpcodegen v0.0.0\n\nreplace mcpcodegen => ${tree}\n`);
  const names = [...new Set(items.map((i) => i.name))];
  const main = [
    "package main",
    "",
    `import (\n\t"encoding/json"\n\t"os"\n\n\tk "mcpcodegen/${pkg}"\n)`,
    "",
    "// decodes is whether data decodes into a T.",
    "func decodes[T any](data []byte) bool {\n\tvar v T\n\treturn json.Unmarshal(data, &v) == nil\n}",
    "",
    "var types = map[string]func([]byte) bool{",
    ...names.map((n) => `\t${JSON.stringify(n)}: decodes[k.${exported(`${n}Params`)}],`),
    "}",
    "",
    "func main() {",
    "\tvar items []struct {\n\t\tName  string\n\t\tValue json.RawMessage\n\t}",
    "\tif err := json.NewDecoder(os.Stdin).Decode(&items); err != nil {\n\t\tpanic(err)\n\t}",
    "\tout := []bool{}",
    "\tfor _, it := range items {",
    '\t\tdata, err := json.Marshal(map[string]json.RawMessage{"v": it.Value})',
    "\t\tif err != nil {\n\t\t\tpanic(err)\n\t\t}",
    "\t\tout = append(out, types[it.Name](data))",
    "\t}",
    "\t_ = json.NewEncoder(os.Stdout).Encode(out)",
    "}",
  ].join("\n");
  writeFileSync(path.join(dir, "main.go"), main + "\n");
  const r = spawnSync("go", ["run", "."], { cwd: dir, env: goEnv, encoding: "utf8", input: JSON.stringify(items.map((i) => ({ Name: i.name, Value: i.value }))) });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as boolean[];
}

/**
 * The oracle's verdict on `{ v: value }` against `<Case>Params` of the fixture: Ajv's, or, for a case that says
 * where Ajv departs from the dialect's text (`notAjv`), json_schemer's (run on the fixture in one process).
 */
function oracle(d: Dialect): { judge: (name: string, value: unknown) => boolean; ajv: (name: string, value: unknown) => boolean } {
  const file = path.join(generateDir, label(d), "schema.json");
  const doc = JSON.parse(readFileSync(file, "utf8")) as object;
  const options = { strict: false, validateFormats: false } as const;
  const ajv = d === "2020-12" ? new Ajv2020(options) : new Ajv(options);
  ajv.addSchema(doc, "fixture");
  const container = d === "2020-12" ? "$defs" : "definitions";
  const byJsonSchemer = instances(d).filter((i) => cases.find((c) => c.name === i.name)!.notAjv !== undefined);
  const script = [
    'require "json"',
    'require "json_schemer"',
    "doc = JSON.parse(File.read(ARGV[0]))",
    'schema = JSONSchemer.schema(doc, regexp_resolver: "ecma", format: false)',
    `puts JSON.generate(JSON.parse($stdin.read).map { |name, value| schema.ref("#/${container}/#{name}Params").valid?({ "v" => value }) })`,
  ].join("\n");
  const r = byJsonSchemer.length === 0 ? null : ruby(["-e", script, file], { input: JSON.stringify(byJsonSchemer.map((i) => [i.name, i.value])), loadPath: [jsonSchemerLib] });
  if (r !== null && r.stderr !== "") throw new Error(r.stderr);
  const other = r === null ? [] : (JSON.parse(r.stdout) as boolean[]);
  const byAjv = (name: string, value: unknown) => ajv.validate(`fixture#/${container}/${name}Params`, { v: value }) as boolean;
  return {
    judge: (name, value) => {
      const k = byJsonSchemer.findIndex((i) => i.name === name && i.value === value);
      return k >= 0 ? other[k] : byAjv(name, value);
    },
    ajv: byAjv,
  };
}

it("the fixtures are what cases.ts writes (npx tsx test/fixtures/keywords/cases.ts)", () => {
  for (const d of DIALECTS) expect(readFileSync(path.join(generateDir, label(d), "schema.json"), "utf8")).toBe(fixtureText(d));
});

describe.each(DIALECTS)("the %s keyword fixture", (d) => {
  const { judge, ajv } = oracle(d);
  const all = instances(d);
  const verdicts = all.map((i) => ({ ...i, ajv: judge(i.name, i.value) }));

  it("is judged by json_schemer only in the cases where Ajv departs from the dialect's text (Ajv disagrees on one of their instances)", () => {
    const departs = cases.filter((c) => c.notAjv !== undefined && c.schema[d] !== null);
    for (const c of departs) expect(all.filter((i) => i.name === c.name).some((i) => ajv(i.name, i.value) !== i.meant), `${c.name}: ${c.notAjv}`).toBe(true);
  });
  const disagree = (target: boolean[]) => verdicts.filter((v, k) => v.ajv !== target[k]).map((v) => ({ case: v.name, value: v.value, ajv: v.ajv }));

  it("has instances on the side each case means them for, by Ajv", () => {
    expect(verdicts.filter((v) => v.ajv !== v.meant).map((v) => ({ case: v.name, value: v.value }))).toEqual([]);
  });

  it("generates in every target", () => {
    const r = generated.get(d)!;
    expect(r.status, r.stderr).toBe(0);
    for (const target of ["typescript", "python", "ruby", "go"]) expect(existsSync(path.join(out(d), target === "typescript" ? label(d) : target)), target).toBe(true);
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

  it("the Go types decode every instance the judge accepts and refuse every one it refuses", () => {
    const decoded = goDecodes(path.join(out(d), "go"), versionPackage(label(d)), path.join(tmpRoot, `go-${label(d)}`), all);
    expect(disagree(decoded)).toEqual([]);
  }, 300_000);
});

it("docs/generation-and-review.md's keyword coverage table names every case, and only cases", () => {
  const section = docSection("docs/generation-and-review.md", "Keyword coverage");
  const rows = section.split("\n").filter((l) => l.startsWith("| `"));
  const named = rows.flatMap((r) => [...r.split("|").at(-2)!.matchAll(/`([A-Za-z]+)`/g)].map((m) => m[1]));
  expect(rows.length).toBeGreaterThan(10);
  expect([...new Set(named)].sort()).toEqual(cases.map((c) => c.name).sort());
});

// Go's RE2 has no lookaround: a pattern with `\b` or a lookahead prints in no Go syntax with the same meaning, so the
// Go target refuses it (exit 2 naming the construct, the file and the pointer, nothing written), where the other
// targets, which can say it, generate.
it("the Go target refuses a pattern with a lookaround, naming it, the file and the pointer; the TypeScript target checks it", async () => {
  const schemas = path.join(tmpRoot, "lookaround");
  const doc = JSON.parse(fixtureText("2020-12")) as { $defs: Record<string, { properties: { v: unknown } }> };
  doc.$defs.PatternUrlParams.properties.v = { type: "string", pattern: "\\bcat\\b" };
  mkdirSync(path.join(schemas, "lookaround"), { recursive: true });
  const file = path.join(schemas, "lookaround", "schema.json");
  writeFileSync(file, JSON.stringify(doc));
  const tree = path.join(schemas, "out");
  const r = await runCli(["generate", "--target", "go", "--schemas", schemas, "--versions", "lookaround", "--out", tree]);
  expect(r.status, r.stderr).toBe(2);
  expect(r.stderr).toContain(`${file}#/$defs/PatternUrlParams/properties/v/pattern: the Go target cannot check the pattern "\\\\bcat\\\\b": Go's RE2 has no lookaround`);
  expect(r.stderr).not.toMatch(/^\s+at /m);
  expect(existsSync(tree)).toBe(false);
  const ts = await runCli(["generate", "--target", "typescript", "--schemas", schemas, "--versions", "lookaround", "--out", path.join(schemas, "ts")]);
  expect(ts.status, ts.stderr).toBe(0);
  const ajv = new Ajv2020({ strict: false });
  expect(["a cat", "concat"].map((v) => ajv.validate(doc.$defs.PatternUrlParams, { v }))).toEqual([true, false]);
}, 300_000);

describe("what no target can say alike is exit 2 naming it, the file and the JSON pointer, with nothing written", () => {
  it.each([
    ["a pattern construct whose meaning differs", "2020-12", { type: "string", pattern: "^\\p{Lu}" }, "/pattern", 'the Unicode property escape "\\p{Lu}"'],
    ["a lookbehind", "draft-07", { type: "string", pattern: "(?<=a)b" }, "/pattern", "a lookbehind"],
    ["a reference to an anchor no definition carries on itself", "2020-12", { $dynamicRef: "#nowhere" }, "/$dynamicRef", 'the reference "#nowhere" names no anchor'],
    ["a keyword of the other dialect", "draft-07", { type: "object", dependentRequired: { a: ["b"] } }, "/dependentRequired", 'the keyword "dependentRequired" is not supported'],
  ] as const)("%s", async (name, dialect, schema, pointer, message) => {
    const schemas = path.join(tmpRoot, "refused", name.replaceAll(" ", "-"));
    const doc = JSON.parse(fixtureText(dialect)) as Record<string, Record<string, { properties: { v: unknown } }>>;
    const container = dialect === "2020-12" ? "$defs" : "definitions";
    doc[container].PatternUrlParams.properties.v = schema;
    mkdirSync(path.join(schemas, "refused"), { recursive: true });
    writeFileSync(path.join(schemas, "refused", "schema.json"), JSON.stringify(doc));
    const target = path.join(schemas, "out");
    const r = await runCli(["generate", "--schemas", schemas, "--versions", "refused", "--out", target]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${path.join(schemas, "refused", "schema.json")}#/${container}/PatternUrlParams/properties/v${pointer}:`);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(existsSync(target)).toBe(false);
  });
});

// Issue 35's rehearsal: every pinned revision with the open PR's constraints put in (`pattern:
// "^https?://"` and `maxLength` on every `format: uri` string, `"^(https?://|data:image/)"` on icon
// sources, `maxItems` on icon lists) generates in every target, and where the revision has `Icon`,
// each target's validator agrees with Ajv on its sources.
describe("today's revisions with the patterns of issue 35", () => {
  const constrained = (label: string) => {
    const doc = JSON.parse(readFileSync(path.join(schemasDir, label, "schema.json"), "utf8")) as Record<string, Record<string, Record<string, unknown>>>;
    const walk = (x: unknown): void => {
      if (Array.isArray(x)) return x.forEach(walk);
      if (typeof x !== "object" || x === null) return;
      const o = x as Record<string, unknown>;
      if (o.type === "string" && o.format === "uri") Object.assign(o, { pattern: "^https?://", maxLength: 2048 });
      if (o.type === "array" && JSON.stringify(o.items ?? "").includes("/Icon")) o.maxItems = 16;
      Object.values(o).forEach(walk);
    };
    walk(doc);
    const container = Object.hasOwn(doc, "$defs") ? "$defs" : "definitions";
    const src = (doc[container].Icon?.properties as Record<string, Record<string, unknown>> | undefined)?.src;
    if (src !== undefined) src.pattern = "^(https?://|data:image/)";
    return { doc, container, icon: src !== undefined };
  };
  const labels = Object.keys((JSON.parse(readFileSync(lockFile, "utf8")) as { versions: Record<string, unknown> }).versions).sort();
  const sources = ["https://example.com/i.png", "data:image/png;base64,AA", "javascript:alert(1)", "\nhttps://x", "ftp://x"];

  it.each(labels)("%s generates in every target; Icon sources judged as Ajv judges them", async (label) => {
    const { doc, container, icon } = constrained(label);
    const schemas = path.join(tmpRoot, "rehearsal", "schemas");
    mkdirSync(path.join(schemas, label), { recursive: true });
    writeFileSync(path.join(schemas, label, "schema.json"), JSON.stringify(doc));
    const target = path.join(tmpRoot, "rehearsal", label);
    const r = await runCli(["generate", "--schemas", schemas, "--versions", label, "--out", target]);
    expect(r.status, r.stderr).toBe(0);
    if (!icon) return;
    const options = { strict: false, validateFormats: false } as const;
    const ajv = container === "$defs" ? new Ajv2020(options) : new Ajv(options);
    ajv.addSchema(doc, "spec");
    const expected = sources.map((s) => ajv.validate(`spec#/${container}/Icon`, { src: s }) as boolean);
    expect(expected).toEqual([true, true, false, false, false]);
    const { IconSchema } = (await import(path.join(target, label, "schemas.ts"))) as { IconSchema: ZodType };
    expect(sources.map((s) => IconSchema.safeParse({ src: s }).success)).toEqual(expected);
    const script = [
      "import json, sys",
      "from pydantic import ValidationError",
      "import mcp_codegen",
      "from mcp_codegen import runtime",
      `m = mcp_codegen.version(${JSON.stringify(label)})`,
      "out = []",
      "for s in json.load(sys.stdin):",
      "    try:",
      "        runtime.validate(m.DEFINITIONS['Icon'], {'src': s})",
      "        out.append(True)",
      "    except ValidationError:",
      "        out.append(False)",
      "print(json.dumps(out))",
    ].join("\n");
    const py = run("python", ["-c", script], { input: JSON.stringify(sources), pythonPath: [path.join(target, "python")] });
    expect(py.stderr).toBe("");
    expect(JSON.parse(py.stdout)).toEqual(expected);
  }, 120_000);
});
