// The recipe (generated/typescript-sdk/ADOPTING.md and typescript-sdk-2.0.0.patch) on copies of the official
// TypeScript SDK 2.0.0 (../shared/typescript-sdk): both installed with the pinned pnpm (tools/pnpm, set up by
// tools/setup.ts) as the SDK's README says, the tables and schemas vendored (ADOPTING.md's commands) and the patch applied to one, then every
// package's suite runs in each (the SDK README's 3,674 tests: core-internal 1,433, client 797, server 468, codemod
// 629, server-legacy 168, node 99, express 42, fastify 22, hono 14, core 2) and they are compared test by test.
// The seven packages the patch does not change take about 45 s per copy on two idle cores; the whole file took
// 10 to 11 minutes on the shared two cores (load 4-5): the suites about 5, the conformance runs 4 to 5.
// After the suites: a test written into each copy's server package (the subscribe results), then the SDK's own
// conformance runs in both copies (about three minutes per copy: see the last describe).
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root, tempDir } from "../../support.js";

const pristine = path.join(root, "..", "shared", "typescript-sdk", "typescript-sdk-2.0.0");
const tree = path.join(root, "generated", "typescript-sdk");
const pnpmBin = path.join(root, "tools", "pnpm", "node_modules", ".bin");
const work = tempDir("mcp-codegen-typescript-sdk-");
const shipped = path.join(work, "shipped");
const patched = path.join(work, "patched");
const vendored = path.join(patched, "packages", "core-internal", "src", "wire", "generated");
/** The workspace packages whose suites run (see the header): name (`@modelcontextprotocol/<name>`) → folder. */
const PACKAGES: ReadonlyMap<string, string> = new Map([
  ["core-internal", "packages/core-internal"],
  ["core", "packages/core"],
  ["client", "packages/client"],
  ["server", "packages/server"],
  ["server-legacy", "packages/server-legacy"],
  ["codemod", "packages/codemod"],
  ["express", "packages/middleware/express"],
  ["fastify", "packages/middleware/fastify"],
  ["hono", "packages/middleware/hono"],
  ["node", "packages/middleware/node"],
]);

/**
 * Every test whose outcome differs between the shipped and the patched SDK, with its cause: none (no test of
 * these packages pins the replaced key objects or the switches' messages).
 */
const CHANGED: ReadonlyMap<string, string> = new Map();

// The SDK's own tests spawn `pnpm` (a package build), so it is on their PATH too.
const env = { ...process.env, PATH: `${pnpmBin}${path.delimiter}${process.env.PATH ?? ""}`, CI: "1" };

function run(cwd: string, args: string[]): void {
  const r = spawnSync(path.join(pnpmBin, "pnpm"), args, { cwd, env, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  expect(r.status, `pnpm ${args.join(" ")} in ${cwd}:\n${r.stdout.slice(-2000)}\n${r.stderr.slice(-2000)}`).toBe(0);
}

/**
 * One package's suite (or the test files named, relative to the package) in one copy, through vitest's JSON
 * report: `<package> <file> > <test>` → outcome.
 */
function suite(sdk: string, pkg: string, files: string[] = []): Promise<Map<string, string>> {
  const report = path.join(sdk, `.rig-${pkg}.json`);
  rmSync(report, { force: true });
  const args = ["--filter", `@modelcontextprotocol/${pkg}`, "exec", "vitest", "run", "--reporter=json", `--outputFile=${report}`, ...files];
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(pnpmBin, "pnpm"), args, { cwd: sdk, env, stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    child.stderr.on("data", (d) => (err = (err + d).slice(-4000)));
    // Bounded: a package takes under a minute and a half on two idle cores, about five with the machine shared.
    const timer = setTimeout(() => child.kill("SIGKILL"), 15 * 60_000);
    child.on("close", () => {
      clearTimeout(timer);
      if (!existsSync(report)) return reject(new Error(`vitest in ${sdk} (${pkg}) wrote no report:\n${err}`));
      const json = JSON.parse(readFileSync(report, "utf8")) as {
        testResults: Array<{ name: string; status: string; assertionResults: Array<{ fullName: string; status: string }> }>;
      };
      const out = new Map<string, string>();
      for (const file of json.testResults) {
        const name = `${pkg} ${path.relative(path.join(sdk, PACKAGES.get(pkg)!), file.name)}`;
        // A file that fails to load has no tests: it counts as one failed entry.
        if (file.assertionResults.length === 0) out.set(`${name} (file)`, file.status);
        // Tests of one file with the same full name (the SDK has a few) are told apart by their order: `… #2`.
        for (const t of file.assertionResults) {
          let id = `${name} > ${t.fullName}`;
          for (let n = 2; out.has(id); n++) id = `${name} > ${t.fullName} #${n}`;
          out.set(id, t.status);
        }
      }
      resolve(out);
    });
  });
}

/**
 * A test written into a copy's server package, then removed: a `resources/subscribe` or `unsubscribe` handler's
 * result as the low-level `Server` sends it, at 2025-11-25 over an in-memory pair (the SDK's own test helpers).
 */
const SUBSCRIBE_PROBE = "test/server/mcpCodegenSubscribeMeta.test.ts";
const subscribeProbe = `// Written by mcp-codegen's test/emit/typescript/sdk-suite.test.ts: a resources/subscribe or unsubscribe
// handler's result on the wire, from the low-level Server over an in-memory pair at 2025-11-25.
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/core-internal';
import { InMemoryTransport, isJSONRPCResultResponse } from '@modelcontextprotocol/core-internal';
import { expect, it } from 'vitest';

import { Server } from '../../src/server/server';

async function answer(method: 'resources/subscribe' | 'resources/unsubscribe', result: Record<string, unknown>): Promise<unknown> {
    const server = new Server({ name: 'probe', version: '1.0.0' }, { capabilities: { resources: { subscribe: true } } });
    server.setRequestHandler(method, () => result as never);
    const [peer, own] = InMemoryTransport.createLinkedPair();
    const waiters = new Map<string | number, (m: JSONRPCMessage) => void>();
    peer.onmessage = m => {
        const id = (m as { id?: string | number }).id;
        if (id !== undefined) waiters.get(id)?.(m);
    };
    await server.connect(own);
    await peer.start();
    const request = (m: JSONRPCRequest) => new Promise<JSONRPCMessage>(resolve => {
        waiters.set(m.id, resolve);
        void peer.send(m);
    });
    await request({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } });
    await peer.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const reply = await request({ jsonrpc: '2.0', id: 2, method, params: { uri: 'file:///a' } });
    await server.close();
    if (!isJSONRPCResultResponse(reply)) throw new Error(\`not a result: \${JSON.stringify(reply)}\`);
    return reply.result;
}

for (const method of ['resources/subscribe', 'resources/unsubscribe'] as const) {
    it(\`\${method}: an object _meta\`, async () => {
        expect(await answer(method, { _meta: { 'example.com/k': 1 }, extra: 1 })).toEqual({ _meta: { 'example.com/k': 1 } });
    });
    it(\`\${method}: a non-object _meta\`, async () => {
        expect(await answer(method, { _meta: 'x', extra: 1 })).toEqual({});
    });
}
`;

/** The recipe's vendoring commands: the `sh` block of ADOPTING.md's first step. */
function vendoringBlock(): string {
  const recipe = readFileSync(path.join(tree, "ADOPTING.md"), "utf8");
  const step = recipe.slice(recipe.indexOf("## 1."), recipe.indexOf("## 2."));
  const block = /```sh\n([\s\S]*?)```/.exec(step);
  expect(block, "ADOPTING.md's first step has an sh block").not.toBeNull();
  return block![1];
}

/**
 * Vendors the tables and schemas into the patched copy (ADOPTING.md's commands, run from the project's root
 * with the copy for `../typescript-sdk`) and applies the patch, once (a test run alone with `-t` applies it too).
 */
function applyRecipe(): void {
  if (existsSync(path.join(vendored, "typescript-sdk", "wireTables.ts"))) return;
  const commands = vendoringBlock().replaceAll("../typescript-sdk", patched);
  const vendoring = spawnSync("bash", ["-eu", "-c", commands], { cwd: root, encoding: "utf8" });
  expect(vendoring.status, vendoring.stderr).toBe(0);
  const patch = path.join(tree, "typescript-sdk-2.0.0.patch");
  const check = spawnSync("git", ["apply", "--check", "--verbose", patch], { cwd: patched, encoding: "utf8" });
  expect(check.status, check.stderr).toBe(0);
  const applied = spawnSync("git", ["apply", patch], { cwd: patched, encoding: "utf8" });
  expect(applied.status, applied.stderr).toBe(0);
}

beforeAll(() => {
  for (const dir of [shipped, patched]) {
    cpSync(pristine, dir, { recursive: true });
    run(dir, ["install", "--frozen-lockfile", "--ignore-scripts"]);
  }
}, 10 * 60_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the recipe", () => {
  it("ADOPTING.md's commands vendor the typescript-sdk folder and the era schemas it imports, and the patch applies cleanly to the pristine copy", () => {
    expect(vendoringBlock()).toContain("w=../typescript-sdk/packages/core-internal/src/wire/generated\n");
    applyRecipe();
    for (const f of ["typescript-sdk/wireTables.ts", "typescript-sdk/sdk-policy.ts", "typescript-sdk/sdk-validation.ts", "typescript-sdk/wireSchemas.ts", "2025-11-25/schemas.ts", "runtime/schema-support.ts", "protocol.ts"]) {
      expect(existsSync(path.join(vendored, f)), f).toBe(true);
    }
  });

  it("the patched registries list no method and the classes switch on none: both read the vendored tables", () => {
    const wire = (sdk: string, f: string) => readFileSync(path.join(sdk, "packages", "core-internal", "src", "wire", f), "utf8");
    for (const f of ["rev2025-11-25/registry.ts", "rev2026-07-28/registry.ts"]) {
      expect(wire(shipped, f)).toMatch(/const requestMethodKeys/);
      expect(wire(patched, f)).not.toMatch(/const requestMethodKeys|'tools\/list': null/);
      expect(wire(patched, f)).toContain("from '../generated/typescript-sdk/wireTables'");
    }
    // The zod schemas of both eras: generated, through the SDK's validation policies (the 2026 dispatch maps derived from the table).
    expect(wire(shipped, "rev2025-11-25/buildSchemas.ts").split("\n").length).toBeGreaterThan(2000);
    expect(wire(patched, "rev2025-11-25/buildSchemas.ts")).toContain("schemas2025_11_25(SDK_VALIDATION_2025)");
    expect(wire(patched, "rev2025-11-25/buildSchemas.ts").split("\n").length).toBeLessThan(150);
    expect(wire(shipped, "rev2026-07-28/buildSchemas.ts").split("\n").length).toBeGreaterThan(1400);
    expect(wire(patched, "rev2026-07-28/buildSchemas.ts")).toContain("schemas2026_07_28(SDK_VALIDATION_2026)");
    expect(wire(patched, "rev2026-07-28/buildSchemas.ts")).toMatch(/requestMethods\(REV2026_07_28\)/);
    expect(wire(patched, "rev2026-07-28/buildSchemas.ts")).not.toMatch(/'tools\/call': |wireResult\(|dispatchRequest\('/);
    expect(wire(patched, "rev2026-07-28/buildSchemas.ts").split("\n").length).toBeLessThan(250);
    for (const f of ["client/src/client/client.ts", "server/src/server/server.ts"]) {
      // A `case` on a method name (`'tools/list'`, `'ping'`); the files' other switches (`'url'`, `'form'`) stay.
      const cases = (sdk: string) => readFileSync(path.join(sdk, "packages", f), "utf8").match(/^\s+case '(?:\w+\/[\w/]+|ping|initialize)':/gm)?.length ?? 0;
      expect(cases(shipped)).toBeGreaterThan(10);
      expect(cases(patched)).toBe(0);
      expect(readFileSync(path.join(patched, "packages", f), "utf8")).toContain("missingWireCapability(");
    }
  });

  it("the patched workspace typechecks, every package (the registries' compile-time guard: the tables' methods are the era's wire unions)", () => {
    for (const dir of PACKAGES.values()) run(path.join(patched, dir), ["typecheck"]);
  }, 10 * 60_000);
});

describe("resources/subscribe and unsubscribe results through the server", () => {
  async function probe(sdk: string): Promise<Map<string, string>> {
    const file = path.join(sdk, "packages", "server", SUBSCRIBE_PROBE);
    writeFileSync(file, subscribeProbe);
    try {
      return await suite(sdk, "server", [SUBSCRIBE_PROBE]);
    } finally {
      rmSync(file);
    }
  }
  const id = (method: string, meta: string) => `server ${SUBSCRIBE_PROBE} > ${method}: ${meta}`;

  it("patched, the generated normalizer answers: an object _meta and nothing else, or {} when _meta is not an object", async () => {
    applyRecipe();
    const after = await probe(patched);
    expect([...after.keys()].sort()).toEqual(["resources/subscribe", "resources/unsubscribe"].flatMap((m) => [id(m, "a non-object _meta"), id(m, "an object _meta")]));
    expect([...after.values()]).toEqual(["passed", "passed", "passed", "passed"]);
  }, 10 * 60_000);

  it("shipped, the handler's result went out as it was (`extra` and a string `_meta` included)", async () => {
    const before = await probe(shipped);
    for (const m of ["resources/subscribe", "resources/unsubscribe"]) {
      expect(before.get(id(m, "an object _meta"))).toBe("failed");
      expect(before.get(id(m, "a non-object _meta"))).toBe("failed");
    }
  }, 10 * 60_000);
});

describe("the TypeScript SDK's own suite (every package)", () => {
  it("passes as patched at least every test it passes as shipped, package by package; every changed outcome is listed with its cause", async () => {
    const before = new Map<string, string>();
    const after = new Map<string, string>();
    for (const pkg of PACKAGES.keys()) {
      for (const [k, v] of await suite(shipped, pkg)) before.set(k, v);
      for (const [k, v] of await suite(patched, pkg)) after.set(k, v);
    }
    const count = (r: Map<string, string>, pkg?: string) => [...r].filter(([id, o]) => o === "passed" && (pkg === undefined || id.startsWith(`${pkg} `))).length;
    const size = (r: Map<string, string>, pkg: string) => [...r.keys()].filter((id) => id.startsWith(`${pkg} `)).length;
    // Every package's suite ran (the SDK README counts 3,674 tests; core-internal alone has 1,433).
    for (const pkg of PACKAGES.keys()) expect(size(before, pkg), pkg).toBeGreaterThan(0);
    expect(before.size).toBeGreaterThanOrEqual(3674);
    const changes = () => [...new Set([...before.keys(), ...after.keys()])].filter((id) => before.get(id) !== after.get(id)).sort();
    // A changed test's file runs once more in both copies, alone (some of the SDK's tests race timers, and the
    // machine is shared): a change the rerun repeats is the recipe's.
    const first = changes();
    if (first.length > 0 && first.length <= 50) {
      const files = new Map(first.map((id) => [id.replace(/ (>|\(file\)).*$/, ""), id.split(" ")[0]]));
      for (const [file, pkg] of files) {
        const own = file.slice(pkg.length + 1);
        const [b, a] = [await suite(shipped, pkg, [own]), await suite(patched, pkg, [own])];
        for (const id of first.filter((i) => i.startsWith(`${file} `))) {
          if (b.has(id)) before.set(id, b.get(id)!);
          if (a.has(id)) after.set(id, a.get(id)!);
        }
      }
    }
    const changed = changes();
    const report = [
      `shipped ${count(before)} passed of ${before.size}, patched ${count(after)} passed of ${after.size}`,
      ...[...PACKAGES.keys()].map((pkg) => `${pkg}: shipped ${count(before, pkg)} passed of ${size(before, pkg)}, patched ${count(after, pkg)} passed of ${size(after, pkg)}`),
      ...[...before].filter(([id, o]) => o !== "passed" && after.get(id) === o).map(([id, o]) => `${id}: ${o} in both`),
      ...changed.map((id) => `${id}: shipped ${before.get(id) ?? "absent"}, patched ${after.get(id) ?? "absent"}${CHANGED.has(id) ? ` (${CHANGED.get(id)})` : ""}`),
    ];
    console.log(`TypeScript SDK suite (${[...PACKAGES.keys()].join(", ")}): ${report.join("\n  ")}`);
    expect(changed.filter((id) => !CHANGED.has(id))).toEqual([]);
    expect(after.size).toBe(before.size);
    for (const pkg of PACKAGES.keys()) expect(count(after, pkg), pkg).toBeGreaterThanOrEqual(count(before, pkg));
  }, 60 * 60_000);
});

/**
 * The SDK's own conformance runs (test/conformance, its pinned @modelcontextprotocol/conformance 0.2.0-alpha.10
 * and its expected-failures baselines), as its package.json scripts run them: the client and the server, each
 * `--suite all` at the default version (2025-11-25) and `--spec-version 2026-07-28`. They need the packages
 * built (tsdown) and Node 22 (the runner imports `fs.globSync`): the project's tools/conformance Node. Each run
 * exits 0 when only its baseline's scenarios fail. About three minutes per copy (a build of 70 s, four runs of
 * 10–45 s), so they run here, in the proof's copies after the suites, not in a file of their own.
 */
describe("the TypeScript SDK's own conformance runs (client and server, 2025-11-25 and 2026-07-28)", () => {
  const node22 = path.join(root, "tools", "conformance", "node_modules", "node", "bin", "node");
  const RUNS: ReadonlyArray<{ name: string; args: string[] }> = [
    { name: "client 2025-11-25", args: ["node_modules/.bin/conformance", "client", "--command", "node --import tsx ./src/everythingClient.ts", "--suite", "all", "--expected-failures", "./expected-failures.yaml"] },
    { name: "client 2026-07-28", args: ["node_modules/.bin/conformance", "client", "--command", "node --import tsx ./src/everythingClient.ts", "--suite", "all", "--spec-version", "2026-07-28", "--expected-failures", "./expected-failures.2026-07-28.yaml"] },
    { name: "server 2025-11-25", args: ["scripts/run-server-conformance.sh", "--suite", "all", "--expected-failures", "./expected-failures.yaml"] },
    { name: "server 2026-07-28", args: ["scripts/run-server-conformance.sh", "--suite", "all", "--spec-version", "2026-07-28", "--expected-failures", "./expected-failures.2026-07-28.yaml"] },
  ];

  async function freePort(): Promise<number> {
    const { createServer } = await import("node:net");
    return new Promise((resolve, reject) => {
      const srv = createServer();
      srv.on("error", reject);
      srv.listen(0, "127.0.0.1", () => {
        const port = (srv.address() as { port: number }).port;
        srv.close(() => resolve(port));
      });
    });
  }

  /** Each run's exit status and its `Total:` line, in one copy (its packages built first; `only`: those runs, already built). */
  async function conformance(sdk: string, only?: readonly string[]): Promise<Map<string, string>> {
    if (only === undefined) run(sdk, ["-r", "--filter", "./packages/**", "build"]);
    const dir = path.join(sdk, "test", "conformance");
    const out = new Map<string, string>();
    for (const r of RUNS.filter((x) => only === undefined || only.includes(x.name))) {
      const port = await freePort();
      const runEnv = { ...env, PORT: String(port), PATH: `${path.dirname(node22)}${path.delimiter}${path.join(dir, "node_modules", ".bin")}${path.delimiter}${env.PATH}` };
      const [cmd, ...args] = r.args;
      const res = spawnSync(path.join(dir, cmd), args, { cwd: dir, env: runEnv, encoding: "utf8", maxBuffer: 64 * 1024 * 1024, timeout: 10 * 60_000 });
      const total = /Total: [^\n]*/.exec(res.stdout ?? "")?.[0] ?? `no total: ${(res.stderr ?? "").slice(-500)}`;
      out.set(r.name, `exit ${res.status}, ${total}`);
    }
    return out;
  }

  // Shipped, every run exits 0 on an idle machine; under load a client scenario may end in a warning (the runner
  // then exits 1) in either copy, the shipped one included (seen in CI: shipped 438 passed, 9 failed, 1 warning,
  // exit 1; patched 439 / 9, exit 0). The criterion: the patched run passes at least as many checks as the shipped
  // one, fails no more, and exits 0 wherever the shipped run does. A patched run that misses it is run once more
  // (both results printed), so one timing scenario's flake under load does not decide; a regression fails twice.
  type Outcome = { exit: number; passed: number; failed: number };
  function parse(line: string | undefined): Outcome | undefined {
    const m = /^exit (\d+), Total: (\d+) passed, (\d+) failed/.exec(line ?? "");
    return m === null ? undefined : { exit: Number(m[1]), passed: Number(m[2]), failed: Number(m[3]) };
  }
  function asGood(now: Outcome | undefined, was: Outcome | undefined): boolean {
    return now !== undefined && was !== undefined && now.passed >= was.passed && now.failed <= was.failed && (was.exit !== 0 || now.exit === 0);
  }

  it("pass patched as they do shipped: no fewer checks passed, no more failed, exit 0 wherever shipped exits 0", async () => {
    expect(existsSync(node22), `${node22} (tools/setup.ts installs it)`).toBe(true);
    applyRecipe();
    const before = await conformance(shipped);
    const after = await conformance(patched);
    const worse = RUNS.map((r) => r.name).filter((name) => !asGood(parse(after.get(name)), parse(before.get(name))));
    if (worse.length > 0) {
      const again = await conformance(patched, worse);
      for (const name of worse) {
        console.log(`TypeScript SDK conformance, ${name} patched run again: ${after.get(name)} -> ${again.get(name)}`);
        after.set(name, again.get(name)!);
      }
    }
    console.log(`TypeScript SDK conformance:\n  ${RUNS.map((r) => `${r.name}: shipped ${before.get(r.name)}; patched ${after.get(r.name)}`).join("\n  ")}`);
    for (const r of RUNS) {
      const was = parse(before.get(r.name));
      const now = parse(after.get(r.name));
      expect(was, `shipped ${r.name}: ${before.get(r.name)}`).toBeDefined();
      expect(now, `patched ${r.name}: ${after.get(r.name)}`).toBeDefined();
      expect(now!.passed, `patched ${r.name} passes no fewer checks than shipped`).toBeGreaterThanOrEqual(was!.passed);
      expect(now!.failed, `patched ${r.name} fails no more checks than shipped`).toBeLessThanOrEqual(was!.failed);
      if (was!.exit === 0) expect(now!.exit, `patched ${r.name} exits 0 as shipped does`).toBe(0);
    }
  }, 30 * 60_000);
});
