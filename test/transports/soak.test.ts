// A bounded soak (SOAK_MS, default 20 s) of the HTTP transport in a child process (fixtures/soak-server.ts,
// publishing list_changed every 10 ms): legacy (SDK 1.32.2) and modern (2.4.0) clients calling back to back,
// aborted calls, raw bad requests, paused listen streams, a slow reader of a notification flood, and legacy
// sessions opened and abandoned past maxSessions, all at once. Every request is answered exactly once with
// its id, the server's in-flight count returns to 0, its RSS grows by less than RSS_GROWTH_MB over its level
// before the load throughout, and no rejection goes unhandled there. The bound is on the growth: the level the
// server starts at is set by the generated tree it loads (every version of the lock, about 4 MB each).
import { type ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AnyClient, callTool, legacyHttpClient, MODERN, modernHttpClient, textOf } from "./support.js";

const SOAK_MS = Number(process.env.SOAK_MS ?? 20_000);
/** The stated bound on how much the server's resident memory grows during the soak, over its level before it. */
const RSS_GROWTH_MB = 64;
const script = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures", "soak-server.ts");
let child: ChildProcess;
let url: string;
let port: number;

beforeAll(async () => {
  child = spawn(process.execPath, ["--import", "tsx", "--expose-gc", script], { stdio: ["ignore", "pipe", "inherit"] });
  url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.once("exit", (code) => reject(new Error(`soak server exited (${code})`)));
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      const m = /listening (\S+)/.exec(out);
      if (m !== null) resolve(m[1]);
    });
  });
  port = Number(new URL(url).port);
}, 60_000);
afterAll(async () => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    process.kill(child.pid!, "SIGTERM");
  });
});

interface Stats {
  rss: number;
  heapUsed: number;
  inFlight: number;
  sessions: number;
  unhandled: number;
  transportErrors: number;
}
const statsOf = async (client: AnyClient): Promise<Stats> => JSON.parse(textOf(await client.callTool({ name: "stats", arguments: {} }))) as Stats;

const meta = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/logLevel": "debug" };
const jsonHeaders = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const modernHeaders = (method: string, name?: string) => ({ ...jsonHeaders, "mcp-protocol-version": MODERN, "mcp-method": method, ...(name === undefined ? {} : { "mcp-name": name }) });

/** A raw request whose answer is never read (the socket is paused), destroyed after `ms`. */
function paused(method: string, headers: Record<string, string>, body: string, ms: number): void {
  const socket = net.connect(port, "127.0.0.1");
  socket.on("error", () => undefined);
  socket.write([`${method} /mcp HTTP/1.1`, `host: 127.0.0.1:${port}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), `content-length: ${Buffer.byteLength(body)}`, "", body].join("\r\n"));
  socket.pause();
  setTimeout(() => socket.destroy(), ms);
}

describe("soak", () => {
  it(`serves a mixed load for ${SOAK_MS} ms: every request answered once with its id, inFlight back to 0, RSS grown by under ${RSS_GROWTH_MB} MB, no unhandled rejection`, async () => {
    const deadline = Date.now() + SOAK_MS;
    const running = () => Date.now() < deadline;
    const monitor = await modernHttpClient(url);
    const baseline = await statsOf(monitor);
    const counts = { calls: 0, aborted: 0, bad: 0, raw: 0, sessions: 0, refusedSessions: 0 };
    let peakRss = baseline.rss;
    const problems: string[] = [];

    // Callers: each call's answer must be its own (the clients match ids; the text proves the pairing).
    const caller = async (connect: () => Promise<AnyClient>, tag: string) => {
      const client = await connect();
      try {
        for (let n = 0; running(); n++) {
          const args = { tag, n };
          const text = textOf(await client.callTool({ name: "echo", arguments: args }));
          if (text !== JSON.stringify(args)) problems.push(`${tag}: ${text}`);
          counts.calls++;
        }
      } finally {
        await client.close();
      }
    };
    const aborter = async () => {
      const client = await modernHttpClient(url);
      try {
        while (running()) {
          await callTool(client, { name: "slow", arguments: { ms: 10_000 } }, AbortSignal.timeout(30)).then(
            () => problems.push("an aborted call was answered"),
            () => counts.aborted++,
          );
        }
      } finally {
        await client.close();
      }
    };
    // Raw requests: the bad ones get their status; the good ones their own id (one beyond 2^53 among them).
    const raw = async () => {
      for (let n = 0; running(); n++) {
        const kind = n % 6;
        const id = n % 12 === 0 ? `1${String(n).padStart(19, "0")}` : String(n);
        const body = `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":${JSON.stringify({ name: "echo", arguments: { n }, _meta: meta })}}`;
        const send = (headers: Record<string, string>, text: string) => fetch(url, { method: "POST", headers, body: text });
        if (kind === 0) {
          const response = await send(modernHeaders("tools/call", "echo"), body);
          const text = await response.text();
          if (response.status !== 200 || !text.startsWith(`{"jsonrpc":"2.0","id":${id},"result"`)) problems.push(`raw ${id}: ${response.status} ${text.slice(0, 80)}`);
          counts.raw++;
          continue;
        }
        const [headers, text, status] = (
          [
            [modernHeaders("tools/call", "echo"), "{ not json", 400],
            [{ ...modernHeaders("tools/call", "echo"), "content-type": "text/plain" }, body, 415],
            [{ ...modernHeaders("tools/call", "echo"), "content-encoding": "gzip" }, body, 415],
            [modernHeaders("tools/call", "echo"), "x".repeat(70 * 1024), 413],
            [{ ...modernHeaders("tools/call", "echo"), "mcp-name": "other" }, body, 400],
          ] as const
        )[kind - 1];
        const response = await send(headers, text);
        await response.arrayBuffer();
        if (response.status !== status) problems.push(`bad request ${kind}: ${response.status}`);
        counts.bad++;
      }
    };
    const listeners = async () => {
      const listen = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "subscriptions/listen", params: { notifications: { toolsListChanged: true }, _meta: meta } });
      while (running()) {
        paused("POST", modernHeaders("subscriptions/listen"), listen, 3_000);
        await new Promise((r) => setTimeout(r, 250));
      }
    };
    const slowReader = async () => {
      while (running()) {
        await new Promise<void>((resolve) => {
          const req = http.request(url, { method: "POST", headers: modernHeaders("tools/call", "flood") }, (res) => {
            const tick = setInterval(() => (res.isPaused() ? res.resume() : res.pause()), 50);
            res.on("data", () => undefined);
            res.on("close", () => (clearInterval(tick), resolve()));
          });
          req.on("error", () => resolve());
          req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "flood", arguments: { count: 400, bytes: 4096 }, _meta: meta } }));
        });
      }
    };
    const abandonedSessions = async () => {
      while (running()) {
        const response = await fetch(url, { method: "POST", headers: jsonHeaders, body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "abandoned", version: "0" } } }) });
        await response.arrayBuffer();
        if (response.status === 200) counts.sessions++;
        else if (response.status === 503) counts.refusedSessions++;
        else problems.push(`initialize: ${response.status}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const sampler = async () => {
      while (running()) {
        peakRss = Math.max(peakRss, (await statsOf(monitor)).rss);
        await new Promise((r) => setTimeout(r, 1_000));
      }
    };

    await Promise.all([
      ...[0, 1, 2].map((i) => caller(() => legacyHttpClient(url), `legacy-${i}`)),
      ...[0, 1, 2].map((i) => caller(() => modernHttpClient(url), `modern-${i}`)),
      aborter(),
      raw(),
      listeners(),
      slowReader(),
      abandonedSessions(),
      sampler(),
    ]);

    expect(problems).toEqual([]);
    expect(counts.calls).toBeGreaterThan(0);
    expect(counts.aborted).toBeGreaterThan(0);
    expect(counts.bad).toBeGreaterThan(0);
    expect(counts.sessions).toBeGreaterThan(40); // past maxSessions: the idle ones were evicted
    await expect.poll(async () => (await statsOf(monitor)).inFlight, { timeout: 15_000 }).toBe(0);
    const end = await statsOf(monitor);
    expect(end.unhandled).toBe(0);
    expect(end.sessions).toBeLessThanOrEqual(40);
    expect((Math.max(peakRss, end.rss) - baseline.rss) / 2 ** 20, `RSS ${baseline.rss / 2 ** 20} MB before the load`).toBeLessThan(RSS_GROWTH_MB);
    process.stderr.write(`SOAKINFO ${JSON.stringify({ peakRss: peakRss / 2 ** 20, baseline: baseline.rss / 2 ** 20, counts })}\n`);
    await monitor.close();
  }, SOAK_MS + 90_000);
});
