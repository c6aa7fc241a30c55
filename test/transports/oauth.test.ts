// The resource-server role end to end on loopback (issue 28): a small OAuth authorization server over
// `jose` (./oauth-server.ts: RFC 8414 metadata, a JWKS, a client_credentials token endpoint issuing RFC 9068
// JWTs for the RFC 8707 `resource` asked), the generated router behind serveHttp with `auth` and the ready
// `jwtVerifier`, and the official 2.4.0 client with its ClientCredentialsProvider: 401 → Protected Resource
// Metadata → token → the call succeeds and the handler sees the caller. A token for another audience is
// 401, one without the required scope 403 naming it.
import { ClientCredentialsProvider, Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServerRouter } from "../../generated/router.js";
import { jwtVerifier } from "../../generated/runtime/auth-jwt.js";
import { serveHttp, type HttpServer } from "../../generated/runtime/transport-http.js";
import type { FailureContext } from "../../generated/runtime/report.js";
import { startAuthorizationServer } from "./oauth-server.js";
import { freePort } from "./redis-server.js";

const MODERN = "2026-07-28";
const SCOPE = "mcp:tools";
/** Registered clients: secret, the scopes they may get, and the audience their tokens name (`resource` when absent). */
const clients: Record<string, { secret: string; scopes: string[]; audience?: string }> = {
  good: { secret: "s1", scopes: [SCOPE] },
  narrow: { secret: "s2", scopes: ["profile"] },
  elsewhere: { secret: "s3", scopes: [SCOPE], audience: "https://elsewhere.example/mcp" },
};

let authorization: Awaited<ReturnType<typeof startAuthorizationServer>>;
let issuer: string;
let server: HttpServer;
let resource: string;
const seen: unknown[] = [];
const handlerTokens: unknown[] = [];
const failures: FailureContext[] = [];

beforeAll(async () => {
  authorization = await startAuthorizationServer(clients);
  issuer = authorization.issuer;
  const port = await freePort();
  resource = `http://127.0.0.1:${port}/mcp`;
  const tools = [{ name: "whoami", inputSchema: { type: "object" as const } }];
  const router = createServerRouter({
    serverInfo: { name: "protected", version: "1" },
    onError: (_error, context) => failures.push(context),
    versions: {
      [MODERN]: {
        capabilities: { tools: {} },
        handlers: {
          "tools/list": () => ({ tools, ttlMs: 0, cacheScope: "private" }),
          "tools/call": (params, context) => {
            if (params.name === "fail") {
              handlerTokens.push(context.auth?.token);
              throw new Error("the tool failed");
            }
            seen.push({ clientId: context.auth?.clientId, scopes: context.auth?.scopes, principal: context.principal });
            return { content: [{ type: "text", text: `hello ${context.auth?.clientId}` }] };
          },
        },
      },
    },
  });
  server = await serveHttp(router, {
    port,
    onError: () => undefined,
    auth: {
      verifyAccessToken: jwtVerifier({ jwksUrl: `${issuer}/jwks`, issuer }),
      resourceMetadata: { resource, authorization_servers: [issuer], scopes_supported: [SCOPE], bearer_methods_supported: ["header"] },
      requiredScopes: [SCOPE],
    },
  });
}, 30_000);

afterAll(async () => {
  await server?.close();
  await authorization?.close();
});

const tokenFor = (id: string, scope?: string) => authorization.tokenFor(id, resource, scope);

const listTools = (token?: string) =>
  fetch(resource, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": MODERN,
      "mcp-method": "tools/list",
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} } } }),
  });

describe("the resource-server role (serveHttp auth, jwtVerifier) with the official 2.4.0 client", () => {
  const metadataUrl = () => `${new URL(resource).origin}/.well-known/oauth-protected-resource/mcp`;

  it("answers without a token 401 naming the metadata and the scope, and serves the metadata (RFC 9728)", async () => {
    const response = await listTools();
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(`Bearer scope="${SCOPE}", resource_metadata="${metadataUrl()}"`);
    const metadata = await fetch(metadataUrl());
    expect(await metadata.json()).toEqual({ resource, authorization_servers: [issuer], scopes_supported: [SCOPE], bearer_methods_supported: ["header"] });
    expect((await fetch(`${new URL(resource).origin}/.well-known/oauth-protected-resource`)).status).toBe(200);
  });

  it("goes 401 → metadata → token → call, and the handler sees the caller as context.auth", async () => {
    const client = new ModernClient({ name: "oauth", version: "1" }, { versionNegotiation: { mode: { pin: MODERN } } });
    const provider = new ClientCredentialsProvider({ clientId: "good", clientSecret: "s1", scope: SCOPE, expectedIssuer: issuer });
    try {
      await client.connect(new ModernHttp(new URL(resource), { authProvider: provider }));
      expect(await client.callTool({ name: "whoami", arguments: {} })).toMatchObject({ content: [{ type: "text", text: "hello good" }] });
      expect(seen.at(-1)).toEqual({ clientId: "good", scopes: [SCOPE], principal: "sub:good" });
      expect(provider.tokens()?.access_token).toBeTypeOf("string");
    } finally {
      await client.close();
    }
  });

  it("onError sees the caller without its access token; the handler sees the token", async () => {
    const token = await tokenFor("good", SCOPE);
    const response = await fetch(resource, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": MODERN,
        "mcp-method": "tools/call",
        "mcp-name": "fail",
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "fail", arguments: {}, _meta: { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} } } }),
    });
    expect(((await response.json()) as { error: unknown }).error).toEqual({ code: -32603, message: "Internal error" });
    expect(handlerTokens).toEqual([token]);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ kind: "request", method: "tools/call", principal: "sub:good", auth: { clientId: "good", scopes: [SCOPE] } });
    expect(Object.hasOwn(failures[0].auth!, "token")).toBe(false);
    expect(JSON.stringify(failures[0])).not.toContain(token);
  });

  it("refuses a valid token issued for another audience with 401 invalid_token", async () => {
    const response = await listTools(await tokenFor("elsewhere"));
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer error="invalid_token", error_description="Unauthorized: the token was not issued for this resource (${resource})", scope="${SCOPE}", resource_metadata="${metadataUrl()}"`,
    );
  });

  it("refuses a valid token without the required scope with 403 insufficient_scope naming it", async () => {
    const response = await listTools(await tokenFor("narrow"));
    expect(response.status).toBe(403);
    expect(response.headers.get("www-authenticate")).toBe(`Bearer error="insufficient_scope", error_description="Forbidden: the token lacks the scope ${SCOPE}", scope="${SCOPE}", resource_metadata="${metadataUrl()}"`);
    expect(await response.json()).toEqual({ error: "insufficient_scope", error_description: `Forbidden: the token lacks the scope ${SCOPE}` });
  });

  it("refuses a forged or malformed token with 401 invalid_token, and accepts the good one", async () => {
    const good = await tokenFor("good");
    const forged = good.slice(0, -4) + (good.endsWith("AAAA") ? "BBBB" : "AAAA");
    expect((await listTools(forged)).status).toBe(401);
    expect((await listTools("not a token")).status).toBe(401);
    expect((await listTools(good)).status).toBe(200);
  });
});
