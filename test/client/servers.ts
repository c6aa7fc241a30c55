// Real servers for the client tests, in child processes: where the fixtures are, and an HTTP server started
// and awaited until it prints its URL. Every child is ended after each test (`stopChildren` in afterEach).
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "../..");
export const fixtures = path.join(root, "test/client/fixtures");
export const python = path.join(root, ".venv/bin/python");
/** What the fixtures print once they listen: `listening <url>`. */
export const listening = /listening (\S+)/;

const children: ChildProcess[] = [];

/** End every child started since the last call (SIGTERM, then wait for its exit). */
export async function stopChildren(): Promise<void> {
  for (const child of children.splice(0)) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    process.kill(child.pid!, "SIGTERM");
    await exited;
  }
}

/** Spawn an HTTP server and resolve with its URL once `ready` matches what it prints (stdout or stderr). */
export function startHttp(command: string, args: string[], ready: RegExp, url: (match: RegExpExecArray) => string, env: Record<string, string> = {}): Promise<string> {
  const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    child.once("exit", (code) => reject(new Error(`${path.basename(args[0])} exited ${code} before it listened: ${out}`)));
    const read = (chunk: Buffer): void => {
      out += chunk.toString();
      const m = ready.exec(out);
      if (m) resolve(url(m));
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
  });
}

/** A fixture of test/client/fixtures run by Node over HTTP: its URL. */
export const startFixture = (script: string): Promise<string> => startHttp(process.execPath, [path.join(fixtures, script), "http"], listening, (m) => m[1]);

/** @modelcontextprotocol/server-everything's entry point (run with `stdio` or `streamableHttp`). */
export const everything = path.join(root, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");

/** A loopback port free now (server-everything takes its port from PORT and logs only the one it was given). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** server-everything over streamable HTTP: its URL. */
export async function startEverything(): Promise<string> {
  const port = await freePort();
  return startHttp(process.execPath, [everything, "streamableHttp"], /listening on port (\d+)/, (m) => `http://127.0.0.1:${m[1]}/mcp`, { PORT: String(port) });
}
