// Projections between protocol versions (issue 41), over every version the lock pins (no label assumed):
// - the protocol order ("newest" is its last), checked against what each schema file and label says:
//   legacy (the schema defines InitializeRequest) before modern, dated labels by date, the others after;
// - the property: every request result of every ordered pair of versions, over the differential corpus
//   of the source version (values Ajv accepts at the source), projected by the runtime's interpreter
//   on the model's data, is valid at the target by Ajv on the target's own schema.json, or refused with
//   a JSON pointer into the value: never silently invalid. The same for params lifted to the newest version
//   in protocol order;
// - targeted: the members a target's result does not declare (read from the schema files' `properties`,
//   not from the model) never reach it; a member the target requires that the source does not declare
//   is supplied where the method has a default `resultType`, and refused with its pointer otherwise;
//   a content block type the target lacks is refused with the block's pointer.
import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import { pointerToken } from "../../generator/errors.js";
import { buildProjections, projectionSummary, type Projections } from "../../generator/model/projections.js";
import { protocolOrder } from "../../generator/model/protocol-order.js";
import { projectionsMarkdown } from "../../generator/reports/projections.js";
import type { ProtocolModel, VersionModel } from "../../generator/model/types.js";
import { buildModel } from "../../generator/pipeline.js";
import { loadSpec } from "../../generator/source/load.js";
import { readLock } from "../../generator/source/lock.js";
import { projectParams, projectResult, type VersionProjection } from "../../runtimes/typescript/src/projection.js";
import { labelledCorpus, oracleDocument, seedOf, type Json } from "../emit/typescript/corpus.js";
import { ensureSchemas, lockFile, modelOptions } from "../support.js";
import { run } from "../emit/python/support.js";
import { ruby } from "../emit/ruby/support.js";
import { alternatives, fitsSome, openRoot, pointsInto, resultContentTypes } from "./schema-alternatives.js";

const WANTED = 12;
const MAX_ATTEMPTS = 150;

interface Oracle {
  label: string;
  defs: Record<string, Record<string, unknown>>;
  container: string;
  /** Ajv on the version's schema.json (patched as the generator reads it), by JSON pointer below the definitions. */
  validate: (pointer: string) => ValidateFunction;
}

let model: ProtocolModel;
let projections: Projections;
let labels: string[];
/** The labels in protocol order (the model's rule), and its last: the version one handler set is written for. */
let order: string[];
let newest: string;
const oracles = new Map<string, Oracle>();

function oracle(label: string): Oracle {
  const hit = oracles.get(label);
  if (hit) return hit;
  const spec = loadSpec(path.join(modelOptions.schemasDir, label, "schema.json"), label, { patchesDir: modelOptions.patchesDir });
  const doc = oracleDocument(modelOptions.schemasDir, modelOptions.patchesDir, label);
  const options = { strict: false, validateFormats: false } as const;
  const ajv = spec.dialect === "2020-12" ? new Ajv2020(options) : new Ajv(options);
  ajv.addSchema(doc, "mcp");
  const o: Oracle = {
    label,
    defs: spec.defs as Record<string, Record<string, unknown>>,
    container: spec.container,
    validate: (pointer) => {
      const v = ajv.getSchema(`mcp#/${spec.container}/${pointer}`);
      if (!v) throw new Error(`no schema at ${label}#/${spec.container}/${pointer}`);
      return v as ValidateFunction;
    },
  };
  oracles.set(label, o);
  return o;
}

const versionOf = (label: string): VersionModel => model.versions.find((v) => v.label === label)!;
const modelData = (label: string) => projections.versions.find((v) => v.label === label)!;
const dataOf = (label: string): VersionProjection => projections.versions.find((v) => v.label === label)! as VersionProjection;

/** Whether the target accepts `value` as a result of `method`: any of its result definitions (Ajv). */
function validResultAt(label: string, method: string, value: unknown): boolean {
  const r = versionOf(label).requests.find((q) => q.method === method)!;
  return r.results.some((name) => oracle(label).validate(pointerToken(name))(value));
}


/** Whether `value` has a value at `pointer` (every token present). */
function carries(value: unknown, pointer: string): boolean {
  let at: unknown = value;
  for (const t of pointer === "" ? [] : pointer.slice(1).split("/").map((x) => x.replace(/~1/g, "/").replace(/~0/g, "~"))) {
    if (typeof at !== "object" || at === null || !Object.hasOwn(at, t)) return false;
    at = (at as Record<string, unknown>)[t];
  }
  return true;
}

/** The source's corpus of valid values of a definition (Ajv at the source labels them). */
function validCorpus(label: string, name: string): Json[] {
  const o = oracle(label);
  const validate = o.validate(pointerToken(name));
  return labelledCorpus(o.defs, name, seedOf(`projection/${label}/${name}`), (v) => validate(v) as boolean, WANTED, MAX_ATTEMPTS).valid;
}

/** The names a raw result definition declares under `properties`, following `$ref` and `allOf` (the schema file, not the IR). */
function declaredNames(o: Oracle, schema: Record<string, unknown>, seen = new Set<string>()): Set<string> {
  const out = new Set<string>(Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {}));
  if (typeof schema.$ref === "string") {
    const name = schema.$ref.split("/").pop()!;
    if (!seen.has(name)) for (const n of declaredNames(o, o.defs[name], new Set([...seen, name]))) out.add(n);
  }
  for (const part of (schema.allOf as Record<string, unknown>[] | undefined) ?? []) for (const n of declaredNames(o, part, seen)) out.add(n);
  return out;
}

beforeAll(async () => {
  await ensureSchemas();
  const lock = await readLock(lockFile);
  labels = Object.keys(lock.versions).sort();
  model = buildModel({ ...modelOptions, versions: labels, lock });
  projections = buildProjections(model);
  order = protocolOrder(model.versions);
  newest = order[order.length - 1];
});

/** Whether a version's schema file defines InitializeRequest (the legacy era's handshake), read from the file. */
function hasInitialize(label: string): boolean {
  const doc = JSON.parse(readFileSync(path.join(modelOptions.schemasDir, label, "schema.json"), "utf8")) as { definitions?: object; $defs?: object };
  return Object.hasOwn(doc.$defs ?? doc.definitions ?? {}, "InitializeRequest");
}

describe("the protocol order", () => {
  it("puts every version whose schema has initialize before every one without, dated labels by date within each, labels that are no date after them", () => {
    expect([...order].sort()).toEqual(labels);
    const dated = (l: string) => /^\d{4}-\d{2}-\d{2}$/.test(l);
    for (const [i, a] of order.entries()) {
      for (const b of order.slice(i + 1)) {
        // a comes before b: never a version without initialize before one with it,
        expect(!hasInitialize(a) && hasInitialize(b), `${a} before ${b}`).toBe(false);
        if (hasInitialize(a) !== hasInitialize(b)) continue;
        // within an era, never an undated label before a dated one, nor a later date before an earlier one.
        expect(!dated(a) && dated(b), `${a} before ${b}`).toBe(false);
        if (dated(a) && dated(b)) expect(Date.parse(a) < Date.parse(b), `${a} before ${b}`).toBe(true);
      }
    }
  });

  it("orders the projection data, and the trees print it: TypeScript's protocolOrder and Python's ORDER", async () => {
    expect(projections.versions.map((v) => v.label)).toEqual(order);
    const tree = (await import("../../generated/projections.js")) as { protocolOrder: readonly string[]; projections: Record<string, unknown> };
    expect([...tree.protocolOrder]).toEqual(order);
    expect(Object.keys(tree.projections)).toEqual(order);
    const py = run("python", ["-c", "import json; from mcp_codegen.projections import ORDER, PROJECTIONS; print(json.dumps([list(ORDER), list(PROJECTIONS)]))"]);
    expect(py.stderr).toBe("");
    expect(JSON.parse(py.stdout)).toEqual([order, order]);
  });
});

describe("projection data", () => {
  it("has one entry per version of the run, each with every request's result", () => {
    expect(projections.versions.map((v) => v.label).sort()).toEqual(labels);
    for (const v of model.versions) expect(Object.keys(dataOf(v.label).results)).toEqual(v.requests.map((r) => r.method).sort());
  });
});

describe("every result of every ordered pair of versions: valid at the target by Ajv, or refused with a pointer", () => {
  it("never silently invalid", { timeout: 600_000 }, () => {
    const silent: string[] = [];
    const badPointer: string[] = [];
    let projected = 0;
    let refused = 0;
    const pairsProjected = new Set<string>();
    const pairsRefused = new Set<string>();
    for (const from of labels) {
      for (const r of versionOf(from).requests) {
        const corpus = r.results.flatMap((name) => validCorpus(from, name));
        for (const to of labels) {
          if (to === from || !versionOf(to).requests.some((q) => q.method === r.method)) continue;
          for (const value of corpus) {
            const out = projectResult(dataOf(to), r.method, value);
            if (out.ok) {
              projected++;
              pairsProjected.add(`${from}>${to}`);
              if (!validResultAt(to, r.method, out.value)) silent.push(`${r.method} ${from} → ${to}: ${JSON.stringify(value)} became ${JSON.stringify(out.value)}`);
            } else {
              refused++;
              pairsRefused.add(`${from}>${to}`);
              if (!pointsInto(value, out.pointer) || out.reason.length === 0) badPointer.push(`${r.method} ${from} → ${to}: ${out.pointer} (${out.reason}) in ${JSON.stringify(value)}`);
            }
          }
        }
      }
    }
    console.log(`projections: ${projected} projected valid, ${refused} refused, over ${pairsProjected.size} ordered pairs`);
    expect(silent.slice(0, 5)).toEqual([]);
    expect(badPointer.slice(0, 5)).toEqual([]);
    // Not vacuous: every ordered pair of versions that share a request was exercised, and values were projected.
    // A pair may refuse every value of the corpus where the schemas leave no faithful value (an earlier draft
    // allowing only some `resultType` values where the source allows any string): those pairs are printed.
    const sharing = labels.flatMap((a) => labels.filter((b) => b !== a && versionOf(a).requests.some((r) => versionOf(b).requests.some((q) => q.method === r.method))).map((b) => `${a}>${b}`));
    expect([...new Set([...pairsProjected, ...pairsRefused])].sort()).toEqual(sharing.sort());
    expect(projected).toBeGreaterThan(0);
    const allRefused = sharing.filter((p) => !pairsProjected.has(p));
    if (allRefused.length > 0) console.log(`pairs whose every corpus value was refused: ${allRefused.join(", ")}`);
  });

  it("params of every version lifted to the newest: valid there by Ajv, or refused with a pointer", { timeout: 600_000 }, () => {
    const silent: string[] = [];
    let lifted = 0;
    for (const from of order.slice(0, -1)) {
      for (const r of versionOf(from).requests) {
        const target = versionOf(newest).requests.find((q) => q.method === r.method);
        if (!r.params || !target?.params) continue;
        const pointerOf = (v: VersionModel, q: typeof r) => (q.params!.definition !== null ? pointerToken(q.params!.definition) : `${pointerToken(q.definition)}/properties/params`);
        const o = oracle(from);
        const validate = o.validate(pointerOf(versionOf(from), r));
        // The params corpus: generated from the request's params schema (a definition, or the inline one).
        const defs = { ...o.defs, "#params": (o.defs[r.definition].properties as Record<string, Record<string, unknown>>).params };
        const corpus = labelledCorpus(defs, "#params", seedOf(`projection/params/${from}/${r.method}`), (v) => validate(v) as boolean, WANTED, MAX_ATTEMPTS).valid;
        const check = oracle(newest).validate(pointerOf(versionOf(newest), target));
        for (const value of corpus) {
          const out = projectParams(dataOf(newest), r.method, value);
          if (out.ok) {
            lifted++;
            if (!check(out.value)) silent.push(`${r.method} ${from} → ${newest}: ${JSON.stringify(value)} became ${JSON.stringify(out.value)}`);
          } else expect(pointsInto(value, out.pointer), `${out.pointer} in ${JSON.stringify(value)}`).toBe(true);
        }
      }
    }
    console.log(`params: ${lifted} lifted valid`);
    expect(silent.slice(0, 5)).toEqual([]);
  });
});

describe("the reports' projections section", () => {
  it("names as dropped exactly the root members the newest result declares and an older one does not (schema files)", () => {
    let compared = 0;
    for (const r of versionOf(newest).requests) {
      if (r.results.length !== 1) continue;
      const mine = declaredNames(oracle(newest), oracle(newest).defs[r.results[0]]);
      for (const to of order.slice(0, -1)) {
        const target = versionOf(to).requests.find((q) => q.method === r.method);
        if (!target || target.results.length !== 1 || openRoot(oracle(to).defs, oracle(to).defs[target.results[0]])) continue;
        const theirs = declaredNames(oracle(to), oracle(to).defs[target.results[0]]);
        const summary = projectionSummary(modelData(newest), modelData(to), r.method)!;
        const rootDropped = summary.dropped.filter((d) => d.startsWith(`${r.results[0]}.`)).map((d) => d.slice(r.results[0].length + 1));
        expect(rootDropped, `${r.method} → ${to}`).toEqual([...mine].filter((m) => !theirs.has(m)).sort());
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(0);
  });

  it("prints one row per older version a method's results change for, deterministically", () => {
    const text = projectionsMarkdown(model);
    expect(projectionsMarkdown(model)).toBe(text);
    if (labels.length > 1) expect(text).toMatch(/^## Projections\n/);
    if (labels.length > 1) expect(text).toContain(`written for the newest version (${newest})`);
    for (const [, method] of text.matchAll(/^### (.+)$/gm)) expect(versionOf(newest).requests.some((r) => r.method === method)).toBe(true);
  });
});

/** What the interpreters of the other languages are run on: up to four corpus results per request, to every other version having it. */
function interpreterCases(): Array<{ to: string; method: string; value: Json }> {
  const cases: Array<{ to: string; method: string; value: Json }> = [];
  for (const from of labels) {
    for (const r of versionOf(from).requests) {
      const corpus = r.results.flatMap((name) => validCorpus(from, name)).slice(0, 4);
      for (const to of labels) if (to !== from && versionOf(to).requests.some((q) => q.method === r.method)) for (const value of corpus) cases.push({ to, method: r.method, value });
    }
  }
  return cases;
}

describe("the Python interpreter on the Python tree's data", () => {
  it("projects every corpus value as the TypeScript one does (value, dropped and added pointers, refusal pointer)", { timeout: 600_000 }, () => {
    const cases = interpreterCases();
    const script = [
      "import json, sys",
      "from mcp_codegen.projection import project_result",
      "from mcp_codegen.projections import PROJECTIONS",
      "out = []",
      "for c in json.load(sys.stdin):",
      "    r = project_result(PROJECTIONS[c['to']], c['method'], c['value'])",
      "    out.append({'ok': True, 'value': r.value, 'dropped': r.dropped, 'added': r.added} if r.ok else {'ok': False, 'pointer': r.pointer})",
      "json.dump(out, sys.stdout)",
    ].join("\n");
    const py = run("python", ["-c", script], { input: JSON.stringify(cases) });
    expect(py.stderr).toBe("");
    const got = JSON.parse(py.stdout) as unknown[];
    const want = cases.map((c) => {
      const r = projectResult(dataOf(c.to), c.method, c.value);
      return r.ok ? { ok: true, value: r.value, dropped: r.dropped, added: r.added } : { ok: false, pointer: r.pointer };
    });
    expect(got.length).toBe(cases.length);
    const differ = cases.flatMap((c, i) => (JSON.stringify(got[i]) === JSON.stringify(want[i]) ? [] : [`${c.method} → ${c.to}: ${JSON.stringify(c.value)}\n  python ${JSON.stringify(got[i])}\n  ts     ${JSON.stringify(want[i])}`]));
    expect(differ.slice(0, 3)).toEqual([]);
    expect(want.some((w) => w.ok) && want.some((w) => !w.ok)).toBe(true);
  });
});

describe("the Ruby interpreter on the Ruby tree's data", () => {
  it("projects every corpus value as the TypeScript one does (value, dropped and added pointers, refusal pointer), over ORDER as protocolOrder", { timeout: 600_000 }, () => {
    const cases = interpreterCases();
    const script = [
      'require "json"',
      'require "mcp_codegen"',
      "out = JSON.parse($stdin.read).map do |c|",
      '  r = McpCodegen::Projection.project_result(McpCodegen::Projections::BY_VERSION.fetch(c["to"]), c["method"], c["value"])',
      '  r.ok? ? { "ok" => true, "value" => r.value, "dropped" => r.dropped, "added" => r.added } : { "ok" => false, "pointer" => r.pointer }',
      "end",
      'print JSON.generate({ "order" => McpCodegen::Projections::ORDER, "out" => out })',
    ].join("\n");
    const rb = ruby(["-w", "-e", script], { input: JSON.stringify(cases) });
    expect(rb.stderr).toBe("");
    const got = JSON.parse(rb.stdout) as { order: string[]; out: unknown[] };
    expect(got.order).toEqual(order);
    const want = cases.map((c) => {
      const r = projectResult(dataOf(c.to), c.method, c.value);
      return r.ok ? { ok: true, value: r.value, dropped: r.dropped, added: r.added } : { ok: false, pointer: r.pointer };
    });
    expect(got.out.length).toBe(cases.length);
    const differ = cases.flatMap((c, i) => (JSON.stringify(got.out[i]) === JSON.stringify(want[i]) ? [] : [`${c.method} → ${c.to}: ${JSON.stringify(c.value)}\n  ruby ${JSON.stringify(got.out[i])}\n  ts   ${JSON.stringify(want[i])}`]));
    expect(differ.slice(0, 3)).toEqual([]);
    expect(want.some((w) => w.ok) && want.some((w) => !w.ok)).toBe(true);
  });
});

describe("members and defaults, from the schema files", () => {
  it("a target never receives a root member its result does not declare", { timeout: 300_000 }, () => {
    let checked = 0;
    for (const from of labels) {
      for (const r of versionOf(from).requests) {
        const corpus = r.results.flatMap((name) => validCorpus(from, name));
        for (const to of labels) {
          const target = versionOf(to).requests.find((q) => q.method === r.method);
          if (to === from || !target) continue;
          // A result the schema leaves open on purpose (`additionalProperties`) keeps its extra members.
          if (target.results.some((name) => openRoot(oracle(to).defs, oracle(to).defs[name]))) continue;
          // The value sent is one alternative of the target's result (a union's branch): every member it carries is one
          // that alternative declares.
          const alts = target.results.flatMap((name) => alternatives(oracle(to).defs, oracle(to).defs[name]));
          const everDeclared = new Set(alts.flatMap((a) => [...a.declared]));
          for (const value of corpus) {
            const out = projectResult(dataOf(to), r.method, value);
            if (!out.ok) continue;
            expect(fitsSome(alts, out.value as object), `${r.method} ${from} → ${to}: the members ${JSON.stringify(Object.keys(out.value as object))} are no alternative's`).toBe(true);
            checked += Object.keys(value as object).filter((k) => !everDeclared.has(k)).length;
          }
        }
      }
    }
    // Not vacuous: the corpus carried members some target does not declare (the later revisions' `resultType`, cache hints).
    expect(checked).toBeGreaterThan(0);
  });

  it("a required member the source lacks: the method's default resultType supplied, else refused at its pointer", () => {
    const cases: string[] = [];
    for (const from of labels) {
      for (const to of labels) {
        if (to === from) continue;
        for (const r of versionOf(from).requests) {
          const target = versionOf(to).requests.find((q) => q.method === r.method);
          if (!target || target.results.length !== 1 || r.results.length !== 1) continue;
          const value = validCorpus(from, r.results[0])[0] as Record<string, unknown> | undefined;
          if (value === undefined) continue;
          // What each alternative of the target's result (a union's branch) requires that the value lacks.
          const lacks = alternatives(oracle(to).defs, oracle(to).defs[target.results[0]]).map((a) => [...a.required].filter((m) => !Object.hasOwn(value, m)));
          if (lacks.some((l) => l.length === 0)) continue;
          const out = projectResult(dataOf(to), r.method, value);
          const withoutDefaults = lacks.map((l) => l.filter((m) => !(m === "resultType" && target.resultTypes !== null)));
          const withoutDefault = withoutDefaults.some((l) => l.length === 0) ? [] : [...new Set(withoutDefaults.flat())];
          if (withoutDefault.length === 0 && out.ok) {
            expect((out.value as Record<string, unknown>).resultType).toBe(target.resultTypes![0]);
            cases.push("default");
          } else if (withoutDefault.length === 0 && !out.ok) {
            // The root lacks only what the default supplies, but a member inside lacks what the target requires
            // there (an early draft's Task without lastUpdatedAt): refused at that member, which Ajv on the target's
            // schema names too, as missing from the value with the default supplied.
            const supplied = { ...value, resultType: target.resultTypes![0] };
            const validate = oracle(to).validate(pointerToken(target.results[0]));
            expect(validate(supplied), `${r.method} ${from} → ${to}: refused (${JSON.stringify(out)}), yet Ajv accepts it with the default`).toBe(false);
            const missing = (validate.errors ?? []).filter((e) => e.keyword === "required").map((e) => `${e.instancePath}/${pointerToken(String(e.params.missingProperty))}`);
            expect(missing, `${r.method} ${from} → ${to}: ${JSON.stringify(out)}`).toContain(out.pointer);
            expect(out.pointer.lastIndexOf("/"), `${r.method} ${from} → ${to}: ${out.pointer} is inside the value`).toBeGreaterThan(0);
            cases.push("refused inside");
          } else {
            expect(out.ok, `${r.method} ${from} → ${to}`).toBe(false);
            // Refused at a required member without a default (at the root, or inside an object the value carries: an
            // early draft's Tool.outputSchema requires `type`), or at a member the value carries whose value the
            // target does not allow.
            const parent = out.ok ? "" : out.pointer.slice(0, out.pointer.lastIndexOf("/"));
            const nestedRequired = !out.ok && /requires this member/.test(out.reason) && carries(value, parent);
            if (!out.ok && !nestedRequired && !withoutDefault.map((m) => `/${pointerToken(m)}`).includes(out.pointer)) expect(carries(value, out.pointer), `${r.method} ${from} → ${to}: ${out.pointer} (${out.reason}) in ${JSON.stringify(value)}`).toBe(true);
            cases.push("refused");
          }
        }
      }
    }
    // Whether these arise depends on the lock; when both eras are generated, the first two do.
    if (model.versions.some((v) => v.era === "legacy") && model.versions.some((v) => v.era === "modern")) expect([...new Set(cases)]).toEqual(expect.arrayContaining(["default", "refused"]));
  });

  it("a result union is told apart by resultType: a tools/call result without one is the default's, its unknown block refused there", () => {
    let unions = 0;
    for (const to of labels) {
      const call = versionOf(to).requests.find((q) => q.method === "tools/call");
      if (!call || call.results.length < 2 || call.resultTypes === null) continue;
      unions++;
      const types = resultContentTypes(oracle(to).defs, call.results);
      const unknown = `not-${[...types].sort().join("-")}`;
      // Some branch (the input-required result) would accept this value by dropping `content`: the tag, not the
      // fewest dropped members, decides, and the default result refuses the block.
      const out = projectResult(dataOf(to), "tools/call", { content: [{ type: unknown, text: "x" }] });
      expect(out.ok, `${to}: ${JSON.stringify(out)}`).toBe(false);
      if (!out.ok) expect(out.pointer).toBe("/content/0");
      const named = projectResult(dataOf(to), "tools/call", { resultType: "no-such-result-type", content: [] });
      expect(named.ok ? named : { pointer: named.pointer, reason: /has no variant whose resultType is "no-such-result-type"/.test(named.reason) }).toEqual({ pointer: "", reason: true });
    }
    // Whether one arises depends on the lock: a modern tools/call with more than one result.
    if (model.versions.some((v) => v.era === "modern" && v.requests.some((r) => r.method === "tools/call" && r.results.length > 1))) expect(unions).toBeGreaterThan(0);
  });

  it("a content block type the target lacks is refused at the block", () => {
    let refusedBlocks = 0;
    let lacking = 0;
    for (const from of labels) {
      for (const to of labels) {
        const call = versionOf(from).requests.find((q) => q.method === "tools/call");
        const targetCall = versionOf(to).requests.find((q) => q.method === "tools/call");
        if (to === from || !call || !targetCall) continue;
        const types = (label: string, results: readonly string[]) => resultContentTypes(oracle(label).defs, results);
        const targetTypes = types(to, targetCall.results);
        const sourceTypes = types(from, call.results);
        if ([...sourceTypes].some((t) => !targetTypes.has(t))) lacking++;
        for (const value of call.results.flatMap((name) => validCorpus(from, name))) {
          const content = (value as { content?: Array<{ type?: unknown }> }).content;
          if (!Array.isArray(content)) continue;
          const missing = content.findIndex((b) => !targetTypes.has(b.type as string));
          const out = projectResult(dataOf(to), "tools/call", value);
          if (missing < 0) continue;
          expect(out.ok, `${from} → ${to}: a ${JSON.stringify(content[missing].type)} block`).toBe(false);
          // Refused at the block (a tagged union refuses a type it lacks there), or first at a member the target requires
          // without a default that the value lacks (an early draft's CallToolResult requires `toolResult`), or first at a
          // fault inside an earlier block (an early draft's `annotations.audience` is one role, not a list).
          const lacked = targetCall.results.flatMap((name) => alternatives(oracle(to).defs, oracle(to).defs[name]).flatMap((a) => [...a.required].filter((m) => !(m in (value as object)) && !(m === "resultType" && targetCall.resultTypes !== null))));
          if (!out.ok && !lacked.map((m) => `/${pointerToken(m)}`).includes(out.pointer)) {
            const at = /^\/content\/(\d+)(\/.*)?$/.exec(out.pointer);
            expect(at, `${from} → ${to}: refused at ${out.pointer}`).not.toBeNull();
            const [index, inside] = [Number(at![1]), at![2]];
            expect(index === missing ? inside === undefined : index < missing, `${from} → ${to}: refused at ${out.pointer} (${out.reason}); block ${missing} is the first of a type the target lacks`).toBe(true);
          }
          refusedBlocks++;
        }
      }
    }
    console.log(`content blocks refused: ${refusedBlocks}`);
    // Not vacuous where some version has a block type another lacks.
    if (lacking > 0) expect(refusedBlocks).toBeGreaterThan(0);
  });
});

describe("several members at fault", () => {
  // Every version where Ajv, on its own ElicitResult, refuses each object value of `content`, "b" and "a", is
  // refused there at the first in code point order, "a", although "b" comes first in the value: the order every
  // runtime can walk (docs/projections.md).
  const at = () =>
    labels.filter((label) => {
      if (!versionOf(label).requests.some((q) => q.method === "elicitation/create") || oracle(label).defs.ElicitResult === undefined) return false;
      const validate = oracle(label).validate("ElicitResult");
      // Each member alone is refused there (Ajv stops at its first error, so each is asked on its own).
      return (["a", "b"] as const).every((name) => !validate({ action: "accept", content: { [name]: { nested: true } } }) && (validate.errors ?? []).some((e) => e.instancePath === `/content/${name}`));
    });
  const value = { action: "accept", content: { b: { nested: true }, a: { nested: true } } };

  it("the TypeScript, Python and Ruby interpreters refuse at /content/a", () => {
    const labelsAt = at();
    console.log(`several members at fault: checked at ${labelsAt.join(", ") || "no version"}`);
    const ts = labelsAt.map((label) => {
      const r = projectResult(dataOf(label), "elicitation/create", value);
      return r.ok ? "accepted" : r.pointer;
    });
    const input = JSON.stringify(labelsAt.map((to) => ({ to, value })));
    const py = run("python", [
      "-c",
      [
        "import json, sys",
        "from mcp_codegen.projection import project_result",
        "from mcp_codegen.projections import PROJECTIONS",
        "out = []",
        "for c in json.load(sys.stdin):",
        "    r = project_result(PROJECTIONS[c['to']], 'elicitation/create', c['value'])",
        "    out.append('accepted' if r.ok else r.pointer)",
        "json.dump(out, sys.stdout)",
      ].join("\n"),
    ], { input });
    expect(py.stderr).toBe("");
    const rb = ruby(["-w", "-e", [
      'require "json"',
      'require "mcp_codegen"',
      "out = JSON.parse($stdin.read).map do |c|",
      '  r = McpCodegen::Projection.project_result(McpCodegen::Projections::BY_VERSION.fetch(c["to"]), "elicitation/create", c["value"])',
      '  r.ok? ? "accepted" : r.pointer',
      "end",
      "print JSON.generate(out)",
    ].join("\n")], { input });
    expect(rb.stderr).toBe("");
    const want = labelsAt.map(() => "/content/a");
    expect({ ts, python: JSON.parse(py.stdout) as string[], ruby: JSON.parse(rb.stdout) as string[] }).toEqual({ ts: want, python: want, ruby: want });
  });
});
