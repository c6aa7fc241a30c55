// The recipe (generated/ruby/ADOPTING.md and ruby-sdk-1.3.0.patch) on a copy of the Ruby SDK 1.3.0:
// the tree vendored with the command its header names (and `--check` on it), the patch applied, then
// the SDK's own suite (one process per file, two at a time) passes every test it passes as shipped,
// and in-process probes (custom methods, server/discover on legacy connections, the modern gate) answer
// as the SDK as shipped does: the unpatched SDK is the oracle.
import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readLock } from "../../../generator/source/lock.js";
import { lockFile, runCli, tempDir } from "../../support.js";
import { jsonSchemerLib, ruby, rubySdkDir, rubyTestDir, rubyTree } from "./support.js";

const work = tempDir("mcp-codegen-ruby-recipe-");
const shipped = path.join(work, "shipped");
const recipe = path.join(work, "recipe");
const vendored = path.join(recipe, "lib", "mcp", "generated");
const stub = path.join(work, "stub");
let command: string[] = [];

/** The versions the SDK supports (its Configuration), among those the lock pins. */
function sdkVersions(labels: string[]): string[] {
  const r = ruby(["-e", 'require "mcp"; puts MCP::Configuration::SUPPORTED_STABLE_PROTOCOL_VERSIONS'], { loadPath: [path.join(rubySdkDir, "lib")] });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.split("\n").filter((v) => labels.includes(v)).sort();
}

beforeAll(async () => {
  for (const dir of [shipped, recipe]) cpSync(rubySdkDir, dir, { recursive: true });
  // test_helper.rb requires sorbet-runtime, which only the Sorbet-typed tests use (they fail here as shipped).
  mkdirSync(stub);
  writeFileSync(path.join(stub, "sorbet-runtime.rb"), "");
  const labels = Object.keys((await readLock(lockFile)).versions);
  command = ["generate", "--target", "ruby", "--ruby-module", "MCP::Protocol", "--versions", sdkVersions(labels).join(","), "--out", vendored];
  const generated = await runCli(command);
  expect(generated.status, generated.stderr).toBe(0);
  const patch = spawnSync("git", ["apply", "--verbose", path.join(rubyTree, "ruby-sdk-1.3.0.patch")], { cwd: recipe, encoding: "utf8" });
  expect(patch.status, patch.stderr).toBe(0);
}, 120_000);

describe("vendoring", () => {
  it("names in every Ruby file's header the command that regenerated the vendored tree", () => {
    const rb = readdirSync(vendored, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".rb"));
    expect(rb.length).toBeGreaterThan(0);
    const expected = `mcp-codegen ${command.slice(0, -1).join(" ")} DIR`;
    for (const f of rb) expect(readFileSync(path.join(vendored, f), "utf8"), f).toContain(`Regenerate with \`${expected}\``);
  });

  it("--check on the vendored tree exits 0, and 1 naming the file once it is edited", async () => {
    const fresh = await runCli([...command, "--check", "--no-cache"]);
    expect(fresh.status, fresh.stderr).toBe(0);
    const file = path.join(vendored, "mcp", "protocol", "methods.rb");
    const text = readFileSync(file, "utf8");
    appendFileSync(file, "# edited\n");
    const stale = await runCli([...command, "--check", "--no-cache"]);
    writeFileSync(file, text);
    expect(stale.status).toBe(1);
    expect(stale.stderr).toContain("mcp/protocol/methods.rb (stale)");
  });

  it("the patched SDK reads the catalogue, the gate and the subscribe result from the vendored tree", () => {
    const r = ruby(
      ["-W0", "-e", 'require "mcp"; require "mcp/server"; p [MCP::Methods.include?(MCP::Protocol::Methods), MCP::Methods::GATE.class.name, MCP::Server.private_method_defined?(:subscription_result), MCP::Methods::MissingRequiredCapabilityError.name]'],
      { loadPath: [path.join(recipe, "lib"), jsonSchemerLib] },
    );
    expect(r.stderr).toBe("");
    expect(r.stdout.trim()).toBe('[true, "MCP::Protocol::Gate", false, "MCP::Protocol::Runtime::MissingRequiredCapabilityError"]');
  });
});

type Outcome = Map<string, string>;
interface FileRun {
  file: string;
  loaded: boolean;
  cases: Outcome;
  tail: string;
}

/** One SDK test file, verbosely, the way the SDK's README runs it with Debian's packages. */
function runFile(sdk: string, file: string): Promise<FileRun> {
  return new Promise((resolve) => {
    const args = ["-W0", "-I", "lib", "-I", "test", "-I", stub, "-I", jsonSchemerLib, "-r", "mcp/server", file, "-v"];
    const child = spawn("ruby", args, { cwd: sdk, env: { ...process.env, LANG: "C.UTF-8", LC_ALL: "C.UTF-8" } });
    // minitest reports on stdout; stderr (what the tests themselves print) kept apart, so it cannot split a report line.
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 300_000);
    child.on("close", () => {
      clearTimeout(timer);
      const cases = new Map([...out.matchAll(/^(\S+#\S.*?) = [\d.]+ s = (.)$/gm)].map((m) => [m[1], m[2]]));
      resolve({ file, loaded: /\d+ runs, \d+ assertions/.test(out), cases, tail: (out + err).slice(-3000) });
    });
  });
}

/** Every test file of an SDK copy, at most two processes at a time. */
async function runSuite(sdk: string): Promise<Map<string, FileRun>> {
  const files = readdirSync(path.join(sdk, "test"), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith("_test.rb"))
    .map((f) => path.join("test", f))
    .sort();
  const results = new Map<string, FileRun>();
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++];
      results.set(file, await runFile(sdk, file));
    }
  };
  await Promise.all([worker(), worker()]);
  return results;
}

describe("the Ruby SDK's own suite", () => {
  it("passes with the recipe every test it passes as shipped", async () => {
    const before = await runSuite(shipped);
    const after = await runSuite(recipe);
    const passed = [...before.values()].flatMap((r) => [...r.cases].filter(([, mark]) => mark === ".").map(([name]) => `${r.file} ${name}`));
    // The suite ran: the SDK's README counts about 1,490 tests in 60 loadable files.
    expect([...before.values()].filter((r) => r.loaded).length).toBeGreaterThanOrEqual(50);
    expect(passed.length).toBeGreaterThan(1000);
    const lostIn = (file: string, run: FileRun, patched: FileRun): string[] => {
      const lost: string[] = [];
      if (run.loaded && !patched.loaded) lost.push(`${file} no longer loads:\n${patched.tail}`);
      for (const [name, mark] of run.cases) {
        const now = patched.cases.get(name);
        if (mark === "." && now !== ".") lost.push(`${file} ${name}: ${now ?? "did not run"}`);
      }
      return lost;
    };
    const lost: string[] = [];
    for (const [file, run] of before) {
      // A file with a loss runs once more (some SDK tests wait on threads and timers, and the machine is
      // shared): a loss the rerun repeats is the recipe's.
      let patched = after.get(file)!;
      const first = lostIn(file, run, patched);
      if (first.length > 0) {
        console.log(`rerunning ${file} after: ${first.join("; ")}`);
        patched = await runFile(recipe, file);
        after.set(file, patched);
      }
      lost.push(...lostIn(file, run, patched));
    }
    expect(lost.join("\n")).toBe("");

    // And nothing runs fewer tests: the recipe's files define as many as the shipped ones.
    expect([...after.values()].reduce((n, r) => n + r.cases.size, 0)).toBe([...before.values()].reduce((n, r) => n + r.cases.size, 0));
  }, 900_000);
});

interface Probe {
  probe: string;
  response: { id?: unknown; result?: unknown; error?: { code: number; message: string; data?: unknown } } | null;
}

function probes(sdk: string, methods: string[]): Probe[] {
  const r = ruby(["-W0", path.join(rubyTestDir, "sdk_probes.rb")], { loadPath: [path.join(sdk, "lib"), jsonSchemerLib], input: JSON.stringify({ methods }) });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Probe[];
}

describe("the SDK's behaviour with the recipe", () => {
  it("is the shipped SDK's for custom methods, server/discover on legacy connections and the modern gate", () => {
    const list = ruby(["-e", 'require "mcp/protocol"; puts MCP::Protocol::VERSIONS.values.flat_map { |v| v::REQUESTS.keys + v::NOTIFICATIONS.keys }.uniq.sort'], { loadPath: [vendored] });
    expect(list.status, list.stderr).toBe(0);
    const methods = [...list.stdout.trim().split("\n"), "no/such", "notifications/no/such"];
    const oracle = probes(shipped, methods);
    const ours = probes(recipe, methods);
    expect(ours.map((p) => p.probe)).toEqual(oracle.map((p) => p.probe));
    let refused = 0;
    oracle.forEach((expected, i) => {
      const actual = ours[i];
      const method = /^gate (\S+)/.exec(expected.probe)?.[1];
      // A gate refusal names the method and says why in the generator's words, not the SDK's: the
      // code, the id and the rest of the response are the SDK's.
      if (method !== undefined && expected.response?.error?.code === -32601 && expected.response.error.message.startsWith(`Method not found: ${method} is not part of the modern lifecycle`)) {
        refused++;
        expect(actual.response?.error?.code, expected.probe).toBe(-32601);
        expect(actual.response?.error?.message, expected.probe).toMatch(new RegExp(`^Method not found: ${method.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} is not a method of protocol version \\S+ \\(removed after \\S+\\)$`));
        expect(actual.response?.id, expected.probe).toEqual(expected.response.id);
      } else {
        expect(actual.response, expected.probe).toEqual(expected.response);
      }
    });
    expect(refused).toBeGreaterThan(0);
  }, 120_000);
});
