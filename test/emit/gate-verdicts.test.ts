// The three gates give one verdict: for every (version, method, side) of the method table, a custom
// method included, under each gate policy, the TypeScript gate (generated/runtime/method-gate.ts over
// <label>/methods.ts' METHOD_TABLE), the Ruby gate (Gate / Runtime.refusal) and the Python gate
// (method_error) refuse for the same reason or all let it through. The regressions of their old
// disagreements are asserted against the schemas' own facts (the table test holds the table to them).
import path from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { moduleName } from "../../generator/emit/python/language.js";
import { moduleConstant } from "../../generator/emit/ruby/language.js";
import { ensureSchemas, generatedDir, runCli } from "../support.js";
import { run as python } from "./python/support.js";
import { ruby } from "./ruby/support.js";

type Row = { status: string; kind: string; sender: string; receivers: string[]; nearest: string | null };
type Tables = Record<string, Record<string, Row>>;
type Verdicts = Record<string, string | null>;

const POLICIES = [
  { custom: "pass", later: "pass" },
  { custom: "pass", later: "refuse" },
  { custom: "refuse", later: "pass" },
  { custom: "refuse", later: "refuse" },
] as const;
const SIDES = ["client", "server"] as const;
const CUSTOM = "x-vendor/custom";

let tables: Tables;
const key = (label: string, method: string, side: string, p: (typeof POLICIES)[number]) => `${label} ${method} ${side} custom=${p.custom} later=${p.later}`;
const cases = (labels: string[]) =>
  labels.flatMap((label) => [...Object.keys(tables[label]), CUSTOM].flatMap((method) => SIDES.flatMap((side) => POLICIES.map((policy) => ({ label, method, side, policy })))));

let ts: Verdicts;
let rb: Verdicts;
let py: Verdicts;

beforeAll(async () => {
  await ensureSchemas();
  const r = await runCli(["table", "--format", "json"]);
  expect(r.status).toBe(0);
  tables = JSON.parse(r.stdout) as Tables;
  const labels = Object.keys(tables);
  const core = labels.filter((l) => !l.includes("+"));

  const gate = (await import(pathToFileURL(path.join(generatedDir, "runtime", "method-gate.ts")).href)) as typeof import("../../generated/runtime/method-gate.js");
  ts = {};
  for (const label of labels) {
    const { METHOD_TABLE, protocolVersion } = (await import(pathToFileURL(path.join(generatedDir, label, "methods.ts")).href)) as { METHOD_TABLE: Record<string, Row>; protocolVersion: string };
    for (const c of cases([label])) ts[key(c.label, c.method, c.side, c.policy)] = gate.methodRefusal(METHOD_TABLE, c.method, protocolVersion, c.side, c.policy)?.data.reason ?? null;
  }

  const rbScript = [
    'require "json"',
    'require "mcp_codegen"',
    "cases = JSON.parse($stdin.read)",
    "out = cases.map do |c|",
    '  mod = McpCodegen.const_get(c["constant"])',
    '  across = c["later"] == "pass" ? :pass : :refuse',
    '  error = McpCodegen::Runtime.refusal(c["method"], mod, c["side"].to_sym, across, c["custom"].to_sym)',
    '  if !c["label"].include?("+")',
    '    via_gate = McpCodegen::Gate.new(side: c["side"].to_sym, across_eras: across, custom: c["custom"].to_sym).refusal(c["method"], c["label"])',
    '    raise "Gate and Runtime.refusal differ: #{c}" unless via_gate&.to_h == error&.to_h',
    "  end",
    '  error && error.data[:reason]',
    "end",
    "puts JSON.generate(out)",
  ].join("\n");
  const all = cases(labels);
  const rr = ruby(["-e", rbScript], { input: JSON.stringify(all.map((c) => ({ label: c.label, constant: moduleConstant(c.label), method: c.method, side: c.side, ...c.policy }))) });
  if (rr.status !== 0) throw new Error(rr.stderr);
  const rbOut = JSON.parse(rr.stdout) as Array<string | null>;
  rb = Object.fromEntries(all.map((c, i) => [key(c.label, c.method, c.side, c.policy), rbOut[i]]));

  const pyCases = cases(core);
  const pyScript = [
    "import importlib, json, sys",
    "out = []",
    "for c in json.load(sys.stdin):",
    "    module = importlib.import_module('mcp_codegen.' + c['module'])",
    "    error = module.method_error(c['method'], c['side'], {'custom': c['custom'], 'later': c['later']})",
    "    out.append(None if error is None else error['data']['reason'])",
    "print(json.dumps(out))",
  ].join("\n");
  const pr = python("python", ["-c", pyScript], { input: JSON.stringify(pyCases.map((c) => ({ module: moduleName(c.label), method: c.method, side: c.side, ...c.policy }))) });
  if (pr.status !== 0) throw new Error(pr.stderr);
  const pyOut = JSON.parse(pr.stdout) as Array<string | null>;
  py = Object.fromEntries(pyCases.map((c, i) => [key(c.label, c.method, c.side, c.policy), pyOut[i]]));
}, 600_000);

describe("the gates' verdicts", () => {
  it("TypeScript and Ruby agree for every version and extension module, method (a custom one included), side and policy", () => {
    expect(Object.keys(rb).length).toBe(Object.keys(ts).length);
    expect(rb).toEqual(ts);
  });

  it("Python agrees with them for every version, method, side and policy", () => {
    const core = Object.fromEntries(Object.entries(ts).filter(([k]) => !k.split(" ")[0].includes("+")));
    expect(Object.keys(py).length).toBe(Object.keys(core).length);
    expect(py).toEqual(core);
  });

  it("regression: where draft (any version) dropped initialize and ping, every gate refuses them as removed, whatever the policy", () => {
    const core = Object.keys(tables).filter((l) => !l.includes("+"));
    const dropped = core.flatMap((label) => ["initialize", "ping"].filter((m) => tables[label][m]?.status === "removed").map((m) => [label, m] as const));
    expect(dropped.map(([, m]) => m)).toContain("initialize");
    for (const [label, method] of dropped) for (const p of POLICIES) for (const v of [ts, rb, py]) expect(v[key(label, method, "server", p)], `${label} ${method}`).toBe("removed");
  });

  it("regression: a request only a server sends, sent to a server, is refused by every gate (wrong side)", () => {
    const found = Object.entries(tables)
      .filter(([label]) => !label.includes("+"))
      .flatMap(([label, t]) => Object.entries(t).filter(([, r]) => r.status === "present" && r.kind === "request" && r.sender === "server").map(([m]) => [label, m] as const));
    expect(found.length).toBeGreaterThan(0);
    for (const [label, method] of found) for (const p of POLICIES) for (const v of [ts, rb, py]) expect(v[key(label, method, "server", p)], `${label} ${method}`).toBe("wrong_side");
  });

  it("a custom method passes under custom=pass and is refused as unknown under custom=refuse, in every target", () => {
    for (const label of Object.keys(tables).filter((l) => !l.includes("+"))) {
      for (const v of [ts, rb, py]) {
        expect(v[key(label, CUSTOM, "server", POLICIES[0])]).toBeNull();
        expect(v[key(label, CUSTOM, "server", POLICIES[3])]).toBe("unknown");
      }
    }
  });
});
