// Benchmarks of issue 20 (transports under load), side by side in one run, each server its own process
// (bench/transport-server.ts):
// - modern tools/call over HTTP under autocannon (50 connections, a bounded duration) beside a bare node:http
//   JSON-RPC echo on the same load: the platform's limit, which the ratio should approach;
// - memory per legacy session (RSS growth over N initialize POSTs never closed), ours vs SDK 1.32.2's server;
// - RSS growth of a server while a client that never reads is sent 4,000 × 8 KB notifications (bounded by
//   maxBufferedBytes, 4 MiB by default);
// - router.publish with N idle legacy sessions open vs none (in this process): the cost must not follow N.
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import net from "node:net";
// @ts-expect-error autocannon ships no types
import autocannon from "autocannon";
import type { Row } from "./run.js";
import { median } from "./runtime.js";
import { startHttp as start } from "./transports.js";

const MODERN = "2026-07-28";
const meta = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/logLevel": "debug" };
const jsonHeaders = { "content-type": "application/json", accept: "application/json, text/event-stream" };

const stop = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : (child.once("exit", () => resolve()), process.kill(child.pid!, "SIGTERM"))));
/** Resident memory of a process, in bytes (Linux /proc). */
const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024;

/** CPU time a process has used (user + system), in µs (Linux /proc: clock ticks of 1/100 s). */
const cpuOf = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
};

/** A cannon round against `server`, with the server process's CPU time per request answered (µs). */
async function measured(server: { url: string; child: ChildProcess; token?: string }, seconds: number): Promise<{ rps: number; cpuPerRequest: number }> {
  const before = cpuOf(server.child.pid!);
  let total = 0;
  const rps = await cannon(server.url, seconds, server.token, (n) => (total = n));
  return { rps, cpuPerRequest: (cpuOf(server.child.pid!) - before) / total };
}

function cannon(url: string, seconds: number, token?: string, answered?: (total: number) => void): Promise<number> {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "hello" }, _meta: meta } });
  return new Promise((resolve, reject) => {
    autocannon(
      { url, method: "POST", connections: 50, duration: seconds, body, headers: { ...jsonHeaders, "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "echo", ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) } },
      (error: unknown, result: { requests: { average: number; total: number }; non2xx: number; errors: number }) => {
        if (error) return reject(error);
        if (result.non2xx > 0 || result.errors > 0) return reject(new Error(`autocannon: ${result.non2xx} non-2xx, ${result.errors} errors`));
        answered?.(result.requests.total);
        resolve(result.requests.average);
      },
    );
  });
}

export async function autocannonRows(rounds: number): Promise<Row[]> {
  const ours = await start("ours");
  const jwt = await start("ours-jwt");
  const bare = await start("bare");
  const deferred = await start("bare-deferred");
  try {
    await cannon(ours.url, 1);
    await cannon(jwt.url, 1, jwt.token);
    await cannon(bare.url, 1);
    await cannon(deferred.url, 1);
    const samples = { ours: [] as number[], jwt: [] as number[], bare: [] as number[], deferred: [] as number[] };
    const cpu = { ours: [] as number[], bare: [] as number[] };
    for (let r = 0; r < rounds; r++) {
      const o = await measured(ours, 3);
      samples.ours.push(o.rps);
      cpu.ours.push(o.cpuPerRequest);
      samples.jwt.push(await cannon(jwt.url, 3, jwt.token));
      const b = await measured(bare, 3);
      samples.bare.push(b.rps);
      cpu.bare.push(b.cpuPerRequest);
      samples.deferred.push(await cannon(deferred.url, 3));
    }
    const o = median(samples.ours);
    const j = median(samples.jwt);
    const b = median(samples.bare);
    const d = median(samples.deferred);
    const co = median(cpu.ours);
    const cb = median(cpu.bare);
    return [
      { name: "modern tools/call over loopback HTTP, autocannon 50 connections: generated router + serveHttp vs a bare node:http JSON-RPC echo", value: o, unit: "req/s", baseline: b, ratio: o / b, target: "≥ 0.6× the bare node:http echo", met: o / b >= 0.6 },
      { name: "modern tools/call over loopback HTTP, autocannon 50 connections: generated router + serveHttp vs the bare echo writing each answer at the end of the event loop's turn, as serveHttp does", value: o, unit: "req/s", baseline: d, ratio: o / d, target: "(information: the ratio without serveHttp's write coalescing)", met: true },
      { name: "server CPU time (user + system) per modern tools/call answered in those rounds: generated router + serveHttp vs the bare echo", value: co, unit: "µs", baseline: cb, ratio: co / cb, target: "(information: less moved by other load than req/s; ratio = ours/bare)", met: true },
      { name: "modern tools/call over loopback HTTP, autocannon 50 connections, auth on (ES256 JWT checked by jwtVerifier per request) vs the bare node:http echo", value: j, unit: "req/s", baseline: b, ratio: j / b, target: "(information: what a JWT verifier costs)", met: true },
    ];
  } finally {
    await Promise.all([stop(ours.child), stop(jwt.child), stop(bare.child), stop(deferred.child)]);
  }
}

const initialize = JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "0" } } });

async function sessionsRow(n: number): Promise<Row> {
  const perSession: Record<string, number> = {};
  for (const kind of ["ours", "sdk1"]) {
    const server = await start(kind);
    try {
      const open = async (count: number) => {
        for (let i = 0; i < count; i += 50) await Promise.all(Array.from({ length: Math.min(50, count - i) }, () => fetch(server.url, { method: "POST", headers: jsonHeaders, body: initialize }).then((r) => r.arrayBuffer())));
      };
      await open(100); // warm-up
      const before = rssOf(server.child.pid!);
      await open(n);
      perSession[kind] = (rssOf(server.child.pid!) - before) / n;
    } finally {
      await stop(server.child);
    }
  }
  const kb = (b: number) => b / 1024;
  return { name: `memory per legacy session (RSS growth over ${n} sessions left open): generated vs SDK 1.32.2 StreamableHTTPServerTransport`, value: kb(perSession.ours), unit: "KB", baseline: kb(perSession.sdk1), ratio: perSession.ours / perSession.sdk1, target: "≤ 1.0× the SDK's", met: perSession.ours <= perSession.sdk1 };
}

async function pausedConsumerRow(): Promise<Row> {
  const server = await start("ours");
  try {
    const port = Number(new URL(server.url).port);
    const before = rssOf(server.child.pid!);
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "flood", arguments: { count: 4000, bytes: 8192 }, _meta: meta } });
    const socket = net.connect(port, "127.0.0.1");
    socket.on("error", () => undefined);
    const headers = { ...jsonHeaders, host: `127.0.0.1:${port}`, "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "flood", "content-length": String(Buffer.byteLength(body)) };
    socket.write([`POST /mcp HTTP/1.1`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), "", body].join("\r\n"));
    socket.pause();
    let peak = before;
    for (let i = 0; i < 30; i++) {
      await new Promise((r) => setTimeout(r, 100));
      peak = Math.max(peak, rssOf(server.child.pid!));
    }
    socket.destroy();
    const growth = (peak - before) / 2 ** 20;
    return { name: "RSS growth while a client that never reads is sent 4,000 × 8 KB notifications (32 MB), maxBufferedBytes 4 MiB", value: growth, unit: "MB", target: "≤ 16 MB (the bound plus socket buffers)", met: growth <= 16 };
  } finally {
    await stop(server.child);
  }
}

async function publishRow(idle: number): Promise<Row> {
  const { createServerRouter } = await import("../generated/router.js");
  const { serveHttp } = await import("../generated/runtime/transport-http.js");
  const router = createServerRouter({ serverInfo: { name: "bench", version: "1" }, versions: { "2025-11-25": { capabilities: { tools: {} }, handlers: {} } } });
  const server = await serveHttp(router, { maxSessions: idle + 10 });
  const time = async (publishes: number) => {
    const t = process.hrtime.bigint();
    for (let i = 0; i < publishes; i++) await router.publish("notifications/tools/list_changed");
    return Number(process.hrtime.bigint() - t) / 1e6;
  };
  try {
    await time(1000);
    const none = median([await time(1000), await time(1000), await time(1000)]);
    for (let i = 0; i < idle; i += 50) await Promise.all(Array.from({ length: Math.min(50, idle - i) }, () => fetch(server.url, { method: "POST", headers: jsonHeaders, body: initialize }).then((r) => r.arrayBuffer())));
    const many = median([await time(1000), await time(1000), await time(1000)]);
    return { name: `1,000 router.publish calls with ${idle} idle legacy sessions open vs none`, value: many, unit: "ms", baseline: none, ratio: many / none, target: "≤ 2.0× with no session (cost independent of idle sessions)", met: many / none <= 2 };
  } finally {
    router.close();
    await server.close();
  }
}

export async function scaleBenchmarks(rounds: number): Promise<Row[]> {
  process.stderr.write("scale benchmark: autocannon…\n");
  const rows = await autocannonRows(Math.max(1, Math.min(rounds, 3)));
  process.stderr.write("scale benchmark: sessions, paused consumer, publish…\n");
  rows.push(await sessionsRow(2000), await pausedConsumerRow(), await publishRow(5000));
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await scaleBenchmarks(1)) console.log(`${row.name}: ${row.value.toFixed(2)} ${row.unit} vs ${row.baseline?.toFixed(2)} (${row.ratio?.toFixed(2)}×) met=${row.met}`);
}
