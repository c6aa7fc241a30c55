// The suite survives a legitimate bump. On a copy of the project (its tracked files and synced schemas,
// the set-up's products linked), `bump --from DIR --versions draft,next` re-pins labels of both eras in one
// run: `draft` to a sample revision of the era other than the lock's draft has, and a new label `next` to a
// sample of the lock's draft's own era (eras read through the model, never from labels); then, in that
// copy, `generate --check` and every test file that reads the lock, the schemas or the generated tree must
// pass.
//
// The samples are drawn by a stated rule that changes with the commit, so a test that passes for one
// sample by luck is caught over time: among the history's sound revisions of each era (the model builds
// them; versions negotiated by label), the index is the first 8 hex digits of sha256("<seed> <era>")
// modulo the pool's size, the seed being $MCP_BUMP_SEED or else this checkout's HEAD commit. The samples are
// printed, and every failure names them with the command that replays them:
// MCP_BUMP_SAMPLES=draft=<revision>,next=<revision> (which overrides the rule).
//
// The files run in the copy are every test file that reads the lock, the schemas or the generated tree,
// found by the rule `readers` states and computes over the test sources (no hand list): exclusions are
// listed in EXCLUDED, each with its reason, and printed with the selection. The bump's result is committed
// in the copy first, as a maintainer commits a reviewed bump (a test reads what git tracks). The review items
// the bump names that only a reviewer settles (a new method's capability entry) are done there as a stand-in
// entry that requires nothing, printed; the tree is regenerated after them.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildModel, discoverVersions } from "../../generator/pipeline.js";
import { toolRoot } from "../../generator/paths.js";
import { ensureSchemas, modelOptions, root, schemasDir, specDir, tempDir } from "../support.js";

const historyDir = path.resolve(
  process.env.MCP_SPEC_HISTORY_DIR ||
    [path.join(toolRoot, "..", "shared", "mcp-spec-history"), path.join(toolRoot, "..", "..", "shared", "mcp-spec-history")].find((d) => existsSync(d)) ||
    path.join(toolRoot, "..", "shared", "mcp-spec-history"),
);
const rubySdk = process.env.RUBY_SDK_DIR || [path.join(root, "..", "shared", "ruby-sdk"), path.join(root, "..", "..", "shared", "ruby-sdk")].find((d) => existsSync(d));

/**
 * What names the lock, the schemas or the generated tree in a test source: a path into them, or a name
 * of test/support.ts or generator/paths.ts that points there.
 */
const READS = /generated\/|schemas\/|lock\.json|\b(generatedDir|schemasDir|lockFile|modelOptions|ensureSchemas|projectCopy|copyOfGenerated|defaultOutDir|defaultSchemasDir|defaultPatchesDir|methodCapabilitiesFile)\b/;

/** Test files that read them but do not run in the copy, and why (printed). */
const EXCLUDED: Readonly<Record<string, string>> = {
  "test/bump/bump-suite.test.ts": "this file: it bumps a copy of the project itself (in the copy it would bump a copy of the copy)",
  "test/bump.test.ts": "bumps copies of the project itself, from whatever lock it finds: run in the copy it would only bump again",
  "test/extension-bump.test.ts": "bumps copies of the project itself (its extensions from a folder), from whatever lock it finds",
};

/**
 * The rule: a test file reads the lock, the schemas or `generated/` when its text, or the text of a file
 * under test/ it refers to (an import, or a quoted path such as `path.join(here, "fixtures", "server.ts")`
 * or a tsconfig naming a test), followed transitively, matches READS. test/support.ts is not followed
 * (every test imports it for its helpers); its names that point there are in READS.
 * Returns each reading test file (relative to `project`) with the file that matched.
 */
function readers(project: string): Map<string, string> {
  const testDir = path.join(project, "test");
  const support = path.join(testDir, "support.ts");
  const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  const refersTo = (file: string): string[] => {
    const text = readFileSync(file, "utf8");
    const out = new Set<string>();
    for (const m of text.matchAll(/((?:["'][\w./-]+["']\s*,\s*)*)["'`]((?:\.{1,2}\/)?[\w./-]+\.(?:ts|js|mjs|json|rb|py))["'`]/g)) {
      const segments = [...m[1].matchAll(/["']([\w./-]+)["']/g)].map((x) => x[1]);
      const rel = [...segments, m[2]].join("/").replace(/\.js$/, ".ts");
      for (const base of [path.dirname(file), testDir]) {
        const target = path.resolve(base, rel);
        if (target.startsWith(testDir + path.sep) && existsSync(target) && statSync(target).isFile()) out.add(target);
      }
    }
    return [...out];
  };
  const reads = (file: string, seen: Set<string>): string | null => {
    if (seen.has(file) || file === support) return null;
    seen.add(file);
    if (READS.test(readFileSync(file, "utf8"))) return file;
    for (const next of refersTo(file)) {
      const found = reads(next, seen);
      if (found !== null) return found;
    }
    return null;
  };
  const out = new Map<string, string>();
  // The runtimes' unit tests (runtimes/typescript/test/) read generated/ too.
  for (const file of [...walk(testDir), ...walk(path.join(project, "runtimes", "typescript", "test"))].filter((f) => f.endsWith(".test.ts")).sort()) {
    const found = reads(file, new Set());
    if (found !== null) out.set(path.relative(project, file), path.relative(project, found));
  }
  return out;
}

type Lock = { versions: Record<string, { sha256: string }> };
const lockOf = (project: string) => JSON.parse(readFileSync(path.join(project, "schemas", "lock.json"), "utf8")) as Lock;

/** The era of one version of a schemas folder as the model reads it, or null when it cannot be built. */
function eraOf(dir: string, label: string): "legacy" | "modern" | null {
  try {
    return buildModel({ schemasDir: dir, versions: [label], overridesFile: modelOptions.overridesFile }).versions[0].era;
  } catch {
    return null;
  }
}

/** Whether a sample's initialize, if it has one, takes the protocol version as a string (a label). */
function labelledVersions(label: string): boolean {
  const doc = JSON.parse(readFileSync(path.join(historyDir, label, "schema.json"), "utf8")) as { definitions?: Record<string, any>; $defs?: Record<string, any> };
  const version = (doc.$defs ?? doc.definitions)?.InitializeRequest?.properties?.params?.properties?.protocolVersion;
  return version === undefined || version.type === "string";
}

/** A copy of this project: every tracked file as it is on disk, the synced schemas, the set-up's products (LINKED) linked. */
function trackedCopy(dir: string): string {
  const listed = spawnSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" });
  expect(listed.status, listed.stderr).toBe(0);
  // Regular files only (a tracked file deleted on disk, or a link, is not copied).
  const files = listed.stdout.split("\0").filter((f) => f !== "" && existsSync(path.join(root, f)) && lstatSync(path.join(root, f)).isFile());
  expect(files, `files tracked by git in ${root}`).toContain("package.json");
  for (const file of files) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    copyFileSync(path.join(root, file), path.join(dir, file));
  }
  cpSync(schemasDir, path.join(dir, "schemas"), { recursive: true });
  // What the set-up made, linked (never rebuilt here): the packages, the Python venv, the conformance runner's packages.
  for (const made of LINKED) if (existsSync(path.join(root, made))) symlinkSync(path.join(root, made), path.join(dir, made), "dir");
  // The Python SDK suite's venv is copied, not linked: its rig installs the SDK copies it tests into it
  // (editable), and this project's own run of that rig does the same at the same time.
  for (const made of COPIED) if (existsSync(path.join(root, made))) cpSync(path.join(root, made), path.join(dir, made), { recursive: true, verbatimSymlinks: true });
  // The pinned spec history and SDKs the tests find beside the project (../shared), beside the copy too.
  const shared = path.join(root, "..", "shared");
  if (existsSync(shared) && !existsSync(path.join(dir, "..", "shared"))) symlinkSync(shared, path.join(dir, "..", "shared"), "dir");
  return dir;
}

/** The set-up's products a copy links to this project's. */
const LINKED = ["node_modules", ".venv", path.join("tools", "conformance", "node_modules")];
/** The set-up's products a copy gets a copy of (a venv the tests install into; .gitignore keeps it out of the commit). */
const COPIED = [".venv-python-sdk"];

/** Commit the copy as a maintainer commits a reviewed bump (tests read what git tracks), the links left out. */
function commitCopy(project: string): void {
  const identity = { GIT_AUTHOR_NAME: "bump", GIT_AUTHOR_EMAIL: "bump@example.invalid", GIT_COMMITTER_NAME: "bump", GIT_COMMITTER_EMAIL: "bump@example.invalid" };
  for (const args of [["init", "-q"], ["add", "-A", "--", ".", ...LINKED.map((l) => `:(exclude)${l}`)], ["commit", "-q", "-m", "bump draft,next"]]) {
    const r = spawnSync("git", args, { cwd: project, encoding: "utf8", env: { ...process.env, ...identity } });
    expect(r.status, `git ${args.join(" ")}: ${r.stderr}`).toBe(0);
  }
}

const env: NodeJS.ProcessEnv = {
  ...process.env,
  MCP_SPEC_HISTORY_DIR: historyDir,
  ...(specDir ? { MCP_SPEC_DIR: specDir } : {}),
  ...(rubySdk ? { RUBY_SDK_DIR: rubySdk } : {}),
};

/** The copy's own executable (its generator/bin.ts, from source), run in the copy. */
function bin(project: string, args: string[]) {
  return spawnSync(process.execPath, ["--import", "tsx", path.join(project, "generator", "bin.ts"), ...args], { cwd: project, encoding: "utf8", env, maxBuffer: 64 * 1024 * 1024 });
}

type Era = "legacy" | "modern";

/** The history's sound revisions of an era, in label order: the model builds them and their versions are negotiated by label. */
function pool(era: Era): string[] {
  return discoverVersions(historyDir).filter((label) => eraOf(historyDir, label) === era && labelledVersions(label));
}

/** The seed of the rule: $MCP_BUMP_SEED, else the HEAD commit of this checkout (so the samples change with the commit). */
function seed(): string {
  if (process.env.MCP_BUMP_SEED) return process.env.MCP_BUMP_SEED;
  const head = spawnSync("git", ["rev-parse", "HEAD"], { cwd: root, encoding: "utf8" });
  expect(head.status, `git rev-parse HEAD in ${root} (or set MCP_BUMP_SEED): ${head.stderr}`).toBe(0);
  return head.stdout.trim();
}

/** The rule: index sha256("<seed> <era>")'s first 8 hex digits modulo the era's pool. */
function draw(seedText: string, era: Era, candidates: string[]): string {
  expect(candidates.length, `sound sample revisions of the ${era} era in ${historyDir}`).toBeGreaterThan(0);
  return candidates[parseInt(createHash("sha256").update(`${seedText} ${era}`).digest("hex").slice(0, 8), 16) % candidates.length];
}

/** $MCP_BUMP_SAMPLES (`draft=<revision>,next=<revision>`), when set: the samples to replay. */
function replayed(): { draft: string; next: string } | null {
  const text = process.env.MCP_BUMP_SAMPLES;
  if (!text) return null;
  const given = Object.fromEntries(text.split(",").map((pair) => pair.split("=").map((x) => x.trim())));
  for (const label of ["draft", "next"]) {
    expect(given[label], `MCP_BUMP_SAMPLES="${text}": expected draft=<revision>,next=<revision>`).toBeTruthy();
    expect(existsSync(path.join(historyDir, given[label], "schema.json")), `MCP_BUMP_SAMPLES: ${given[label]} is not a revision in ${historyDir}`).toBe(true);
  }
  return { draft: given.draft, next: given.next };
}

let project: string;
let picked: { draft: string; next: string; from: Era; to: Era; nextEra: Era; rule: string };
/** Prefixed to every failure message: the samples, and how to replay them. */
let samples = "";
let bumped: ReturnType<typeof bin>;
/** The methods whose capability review the bump named (done by reviewCapabilities), and the regeneration after it. */
let reviewed: string[] = [];
let generatedAfterReview: ReturnType<typeof bin> | undefined;

/**
 * The review items the bump names that only a reviewer can settle (a new method's capability entry in
 * schemas/method-capabilities.json, its test failing until then), done in the copy as a stand-in entry
 * that requires nothing (what a method without an entry means) and says so. Returns "<label> <method>" each.
 */
function reviewCapabilities(project: string, stderr: string): string[] {
  const named = [...stderr.matchAll(/(\S+): method "([^"]+)" has no reviewed capability entry/g)].map((m) => ({ label: m[1], method: m[2] }));
  if (named.length === 0) return [];
  const file = path.join(project, "schemas", "method-capabilities.json");
  const data = JSON.parse(readFileSync(file, "utf8")) as { methods: Record<string, unknown> };
  for (const { method } of named) data.methods[method] ??= { requires: [], reason: "the bump suite's stand-in for the review the bump named" };
  writeFileSync(file, JSON.stringify(data, null, 2) + "\n");
  return named.map((n) => `${n.label} ${n.method}`);
}
// The copy, its spec folder and its cache (the links are removed, not followed).
let work: string | undefined;
afterAll(() => work && rmSync(work, { recursive: true, force: true }));

beforeAll(async () => {
  await ensureSchemas();
  const lock = lockOf(root);
  const labels = Object.keys(lock.versions).sort();
  // The lock's draft, else its newest label: the era the re-pinned draft must leave, and next's era.
  const current = labels.includes("draft") ? "draft" : labels.at(-1)!;
  const from = eraOf(schemasDir, current)!;
  const other: Era = from === "legacy" ? "modern" : "legacy";
  const given = replayed();
  const seedText = given === null ? seed() : "";
  const draft = given?.draft ?? draw(seedText, other, pool(other));
  const next = given?.next ?? draw(seedText, from, pool(from).filter((l) => l !== draft));
  const rule = given === null ? `drawn by seed ${seedText}` : "given by MCP_BUMP_SAMPLES";
  picked = { draft, next, from, to: eraOf(historyDir, draft)!, nextEra: eraOf(historyDir, next)!, rule };
  samples = `bump samples (${rule}): draft=${draft} (${picked.to}), next=${next} (${picked.nextEra}); replay: MCP_BUMP_SAMPLES=draft=${draft},next=${next} npx vitest run test/bump/bump-suite.test.ts`;
  console.log(samples);

  work = tempDir("mcp-codegen-bumped-");
  project = trackedCopy(path.join(work, "project"));
  // A cache of its own (the copy's node_modules is this project's): no generation answered from ours.
  env.MCP_CODEGEN_CACHE_DIR = path.join(path.dirname(project), "cache");
  const spec = path.join(path.dirname(project), "spec");
  for (const [label, sample] of [["draft", picked.draft], ["next", picked.next]]) {
    mkdirSync(path.join(spec, label), { recursive: true });
    copyFileSync(path.join(historyDir, sample, "schema.json"), path.join(spec, label, "schema.json"));
  }
  bumped = bin(project, ["bump", "--from", spec, "--versions", "draft,next", "--commit", "b".repeat(40)]);
  if (bumped.status === 0) {
    reviewed = reviewCapabilities(project, bumped.stderr);
    if (reviewed.length > 0) {
      console.log(`bump suite: the review items the bump named, done as a stand-in entry each in schemas/method-capabilities.json: ${reviewed.join(", ")}`);
      generatedAfterReview = bin(project, ["generate"]);
    }
    commitCopy(project);
  }
}, 600_000);

describe("after `bump --from DIR --versions draft,next`: draft to the other era, a new label of draft's old era, on a copy", () => {
  it("bumps: draft is re-pinned to the other era's revision and next is added in draft's old era", () => {
    expect(bumped.status, `${samples}\n${bumped.stderr}`).toBe(0);
    const lock = lockOf(project);
    const sha = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
    expect(lock.versions.draft.sha256, samples).toBe(sha(path.join(historyDir, picked.draft, "schema.json")));
    expect(lock.versions.next.sha256, samples).toBe(sha(path.join(historyDir, picked.next, "schema.json")));
    expect(eraOf(path.join(project, "schemas"), "draft"), samples).toBe(picked.to);
    expect(eraOf(path.join(project, "schemas"), "next"), samples).toBe(picked.nextEra);
    // Labels of both eras re-pinned in one run (unless the samples were given otherwise).
    if (picked.rule.startsWith("drawn")) expect([picked.to, picked.nextEra].sort(), samples).toEqual(["legacy", "modern"]);
    // Every other version's entry is kept.
    for (const [label, entry] of Object.entries(lockOf(root).versions)) if (label !== "draft" && label !== "next") expect(lock.versions[label], `${samples}\n${label}`).toEqual(entry);
  });

  it("`generate --check` exits 0", () => {
    if (generatedAfterReview !== undefined) expect(generatedAfterReview.status, `${samples}\nafter the review of ${reviewed.join(", ")}: ${generatedAfterReview.stderr}`).toBe(0);
    const check = bin(project, ["generate", "--check"]);
    expect(check.status, `${samples}\n${check.stdout.slice(0, 2000)}${check.stderr}`).toBe(0);
  });

  it("every test file that reads the lock, the schemas or generated/ passes in the copy (the exclusions printed with their reasons)", () => {
    const reading = readers(project);
    // An exclusion names a file the rule selects (else it is stale), and the rest is run.
    for (const file of Object.keys(EXCLUDED)) expect(reading.has(file), `${file} (EXCLUDED) is a test file that reads them`).toBe(true);
    const files = [...reading.keys()].filter((f) => !Object.hasOwn(EXCLUDED, f));
    expect(files.length).toBeGreaterThan(0);
    console.log(
      `bump suite: ${files.length} of ${reading.size} test files that read the lock, the schemas or generated/ run in the copy; left out:\n` +
        Object.entries(EXCLUDED).map(([f, why]) => `  ${f}: ${why}`).join("\n"),
    );
    const vitest = path.join(root, "node_modules", "vitest", "vitest.mjs");
    // One worker and generous timeouts: this runs beside the rest of the suite, on two cores.
    const r = spawnSync(process.execPath, [vitest, "run", "--maxWorkers=1", "--testTimeout=900000", "--hookTimeout=900000", ...files], { cwd: project, encoding: "utf8", env: { ...env, CI: "1" }, maxBuffer: 256 * 1024 * 1024 });
    const output = (r.stdout + r.stderr).replace(/\x1b\[[0-9;]*m/g, "");
    const failures = output.split("\n").filter((l) => /FAIL|✗|×/.test(l));
    expect(failures.slice(0, 40), `${samples}\n${output.slice(-8000)}`).toEqual([]);
    expect(r.status, `${samples}\n${output.slice(-8000)}`).toBe(0);
    // Every file ran (none was skipped or found empty).
    for (const file of files) expect(output, `${samples}\n${file}`).toMatch(new RegExp(`✓ ${file.replace(/[./+]/g, "\\$&")} \\(\\d+ tests?\\)`));
    // vitest's summary counts no skipped file or test (the word alone appears in tests' own output).
    expect(output).not.toMatch(/^\s*(Test Files|Tests)\s.*\bskipped\b/m);
  }, 3_600_000);
});
