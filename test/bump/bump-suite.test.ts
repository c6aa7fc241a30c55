// The suite survives a legitimate bump. On two copies of the project (its tracked files and synced
// schemas, the set-up's products linked), `bump --from DIR --versions draft,next` re-pins labels of both
// eras in one run: `draft` to a sample revision of the era other than the lock's draft has, and a new
// label `next` to a sample of the lock's draft's own era (eras read through the model, never from labels);
// copy A and copy B take different samples of each era, so a run covers two samples per era. Then, in each
// copy, `generate --check` and its share of the test files that read the lock, the schemas or the
// generated tree must pass. The copies run side by side (each its own processes, one vitest worker each),
// each running half the files, so two samples per era cost about what one copy running every file did.
//
// The samples are drawn by a stated rule that changes with the commit, so a test that passes for one
// sample by luck is caught over time: among the history's sound revisions of each era (the model builds
// them; versions negotiated by label), copy A's is the one at index sha256("<seed> <era>")'s first 8 hex
// digits modulo the pool's size, copy B's the one at sha256("<seed> <era> 2")'s modulo the pool without
// A's; the seed is $MCP_BUMP_SEED or else this checkout's HEAD commit. The samples are printed, and every
// failure names its copy's samples with the command that replays them:
// MCP_BUMP_SAMPLES=draft=<revision>,next=<revision> replays one copy (which then runs every file);
// `MCP_BUMP_SAMPLES='draft=…,next=…;draft=…,next=…'` both (A's first). Either overrides the draw.
//
// The files are every test file that reads the lock, the schemas or the generated tree, found by the rule
// `readers` states and computes over the test sources (no hand list): exclusions are listed in EXCLUDED,
// each with its reason, and printed with the selection. They are split by a rule that also changes with
// the seed: ordered by sha256("<seed> <file>"), dealt to A and B in turn. Every copy re-pins both eras, so
// each file runs against a legacy and a modern bump in every run, and meets other samples over time.
//
// The bump's result is committed in each copy first, as a maintainer commits a reviewed bump (a test reads
// what git tracks). The review items the bump names that only a reviewer settles (a new method's capability
// entry) are done there as a maintainer accepting the review report would: the entry the report proposes
// (its JSON, `review.capabilities`), or, only where it proposes none, an entry that requires nothing, each
// printed with which it is; the tree is regenerated after them.
import { spawn, spawnSync } from "node:child_process";
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
const READS = /generated\/|schemas\/|lock\.json|\b(generatedDir|schemasDir|lockFile|modelOptions|ensureSchemas|projectCopy|copyOfGenerated|defaultOutDir|defaultSchemasDir|defaultPatchesDir|methodCapabilitiesFile|lockedLabels|schemaMethods|missingMethodWhy)\b/;

/** Test files that read them but do not run in the copy, and why (printed). */
const EXCLUDED: Readonly<Record<string, string>> = {
  "test/bump/bump-suite.test.ts": "this file: it bumps a copy of the project itself (in the copy it would bump a copy of the copy)",
  "test/bump.test.ts": "bumps copies of the project itself, from whatever lock it finds: run in the copy it would only bump again",
  "test/extension-bump.test.ts": "bumps copies of the project itself (its extensions from a folder), from whatever lock it finds",
  "test/emit/typescript/sdk-suite.test.ts": "runs the TypeScript SDK 2.0.0's own suites and conformance runs (minutes) with the tree's typescript-sdk/ folder, which holds only the SDK's two dated eras: a bump that re-pins draft or adds a label leaves those rows as they were, so a copy would rerun the same proof",
  "test/emit/go/sdk-recipe.test.ts": "runs the official Go SDK's suite twice (minutes each); it vendors the dated versions the SDK names, which the bump copies leave as they are",
  "test/emit/go/sdk-types.test.ts": "compares the official Go SDK's public types with the generated ones at the dated versions the SDK names, which the bump copies leave as they are; its reviewed list of differences is of those versions",
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
  // What the set-up made, linked (never rebuilt here): the packages, the Python venv, the conformance runner's packages, pnpm.
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
const LINKED = ["node_modules", ".venv", path.join("tools", "conformance", "node_modules"), path.join("tools", "pnpm", "node_modules")];
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

const baseEnv: NodeJS.ProcessEnv = {
  ...process.env,
  MCP_SPEC_HISTORY_DIR: historyDir,
  ...(specDir ? { MCP_SPEC_DIR: specDir } : {}),
  ...(rubySdk ? { RUBY_SDK_DIR: rubySdk } : {}),
};

type Run = { status: number | null; stdout: string; stderr: string };

/** A child process, awaited (the copies run side by side), its output collected. */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (t: string) => (stdout += t));
    child.stderr.setEncoding("utf8").on("data", (t: string) => (stderr += t));
    child.on("error", (e) => resolve({ status: null, stdout, stderr: stderr + String(e) }));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/** A copy's own executable (its generator/bin.ts, from source), run in the copy. */
const bin = (copy: Copy, args: string[]) => run(process.execPath, ["--import", "tsx", path.join(copy.project, "generator", "bin.ts"), ...args], copy.project, copy.env);

type Era = "legacy" | "modern";

/** The history's sound revisions of an era, in label order: those the model builds (it refuses a broken file, and a version not negotiated by its label). */
function pool(era: Era): string[] {
  return discoverVersions(historyDir).filter((label) => eraOf(historyDir, label) === era);
}

/** The seed of the rule: $MCP_BUMP_SEED, else the HEAD commit of this checkout (so the samples change with the commit). */
function seed(): string {
  if (process.env.MCP_BUMP_SEED) return process.env.MCP_BUMP_SEED;
  const head = spawnSync("git", ["rev-parse", "HEAD"], { cwd: root, encoding: "utf8" });
  expect(head.status, `git rev-parse HEAD in ${root} (or set MCP_BUMP_SEED): ${head.stderr}`).toBe(0);
  return head.stdout.trim();
}

const index = (key: string, size: number) => parseInt(createHash("sha256").update(key).digest("hex").slice(0, 8), 16) % size;

/**
 * The rule: copy A's sample of an era is the era's pool at index sha256("<seed> <era>")'s first 8 hex
 * digits modulo its size; copy B's the same with "<seed> <era> 2" over the pool without A's sample (A's
 * again when the era has one sound revision).
 */
function draw(seedText: string, era: Era, candidates: string[]): [string, string] {
  expect(candidates.length, `sound sample revisions of the ${era} era in ${historyDir}`).toBeGreaterThan(0);
  const first = candidates[index(`${seedText} ${era}`, candidates.length)];
  const rest = candidates.filter((c) => c !== first);
  return [first, rest.length === 0 ? first : rest[index(`${seedText} ${era} 2`, rest.length)]];
}

type Samples = { draft: string; next: string };
const NAMES = ["A", "B"] as const;

/**
 * $MCP_BUMP_SAMPLES, when set: the samples to replay, one copy's `draft=<revision>,next=<revision>` or two
 * copies' separated by `;` (A's first). One copy given runs every reading file in it.
 */
function replayed(): Samples[] | null {
  const text = process.env.MCP_BUMP_SAMPLES;
  if (!text) return null;
  return text.split(";").map((group) => {
    const given = Object.fromEntries(group.split(",").map((pair) => pair.split("=").map((x) => x.trim())));
    for (const label of ["draft", "next"]) {
      expect(given[label], `MCP_BUMP_SAMPLES="${text}": expected draft=<revision>,next=<revision>[;draft=<revision>,next=<revision>]`).toBeTruthy();
      expect(existsSync(path.join(historyDir, given[label], "schema.json")), `MCP_BUMP_SAMPLES: ${given[label]} is not a revision in ${historyDir}`).toBe(true);
    }
    return { draft: given.draft, next: given.next };
  });
}

/** How many copies run: two, or as many as $MCP_BUMP_SAMPLES gives (read before the tests are collected). */
const copyCount = process.env.MCP_BUMP_SAMPLES ? process.env.MCP_BUMP_SAMPLES.split(";").length : 2;
if (copyCount > NAMES.length) throw new Error(`MCP_BUMP_SAMPLES="${process.env.MCP_BUMP_SAMPLES}": one or two copies' samples, separated by ";"`);

/**
 * The split: the reading files ordered by sha256("<seed> <file>"), dealt to the copies in turn (so each
 * copy gets half, and a file meets other samples as the seed changes).
 */
function split(files: string[], seedText: string, copies: number): string[][] {
  const key = (f: string) => createHash("sha256").update(`${seedText} ${f}`).digest("hex");
  const ordered = [...files].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  return Array.from({ length: copies }, (_, i) => ordered.filter((_, j) => j % copies === i).sort());
}

/** One capability entry the copy's review wrote: the report's proposal, or (where it proposes none) an explicit "requires nothing". */
type Reviewed = { label: string; method: string; requires: string[]; from: "proposed" | "none proposed" };

interface Copy {
  name: string;
  samples: Samples;
  to: Era;
  nextEra: Era;
  /** Prefixed to every failure message of this copy: its samples, and how to replay them. */
  text: string;
  project: string;
  env: NodeJS.ProcessEnv;
  files: string[];
  bumped?: Run;
  reviewed: Reviewed[];
  generatedAfterReview?: Run;
  check?: Run;
  /** Its share of the reading files, running (started once the copy is set up; awaited by its last test). */
  tests?: Promise<Run>;
  /** An error of the copy's own set-up (copying, committing), if any. */
  failed?: string;
}

const copies: Copy[] = [];
let picked: { from: Era; rule: string; seed: string; reading: Map<string, string>; all: string };
// The copies, their spec folders and caches (the links are removed, not followed).
let work: string | undefined;
afterAll(() => work && rmSync(work, { recursive: true, force: true }));

/** The review report's proposal for each method, per label the bump re-pinned (generated/DIFFS/<label>@<old>..<new>.json, `review.capabilities`). */
function proposals(project: string, label: string): Map<string, { requires: string[]; reason: string }> {
  const sha = lockOf(project).versions[label].sha256;
  const dir = path.join(project, "generated", "DIFFS");
  const report = readdirSync(dir).find((f) => f.startsWith(`${label}@`) && f.endsWith(".json") && sha.startsWith(/\.\.([0-9a-f]+)\.json$/.exec(f)?.[1] ?? "-"));
  if (report === undefined) return new Map();
  const data = JSON.parse(readFileSync(path.join(dir, report), "utf8")) as { review?: { capabilities: { method: string; entry: { requires: string[]; reason: string } }[] } | null };
  return new Map((data.review?.capabilities ?? []).map((p) => [p.method, p.entry]));
}

/**
 * The review items the bump names that only a reviewer settles (a method with no entry in
 * schemas/method-capabilities.json, its test failing until then), done in the copy as a maintainer
 * accepting the report would: each method gets the entry the label's review report proposes; where two
 * labels propose different ones, the first label's is `requires` and the other's its `byVersion`; where
 * the report proposes none, an explicit entry that requires nothing, saying so.
 */
function reviewCapabilities(project: string, stderr: string): Reviewed[] {
  const named = [...stderr.matchAll(/(\S+): method "([^"]+)" has no reviewed capability entry/g)].map((m) => ({ label: m[1], method: m[2] }));
  if (named.length === 0) return [];
  const byLabel = new Map<string, ReturnType<typeof proposals>>();
  const done: Reviewed[] = named.map(({ label, method }) => {
    if (!byLabel.has(label)) byLabel.set(label, proposals(project, label));
    const entry = byLabel.get(label)!.get(method);
    return { label, method, requires: entry?.requires ?? [], from: entry === undefined ? "none proposed" : "proposed" };
  });
  const file = path.join(project, "schemas", "method-capabilities.json");
  const data = JSON.parse(readFileSync(file, "utf8")) as { methods: Record<string, { requires: string[]; byVersion?: Record<string, string[]>; reason: string }> };
  for (const method of [...new Set(done.map((d) => d.method))]) {
    const mine = done.filter((d) => d.method === method);
    const reason = mine
      .map((d) => `${d.label}: ${d.from === "proposed" ? byLabel.get(d.label)!.get(method)!.reason : "the bump's report proposes no entry; the bump suite writes one that requires nothing"}`)
      .join("; ");
    const differing = mine.filter((d) => JSON.stringify(d.requires) !== JSON.stringify(mine[0].requires));
    data.methods[method] = { requires: mine[0].requires, ...(differing.length > 0 ? { byVersion: Object.fromEntries(differing.map((d) => [d.label, d.requires])) } : {}), reason };
  }
  writeFileSync(file, JSON.stringify(data, null, 2) + "\n");
  return done;
}

/** One copy set up: bump, the review items, regenerate, commit, `generate --check`; then its share of the reading files started. */
async function runCopy(copy: Copy): Promise<void> {
  const spec = path.join(path.dirname(copy.project), "spec");
  for (const [label, sample] of [["draft", copy.samples.draft], ["next", copy.samples.next]]) {
    mkdirSync(path.join(spec, label), { recursive: true });
    copyFileSync(path.join(historyDir, sample, "schema.json"), path.join(spec, label, "schema.json"));
  }
  // --format json: the review reports as data too, for the proposals the review takes.
  copy.bumped = await bin(copy, ["bump", "--from", spec, "--versions", "draft,next", "--commit", "b".repeat(40), "--format", "json"]);
  if (copy.bumped.status !== 0) return;
  copy.reviewed = reviewCapabilities(copy.project, copy.bumped.stderr);
  if (copy.reviewed.length > 0) {
    console.log(
      `bump suite, copy ${copy.name}: the review items the bump named, done in schemas/method-capabilities.json:\n` +
        copy.reviewed.map((r) => `  ${r.label} ${r.method}: requires ${JSON.stringify(r.requires)} (${r.from === "proposed" ? "the report's proposal" : "the report proposes none: requires nothing"})`).join("\n"),
    );
    copy.generatedAfterReview = await bin(copy, ["generate"]);
  }
  commitCopy(copy.project);
  copy.check = await bin(copy, ["generate", "--check"]);
  const vitest = path.join(root, "node_modules", "vitest", "vitest.mjs");
  // One worker each and generous timeouts: the two copies run side by side, beside the rest of the suite, on two cores.
  copy.tests = run(process.execPath, [vitest, "run", "--maxWorkers=1", "--testTimeout=900000", "--hookTimeout=900000", ...copy.files], copy.project, { ...copy.env, CI: "1" });
}

beforeAll(async () => {
  await ensureSchemas();
  const labels = Object.keys(lockOf(root).versions).sort();
  // The lock's draft, else its newest label: the era the re-pinned draft must leave, and next's era.
  const current = labels.includes("draft") ? "draft" : labels.at(-1)!;
  const from = eraOf(schemasDir, current)!;
  const other: Era = from === "legacy" ? "modern" : "legacy";
  const seedText = seed();
  const given = replayed();
  let samples: Samples[];
  if (given === null) {
    const drafts = draw(seedText, other, pool(other));
    const nexts = draw(seedText, from, pool(from));
    samples = NAMES.map((_, i) => ({ draft: drafts[i], next: nexts[i] }));
  } else samples = given;
  const rule = given === null ? `drawn by seed ${seedText}` : "given by MCP_BUMP_SAMPLES";
  const group = (s: Samples) => `draft=${s.draft},next=${s.next}`;
  const replay = (s: Samples[]) => `MCP_BUMP_SAMPLES='${s.map(group).join(";")}' npx vitest run test/bump/bump-suite.test.ts`;

  work = tempDir("mcp-codegen-bumped-");
  for (const [i, s] of samples.entries()) {
    const project = trackedCopy(path.join(work, NAMES[i], "project"));
    // A cache of its own (the copy's node_modules is this project's): no generation answered from ours.
    const env = { ...baseEnv, MCP_CODEGEN_CACHE_DIR: path.join(work, NAMES[i], "cache") };
    const to = eraOf(historyDir, s.draft)!;
    const nextEra = eraOf(historyDir, s.next)!;
    const text = `bump samples (${rule}), copy ${NAMES[i]}: draft=${s.draft} (${to}), next=${s.next} (${nextEra}); replay this copy: ${replay([s])}`;
    copies.push({ name: NAMES[i], samples: s, to, nextEra, text, project, env, files: [], reviewed: [] });
  }
  const reading = readers(copies[0].project);
  const files = [...reading.keys()].filter((f) => !Object.hasOwn(EXCLUDED, f));
  split(files, seedText, copies.length).forEach((share, i) => (copies[i].files = share));
  picked = { from, rule, seed: seedText, reading, all: `${copies.map((c) => c.text).join("\n")}\nreplay both: ${replay(samples)}` };
  console.log(picked.all);
  console.log(
    `bump suite: ${files.length} of ${reading.size} test files that read the lock, the schemas or generated/ run, ` +
      copies.map((c) => `${c.files.length} in copy ${c.name}`).join(", ") +
      `; left out:\n` +
      Object.entries(EXCLUDED).map(([f, why]) => `  ${f}: ${why}`).join("\n"),
  );
  // The copies side by side: each one's bump, generation and test run is its own process (the test runs
  // are awaited by each copy's last test, with its own time).
  await Promise.all(copies.map((c) => runCopy(c).catch((e: unknown) => void (c.failed = e instanceof Error ? e.message : String(e)))));
}, 1_800_000);

describe("the draw: two copies, each re-pinning labels of both eras", () => {
  it("every copy re-pins draft to the other era and adds next in draft's old era; the two copies' samples differ per era; every reading file runs in exactly one copy", () => {
    expect(copies).toHaveLength(copyCount);
    for (const c of copies) {
      // Labels of both eras re-pinned in one run (unless the samples were given otherwise).
      if (picked.rule.startsWith("drawn")) expect([c.to, c.nextEra], c.text).toEqual([picked.from === "legacy" ? "modern" : "legacy", picked.from]);
    }
    if (picked.rule.startsWith("drawn")) {
      for (const label of ["draft", "next"] as const) {
        const era = label === "draft" ? copies[0].to : copies[0].nextEra;
        if (pool(era).length > 1) expect(copies[0].samples[label], picked.all).not.toBe(copies[1].samples[label]);
      }
    }
    // An exclusion names a file the rule selects (else it is stale), and the rest is run once.
    for (const file of Object.keys(EXCLUDED)) expect(picked.reading.has(file), `${file} (EXCLUDED) is a test file that reads them`).toBe(true);
    const ran = copies.flatMap((c) => c.files);
    expect(ran.length).toBeGreaterThan(0);
    expect([...ran].sort()).toEqual([...picked.reading.keys()].filter((f) => !Object.hasOwn(EXCLUDED, f)).sort());
    for (const c of copies) expect(c.files.length, c.text).toBeGreaterThan(0);
  });
});

describe.each(NAMES.slice(0, copyCount).map((name, i) => ({ name, i })))("copy $name, after `bump --from DIR --versions draft,next`: draft to the other era, a new label of draft's old era", ({ i }) => {
  const copy = () => copies[i];

  it("bumps: draft is re-pinned to the other era's revision and next is added in draft's old era", () => {
    const c = copy();
    expect(c.failed, c.text).toBeUndefined();
    expect(c.bumped?.status, `${c.text}\n${c.bumped?.stderr}`).toBe(0);
    const lock = lockOf(c.project);
    const sha = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
    expect(lock.versions.draft.sha256, c.text).toBe(sha(path.join(historyDir, c.samples.draft, "schema.json")));
    expect(lock.versions.next.sha256, c.text).toBe(sha(path.join(historyDir, c.samples.next, "schema.json")));
    expect(eraOf(path.join(c.project, "schemas"), "draft"), c.text).toBe(c.to);
    expect(eraOf(path.join(c.project, "schemas"), "next"), c.text).toBe(c.nextEra);
    // Every other version's entry is kept.
    for (const [label, entry] of Object.entries(lockOf(root).versions)) if (label !== "draft" && label !== "next") expect(lock.versions[label], `${c.text}\n${label}`).toEqual(entry);
  });

  it("the capability review items the bump named are done with the report's proposed entries (requires nothing only where it proposes none), and the tree regenerates", () => {
    const c = copy();
    expect(c.bumped?.status, c.text).toBe(0);
    const data = JSON.parse(readFileSync(path.join(c.project, "schemas", "method-capabilities.json"), "utf8")) as { methods: Record<string, { requires: string[]; byVersion?: Record<string, string[]> }> };
    for (const r of c.reviewed) {
      const entry = data.methods[r.method];
      expect(entry.byVersion?.[r.label] ?? entry.requires, `${c.text}\n${r.label} ${r.method}`).toEqual(r.requires);
      // A proposal is taken whenever the label's report has one.
      expect(r.from === "proposed", `${c.text}\n${r.label} ${r.method}: the report's proposal`).toBe(proposals(c.project, r.label).has(r.method));
    }
    if (c.generatedAfterReview !== undefined) expect(c.generatedAfterReview.status, `${c.text}\nafter the review of ${c.reviewed.map((r) => `${r.label} ${r.method}`).join(", ")}: ${c.generatedAfterReview.stderr}`).toBe(0);
  });

  it("`generate --check` exits 0", () => {
    const c = copy();
    expect(c.check?.status, `${c.text}\n${c.check?.stdout.slice(0, 2000)}${c.check?.stderr}`).toBe(0);
  });

  it("its share of the test files that read the lock, the schemas or generated/ passes in the copy", async () => {
    const c = copy();
    expect(c.tests, `${c.text}\n${c.failed ?? "the bump failed"}`).toBeDefined();
    const tests = await c.tests!;
    const output = (tests.stdout + tests.stderr).replace(/\x1b\[[0-9;]*m/g, "");
    const failures = output.split("\n").filter((l) => /FAIL|✗|×/.test(l));
    expect(failures.slice(0, 40), `${c.text}\n${output.slice(-8000)}`).toEqual([]);
    expect(tests.status, `${c.text}\n${output.slice(-8000)}`).toBe(0);
    // Every file ran (none was skipped or found empty).
    for (const file of c.files) expect(output, `${c.text}\n${file}`).toMatch(new RegExp(`✓ ${file.replace(/[./+]/g, "\\$&")} \\(\\d+ tests?\\)`));
    // vitest's summary counts no skipped file or test (the word alone appears in tests' own output).
    expect(output).not.toMatch(/^\s*(Test Files|Tests)\s.*\bskipped\b/m);
  }, 3_600_000);
});
