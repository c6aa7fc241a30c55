// Python benchmarks: the generated Python package's server (its router behind its own transports) vs the official
// Python SDK's server (mcp 2.3.0, MCPServer) serving the same tool, each a whole process (bench/python-server.py),
// side by side in one run. The load is bench/transports.ts's: C clients each sending tools/call one after another
// (the official TypeScript clients: SDK 1.32.2 at 2025-11-25, @modelcontextprotocol/client 2.4.0 at 2026-07-28),
// rounds alternating between the servers after a warm-up round each. Cold start: spawning a stdio server to reading
// its answer to the first request (a legacy `initialize`, a 2026-07-28 `server/discover`), alternating, the median.
// `npx tsx bench/python.ts [rounds]` prints the rows alone; `npm run bench` includes them.
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as LegacyStdio } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as LegacyHttp } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from "@modelcontextprotocol/client";
import { StdioClientTransport as ModernStdio } from "@modelcontextprotocol/client/stdio";
import type { Row } from "./run.js";
import { median } from "./runtime.js";
import { type Connected, type Era, p99, round } from "./transports.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const python = path.join(root, ".venv", "bin", "python");
const script = path.join(root, "bench", "python-server.py");
const env = { PYTHONPATH: path.join(root, "generated", "python"), PYTHONDONTWRITEBYTECODE: "1" };
type Kind = "ours" | "sdk";
const SDK = "Python SDK 2.3.0 MCPServer";

function startHttp(kind: Kind): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(python, [script, kind, "http"], { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.once("exit", (code) => reject(new Error(`python-server.py ${kind} http exited ${code}`)));
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      const m = /listening (\S+)\n/.exec(out);
      if (m !== null) {
        child.removeAllListeners("exit");
        resolve({ url: m[1], child });
      }
    });
  });
}

async function connect(era: Era, transport: "http" | "stdio", kind: Kind, url?: string): Promise<Connected> {
  const stdio = { command: python, args: [script, kind, "stdio"], env: { ...env, PATH: process.env.PATH ?? "" }, cwd: root, stderr: "inherit" as const };
  if (era === "legacy") {
    const client = new LegacyClient({ name: "bench", version: "1.0.0" });
    await client.connect(transport === "http" ? new LegacyHttp(new URL(url!)) : new LegacyStdio(stdio));
    return { call: (text) => client.callTool({ name: "echo", arguments: { text } }), close: () => client.close() };
  }
  const client = new ModernClient({ name: "bench", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(transport === "http" ? new ModernHttp(new URL(url!)) : new ModernStdio(stdio));
  return { call: (text) => client.callTool({ name: "echo", arguments: { text } }), close: () => client.close() };
}

async function compare(era: Era, transport: "http" | "stdio", clients: number, calls: number, rounds: number): Promise<Row[]> {
  const children: ChildProcess[] = [];
  const sides: Record<Kind, Connected[]> = { ours: [], sdk: [] };
  try {
    for (const kind of ["ours", "sdk"] as const) {
      let url: string | undefined;
      if (transport === "http") {
        const started = await startHttp(kind);
        children.push(started.child);
        url = started.url;
      }
      // Over stdio each client is its own server process.
      for (let i = 0; i < clients; i++) sides[kind].push(await connect(era, transport, kind, url));
    }
    const samples: Record<Kind, { rps: number[]; latencies: number[] }> = { ours: { rps: [], latencies: [] }, sdk: { rps: [], latencies: [] } };
    for (const kind of ["ours", "sdk"] as const) await round(sides[kind], calls);
    for (let r = 0; r < rounds; r++) {
      for (const kind of ["ours", "sdk"] as const) {
        const result = await round(sides[kind], calls);
        samples[kind].rps.push(result.rps);
        samples[kind].latencies.push(...result.latencies);
      }
    }
    const ours = { rps: median(samples.ours.rps), p99: p99(samples.ours.latencies) };
    const sdk = { rps: median(samples.sdk.rps), p99: p99(samples.sdk.latencies) };
    const label = `Python server: tools/call over ${transport === "http" ? "loopback HTTP" : "stdio"}, ${clients} clients, ${era === "legacy" ? "SDK 1.32.2 client at 2025-11-25" : "client 2.4.0 at 2026-07-28"}: generated vs ${SDK}`;
    return [
      { name: `${label}, throughput`, value: ours.rps, unit: "req/s", baseline: sdk.rps, ratio: ours.rps / sdk.rps, target: "≥ 1.0× the SDK's server", met: ours.rps >= sdk.rps },
      { name: `${label}, p99 latency`, value: ours.p99, unit: "ms", baseline: sdk.p99, ratio: ours.p99 / sdk.p99, target: "(information; ratio = ours/SDK)", met: true },
    ];
  } finally {
    await Promise.allSettled([...sides.ours, ...sides.sdk].map((s) => s.close()));
    for (const child of children) if (child.exitCode === null) process.kill(child.pid!, "SIGTERM");
  }
}

const FIRST: Record<Era, Record<string, unknown>> = {
  legacy: { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "0" } } },
  modern: { jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } } },
};

/** Spawn a stdio server, write the first request at once, and time until its answer's line is read (ms). */
function coldStart(kind: Kind, era: Era): Promise<number> {
  const start = process.hrtime.bigint();
  const child = spawn(python, [script, kind, "stdio"], { cwd: root, env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "ignore"] });
  child.stdin!.write(`${JSON.stringify(FIRST[era])}\n`);
  return new Promise((resolve, reject) => {
    let out = "";
    child.once("exit", (code) => reject(new Error(`python-server.py ${kind} stdio exited ${code} before answering`)));
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      if (!out.includes("\n")) return;
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const answer = JSON.parse(out.slice(0, out.indexOf("\n"))) as { id?: unknown; result?: unknown };
      child.removeAllListeners("exit");
      child.stdin!.end();
      if (child.exitCode === null) process.kill(child.pid!, "SIGTERM");
      if (answer.id !== 1 || answer.result === undefined) reject(new Error(`python-server.py ${kind}: ${out}`));
      else resolve(ms);
    });
  });
}

async function coldStarts(era: Era, runs: number): Promise<Row> {
  const samples: Record<Kind, number[]> = { ours: [], sdk: [] };
  for (const kind of ["ours", "sdk"] as const) await coldStart(kind, era);
  for (let i = 0; i < runs; i++) for (const kind of ["ours", "sdk"] as const) samples[kind].push(await coldStart(kind, era));
  const ours = median(samples.ours);
  const sdk = median(samples.sdk);
  const first = era === "legacy" ? "initialize at 2025-11-25" : "server/discover at 2026-07-28";
  return { name: `Python server: cold start over stdio to the answer of ${first}: generated vs ${SDK}`, value: ours, unit: "ms", baseline: sdk, ratio: ours / sdk, target: "≤ 1.0× the SDK's", met: ours <= sdk };
}

export async function pythonBenchmarks(rounds: number): Promise<Row[]> {
  const rows: Row[] = [];
  for (const [era, transport, clients] of [
    ["legacy", "http", 8],
    ["modern", "http", 8],
    ["legacy", "stdio", 2],
    ["modern", "stdio", 2],
  ] as const) {
    process.stderr.write(`python benchmark: ${era} ${transport}…\n`);
    rows.push(...(await compare(era, transport, clients, 150, Math.max(3, Math.min(rounds, 5)))));
  }
  for (const era of ["legacy", "modern"] as const) rows.push(await coldStarts(era, Math.max(3, rounds)));
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await pythonBenchmarks(Number(process.argv[2] ?? 3))) console.log(`${row.name}: ${row.value.toFixed(1)} ${row.unit} vs ${row.baseline?.toFixed(1)} (${row.ratio?.toFixed(2)}×)`);
}
