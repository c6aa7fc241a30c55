// `npm run conformance`: start the generated-code server on a free port, run the official MCP
// conformance suites against it, stop it by its process id.
// - @modelcontextprotocol/conformance@0.1.13 (root devDependency, Node 20): every active server scenario
//   (the legacy era, negotiated at 2025-11-25);
// - @modelcontextprotocol/conformance@0.2.0-alpha.12 (tools/conformance, run by Node 22 from the npm `node`
//   package, which stays out of the root's PATH): every server scenario tagged 2026-07-28
//   (`--spec-version 2026-07-28 --suite all`: pending ones included, extension scenarios excluded), then
//   each extension scenario the server serves, one run each (`--scenario`): the ten `tasks-*` (the Tasks
//   extension, io.modelcontextprotocol/tasks) and the three `sep-2640-*` (Skills).
// - the client requirement sets of 0.2.0-alpha.12 (`conformance client --requirements 2025-11-25` and
//   `--requirements 2026-07-28`) against test/conformance/client.ts, the client made of the generated
//   code, bundled once (esbuild) so the runner's parallel scenarios do not each compile it; a scored
//   scenario counts as one test, and so does each not-scored one the client is held to anyway (`heldToo`:
//   DPoP, DPoP nonces, workload identity, enterprise-managed authorization); the other not-scored ones
//   (extensions, added after release) are listed apart.
// - the Python server (test/conformance/server.py: generated/python alone, under uvicorn), started beside
//   the TypeScript one: `conformance server --requirements 2025-11-25` and `--requirements 2026-07-28` of
//   0.2.0-alpha.12 (each revision's frozen requirement set), then the ten `tasks-*` scenarios one run each.
// - the Python client (test/conformance/client.py: generated/python alone) against the same two client
//   requirement sets, with its own baseline, expected-failures-python-client.yml (empty), held to the same
//   not-scored scenarios (`heldToo`) as the TypeScript client.
// Each server suite gets its committed expected-failures file (the suites' own YAML baseline format; the
// Python server its own, expected-failures-python.yml); the TypeScript client suites have none.
// Prints one summary line per suite (the Python server's prefixed `python:`) and
// `conformance: N passed, N failed (python: N passed, N failed)` (scenarios; the totals include Python's);
// with `--summary FILE`, also writes `{ passed, failed, python: { passed, failed } }` there;
// `--client-only` runs only the client sets (both clients'), `--python-only` only the Python server's and client's runs. Each server is
// stopped by its process id. Exit 0 only when every suite passes.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const here = path.join(root, "test/conformance");

interface Suite {
  name: string;
  /** Which side the suite tests (default server: run against the generated-code server's URL). */
  role?: "server" | "client";
  node: string;
  cli: string;
  args: string[];
  /** One scenario run on its own (`--scenario`): it counts as one scenario, passed when the run exits 0. */
  scenario?: string;
  /** Which server a server suite runs against (default typescript: test/conformance/server.ts). */
  server?: ServerName;
  /** The Python side's suite (counted in the `python:` tally): a Python server's, or the Python client's. */
  python?: boolean;
  /** The runner's environment (default this process's). */
  env?: NodeJS.ProcessEnv;
}

type ServerName = "typescript" | "python";

/** The extension scenarios of 0.2.0-alpha.12 (`conformance list --server`, tagged [extension]). */
const extensionScenarios = [
  "tasks-lifecycle",
  "tasks-capability-negotiation",
  "tasks-wire-fields",
  "tasks-request-state-removal",
  "tasks-mrtr-input",
  "tasks-request-headers",
  "tasks-dispatch-and-envelope",
  "tasks-status-notifications",
  "tasks-required-task-error",
  "tasks-mrtr-composition",
  "sep-2640-skills-directory",
  "sep-2640-skills-enumeration",
  "sep-2640-skills-manifest",
];
const alpha = {
  node: path.join(root, "tools/conformance/node_modules/node/bin/node"),
  cli: path.join(root, "tools/conformance/node_modules/@modelcontextprotocol/conformance/dist/index.js"),
};

const suites: Suite[] = [
  {
    name: "conformance@0.1.13 (active suite)",
    node: process.execPath,
    cli: path.join(root, "node_modules/@modelcontextprotocol/conformance/dist/index.js"),
    args: ["--suite", "active", "--expected-failures", path.join(here, "expected-failures-0.1.13.yml")],
  },
  {
    name: "conformance@0.2.0-alpha.12 (2026-07-28, all tagged scenarios)",
    node: path.join(root, "tools/conformance/node_modules/node/bin/node"),
    cli: path.join(root, "tools/conformance/node_modules/@modelcontextprotocol/conformance/dist/index.js"),
    args: ["--spec-version", "2026-07-28", "--suite", "all", "--expected-failures", path.join(here, "expected-failures-0.2.0-alpha.12.yml")],
  },
  ...extensionScenarios.map((scenario) => ({
    name: `conformance@0.2.0-alpha.12 ${scenario} (extension)`,
    ...alpha,
    args: ["--scenario", scenario, "--expected-failures", path.join(here, "expected-failures-0.2.0-alpha.12.yml")],
    scenario,
  })),
];

/**
 * The Python server's runs (0.2.0-alpha.12): each revision's frozen server requirement set, then each
 * Tasks scenario on its own (the Python tree serves the Tasks extension, not Skills).
 */
const pythonExpectedFailures = path.join(here, "expected-failures-python.yml");
const pythonSuites: Suite[] = [
  ...["2025-11-25", "2026-07-28"].map((revision) => ({
    name: `python: conformance@0.2.0-alpha.12 server --requirements ${revision}`,
    server: "python" as const,
    ...alpha,
    args: ["--requirements", revision, "--expected-failures", pythonExpectedFailures],
  })),
  ...extensionScenarios
    .filter((scenario) => scenario.startsWith("tasks-"))
    .map((scenario) => ({
      name: `python: conformance@0.2.0-alpha.12 ${scenario} (extension)`,
      server: "python" as const,
      ...alpha,
      args: ["--scenario", scenario, "--expected-failures", pythonExpectedFailures],
      scenario,
    })),
];

/** The conformance client as one ES module (zod left external), built once per run. */
const clientBundle = path.join(root, ".tmp/conformance-client.mjs");
const clientSuites: Suite[] = ["2025-11-25", "2026-07-28"].map((revision) => ({
  name: `conformance@0.2.0-alpha.12 client --requirements ${revision}`,
  role: "client",
  ...alpha,
  args: ["--command", `${process.execPath} ${clientBundle}`, "--requirements", revision, "--timeout", "120000"],
}));

/**
 * The Python client (test/conformance/client.py: generated/python alone) against both client requirement sets,
 * with its own expected-failures file (expected-failures-python-client.yml), which must end empty.
 */
const pythonEnv = { ...process.env, PYTHONPATH: path.join(root, "generated/python"), PYTHONDONTWRITEBYTECODE: "1", PYTHONUNBUFFERED: "1" };
const pythonClientSuites: Suite[] = ["2025-11-25", "2026-07-28"].map((revision) => ({
  name: `python: conformance@0.2.0-alpha.12 client --requirements ${revision}`,
  role: "client",
  python: true,
  env: pythonEnv,
  ...alpha,
  args: [
    "--command",
    `${path.join(root, ".venv/bin/python")} ${path.join(here, "client.py")}`,
    "--requirements",
    revision,
    "--timeout",
    "120000",
    "--expected-failures",
    path.join(here, "expected-failures-python-client.yml"),
  ],
}));

async function bundleClient(): Promise<string | undefined> {
  try {
    const { build } = await import("esbuild");
    await build({ entryPoints: [path.join(here, "client.ts")], bundle: true, platform: "node", format: "esm", packages: "external", outfile: clientBundle, logLevel: "warning" });
    return undefined;
  } catch (error) {
    return `could not bundle test/conformance/client.ts: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** How each server is started: it prints `listening <url>` once it listens on a free port of 127.0.0.1. */
const serverCommands: Record<ServerName, { command: string; args: string[]; env?: NodeJS.ProcessEnv }> = {
  typescript: { command: process.execPath, args: ["--import", "tsx", path.join(here, "server.ts"), "0"] },
  python: {
    command: path.join(root, ".venv/bin/python"),
    args: [path.join(here, "server.py"), "0"],
    env: pythonEnv,
  },
};

function startServer(name: ServerName): Promise<{ child: ChildProcess; url: string }> {
  const { command, args, env } = serverCommands[name];
  const child = spawn(command, args, { cwd: root, env: env ?? process.env, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.once("error", (error) => reject(new Error(`the ${name} conformance server could not start: ${error.message}`)));
    child.once("exit", (code) => reject(new Error(`the ${name} conformance server exited (${code}) before listening:\n${out}`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening (\S+)/.exec(out);
      if (m) {
        child.removeAllListeners("exit");
        resolve({ child, url: m[1] });
      }
    });
  });
}

function run(suite: Suite, url: string): Promise<{ code: number; output: string }> {
  for (const file of [suite.node, suite.cli]) {
    if (!existsSync(file)) {
      const hint = file.includes("tools/conformance") ? "run `npm ci --prefix tools/conformance` first" : "run `npm ci` first";
      return Promise.resolve({ code: 1, output: `${suite.name}: ${file} is missing: ${hint}\n` });
    }
  }
  return new Promise((resolve) => {
    const role = suite.role === "client" ? ["client"] : ["server", "--url", url];
    const child = spawn(suite.node, [suite.cli, ...role, ...suite.args], { cwd: root, env: suite.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const take = (chunk: Buffer) => {
      output += chunk.toString();
      process.stdout.write(chunk);
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    child.on("error", (error) => resolve({ code: 1, output: `${output}${suite.name}: could not run ${suite.node}: ${error.message}\n` }));
    child.on("exit", (code) => resolve({ code: code ?? 1, output }));
  });
}

/** Each scenario's outcome from the suite's `=== SUMMARY ===` lines (`✓ name: …` / `✗ name: …`). */
function summaryLines(output: string): { name: string; passed: boolean }[] {
  const at = output.lastIndexOf("=== SUMMARY ===");
  return at < 0 ? [] : [...output.slice(at).matchAll(/^([✓✗]) ([^:\s]+):/gm)].map((m) => ({ name: m[2], passed: m[1] === "✓" }));
}

/**
 * The scenarios a revision's frozen requirement set lists for `leg` (the runner's
 * requirements/<revision>.yaml: `server:` and `client:`, each a plain list of names).
 */
function requiredScenarios(suite: Suite, revision: string, leg: "server" | "client"): Set<string> {
  const file = path.join(path.dirname(suite.cli), "..", "requirements", `${revision}.yaml`);
  const lines = readFileSync(file, "utf8").split("\n");
  const start = lines.indexOf(`${leg}:`);
  const names = new Set<string>();
  for (const line of start < 0 ? [] : lines.slice(start + 1)) {
    const m = /^\s+-\s+(\S+)\s*$/.exec(line);
    if (m === null) break;
    names.add(m[1]);
  }
  if (names.size === 0) throw new Error(`${file}: no ${leg} scenarios listed`);
  return names;
}

/** Scenario outcomes from the suite's `=== SUMMARY ===` lines (`✓ name: …` / `✗ name: …`). */
function scenarios(output: string): { passed: number; failed: number } {
  const summary = output.slice(output.lastIndexOf("=== SUMMARY ==="));
  return { passed: (summary.match(/^✓ /gm) ?? []).length, failed: (summary.match(/^✗ /gm) ?? []).length };
}

/**
 * Client scenarios the requirement sets run without scoring them (extensions every official SDK lists as
 * expected failures) that this client is held to all the same: DPoP with and without server nonces, workload
 * identity federation, enterprise-managed authorization. Each counts as a scored scenario, and fails when absent.
 */
const heldToo = new Set(["auth/dpop", "auth/dpop-nonce", "auth/wif-jwt-bearer", "auth/enterprise-managed-authorization"]);

/**
 * A client requirement run's outcomes from its `=== SUITE SUMMARY ===`: the scored scenarios, and apart
 * the not-scored ones the runner lists under "Not scored for …" (`  ✓ name (extension)`).
 */
function clientScenarios(output: string): { passed: number; failed: number; failing: string[]; notScored: string[] } {
  const at = output.lastIndexOf("=== SUITE SUMMARY ===");
  const summary = at < 0 ? "" : output.slice(at);
  const notScoredAt = summary.indexOf("Not scored for");
  const listed = notScoredAt < 0 ? [] : [...summary.slice(notScoredAt).matchAll(/^\s+([✓✗]) (\S+) \(([^)]+)\)/gm)];
  const notScored = listed.filter((m) => !heldToo.has(m[2])).map((m) => `${m[1]} ${m[2]} (${m[3]}, not scored)`);
  const unscored = new Set(listed.map((m) => m[2]).filter((name) => !heldToo.has(name)));
  const scored = [...summary.matchAll(/^([✓✗]) ([^:\s]+):/gm)].filter((m) => !unscored.has(m[2]));
  const failing = scored.filter((m) => m[1] === "✗").map((m) => m[2]);
  // The scenarios held to although not scored must have run.
  for (const name of heldToo) if (!scored.some((m) => m[2] === name)) failing.push(`${name} (not run)`);
  return { passed: scored.length - failing.filter((f) => !f.endsWith("(not run)")).length, failed: failing.length, failing, notScored };
}

// The Node 22 runner lives in its own package (so Node 22 never lands on the root's PATH): install it
// from its lock file the first time, as .ci/run does.
if (!existsSync(path.join(root, "tools/conformance/node_modules"))) {
  process.stderr.write("installing tools/conformance (npm ci --prefix tools/conformance)…\n");
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const install = spawnSync(npm, ["ci", "--prefix", path.join(root, "tools/conformance"), "--no-audit", "--no-fund"], { cwd: root, stdio: "inherit" });
  if (install.status !== 0) process.stderr.write("could not install tools/conformance; the 2026-07-28 suite will report it\n");
}

const summaryFile = process.argv.indexOf("--summary") >= 0 ? process.argv[process.argv.indexOf("--summary") + 1] : undefined;
const selected = process.argv.includes("--client-only")
  ? [...clientSuites, ...pythonClientSuites]
  : process.argv.includes("--python-only")
    ? [...pythonSuites, ...pythonClientSuites]
    : [...suites, ...pythonSuites, ...clientSuites, ...pythonClientSuites];
const bundled = selected.some((suite) => suite.role === "client" && suite.python !== true) ? await bundleClient() : undefined;
/** Scenario counts: all of them, and the Python server's apart. */
const total = { passed: 0, failed: 0 };
const python = { passed: 0, failed: 0 };
const count = (suite: Suite, passed: number, failed: number) => {
  for (const tally of suite.server === "python" || suite.python === true ? [total, python] : [total]) {
    tally.passed += passed;
    tally.failed += failed;
  }
};
const lines: string[] = [];
const running = new Map<ServerName, { child: ChildProcess; url: string }>();
try {
  for (const suite of selected) {
    if (suite.role === "client") {
      if (bundled !== undefined && suite.python !== true) {
        count(suite, 0, 1);
        lines.push(`${suite.name}: ${bundled}`);
        continue;
      }
      const { code, output } = await run(suite, "");
      if (!output.includes("=== SUITE SUMMARY ===")) process.stderr.write(output);
      const c = clientScenarios(output);
      // Every scored scenario that failed counts, whatever the exit (with an --expected-failures file the runner lists
      // extension scenarios among the scored and exits 0 over their failures); a non-zero exit with every scored
      // scenario green still fails (the runner saw a problem).
      const unexpected = code === 0 ? c.failed : Math.max(c.failed, 1);
      count(suite, c.passed, unexpected);
      lines.push(`${suite.name}: ${c.passed} scored scenarios passed, ${c.failed} failed, exit ${code}` + (c.failing.length === 0 ? "" : ` (failing: ${c.failing.join(", ")})`));
      for (const line of c.notScored) lines.push(`  ${line}`);
      continue;
    }
    const name = suite.server ?? "typescript";
    let server = running.get(name);
    if (server === undefined) {
      try {
        server = await startServer(name);
      } catch (error) {
        count(suite, 0, 1);
        lines.push(`${suite.name}: ${error instanceof Error ? error.message : String(error)}`);
        continue;
      }
      running.set(name, server);
    }
    const { code, output } = await run(suite, server.url);
    if (code !== 0 && !output.includes("=== SUMMARY ===")) process.stderr.write(output);
    const revision = suite.args.includes("--requirements") ? suite.args[suite.args.indexOf("--requirements") + 1] : undefined;
    if (revision !== undefined) {
      // A requirement set: the scenarios it requires count (the runner applies the baseline to those only);
      // the others it runs (extensions, pending) are listed apart (the Tasks scenarios count in their own runs).
      const required = requiredScenarios(suite, revision, "server");
      const outcomes = summaryLines(output);
      const scored = outcomes.filter((o) => required.has(o.name));
      const failing = scored.filter((o) => !o.passed).map((o) => o.name);
      const missing = [...required].filter((name) => !outcomes.some((o) => o.name === name));
      const unexpected = code === 0 && missing.length === 0 ? 0 : Math.max(failing.length + missing.length, 1);
      count(suite, scored.length - failing.length, unexpected);
      lines.push(
        `${suite.name}: ${scored.length - failing.length} required scenarios passed, ${failing.length} failed, exit ${code}` +
          (failing.length === 0 ? "" : ` (failing: ${failing.join(", ")})`) +
          (missing.length === 0 ? "" : ` (not run: ${missing.join(", ")})`),
      );
      const others = outcomes.filter((o) => !required.has(o.name));
      if (others.length > 0) lines.push(`  not required by ${revision}, not scored: ${others.map((o) => `${o.passed ? "✓" : "✗"} ${o.name}`).join(", ")}`);
      continue;
    }
    const s = suite.scenario === undefined ? scenarios(output) : { passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1 };
    // Exit 0 with failing scenarios: each is in the expected-failures file. A non-zero exit with every
    // scenario green: a warning outside the baseline, or a baseline entry that now passes (stale).
    const unexpected = code === 0 ? 0 : Math.max(s.failed, 1);
    count(suite, s.passed, unexpected);
    lines.push(`${suite.name}: ${s.passed} scenarios passed, ${s.failed} failed, exit ${code}` + (code === 0 ? "" : " (outside the expected-failures baseline, or a stale entry)"));
  }
} finally {
  for (const { child } of running.values()) process.kill(child.pid!, "SIGTERM");
}
const pythonRan = selected.some((suite) => suite.server === "python");
console.log(["", ...lines, `conformance: ${total.passed} passed, ${total.failed} failed` + (pythonRan ? ` (python: ${python.passed} passed, ${python.failed} failed)` : "")].join("\n"));
if (summaryFile !== undefined) writeFileSync(summaryFile, JSON.stringify({ ...total, python }) + "\n");
process.exit(total.failed === 0 ? 0 : 1);
