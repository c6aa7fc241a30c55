// The Tasks extension's rows of `npm run bench`:
// - a task-augmented tools/call (create, then one tasks/get) beside a plain tools/call, through the
//   generated router at 2026-07-28 in this process (no transport: the runtime's own cost), rounds
//   alternating;
// - the memory of 10,000 live tasks in the in-memory store: heap used after GC, in a fresh process
//   (`node --expose-gc`), with and without the tasks.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Row } from "./run.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const LIVE_TASKS = 10_000;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

async function callRates(requests: number, rounds: number): Promise<{ plain: number; task: number }> {
  const { createServerRouter } = await import("../generated/router.js");
  const { task, tasksExtension, TASKS_EXTENSION } = await import("../generated/runtime/tasks.js");
  const { createMemoryTaskStore } = await import("../generated/runtime/task-store.js");
  const content = [{ type: "text" as const, text: "ok" }];
  const extension = tasksExtension({
    // Every task of every round stays within its TTL: room for all of them (the default bound is 10,000).
    store: createMemoryTaskStore({ maxTasks: requests * (rounds + 1) + 1 }),
    handlers: { "tools/call": ({ name }: { name: string }) => (name === "task" ? task(() => ({ content })) : { content }) } as never,
  });
  const router = createServerRouter({
    serverInfo: { name: "bench", version: "1" },
    versions: { "2026-07-28": { handlers: {}, capabilities: { tools: {} }, extensions: { [TASKS_EXTENSION]: extension } } },
  });
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS_EXTENSION]: {} } },
  };
  let id = 0;
  const plain = async () => {
    await router.handle({ jsonrpc: "2.0", id: ++id, method: "tools/call", params: { name: "plain", _meta: meta } });
  };
  const augmented = async () => {
    const created = (await router.handle({ jsonrpc: "2.0", id: ++id, method: "tools/call", params: { name: "task", _meta: meta } })) as { result: { taskId: string } };
    await router.handle({ jsonrpc: "2.0", id: ++id, method: "tasks/get", params: { taskId: created.result.taskId, _meta: meta } });
  };
  const rate = async (fn: () => Promise<void>) => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < requests; i++) await fn();
    return requests / (Number(process.hrtime.bigint() - start) / 1e9);
  };
  await rate(plain);
  await rate(augmented);
  const samples = { plain: [] as number[], task: [] as number[] };
  for (let r = 0; r < rounds; r++) {
    samples.plain.push(await rate(plain));
    samples.task.push(await rate(augmented));
  }
  await extension.idle();
  return { plain: median(samples.plain), task: median(samples.task) };
}

/** Heap used (bytes) after GC in a fresh process holding `count` live tasks in the memory store. */
function heapWith(count: number): number {
  const script = `
    const { createMemoryTaskStore } = await import(${JSON.stringify(pathToFileURL(path.join(here, "..", "generated", "runtime", "task-store.ts")).href)});
    const store = createMemoryTaskStore();
    const now = new Date().toISOString();
    for (let i = 0; i < ${count}; i++) {
      await store.create({ taskId: crypto.randomUUID(), status: "working", createdAt: now, lastUpdatedAt: now, ttlMs: 3600000, pollIntervalMs: 1000 });
    }
    for (let i = 0; i < 3; i++) globalThis.gc();
    console.log(process.memoryUsage().heapUsed);
    globalThis.keep = store;
  `;
  const r = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", "--input-type=module", "-e", script], { cwd: path.join(here, ".."), encoding: "utf8" });
  if (r.status !== 0) throw new Error(`the memory probe exited ${r.status}: ${r.stderr}`);
  return Number(r.stdout.trim().split("\n").pop());
}

export async function tasksBenchmarks(rounds: number): Promise<Row[]> {
  const rates = await callRates(2000, rounds);
  const empty: number[] = [];
  const full: number[] = [];
  for (let i = 0; i < Math.min(rounds, 5); i++) {
    empty.push(heapWith(0));
    full.push(heapWith(LIVE_TASKS));
  }
  const bytes = median(full) - median(empty);
  return [
    {
      name: "tools/call at 2026-07-28 through the router (in process): task-augmented (create + one tasks/get) vs plain",
      value: rates.task,
      unit: "calls/s",
      baseline: rates.plain,
      ratio: rates.plain / rates.task,
      target: "ratio = plain/task ≤ 10× (a task round trip is two requests and a task's whole life)",
      met: rates.plain / rates.task <= 10,
    },
    {
      name: `memory of ${LIVE_TASKS.toLocaleString("en-US")} live tasks in the in-memory store (heap after GC, fresh process)`,
      value: bytes / 1e6,
      unit: "MB",
      target: `≤ 2 KB per task (${Math.round(bytes / LIVE_TASKS)} bytes)`,
      met: bytes / LIVE_TASKS <= 2048,
    },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  for (const row of await tasksBenchmarks(Number(process.env.BENCH_RUNS ?? 7))) console.log(JSON.stringify(row));
}
