// Helpers of the transport tests: the fixture server as a real child process (stdio or HTTP), and the
// official clients connected to it: @modelcontextprotocol/sdk 1.32.2 for the legacy era,
// @modelcontextprotocol/client 2.4.0 pinned to 2026-07-28 for the modern era.
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as LegacyStdio } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as LegacyHttp } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from "@modelcontextprotocol/client";
import { StdioClientTransport as ModernStdio } from "@modelcontextprotocol/client/stdio";

export const MODERN = "2026-07-28";
const here = path.dirname(fileURLToPath(import.meta.url));
export const fixture = path.join(here, "fixtures", "server.ts");
/** node + tsx + --expose-gc, so the fixture's `stats` tool can collect garbage before it measures. */
export const fixtureCommand = { command: process.execPath, args: ["--import", "tsx", "--expose-gc", fixture] };

export interface HttpChild {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** The fixture serving HTTP in a child process: `maxBodyBytes`, `sessionIdleMs`. */
export function startHttpChild(maxBodyBytes = 64 * 1024, sessionIdleMs = 60_000): Promise<HttpChild> {
  const child = spawn(fixtureCommand.command, [...fixtureCommand.args, "http", String(maxBodyBytes), String(sessionIdleMs)], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.once("exit", (code) => reject(new Error(`the fixture server exited (${code}) before listening: ${out}`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening (\S+)/.exec(out);
      if (m === null) return;
      child.removeAllListeners("exit");
      resolve({
        url: m[1],
        child,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once("exit", () => done());
            process.kill(child.pid!, "SIGTERM");
          }),
      });
    });
  });
}

export type AnyClient = LegacyClient | ModernClient;

export async function legacyHttpClient(url: string): Promise<LegacyClient> {
  const client = new LegacyClient({ name: "legacy-http", version: "1.0.0" });
  await client.connect(new LegacyHttp(new URL(url)));
  return client;
}

export async function modernHttpClient(url: string): Promise<ModernClient> {
  const client = new ModernClient({ name: "modern-http", version: "1.0.0" }, { versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(new ModernHttp(new URL(url)));
  return client;
}

export async function legacyStdioClient(): Promise<LegacyClient> {
  const client = new LegacyClient({ name: "legacy-stdio", version: "1.0.0" });
  await client.connect(new LegacyStdio({ ...fixtureCommand, args: [...fixtureCommand.args, "stdio"], stderr: "inherit" }));
  return client;
}

export async function modernStdioClient(): Promise<ModernClient> {
  const client = new ModernClient({ name: "modern-stdio", version: "1.0.0" }, { versionNegotiation: { mode: { pin: MODERN } } });
  await client.connect(new ModernStdio({ ...fixtureCommand, args: [...fixtureCommand.args, "stdio"], stderr: "inherit" }));
  return client;
}

/** The text of a tools/call result's first content block. */
export function textOf(result: unknown): string {
  const content = (result as { content?: { type: string; text?: string }[] }).content;
  const first = content?.[0];
  if (first?.type !== "text" || first.text === undefined) throw new Error(`not a text result: ${JSON.stringify(result)}`);
  return first.text;
}

/** The fixture's counters and heap, through its `stats` tool. */
export async function stats(client: AnyClient): Promise<{ started: number; finished: number; aborted: number; sessions: number; heapUsed: number }> {
  return JSON.parse(textOf(await client.callTool({ name: "stats", arguments: {} })));
}

/** tools/call that the client gives up when `signal` aborts (the two clients take options in different places). */
export function callTool(client: AnyClient, params: { name: string; arguments?: Record<string, unknown> }, signal?: AbortSignal): Promise<unknown> {
  if (client instanceof ModernClient) return client.callTool(params, { signal });
  return client.callTool(params, undefined, { signal });
}
