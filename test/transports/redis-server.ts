// A real Redis (Debian's redis-server) for the scale-out tests: its own loopback port and temp dir,
// stopped by its pid. `persist` keeps an append-only file in that dir, so a restart keeps the data.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Stop the server (SIGTERM to its pid, then wait for its exit). */
  stop(): Promise<void>;
  /** Start it again on the same port and dir. */
  start(): Promise<void>;
  /** Stop it and remove its dir. */
  dispose(): Promise<void>;
  /** Send the server process a signal by its pid (SIGSTOP / SIGCONT: a hung Redis; SIGKILL: a crash). */
  signal(signal: NodeJS.Signals): void;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

export async function startRedis(options: { persist?: boolean } = {}): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), "mcp-redis-"));
  let child: ChildProcess | undefined;
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--dir", dir, "--save", "", ...(options.persist ? ["--appendonly", "yes", "--appendfsync", "always"] : ["--appendonly", "no"])];
  const start = () =>
    new Promise<void>((resolve, reject) => {
      const proc = spawn("redis-server", args, { stdio: ["ignore", "pipe", "pipe"] });
      child = proc;
      let out = "";
      const onData = (c: Buffer) => {
        out += c.toString();
        if (out.includes("Ready to accept connections")) {
          proc.stdout!.off("data", onData);
          proc.stdout!.resume();
          resolve();
        }
      };
      proc.stdout!.on("data", onData);
      proc.stderr!.resume();
      proc.once("exit", (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      const proc = child;
      if (proc === undefined || proc.exitCode !== null || proc.signalCode !== null) return resolve();
      proc.removeAllListeners("exit");
      proc.once("exit", () => resolve());
      process.kill(proc.pid!, "SIGTERM");
    });
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    stop,
    start,
    signal(signal) {
      if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) process.kill(child.pid, signal);
    },
    async dispose() {
      if (child?.pid !== undefined && child.exitCode === null) process.kill(child.pid, "SIGCONT");
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
