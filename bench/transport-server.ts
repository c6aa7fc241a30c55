// A server for the transport benchmarks, in its own process: `tsx transport-server.ts <server> <transport>`.
// - ours: the generated router (2025-11-25 and 2026-07-28) through the shipped transports, compiled
//   (dist/generated, which `npm run bench` builds first), as a package user runs it, not through tsx;
// - sdk1: @modelcontextprotocol/sdk 1.32.2's McpServer (a sessionful StreamableHTTPServerTransport per session, or
//   its StdioServerTransport);
// - sdk2: @modelcontextprotocol/server 2.4.0's McpServer (createMcpHandler on node:http for 2026-07-28, or its
//   serveStdio entry);
// - bare: a bare node:http JSON-RPC echo (parse the body, answer its id and text): the platform's limit;
//   bare-deferred: the same, each answer written at the end of the event loop's turn (as serveHttp writes).
// Each serves one tool, `echo`, whose `text` argument (validated: a string) comes back as text content;
// ours also `flood` (`count` notifications/message of `bytes` each, for the paused-consumer row).
// Over HTTP it prints `listening <url>` on stdout.
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { z } from "zod";

const [kind, transport] = process.argv.slice(2);
const echo = (text: string) => ({ content: [{ type: "text" as const, text }] });

async function listen(handler: http.RequestListener): Promise<void> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.stdout.write(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp\n`);
}

if (kind === "ours" || kind === "ours-jwt") {
  const { createServerRouter } = await import("../dist/generated/router.js");
  const tools = [{ name: "echo", inputSchema: { type: "object" as const, properties: { text: { type: "string" } }, required: ["text"] } }];
  const call = async ({ name, arguments: args }: { name: string; arguments?: Record<string, unknown> }, context: { signal: AbortSignal; notify(method: string, params: Record<string, unknown>): Promise<void> }) => {
    if (name === "flood") {
      const data = "x".repeat(Number(args?.bytes));
      for (let i = 0; i < Number(args?.count) && !context.signal.aborted; i++) await context.notify("notifications/message", { level: "info", data });
      return echo("flooded");
    }
    if (typeof args?.text !== "string") throw Object.assign(new Error("text must be a string"), { code: -32602 });
    return echo(args.text);
  };
  const router = createServerRouter({
    serverInfo: { name: "bench-ours", version: "1.0.0" },
    versions: {
      "2025-11-25": { capabilities: { tools: {}, logging: {} }, handlers: { "tools/list": () => ({ tools }), "tools/call": call } },
      "2026-07-28": { capabilities: { tools: {}, logging: {} }, handlers: { "tools/list": () => ({ tools, ttlMs: 0, cacheScope: "public" }), "tools/call": call as never } },
    },
  });
  if (transport === "stdio") (await import("../dist/generated/runtime/transport-stdio.js")).serveStdio(router);
  else if (kind === "ours") process.stdout.write(`listening ${(await (await import("../dist/generated/runtime/transport-http.js")).serveHttp(router)).url}\n`);
  else {
    // The resource-server role on: every request carries a JWT that jwtVerifier (jose) checks against a local key.
    const { generateKeyPair, SignJWT } = await import("jose");
    const { jwtVerifier } = await import("../dist/generated/runtime/auth-jwt.js");
    const { freePort } = await import("../test/transports/redis-server.js");
    const port = await freePort();
    const resource = `http://127.0.0.1:${port}/mcp`;
    const { publicKey, privateKey } = await generateKeyPair("ES256");
    const token = await new SignJWT({ scope: "mcp:tools", client_id: "bench" }).setProtectedHeader({ alg: "ES256" }).setIssuer("https://issuer.bench").setSubject("bench").setAudience(resource).setExpirationTime("1h").sign(privateKey);
    const server = await (await import("../dist/generated/runtime/transport-http.js")).serveHttp(router, {
      port,
      auth: { verifyAccessToken: jwtVerifier({ key: publicKey, issuer: "https://issuer.bench" }), resourceMetadata: { resource, authorization_servers: ["https://issuer.bench"] }, requiredScopes: ["mcp:tools"] },
    });
    process.stdout.write(`listening ${server.url} token=${token}\n`);
  }
} else if (kind === "sdk1") {
  const { McpServer } = await import("@modelcontextprotocol/sdk/server/mcp.js");
  const make = () => {
    const server = new McpServer({ name: "bench-sdk1", version: "1.0.0" });
    server.registerTool("echo", { inputSchema: { text: z.string() } }, ({ text }) => echo(text));
    return server;
  };
  if (transport === "stdio") {
    const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
    await make().connect(new StdioServerTransport());
  } else {
    const { StreamableHTTPServerTransport } = await import("@modelcontextprotocol/sdk/server/streamableHttp.js");
    const sessions = new Map<string, InstanceType<typeof StreamableHTTPServerTransport>>();
    await listen(async (req, res) => {
      const id = req.headers["mcp-session-id"];
      const existing = typeof id === "string" ? sessions.get(id) : undefined;
      if (existing !== undefined) return existing.handleRequest(req, res);
      const t = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (sid) => void sessions.set(sid, t) });
      t.onclose = () => void (t.sessionId !== undefined && sessions.delete(t.sessionId));
      await make().connect(t);
      await t.handleRequest(req, res);
    });
  }
} else if (kind === "sdk2") {
  const { McpServer, createMcpHandler } = await import("@modelcontextprotocol/server");
  const make = () => {
    const server = new McpServer({ name: "bench-sdk2", version: "1.0.0" });
    server.registerTool("echo", { inputSchema: z.object({ text: z.string() }) }, ({ text }) => echo(text));
    return server;
  };
  if (transport === "stdio") {
    // serveStdio: both eras on one stdio connection (a bare StdioServerTransport offers no server/discover).
    const { serveStdio } = await import("@modelcontextprotocol/server/stdio");
    serveStdio(() => make());
  } else {
    const { getRequestListener } = await import("@hono/node-server");
    const handler = createMcpHandler(() => make());
    await listen(getRequestListener((request) => handler.fetch(request), { overrideGlobalObjects: false }));
  }
} else if (kind === "bare" || kind === "bare-deferred") {
  // bare-deferred writes each answer at the end of the event loop's turn (setImmediate), as serveHttp does.
  const write = kind === "bare" ? (f: () => void) => f() : (f: () => void) => void setImmediate(f);
  await listen((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const message = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id: unknown; params: { arguments: { text: string } } };
      const body = JSON.stringify({ jsonrpc: "2.0", id: message.id, result: echo(message.params.arguments.text) });
      write(() => res.writeHead(200, { "content-type": "application/json" }).end(body));
    });
  });
} else {
  throw new Error(`usage: transport-server.ts ours|ours-jwt|sdk1|sdk2|bare|bare-deferred http|stdio`);
}
