// Transport benchmarks: the generated router behind the shipped transports vs the official SDK's own
// server on the same transport, under the same load, side by side in one run. Each server is its own
// process; the load is C clients each sending tools/call one after another (the official clients:
// SDK 1.32.2 at 2025-11-25, @modelcontextprotocol/client 2.4.0 at 2026-07-28). Rounds alternate between
// the servers after a warm-up round each; throughput is the median round's, p99 over every measured call.
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

const here = path.dirname(fileURLToPath(import.meta.url));
const server = path.join(here, "transport-server.ts");
const args = (kind: string, transport: string) => ["--import", "tsx", server, kind, transport];

export type Era = "legacy" | "modern";
export type Connected = { call(text: string): Promise<unknown>; close(): Promise<void> };

/** One of bench/transport-server.ts's servers over HTTP in its own process. */
export function startHttp(kind: string): Promise<{ url: string; child: ChildProcess; token?: string }> {
  const child = spawn(process.execPath, args(kind, "http"), { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.once("exit", (code) => reject(new Error(`${kind} http server exited ${code}`)));
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      const m = /listening (\S+)(?: token=(\S+))?\n/.exec(out);
      if (m !== null) {
        child.removeAllListeners("exit");
        resolve({ url: m[1], child, ...(m[2] === undefined ? {} : { token: m[2] }) });
      }
    });
  });
}

async function connect(era: Era, transport: "http" | "stdio", target: string): Promise<Connected> {
  if (era === "legacy") {
    const client = new LegacyClient({ name: "bench", version: "1.0.0" });
    await client.connect(transport === "http" ? new LegacyHttp(new URL(target)) : new LegacyStdio({ command: process.execPath, args: args(target, "stdio"), stderr: "inherit" }));
    return { call: (text) => client.callTool({ name: "echo", arguments: { text } }), close: () => client.close() };
  }
  const client = new ModernClient({ name: "bench", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(transport === "http" ? new ModernHttp(new URL(target)) : new ModernStdio({ command: process.execPath, args: args(target, "stdio"), stderr: "inherit" }));
  return { call: (text) => client.callTool({ name: "echo", arguments: { text } }), close: () => client.close() };
}

/** One round: every client sends `calls` requests back to back; throughput and each call's latency (ms). */
export async function round(clients: Connected[], calls: number): Promise<{ rps: number; latencies: number[] }> {
  const latencies: number[] = [];
  const start = process.hrtime.bigint();
  await Promise.all(
    clients.map(async (client, c) => {
      for (let i = 0; i < calls; i++) {
        const t = process.hrtime.bigint();
        const result = (await client.call(`${c}:${i}`)) as { content: { text: string }[] };
        latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
        if (result.content[0].text !== `${c}:${i}`) throw new Error("wrong echo");
      }
    }),
  );
  return { rps: (clients.length * calls) / (Number(process.hrtime.bigint() - start) / 1e9), latencies };
}

export function p99(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)];
}

interface Case {
  name: string;
  era: Era;
  transport: "http" | "stdio";
  /** The official server it is compared with. */
  sdk: "sdk1" | "sdk2";
  sdkName: string;
  clients: number;
}

async function compare(c: Case, calls: number, rounds: number): Promise<Row[]> {
  const children: ChildProcess[] = [];
  const sides: Record<"ours" | "sdk", Connected[]> = { ours: [], sdk: [] };
  try {
    for (const side of ["ours", "sdk"] as const) {
      const kind = side === "ours" ? "ours" : c.sdk;
      let target = kind;
      if (c.transport === "http") {
        const started = await startHttp(kind);
        children.push(started.child);
        target = started.url;
      }
      // Over stdio each client is its own server process (one client per stdio connection).
      for (let i = 0; i < c.clients; i++) sides[side].push(await connect(c.era, c.transport, target));
    }
    const samples: Record<"ours" | "sdk", { rps: number[]; latencies: number[] }> = { ours: { rps: [], latencies: [] }, sdk: { rps: [], latencies: [] } };
    for (const side of ["ours", "sdk"] as const) await round(sides[side], calls);
    for (let r = 0; r < rounds; r++) {
      for (const side of ["ours", "sdk"] as const) {
        const result = await round(sides[side], calls);
        samples[side].rps.push(result.rps);
        samples[side].latencies.push(...result.latencies);
      }
    }
    const ours = { rps: median(samples.ours.rps), p99: p99(samples.ours.latencies) };
    const sdk = { rps: median(samples.sdk.rps), p99: p99(samples.sdk.latencies) };
    const label = `tools/call over ${c.transport === "http" ? "loopback HTTP" : "stdio"}, ${c.clients} clients, ${c.era === "legacy" ? "SDK 1.32.2 client at 2025-11-25" : "client 2.4.0 at 2026-07-28"}: generated vs ${c.sdkName}`;
    return [
      { name: `${label}, throughput`, value: ours.rps, unit: "req/s", baseline: sdk.rps, ratio: ours.rps / sdk.rps, target: "≥ 1.0× the SDK's own server", met: ours.rps >= sdk.rps },
      { name: `${label}, p99 latency`, value: ours.p99, unit: "ms", baseline: sdk.p99, ratio: ours.p99 / sdk.p99, target: "(information; ratio = ours/SDK)", met: true },
    ];
  } finally {
    await Promise.allSettled([...sides.ours, ...sides.sdk].map((s) => s.close()));
    for (const child of children) if (child.exitCode === null) process.kill(child.pid!, "SIGTERM");
  }
}

export async function transportBenchmarks(rounds: number): Promise<Row[]> {
  const cases: Case[] = [
    { name: "legacy-http", era: "legacy", transport: "http", sdk: "sdk1", sdkName: "SDK 1.32.2 McpServer + StreamableHTTPServerTransport", clients: 8 },
    { name: "modern-http", era: "modern", transport: "http", sdk: "sdk2", sdkName: "SDK 2.4.0 McpServer + createMcpHandler", clients: 8 },
    { name: "legacy-stdio", era: "legacy", transport: "stdio", sdk: "sdk1", sdkName: "SDK 1.32.2 McpServer + StdioServerTransport", clients: 2 },
    { name: "modern-stdio", era: "modern", transport: "stdio", sdk: "sdk2", sdkName: "SDK 2.4.0 McpServer + serveStdio", clients: 2 },
  ];
  const rows: Row[] = [];
  for (const c of cases) {
    process.stderr.write(`transport benchmark: ${c.name}…\n`);
    rows.push(...(await compare(c, 150, Math.max(3, Math.min(rounds, 5)))));
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await transportBenchmarks(3)) console.log(`${row.name}: ${row.value.toFixed(1)} ${row.unit} vs ${row.baseline?.toFixed(1)} (${row.ratio?.toFixed(2)}×)`);
}
