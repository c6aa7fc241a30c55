// OAuth 2.1 for the client, as the MCP specification's Authorization section requires: a `ClientFetch`
// wrapper (`createOAuthFetch`) that puts the bearer token on every request the HTTP transport sends and,
// when the server answers 401 (or 403 `insufficient_scope`), runs the flow and sends the request again:
// - Protected Resource Metadata (RFC 9728): the `resource_metadata` URL of the `WWW-Authenticate`
//   challenge, else the well-known URLs (path-inserted, then root); the document's `resource` must be the
//   server's URL or a prefix of it on the same origin;
// - authorization-server metadata (RFC 8414 / OpenID Discovery) with the spec's order of well-known URLs,
//   its `issuer` checked against the issuer the URL was built from;
// - the client: pre-registered (optionally bound to one issuer), a Client ID Metadata Document URL when the
//   server supports it, else Dynamic Client Registration; registrations are kept per issuer, so a server
//   whose authorization server changes gets a new registration and never the old one's credentials;
// - PKCE (S256), `state`, the `resource` parameter (RFC 8707) exactly as the metadata publishes it, the
//   `iss` authorization-response parameter (RFC 9207, compared as a plain string);
// - scopes: the challenge's `scope`, else the metadata's `scopes_supported`, else none; on step-up the union
//   with what was requested before; `offline_access` added when the authorization server lists it;
// - `client_secret_basic` / `client_secret_post` / `none` at the token endpoint, as registered or advertised;
// - refresh (before expiry and on 401), a bounded number of authorization attempts per request;
// - optionally the client-credentials grant (no user), with a secret or `private_key_jwt`, or the JWT-bearer
//   grant (RFC 7523) with an assertion the caller supplies: a workload identity token (workload identity
//   federation), or an Identity Assertion JWT Authorization Grant obtained from an enterprise IdP by token
//   exchange (RFC 8693; `enterpriseAssertion`). A refused JWT-bearer grant is reported, never retried or
//   replaced by another grant;
// - DPoP (RFC 9449) where the authorization server advertises it: every token request carries a proof, the
//   DPoP-bound token is presented with the `DPoP` scheme and a fresh proof per request (bound to the token by
//   `ath`), and a server's `use_dpop_nonce` answer (authorization server or MCP server) is retried once with
//   the nonce it supplied.
// Every protocol detail (PKCE, metadata and token responses, WWW-Authenticate parsing, the authorization
// response) is the `oauth4webapi` library's; this file decides what to ask for and in which order.
// `oauth4webapi` is an optional peer dependency of the generated package: only this entry point imports it.
import * as oauth from "oauth4webapi";
import type { ClientFetch } from "./client-fetch.js";

type Awaitable<T> = T | Promise<T>;

/** Tokens obtained for one protected resource, and where they came from. */
export interface StoredTokens {
  accessToken: string;
  /** `Bearer` or `DPoP` (as the token endpoint said it, case kept); a `DPoP` token is sent with proofs of the key it is bound to. */
  tokenType: string;
  refreshToken?: string;
  /** Milliseconds since the epoch, when the token endpoint gave `expires_in`. */
  expiresAt?: number;
  /** The scopes asked for (the granted `scope` may be narrower); step-up requests their union with the new ones. */
  requestedScopes: string[];
  /** The authorization server that issued them. */
  issuer: string;
}

/** A client registration at one authorization server. */
export interface ClientRegistration {
  clientId: string;
  clientSecret?: string;
  /** `client_secret_basic`, `client_secret_post` or `none`; when absent, chosen from the server's metadata. */
  tokenEndpointAuthMethod?: string;
}

/** Where tokens (per protected resource) and client registrations (per authorization server issuer) are kept. */
export interface TokenStore {
  getTokens(resource: string): Awaitable<StoredTokens | undefined>;
  setTokens(resource: string, tokens: StoredTokens | undefined): Awaitable<void>;
  getClient(issuer: string): Awaitable<ClientRegistration | undefined>;
  setClient(issuer: string, client: ClientRegistration | undefined): Awaitable<void>;
}

/** The default store: this process's memory. */
export class InMemoryTokenStore implements TokenStore {
  readonly tokens = new Map<string, StoredTokens>();
  readonly clients = new Map<string, ClientRegistration>();
  getTokens(resource: string): StoredTokens | undefined {
    return this.tokens.get(resource);
  }
  setTokens(resource: string, tokens: StoredTokens | undefined): void {
    if (tokens === undefined) this.tokens.delete(resource);
    else this.tokens.set(resource, tokens);
  }
  getClient(issuer: string): ClientRegistration | undefined {
    return this.clients.get(issuer);
  }
  setClient(issuer: string, client: ClientRegistration | undefined): void {
    if (client === undefined) this.clients.delete(issuer);
    else this.clients.set(issuer, client);
  }
}

/**
 * The user-agent step: show `authorizationUrl` to the user (a browser) and resolve to the URL the
 * authorization server redirected to (`redirectUri` with `code`, `state`, maybe `iss`).
 */
export type UserAgent = (authorizationUrl: URL, redirectUri: string) => Promise<URL>;

export interface OAuthFetchOptions {
  /** The `fetch` every request goes through (the MCP requests, metadata, registration, token). Default: the platform's. */
  fetch?: ClientFetch;
  /** Where the authorization server sends the user back; it is registered with the server. */
  redirectUri: string;
  /** The user-agent step (see `UserAgent`; `followRedirects(fetch)` drives it headlessly). */
  userAgent: UserAgent;
  /** A pre-registered client id (and secret, for a confidential client). */
  clientId?: string;
  clientSecret?: string;
  /** The issuer the pre-registered client belongs to; other authorization servers get CIMD or DCR. Default: any. */
  clientIssuer?: string;
  /** An https URL of this client's Client ID Metadata Document, used as `client_id` where the server supports CIMD. */
  clientMetadataUrl?: string;
  /** Sent with Dynamic Client Registration (default `client_name: "mcp-codegen client"`). */
  clientName?: string;
  /** Ask for a refresh token (`offline_access`, when the authorization server lists it). Default true. */
  offlineAccess?: boolean;
  /** Authorization attempts (a full flow each) for one request before its 401/403 is returned. Default 3. */
  maxAuthorizationAttempts?: number;
  /** Default: an `InMemoryTokenStore`. */
  store?: TokenStore;
  /**
   * `authorization_code` (default: a user authorizes through `userAgent`), or `client_credentials` for a
   * client acting on its own behalf (the OAuth Client Credentials extension): needs the pre-registered
   * `clientId` with `clientSecret` or `clientPrivateKey`.
   */
  grant?: "authorization_code" | "client_credentials" | "jwt_bearer";
  /**
   * The `jwt_bearer` grant's assertion (RFC 7523 §2.1): a JWT, or a function making one for the authorization
   * server that will receive it (`issuer`) and the protected resource it is for (see `enterpriseAssertion`).
   */
  assertion?: string | ((target: AssertionTarget) => Awaitable<string>);
  /** `private_key_jwt` at the token endpoint: the key (a WebCrypto `CryptoKey`, or `{ key, kid }`) that signs the client assertion (RFC 7523). */
  clientPrivateKey?: Parameters<typeof oauth.PrivateKeyJwt>[0];
  /** Allow plain http to hosts other than loopback (localhost, 127.0.0.1, ::1). Default false. */
  allowInsecureRequests?: boolean;
  /**
   * DPoP (RFC 9449): `true` always asks for DPoP-bound tokens, `false` never; by default they are asked for
   * when the authorization server's metadata lists ES256 in `dpop_signing_alg_values_supported`.
   */
  dpop?: boolean;
  /**
   * The ES256 key pair DPoP proofs are signed with (a token is bound to it: keep it with a persistent
   * `store`). Default: one generated on first use, for this fetch's lifetime.
   */
  dpopKeyPair?: Parameters<typeof oauth.DPoP>[1];
}

/** Who a JWT-bearer assertion is made for. */
export interface AssertionTarget {
  /** The authorization server's issuer identifier (the assertion's audience). */
  issuer: string;
  /** The protected resource, as its metadata publishes it. */
  resource: string;
  /** The scopes the client asks for (empty for none). */
  scopes: string[];
}

/** Where and how an enterprise IdP exchanges the user's identity token for an authorization grant (SEP-990). */
export interface EnterpriseAssertionOptions {
  /** The IdP's token endpoint (RFC 8693 token exchange). */
  tokenEndpoint: string;
  /** The IdP's issuer identifier. Default: the token endpoint's origin. */
  issuer?: string;
  /** The user's ID token at the IdP (the subject token), or a function returning a current one. */
  idToken: string | (() => Awaitable<string>);
  /** This client's id at the IdP (and its secret, if it is confidential there). */
  clientId: string;
  clientSecret?: string;
  fetch?: ClientFetch;
  /** Allow plain http to hosts other than loopback. Default false. */
  allowInsecureRequests?: boolean;
}

const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token";
const ID_JAG_TYPE = "urn:ietf:params:oauth:token-type:id-jag";

/**
 * Enterprise-managed authorization: an `assertion` source for the `jwt_bearer` grant that exchanges the user's
 * ID token at the enterprise IdP (RFC 8693) for an Identity Assertion JWT Authorization Grant (ID-JAG) whose
 * audience is the MCP server's authorization server and whose resource is the MCP server.
 */
export function enterpriseAssertion(idp: EnterpriseAssertionOptions): (target: AssertionTarget) => Promise<string> {
  const base: ClientFetch = idp.fetch ?? ((u, i) => fetch(u, i));
  const endpoint = new URL(idp.tokenEndpoint);
  const as: oauth.AuthorizationServer = { issuer: idp.issuer ?? endpoint.origin, token_endpoint: endpoint.href };
  const client: oauth.Client = { client_id: idp.clientId };
  const auth = idp.clientSecret === undefined ? oauth.None() : clientSecretBasic(idp.clientSecret);
  const insecure = idp.allowInsecureRequests === true || (endpoint.protocol === "http:" && LOOPBACK.has(endpoint.hostname));
  return async ({ issuer, resource, scopes }) => {
    const subject = typeof idp.idToken === "string" ? idp.idToken : await idp.idToken();
    const parameters = new URLSearchParams({ requested_token_type: ID_JAG_TYPE, audience: issuer, resource, subject_token: subject, subject_token_type: ID_TOKEN_TYPE });
    if (scopes.length > 0) parameters.set("scope", scopes.join(" "));
    const response = await oauth.genericTokenEndpointRequest(as, client, auth, TOKEN_EXCHANGE, parameters, {
      [oauth.customFetch]: (u: string, init: oauth.CustomFetchOptions<string, unknown>) => base(new URL(u), init as RequestInit),
      [oauth.allowInsecureRequests]: insecure,
    });
    // An ID-JAG is not an access token: its token_type is "N_A" (RFC 8693 §2.2.1).
    const result = await oauth.processGenericTokenEndpointResponse(as, client, response, { recognizedTokenTypes: { n_a: () => undefined } }).catch((cause: unknown) => {
      throw new OAuthFlowError("token", `the IdP token endpoint ${endpoint.href} refused the token exchange: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    });
    if (result.issued_token_type !== ID_JAG_TYPE) throw new OAuthFlowError("token", `the IdP issued ${JSON.stringify(result.issued_token_type)}, not an ID-JAG (${ID_JAG_TYPE})`);
    return result.access_token;
  };
}

/** Why the authorization flow stopped; the request that needed it rejects with this. */
export type OAuthFailure =
  | "resource_metadata" // no usable Protected Resource Metadata
  | "resource_mismatch" // the metadata's `resource` is not this server
  | "server_metadata" // no authorization-server metadata (or its issuer did not match)
  | "pkce_unsupported" // the authorization server does not advertise S256
  | "registration" // no way to get a client id (no pre-registration, CIMD or registration endpoint)
  | "authorization" // the authorization response was an error or failed validation (state, iss)
  | "token"; // the token endpoint refused

export class OAuthFlowError extends Error {
  constructor(
    readonly failure: OAuthFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "OAuthFlowError";
  }
}

/**
 * A headless user agent: requests the authorization URL and follows redirects (at most `maxHops`)
 * until one points at the redirect URI, and resolves to it. For tests, the conformance runner, and
 * authorization servers that approve without a login page.
 */
export function followRedirects(fetchImpl: ClientFetch = (u, i) => fetch(u, i), maxHops = 5): UserAgent {
  return async (authorizationUrl, redirectUri) => {
    let url = authorizationUrl;
    for (let hop = 0; hop < maxHops; hop++) {
      const response = await fetchImpl(url, { method: "GET", redirect: "manual" });
      await response.body?.cancel();
      const location = response.headers.get("location");
      if (response.status < 300 || response.status > 399 || location === null) {
        throw new OAuthFlowError("authorization", `the authorization endpoint answered ${response.status} without a redirect (${url.href})`);
      }
      const next = new URL(location, url);
      if (sameEndpoint(next, new URL(redirectUri))) return next;
      url = next;
    }
    throw new OAuthFlowError("authorization", `no redirect to ${redirectUri} after ${maxHops} hops`);
  };
}

function sameEndpoint(a: URL, b: URL): boolean {
  return a.origin === b.origin && a.pathname === b.pathname;
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The server's URL as a resource: no query, no fragment. */
function resourceOf(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

/** RFC 9728 §3.3 / MCP: the metadata's `resource` is the server's URL or a path prefix of it on its origin. */
function resourceCovers(resource: string, serverUrl: URL): boolean {
  let r: URL;
  try {
    r = new URL(resource);
  } catch {
    return false;
  }
  if (r.origin !== serverUrl.origin || r.hash !== "" || r.search !== "") return false;
  const prefix = r.pathname.endsWith("/") ? r.pathname : `${r.pathname}/`;
  return serverUrl.pathname === r.pathname || serverUrl.pathname.startsWith(prefix);
}

function bodyReplayable(body: RequestInit["body"]): boolean {
  return body === undefined || body === null || typeof body === "string" || body instanceof URLSearchParams || body instanceof ArrayBuffer || ArrayBuffer.isView(body) || body instanceof Blob;
}

/** What a protected resource and its authorization server say about themselves. */
interface Discovery {
  resource: string;
  scopesSupported?: string[];
  as: oauth.AuthorizationServer;
}

/** The `Bearer` (or `DPoP`) challenge of a 401/403, parsed by oauth4webapi. */
async function bearerChallenge(response: Response): Promise<Record<string, string> | undefined> {
  // oauth4webapi parses challenges where it checks a protected-resource response; hand it this one.
  try {
    await oauth.protectedResourceRequest("-", "GET", new URL(response.url || "http://localhost/"), undefined, undefined, {
      [oauth.customFetch]: async () => response,
      [oauth.allowInsecureRequests]: true,
    });
  } catch (error) {
    if (error instanceof oauth.WWWAuthenticateChallengeError) {
      const bearer = error.cause.find((c) => c.scheme === "bearer") ?? error.cause.find((c) => c.scheme === "dpop");
      if (bearer === undefined) return undefined;
      return Object.fromEntries(Object.entries(bearer.parameters).filter((e): e is [string, string] => typeof e[1] === "string"));
    }
  }
  return undefined;
}

/**
 * RFC 7591 §3.2.1 makes `client_secret_expires_at` required with a `client_secret`, and oauth4webapi
 * insists; servers that leave it out (the official conformance suite's among them) mean a secret that does
 * not expire, so it is read as 0 ("never") before the library checks the rest of the response.
 */
async function secretExpiryDefaulted(response: Response): Promise<Response> {
  if (response.status !== 201 && response.status !== 200) return response;
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => undefined);
  if (typeof body !== "object" || body === null || Array.isArray(body)) return response;
  const record = body as Record<string, unknown>;
  if (record.client_secret === undefined || record.client_secret_expires_at !== undefined) return response;
  await response.body?.cancel();
  return new Response(JSON.stringify({ ...record, client_secret_expires_at: 0 }), { status: response.status, headers: response.headers });
}

/** The WHATWG application/x-www-form-urlencoded serialization of one value (RFC 6749 §2.3.1's encoding). */
function formEncoded(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

/**
 * `client_secret_basic` with the credentials form-encoded as the URL Standard does it. oauth4webapi's
 * `ClientSecretBasic` also percent-encodes `-`, `.`, `_` and `*`, which strict servers decode alike but
 * servers that do not decode (the official conformance suite's among them) then refuse: an id
 * such as `pre-registered-client` arrives as `pre%2Dregistered%2Dclient`.
 */
function clientSecretBasic(secret: string): oauth.ClientAuth {
  return (_as, client, _body, headers) => {
    headers.set("authorization", `Basic ${btoa(`${formEncoded(client.client_id)}:${formEncoded(secret)}`)}`);
  };
}

function scopesOf(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const scopes = value.split(" ").filter((s) => s !== "");
  return scopes.length === 0 ? undefined : scopes;
}

function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])];
}

/**
 * Wrap `options.fetch` with OAuth 2.1: bearer tokens on every request, and the authorization flow on
 * 401 / 403 `insufficient_scope` (then the request is sent again). A flow that cannot go on rejects the
 * request with an `OAuthFlowError`; past `maxAuthorizationAttempts`, or when a step-up would ask for no
 * scope not asked for before, the 401/403 response itself is returned (the transport's typed error).
 */
export function createOAuthFetch(options: OAuthFetchOptions): ClientFetch {
  const base: ClientFetch = options.fetch ?? ((u, i) => fetch(u, i));
  const store = options.store ?? new InMemoryTokenStore();
  const maxAttempts = options.maxAuthorizationAttempts ?? 3;
  const serverMetadata = new Map<string, oauth.AuthorizationServer>();
  const inFlight = new Map<string, Promise<void>>();
  let dpopHandle: Promise<oauth.DPoPHandle> | undefined;

  /** The DPoP handle (its key made once), when tokens from `as` are to be DPoP-bound; else undefined. */
  function dpopFor(as: oauth.AuthorizationServer): Promise<oauth.DPoPHandle> | undefined {
    if (options.dpop === false) return undefined;
    if (options.dpop !== true && !(as.dpop_signing_alg_values_supported ?? []).includes("ES256")) return undefined;
    return (dpopHandle ??= (async () => oauth.DPoP({}, options.dpopKeyPair ?? (await oauth.generateKeyPair("ES256"))))());
  }

  /** A token request (made and processed by `run`), retried once when the server asks for a DPoP nonce (the handle has cached it). */
  async function tokenRequest<T>(handle: oauth.DPoPHandle | undefined, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (handle === undefined || !oauth.isDPoPNonceError(error)) throw error;
      return run();
    }
  }

  const insecure = (url: URL): boolean => options.allowInsecureRequests === true || (url.protocol === "http:" && LOOPBACK.has(url.hostname));
  const libOptions = (url: URL) => ({
    [oauth.customFetch]: (u: string, init: oauth.CustomFetchOptions<string, unknown>) => base(new URL(u), init as RequestInit),
    [oauth.allowInsecureRequests]: insecure(url),
  });

  /** RFC 9728: from the challenge's `resource_metadata`, else the well-known URLs. */
  async function protectedResource(serverUrl: URL, challenge: Record<string, string> | undefined): Promise<oauth.ResourceServer> {
    const candidates: { url?: URL; identifier?: URL }[] = [];
    if (challenge?.resource_metadata !== undefined) candidates.push({ url: new URL(challenge.resource_metadata, serverUrl) });
    if (serverUrl.pathname !== "/") candidates.push({ identifier: new URL(resourceOf(serverUrl)) });
    candidates.push({ identifier: new URL(serverUrl.origin) });
    const tried: string[] = [];
    for (const candidate of candidates) {
      let response: Response;
      if (candidate.url !== undefined) {
        response = await base(candidate.url, { method: "GET", headers: { accept: "application/json" }, redirect: "manual" });
      } else {
        response = await oauth.resourceDiscoveryRequest(candidate.identifier!, libOptions(candidate.identifier!));
      }
      tried.push(`${response.url || candidate.url?.href || candidate.identifier!.href} (${response.status})`);
      if (response.status !== 200) {
        await response.body?.cancel();
        continue;
      }
      // The document names its resource; the library checks it against the identifier the URL was built
      // from (well-known) or against the name itself (a challenge's URL), and this checks it is this server.
      const claimed = await response
        .clone()
        .json()
        .then((j: unknown) => (typeof j === "object" && j !== null && typeof (j as { resource?: unknown }).resource === "string" ? (j as { resource: string }).resource : undefined))
        .catch(() => undefined);
      if (claimed === undefined) throw new OAuthFlowError("resource_metadata", `the protected resource metadata at ${tried.at(-1)} names no resource`);
      const metadata = await oauth.processResourceDiscoveryResponse(candidate.identifier ?? new URL(claimed), response).catch((cause: unknown) => {
        throw new OAuthFlowError("resource_metadata", `the protected resource metadata at ${tried.at(-1)} is not valid: ${String(cause)}`, { cause });
      });
      if (!resourceCovers(metadata.resource, serverUrl)) {
        throw new OAuthFlowError("resource_mismatch", `the protected resource metadata names ${metadata.resource}, not this server (${resourceOf(serverUrl)})`);
      }
      return metadata;
    }
    throw new OAuthFlowError("resource_metadata", `no protected resource metadata for ${resourceOf(serverUrl)} (tried ${tried.join(", ")})`);
  }

  /** RFC 8414 / OpenID Discovery, in the order the MCP specification gives; the issuer must match. */
  async function authorizationServer(issuer: string): Promise<oauth.AuthorizationServer> {
    const cached = serverMetadata.get(issuer);
    if (cached !== undefined) return cached;
    const issuerUrl = new URL(issuer);
    const path = issuerUrl.pathname === "/" ? "" : issuerUrl.pathname.replace(/\/$/, "");
    const requests: (() => Promise<Response>)[] = [() => oauth.discoveryRequest(issuerUrl, { algorithm: "oauth2", ...libOptions(issuerUrl) })];
    if (path !== "") {
      const inserted = new URL(`/.well-known/openid-configuration${path}`, issuerUrl.origin);
      requests.push(() => base(inserted, { method: "GET", headers: { accept: "application/json" }, redirect: "manual" }));
    }
    requests.push(() => oauth.discoveryRequest(issuerUrl, { algorithm: "oidc", ...libOptions(issuerUrl) }));
    const tried: string[] = [];
    for (const request of requests) {
      const response = await request();
      tried.push(`${response.url} (${response.status})`);
      if (response.status !== 200) {
        await response.body?.cancel();
        continue;
      }
      const metadata = await oauth.processDiscoveryResponse(issuerUrl, response).catch((cause: unknown) => {
        throw new OAuthFlowError("server_metadata", `the authorization server metadata at ${tried.at(-1)} is not valid for issuer ${issuer}: ${String(cause)}`, { cause });
      });
      serverMetadata.set(issuer, metadata);
      return metadata;
    }
    throw new OAuthFlowError("server_metadata", `no authorization server metadata for ${issuer} (tried ${tried.join(", ")})`);
  }

  async function discover(serverUrl: URL, challenge: Record<string, string> | undefined): Promise<Discovery> {
    const prm = await protectedResource(serverUrl, challenge);
    const issuer = prm.authorization_servers?.[0];
    if (issuer === undefined) throw new OAuthFlowError("resource_metadata", `the protected resource metadata of ${prm.resource} names no authorization server`);
    return { resource: prm.resource, scopesSupported: prm.scopes_supported, as: await authorizationServer(issuer) };
  }

  /** Pre-registered, else CIMD, else Dynamic Client Registration; kept per issuer. */
  async function clientFor(as: oauth.AuthorizationServer): Promise<ClientRegistration> {
    const known = await store.getClient(as.issuer);
    if (known !== undefined) return known;
    if (options.clientId !== undefined && (options.clientIssuer === undefined || options.clientIssuer === as.issuer)) {
      return { clientId: options.clientId, clientSecret: options.clientSecret };
    }
    let client: ClientRegistration;
    if (options.clientMetadataUrl !== undefined && as.client_id_metadata_document_supported === true) {
      client = { clientId: options.clientMetadataUrl, tokenEndpointAuthMethod: "none" };
    } else if (as.registration_endpoint !== undefined) {
      const supported = as.token_endpoint_auth_methods_supported;
      const method = supported === undefined ? "client_secret_basic" : (["client_secret_basic", "client_secret_post", "none"].find((m) => supported.includes(m)) ?? supported[0]);
      const response = await oauth.dynamicClientRegistrationRequest(
        as,
        {
          client_name: options.clientName ?? "mcp-codegen client",
          redirect_uris: [options.redirectUri],
          grant_types: ["authorization_code", "refresh_token"],
          response_types: ["code"],
          token_endpoint_auth_method: method,
          application_type: LOOPBACK.has(new URL(options.redirectUri).hostname) ? "native" : "web",
        },
        libOptions(new URL(as.registration_endpoint)),
      );
      const registered = await oauth.processDynamicClientRegistrationResponse(await secretExpiryDefaulted(response)).catch((cause: unknown) => {
        throw new OAuthFlowError("registration", `dynamic client registration at ${as.registration_endpoint} failed: ${String(cause)}`, { cause });
      });
      client = {
        clientId: registered.client_id,
        clientSecret: typeof registered.client_secret === "string" ? registered.client_secret : undefined,
        tokenEndpointAuthMethod: typeof registered.token_endpoint_auth_method === "string" ? registered.token_endpoint_auth_method : undefined,
      };
    } else {
      throw new OAuthFlowError("registration", `no client id for ${as.issuer}: not pre-registered, no Client ID Metadata Document support, no registration endpoint`);
    }
    await store.setClient(as.issuer, client);
    return client;
  }

  function clientAuth(as: oauth.AuthorizationServer, client: ClientRegistration): { client: oauth.Client; auth: oauth.ClientAuth } {
    if (options.clientPrivateKey !== undefined && client.clientId === options.clientId) {
      return { client: { client_id: client.clientId, token_endpoint_auth_method: "private_key_jwt" }, auth: oauth.PrivateKeyJwt(options.clientPrivateKey) };
    }
    const supported = as.token_endpoint_auth_methods_supported;
    let method = client.tokenEndpointAuthMethod;
    if (method === undefined) {
      if (client.clientSecret === undefined) method = "none";
      else if (supported === undefined || supported.includes("client_secret_basic")) method = "client_secret_basic";
      else if (supported.includes("client_secret_post")) method = "client_secret_post";
      else method = "client_secret_basic";
    }
    const auth =
      method === "client_secret_post" && client.clientSecret !== undefined
        ? oauth.ClientSecretPost(client.clientSecret)
        : method === "client_secret_basic" && client.clientSecret !== undefined
          ? clientSecretBasic(client.clientSecret)
          : oauth.None();
    return { client: { client_id: client.clientId, token_endpoint_auth_method: method }, auth };
  }

  function stored(result: oauth.TokenEndpointResponse, requestedScopes: string[], issuer: string, previousRefresh?: string): StoredTokens {
    return {
      accessToken: result.access_token,
      tokenType: result.token_type,
      refreshToken: result.refresh_token ?? previousRefresh,
      expiresAt: result.expires_in === undefined ? undefined : Date.now() + result.expires_in * 1000,
      requestedScopes,
      issuer,
    };
  }

  /** The client-credentials grant (no user): the pre-registered client's own token; stores it. */
  async function clientCredentials(key: string, found: Discovery, scopes: string[] | undefined): Promise<void> {
    const { as, resource } = found;
    if (options.clientId === undefined) throw new OAuthFlowError("registration", "the client_credentials grant needs a pre-registered clientId");
    const { client, auth } = clientAuth(as, await clientFor(as));
    const requested = scopes ?? [];
    const parameters = new URLSearchParams({ resource });
    if (requested.length > 0) parameters.set("scope", requested.join(" "));
    const DPoP = await dpopFor(as);
    const result = await tokenRequest(DPoP, async () =>
      oauth.processClientCredentialsResponse(as, client, await oauth.clientCredentialsGrantRequest(as, client, auth, parameters, { DPoP, ...libOptions(new URL(as.token_endpoint ?? as.issuer)) })),
    ).catch((cause: unknown) => {
      throw new OAuthFlowError("token", `the token endpoint ${as.token_endpoint} refused the client credentials: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    });
    await store.setTokens(key, stored(result, requested, as.issuer));
  }

  /** The JWT-bearer grant (RFC 7523) with the caller's assertion; stores the tokens. A refusal is final. */
  async function jwtBearer(key: string, found: Discovery, scopes: string[] | undefined): Promise<void> {
    const { as, resource } = found;
    if (options.assertion === undefined) throw new OAuthFlowError("registration", "the jwt_bearer grant needs an assertion");
    const { client, auth } = clientAuth(as, await clientFor(as));
    const requested = scopes ?? [];
    const assertion = typeof options.assertion === "string" ? options.assertion : await options.assertion({ issuer: as.issuer, resource, scopes: requested });
    const parameters = new URLSearchParams({ assertion, resource });
    if (requested.length > 0) parameters.set("scope", requested.join(" "));
    const DPoP = await dpopFor(as);
    const result = await tokenRequest(DPoP, async () =>
      oauth.processGenericTokenEndpointResponse(as, client, await oauth.genericTokenEndpointRequest(as, client, auth, JWT_BEARER, parameters, { DPoP, ...libOptions(new URL(as.token_endpoint ?? as.issuer)) })),
    ).catch((cause: unknown) => {
      throw new OAuthFlowError("token", `the token endpoint ${as.token_endpoint} refused the JWT-bearer grant: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    });
    await store.setTokens(key, stored(result, requested, as.issuer));
  }

  /** The authorization-code flow with PKCE; stores the tokens. */
  async function authorize(key: string, found: Discovery, scopes: string[] | undefined): Promise<void> {
    if (options.grant === "client_credentials") return clientCredentials(key, found, scopes);
    if (options.grant === "jwt_bearer") return jwtBearer(key, found, scopes);
    const { as, resource } = found;
    const methods = as.code_challenge_methods_supported;
    if (methods === undefined || !methods.includes("S256")) {
      throw new OAuthFlowError("pkce_unsupported", `the authorization server ${as.issuer} does not advertise PKCE S256 (code_challenge_methods_supported: ${JSON.stringify(methods)})`);
    }
    if (as.authorization_endpoint === undefined) throw new OAuthFlowError("server_metadata", `the authorization server ${as.issuer} has no authorization_endpoint`);
    const registration = await clientFor(as);
    const { client, auth } = clientAuth(as, registration);
    let requested = scopes ?? [];
    if (requested.length > 0 && options.offlineAccess !== false && as.scopes_supported?.includes("offline_access")) requested = union(requested, ["offline_access"]);
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const url = new URL(as.authorization_endpoint);
    url.searchParams.set("response_type", "code");
    url.searchParams.set("client_id", client.client_id);
    url.searchParams.set("redirect_uri", options.redirectUri);
    url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
    url.searchParams.set("code_challenge_method", "S256");
    url.searchParams.set("state", state);
    url.searchParams.set("resource", resource);
    if (requested.length > 0) url.searchParams.set("scope", requested.join(" "));
    const callback = await options.userAgent(url, options.redirectUri);
    let params: URLSearchParams;
    try {
      params = oauth.validateAuthResponse(as, client, callback, state);
    } catch (cause) {
      throw new OAuthFlowError("authorization", `the authorization response was refused: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    }
    const tokenEndpoint = new URL(as.token_endpoint ?? as.issuer);
    const DPoP = await dpopFor(as);
    const result = await tokenRequest(DPoP, async () =>
      oauth.processAuthorizationCodeResponse(
        as,
        client,
        await oauth.authorizationCodeGrantRequest(as, client, auth, params, options.redirectUri, verifier, { additionalParameters: { resource }, DPoP, ...libOptions(tokenEndpoint) }),
      ),
    ).catch((cause: unknown) => {
      throw new OAuthFlowError("token", `the token endpoint ${as.token_endpoint} refused the code: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    });
    await store.setTokens(key, stored(result, requested, as.issuer));
  }

  /** The refresh-token grant; false when there is nothing to refresh or the server refused. */
  async function refresh(key: string, tokens: StoredTokens, resource?: string): Promise<boolean> {
    if (tokens.refreshToken === undefined) return false;
    try {
      const as = await authorizationServer(tokens.issuer);
      const registration = await clientFor(as);
      const { client, auth } = clientAuth(as, registration);
      const refreshToken = tokens.refreshToken;
      const DPoP = await dpopFor(as);
      const result = await tokenRequest(DPoP, async () =>
        oauth.processRefreshTokenResponse(
          as,
          client,
          await oauth.refreshTokenGrantRequest(as, client, auth, refreshToken, {
            ...(resource === undefined ? {} : { additionalParameters: { resource } }),
            DPoP,
            ...libOptions(new URL(as.token_endpoint ?? as.issuer)),
          }),
        ),
      );
      await store.setTokens(key, stored(result, tokens.requestedScopes, as.issuer, tokens.refreshToken));
      return true;
    } catch {
      await store.setTokens(key, { ...tokens, refreshToken: undefined });
      return false;
    }
  }

  /** One flow per resource at a time: concurrent 401s wait for the same one. */
  function once(key: string, run: () => Promise<void>): Promise<void> {
    const running = inFlight.get(key);
    if (running !== undefined) return running;
    const started = run().finally(() => inFlight.delete(key));
    inFlight.set(key, started);
    return started;
  }

  /** One request with the tokens (if any): a bearer token as is, a DPoP-bound one with a fresh proof, retried once for a server's nonce. */
  async function send(url: URL, init: RequestInit, tokens: StoredTokens | undefined): Promise<Response> {
    if (tokens === undefined || tokens.tokenType.toLowerCase() !== "dpop") {
      const headers = new Headers(init.headers);
      if (tokens !== undefined) headers.set("authorization", `Bearer ${tokens.accessToken}`);
      return base(url, { ...init, headers });
    }
    if (dpopHandle === undefined) throw new OAuthFlowError("token", "a DPoP-bound token is stored but this fetch has no DPoP key (pass the key pair it is bound to as dpopKeyPair)");
    const DPoP = await dpopHandle;
    const attempt = async (): Promise<Response> => {
      try {
        // oauth4webapi adds the proof (htm, htu, ath, the cached nonce) and the DPoP scheme, then sends through `base`.
        return await oauth.protectedResourceRequest(tokens.accessToken, init.method ?? "GET", url, new Headers(init.headers), (init.body ?? null) as oauth.ProtectedResourceRequestBody, {
          DPoP,
          [oauth.customFetch]: (u: string, sent: oauth.CustomFetchOptions<string, unknown>) => base(new URL(u), { ...(sent as RequestInit), signal: init.signal }),
          [oauth.allowInsecureRequests]: insecure(url),
        });
      } catch (error) {
        if (error instanceof oauth.WWWAuthenticateChallengeError) {
          if (oauth.isDPoPNonceError(error)) throw error;
          return error.response;
        }
        throw error;
      }
    };
    try {
      return await attempt();
    } catch (error) {
      if (!oauth.isDPoPNonceError(error)) throw error;
      // The nonce is cached from the answer; the request goes again with it (once), when its body can be sent again.
      if (!bodyReplayable(init.body)) return (error as oauth.WWWAuthenticateChallengeError).response;
      await (error as oauth.WWWAuthenticateChallengeError).response.body?.cancel();
      try {
        return await attempt();
      } catch (again) {
        if (again instanceof oauth.WWWAuthenticateChallengeError) return again.response;
        throw again;
      }
    }
  }

  return async (url, init) => {
    const key = resourceOf(url);
    const replayable = bodyReplayable(init.body);
    let attempts = 0;
    let refreshed = false;
    for (;;) {
      let tokens = await store.getTokens(key);
      if (tokens?.expiresAt !== undefined && tokens.expiresAt - 30_000 <= Date.now() && !refreshed) {
        refreshed = true;
        if (await refresh(key, tokens)) tokens = await store.getTokens(key);
      }
      const response = await send(url, init, tokens);
      if (response.status !== 401 && response.status !== 403) return response;
      const challenge = await bearerChallenge(response);
      const stepUp = response.status === 403;
      if (stepUp && challenge?.error !== "insufficient_scope") return response;
      if (!replayable || attempts >= maxAttempts) return response;
      const found = await discover(url, challenge);
      // Tokens from another authorization server (it moved) are dropped, and so is its registration's use.
      if (tokens !== undefined && tokens.issuer !== found.as.issuer) {
        await store.setTokens(key, undefined);
        tokens = undefined;
      }
      const challenged = scopesOf(challenge?.scope);
      if (stepUp) {
        // Step-up asks for the union; when that adds nothing, a new authorization cannot help.
        const before = tokens?.requestedScopes ?? [];
        if (challenged === undefined || challenged.every((s) => before.includes(s))) return response;
      } else if (tokens !== undefined && !refreshed) {
        refreshed = true;
        if (await refresh(key, tokens, found.resource)) {
          await response.body?.cancel();
          continue;
        }
      }
      await response.body?.cancel();
      attempts++;
      const scopes = challenged ?? found.scopesSupported;
      const wanted = stepUp ? union(tokens?.requestedScopes ?? [], scopes ?? []) : scopes;
      await once(key, () => authorize(key, found, wanted));
      refreshed = true; // the tokens just obtained are used as they are
    }
  };
}
