// An authorization server nobody here wrote, on loopback, for the client's OAuth tests: the official SDK's
// auth router (`mcpAuthRouter`, @modelcontextprotocol/sdk 1.32.2: metadata, Dynamic Client Registration,
// the authorization endpoint, the token endpoint with its own PKCE check), and a protected MCP endpoint
// behind the SDK's bearer-token middleware and Protected Resource Metadata router that reports what it
// was sent. Servers are closed by `closeOAuthServers()` (afterEach).
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

export const REDIRECT = "http://127.0.0.1:1/callback";

/**
 * The SDK's demo provider (its clients store, authorization codes and redirect), issuing its own access
 * tokens with refresh tokens; a token it does not know is the SDK's InvalidTokenError (401).
 */
export class Provider extends DemoInMemoryAuthProvider {
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

export interface Setup {
  mcpUrl: URL;
  provider: Provider;
  /** What the resource received: the JSON-RPC method and the token's scopes. */
  served: { method: string; scopes: string[]; resource?: string }[];
  registrations: number;
  issuer: string;
}

const servers: http.Server[] = [];
export async function closeOAuthServers(): Promise<void> {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
}

export async function listen(): Promise<{ server: http.Server; url: URL }> {
  const server = http.createServer();
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`) };
}

/**
 * An authorization server and a protected MCP endpoint (`/mcp`): `tools/call` needs `write` scopes,
 * everything else `read` ones; `resource` overrides the PRM's resource name.
 */
export async function setup(opts: { read?: string[]; write?: string[]; resource?: string; refuseWrite?: boolean } = {}): Promise<Setup> {
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

