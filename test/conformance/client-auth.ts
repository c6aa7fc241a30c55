// The OAuth half of the conformance client: for an `auth/*` scenario, the `ClientFetch` the client's HTTP
// transport sends everything through (`createOAuthFetch` from the generated runtime), configured from the
// scenario's context alone (`MCP_CONFORMANCE_CONTEXT`: a pre-registered client id and secret, the issuer
// they belong to; a workload's JWT; an enterprise IdP's token endpoint and the user's ID token there). The user-agent step is headless: the authorization request is fetched and the code is
// read off the redirect's Location. Scenarios that need no OAuth get `undefined` (the platform fetch).
import { createPrivateKey, webcrypto } from "node:crypto";
import type { ClientFetch } from "../../generated/runtime/client-fetch.js";
import { createOAuthFetch, enterpriseAssertion, followRedirects } from "../../generated/runtime/client-oauth.js";

/** The Client ID Metadata Document URL the conformance authorization servers expect (`auth/basic-cimd`). */
export const CONFORMANCE_CIMD_URL = "https://conformance-test.local/client-metadata.json";
/** Registered with the authorization server (DCR) and never served: the headless user agent stops at it. */
export const CONFORMANCE_REDIRECT_URI = "http://localhost:3000/callback";

function text(context: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = context?.[key];
  return typeof value === "string" ? value : undefined;
}

/** A PKCS#8 PEM private key (the client-credentials-jwt scenario's `private_key_pem`) as a signing CryptoKey. */
async function signingKey(pem: string, algorithm: string): Promise<webcrypto.CryptoKey> {
  const curves: Record<string, string> = { ES256: "P-256", ES384: "P-384", ES512: "P-521" };
  const namedCurve = curves[algorithm];
  if (namedCurve === undefined) throw new Error(`unsupported signing_algorithm ${algorithm}`);
  const der = createPrivateKey(pem).export({ type: "pkcs8", format: "der" });
  return webcrypto.subtle.importKey("pkcs8", der, { name: "ECDSA", namedCurve }, false, ["sign"]);
}

export function conformanceFetch(scenario: string, context: Record<string, unknown> | undefined): ClientFetch | undefined {
  if (!scenario.startsWith("auth/")) return undefined;
  const base: ClientFetch = (url, init) => fetch(url, init);
  const pem = text(context, "private_key_pem");
  if (scenario.startsWith("auth/client-credentials-")) {
    // The Client Credentials extension: no user; the key is imported on the first request.
    let inner: Promise<ClientFetch> | undefined;
    const make = async (): Promise<ClientFetch> =>
      createOAuthFetch({
        fetch: base,
        grant: "client_credentials",
        redirectUri: CONFORMANCE_REDIRECT_URI,
        userAgent: followRedirects(base),
        clientId: text(context, "client_id"),
        clientSecret: text(context, "client_secret"),
        clientPrivateKey: pem === undefined ? undefined : await signingKey(pem, text(context, "signing_algorithm") ?? "ES256"),
      });
    return async (url, init) => (await (inner ??= make()))(url, init);
  }
  const idpTokenEndpoint = text(context, "idp_token_endpoint");
  if (idpTokenEndpoint !== undefined) {
    // Enterprise-managed authorization: the IdP's ID token exchanged for an ID-JAG, presented in the JWT-bearer grant.
    return createOAuthFetch({
      fetch: base,
      grant: "jwt_bearer",
      redirectUri: CONFORMANCE_REDIRECT_URI,
      userAgent: followRedirects(base),
      clientId: text(context, "client_id"),
      clientSecret: text(context, "client_secret"),
      assertion: enterpriseAssertion({ tokenEndpoint: idpTokenEndpoint, issuer: text(context, "idp_issuer"), idToken: text(context, "idp_id_token") ?? "", clientId: text(context, "idp_client_id") ?? "", fetch: base }),
    });
  }
  const workloadToken = text(context, "valid_jwt");
  if (workloadToken !== undefined) {
    // Workload identity federation: the workload's JWT is the JWT-bearer grant's assertion.
    return createOAuthFetch({ fetch: base, grant: "jwt_bearer", redirectUri: CONFORMANCE_REDIRECT_URI, userAgent: followRedirects(base), clientId: text(context, "client_id"), assertion: workloadToken });
  }
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
