// The tests' set-up, in one place: `npm test` runs it first (the `pretest` script), and so does `.ci/run`,
// through that same command. Each step checks before it acts and acts only on what is missing or stale,
// so a second run does nothing (and takes well under a second):
// - Debian packages (Ruby and its libraries, redis-server): `apt-get install` of the missing ones, after
//   one `apt-get update`, when root; otherwise a one-line error naming them and the command to run;
// - Python virtual environments, each from pinned requirements files: rebuilt when a file's bytes change
//   (a stamp of their sha256 inside the venv, written last, so an interrupted install is redone);
// - npm folders of their own (`npm ci --prefix`), rebuilt when their package-lock.json changes;
// - Go modules of their own (`go mod download` with GOFLAGS=-mod=mod), fetched when the module cache lacks one.
// To add a need, add a line to SETUP below. `tsx tools/setup.ts --check` lists what a run would do
// (exit 1 when anything is to do); MCP_CODEGEN_SETUP_SKIP=apt,venv,npm skips those kinds of step (a
// machine whose packages are managed otherwise).
import { spawnSync, type SpawnSyncOptions } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export interface AptNeed {
  package: string;
  /** What needs it. */
  for: string;
}
export interface VenvNeed {
  /** The venv's folder, relative to the project root. */
  dir: string;
  /** Pinned requirements files (relative to the root), installed in order with `pip install -r`. */
  requirements: string[];
  /** More arguments to each `pip install -r` (e.g. `--no-deps` for a file that pins every package itself). */
  pipArgs?: string[];
  for: string;
}
export interface NpmNeed {
  /** A folder with its own package.json and package-lock.json, relative to the root. */
  prefix: string;
  for: string;
}
export interface GoNeed {
  /** A folder with its own go.mod and go.sum, relative to the root. */
  module: string;
  for: string;
}
export interface SetupConfig {
  apt: AptNeed[];
  venvs: VenvNeed[];
  npm: NpmNeed[];
  go?: GoNeed[];
}

/** Everything the tests need beyond the root's `npm ci`. */
export const SETUP: SetupConfig = {
  apt: [
    { package: "ruby", for: "the generated Ruby tree, the Ruby SDK and its suite (test/emit/ruby/)" },
    { package: "ruby-json-schemer", for: "params_errors, the Ruby SDK's JSON Schema validation" },
    { package: "ruby-minitest", for: "the Ruby tests" },
    { package: "ruby-mocha", for: "the Ruby SDK's own suite (test/emit/ruby/sdk-recipe.test.ts)" },
    { package: "ruby-activesupport", for: "the Ruby SDK's own suite" },
    { package: "ruby-webmock", for: "the Ruby SDK's own suite" },
    { package: "ruby-rack", for: "the Ruby SDK's own suite" },
    { package: "ruby-hana", for: "json_schemer 2.4 (../shared/ruby-deps)" },
    { package: "ruby-regexp-parser", for: "json_schemer 2.4" },
    { package: "ruby-simpleidn", for: "json_schemer 2.4" },
    { package: "redis-server", for: "the scale-out tests (test/transports/redis, cluster) start their own on a loopback port" },
  ],
  venvs: [
    { dir: ".venv", requirements: ["requirements-python.txt"], for: "the Python target's tests: pydantic, ruff, the official Python SDK (test/emit/python/)" },
    {
      dir: ".venv-python-sdk",
      requirements: ["requirements-python-sdk.txt"],
      // The file pins everything the SDK's README's pip line pulls in, and the build backends of its editable installs.
      pipArgs: ["--no-deps"],
      for: "the Python SDK's own suite, as shipped and patched (test/emit/python/sdk-suite.test.ts, tools/python-sdk-venv.mjs)",
    },
  ],
  npm: [
    { prefix: "tools/conformance", for: "the 2026-07-28 conformance runner, on Node 22 kept off the root's PATH" },
    { prefix: "tools/pnpm", for: "pnpm 10.26.1, which installs the TypeScript SDK's workspace for its own suite (test/emit/typescript/sdk-suite.test.ts)" },
  ],
  go: [{ module: "test/emit/go", for: "the Go target's tests: jsonschema-go judges the generated Go types (test/emit/go/)" }],
};

/** Debian's python3 makes venvs only with this package; installed when `python3 -m venv` fails for want of it. */
const VENV_PACKAGE = "python3-venv";
const STAMP = ".mcp-codegen-setup";

export class SetupError extends Error {
  override name = "SetupError";
}

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
  error?: Error;
}

/** How the set-up touches the machine; tests replace parts of it. */
export interface SetupHost {
  root: string;
  isRoot: boolean;
  log(line: string): void;
  run(command: string, args: string[], options?: SpawnSyncOptions): RunResult;
  skip: Set<string>;
}

function realRun(command: string, args: string[], options: SpawnSyncOptions = {}): RunResult {
  const r = spawnSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024, ...options });
  return { status: r.status, stdout: String(r.stdout ?? ""), stderr: String(r.stderr ?? ""), error: r.error };
}

export function defaultHost(root: string): SetupHost {
  return {
    root,
    isRoot: typeof process.getuid === "function" && process.getuid() === 0,
    log: (line) => process.stderr.write(`setup: ${line}\n`),
    run: realRun,
    skip: new Set((process.env.MCP_CODEGEN_SETUP_SKIP ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "")),
  };
}

/** The packages of `names` dpkg does not report as installed (all of them where there is no dpkg). */
export function missingPackages(names: string[], host: SetupHost): string[] {
  if (names.length === 0) return [];
  const r = host.run("dpkg-query", ["-W", "-f=${Package}\t${Status}\n", ...names]);
  const installed = new Set(
    r.stdout
      .split("\n")
      .map((line) => line.split("\t"))
      .filter(([, status]) => status === "install ok installed")
      .map(([name]) => name),
  );
  return names.filter((n) => !installed.has(n));
}

const sha256 = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest("hex");

/** The stamp a venv must carry: each requirements file's name and sha256. */
export function venvStamp(need: VenvNeed, root: string): string {
  return need.requirements.map((f) => `${sha256(readFileSync(path.join(root, f)))}  ${f}\n`).join("");
}

/** The stamp an npm folder must carry: its package-lock.json's sha256. */
export function npmStamp(need: NpmNeed, root: string): string {
  return `${sha256(readFileSync(path.join(root, need.prefix, "package-lock.json")))}  package-lock.json\n`;
}

const readOr = (file: string) => (existsSync(file) ? readFileSync(file, "utf8") : null);

/** One thing a run would do, and why. */
export interface Step {
  kind: "apt" | "venv" | "npm" | "go";
  what: string;
  why: string;
}

/** What a run would do now (nothing when everything is in place). */
export function plan(config: SetupConfig, host: SetupHost): Step[] {
  const steps: Step[] = [];
  if (!host.skip.has("apt")) {
    const missing = missingPackages(config.apt.map((a) => a.package), host);
    if (missing.length > 0) steps.push({ kind: "apt", what: missing.join(" "), why: "not installed" });
  }
  if (!host.skip.has("venv")) {
    for (const v of config.venvs) {
      const dir = path.join(host.root, v.dir);
      const stamp = readOr(path.join(dir, STAMP));
      if (!existsSync(path.join(dir, "bin", "python"))) steps.push({ kind: "venv", what: v.dir, why: "missing" });
      else if (stamp === null) steps.push({ kind: "venv", what: v.dir, why: "unfinished (no stamp)" });
      else if (stamp !== venvStamp(v, host.root)) steps.push({ kind: "venv", what: v.dir, why: `stale (${v.requirements.join(", ")} changed)` });
    }
  }
  if (!host.skip.has("npm")) {
    for (const n of config.npm) {
      const stamp = path.join(host.root, n.prefix, "node_modules", STAMP);
      if (!existsSync(stamp)) steps.push({ kind: "npm", what: n.prefix, why: "not installed" });
      else if (readOr(stamp) !== npmStamp(n, host.root)) steps.push({ kind: "npm", what: n.prefix, why: "stale (package-lock.json changed)" });
    }
  }
  if (!host.skip.has("go")) {
    for (const g of config.go ?? []) {
      // Offline: succeeds only when the module cache holds every module the go.mod needs.
      const r = host.run("go", ["mod", "download"], { cwd: path.join(host.root, g.module), env: { ...goEnv, GOPROXY: "off" } });
      if (r.status !== 0) steps.push({ kind: "go", what: g.module, why: "modules not downloaded" });
    }
  }
  return steps;
}

/** How the go tool runs for the set-up and the tests: modules as go.mod says, no workspace, the machine's toolchain. */
const goEnv = { ...process.env, GOFLAGS: "-mod=mod", GOWORK: "off", GOTOOLCHAIN: "local" };

function goModDownload(need: GoNeed, host: SetupHost): void {
  host.log(`go mod download (${need.module})`);
  must(host.run("go", ["mod", "download"], { cwd: path.join(host.root, need.module), env: goEnv }), `go mod download in ${need.module}`);
}

function must(r: RunResult, what: string): void {
  if (r.error !== undefined) throw new SetupError(`${what}: ${r.error.message}`);
  if (r.status !== 0) throw new SetupError(`${what} failed (exit ${r.status}):\n${(r.stderr || r.stdout).trim()}`);
}

/** `apt-get install` as root (one `update` first); otherwise the error naming the packages and the command. */
function installPackages(packages: string[], host: SetupHost, updated: { done: boolean }): void {
  const list = packages.join(" ");
  if (!host.isRoot) throw new SetupError(`missing Debian package${packages.length > 1 ? "s" : ""} ${list}: run \`sudo apt-get update && sudo apt-get install -y ${list}\``);
  // Another apt may hold the lock (shared machines): wait for it rather than fail.
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const wait = ["-o", "DPkg::Lock::Timeout=600"];
  if (!updated.done) {
    host.log("apt-get update");
    must(host.run("apt-get", [...wait, "update"], { env }), "apt-get update");
    updated.done = true;
  }
  host.log(`apt-get install -y ${list}`);
  must(host.run("apt-get", [...wait, "install", "-y", ...packages], { env }), `apt-get install -y ${list}`);
  const still = missingPackages(packages, host);
  if (still.length > 0) throw new SetupError(`apt-get install did not install ${still.join(" ")}`);
}

function makeVenv(need: VenvNeed, host: SetupHost, updated: { done: boolean }): void {
  const dir = path.join(host.root, need.dir);
  rmSync(dir, { recursive: true, force: true });
  host.log(`python3 -m venv ${need.dir}`);
  let r = host.run("python3", ["-m", "venv", dir]);
  if (r.status !== 0 && missingPackages([VENV_PACKAGE], host).length > 0) {
    installPackages([VENV_PACKAGE], host, updated);
    rmSync(dir, { recursive: true, force: true });
    r = host.run("python3", ["-m", "venv", dir]);
  }
  must(r, `python3 -m venv ${need.dir}`);
  for (const req of need.requirements) {
    host.log(`${need.dir}/bin/pip install -r ${req}`);
    must(host.run(path.join(dir, "bin", "pip"), ["install", "--quiet", "--disable-pip-version-check", ...(need.pipArgs ?? []), "-r", path.join(host.root, req)]), `pip install -r ${req}`);
  }
  writeFileSync(path.join(dir, STAMP), venvStamp(need, host.root));
}

function npmCi(need: NpmNeed, host: SetupHost): void {
  host.log(`npm ci --prefix ${need.prefix}`);
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  must(host.run(npm, ["ci", "--prefix", path.join(host.root, need.prefix), "--no-audit", "--no-fund"]), `npm ci --prefix ${need.prefix}`);
  // A folder without dependencies gets no node_modules/ from npm: the stamp makes it.
  mkdirSync(path.join(host.root, need.prefix, "node_modules"), { recursive: true });
  writeFileSync(path.join(host.root, need.prefix, "node_modules", STAMP), npmStamp(need, host.root));
}

/** Do every step of `plan`; returns the steps done (none when everything was in place). */
export function setup(config: SetupConfig, host: SetupHost): Step[] {
  const steps = plan(config, host);
  const updated = { done: false };
  for (const step of steps) {
    if (step.kind === "apt") installPackages(step.what.split(" "), host, updated);
    else if (step.kind === "venv") makeVenv(config.venvs.find((v) => v.dir === step.what)!, host, updated);
    else if (step.kind === "go") goModDownload(config.go!.find((g) => g.module === step.what)!, host);
    else npmCi(config.npm.find((n) => n.prefix === step.what)!, host);
  }
  return steps;
}

function cli(argv: string[]): number {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const host = defaultHost(root);
  try {
    if (argv.includes("--check")) {
      const steps = plan(SETUP, host);
      for (const s of steps) process.stdout.write(`${s.kind} ${s.what}: ${s.why}\n`);
      return steps.length === 0 ? 0 : 1;
    }
    const done = setup(SETUP, host);
    if (done.length === 0) host.log(`in place (${SETUP.apt.length} Debian packages, ${SETUP.venvs.length} venvs, ${SETUP.npm.length} npm folder, ${SETUP.go?.length ?? 0} Go module)`);
    return 0;
  } catch (e) {
    if (e instanceof SetupError) {
      process.stderr.write(`setup: error: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = cli(process.argv.slice(2));
