// Load and faults over real loopback HTTP and real stdio, with the official clients, bounded in count (no
// timed assertions): many concurrent clients of both eras, slow handlers, clients that give up or
// disconnect mid-request, bad bodies and lines. Nothing is lost (every request answered is answered with
// its own result), every abandoned handler is aborted, and after the load the server's heap, after GC,
// is back near its baseline (measured by the fixture's `stats` tool after a warm-up round).
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AnyClient,
  callTool,
  fixtureCommand,
  type HttpChild,
  legacyHttpClient,
  legacyStdioClient,
  MODERN,
  modernHttpClient,
  modernStdioClient,
  startHttpChild,
  stats,
  textOf,
} from "./support.js";

/** Heap growth allowed after the load, over the post-warm-up baseline (after GC). */
const HEAP_SLACK = 4 * 1024 * 1024;

/** K echo calls in flight at once, each checked to come back with its own arguments; returns how many. */
async function echoes(client: AnyClient, tag: string, k: number): Promise<number> {
  const results = await Promise.all(
    Array.from({ length: k }, async (_, i) => {
      const args = { tag, i, pad: "x".repeat(i * 37) };
      expect(textOf(await callTool(client, { name: "echo", arguments: args }))).toBe(JSON.stringify(args));
      return 1;
    }),
  );
  return results.length;
}

/** A slow call the client gives up on (cancel, or disconnect over HTTP) while it runs. */
let abandonedCalls = 0;
async function abandoned(client: AnyClient): Promise<void> {
  const gone = new AbortController();
  const tag = `abandoned-${++abandonedCalls}`;
  const call = callTool(client, { name: "slow", arguments: { ms: 600_000, tag } }, gone.signal);
  // Abandoned only once the server says the slow call is waiting (an answer to a later request proves
  // nothing over HTTP, where each request is its own connection).
  await expect.poll(async () => textOf(await callTool(client, { name: "running", arguments: { tag } })), { timeout: 60_000, interval: 20 }).toBe("true");
  gone.abort("given up");
  await expect(call).rejects.toThrow();
}

/** Slow calls that finish, mixed with echoes. */
async function slowOnes(client: AnyClient, n: number): Promise<void> {
  const done = await Promise.all(Array.from({ length: n }, (_, i) => callTool(client, { name: "slow", arguments: { ms: 20 + i } }).then(textOf)));
  expect(done).toEqual(Array.from({ length: n }, (_, i) => `slept ${20 + i}`));
}

async function waitIdle(probe: AnyClient, expectSessions?: number): Promise<{ aborted: number; heapUsed: number }> {
  let last = await stats(probe);
  await expect
    .poll(
      async () => {
        last = await stats(probe);
        // The stats call itself is the one request running.
        return last.started - last.finished === 1 && (expectSessions === undefined || last.sessions === expectSessions);
      },
      { timeout: 60_000, interval: 200 },
    )
    .toBe(true);
  return last;
}

describe("over loopback HTTP: 16 legacy and 16 modern clients at once", () => {
  let server: HttpChild;
  let probe: AnyClient;
  beforeAll(async () => {
    // Small body limit, and legacy sessions idle for 3 s are closed (clients that vanish never DELETE theirs).
    server = await startHttpChild(64 * 1024, 3000);
    probe = await modernHttpClient(server.url);
  });
  afterAll(async () => {
    await probe?.close();
    await server?.stop();
  });

  async function round(): Promise<number> {
    const badBodies = ["{", "[]", '{"jsonrpc":"2.0"}', "x".repeat(70 * 1024), "\u0000\u0001"];
    const bad = Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const body = badBodies[i % badBodies.length];
        const response = await fetch(server.url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body });
        expect([400, 413]).toContain(response.status);
        await response.arrayBuffer();
      }),
    );
    const clients = await Promise.all([...Array.from({ length: 16 }, () => legacyHttpClient(server.url)), ...Array.from({ length: 16 }, () => modernHttpClient(server.url))]);
    const answered = await Promise.all(
      clients.map(async (client, c) => {
        let n = await echoes(client, `client-${c}`, 12);
        if (c % 4 === 0) await abandoned(client);
        if (c % 4 === 1) await slowOnes(client, 3);
        n += await echoes(client, `client-${c}-after`, 4);
        // Half the legacy clients end their session (DELETE); the others vanish and leave it to the idle timeout.
        if (c < 16 && c % 2 === 0) await (client as unknown as { transport: { terminateSession(): Promise<void> } }).transport.terminateSession();
        await client.close();
        return n;
      }),
    );
    await bad;
    return answered.reduce((a, b) => a + b, 0);
  }

  it("answers every request right, aborts every abandoned handler, closes every session and returns to its heap baseline", async () => {
    expect(await round()).toBe(32 * 16); // warm-up: code paths compiled, the SDK loaded
    const baseline = await waitIdle(probe, 0);
    expect(await round()).toBe(32 * 16);
    const after = await waitIdle(probe, 0);
    expect(after.aborted - baseline.aborted).toBe(8); // one per abandoning client, none lost
    expect(after.heapUsed).toBeLessThan(baseline.heapUsed + HEAP_SLACK);
  });
});

describe("over stdio: 3 legacy and 3 modern client processes, each with 40 requests in flight", () => {
  it("answers every request right, aborts every cancelled handler and returns to its heap baseline", async () => {
    const clients = await Promise.all([...Array.from({ length: 3 }, legacyStdioClient), ...Array.from({ length: 3 }, modernStdioClient)]);
    try {
      const round = () =>
        Promise.all(
          clients.map(async (client, c) => {
            const results = await Promise.all([echoes(client, `a-${c}`, 30), abandoned(client), abandoned(client), slowOnes(client, 4), echoes(client, `b-${c}`, 10)]);
            return results[0] + results[4];
          }),
        );
      expect(await round()).toEqual(Array(6).fill(40));
      const baselines = await Promise.all(clients.map((c) => waitIdle(c)));
      expect(await round()).toEqual(Array(6).fill(40));
      const afters = await Promise.all(clients.map((c) => waitIdle(c)));
      for (const [i, after] of afters.entries()) {
        expect(after.aborted - baselines[i].aborted).toBe(2);
        expect(after.heapUsed).toBeLessThan(baselines[i].heapUsed + HEAP_SLACK);
      }
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  });

  it("answers bad lines between good ones and loses none of the good ones", async () => {
    const child = spawn(fixtureCommand.command, [...fixtureCommand.args, "stdio"], { stdio: ["pipe", "pipe", "inherit"] });
    const lines: Record<string, unknown>[] = [];
    createInterface({ input: child.stdout! }).on("line", (line) => lines.push(JSON.parse(line) as Record<string, unknown>));
    const meta = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} };
    const bad = ["{", '{"jsonrpc":"2.0","id":[1]}', "null", '"text"', '{"jsonrpc":"2.0","method":7}'];
    let text = "";
    for (let i = 0; i < 100; i++) {
      text += JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "echo", arguments: { i }, _meta: meta } }) + "\n";
      text += bad[i % bad.length] + "\n";
    }
    child.stdin!.write(text);
    try {
      await expect.poll(() => lines.length, { timeout: 60_000 }).toBe(200);
      const answers = lines.filter((l) => l.id !== null).sort((a, b) => Number(a.id) - Number(b.id));
      expect(answers).toEqual(Array.from({ length: 100 }, (_, i) => ({ jsonrpc: "2.0", id: i, result: { content: [{ type: "text", text: JSON.stringify({ i }) }], _meta: { "example.com/echo": true }, resultType: "complete" } })));
      const errors = lines.filter((l) => l.id === null).map((l) => (l.error as { code: number }).code);
      expect(errors.filter((c) => c === -32700)).toHaveLength(20);
      expect(errors.filter((c) => c === -32600)).toHaveLength(80);
    } finally {
      child.stdin!.end();
      await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once("exit", resolve)));
    }
  });
});
