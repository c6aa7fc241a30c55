// The client side of stdio: spawn the server's command with its environment (by default only the few
// variables a program needs to run, never the caller's secrets), one JSON-RPC message
// per line each way (the server's stderr passes through, or is handed to `onStderr`), a line over
// `maxLineBytes` dropped and reported. `close` ends it cleanly: stdin is closed, then after
// `endGraceMs` SIGTERM, then after as long again SIGKILL; a process that exits on its own closes the client.
import { spawn, type ChildProcess } from "node:child_process";
import type { ClientTransport, ClientTransportReceiver } from "./client-transport.js";
import type { JsonRpcMessage } from "./jsonrpc.js";

export const DEFAULT_STDIO_MAX_LINE = 4 * 1024 * 1024;
export const DEFAULT_STDIO_END_GRACE_MS = 2000;

export interface StdioClientOptions {
  command: string;
  args?: readonly string[];
  /**
   * The child's environment, used as given. Default: `inheritedEnvironment()`, only the variables of
   * `INHERITED_ENV_VARS` from this process: a third-party server gets no API key or token of the caller's.
   */
  env?: Readonly<Record<string, string | undefined>>;
  cwd?: string;
  /** The server's stderr: "inherit" (default), "ignore", or a function given each chunk. */
  stderr?: "inherit" | "ignore" | ((chunk: string) => void);
  /** Longest line accepted from the server, in bytes (default 4 MiB). */
  maxLineBytes?: number;
  /** How long `close` waits after closing stdin, then after SIGTERM (default 2000 ms each). */
  endGraceMs?: number;
}

/**
 * The variables a spawned server inherits when `env` is not given: where to find programs, who and where the
 * user is, the terminal (on Windows, the system folders a program needs too).
 */
export const INHERITED_ENV_VARS: readonly string[] =
  process.platform === "win32"
    ? ["APPDATA", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "PATH", "PROCESSOR_ARCHITECTURE", "PROGRAMFILES", "SYSTEMDRIVE", "SYSTEMROOT", "TEMP", "USERNAME", "USERPROFILE"]
    : ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"];

/**
 * `INHERITED_ENV_VARS` as `from` has them (default: this process's environment); a value that is an exported
 * shell function (`() {…`) is left out, as a shell would run it. Spread it to add your own:
 * `{ ...inheritedEnvironment(), LOG_LEVEL: "warn" }`.
 */
export function inheritedEnvironment(from: Readonly<Record<string, string | undefined>> = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of INHERITED_ENV_VARS) {
    const value = from[name];
    if (value !== undefined && !value.startsWith("()")) env[name] = value;
  }
  return env;
}

/** A client transport over a spawned server process. */
export function stdioClientTransport(options: StdioClientOptions): ClientTransport & { readonly pid: number | undefined } {
  const maxLine = options.maxLineBytes ?? DEFAULT_STDIO_MAX_LINE;
  const grace = options.endGraceMs ?? DEFAULT_STDIO_END_GRACE_MS;
  let child: ChildProcess | undefined;
  let receiver: ClientTransportReceiver | undefined;
  let exited: Promise<void> = Promise.resolve();
  let closing = false;

  function take(line: string): void {
    if (line.trim() === "") return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return receiver?.problem(new Error(`the server wrote a line that is not JSON: ${line.slice(0, 120)}`));
    }
    for (const message of Array.isArray(parsed) ? parsed : [parsed]) receiver?.message(message);
  }

  return {
    get pid() {
      return child?.pid;
    },
    start(r) {
      receiver = r;
      const stderr = options.stderr ?? "inherit";
      const proc = spawn(options.command, [...(options.args ?? [])], {
        env: (options.env ?? inheritedEnvironment()) as NodeJS.ProcessEnv,
        cwd: options.cwd,
        stdio: ["pipe", "pipe", typeof stderr === "function" ? "pipe" : stderr],
      });
      child = proc;
      exited = new Promise((resolve) => proc.once("close", () => resolve()));
      if (typeof stderr === "function") proc.stderr!.on("data", (chunk: Buffer) => stderr(chunk.toString("utf8")));
      let pending: Buffer[] = [];
      let size = 0;
      let skipping = false;
      proc.stdout!.on("data", (chunk: Buffer) => {
        let start = 0;
        for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, start)) {
          const piece = chunk.subarray(start, i);
          if (!skipping && size + piece.length <= maxLine) take(Buffer.concat([...pending, piece]).toString("utf8"));
          pending = [];
          size = 0;
          skipping = false;
          start = i + 1;
        }
        const rest = chunk.subarray(start);
        if (skipping || rest.length === 0) return;
        size += rest.length;
        if (size > maxLine) {
          skipping = true;
          pending = [];
          receiver?.problem(new Error(`the server wrote a line over ${maxLine} bytes (maxLineBytes); it was dropped`));
          return;
        }
        pending.push(Buffer.from(rest));
      });
      proc.stdin!.on("error", (error) => {
        if (!closing) receiver?.problem(error);
      });
      proc.once("close", (code, signal) => receiver?.closed(closing ? undefined : new Error(`the server process exited (${signal ?? code})`)));
      return new Promise((resolve, reject) => {
        proc.once("spawn", () => resolve());
        proc.once("error", (error) => reject(error));
      });
    },
    async send(message: JsonRpcMessage) {
      const stdin = child?.stdin;
      if (stdin === undefined || stdin === null || stdin.destroyed || closing) throw new Error("the server process is not running");
      const text = JSON.stringify(message) + "\n";
      await new Promise<void>((resolve, reject) => stdin.write(text, (error) => (error ? reject(error) : resolve())));
    },
    async close() {
      if (child === undefined || closing) return exited;
      closing = true;
      const proc = child;
      if (proc.exitCode !== null || proc.signalCode !== null) return exited;
      proc.stdin?.end();
      const wait = (ms: number) => Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref())]);
      if (await wait(grace)) return;
      proc.kill("SIGTERM");
      if (await wait(grace)) return;
      proc.kill("SIGKILL");
      await exited;
    },
  };
}
