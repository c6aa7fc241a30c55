// The generated client against the generated router over streamable HTTP (serveHttp): both eras on
// one endpoint, the modern → legacy fallback, progress, cancellation, a server that goes away
// mid-request, a result that fails validation, and the client's own refusals (unknown method, missing
// capability, invalid params).
import { afterEach, describe, expect, it } from "vitest";
import { ClientError, createClient, httpClientTransport } from "../../generated/client.js";
import { createServerRouter, type ServedVersions } from "../../generated/router.js";
import { serveHttp, type HttpServer } from "../../generated/runtime/transport-http.js";

const clientInfo = { name: "router-test-client", version: "1.0.0" };
const tools = [{ name: "add", inputSchema: { type: "object" as const, properties: { a: { type: "number" }, b: { type: "number" } } } }];
const sum = (args: Record<string, unknown> | undefined) => ({ content: [{ type: "text" as const, text: String(Number(args?.a) + Number(args?.b)) }] });

let server: HttpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(versions: ServedVersions): Promise<string> {
  server = await serveHttp(createServerRouter({ serverInfo: { name: "router-under-test", version: "1.0.0" }, versions }), { port: 0 });
  return server.url;
}

const legacy: NonNullable<ServedVersions["2025-11-25"]> = {
  capabilities: { tools: {} },
  handlers: { "tools/list": () => ({ tools }), "tools/call": ({ arguments: args }) => sum(args) },
};
const modern: NonNullable<ServedVersions["2026-07-28"]> = {
  capabilities: { tools: {} },
  handlers: { "tools/list": () => ({ tools, ttlMs: 0, cacheScope: "private" }), "tools/call": ({ arguments: args }) => sum(args) },
};

describe("createClient against the generated router (HTTP)", () => {
  it("negotiates 2026-07-28 and 2025-11-25 on one endpoint, each answering tools/call", async () => {
    const url = await serve({ "2025-11-25": legacy, "2026-07-28": modern });
    const modernClient = createClient({ clientInfo, versions: ["2025-11-25", "2026-07-28"] });
    const m = await modernClient.connect(httpClientTransport(url));
    expect([m.protocolVersion, m.era, m.fellBack]).toEqual(["2026-07-28", "modern", undefined]);
    expect(await modernClient.at("2026-07-28").request("tools/call", { name: "add", arguments: { a: 2, b: 3 } })).toEqual({ content: [{ type: "text", text: "5" }], resultType: "complete" });
    const legacyClient = createClient({ clientInfo, versions: ["2025-11-25"] });
    const transport = httpClientTransport(url);
    const l = await legacyClient.connect(transport);
    expect([l.protocolVersion, l.era]).toEqual(["2025-11-25", "legacy"]);
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await legacyClient.at("2025-11-25").request("tools/call", { name: "add", arguments: { a: 4, b: 5 } })).toEqual({ content: [{ type: "text", text: "9" }] });
    await Promise.all([modernClient.close(), legacyClient.close()]);
    expect(server!.handler.sessions).toBe(0); // DELETE ended the legacy session
  });

  it("falls back from modern to legacy when the server serves no modern version, and says why", async () => {
    const url = await serve({ "2025-11-25": legacy });
    const client = createClient({ clientInfo, versions: ["2025-11-25", "2026-07-28"] });
    const n = await client.connect(httpClientTransport(url));
    expect(n.protocolVersion).toBe("2025-11-25");
    expect(n.fellBack).toMatch(/server\/discover failed/);
    await client.close();
  });

  it.each(["2025-11-25", "2026-07-28"] as const)("at %s, delivers the server's progress for the request that asked for it", async (version) => {
    const handlers = {
      "tools/call": async (_params: unknown, context: { _meta?: Record<string, unknown>; notify(method: "notifications/progress", params: object): Promise<void> }) => {
        const progressToken = context._meta?.progressToken as string | number;
        await context.notify("notifications/progress", { progressToken, progress: 1, total: 2 });
        await context.notify("notifications/progress", { progressToken, progress: 2, total: 2 });
        return { content: [] };
      },
    };
    const url = await serve({ [version]: { capabilities: { tools: {} }, handlers } } as ServedVersions);
    const client = createClient({ clientInfo, versions: [version] });
    await client.connect(httpClientTransport(url));
    const seen: unknown[] = [];
    await client.request("tools/call", { name: "slow" }, { onProgress: (p) => seen.push([p.progress, p.total]) });
    expect(seen).toEqual([
      [1, 2],
      [2, 2],
    ]);
    await client.close();
  });

  it.each(["2025-11-25", "2026-07-28"] as const)("at %s, cancels: the abort reaches the server's handler as its signal and the request rejects with the reason", async (version) => {
    let aborted: (value: unknown) => void = () => undefined;
    const handlerAborted = new Promise((resolve) => (aborted = resolve));
    let started: () => void = () => undefined;
    const handlerStarted = new Promise<void>((resolve) => (started = resolve));
    const handlers = {
      "tools/call": (_params: unknown, context: { signal: AbortSignal }) =>
        new Promise(() => {
          started();
          context.signal.addEventListener("abort", () => aborted(context.signal.reason));
        }),
    };
    const url = await serve({ [version]: { capabilities: { tools: {} }, handlers } } as ServedVersions);
    const client = createClient({ clientInfo, versions: [version] });
    await client.connect(httpClientTransport(url));
    const controller = new AbortController();
    const call = client.request("tools/call", { name: "forever" }, { signal: controller.signal });
    await handlerStarted;
    controller.abort(new Error("the user gave up"));
    await expect(call).rejects.toThrow("the user gave up");
    expect(await handlerAborted).toBeDefined();
    await client.close();
  });

  it.each(["2025-11-25", "2026-07-28"] as const)("at %s, rejects a pending request when the server goes away mid-request", async (version) => {
    let started: () => void = () => undefined;
    const handlerStarted = new Promise<void>((resolve) => (started = resolve));
    const url = await serve({ [version]: { capabilities: { tools: {} }, handlers: { "tools/call": () => new Promise(() => started()) } } } as ServedVersions);
    const client = createClient({ clientInfo, versions: [version] });
    await client.connect(httpClientTransport(url));
    const call = client.request("tools/call", { name: "hang" }).catch((e: unknown) => e);
    await handlerStarted;
    await server!.close();
    server = undefined;
    const error = await call;
    // The request rejects with the transport's own failure (undici's), not a timeout long after.
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe("fetch failed");
    await client.close();
  });

  it("a result that fails the negotiated version's schema is a ClientError naming the JSON pointers", async () => {
    const url = await serve({
      "2025-11-25": {
        capabilities: { tools: {} },
        dispatcher: { validateResults: false },
        handlers: { "tools/call": () => ({ content: "not a list" }) as never, "tools/list": () => ({ tools: [{ name: 7 }] }) as never },
      },
    });
    const client = createClient({ clientInfo, versions: ["2025-11-25"] });
    await client.connect(httpClientTransport(url));
    const error = await client.at("2025-11-25").request("tools/call", { name: "x" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientError);
    expect((error as ClientError).kind).toBe("invalid-result");
    expect((error as ClientError).pointers).toEqual(["/content"]);
    const listed = await client.at("2025-11-25").request("tools/list").catch((e: unknown) => e);
    expect((listed as ClientError).pointers).toEqual(expect.arrayContaining(["/tools/0/name", "/tools/0/inputSchema"]));
    await client.close();
  });

  it("refuses before sending: a method the version lacks, a capability the server lacks, invalid params", async () => {
    const url = await serve({ "2026-07-28": modern });
    const client = createClient({ clientInfo, versions: ["2026-07-28"] });
    await client.connect(httpClientTransport(url));
    await expect(client.request("resources/subscribe", { uri: "file:///x" })).rejects.toMatchObject({ kind: "unknown-method" });
    await expect(client.request("prompts/list", {})).rejects.toMatchObject({ kind: "capability", message: expect.stringContaining("prompts") });
    await expect(client.request("tools/call", { name: 42 })).rejects.toMatchObject({ kind: "invalid-params", pointers: ["/params/name"] });
    // A type error too: the client offers 2026-07-28 alone.
    expect(() => client.at("2025-11-25" as never)).toThrow(ClientError);
    await client.close();
  });
});
