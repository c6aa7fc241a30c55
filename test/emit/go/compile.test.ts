// The Go target compiles and says what the model says (issue 38, item 1 and its tests): the tree of any
// subset of the locked versions, and of every published history revision together, is gofmt-clean and passes
// `go build ./...` and `go vet ./...`; the committed-run tree's MethodTable of every package equals
// `mcp-codegen table --format json`; each package's gate (Refusal) answers every method of its table,
// at both sides and under each cross-era policy, as the README's gate rule reads the row; each
// package's NormalizeResult gives every request's result the shape its row's normalizer's shape names
// (resources/subscribe|unsubscribe: empty, only an object _meta passing, exactly when the schema's result declares no
// other member).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { extensionLabel } from "../../../generator/model/extensions.js";
import type { MethodRow } from "../../../generator/model/types.js";
import { toolRoot } from "../../../generator/paths.js";
import { buildModel, discoverVersions } from "../../../generator/pipeline.js";
import { readLock } from "../../../generator/source/lock.js";
import { ensureSchemas, generatedDir, lockFile, modelOptions, runBin, tempDir } from "../../support.js";
import { go, writeGoTree, writeHarness } from "./support.js";

await ensureSchemas();
const lock = await readLock(lockFile);
const labels = Object.keys(lock.versions).sort();
const model = buildModel({ ...modelOptions, lock });

/** gofmt -l, go build and go vet over a written tree: the files gofmt would change and the tools' failures. */
function check(dir: string): string[] {
  const problems: string[] = [];
  const fmt = spawnSync("gofmt", ["-l", "."], { cwd: dir, encoding: "utf8" });
  if (fmt.status !== 0 || fmt.stdout.trim() !== "") problems.push(`gofmt: ${fmt.stdout}${fmt.stderr}`);
  for (const args of [["build", "./..."], ["vet", "./..."]]) {
    const r = go(args, dir);
    if (r.status !== 0) problems.push(`go ${args.join(" ")}: ${r.stderr.slice(0, 2000)}`);
  }
  return problems;
}

const subsets = [...labels.map((l) => [l]), [labels[0], labels[labels.length - 1]]];

describe("the Go tree compiles", () => {
  it("its runtime (runtimes/go/, a Go module) is gofmt-clean, passes go vet and imports the standard library and the generated protocol module only", () => {
    const dir = path.join(toolRoot, "runtimes", "go");
    expect(check(dir)).toEqual([]);
    const deps = go(["list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "./..."], dir);
    expect(deps.status, deps.stderr).toBe(0);
    expect(deps.stdout.trim().split("\n").sort()).toEqual(["mcpcodegen/protocol", "mcpcodegen/runtimes/go"]);
  }, 120_000);

  // The locked model (its extensions included) and, where a locked version has no extension layered onto it,
  // that version alone: a model without the Tasks extension, whose task statuses are none.
  let bare: typeof model | undefined;
  for (const l of labels) {
    const m = buildModel({ ...modelOptions, lock, versions: [l] });
    if ((m.extensions ?? []).length === 0) {
      bare = m;
      break;
    }
  }
  const protocolModels = [{ name: "the locked versions", model }, ...(bare === undefined ? [] : [{ name: `${bare.versions[0].label} alone (no extension)`, model: bare }])];
  it.each(protocolModels)("$name: its protocol package holds the model's protocol facts, and the runtime reads it under the tree's own module path", ({ model }) => {
    const module = "example.com/mcp/proto";
    const dir = tempDir("mcp-codegen-go-protocol-");
    const files = writeGoTree(model, path.join(dir, "tree"), module);
    expect(files.get("mcpruntime/table.go")).toContain(`"${module}/protocol"`);
    expect(files.get("mcpruntime/table.go")).not.toContain('"mcpcodegen/protocol"');
    const facts = model.protocol;
    // The Go name of a shared constant, read as the docs say: each word capitalized (METHOD_NOT_FOUND → MethodNotFound).
    const goName = (name: string) => name.toLowerCase().split("_").map((w) => w[0].toUpperCase() + w.slice(1)).join("");
    const entries = (prefix: string, list: { name: string }[], type: string) => `map[string]${type}{${list.map((e) => `${JSON.stringify(e.name)}: p.${goName(prefix + e.name)}`).join(", ")}}`;
    const main = [
      "package main",
      "",
      'import (\n\t"encoding/json"\n\t"os"\n',
      `\trt "${module}/mcpruntime"\n\tp "${module}/protocol"\n)`,
      "",
      // The task statuses' type is the facts' also in a model without the Tasks extension (no entries to show it).
      "var _ map[string]p.TaskStatusFacts = p.TaskStatuses",
      "",
      "func main() {",
      "\t_ = json.NewEncoder(os.Stdout).Encode(map[string]any{",
      `\t\t"errors": ${entries("", facts.errors, "int")},`,
      `\t\t"meta": ${entries("META_", facts.meta, "string")},`,
      `\t\t"extensions": ${entries("EXTENSION_", facts.extensions, "string")},`,
      '\t\t"httpStatus": p.HttpStatus, "logLevels": p.LogLevels, "headerAnnotation": p.HeaderAnnotation, "versions": p.Versions, "taskStatuses": p.TaskStatuses,',
      // The gate's refusal carries its verdict's code (the method table's); a result error's is the module's.
      '\t\t"codes": []int{(&rt.ResultError{}).Code()},',
      "\t})",
      "}",
    ].join("\n");
    mkdirSync(path.join(dir, "main"));
    writeFileSync(path.join(dir, "main", "main.go"), main);
    writeFileSync(path.join(dir, "main", "go.mod"), `module probe\n\ngo 1.22\n\nrequire ${module} v0.0.0\n\nreplace ${module} => ../tree\n`);
    const run = go(["run", "."], path.join(dir, "main"));
    expect(run.status, run.stderr).toBe(0);
    const code = (name: string) => facts.errors.find((e) => e.name === name)!.code;
    expect(JSON.parse(run.stdout)).toEqual({
      errors: Object.fromEntries(facts.errors.map((e) => [e.name, e.code])),
      meta: Object.fromEntries(facts.meta.map((m) => [m.name, m.key])),
      extensions: Object.fromEntries(facts.extensions.map((e) => [e.name, e.identifier])),
      httpStatus: Object.fromEntries(facts.reviewed.httpStatus.map((h) => [String(h.code), h.status])),
      logLevels: facts.reviewed.logLevels.order,
      headerAnnotation: facts.reviewed.headerAnnotation.keyword,
      versions: Object.fromEntries(facts.versions.map((v) => [v.label, { Errors: v.errors.map((e) => e.code), Meta: { Request: v.meta.request, Notification: v.meta.notification, Result: v.meta.result }, Batches: v.batches }])),
      taskStatuses: Object.fromEntries(facts.taskStatuses.map((t) => [t.status, { Definition: t.definition, Members: t.members, Required: t.required }])),
      codes: [code("INTERNAL_ERROR")],
    });
  }, 120_000);

  it.each(subsets.map((s) => [s.join(","), s] as const))("versions %s: gofmt-clean, go build and go vet pass", (_, versions) => {
    const dir = tempDir("mcp-codegen-go-subset-");
    const files = writeGoTree(buildModel({ ...modelOptions, lock, versions: [...versions] }), dir);
    expect([...files.keys()].filter((f) => f.endsWith("/types.go")).length).toBeGreaterThanOrEqual(versions.length);
    expect(check(dir)).toEqual([]);
  }, 300_000);

  const historyDir = path.resolve(process.env.MCP_SPEC_HISTORY_DIR || path.join(toolRoot, "..", "shared", "mcp-spec-history"));
  it("every published history revision the model builds (../shared/mcp-spec-history), in one tree: gofmt-clean, go build and go vet pass", () => {
    expect(existsSync(historyDir), historyDir).toBe(true);
    // A revision the model refuses (a broken file, a version not negotiated by label) is test/pipeline/history.test.ts's.
    const revisions = discoverVersions(historyDir).filter((label) => {
      try {
        buildModel({ schemasDir: historyDir, versions: [label] });
        return true;
      } catch {
        return false;
      }
    });
    expect(revisions.length).toBeGreaterThan(0);
    const dir = tempDir("mcp-codegen-go-history-");
    const files = writeGoTree(buildModel({ schemasDir: historyDir, versions: revisions }), dir);
    for (const revision of revisions) expect(files.has(`${revision.replace(/[^A-Za-z0-9_]/g, "_").toLowerCase()}/types.go`), revision).toBe(true);
    expect(check(dir)).toEqual([]);
  }, 600_000);
});

const modules = [...model.versions.map((v) => ({ label: v.label, version: v, definitions: [] as string[] })), ...(model.extensions ?? []).map((x) => ({ label: extensionLabel(x), version: x.model, definitions: [] as string[] }))];
let dir = "";
let binary = "";

function harness(args: string[]): string {
  const r = spawnSync(binary, args, { encoding: "utf8", maxBuffer: 1 << 28 });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

beforeAll(() => {
  dir = tempDir("mcp-codegen-go-calls-");
  writeGoTree(model, path.join(dir, "tree"));
  const h = writeHarness(dir, modules);
  binary = path.join(dir, "harness-bin");
  const build = go(["build", "-o", binary, "."], h);
  expect(build.status, build.stderr).toBe(0);
}, 300_000);

describe("what the Go packages say", () => {
  it("every package's MethodTable is its entry of `mcp-codegen table --format json`", () => {
    const cli = runBin(["table", "--format", "json"]);
    expect(cli.status, cli.stderr).toBe(0);
    const expected = JSON.parse(cli.stdout) as Record<string, unknown>;
    expect(Object.keys(expected).sort()).toEqual(modules.map((m) => m.label).sort());
    expect(JSON.parse(harness(["table"]))).toEqual(expected);
  });

  it("each package's gate refuses exactly what its table's rows say, at each side and under each cross-era policy", () => {
    const tables = model.tables;
    type Policy = { side: "client" | "server"; acrossEras: { pass: boolean; serve: string[] | null }; refuseCustom: boolean };
    const calls: Array<{ label: string; method: string; policy: Policy }> = [];
    const expected: string[] = [];
    // The README's rule, read from the row: present → through at a receiving side, else wrong_side; removed →
    // refused unless served across eras; later → refused (other_era) unless passed or served; unknown → passes unless refused.
    const verdict = (row: MethodRow | undefined, method: string, p: Policy): string => {
      if (row === undefined || row.status === "extension") return p.refuseCustom ? "unknown" : "";
      if (row.status === "present") return row.receivers.includes(p.side) ? "" : "wrong_side";
      if (!p.acrossEras.pass && (p.acrossEras.serve ?? []).includes(method)) return "";
      if (row.status === "removed") return "removed";
      return p.acrossEras.pass ? "" : "other_era";
    };
    for (const m of modules) {
      const table = tables.get(m.label)!;
      for (const method of [...Object.keys(table), "x-vendor/unknown"]) {
        for (const side of ["client", "server"] as const) {
          for (const acrossEras of [{ pass: true, serve: null }, { pass: false, serve: null }, { pass: false, serve: [method] }]) {
            for (const refuseCustom of [false, true]) {
              const policy = { side, acrossEras, refuseCustom };
              calls.push({ label: m.label, method, policy });
              expected.push(verdict(Object.hasOwn(table, method) ? table[method] : undefined, method, policy));
            }
          }
        }
      }
    }
    writeFileSync(path.join(dir, "gate.json"), JSON.stringify(calls));
    const answers = (JSON.parse(harness(["calls", path.join(dir, "gate.json")])) as Array<{ reason: string }>).map((a) => a.reason);
    expect(answers.length).toBe(expected.length);
    expect(new Set(expected)).toEqual(new Set(["", "wrong_side", "removed", "other_era", "unknown"]));
    const wrong = calls.map((c, i) => (answers[i] === expected[i] ? null : `${c.label} ${c.method} ${JSON.stringify(c.policy)}: ${answers[i]}, expected ${expected[i]}`)).filter((w) => w !== null);
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  it("each package's gate gives the TypeScript gate's verdict (generated/runtime/method-gate.ts) for every method, side and policy", async () => {
    const gate = (await import(pathToFileURL(path.join(generatedDir, "runtime", "method-gate.ts")).href)) as typeof import("../../../generated/runtime/method-gate.js");
    const calls: Array<{ label: string; method: string; policy: unknown }> = [];
    const expected: string[] = [];
    for (const m of modules) {
      const { METHOD_TABLE, protocolVersion } = (await import(pathToFileURL(path.join(generatedDir, m.label, "methods.ts")).href)) as { METHOD_TABLE: never; protocolVersion: string };
      for (const method of [...Object.keys(model.tables.get(m.label)!), "x-vendor/custom"]) {
        for (const side of ["client", "server"] as const) {
          for (const custom of ["pass", "refuse"] as const) {
            for (const later of ["pass", "refuse"] as const) {
              calls.push({ label: m.label, method, policy: { side, acrossEras: { pass: later === "pass", serve: null }, refuseCustom: custom === "refuse" } });
              expected.push(gate.methodRefusal(METHOD_TABLE, method, protocolVersion, side, { custom, later })?.data.reason ?? "");
            }
          }
        }
      }
    }
    expect(new Set(expected)).toEqual(new Set(["", "wrong_side", "removed", "other_era", "unknown"]));
    writeFileSync(path.join(dir, "gate-ts.json"), JSON.stringify(calls));
    const answers = (JSON.parse(harness(["calls", path.join(dir, "gate-ts.json")])) as Array<{ reason: string }>).map((a) => a.reason);
    expect(answers.length).toBe(expected.length);
    const wrong = calls.map((c, i) => (answers[i] === expected[i] ? null : `${c.label} ${c.method} ${JSON.stringify(c.policy)}: Go ${answers[i]}, TypeScript ${expected[i]}`)).filter((w) => w !== null);
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  it("each package's normalizers give every request's result the shape its row names; resources/subscribe's row is empty exactly when its result declares no member but _meta", () => {
    const values = [{ _meta: { k: 1 }, x: 1, n: null }, { _meta: "s", x: [1] }, "text"];
    const calls: Array<{ label: string; method: string; value: unknown }> = [];
    const expected: Array<unknown> = [];
    let subscribe = 0;
    for (const m of modules) {
      for (const [method, row] of Object.entries(model.tables.get(m.label)!)) {
        if (row.status !== "present" || row.normalizer === null) continue;
        const empty = row.normalizer.shape === "empty";
        if (method === "resources/subscribe" || method === "resources/unsubscribe") {
          // The headline rule, read from the schema (not the IR): one result whose members, its own and those it
          // takes by $ref and allOf, are only _meta (and resultType in the modern era). A legacy draft whose
          // Result carries another member (result_type) answers subscribe with an object.
          const declared = row.results!.length === 1 ? members(m.version.definitions, row.results![0]) : null;
          const allowed = m.version.era === "modern" ? ["_meta", "resultType"] : ["_meta"];
          expect(empty, `${m.label} ${method}: ${row.results!.join(" | ")} declares ${declared === null ? "a union" : [...declared].join(", ")}`).toBe(declared !== null && [...declared].every((k) => allowed.includes(k)));
          subscribe++;
        }
        const typed = (o: Record<string, unknown>) => (row.resultTypes === null ? o : { ...o, resultType: row.resultTypes[0] });
        const outcomes = empty ? [typed({ _meta: { k: 1 } }), typed({}), typed({})] : [typed({ _meta: { k: 1 }, x: 1 }), typed({ x: [1] }), "error"];
        values.forEach((value, i) => {
          calls.push({ label: m.label, method, value });
          expected.push(outcomes[i]);
        });
      }
    }
    expect(subscribe).toBeGreaterThan(0);
    writeFileSync(path.join(dir, "normalize.json"), JSON.stringify(calls));
    const answers = JSON.parse(harness(["calls", path.join(dir, "normalize.json")])) as Array<{ result?: unknown; error?: string }>;
    const got = answers.map((a) => (a.error !== undefined ? "error" : a.result));
    const wrong = calls.map((c, i) => ({ c, got: got[i], want: expected[i] })).filter((x) => JSON.stringify(x.got) !== JSON.stringify(x.want) && !(typeof x.got === "object" && typeof x.want === "object" && JSON.stringify(sortKeys(x.got)) === JSON.stringify(sortKeys(x.want))));
    expect(wrong.slice(0, 5)).toEqual([]);
  });
});

/** The member names a definition declares, its own and those it takes by `$ref` and `allOf`; null when it is (or takes) a union. */
function members(definitions: Readonly<Record<string, Record<string, unknown>>>, name: string): Set<string> | null {
  const out = new Set<string>();
  const seen = new Set<string>();
  const walk = (s: Record<string, unknown> | undefined): boolean => {
    if (s === undefined) return true;
    if (s.anyOf !== undefined || s.oneOf !== undefined) return false;
    for (const k of Object.keys((s.properties ?? {}) as object)) out.add(k);
    const target = typeof s.$ref === "string" ? decodeURIComponent(s.$ref.replace(/^#\/(\$defs|definitions)\//, "")) : undefined;
    if (target !== undefined && !seen.has(target)) {
      seen.add(target);
      if (!walk(definitions[target])) return false;
    }
    return ((s.allOf ?? []) as Array<Record<string, unknown>>).every(walk);
  };
  return walk(definitions[name]) ? out : null;
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (typeof v !== "object" || v === null) return v;
  return Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, x]) => [k, sortKeys(x)]));
}
