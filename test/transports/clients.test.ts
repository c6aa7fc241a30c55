// The official clients against the fixture server in a child process, over real stdio and real loopback
// HTTP: SDK 1.32.2 (legacy era) and @modelcontextprotocol/client 2.4.0 (2026-07-28).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AnyClient, type HttpChild, legacyHttpClient, legacyStdioClient, MODERN, modernHttpClient, modernStdioClient, startHttpChild, stats, textOf, callTool } from "./support.js";

let http: HttpChild;
beforeAll(async () => {
  http = await startHttpChild();
});
afterAll(async () => {
  await http.stop();
});

const legacy: [string, () => Promise<AnyClient>][] = [
  ["stdio", legacyStdioClient],
  ["HTTP", () => legacyHttpClient(http.url)],
];
const modern: [string, () => Promise<AnyClient>][] = [
  ["stdio", modernStdioClient],
  ["HTTP", () => modernHttpClient(http.url)],
];

describe.each(legacy)("SDK 1.32.2 client over %s", (_name, connect) => {
  it("initializes, lists and calls tools, and gets _meta through resources/subscribe", async () => {
    const client = await connect();
    try {
      expect(client.getServerVersion()).toEqual({ name: "transport-fixture", version: "1.0.0" });
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["echo", "slow", "running", "stats"]);
      const called = await client.callTool({ name: "echo", arguments: { a: 1 } });
      expect(called).toEqual({ content: [{ type: "text", text: '{"a":1}' }], _meta: { "example.com/echo": true } });
      expect(await client.subscribeResource({ uri: "file:///watched.txt" })).toStrictEqual({ _meta: { "example.com/subscribed": "file:///watched.txt" } });
      await expect(client.callTool({ name: "nope", arguments: {} })).rejects.toThrow("Unknown tool: nope");
    } finally {
      await client.close();
    }
  });

});

describe.each(modern)("@modelcontextprotocol/client 2.4.0 at 2026-07-28 over %s", (_name, connect) => {
  it("negotiates 2026-07-28 through server/discover, lists and calls tools, _meta included", async () => {
    const client = await connect();
    try {
      expect((client as { getNegotiatedProtocolVersion(): string }).getNegotiatedProtocolVersion()).toBe(MODERN);
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["echo", "slow", "running", "stats"]);
      const called = await client.callTool({ name: "echo", arguments: { b: "x" } });
      expect(called.content).toEqual([{ type: "text", text: '{"b":"x"}' }]);
      expect(called._meta).toEqual({ "example.com/echo": true });
      await expect(client.callTool({ name: "nope", arguments: {} })).rejects.toThrow("Unknown tool: nope");
    } finally {
      await client.close();
    }
  });
});

describe.each([...legacy.map(([n, c]) => [`SDK 1.32.2 over ${n}`, c] as const), ...modern.map(([n, c]) => [`client 2.4.0 at 2026-07-28 over ${n}`, c] as const)])("%s", (_name, connect) => {
  it("runs requests of one connection concurrently, and a request the client cancels aborts the handler's signal", async () => {
    const client = await connect();
    try {
      const before = await stats(client);
      const cancel = new AbortController();
      const slow = callTool(client, { name: "slow", arguments: { ms: 600_000 } }, cancel.signal);
      // The slow call is still running while another one is answered.
      expect(textOf(await client.callTool({ name: "echo", arguments: { n: 2 } }))).toBe('{"n":2}');
      cancel.abort("enough");
      await expect(slow).rejects.toThrow();
      await expect.poll(async () => (await stats(client)).aborted, { timeout: 30_000 }).toBe(before.aborted + 1);
    } finally {
      await client.close();
    }
  });
});
