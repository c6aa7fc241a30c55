// createOAuthFetch end to end on loopback, against the official SDK's authorization server and bearer-token
// middleware (runtimes/typescript/test/oauth-servers.ts). The conformance scenarios (npm run conformance)
// cover the rest: the metadata URL variants, CIMD, pre-registration, the token-endpoint methods, iss, migration.
import { afterEach, describe, expect, it } from "vitest";
import type { ClientFetch } from "../src/client-fetch.js";
import { createOAuthFetch, followRedirects, InMemoryTokenStore, OAuthFlowError, type OAuthFetchOptions } from "../src/client-oauth.js";
import { closeOAuthServers, listen, REDIRECT, setup } from "./oauth-servers.js";

afterEach(closeOAuthServers);

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
