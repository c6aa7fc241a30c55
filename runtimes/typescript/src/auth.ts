// The resource-server role of an HTTP MCP server (the specification's Authorization section: OAuth 2.1,
// RFC 9728 Protected Resource Metadata, RFC 8707 resource indicators, RFC 6750 bearer tokens). Opt-in:
// `serveHttp(router, { auth })`. This file decides, per request, what the `Authorization` header is worth:
//
// - no bearer token, or one `verifyAccessToken` refuses, expired, or bound to another audience than the
//   server's canonical resource URI → 401 with `WWW-Authenticate: Bearer resource_metadata="…"` (and
//   `scope="…"` naming the required scopes, `error="invalid_token"` when a token was sent);
// - a valid token lacking a required scope → 403 with `error="insufficient_scope"` and `scope="…"`;
// - else the caller's AuthInfo, which every handler sees as `context.auth` (and the router, the Tasks
//   extension and `onError`).
// `/.well-known/oauth-protected-resource` (and its path-suffixed form) answers the metadata given here.
// Token verification is the host's: `verifyAccessToken`, or the ready JWT verifier of ./auth-jwt.ts.
// No dependency: the transports import this file, the optional JWT verifier imports `jose`.

import type { AuthInfo } from "./auth-info.js";

export type { AuthInfo } from "./auth-info.js";

/** RFC 9728 Protected Resource Metadata (the members the specification uses; others are passed through). */
export interface ProtectedResourceMetadata {
  /** The server's canonical resource URI (e.g. `https://mcp.example.com/mcp`): tokens must be issued for it. */
  resource: string;
  authorization_servers?: string[];
  scopes_supported?: string[];
  bearer_methods_supported?: string[];
  resource_name?: string;
  [member: string]: unknown;
}

export interface ResourceServerOptions<Request = unknown> {
  /** Verify a bearer token (signature, issuer, expiry as the host sees fit); throw (or reject) to refuse it. */
  verifyAccessToken(token: string, req: Request): AuthInfo | Promise<AuthInfo>;
  /** Served at `/.well-known/oauth-protected-resource`; its `resource` is the canonical resource URI checked against every token. */
  resourceMetadata: ProtectedResourceMetadata;
  /** Scopes every request needs (default none); named in 401's and 403's `scope=`. */
  requiredScopes?: readonly string[];
  /** Where the metadata is advertised (`resource_metadata=`). Default: `/.well-known/oauth-protected-resource<path of resource>` on the resource's origin. */
  resourceMetadataUrl?: string;
  /** The clock (ms since the epoch), for tests. Default Date.now. */
  now?: () => number;
}

/** A request the resource server refuses: status, headers and the OAuth error body (RFC 6750). */
export interface AuthRefusal {
  readonly status: 401 | 403;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: { error: string; error_description: string };
}

export const PROTECTED_RESOURCE_WELL_KNOWN = "/.well-known/oauth-protected-resource";

/** A resource URI in the form tokens are compared in: no fragment, no trailing slash on an empty path (RFC 8707, the specification's canonical form). */
export function canonicalResource(uri: string): string | undefined {
  try {
    const url = new URL(uri);
    url.hash = "";
    const text = url.href;
    return url.pathname === "/" && url.search === "" ? text.slice(0, -1) : text;
  } catch {
    return undefined;
  }
}

/** The metadata's advertised URL. */
export function resourceMetadataUrl(options: Pick<ResourceServerOptions, "resourceMetadata" | "resourceMetadataUrl">): string {
  if (options.resourceMetadataUrl !== undefined) return options.resourceMetadataUrl;
  const url = new URL(options.resourceMetadata.resource);
  const path = url.pathname === "/" ? "" : url.pathname;
  return `${url.origin}${PROTECTED_RESOURCE_WELL_KNOWN}${path}`;
}

/** The paths the metadata is served at: the well-known path itself and the path-suffixed form (RFC 9728 section 3.1). */
export function resourceMetadataPaths(options: Pick<ResourceServerOptions, "resourceMetadata" | "resourceMetadataUrl">): string[] {
  const paths = new Set([PROTECTED_RESOURCE_WELL_KNOWN, new URL(resourceMetadataUrl(options)).pathname]);
  return [...paths];
}

/** The principal a task or session is bound to: the token's subject, else its client. */
export function principalOf(auth: AuthInfo | undefined): string | undefined {
  if (auth === undefined) return undefined;
  return auth.subject !== undefined ? `sub:${auth.subject}` : `client:${auth.clientId}`;
}

/** An auth-param value as a quoted-string without the characters it cannot carry. */
const quoted = (value: string) => `"${value.replace(/["\\\r\n]/g, "")}"`;

function challenge(options: ResourceServerOptions, error?: { code: string; description: string }, scopes?: readonly string[]): string {
  const params: string[] = [];
  if (error !== undefined) params.push(`error=${quoted(error.code)}`, `error_description=${quoted(error.description)}`);
  const scope = scopes ?? options.requiredScopes ?? [];
  if (scope.length > 0) params.push(`scope=${quoted(scope.join(" "))}`);
  params.push(`resource_metadata=${quoted(resourceMetadataUrl(options))}`);
  return `Bearer ${params.join(", ")}`;
}

function refusal(options: ResourceServerOptions, status: 401 | 403, code: string, description: string, scopes?: readonly string[]): AuthRefusal {
  const header = status === 401 && code === "" ? challenge(options, undefined, scopes) : challenge(options, { code, description }, scopes);
  return { status, headers: { "www-authenticate": header }, body: { error: code === "" ? "invalid_request" : code, error_description: description } };
}

/** Whether the token was issued for `resource` (its `resource`, or one of its audiences). */
export function audienceMatches(auth: AuthInfo, resource: string): boolean {
  const wanted = canonicalResource(resource);
  const named = [auth.resource, ...(auth.audience === undefined ? [] : typeof auth.audience === "string" ? [auth.audience] : auth.audience)];
  return named.some((n) => typeof n === "string" && canonicalResource(n) === wanted);
}

/** The caller of a request with this `Authorization` header, or why it is refused. */
export async function authenticate<Request>(authorization: string | undefined, req: Request, options: ResourceServerOptions<Request>): Promise<AuthInfo | AuthRefusal> {
  const o = options as ResourceServerOptions;
  const m = authorization === undefined ? null : /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(authorization);
  if (m === null) return refusal(o, 401, authorization === undefined ? "" : "invalid_request", authorization === undefined ? "Unauthorized: a bearer token is required" : "Unauthorized: the Authorization header is not a bearer token");
  let auth: AuthInfo;
  try {
    auth = await options.verifyAccessToken(m[1], req);
  } catch (error) {
    const why = error instanceof Error ? error.message : "the token was refused";
    return refusal(o, 401, "invalid_token", `Unauthorized: invalid token (${why})`);
  }
  const now = (options.now ?? Date.now)() / 1000;
  if (typeof auth.expiresAt === "number" && auth.expiresAt <= now) return refusal(o, 401, "invalid_token", "Unauthorized: the token has expired");
  if (!audienceMatches(auth, options.resourceMetadata.resource)) {
    return refusal(o, 401, "invalid_token", `Unauthorized: the token was not issued for this resource (${canonicalResource(options.resourceMetadata.resource)})`);
  }
  const missing = (options.requiredScopes ?? []).filter((s) => !auth.scopes.includes(s));
  if (missing.length > 0) return refusal(o, 403, "insufficient_scope", `Forbidden: the token lacks the scope ${missing.join(" ")}`, options.requiredScopes);
  return auth;
}

/** Whether `authenticate` refused. */
export function isAuthRefusal(value: AuthInfo | AuthRefusal): value is AuthRefusal {
  return typeof (value as AuthRefusal).status === "number" && (value as AuthRefusal).body !== undefined;
}
