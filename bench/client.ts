// Client benchmarks: requests per second through the generated client (generated/client.ts) vs the
// official SDK's Client (1.32.2 at 2025-11-25, @modelcontextprotocol/client 2.4.0 at 2026-07-28)
// against the same server process (the generated router, bench/transport-server.ts `ours`), side by
// side in one run, over loopback HTTP and stdio at both eras: C loops each calling tools/call one after
// another; rounds alternate between the two clients after a warm-up each; throughput is the median round's.

import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as LegacyStdio } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as LegacyHttp } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from "@modelcontextprotocol/client";
import { StdioClientTransport as ModernStdio } from "@modelcontextprotocol/client/stdio";
// The compiled generated client (dist/generated, built by `npm run bench`), as the SDK clients it is compared with are.
import { createClient, httpClientTransport, stdioClientTransport } from "../dist/generated/client.js";
import type { Row } from "./run.js";
import { median } from "./runtime.js";
import { startHttp } from "./transports.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const serverArgs = ["--import", "tsx", path.join(here, "transport-server.ts"), "ours", "stdio"];
type Connected = { call(text: string): Promise<unknown>; close(): Promise<void> };

async function generated(transport: "http" | "stdio", era: "legacy" | "modern", url: string): Promise<Connected> {
  const client = createClient({ clientInfo: { name: "bench", version: "1.0.0" }, versions: [era === "legacy" ? "2025-11-25" : "2026-07-28"] });
  await client.connect(transport === "http" ? httpClientTransport(url) : stdioClientTransport({ command: process.execPath, args: serverArgs }));
  return { call: (text) => client.request("tools/call", { name: "echo", arguments: { text } }), close: () => client.close() };
}

async function sdk(transport: "http" | "stdio", era: "legacy" | "modern", url: string): Promise<Connected> {
  if (era === "legacy") {
    const client = new LegacyClient({ name: "bench", version: "1.0.0" });
    await client.connect(transport === "http" ? new LegacyHttp(new URL(url)) : new LegacyStdio({ command: process.execPath, args: serverArgs }));
    return { call: (text) => client.callTool({ name: "echo", arguments: { text } }), close: () => client.close() };
  }
  const client = new ModernClient({ name: "bench", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(transport === "http" ? new ModernHttp(new URL(url)) : new ModernStdio({ command: process.execPath, args: serverArgs }));
  return { call: (text) => client.callTool({ name: "echo", arguments: { text } }), close: () => client.close() };
}

async function round(clients: Connected[], calls: number): Promise<number> {
  const start = performance.now();
  await Promise.all(clients.map(async (c, i) => {
    for (let n = 0; n < calls; n++) await c.call(`c${i}-${n}`);
  }));
  return (clients.length * calls) / ((performance.now() - start) / 1000);
}

export async function clientBenchmarks(rounds: number): Promise<Row[]> {
  const rows: Row[] = [];
  const cases = [
    { transport: "http", era: "legacy", clients: 8, sdkName: "SDK 1.32.2 Client at 2025-11-25" },
    { transport: "http", era: "modern", clients: 8, sdkName: "@modelcontextprotocol/client 2.4.0 at 2026-07-28" },
    { transport: "stdio", era: "legacy", clients: 1, sdkName: "SDK 1.32.2 Client at 2025-11-25" },
    { transport: "stdio", era: "modern", clients: 1, sdkName: "@modelcontextprotocol/client 2.4.0 at 2026-07-28" },
  ] as const;
  for (const c of cases) {
    const server = c.transport === "http" ? await startHttp("ours") : undefined;
    const url = server?.url ?? "";
    try {
      // Over HTTP every loop is a client of the one server; over stdio each client spawns its own server process.
      const ours = await Promise.all(Array.from({ length: c.clients }, () => generated(c.transport, c.era, url)));
      const theirs = await Promise.all(Array.from({ length: c.clients }, () => sdk(c.transport, c.era, url)));
      await round(ours, 20);
      await round(theirs, 20);
      const a: number[] = [];
      const b: number[] = [];
      for (let r = 0; r < rounds; r++) {
        a.push(await round(ours, 150));
        b.push(await round(theirs, 150));
      }
      await Promise.all([...ours, ...theirs].map((x) => x.close()));
      const mine = median(a);
      const base = median(b);
      rows.push({
        name: `client tools/call over ${c.transport === "http" ? "loopback HTTP" : "stdio"}, ${c.clients} loop(s), generated client vs ${c.sdkName} (same generated-router server)`,
        value: mine,
        unit: "req/s",
        baseline: base,
        ratio: mine / base,
        target: "≥ 1.0× the SDK's Client",
        met: mine >= base,
      });
    } finally {
      if (server !== undefined) process.kill(server.child.pid!, "SIGTERM");
    }
  }
  return rows;
}

// `tsx bench/client.ts`: only these rows (the full `npm run bench` includes them).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = await clientBenchmarks(3);
  for (const r of rows) process.stdout.write(`| ${r.name} | ${r.value.toFixed(0)} ${r.unit} | ${r.baseline?.toFixed(0)} ${r.unit} | ${r.ratio?.toFixed(2)}× | ${r.target} | ${r.met ? "yes" : "no"} |\n`);
  process.exit(0);
}

