// The OAuth half of the conformance client: for an `auth/*` scenario, the `ClientFetch` the client's HTTP
// transport sends everything through (`createOAuthFetch` from the generated runtime), configured from the
// scenario's context alone (`MCP_CONFORMANCE_CONTEXT`: a pre-registered client id and secret, the issuer
// they belong to). The user-agent step is headless: the authorization request is fetched and the code is
// read off the redirect's Location. Scenarios that need no OAuth get `undefined` (the platform fetch).
import type { ClientFetch } from "../../generated/runtime/client-fetch.js";
import { createOAuthFetch, followRedirects } from "../../generated/runtime/client-oauth.js";

/** The Client ID Metadata Document URL the conformance authorization servers expect (`auth/basic-cimd`). */
export const CONFORMANCE_CIMD_URL = "https://conformance-test.local/client-metadata.json";
/** Registered with the authorization server (DCR) and never served: the headless user agent stops at it. */
export const CONFORMANCE_REDIRECT_URI = "http://localhost:3000/callback";

function text(context: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = context?.[key];
  return typeof value === "string" ? value : undefined;
}

export function conformanceFetch(scenario: string, context: Record<string, unknown> | undefined): ClientFetch | undefined {
  if (!scenario.startsWith("auth/")) return undefined;
  const base: ClientFetch = (url, init) => fetch(url, init);
  return createOAuthFetch({
    fetch: base,
    redirectUri: text(context, "redirect_uri") ?? CONFORMANCE_REDIRECT_URI,
    userAgent: followRedirects(base),
    clientId: text(context, "client_id"),
    clientSecret: text(context, "client_secret"),
    clientIssuer: text(context, "issuer"),
    clientMetadataUrl: text(context, "client_metadata_url") ?? CONFORMANCE_CIMD_URL,
    clientName: "mcp-codegen conformance client",
  });
}
