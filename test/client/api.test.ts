// The client author's API (issue 39, item 4) against the generated router over streamable HTTP: the
// pager over a list's pages, handlers set after construction and after connect, the notification
// catch-all, and tools/call's structuredContent checked against the tool's outputSchema.
import { afterEach, describe, expect, it } from "vitest";
import { ClientError, createClient, httpClientTransport } from "../../generated/client.js";
import { createServerRouter, type ServedVersions } from "../../generated/router.js";
import { serveHttp, type HttpServer } from "../../generated/runtime/transport-http.js";

const clientInfo = { name: "api-test-client", version: "1.0.0" };

let server: HttpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(versions: ServedVersions): Promise<string> {
  server = await serveHttp(createServerRouter({ serverInfo: { name: "api-under-test", version: "1.0.0" }, versions }), { port: 0 });
  return server.url;
}

/** What a tools/list result carries beyond its tools at `version` (2026-07-28 requires the cache hints). */
const hints = (version: string) => (version === "2025-11-25" ? {} : { ttlMs: 0, cacheScope: "private" as const });

const tool = (name: string, outputSchema?: { type: "object"; [key: string]: unknown }) => ({ name, inputSchema: { type: "object" as const }, ...(outputSchema === undefined ? {} : { outputSchema }) });

/** tools/list in three pages of two tools ("t0".."t5"), the cursor being the next index; every cursor seen recorded. */
function pagedTools(cursors: Array<string | undefined>, version = "2025-11-25") {
  return (params: { cursor?: string } | undefined) => {
    cursors.push(params?.cursor);
    const at = params?.cursor === undefined ? 0 : Number(params.cursor);
    const tools = [tool(`t${at}`), tool(`t${at + 1}`)];
    return at + 2 < 6 ? { tools, nextCursor: String(at + 2), ...hints(version) } : { tools, ...hints(version) };
  };
}

describe("client.pages", () => {
  it.each(["2025-11-25", "2026-07-28"] as const)("at %s, yields every page of tools/list, following nextCursor until a page has none", async (version) => {
    const cursors: Array<string | undefined> = [];
    const url = await serve({ [version]: { capabilities: { tools: {} }, handlers: { "tools/list": pagedTools(cursors, version) } } } as ServedVersions);
    const client = createClient({ clientInfo, versions: [version] });
    await client.connect(httpClientTransport(url));
    const names: string[] = [];
    for await (const page of client.pages("tools/list")) names.push(...(page.tools as Array<{ name: string }>).map((t) => t.name));
    expect(names).toEqual(["t0", "t1", "t2", "t3", "t4", "t5"]);
    expect(cursors).toEqual([undefined, "2", "4"]);
    await client.close();
  });

  it("starts at the cursor given and is typed through at(version)", async () => {
    const cursors: Array<string | undefined> = [];
    const url = await serve({ "2025-11-25": { capabilities: { tools: {} }, handlers: { "tools/list": pagedTools(cursors) } } });
    const client = createClient({ clientInfo, versions: ["2025-11-25"] });
    await client.connect(httpClientTransport(url));
    const names: string[] = [];
    for await (const page of client.at("2025-11-25").pages("tools/list", { cursor: "2" })) names.push(...page.tools.map((t) => t.name));
    expect(names).toEqual(["t2", "t3", "t4", "t5"]);
    expect(cursors).toEqual(["2", "4"]);
    await client.close();
  });

  it("refuses a request that is not a paginated list, and stops when the server repeats a cursor", async () => {
    const url = await serve({ "2025-11-25": { capabilities: { tools: {} }, handlers: { "tools/list": () => ({ tools: [], nextCursor: "same" }), "tools/call": () => ({ content: [] }) } } });
    const client = createClient({ clientInfo, versions: ["2025-11-25"] });
    await client.connect(httpClientTransport(url));
    const notPaged = await client.pages("tools/call", { name: "x" }).next().catch((e: unknown) => e);
    expect(notPaged).toBeInstanceOf(ClientError);
    expect((notPaged as ClientError).kind).toBe("unknown-method");
    expect((notPaged as ClientError).message).toBe("tools/call is not a paginated list at 2025-11-25");
    let pages = 0;
    const looped = await (async () => {
      for await (const _ of client.pages("tools/list")) pages++;
    })().catch((e: unknown) => e);
    expect(pages).toBe(2);
    expect((looped as ClientError).kind).toBe("invalid-result");
    expect((looped as ClientError).pointers).toEqual(["/nextCursor"]);
    await client.close();
  });
});

describe("handlers set after construction, and the catch-all", () => {
  it("a request handler set after connect answers the server's next request; removed, the server gets -32601", async () => {
    const answers: unknown[] = [];
    const handlers = {
      "tools/call": async (_params: unknown, context: { request(method: "roots/list", params?: object): Promise<unknown> }) => {
        try {
          answers.push(await context.request("roots/list"));
        } catch (error) {
          answers.push({ code: (error as { code?: number }).code });
        }
        return { content: [] };
      },
    };
    const url = await serve({ "2025-11-25": { capabilities: { tools: {} }, handlers } } as ServedVersions);
    const client = createClient({ clientInfo, versions: ["2025-11-25"], capabilities: { roots: {} } });
    await client.connect(httpClientTransport(url));
    await client.request("tools/call", { name: "ask" });
    client.setRequestHandler("roots/list", () => ({ roots: [{ uri: "file:///late", name: "late" }] }));
    await client.request("tools/call", { name: "ask" });
    client.setRequestHandler("roots/list", undefined);
    await client.request("tools/call", { name: "ask" });
    expect(answers).toEqual([{ code: -32601 }, { roots: [{ uri: "file:///late", name: "late" }] }, { code: -32601 }]);
    await client.close();
  });

  it.each(["2025-11-25", "2026-07-28"] as const)("at %s, a notification handler set after connect hears its method; the catch-all hears only what no handler took", async (version) => {
    // 2026-07-28 sends log messages only to a request that asked for a level: there the tool sends list_changed alone.
    const legacy = version === "2025-11-25";
    const handlers = {
      "tools/call": async (_params: unknown, context: { notify(method: string, params?: object): Promise<void> }) => {
        if (legacy) await context.notify("notifications/message", { level: "info", data: "one" });
        await context.notify("notifications/tools/list_changed");
        return { content: [] };
      },
    };
    const url = await serve({ [version]: { capabilities: { tools: { listChanged: true }, logging: {} }, handlers } } as ServedVersions);
    const client = createClient({ clientInfo, versions: [version] });
    const heard: unknown[] = [];
    client.onNotification((n) => heard.push(["*", n.method]));
    await client.connect(httpClientTransport(url));
    await client.request("tools/call", { name: "talk" });
    client.setNotificationHandler("notifications/tools/list_changed", () => void heard.push(["list_changed"]));
    await client.request("tools/call", { name: "talk" });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const message = legacy ? [["*", "notifications/message"]] : [];
    expect(heard).toEqual([...message, ["*", "notifications/tools/list_changed"], ...message, ["list_changed"]]);
    await client.close();
  });

  it("refuses a handler for a method no version has servers send", () => {
    const client = createClient({ clientInfo });
    expect(() => client.setRequestHandler("tools/call" as "roots/list", () => ({ roots: [] }))).toThrow("tools/call is not a request a server sends to clients at any version of this client");
    expect(() => client.setNotificationHandler("roots/list" as "notifications/message", () => undefined)).toThrow(ClientError);
  });
});

describe("structuredContent against the tool's outputSchema", () => {
  const outputSchema = {
    type: "object" as const,
    properties: { temperature: { type: "number", minimum: -273.15 }, unit: { enum: ["C", "F"] }, readings: { type: "array", items: { type: "integer" }, maxItems: 2 } },
    required: ["temperature"],
    additionalProperties: false,
  };
  async function weather(version: "2025-11-25" | "2026-07-28", structuredContent: unknown, options: { validateStructuredContent?: boolean; isError?: boolean } = {}) {
    const result = { content: [], ...(structuredContent === undefined ? {} : { structuredContent }), ...(options.isError ? { isError: true } : {}) };
    const url = await serve({ [version]: { capabilities: { tools: {} }, handlers: { "tools/list": () => ({ tools: [tool("weather", outputSchema), tool("free")], ...hints(version) }), "tools/call": () => result } } } as ServedVersions);
    const client = createClient({ clientInfo, versions: [version], ...(options.validateStructuredContent === undefined ? {} : { validateStructuredContent: options.validateStructuredContent }) });
    await client.connect(httpClientTransport(url));
    await client.request("tools/list");
    const outcome = await client.request("tools/call", { name: "weather" }).catch((e: unknown) => e);
    const free = await client.request("tools/call", { name: "free" }).catch((e: unknown) => e);
    await client.close();
    return { outcome, free };
  }

  it.each(["2025-11-25", "2026-07-28"] as const)("at %s, passes a result that matches", async (version) => {
    const { outcome } = await weather(version, { temperature: 21.5, unit: "C", readings: [1, 2] });
    expect((outcome as { structuredContent: unknown }).structuredContent).toEqual({ temperature: 21.5, unit: "C", readings: [1, 2] });
  });

  it.each(["2025-11-25", "2026-07-28"] as const)("at %s, refuses one that does not, naming each failing pointer", async (version) => {
    const { outcome, free } = await weather(version, { temperature: -300, unit: "K", readings: [1.5], extra: true });
    expect(outcome).toBeInstanceOf(ClientError);
    expect((outcome as ClientError).kind).toBe("invalid-result");
    expect([...(outcome as ClientError).pointers].sort()).toEqual(["/structuredContent", "/structuredContent/readings/0", "/structuredContent/temperature", "/structuredContent/unit"]);
    // A tool without an outputSchema is not checked.
    expect(free).not.toBeInstanceOf(Error);
  });

  it("refuses a result without structuredContent when the tool declares an outputSchema, unless it is an error result", async () => {
    const { outcome } = await weather("2025-11-25", undefined);
    expect((outcome as ClientError).pointers).toEqual(["/structuredContent"]);
    const { outcome: error } = await weather("2025-11-25", undefined, { isError: true });
    expect(error).toEqual({ content: [], isError: true });
  });

  it("validateStructuredContent: false passes it on unchecked", async () => {
    const { outcome } = await weather("2025-11-25", { temperature: "warm" }, { validateStructuredContent: false });
    expect((outcome as { structuredContent: unknown }).structuredContent).toEqual({ temperature: "warm" });
  });
});

describe("client.listen (2026-07-28 subscriptions/listen)", () => {
  it("resolves with the acknowledged filter, yields the notifications it admits, and closes cleanly", async () => {
    // A tool that sends, on its own call's stream, a notification tagged with the listen stream's id that its filter does not admit.
    let tag: unknown;
    const leak = async (_params: unknown, context: { notify(method: string, params?: object): Promise<void> }) => {
      await context.notify("notifications/resources/updated", { uri: "memo://b", _meta: { "io.modelcontextprotocol/subscriptionId": tag } });
      return { content: [] };
    };
    const versions = { "2026-07-28": { capabilities: { tools: { listChanged: true }, resources: { subscribe: true } }, handlers: { "tools/call": leak } } } as ServedVersions;
    const router = createServerRouter({ serverInfo: { name: "api-under-test", version: "1.0.0" }, versions });
    server = await serveHttp(router, { port: 0 });
    const problems: string[] = [];
    const client = createClient({ clientInfo, versions: ["2026-07-28"], onError: (e) => void problems.push((e as Error).message) });
    const caught: unknown[] = [];
    client.onNotification((n) => void caught.push(n.method));
    await client.connect(httpClientTransport(server.url));
    // prompts are not offered: the server leaves promptsListChanged out of what it acknowledges.
    const stream = await client.listen({ toolsListChanged: true, promptsListChanged: true, resourceSubscriptions: ["memo://a"] });
    expect(stream.acknowledged).toEqual({ toolsListChanged: true, resourceSubscriptions: ["memo://a"] });
    const seen: unknown[] = [];
    const reading = (async () => {
      for await (const n of stream) seen.push([n.method, n.params?.uri]);
    })();
    await router.publish("notifications/tools/list_changed");
    await router.publish("notifications/resources/updated", { uri: "memo://b" }); // not subscribed: the server does not send it
    await router.publish("notifications/resources/updated", { uri: "memo://a" });
    tag = stream.id;
    await client.request("tools/call", { name: "leak" });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(problems).toEqual([`the server sent notifications/resources/updated on listen stream ${String(stream.id)}, which its acknowledged filter does not admit; dropped`]);
    await stream.close();
    await reading;
    expect(seen).toEqual([
      ["notifications/tools/list_changed", undefined],
      ["notifications/resources/updated", "memo://a"],
    ]);
    expect(await stream.ended).toBeUndefined();
    // The stream took its notifications: the catch-all heard none of them.
    expect(caught).toEqual([]);
    // Closed, the stream is gone: the server delivers to no one.
    await router.publish("notifications/tools/list_changed");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(caught).toEqual([]);
    await client.close();
  });

  it("is refused at a version without subscriptions/listen", async () => {
    const url = await serve({ "2025-11-25": { capabilities: { tools: {} }, handlers: {} } });
    const client = createClient({ clientInfo, versions: ["2025-11-25"] });
    await client.connect(httpClientTransport(url));
    await expect(client.listen({ toolsListChanged: true })).rejects.toMatchObject({ kind: "unknown-method" });
    await client.close();
  });
});
