// A small OAuth 2.1 authorization server for the tests, on loopback, over jose: RFC 8414 metadata, a JWKS,
// and a client_credentials token endpoint (client_secret_basic) issuing RFC 9068 JWT access tokens for the
// RFC 8707 `resource` asked (or a fixed audience per client, to test audience checks).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT } from "jose";

export type Registered = Record<string, { secret: string; scopes: string[]; audience?: string }>;

async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  let body = "";
  for await (const chunk of req) body += chunk;
  return new URLSearchParams(body);
}

export async function startAuthorizationServer(clients: Registered): Promise<{ issuer: string; tokenFor(id: string, resource: string, scope?: string): Promise<string>; close(): Promise<void> }> {
  let issuer = "";
  const { publicKey, privateKey } = await generateKeyPair("ES256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "ES256", use: "sig" };
  const as = http.createServer((req, res) => {
    void (async () => {
      const json = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
      const path = new URL(req.url ?? "/", issuer).pathname;
      if (path === "/.well-known/oauth-authorization-server" || path === "/.well-known/openid-configuration") {
        return json(200, { issuer, authorization_endpoint: `${issuer}/authorize`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks`, grant_types_supported: ["client_credentials"], token_endpoint_auth_methods_supported: ["client_secret_basic"], response_types_supported: ["code"], code_challenge_methods_supported: ["S256"] });
      }
      if (path === "/jwks") return json(200, { keys: [jwk] });
      if (path === "/token" && req.method === "POST") {
        const [id, secret] = Buffer.from((req.headers.authorization ?? "").replace(/^Basic /, ""), "base64").toString().split(":").map(decodeURIComponent);
        const client = clients[id];
        if (client === undefined || client.secret !== secret) return json(401, { error: "invalid_client" });
        const form = await readForm(req);
        if (form.get("grant_type") !== "client_credentials") return json(400, { error: "unsupported_grant_type" });
        const asked = (form.get("scope") ?? client.scopes.join(" ")).split(" ").filter((s) => client.scopes.includes(s));
        const scope = asked.length > 0 ? asked : client.scopes;
        const audience = client.audience ?? form.get("resource") ?? "";
        const token = await new SignJWT({ scope: scope.join(" "), client_id: id })
          .setProtectedHeader({ alg: "ES256", kid: "k1", typ: "at+jwt" })
          .setIssuer(issuer)
          .setSubject(id)
          .setAudience(audience)
          .setIssuedAt()
          .setExpirationTime("5m")
          .sign(privateKey);
        return json(200, { access_token: token, token_type: "Bearer", expires_in: 300, scope: scope.join(" ") });
      }
      json(404, { error: "not_found" });
    })();
  });
  await new Promise<void>((resolve) => as.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(as.address() as AddressInfo).port}`;
  return {
    issuer,
    async tokenFor(id, resource, scope) {
      const response = await fetch(`${issuer}/token`, {
        method: "POST",
        headers: { authorization: `Basic ${Buffer.from(`${id}:${clients[id].secret}`).toString("base64")}`, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "client_credentials", resource, ...(scope === undefined ? {} : { scope }) }),
      });
      return ((await response.json()) as { access_token: string }).access_token;
    },
    close: () => new Promise<void>((resolve) => as.close(() => resolve())),
  };
}
