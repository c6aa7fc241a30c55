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
//   scenario counts as one test, the not-scored ones (extensions, added after release) are listed apart.
// Each server suite gets its committed expected-failures file (the suites' own YAML baseline format);
// the client suites have none.
// Prints one summary line per suite and `conformance: N passed, N failed` (scenarios); with
// `--summary FILE`, also writes `{ passed, failed }` there; `--client-only` runs only the client sets. Exit 0 only when both suites pass.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
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
}

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

/** The conformance client as one ES module (zod left external), built once per run. */
const clientBundle = path.join(root, ".tmp/conformance-client.mjs");
const clientSuites: Suite[] = ["2025-11-25", "2026-07-28"].map((revision) => ({
  name: `conformance@0.2.0-alpha.12 client --requirements ${revision}`,
  role: "client",
  ...alpha,
  args: ["--command", `${process.execPath} ${clientBundle}`, "--requirements", revision, "--timeout", "120000"],
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

function startServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(here, "server.ts"), "0"], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.once("exit", (code) => reject(new Error(`the conformance server exited (${code}) before listening:\n${out}`)));
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
    const child = spawn(suite.node, [suite.cli, ...role, ...suite.args], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
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

/** Scenario outcomes from the suite's `=== SUMMARY ===` lines (`✓ name: …` / `✗ name: …`). */
function scenarios(output: string): { passed: number; failed: number } {
  const summary = output.slice(output.lastIndexOf("=== SUMMARY ==="));
  return { passed: (summary.match(/^✓ /gm) ?? []).length, failed: (summary.match(/^✗ /gm) ?? []).length };
}

/**
 * A client requirement run's outcomes from its `=== SUITE SUMMARY ===`: the scored scenarios, and apart
 * the not-scored ones the runner lists under "Not scored for …" (`  ✓ name (extension)`).
 */
function clientScenarios(output: string): { passed: number; failed: number; failing: string[]; notScored: string[] } {
  const at = output.lastIndexOf("=== SUITE SUMMARY ===");
  const summary = at < 0 ? "" : output.slice(at);
  const notScoredAt = summary.indexOf("Not scored for");
  const notScored = notScoredAt < 0 ? [] : [...summary.slice(notScoredAt).matchAll(/^\s+([✓✗]) (\S+) \(([^)]+)\)/gm)].map((m) => `${m[1]} ${m[2]} (${m[3]}, not scored)`);
  const unscored = new Set(notScored.map((line) => line.split(" ")[1]));
  const scored = [...summary.matchAll(/^([✓✗]) ([^:\s]+):/gm)].filter((m) => !unscored.has(m[2]));
  const failing = scored.filter((m) => m[1] === "✗").map((m) => m[2]);
  return { passed: scored.length - failing.length, failed: failing.length, failing, notScored };
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
const { child, url } = await startServer();
const bundled = await bundleClient();
let passed = 0;
let failed = 0;
const lines: string[] = [];
try {
  // `--client-only`: just the client requirement sets (the server's suites take most of the time).
  for (const suite of process.argv.includes("--client-only") ? clientSuites : [...suites, ...clientSuites]) {
    if (suite.role === "client") {
      if (bundled !== undefined) {
        failed += 1;
        lines.push(`${suite.name}: ${bundled}`);
        continue;
      }
      const { code, output } = await run(suite, url);
      if (!output.includes("=== SUITE SUMMARY ===")) process.stderr.write(output);
      const c = clientScenarios(output);
      // A non-zero exit with every scored scenario green still fails (the runner saw a problem).
      const unexpected = code === 0 ? 0 : Math.max(c.failed, 1);
      passed += c.passed;
      failed += unexpected;
      lines.push(`${suite.name}: ${c.passed} scored scenarios passed, ${c.failed} failed, exit ${code}` + (c.failing.length === 0 ? "" : ` (failing: ${c.failing.join(", ")})`));
      for (const line of c.notScored) lines.push(`  ${line}`);
      continue;
    }
    const { code, output } = await run(suite, url);
    if (code !== 0 && !output.includes("=== SUMMARY ===")) process.stderr.write(output);
    const s = suite.scenario === undefined ? scenarios(output) : { passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1 };
    // Exit 0 with failing scenarios: each is in the expected-failures file. A non-zero exit with every
    // scenario green: a warning outside the baseline, or a baseline entry that now passes (stale).
    const unexpected = code === 0 ? 0 : Math.max(s.failed, 1);
    passed += s.passed;
    failed += unexpected;
    lines.push(`${suite.name}: ${s.passed} scenarios passed, ${s.failed} failed, exit ${code}` + (code === 0 ? "" : " (outside the expected-failures baseline, or a stale entry)"));
  }
} finally {
  process.kill(child.pid!, "SIGTERM");
}
console.log(["", ...lines, `conformance: ${passed} passed, ${failed} failed`].join("\n"));
if (summaryFile !== undefined) writeFileSync(summaryFile, JSON.stringify({ passed, failed }) + "\n");
process.exit(failed === 0 ? 0 : 1);
