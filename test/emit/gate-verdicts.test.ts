// The three gates give one verdict: for every (version or extension module, method, side) of the method table, a custom
// method included, under each gate policy, the TypeScript gate (generated/runtime/method-gate.ts over
// <label>/methods.ts' METHOD_TABLE), the Ruby gate (Gate / Runtime.refusal) and the Python gate
// (method_error) refuse for the same reason or all let it through. The TypeScript runtime's actual
// answers are held to the Ruby and Python verdicts too: every method sent as a request to each
// version's server and client dispatcher (DISPATCHER_POLICY: custom and later refused) and to the
// server router (the same, with a registered custom method served, as custom=pass), the -32601's
// `data.reason` being the verdict. The regressions of their old disagreements are asserted against
// the schemas' own facts (the table test holds the table to them).
import path from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { moduleName } from "../../generator/emit/python/language.js";
import { moduleConstant } from "../../generator/emit/ruby/language.js";
import { META_CLIENT_CAPABILITIES, META_PROTOCOL_VERSION } from "../../generated/router.js";
import { ensureSchemas, generatedDir, runCli } from "../support.js";
import { run as python } from "./python/support.js";
import { ruby } from "./ruby/support.js";

type Row = { status: string; kind: string; sender: string; receivers: string[]; nearest: string | null; extensions: string[]; verdicts: import("../../generated/runtime/method-gate.js").GateRow["verdicts"] };
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
/** What the TypeScript dispatchers and router answered, by the key of the policy they apply. */
let dispatched: Verdicts;
let routed: Verdicts;
/** Labels whose router answers are left out (an extension module of a legacy core). */
let unrouted: string[];

type Answer = { error?: { code: number; data?: { reason?: string } } } | undefined;
/** The gate's verdict in an answer: the reason of a -32601 refusal, else null (served: a result, another error, or no handler). */
const verdictOf = (response: unknown): string | null => {
  const answer = response as Answer;
  return answer?.error?.code === -32601 ? (answer.error.data?.reason ?? null) : null;
};
/** DISPATCHER_POLICY, which the router's answers follow too for a method the version does not register as custom. */
const REFUSE = POLICIES[3];
/** A registered custom method at the router: custom=pass, later=refuse. */
const REGISTERED = POLICIES[1];

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

  // The TypeScript runtime's answers: a handler for every name, so what is refused is the gate's doing.
  const names = [...new Set([...Object.values(tables).flatMap((t) => Object.keys(t)), CUSTOM])];
  const every = Object.fromEntries(names.map((m) => [m, () => ({})]));
  const quiet = { validateResults: false, onError: () => {} };
  const info: Record<string, { protocolVersion: string; era: string; createServerDispatcher: Function; createClientDispatcher: Function }> = {};
  for (const label of labels) info[label] = await import(pathToFileURL(path.join(generatedDir, label, "index.ts")).href);
  const extensionsOf = (label: string) => [...new Set(Object.values(tables[label]).filter((r) => r.status === "present").flatMap((r) => r.extensions))];
  const request = (label: string, id: number, method: string) => {
    const { protocolVersion, era } = info[label];
    const extensions = Object.fromEntries(extensionsOf(label).map((e) => [e, {}]));
    const clientCapabilities = label.includes("+") ? { extensions } : {};
    const params = era === "modern" ? { _meta: { [META_PROTOCOL_VERSION]: protocolVersion, [META_CLIENT_CAPABILITIES]: clientCapabilities } } : {};
    return { jsonrpc: "2.0", id, method, params };
  };
  dispatched = {};
  for (const label of labels) {
    for (const side of SIDES) {
      const create = side === "server" ? info[label].createServerDispatcher : info[label].createClientDispatcher;
      const d = create(every, quiet) as { handle(m: unknown): Promise<Answer> };
      for (const method of names) dispatched[key(label, method, side, REFUSE)] = verdictOf(await d.handle(request(label, 1, method)));
    }
  }
  // The server router: every core version served with CUSTOM registered; a second router serves the
  // modern versions with their extensions, and each extension module's requests negotiate it.
  const { createServerRouter } = (await import(pathToFileURL(path.join(generatedDir, "router.ts")).href)) as typeof import("../../generated/router.js");
  const custom = { [CUSTOM]: { kind: "request", handler: () => ({}) } };
  const served = (label: string, extended: boolean) => ({
    handlers: every,
    capabilities: {},
    dispatcher: quiet,
    custom,
    ...(extended ? { extensions: Object.fromEntries(labels.filter((l) => l.startsWith(`${label}+`)).flatMap((l) => extensionsOf(l)).map((e) => [e, { handlers: every }])) } : {}),
  });
  const routerOf = (extended: boolean) =>
    createServerRouter({ serverInfo: { name: "gate", version: "1" }, onError: () => {}, versions: Object.fromEntries(core.map((l) => [l, served(l, extended)])) as never });
  const plain = routerOf(false);
  const extended = routerOf(true);
  routed = {};
  unrouted = [];
  for (const label of labels) {
    // The router serves extensions in the modern era only: an extension module layered onto a legacy core
    // (a bump re-pinning draft to a legacy revision) has no route through it, and is left out, said below.
    if (label.includes("+") && info[label].era === "legacy") {
      unrouted.push(label);
      continue;
    }
    const policyOf = (method: string) => (method === CUSTOM ? REGISTERED : REFUSE);
    if (info[label].era === "legacy") {
      const connection = plain.connect(() => undefined);
      const init = { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: label, capabilities: {}, clientInfo: { name: "c", version: "1" } } };
      expect((await connection.handle(init)) as { result?: { protocolVersion?: string } }).toMatchObject({ result: { protocolVersion: label } });
      for (const method of names) routed[key(label, method, "server", policyOf(method))] = verdictOf(await connection.handle(request(label, 1, method)));
      connection.close();
    } else {
      const router = label.includes("+") ? extended : plain;
      for (const method of names) routed[key(label, method, "server", policyOf(method))] = verdictOf(await router.handle(request(label, 1, method)));
    }
  }
  plain.close();
  extended.close();

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

  // Every version and extension module (`2026-07-28+tasks` → mcp_codegen.v2026_07_28_tasks).
  const pyCases = cases(labels);
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

  it("Python agrees with them for every version and extension module, method, side and policy", () => {
    expect(Object.keys(py).length).toBe(Object.keys(ts).length);
    expect(Object.keys(py).filter((k) => k.split(" ")[0].includes("+")).length).toBeGreaterThan(0);
    expect(py).toEqual(ts);
  });

  it("the TypeScript dispatchers' answers are the Ruby gate's verdicts under DISPATCHER_POLICY, for every version and extension module, method (a custom one included) and side", () => {
    expect(Object.keys(dispatched).length).toBe(Object.keys(tables).reduce((n, l) => n + 2 * (Object.keys(tables[l]).length + 1), 0));
    expect(dispatched).toEqual(Object.fromEntries(Object.keys(dispatched).map((k) => [k, rb[k]])));
    expect(Object.values(dispatched).filter((v) => v !== null).length).toBeGreaterThan(0);
  });

  it("the TypeScript dispatchers' answers are the Python gate's verdicts, for every version and extension module, method and side", () => {
    expect(dispatched).toEqual(Object.fromEntries(Object.keys(dispatched).map((k) => [k, py[k]])));
  });

  it("the TypeScript router's answers are the Ruby and Python gates' verdicts (the dispatchers' policy; a registered custom method passes), for every version and extension module and method", () => {
    if (unrouted.length > 0) console.log(`gate-verdicts: the router's answers leave out ${unrouted.join(", ")} (an extension module of a legacy core: the router serves extensions in the modern era only)`);
    const routable = Object.keys(tables).filter((l) => !unrouted.includes(l));
    expect(Object.keys(routed).length).toBe(routable.reduce((n, l) => n + Object.keys(tables[l]).length + 1, 0));
    expect(routed).toEqual(Object.fromEntries(Object.keys(routed).map((k) => [k, rb[k]])));
    expect(routed).toEqual(Object.fromEntries(Object.keys(routed).map((k) => [k, py[k]])));
    for (const label of routable) expect(routed[key(label, CUSTOM, "server", REGISTERED)], label).toBeNull();
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
