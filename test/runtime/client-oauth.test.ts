// createOAuthFetch end to end on loopback, against an authorization server nobody here wrote: the official
// SDK's auth router (`mcpAuthRouter`, @modelcontextprotocol/sdk 1.32.2: metadata, Dynamic Client
// Registration, the authorization endpoint, the token endpoint with its own PKCE check) and its bearer-token
// middleware and Protected Resource Metadata router in front of a resource that reports what it was sent.
// The conformance scenarios (test/conformance/client-auth.test.ts) cover the rest: the metadata URL
// variants, CIMD, pre-registration, the token-endpoint methods, iss, migration.
import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { mcpAuthMetadataRouter, mcpAuthRouter } from "@modelcontextprotocol/sdk/server/auth/router.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import { DemoInMemoryAuthProvider } from "@modelcontextprotocol/sdk/examples/server/demoInMemoryOAuthProvider.js";
import type { OAuthClientInformationFull, OAuthMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { AuthorizationParams } from "@modelcontextprotocol/sdk/server/auth/provider.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { InvalidGrantError, InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { Response as ExpressResponse } from "express";
import { afterEach, describe, expect, it } from "vitest";
import type { ClientFetch } from "../../generator/runtime/client-fetch.js";
import { createOAuthFetch, followRedirects, InMemoryTokenStore, OAuthFlowError, type OAuthFetchOptions } from "../../generator/runtime/client-oauth.js";

const REDIRECT = "http://127.0.0.1:1/callback";

/**
 * The SDK's demo provider (its clients store, authorization codes and redirect), issuing its own access
 * tokens with refresh tokens; a token it does not know is the SDK's InvalidTokenError (401).
 */
class Provider extends DemoInMemoryAuthProvider {
  authorizations: AuthorizationParams[] = [];
  refreshes = 0;
  readonly issued = new Map<string, AuthInfo>();
  private readonly refreshTokens = new Map<string, { clientId: string; scopes: string[]; resource?: URL }>();

  override async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: ExpressResponse): Promise<void> {
    this.authorizations.push(params);
    return super.authorize(client, params, res);
  }
  private issue(clientId: string, scopes: string[], resource: URL | undefined): OAuthTokens {
    const token = `at-${Math.random().toString(36).slice(2)}`;
    this.issued.set(token, { token, clientId, scopes, expiresAt: Math.floor(Date.now() / 1000) + 3600, resource });
    const refresh = `rt-${Math.random().toString(36).slice(2)}`;
    this.refreshTokens.set(refresh, { clientId, scopes, resource });
    return { access_token: token, token_type: "bearer", expires_in: 3600, refresh_token: refresh, scope: scopes.join(" ") };
  }
  override async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<OAuthTokens> {
    const granted = await super.exchangeAuthorizationCode(client, code);
    const info = await super.verifyAccessToken(granted.access_token);
    return this.issue(client.client_id, info.scopes, info.resource);
  }
  override async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string): Promise<OAuthTokens> {
    const known = this.refreshTokens.get(refreshToken);
    if (known === undefined || known.clientId !== client.client_id) throw new InvalidGrantError("unknown refresh token");
    this.refreshTokens.delete(refreshToken);
    this.refreshes++;
    return this.issue(client.client_id, known.scopes, known.resource);
  }
  override async verifyAccessToken(token: string): Promise<AuthInfo> {
    const info = this.issued.get(token);
    if (info === undefined) throw new InvalidTokenError("unknown access token");
    return info;
  }
}

interface Setup {
  mcpUrl: URL;
  provider: Provider;
  /** What the resource received: the JSON-RPC method and the token's scopes. */
  served: { method: string; scopes: string[]; resource?: string }[];
  registrations: number;
  issuer: string;
}

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function listen(): Promise<{ server: http.Server; url: URL }> {
  const server = http.createServer();
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`) };
}

/**
 * An authorization server and a protected MCP endpoint (`/mcp`): `tools/call` needs `write` scopes,
 * everything else `read` ones; `resource` overrides the PRM's resource name.
 */
async function setup(opts: { read?: string[]; write?: string[]; resource?: string; refuseWrite?: boolean } = {}): Promise<Setup> {
  const read = opts.read ?? ["mcp:read"];
  const write = opts.write ?? ["mcp:read", "mcp:write"];
  const provider = new Provider();
  const as = await listen();
  const asApp = express();
  const state: Setup = { mcpUrl: new URL("/mcp", as.url), provider, served: [], registrations: 0, issuer: "" };
  asApp.use("/register", (_req, _res, next) => {
    state.registrations++;
    next();
  });
  asApp.use(mcpAuthRouter({ provider, issuerUrl: as.url, scopesSupported: [...new Set([...read, ...write])] }));
  as.server.on("request", asApp);

  const rs = await listen();
  state.mcpUrl = new URL("/mcp", rs.url);
  const rsApp = express();
  const metadata = (await (await fetch(new URL("/.well-known/oauth-authorization-server", as.url))).json()) as OAuthMetadata;
  state.issuer = metadata.issuer;
  const prmUrl = new URL("/.well-known/oauth-protected-resource/mcp", rs.url).href;
  if (opts.resource === undefined) {
    rsApp.use(mcpAuthMetadataRouter({ oauthMetadata: metadata, resourceServerUrl: state.mcpUrl, scopesSupported: read }));
  } else {
    rsApp.get("/.well-known/oauth-protected-resource/mcp", (_req, res) => {
      res.json({ resource: opts.resource, authorization_servers: [metadata.issuer] });
    });
  }
  rsApp.use(express.json());
  const readAuth = requireBearerAuth({ verifier: provider, requiredScopes: read, resourceMetadataUrl: prmUrl });
  const writeAuth = requireBearerAuth({ verifier: provider, requiredScopes: write, resourceMetadataUrl: prmUrl });
  // refuseWrite: tools/call is refused with insufficient_scope for the scopes already granted.
  const refuse: express.RequestHandler = (_req, res) => {
    res.status(403).set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="${read.join(" ")}", resource_metadata="${prmUrl}"`).json({ error: "insufficient_scope" });
  };
  rsApp.post("/mcp", (req, res, next) => (req.body?.method === "tools/call" ? writeAuth : readAuth)(req, res, next));
  if (opts.refuseWrite === true) rsApp.post("/mcp", (req, res, next) => (req.body?.method === "tools/call" ? refuse(req, res, next) : next()));
  rsApp.post("/mcp", (req, res) => {
    const auth = (req as typeof req & { auth?: { scopes: string[]; resource?: URL } }).auth!;
    state.served.push({ method: req.body.method, scopes: auth.scopes, resource: auth.resource?.href });
    res.json({ jsonrpc: "2.0", id: req.body.id, result: {} });
  });
  rs.server.on("request", rsApp);
  return state;
}

const rpc = (method: string, id = 1): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ jsonrpc: "2.0", id, method, params: {} }),
});

function oauthFetch(extra: Partial<OAuthFetchOptions> = {}): ClientFetch {
  return createOAuthFetch({ redirectUri: REDIRECT, userAgent: followRedirects(), ...extra });
}

describe("createOAuthFetch against the official SDK's authorization server", () => {
  it("answers the first 401 with discovery, registration and an authorization-code grant, then sends the request again with the token", async () => {
    const s = await setup();
    const send = oauthFetch();
    const response = await send(s.mcpUrl, rpc("tools/list"));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(s.registrations).toBe(1);
    expect(s.provider.authorizations).toHaveLength(1);
    const [authorization] = s.provider.authorizations;
    // The scope of the challenge, and the resource exactly as the metadata names it.
    expect(authorization.scopes).toEqual(["mcp:read"]);
    expect(authorization.resource?.href).toBe(s.mcpUrl.href);
    expect(authorization.codeChallenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(s.served).toEqual([{ method: "tools/list", scopes: ["mcp:read"], resource: s.mcpUrl.href }]);
  });

  it("reuses the token: a second request needs no authorization", async () => {
    const s = await setup();
    const send = oauthFetch();
    expect((await send(s.mcpUrl, rpc("tools/list", 1))).status).toBe(200);
    expect((await send(s.mcpUrl, rpc("prompts/list", 2))).status).toBe(200);
    expect(s.provider.authorizations).toHaveLength(1);
    expect(s.served.map((x) => x.method)).toEqual(["tools/list", "prompts/list"]);
  });

  it("steps up on 403 insufficient_scope with the union of the scopes asked for before and the challenged ones", async () => {
    const s = await setup();
    const send = oauthFetch();
    expect((await send(s.mcpUrl, rpc("tools/list"))).status).toBe(200);
    expect((await send(s.mcpUrl, rpc("tools/call", 2))).status).toBe(200);
    expect(s.provider.authorizations.map((a) => a.scopes)).toEqual([["mcp:read"], ["mcp:read", "mcp:write"]]);
    expect(s.served.at(-1)).toEqual({ method: "tools/call", scopes: ["mcp:read", "mcp:write"], resource: s.mcpUrl.href });
  });

  it("stops after maxAuthorizationAttempts and returns the last 401 when every token is refused", async () => {
    const s = await setup();
    let refusals = 0;
    // Every request reaches the server without its token: each 401 starts a new authorization.
    const dropToken: ClientFetch = (url, init) => {
      const headers = new Headers(init.headers);
      if (url.pathname === "/mcp" && headers.has("authorization")) {
        refusals++;
        headers.delete("authorization");
      }
      return fetch(url, { ...init, headers });
    };
    const send = oauthFetch({ fetch: dropToken, maxAuthorizationAttempts: 2 });
    const response = await send(s.mcpUrl, rpc("tools/list"));
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toContain('error="invalid_token"');
    // authorize, refused; authorize again (a token just obtained is not refreshed), refused: the bound.
    expect(s.provider.authorizations).toHaveLength(2);
    expect(s.provider.refreshes).toBe(0);
    expect(refusals).toBe(2);
  });

  it("does not step up when the challenge asks for no scope not asked for before: the 403 comes back after one authorization", async () => {
    const s = await setup({ write: ["mcp:read"], refuseWrite: true });
    const send = oauthFetch();
    const response = await send(s.mcpUrl, rpc("tools/call"));
    expect(response.status).toBe(403);
    expect(response.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    expect(s.provider.authorizations).toHaveLength(1);
  });

  it("refreshes an expired token with the refresh-token grant instead of authorizing again", async () => {
    const s = await setup();
    const store = new InMemoryTokenStore();
    const send = oauthFetch({ store });
    expect((await send(s.mcpUrl, rpc("tools/list", 1))).status).toBe(200);
    const first = store.tokens.get(s.mcpUrl.href)!;
    expect(first.refreshToken).toMatch(/^rt-/);
    first.expiresAt = Date.now() - 1; // as if an hour had passed
    expect((await send(s.mcpUrl, rpc("tools/list", 2))).status).toBe(200);
    expect(s.provider.refreshes).toBe(1);
    expect(s.provider.authorizations).toHaveLength(1);
    expect(store.tokens.get(s.mcpUrl.href)!.accessToken).not.toBe(first.accessToken);
    expect(s.served.map((x) => x.method)).toEqual(["tools/list", "tools/list"]);
  });

  it("answers a 401 to a token it holds with one refresh-token grant, then sends the request again", async () => {
    const s = await setup();
    const store = new InMemoryTokenStore();
    const send = oauthFetch({ store });
    expect((await send(s.mcpUrl, rpc("tools/list", 1))).status).toBe(200);
    s.provider.issued.clear(); // the server forgets the access token (revoked); the refresh token still works
    expect((await send(s.mcpUrl, rpc("tools/list", 2))).status).toBe(200);
    expect(s.provider.refreshes).toBe(1);
    expect(s.provider.authorizations).toHaveLength(1);
    expect(s.served).toHaveLength(2);
  });

  it("keeps tokens per resource and registrations per issuer in the store it is given", async () => {
    const s = await setup();
    const store = new InMemoryTokenStore();
    expect((await oauthFetch({ store })(s.mcpUrl, rpc("tools/list"))).status).toBe(200);
    expect([...store.tokens.keys()]).toEqual([s.mcpUrl.href]);
    expect(store.tokens.get(s.mcpUrl.href)).toMatchObject({ issuer: s.issuer, requestedScopes: ["mcp:read"], tokenType: "bearer" });
    expect([...store.clients.keys()]).toEqual([s.issuer]);
    // Another wrapper on the same store: no registration, no authorization.
    expect((await oauthFetch({ store })(s.mcpUrl, rpc("prompts/list", 2))).status).toBe(200);
    expect(s.registrations).toBe(1);
    expect(s.provider.authorizations).toHaveLength(1);
  });

  it("refuses metadata naming another resource, before any authorization request", async () => {
    const s = await setup({ resource: "https://evil.example.com/mcp" });
    const failure = await oauthFetch()(s.mcpUrl, rpc("tools/list")).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(OAuthFlowError);
    expect((failure as OAuthFlowError).failure).toBe("resource_mismatch");
    expect(s.provider.authorizations).toHaveLength(0);
    expect(s.registrations).toBe(0);
  });

  it("uses a pre-registered client bound to another issuer nowhere else: this server gets a registration", async () => {
    const s = await setup();
    const send = oauthFetch({ clientId: "elsewhere", clientIssuer: "https://other.example.com" });
    expect((await send(s.mcpUrl, rpc("tools/list"))).status).toBe(200);
    expect(s.registrations).toBe(1);
  });

  it("passes a response that is not 401/403 through untouched, without discovery", async () => {
    const { server, url } = await listen();
    let requests = 0;
    server.on("request", (_req, res) => {
      requests++;
      res.writeHead(404, { "content-type": "text/plain" }).end("nothing here");
    });
    const response = await oauthFetch()(new URL("/mcp", url), rpc("tools/list"));
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("nothing here");
    expect(requests).toBe(1);
  });
});

describe("followRedirects (the headless user agent)", () => {
  it("follows redirects until one reaches the redirect URI, and resolves to it", async () => {
    const { server, url } = await listen();
    server.on("request", (req, res) => {
      if (req.url === "/authorize") res.writeHead(302, { location: "/login" }).end();
      else res.writeHead(302, { location: `${REDIRECT}?code=c1&state=s1` }).end();
    });
    const callback = await followRedirects()(new URL("/authorize", url), REDIRECT);
    expect(callback.searchParams.get("code")).toBe("c1");
    expect(callback.searchParams.get("state")).toBe("s1");
  });

  it("rejects an authorization endpoint that answers without a redirect", async () => {
    const { server, url } = await listen();
    server.on("request", (_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<form>log in</form>"));
    await expect(followRedirects()(new URL("/authorize", url), REDIRECT)).rejects.toThrow(/answered 200 without a redirect/);
  });
});
