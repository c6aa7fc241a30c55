// Scale-out: three server processes (fixtures/cluster-server.ts) sharing one real Redis, behind a small
// round-robin proxy on loopback (sticky by Mcp-Session-Id, as a load balancer in front of legacy sessions
// must be). A publish on one process reaches the listeners on all of them; a task of the Tasks extension
// (a task-augmented tools/call, served by the router over the shared Redis TaskStore, `createRedisTaskStore`
// given as tasksExtension's `store` in cluster-server.ts) created through one is polled (tasks/get) and
// cancelled (tasks/cancel) through the others and survives a SIGKILL of the process that created it.
import { type ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyHttp } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TASKS_EXTENSION } from "../../generated/runtime/tasks.js";
import { stopChild } from "../support.js";
import { MODERN } from "./support.js";
import { type RedisServer, startRedis } from "./redis-server.js";

const serverScript = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures", "cluster-server.ts");
let redis: RedisServer;
const backends: { child: ChildProcess; url: URL }[] = [];
let proxy: http.Server;
let proxyUrl: string;
/** The backend index each proxied request went to, in order. */
const routed: number[] = [];
/** Backends taken out of the rotation (as a load balancer's health check would). */
const dead = new Set<number>();

function startBackend(): Promise<{ child: ChildProcess; url: URL }> {
  const child = spawn(process.execPath, ["--import", "tsx", serverScript, redis.url, "cluster:"], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.once("exit", (code) => reject(new Error(`a cluster server exited (${code}): ${out}`)));
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      const m = /listening (\S+)/.exec(out);
      if (m !== null) resolve({ child, url: new URL(m[1]) });
    });
  });
}

/** Round robin over the backends; a request naming a session goes where that session was opened. */
function startProxy(): Promise<void> {
  let next = 0;
  const sessions = new Map<string, number>();
  proxy = http.createServer((req, res) => {
    const sticky = typeof req.headers["mcp-session-id"] === "string" ? sessions.get(req.headers["mcp-session-id"]) : undefined;
    let index = sticky ?? next++ % backends.length;
    while (dead.has(index)) index = next++ % backends.length;
    routed.push(index);
    const target = backends[index].url;
    const upstream = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
      const session = answer.headers["mcp-session-id"];
      if (typeof session === "string") sessions.set(session, index);
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", () => res.destroy());
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  });
  return new Promise((resolve) =>
    proxy.listen(0, "127.0.0.1", () => {
      proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`;
      resolve();
    }),
  );
}

beforeAll(async () => {
  redis = await startRedis();
  backends.push(...(await Promise.all([0, 1, 2].map(startBackend))));
  await startProxy();
}, 60_000);
afterAll(async () => {
  proxy?.closeAllConnections();
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
  await Promise.all(backends.map(({ child }) => stopChild(child)));
  await redis?.dispose();
});

const meta = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} };
/** A request's _meta negotiating the Tasks extension. */
const taskMeta = { ...meta, "io.modelcontextprotocol/clientCapabilities": { extensions: { [TASKS_EXTENSION]: {} } } };
const headers = (method: string, name?: string) => ({ "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": MODERN, "mcp-method": method, ...(name === undefined ? {} : { "mcp-name": name }) });

/** A subscriptions/listen stream through the proxy; counts the list_changed notifications it receives. */
function listen(id: number): { count: () => number; acknowledged: Promise<void>; close(): void } {
  let received = 0;
  let acknowledge!: () => void;
  const acknowledged = new Promise<void>((resolve) => (acknowledge = resolve));
  const req = http.request(proxyUrl, { method: "POST", headers: headers("subscriptions/listen") }, (res) => {
    res.on("data", (c: Buffer) => {
      const text = c.toString();
      if (text.includes("notifications/subscriptions/acknowledged")) acknowledge();
      received += text.split("notifications/tools/list_changed").length - 1;
    });
  });
  req.on("error", () => undefined);
  req.end(JSON.stringify({ jsonrpc: "2.0", id, method: "subscriptions/listen", params: { notifications: { toolsListChanged: true }, _meta: meta } }));
  return { count: () => received, acknowledged, close: () => req.destroy() };
}

async function callThroughProxy(id: number, name: string, args: Record<string, unknown> = {}): Promise<{ text: string; backend: number; error?: { code: number } }> {
  const response = await fetch(proxyUrl, { method: "POST", headers: headers("tools/call", name), body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args, _meta: meta } }) });
  const backend = routed[routed.length - 1];
  const body = (await response.json()) as { id: number; result?: { content: { text: string }[] }; error?: { code: number } };
  expect(body.id).toBe(id);
  return { text: body.result?.content[0].text ?? "", backend, error: body.error };
}

/** A 2026-07-28 request through the proxy (negotiating the Tasks extension unless `withMeta` says otherwise). */
async function requestThroughProxy(id: number, method: string, params: Record<string, unknown>, name: string, withMeta: Record<string, unknown> = taskMeta): Promise<{ result?: Record<string, unknown>; backend: number; error?: { code: number } }> {
  const response = await fetch(proxyUrl, { method: "POST", headers: headers(method, name), body: JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta: withMeta } }) });
  const backend = routed[routed.length - 1];
  const body = (await response.json()) as { id: number; result?: Record<string, unknown>; error?: { code: number } };
  expect(body.id).toBe(id);
  return { result: body.result, backend, error: body.error };
}

describe("three server processes sharing one Redis behind a round-robin proxy", () => {
  it("route requests to three different processes", async () => {
    const pids = new Set<string>();
    for (let i = 0; i < 3; i++) pids.add((await callThroughProxy(100 + i, "whoami")).text);
    expect(pids.size).toBe(3);
    expect([...pids].sort()).toEqual(backends.map((b) => String(b.child.pid)).sort());
  });

  it("a publish on one process reaches the listen streams on all three, once each", async () => {
    const first = routed.length;
    const listeners = [1, 2, 3].map(listen);
    await Promise.all(listeners.map((l) => l.acknowledged));
    expect(new Set(routed.slice(first, first + 3)).size).toBe(3); // one listener per process
    await new Promise((r) => setTimeout(r, 200));
    expect((await callThroughProxy(10, "announce")).text).toBe("announced");
    await expect.poll(() => listeners.map((l) => l.count()), { timeout: 10_000 }).toEqual([1, 1, 1]);
    await new Promise((r) => setTimeout(r, 200));
    expect(listeners.map((l) => l.count())).toEqual([1, 1, 1]);
    for (const l of listeners) l.close();
  });

  it("survives a Redis restart: a publish while Redis is down fails cleanly (-32603 to the caller, local listeners still told), then every process hears publishes again", async () => {
    const listeners = [4, 5, 6].map(listen);
    await Promise.all(listeners.map((l) => l.acknowledged));
    await redis.stop();
    const failed = await callThroughProxy(30, "announce");
    expect(failed.error).toMatchObject({ code: -32603 });
    await expect.poll(() => listeners.map((l) => l.count()).reduce((a, b) => a + b)).toBe(1); // only the publisher's own process
    await redis.start();
    // The clients reconnect and re-subscribe by themselves; announce until every listener has heard one more.
    await expect
      .poll(
        async () => {
          await callThroughProxy(31, "announce");
          return listeners.every((l) => l.count() >= 2);
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(true);
    for (const l of listeners) l.close();
  }, 60_000);

  it("a legacy session (the SDK 1.32.2 client, sticky through the proxy) hears a publish made on another process", async () => {
    const client = new LegacyClient({ name: "cluster", version: "1" });
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
    await client.connect(new LegacyHttp(new URL(proxyUrl)));
    try {
      const home = routed[routed.length - 1];
      await new Promise((r) => setTimeout(r, 300)); // the client opens its GET stream after initialized
      let announcedOn = home;
      for (let i = 0; announcedOn === home && i < 3; i++) announcedOn = (await callThroughProxy(20 + i, "announce")).backend;
      expect(announcedOn).not.toBe(home);
      await expect.poll(() => changed, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    } finally {
      await client.close();
    }
  });

  it("a Tasks extension task created through one process is polled and cancelled through the others, and a SIGKILL of its process loses it not", async () => {
    const created = await requestThroughProxy(40, "tools/call", { name: "long-task", arguments: {} }, "long-task");
    expect(created.error).toBeUndefined();
    const creator = backends[created.backend].child.pid!;
    expect(created.result).toMatchObject({ resultType: "task", status: "working", statusMessage: `started by ${creator}`, ttlMs: 60_000, pollIntervalMs: 100 });
    const taskId = created.result!.taskId as string;
    expect(typeof taskId).toBe("string");
    const polled = await requestThroughProxy(41, "tasks/get", { taskId }, taskId);
    expect(polled.backend).not.toBe(created.backend);
    expect(polled.result).toMatchObject({ taskId, status: "working", statusMessage: `started by ${creator}`, createdAt: created.result!.createdAt, resultType: "complete" });
    process.kill(creator, "SIGKILL");
    dead.add(created.backend);
    const again = await requestThroughProxy(42, "tasks/get", { taskId }, taskId);
    expect(again.result).toMatchObject({ taskId, status: "working" });
    const cancelled = await requestThroughProxy(43, "tasks/cancel", { taskId }, taskId);
    expect(cancelled.backend).not.toBe(again.backend);
    expect(cancelled.result).toEqual({ resultType: "complete" });
    const final = await requestThroughProxy(44, "tasks/get", { taskId }, taskId);
    expect(new Set([created.backend, again.backend, cancelled.backend]).size).toBe(3);
    expect(final.result).toMatchObject({ taskId, status: "cancelled", statusMessage: "Cancelled by the client" });
    // A request that does not negotiate the extension is refused the task (-32021), wherever it lands.
    const plain = await requestThroughProxy(45, "tasks/get", { taskId }, taskId, meta);
    expect(plain.error).toMatchObject({ code: -32021 });
  }, 30_000);
});
