// The recipe (generated/python/ADOPTING.md and python-sdk-2.3.0.patch) on copies of the official Python
// SDK 2.3.0: the tree vendored with the command ADOPTING.md names (and `--check` on it), the patch applied
// to a pristine copy, then the SDK's own suite runs as shipped and as patched in .venv-python-sdk/
// (requirements-python-sdk.txt) and is compared test by test; and probes of what the suite never sends
// (sdk_probes.py) answer as the shipped SDK does, or differently only where the schema says it is wrong.
//
// The part of the suite that runs: every test file under tests/ (not tests/docs) that imports mcp_types
// itself (`import mcp_types` / `from mcp_types`, at any indentation): 176 of its 232 files, 4,136 of its 6,055 tests.
import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureSdkVenv, installSdk, sdkPython } from "../../../tools/python-sdk-venv.mjs";
import { root, runCli, tempDir } from "../../support.js";
import { pythonTestDir, pythonTree } from "./support.js";

const pristine = path.join(root, "..", "shared", "python-sdk", "mcp-2.3.0");
// Outside the repository: `git apply` inside a repository's subfolder would skip the SDK's paths.
const work = tempDir("mcp-codegen-python-sdk-");
const shipped = path.join(work, "shipped");
const patched = path.join(work, "patched");
const vendored = path.join(patched, "src", "mcp-codegen");
/** The versions the SDK knows (mcp_types.version.KNOWN_PROTOCOL_VERSIONS), read from the pristine copy. */
let versions: string[] = [];
let command: string[] = [];

/**
 * Every test whose outcome differs between the shipped and the patched SDK, with its cause: none. (The
 * SDK's tests that pinned the replaced packages are pointed at the generated ones by the patch itself.)
 */
const CHANGED: ReadonlyMap<string, string> = new Map();

type Outcome = "passed" | "failed" | "error" | "skipped" | "xfailed";

/** The files of the suite that import mcp_types themselves. */
function suiteFiles(sdk: string): string[] {
  return readdirSync(path.join(sdk, "tests"), { recursive: true, encoding: "utf8" })
    .filter((f) => /(^|\/)test_[^/]*\.py$/.test(f) && !f.startsWith("docs/"))
    .filter((f) => /^\s*(import mcp_types|from mcp_types)\b/m.test(readFileSync(path.join(sdk, "tests", f), "utf8")))
    .map((f) => path.join("tests", f))
    .sort();
}

/** pytest's JUnit XML: test id (file::name) → outcome. */
function outcomes(xml: string): Map<string, Outcome> {
  const out = new Map<string, Outcome>();
  const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
  for (const m of xml.matchAll(/<testcase ([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const attrs = Object.fromEntries([...m[1].matchAll(/(\w+)="([^"]*)"/g)].map((a) => [a[1], unescape(a[2])]));
    // classname is the module's dotted path, then the test's classes: a pytest node id again.
    const parts = attrs.classname.split(".");
    const module = parts.map((p) => /^test_/.test(p)).lastIndexOf(true);
    const file = `${parts.slice(0, module + 1).join("/")}.py`;
    const classes = parts.slice(module + 1);
    const body = m[3] ?? "";
    const outcome: Outcome = /<failure\b/.test(body) ? "failed" : /<error\b/.test(body) ? "error" : /<skipped[^>]*type="pytest\.xfail"/.test(body) ? "xfailed" : /<skipped\b/.test(body) ? "skipped" : "passed";
    out.set([file, ...classes, attrs.name].join("::"), outcome);
  }
  return out;
}

/** The suite (or the tests named) in one SDK copy, two workers, as the SDK README runs it; its outcomes. */
function pytest(sdk: string, targets: string[], workers: number): Promise<Map<string, Outcome>> {
  installSdk(sdk);
  const xml = path.join(sdk, ".rig-junit.xml");
  rmSync(xml, { force: true });
  const args = ["-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:pretty", "--color=no", "-n", String(workers), `--junitxml=${xml}`, ...targets];
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, PYTHONDONTWRITEBYTECODE: "1" };
    delete env.PYTHONPATH;
    const child = spawn(sdkPython, args, { cwd: sdk, env, stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (d) => (err = (err + d).slice(-4000)));
    // Bounded: the part takes about 6 minutes on two cores (7 with the machine shared).
    const timer = setTimeout(() => child.kill("SIGKILL"), 40 * 60_000);
    child.on("close", () => {
      clearTimeout(timer);
      if (!existsSync(xml)) reject(new Error(`pytest in ${sdk} wrote no report:\n${err}`));
      else resolve(outcomes(readFileSync(xml, "utf8")));
    });
  });
}

/** The probes' answers in one SDK copy. */
function probe(sdk: string): Record<string, unknown> {
  installSdk(sdk);
  const env = { ...process.env };
  delete env.PYTHONPATH;
  const r = spawnSync(sdkPython, [path.join(pythonTestDir, "sdk_probes.py")], { cwd: sdk, env, encoding: "utf8" });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

beforeAll(async () => {
  ensureSdkVenv();
  for (const dir of [shipped, patched]) cpSync(pristine, dir, { recursive: true });
  const known = spawnSync(sdkPython, ["-c", "import sys; sys.path.insert(0, 'src/mcp-types/mcp_types'); import version; print(','.join(version.KNOWN_PROTOCOL_VERSIONS))"], { cwd: pristine, encoding: "utf8" });
  expect(known.status, known.stderr).toBe(0);
  versions = known.stdout.trim().split(",");
  command = ["generate", "--target", "python", "--versions", versions.join(","), "--out", vendored];
  const generated = await runCli(command);
  expect(generated.status, generated.stderr).toBe(0);
}, 20 * 60_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the recipe", () => {
  it("ADOPTING.md names the vendoring command for the SDK's versions, and the vendored tree carries the recipe", () => {
    const recipe = readFileSync(path.join(pythonTree, "ADOPTING.md"), "utf8");
    expect(recipe).toContain(`--versions ${versions.join(",")} --out ../python-sdk/src/mcp-codegen`);
    // The same patch behind each tree's own provenance header.
    const diff = (file: string) => readFileSync(file, "utf8").replace(/^[\s\S]*?(?=^diff --git )/m, "");
    expect(diff(path.join(vendored, "python-sdk-2.3.0.patch"))).toBe(diff(path.join(pythonTree, "python-sdk-2.3.0.patch")));
    expect(diff(path.join(vendored, "python-sdk-2.3.0.patch"))).toMatch(/^diff --git a\/src\/mcp-types\/mcp_types\/methods.py /);
    expect(existsSync(path.join(vendored, "mcp_codegen", "v2025_11_25.py"))).toBe(true);
  });

  it("--check on the vendored tree exits 0, and 1 naming the file once it is edited", async () => {
    const fresh = await runCli([...command, "--check", "--no-cache"]);
    expect(fresh.status, fresh.stderr).toBe(0);
    const file = path.join(vendored, "python-sdk-2.3.0.patch");
    const text = readFileSync(file, "utf8");
    appendFileSync(file, "\n");
    const stale = await runCli([...command, "--check", "--no-cache"]);
    writeFileSync(file, text);
    expect(stale.status).toBe(1);
    expect(stale.stderr).toContain("python-sdk-2.3.0.patch (stale)");
  });

  it("the patch applies cleanly to the pristine copy, and removes every hand-written method map row", () => {
    const patch = path.join(vendored, "python-sdk-2.3.0.patch");
    const check = spawnSync("git", ["apply", "--check", "--verbose", patch], { cwd: patched, encoding: "utf8" });
    expect(check.status, check.stderr).toBe(0);
    const applied = spawnSync("git", ["apply", patch], { cwd: patched, encoding: "utf8" });
    expect(applied.status, applied.stderr).toBe(0);
    const methodsPy = readFileSync(path.join(patched, "src", "mcp-types", "mcp_types", "methods.py"), "utf8");
    // The shipped file keys ~200 rows by ("method", "version"); the patched one none, and imports no _v* package.
    expect(readFileSync(path.join(pristine, "src", "mcp-types", "mcp_types", "methods.py"), "utf8").match(/^\s+\("[^"]+", "\d{4}-\d\d-\d\d"\): /gm)?.length).toBeGreaterThan(150);
    expect(methodsPy.match(/^\s+\("[^"]+", "\d{4}-\d\d-\d\d"\): /gm)).toBeNull();
    expect(methodsPy).not.toMatch(/_v2025_11_25|_v2026_07_28/);
    expect(methodsPy).toContain("import mcp_codegen as _generated");
  });

  it("the patched SDK reads its maps from the vendored tree, and subscribe results from its normalizers", async () => {
    installSdk(patched);
    const script = [
      "import mcp_codegen, mcp_types.methods as m",
      "v = mcp_codegen.version('2025-11-25')",
      "print(m.CLIENT_REQUESTS[('tools/call', '2025-06-18')].__module__, m.SERVER_RESULTS[('tools/call', '2026-07-28')])",
      "print(sorted({k[0] for k in m.CLIENT_REQUESTS if k[1] == '2025-11-25'}) == sorted(k for k, e in v.METHOD_TABLE.items() if e['kind'] == 'request' and e['status'] == 'present' and e['sender'] != 'server' and not k.startswith('tasks/')))",
      "print(m.serialize_server_result('resources/subscribe', '2025-06-18', {'_meta': {'a': 1}, 'x': 2}), m.serialize_server_result('resources/unsubscribe', '2024-11-05', {'x': 1}))",
    ].join("\n");
    const env = { ...process.env };
    delete env.PYTHONPATH;
    const r = spawnSync(sdkPython, ["-c", script], { cwd: patched, env, encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe(
      "mcp_codegen.v2025_11_25 mcp_codegen.v2026_07_28.CallToolResult | mcp_codegen.v2026_07_28.InputRequiredResult\nTrue\n{'_meta': {'a': 1}} {}\n",
    );
  });
});

describe("the patched SDK's server results at a pre-2026 session: the generated projection strips the later revision's members", () => {
  // The hints `mcp.server.runner` puts on a cacheable result (`ttlMs`, `cacheScope`) and the `resultType` a
  // handler written for 2026-07-28 sets; 2025-11-25's ListToolsResult declares none of them (read from the schema).
  const schema = JSON.parse(readFileSync(path.join(root, "schemas", "2025-11-25", "schema.json"), "utf8")) as {
    $defs?: Record<string, { properties?: Record<string, unknown> }>;
    definitions?: Record<string, { properties?: Record<string, unknown> }>;
  };
  const laterMembers = ["resultType", "ttlMs", "cacheScope"];

  it("2025-11-25's ListToolsResult declares none of resultType, ttlMs, cacheScope", () => {
    const declared = Object.keys((schema.$defs ?? schema.definitions)!.ListToolsResult.properties ?? {});
    expect(declared).toContain("tools");
    for (const member of laterMembers) expect(declared).not.toContain(member);
  });

  it("a 2025-11-25 session's tools/list result has none of them, with the sieve off too (the projection's doing), the rest sent as is", () => {
    installSdk(patched);
    const script = [
      "import asyncio, dataclasses, json",
      "from mcp_types import methods",
      "from mcp_codegen import runtime",
      "data = {'tools': [{'name': 'echo', 'inputSchema': {'type': 'object'}}], 'ttlMs': 60000, 'cacheScope': 'public', 'resultType': 'complete', '_meta': {'k': 1}}",
      "out = {'sieved': methods.serialize_server_result('tools/list', '2025-11-25', data), 'modern': methods.serialize_server_result('tools/list', '2026-07-28', data)}",
      "policy = methods.SDK_POLICY",
      "methods.SDK_POLICY = dataclasses.replace(policy, sieve=False)",
      "out['unsieved'] = methods.serialize_server_result('tools/list', '2025-11-25', data)",
      // The control: the same validated value dumped without the sieve and without the projection keeps them.
      "out['control'] = runtime.dump(methods._validate(methods.SERVER_RESULTS[('tools/list', '2025-11-25')], data), methods.SDK_POLICY)",
      "methods.SDK_POLICY = policy",
      "print(json.dumps(out, sort_keys=True))",
    ].join("\n");
    const env = { ...process.env };
    delete env.PYTHONPATH;
    const r = spawnSync(sdkPython, ["-c", script], { cwd: patched, env, encoding: "utf8" });
    expect(r.stderr).toBe("");
    const out = JSON.parse(r.stdout) as Record<string, Record<string, unknown>>;
    const rest = { _meta: { k: 1 }, tools: [{ inputSchema: { type: "object" }, name: "echo" }] };
    expect(out.sieved).toEqual(rest);
    expect(out.unsieved).toEqual(rest);
    expect(out.control).toEqual({ ...rest, resultType: "complete", ttlMs: 60000, cacheScope: "public" });
    expect(out.modern).toEqual({ ...rest, resultType: "complete", ttlMs: 60000, cacheScope: "public" });
  });

  it("through the SDK's server: its own two pre-2026 cache-hint tests pass with the sieve off, and fail with the projection off too", async () => {
    // tests/server/test_runner.py's tests that a 2025-11-25 session gets only the schema's fields from tools/list
    // (a handler-set and a configured ttlMs/cacheScope), rerun with the sieve off: the projection alone strips
    // them; with the projection off as well (the control) they fail, so the rerun can tell.
    const file = path.join(patched, "tests", "server", "test_rig_legacy_projection.py");
    const names = ["test_runner_outbound_sieve_drops_2026_only_result_keys_at_a_pre_2026_version", "test_runner_outbound_sieve_drops_configured_cache_hints_at_a_pre_2026_version"];
    writeFileSync(
      file,
      [
        "import dataclasses",
        "import pytest",
        "from mcp_types import methods",
        `from tests.server.test_runner import server, ${names.join(", ")}`,
        "",
        "",
        '@pytest.fixture(params=["projection", "neither"], autouse=True)',
        "def outbound(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:",
        '    monkeypatch.setattr(methods, "SDK_POLICY", dataclasses.replace(methods.SDK_POLICY, sieve=False))',
        '    if request.param == "neither":',
        '        monkeypatch.setattr(methods, "_project_legacy", lambda method, version, data: data)',
        "",
      ].join("\n"),
    );
    try {
      const run = await pytest(patched, [path.relative(patched, file)], 1);
      const outcome = (name: string, param: string) => run.get(`tests/server/test_rig_legacy_projection.py::${name}[${param}]`);
      for (const name of names) {
        expect(outcome(name, "projection"), name).toBe("passed");
        expect(outcome(name, "neither"), name).toBe("failed");
      }
    } finally {
      rmSync(file, { force: true });
    }
  }, 10 * 60_000);
});

describe("the Python SDK's own suite (the files that import mcp_types)", () => {
  it("passes as patched at least every test it passes as shipped; every changed outcome is listed with its cause", async () => {
    const files = suiteFiles(pristine);
    expect(files).toEqual(suiteFiles(patched));
    const before = await pytest(shipped, files, 2);
    const after = await pytest(patched, files, 2);
    const count = (run: Map<string, Outcome>) => [...run.values()].filter((o) => o === "passed").length;
    // The suite ran: 4,136 tests in these files as shipped.
    expect(before.size).toBeGreaterThan(3000);
    const changed = () => [...new Set([...before.keys(), ...after.keys()])].filter((id) => before.get(id) !== after.get(id)).sort();
    // A changed test runs once more in both copies, alone (some SDK tests wait on subprocesses and timers,
    // and the machine is shared): a change the rerun repeats is the recipe's.
    const first = changed();
    if (first.length > 0 && first.length <= 50) {
      const b = await pytest(shipped, first, 1);
      const a = await pytest(patched, first, 1);
      for (const id of first) {
        if (b.has(id)) before.set(id, b.get(id)!);
        if (a.has(id)) after.set(id, a.get(id)!);
      }
    }
    const report = [
      `shipped ${count(before)}/${before.size}, patched ${count(after)}/${after.size}`,
      ...[...before].filter(([id, o]) => o !== "passed" && after.get(id) === o).map(([id, o]) => `${id}: ${o} in both`),
      ...changed().map((id) => `${id}: shipped ${before.get(id) ?? "absent"}, patched ${after.get(id) ?? "absent"}${CHANGED.has(id) ? ` (${CHANGED.get(id)})` : ""}`),
    ];
    writeFileSync(path.join(work, "report.txt"), `${report.join("\n")}\n`);
    console.log(`Python SDK suite (files importing mcp_types): ${report.join("\n  ")}`);
    expect(changed().filter((id) => !CHANGED.has(id))).toEqual([]);
    expect(after.size).toBe(before.size);
    expect(count(after)).toBeGreaterThanOrEqual(count(before));
  }, 90 * 60_000);
});

/** Probes answered differently by the patched SDK (at every handshake version the SDK lists), with the cause. */
const PROBE_DIFFERENCES: ReadonlyArray<[RegExp, string]> = [
  [
    /^resources\/(un)?subscribe _meta progressToken true \d/,
    "the schema's ProgressToken is a string or an integer: shipped coerces true to 1 (pydantic's lax mode), the generated validator refuses it (-32602)",
  ],
  [
    /^resources\/(un)?subscribe result extra \d/,
    'the seed\'s rule (the generated normalizer): an empty result is {"_meta": meta} or {}; shipped also sent the handler\'s other members',
  ],
];

describe("probes of what the suite never sends (sdk_probes.py)", () => {
  it("custom methods, the modern envelope, subscribe with a _meta at every legacy version, the methods 2026-07-28 removed: answered as shipped, or as the schema says", () => {
    // The patch was applied by the recipe tests above (vitest runs a file's tests in order).
    const before = probe(shipped);
    const after = probe(patched);
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    expect(Object.keys(before).length).toBeGreaterThan(150);
    const differ = Object.keys(before).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])).sort();
    const cause = (k: string) => PROBE_DIFFERENCES.find(([pattern]) => pattern.test(k))?.[1];
    const unexplained = differ.filter((k) => cause(k) === undefined).map((k) => `${k}: shipped ${JSON.stringify(before[k])}, patched ${JSON.stringify(after[k])}`);
    expect(unexplained).toEqual([]);
    // Each listed difference is seen, at every handshake version (the subscribe probes run at each).
    const handshake = Object.keys(before).filter((k) => k.startsWith("resources/subscribe result {} ")).length;
    expect(handshake).toBeGreaterThanOrEqual(4);
    for (const [pattern] of PROBE_DIFFERENCES) expect(differ.filter((k) => pattern.test(k)).length, String(pattern)).toBe(2 * handshake);
    // The answers themselves, for the report.
    console.log(`probes: ${Object.keys(before).length}, answered differently: ${differ.length}\n  ${differ.map((k) => `${k}: shipped ${JSON.stringify(before[k])}, patched ${JSON.stringify(after[k])} (${cause(k)})`).join("\n  ")}`);
  }, 10 * 60_000);
});
