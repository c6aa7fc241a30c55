// `npm run bench`: side-by-side measurements, medians after a warm-up, a printed table and
// bench/results.json. Benchmarks are not tests: nothing here fails on a time.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildVersionModel } from "../generator/model/build.js";
import { loadSpec } from "../generator/source/load.js";
import { targets } from "../generator/emit/targets.js";
import { checkConsumer, consumerProject, removeProject, timeAvailable, type TscRun } from "./typecheck.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const cli = path.join(root, "dist", "generator", "bin.js");
const schemasDir = path.join(root, "schemas");
const labels = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", "draft"];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Wall time of one whole process, in ms. */
function timeProcess(args: string[]): number {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd: root, encoding: "utf8" });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return ms;
}

/** Wall time of one whole command (not a node script: e.g. npm), in ms. */
function timeCommand(command: string, args: string[]): number {
  const start = process.hrtime.bigint();
  const r = spawnSync(command, args, { cwd: root, encoding: "utf8" });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return ms;
}

/** Run the commands interleaved (A B A B …) after one warm-up each; medians in ms. */
function sideBySide(commands: Record<string, () => number>): Record<string, { median: number; runs: number[] }> {
  for (const run of Object.values(commands)) run();
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
  for (let i = 0; i < RUNS; i++) for (const [k, run] of Object.entries(commands)) samples[k].push(run());
  return Object.fromEntries(Object.entries(samples).map(([k, runs]) => [k, { median: median(runs), runs }]));
}

export interface Row {
  name: string;
  value: number;
  unit: string;
  baseline?: number;
  ratio?: number;
  target: string;
  met: boolean;
}

export function generationBenchmarks(): Row[] {
  const out = mkdtempSync(path.join(tmpdir(), "mcp-codegen-bench-"));
  try {
    const gen = sideBySide({
      ours: () => timeProcess([cli, "generate", "--no-cache", "--out", path.join(out, "ours")]),
      allTargets: () => timeProcess([cli, "generate", "--no-cache", "--target", targets.names.join(","), "--out", path.join(out, "all")]),
      typescriptOnly: () => timeProcess([cli, "generate", "--no-cache", "--target", "typescript", "--out", path.join(out, "typescript")]),
      oursWarm: () => timeProcess([cli, "generate", "--out", path.join(out, "warm")]),
      baseline: () => timeProcess([path.join(root, "bench", "baseline-jsstt.mjs"), schemasDir, path.join(out, "baseline"), ...labels]),
    });
    // The README's own command (npm included), the compiled executable alone, and Node doing nothing.
    const check = sideBySide({
      readme: () => timeCommand("npm", ["run", "-s", "generate", "--", "--check"]),
      check: () => timeProcess([cli, "generate", "--check"]),
      node: () => timeProcess(["-e", "0"]),
    });
    const ratio = gen.ours.median / gen.baseline.median;
    return [
      { name: "full generation, 6 versions, no cache (whole process)", value: gen.ours.median, unit: "ms", baseline: gen.baseline.median, ratio, target: "≤ 1.0× json-schema-to-typescript alone", met: ratio <= 1 },
      {
        name: "full generation, 6 versions, warm compiler cache (whole process)",
        value: gen.oursWarm.median,
        unit: "ms",
        baseline: gen.baseline.median,
        ratio: gen.oursWarm.median / gen.baseline.median,
        target: "(information)",
        met: true,
      },
      {
        name: `full generation, all targets (${targets.names.join(", ")}) vs TypeScript alone, 6 versions, no cache (whole process)`,
        value: gen.allTargets.median,
        unit: "ms",
        baseline: gen.typescriptOnly.median,
        ratio: gen.allTargets.median / gen.typescriptOnly.median,
        target: "(information: what the other targets add)",
        met: true,
      },
      {
        name: "`npm run generate -- --check`, unchanged tree (the README's command, whole process)",
        value: check.readme.median,
        unit: "ms",
        target: "≤ 300 ms",
        met: check.readme.median <= 300,
      },
      {
        name: "`mcp-codegen generate --check`, unchanged tree (compiled bin, whole process) vs `node -e 0`",
        value: check.check.median,
        unit: "ms",
        baseline: check.node.median,
        ratio: check.check.median / check.node.median,
        target: "≤ 300 ms",
        met: check.check.median <= 300,
      },
    ];
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The spec's published revisions beside the checkout (the development sample), or $MCP_SPEC_HISTORY_DIR. */
const historyDir = path.resolve(
  process.env.MCP_SPEC_HISTORY_DIR ||
    [path.join(root, "..", "shared", "mcp-spec-history"), path.join(root, "..", "..", "shared", "mcp-spec-history")].find((d) => existsSync(d)) ||
    path.join(root, "..", "shared", "mcp-spec-history"),
);

/**
 * Generation cost per version: the six pinned versions alone, and with every sample revision the
 * model accepts (a revision that is genuinely broken is left out) in one run. Growth no faster than
 * linear means the larger run costs no more per version than the six.
 */
export function scalingBenchmarks(): Row[] {
  const name = "generation per version: 6 pinned + the sample revisions in one run, vs 6 pinned alone (no cache, whole process)";
  const target = "≤ 1.0× the six-version cost per version";
  if (!existsSync(historyDir)) return [{ name: `${name}: no revisions at ${historyDir}`, value: NaN, unit: "ms", target, met: false }];
  const out = mkdtempSync(path.join(tmpdir(), "mcp-codegen-bench-"));
  try {
    const revisions = readdirSync(historyDir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && existsSync(path.join(historyDir, e.name, "schema.json")))
      .map((e) => e.name)
      .filter((label) => {
        try {
          buildVersionModel(loadSpec(path.join(historyDir, label, "schema.json"), label), { specCommit: null });
          return true;
        } catch {
          return false;
        }
      });
    const folder = (dir: string, entries: Array<[string, string]>) => {
      for (const [label, file] of entries) {
        mkdirSync(path.join(dir, label), { recursive: true });
        copyFileSync(file, path.join(dir, label, "schema.json"));
      }
      return dir;
    };
    const pinned = labels.map((l): [string, string] => [l, path.join(schemasDir, l, "schema.json")]);
    const six = folder(path.join(out, "six"), pinned);
    const all = folder(path.join(out, "all"), [...pinned, ...revisions.map((l): [string, string] => [l, path.join(historyDir, l, "schema.json")])]);
    const count = labels.length + revisions.length;
    let gen: ReturnType<typeof sideBySide>;
    try {
      gen = sideBySide({
        six: () => timeProcess([cli, "generate", "--no-cache", "--schemas", six, "--out", path.join(out, "six-out")]),
        all: () => timeProcess([cli, "generate", "--no-cache", "--schemas", all, "--out", path.join(out, "all-out")]),
      });
    } catch (e) {
      const why = (e as Error).message.split("\n").find((l) => /error/i.test(l)) ?? (e as Error).message.split("\n")[0];
      return [{ name: `${name}: generation failed (${why.slice(0, 160)})`, value: NaN, unit: "ms", target, met: false }];
    }
    const perSix = gen.six.median / labels.length;
    const perAll = gen.all.median / count;
    return [
      { name: `generation per version, ${count} versions (6 pinned + ${revisions.length} sample revisions) in one run (no cache, whole process)`, value: perAll, unit: "ms", baseline: perSix, ratio: perAll / perSix, target, met: perAll <= perSix },
    ];
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/**
 * A consumer's type-check (strict, `skipLibCheck: false`, whole `tsc` process): a file serving
 * 2025-11-25 through the router beside a file using the official SDK's `Client` alone (see
 * bench/typecheck.ts). Interleaved after a warm-up each; medians of $BENCH_TSC_RUNS (default 5).
 */
export function typeCheckBenchmarks(): Row[] {
  const name = "consumer type-check, router + one version vs the SDK's Client alone (tsc, skipLibCheck false, whole process)";
  const target = "≤ 1.0× the SDK client's";
  if (!timeAvailable()) return [{ name: `${name}: /usr/bin/time is missing`, value: NaN, unit: "ms", target, met: false }];
  const runs = Number(process.env.BENCH_TSC_RUNS ?? 5);
  const dir = consumerProject(root);
  try {
    const samples: Record<"generated" | "sdk", TscRun[]> = { generated: [], sdk: [] };
    checkConsumer(root, dir, "generated");
    checkConsumer(root, dir, "sdk");
    for (let i = 0; i < runs; i++) for (const k of ["generated", "sdk"] as const) samples[k].push(checkConsumer(root, dir, k));
    const ms = (k: "generated" | "sdk") => median(samples[k].map((r) => r.ms));
    const mb = (k: "generated" | "sdk") => median(samples[k].map((r) => r.maxRssKb)) / 1024;
    return [
      { name: `${name}: time`, value: ms("generated"), unit: "ms", baseline: ms("sdk"), ratio: ms("generated") / ms("sdk"), target, met: ms("generated") <= ms("sdk") },
      { name: `${name}: peak memory (max RSS)`, value: mb("generated"), unit: "MB", baseline: mb("sdk"), ratio: mb("generated") / mb("sdk"), target, met: mb("generated") <= mb("sdk") },
    ];
  } finally {
    removeProject(dir);
  }
}

function fmt(n: number): string {
  return n >= 1000 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2);
}

async function runtimeBenchmarks(): Promise<Row[]> {
  const { callToolResults, dispatchSideBySide, emptyInputs, invalidCallToolResults, opsSideBySide } = await import("./runtime.js");
  const v = await import("../generated/2025-11-25/index.js");
  const { CallToolResultSchema: SdkCallToolResultSchema } = await import("@modelcontextprotocol/sdk/types.js");
  const callToolSchema = v.resultSchemas["tools/call"];
  const callToolGuard = v.resultGuards["tools/call"];
  const ops = opsSideBySide(
    {
      empty: { fn: v.normalizeSubscribeResult, inputs: emptyInputs },
      callTool: { fn: v.normalizeCallToolResult, inputs: callToolResults },
      // What the dispatcher does with result validation on: normalize, then the guard, and the schema only when the guard says false.
      callToolValidated: {
        fn: (x) => {
          const result = v.normalizeCallToolResult(x);
          return callToolGuard(result) || callToolSchema.safeParse(result).success;
        },
        inputs: callToolResults,
      },
    },
    1_000_000,
    RUNS,
  );
  const mixed = [...callToolResults, ...invalidCallToolResults];
  const parse = opsSideBySide(
    {
      ours: { fn: (x) => v.CallToolResultSchema.safeParse(x), inputs: mixed },
      sdk: { fn: (x) => SdkCallToolResultSchema.safeParse(x), inputs: mixed },
    },
    200_000,
    RUNS,
  );
  const dispatch = await dispatchSideBySide(2000, RUNS);
  return [
    { name: "empty normalizer (resources/subscribe)", value: ops.empty / 1e6, unit: "M ops/s", target: "≥ 20 M ops/s", met: ops.empty >= 20e6 },
    { name: "CallToolResult normalizer, validation off", value: ops.callTool / 1e6, unit: "M ops/s", target: "reference for the row below", met: true },
    {
      name: "CallToolResult normalizer, validation on",
      value: ops.callToolValidated / 1e6,
      unit: "M ops/s",
      baseline: ops.callTool / 1e6,
      ratio: ops.callTool / ops.callToolValidated,
      target: "slowdown ≤ 3× validation off (ratio = off/on)",
      met: ops.callTool / ops.callToolValidated <= 3,
    },
    {
      name: "CallToolResultSchema.safeParse, valid + invalid inputs: generated vs the SDK's",
      value: parse.ours / 1e6,
      unit: "M ops/s",
      baseline: parse.sdk / 1e6,
      ratio: parse.ours / parse.sdk,
      target: "≥ 1.0× the SDK's schema",
      met: parse.ours >= parse.sdk,
    },
    ...Object.entries(dispatch).map(([method, r]) => ({
      name: `dispatch ${method} via SDK Client/InMemoryTransport: generated vs SDK Server`,
      value: r.generated,
      unit: "req/s",
      baseline: r.sdk,
      ratio: r.generated / r.sdk,
      target: "≥ 1.0× the SDK's own Server",
      met: r.generated / r.sdk >= 1,
    })),
  ];
}

async function main() {
  const { transportBenchmarks } = await import("./transports.js");
  const { scaleBenchmarks } = await import("./scale.js");
  const { tasksBenchmarks } = await import("./tasks.js");
  const { clientBenchmarks } = await import("./client.js");
  const { pythonBenchmarks } = await import("./python.js");
  const rows: Row[] = [
    ...generationBenchmarks(),
    ...scalingBenchmarks(),
    ...typeCheckBenchmarks(),
    ...(await runtimeBenchmarks()),
    ...(await tasksBenchmarks(RUNS)),
    ...(await transportBenchmarks(RUNS)),
    ...(await pythonBenchmarks(RUNS)),
    ...(await scaleBenchmarks(RUNS)),
    ...(await clientBenchmarks(Math.max(3, Math.min(RUNS, 5)))),
  ];
  const table = [
    "| benchmark | value | baseline | ratio | target | met |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows.map((r) => `| ${r.name} | ${fmt(r.value)} ${r.unit} | ${r.baseline === undefined ? "—" : `${fmt(r.baseline)} ${r.unit}`} | ${r.ratio === undefined ? "—" : `${r.ratio.toFixed(2)}×`} | ${r.target} | ${r.met ? "yes" : "no"} |`),
  ].join("\n");
  process.stdout.write(table + "\n");
  writeFileSync(
    path.join(root, "bench", "results.json"),
    JSON.stringify({ node: process.version, runs: RUNS, date: new Date().toISOString(), rows }, null, 2) + "\n",
  );
}

await main();
