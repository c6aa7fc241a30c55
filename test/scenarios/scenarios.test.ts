// The language-neutral scenario suite (docs/scenarios.md): the scenario files of test/scenarios/<kind>/,
// expanded at every locked version with the properties each names (resolve.ts, facts.ts: read from the
// schemas), run by each runtime's driver, every answer matched against the scenario's data (match.ts).
// A driver says what it runs and skips and why; a runtime that skips a kind it supports fails.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { pythonRuntimePackage, run as runProgram } from "../emit/python/support.js";
import { go } from "../emit/go/support.js";
import { ruby } from "../emit/ruby/support.js";
import { tempDir } from "../support.js";
import { type DriverOutput, runTypeScript } from "./drivers/typescript.js";
import { definitions, extensionAdds, extensionCores, lockExtensions, lockLabels, methods, schemaDefinesBatches } from "./facts.js";
import { mismatch } from "./match.js";
import { type Case, type Kind, KINDS, expand, loadScenarios, scenariosDir, versionsOf } from "./resolve.js";

/** The kinds each runtime supports: a case of these kinds it skips fails the suite. */
const SUPPORTS: Record<string, readonly Kind[]> = {
  typescript: KINDS,
  python: KINDS,
  ruby: ["gate", "normalize"],
  go: ["gate", "normalize"],
};

const scenarios = loadScenarios();
const cases: Case[] = scenarios.flatMap(expand);

function python(input: readonly Case[]): DriverOutput {
  const r = runProgram("python", [path.join(scenariosDir, "drivers", "python", "driver.py")], { input: JSON.stringify({ cases: input }) });
  if (r.status !== 0 || r.stderr !== "") throw new Error(`drivers/python/driver.py exited ${r.status}:\n${r.stderr.slice(-4000)}`);
  return JSON.parse(r.stdout) as DriverOutput;
}

function rubyDriver(input: readonly Case[]): DriverOutput {
  const r = ruby([path.join(scenariosDir, "drivers", "ruby", "driver.rb")], { input: JSON.stringify({ cases: input }) });
  if (r.status !== 0 || r.stderr !== "") throw new Error(`drivers/ruby/driver.rb exited ${r.status}:\n${r.stderr.slice(-4000)}`);
  return JSON.parse(r.stdout) as DriverOutput;
}

/** The Go driver: a program (drivers/go, its go.mod requiring generated/go) built once, fed the cases on stdin. */
function goDriver(input: readonly Case[]): DriverOutput {
  const dir = path.join(scenariosDir, "drivers", "go");
  const binary = path.join(tempDir("mcp-codegen-go-driver-"), "driver");
  const build = go(["build", "-o", binary, "."], dir);
  if (build.status !== 0) throw new Error(`drivers/go does not build:\n${build.stderr.slice(-4000)}`);
  const r = spawnSync(binary, [], { input: JSON.stringify({ cases: input }), encoding: "utf8", maxBuffer: 1 << 28 });
  if (r.status !== 0 || r.stderr !== "") throw new Error(`drivers/go exited ${r.status}:\n${r.stderr.slice(-4000)}`);
  return JSON.parse(r.stdout) as DriverOutput;
}

const DRIVERS: Record<string, (input: readonly Case[]) => DriverOutput | Promise<DriverOutput>> = { typescript: runTypeScript, python, ruby: rubyDriver, go: goDriver };
const outputs: Record<string, DriverOutput> = {};

beforeAll(async () => {
  for (const [name, driver] of Object.entries(DRIVERS)) {
    outputs[name] = await driver(cases);
    const out = outputs[name];
    console.log([...out.summary, ...Object.entries(out.skipped).map(([id, why]) => `${name} skips ${id}: ${why}`)].join("\n"));
  }
}, 600_000);

describe("the scenario files", () => {
  it("follow scenario.schema.json, each naming the spec section its answers follow, and every kind has scenarios", () => {
    for (const kind of KINDS) expect(scenarios.filter((s) => s.kind === kind).length, kind).toBeGreaterThan(0);
    for (const s of scenarios) expect(s.spec.length, s.name).toBeGreaterThan(20);
  });

  it("include the one docs/scenarios.md shows, as it is there", () => {
    const doc = readFileSync(path.join(scenariosDir, "..", "..", "docs", "scenarios.md"), "utf8");
    const blocks = [...doc.matchAll(/This one is `test\/scenarios\/([a-z]+\/[a-z0-9-]+\.json)`:\n\n```json\n([\s\S]*?)```/g)];
    expect(blocks.length).toBe(1);
    for (const [, file, json] of blocks) expect(JSON.parse(json)).toEqual(JSON.parse(readFileSync(path.join(scenariosDir, file), "utf8")));
  });

  it("each run at some locked version (a scenario the lock has no version for is named here)", () => {
    const none = scenarios.filter((s) => expand(s).length === 0).map((s) => `${s.name} (${JSON.stringify(s.versions)})`);
    if (none.length > 0) console.log(`scenarios with no locked version to run at: ${none.join(", ")}`);
    // Today's lock has a version of each property the scenarios name; a bump that drops one is told above.
    expect(none).toEqual([]);
  });

  it("pick versions by the schemas: the batch scenarios split the legacy versions by whether their schema defines JSON-RPC batches", () => {
    const served = versionsOf(scenarios.find((s) => s.name === "batches-served")!);
    const refused = versionsOf(scenarios.find((s) => s.name === "batches-refused")!);
    expect([...served, ...refused].sort()).toEqual(lockLabels.filter((l) => versionsOf(scenarios.find((s) => s.name === "framing")!).includes(l)));
    for (const l of served) expect(schemaDefinesBatches(l)).toBe(true);
    for (const l of refused) expect(schemaDefinesBatches(l)).toBe(false);
  });
});

describe("the gate scenarios", () => {
  it("run in every extension module the lock has, each extension request and notification read from the extension's schema at both sides", () => {
    const gate = cases.filter((c): c is Extract<Case, { kind: "gate" }> => c.kind === "gate");
    for (const name of lockExtensions) {
      for (const label of extensionCores(name)) {
        const adds = extensionAdds(name, label)!;
        expect(adds.requests.length + adds.notifications.length, `${name} @ ${label}`).toBeGreaterThan(0);
        const here = gate.filter((c) => c.module === `${label}+${name}`);
        for (const method of [...adds.requests, ...adds.notifications]) {
          expect(new Set(here.filter((c) => c.method === method).map((c) => c.side)), `${label}+${name} ${method}`).toEqual(new Set(["client", "server"]));
        }
        // The core scenarios run there too; to the version's own gate, a method only extensions have is a custom one.
        expect(new Set(here.map((c) => c.scenario)), `${label}+${name}`).toContain("client-request-at-server");
        for (const method of [...adds.requests, ...adds.notifications].filter((m) => !inSomeCore(m))) {
          expect(gate.filter((c) => c.module === label && c.method === method).map((c) => c.scenario).sort(), `${label} ${method}`).toEqual(["extension-method-at-core-passed", "extension-method-at-core-refused"]);
        }
      }
    }
  });
});

/** Some locked core version has this method (its schema's unions). */
const inSomeCore = (method: string) => lockLabels.some((l) => methods(l).has(method));

describe("the http scenarios", () => {
  it("pick versions by the lock and the schemas: Tasks where the lock has the extension for the core version, the modern header rules where the schema defines HeaderMismatchError", () => {
    for (const name of ["tasks-two-principals", "tasks-input"]) {
      const versions = versionsOf(scenarios.find((s) => s.name === name)!);
      expect(versions.length, name).toBeGreaterThan(0);
      for (const l of versions) expect(extensionCores("tasks"), `${name} @ ${l}`).toContain(l);
    }
    for (const l of versionsOf(scenarios.find((s) => s.name === "modern-post")!)) expect(Object.hasOwn(definitions(l), "HeaderMismatchError"), l).toBe(true);
  });

  it("each state a status per request, and a body, events or text only where the answer has one; a read names a stream an earlier request kept open", () => {
    for (const s of scenarios.filter((x) => x.kind === "http")) {
      const open = new Set<string>();
      for (const [i, e] of s.exchanges!.entries()) {
        if ("read" in e) {
          expect(open.has(e.read), `${s.name} #${i} reads ${e.read}`).toBe(true);
          continue;
        }
        expect([e.expect.body, e.expect.events, e.expect.text].filter((x) => x !== undefined).length, `${s.name} #${i}`).toBe(1);
        if (e.request.stream === undefined) continue;
        // A stream kept open is an SSE answer, named once.
        expect(e.expect.events, `${s.name} #${i}`).toBeDefined();
        expect(open.has(e.request.stream), `${s.name} #${i} names ${e.request.stream} again`).toBe(false);
        open.add(e.request.stream);
      }
    }
  });
});

describe("the suite's own code", () => {
  it("computes no expected answer by a runtime: the expansion, the facts and the match rules import nothing generated or of runtimes/", () => {
    const imports = ["resolve.ts", "facts.ts", "match.ts"].flatMap((file) =>
      [...readFileSync(path.join(scenariosDir, file), "utf8").matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => [file, m[1]] as const),
    );
    expect(imports.map(([, from]) => from)).toContain("./facts.js");
    for (const [file, from] of imports) expect(from, `${file} imports ${from}`).not.toMatch(/generated|runtimes|emit\//);
  });

  it("has drivers clean by their language's own checks (ruff with the runtime's configuration, ruby -wc, gofmt and go vet)", () => {
    const py = runProgram("ruff", ["check", "--no-cache", "--config", path.join(pythonRuntimePackage, "ruff.toml"), "--output-format", "concise", path.join(scenariosDir, "drivers", "python")]);
    expect(py.stdout + py.stderr).toContain("All checks passed");
    const rb = ruby(["-wc", path.join(scenariosDir, "drivers", "ruby", "driver.rb")], { loadPath: [] });
    expect(rb.stderr).toBe("");
    expect(rb.stdout.trim()).toBe("Syntax OK");
    const goDir = path.join(scenariosDir, "drivers", "go");
    const fmt = spawnSync("gofmt", ["-l", "."], { cwd: goDir, encoding: "utf8" });
    expect(fmt.stdout + fmt.stderr).toBe("");
    const vet = go(["vet", "."], goDir);
    expect(vet.status, vet.stderr).toBe(0);
  }, 120_000);

  it("matches by the declared rules: exact (member order aside), $any of a type, $subset of an object", () => {
    expect(mismatch({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBeNull();
    expect(mismatch({ a: 1 }, { a: 1, b: 2 })).toBe("/b: unexpected 2");
    expect(mismatch({ a: 1, b: 2 }, { a: 1 })).toBe("/b: missing (expected 2)");
    expect(mismatch([1, 2], [2, 1])).toBe("/0: expected 1, got 2");
    expect(mismatch({ $any: "string" }, "x")).toBeNull();
    expect(mismatch({ $any: "string" }, 5)).toBe("/: expected any string, got 5");
    expect(mismatch({ $any: "id" }, "s0")).toBeNull();
    expect(mismatch({ $any: "id" }, 7)).toBeNull();
    expect(mismatch({ $any: "id" }, 1.5)).toBe("/: expected any id, got 1.5");
    expect(mismatch({ $any: "id" }, null)).toBe("/: expected any id, got null");
    expect(mismatch({ m: { $subset: { a: 1 } } }, { m: { a: 1, b: 2 } })).toBeNull();
    expect(mismatch({ m: { $subset: { a: 1 } } }, { m: { b: 2 } })).toBe("/m/a: missing");
    expect(mismatch(null, {})).toBe("/: expected null, got {}");
  });
});

describe.each(Object.keys(DRIVERS))("the %s driver", (name) => {
  it("runs every case of the kinds its runtime supports, and skips only the others", () => {
    const out = outputs[name];
    for (const c of cases) {
      const supported = SUPPORTS[name].includes(c.kind);
      expect(Object.hasOwn(out.results, c.id) || Object.hasOwn(out.skipped, c.id), `${name} neither ran nor skipped ${c.id}`).toBe(true);
      if (supported) expect(out.skipped[c.id], `${name} skipped ${c.id}, a ${c.kind} case it should run`).toBeUndefined();
    }
  });

  it.each(KINDS)("answers every %s case as the scenario says", (kind) => {
    const out = outputs[name];
    const mine = cases.filter((c) => c.kind === kind && Object.hasOwn(out.results, c.id));
    if (!SUPPORTS[name].includes(kind)) return void expect(mine).toEqual([]);
    expect(mine.length).toBeGreaterThan(0);
    const failures = mine.flatMap((c) => {
      const m = mismatch(c.expect, out.results[c.id]);
      return m === null ? [] : [`${c.id}: ${m}`];
    });
    expect(failures).toEqual([]);
  });
});
