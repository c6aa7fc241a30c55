// The resource-server role of the Python HTTP transport (runtimes/python/src/mcp_codegen_runtime/auth.py, its
// PyJWT verifier auth_jwt.py) end to end on loopback: the test authorization server of the TypeScript OAuth
// tests (test/transports/oauth-server.ts: RFC 8414 metadata, a JWKS, client_credentials issuing RFC 9068 JWTs),
// the generated Python router behind serve_http with `auth` (http_server.py), and the official 2.4.0 client with
// its ClientCredentialsProvider: 401 → Protected Resource Metadata → token → the call succeeds and the handler
// sees the caller. Every refusal (no token, not a bearer token, a bad token, another audience, a missing scope)
// and the metadata routes are compared, status, headers and body, with the TypeScript transport's `auth` serving
// the same resource with the same verifier options.
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { ClientCredentialsProvider, Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServerRouter, eras } from "../../../generated/router.js";
import { jwtVerifier } from "../../../generated/runtime/auth-jwt.js";
import { serveHttp, type HttpServer } from "../../../generated/runtime/transport-http.js";
import { readLock } from "../../../generator/source/lock.js";
import { lockFile } from "../../support.js";
import { startAuthorizationServer } from "../../transports/oauth-server.js";
import { freePort } from "../../transports/redis-server.js";
import { pythonBin, pythonTestDir, pythonTree } from "./support.js";

const SCOPE = "mcp:tools";
const clients: Record<string, { secret: string; scopes: string[]; audience?: string }> = {
  good: { secret: "s1", scopes: [SCOPE] },
  narrow: { secret: "s2", scopes: ["profile"] },
  elsewhere: { secret: "s3", scopes: [SCOPE], audience: "https://elsewhere.example/mcp" },
};
const labels = Object.keys((await readLock(lockFile)).versions).sort();
/** A modern version both the tree and the official 2.4.0 client speak: the newest modern label it negotiates. */
const MODERN = labels.filter((l) => (eras as Record<string, string>)[l] === "modern").find((l) => /^\d{4}-\d{2}-\d{2}$/.test(l))!;

let authorization: Awaited<ReturnType<typeof startAuthorizationServer>>;
let python: { child: ChildProcess; url: string };
let typescript: HttpServer;
let typescriptUrl: string;

function startPython(options: Record<string, unknown>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(pythonBin(), [path.join(pythonTestDir, "http_server.py"), JSON.stringify(options)], {
    stdio: ["pipe", "pipe", "inherit"],
    env: { ...process.env, PYTHONPATH: pythonTree, PYTHONDONTWRITEBYTECODE: "1", PYTHONUTF8: "1" },
  });
  return new Promise((resolve, reject) => {
    let buffer = "";
    child.once("exit", (code) => reject(new Error(`http_server.py exited (${code}) before listening`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      const m = /\{"port": (\d+)\}/.exec(buffer);
      if (m !== null) {
        child.removeAllListeners("exit");
        resolve({ child, url: `http://127.0.0.1:${m[1]}/mcp` });
      }
    });
  });
}

beforeAll(async () => {
  authorization = await startAuthorizationServer(clients);
  const issuer = authorization.issuer;
  const metadata = (resource: string) => ({ resource, authorization_servers: [issuer], scopes_supported: [SCOPE], bearer_methods_supported: ["header"] });
  const pythonPort = await freePort();
  const pythonResource = `http://127.0.0.1:${pythonPort}/mcp`;
  python = await startPython({ port: pythonPort, auth: { jwks_url: `${issuer}/jwks`, issuer, resource_metadata: metadata(pythonResource), required_scopes: [SCOPE] } });
  const tsPort = await freePort();
  typescriptUrl = `http://127.0.0.1:${tsPort}/mcp`;
  const router = createServerRouter({
    serverInfo: { name: "protected", version: "1" },
    versions: { [MODERN]: { capabilities: { tools: {} }, handlers: { "tools/list": () => ({ tools: [], ttlMs: 0, cacheScope: "private" }) } } } as never,
  });
  typescript = await serveHttp(router, {
    port: tsPort,
    onError: () => undefined,
    auth: { verifyAccessToken: jwtVerifier({ jwksUrl: `${issuer}/jwks`, issuer }), resourceMetadata: metadata(typescriptUrl), requiredScopes: [SCOPE] },
  });
}, 60_000);

afterAll(async () => {
  python?.child.kill();
  await typescript?.close();
  await authorization?.close();
});

/** A tools/list POST at MODERN with this Authorization header (none when undefined). */
const listTools = (url: string, authorizationHeader?: string) =>
  fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": MODERN,
      "mcp-method": "tools/list",
      ...(authorizationHeader === undefined ? {} : { authorization: authorizationHeader }),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} } } }),
  });

/** What a refusal says, with each server's own origin replaced so the two compare. */
async function answer(response: Response, url: string): Promise<{ status: number; challenge: string | null; type: string | null; body: unknown }> {
  const origin = new URL(url).origin;
  return {
    status: response.status,
    challenge: response.headers.get("www-authenticate")?.replaceAll(origin, "ORIGIN") ?? null,
    type: response.headers.get("content-type"),
    body: JSON.parse((await response.text()).replaceAll(origin, "ORIGIN")),
  };
}

describe("the Python resource-server role (create_asgi_app auth, jwt_verifier)", () => {
  it("goes 401 → metadata → token → call with the official 2.4.0 client, and the handler sees the caller", async () => {
    const client = new ModernClient({ name: "oauth", version: "1" }, { versionNegotiation: { mode: { pin: MODERN } } });
    const provider = new ClientCredentialsProvider({ clientId: "good", clientSecret: "s1", scope: SCOPE, expectedIssuer: authorization.issuer });
    try {
      await client.connect(new ModernHttp(new URL(python.url), { authProvider: provider }));
      const result = (await client.callTool({ name: "whoami", arguments: {} })) as { content: { text: string }[] };
      expect(JSON.parse(result.content[0].text)).toEqual({ client_id: "good", scopes: [SCOPE], principal: "sub:good" });
    } finally {
      await client.close();
    }
  });

  it("answers the unauthenticated, the malformed, the forged, the misdirected and the under-scoped as TypeScript does", async () => {
    /** A token for `url` whose signature no longer verifies: a character inside the signature changed (the last one may carry only padding bits). */
    const forged = async (url: string) => {
      const token = await authorization.tokenFor("good", url, SCOPE);
      const at = token.length - 10;
      return token.slice(0, at) + (token[at] === "A" ? "B" : "A") + token.slice(at + 1);
    };
    const cases: { name: string; header: (url: string) => Promise<string | undefined>; status: number }[] = [
      { name: "no token", header: async () => undefined, status: 401 },
      { name: "not a bearer token", header: async () => "Basic Zm9vOmJhcg==", status: 401 },
      { name: "a forged token", header: async (url) => `Bearer ${await forged(url)}`, status: 401 },
      { name: "another audience", header: async (url) => `Bearer ${await authorization.tokenFor("elsewhere", url)}`, status: 401 },
      { name: "a missing scope", header: async (url) => `Bearer ${await authorization.tokenFor("narrow", url)}`, status: 403 },
    ];
    for (const c of cases) {
      const py = await answer(await listTools(python.url, await c.header(python.url)), python.url);
      const ts = await answer(await listTools(typescriptUrl, await c.header(typescriptUrl)), typescriptUrl);
      expect(py.status, c.name).toBe(c.status);
      if (c.name === "a forged token") {
        // The verifier's own words differ (PyJWT's and jose's); the rest is the same.
        const strip = (a: typeof py) => ({ ...a, challenge: a.challenge?.replace(/\(.*\)/, "(…)"), body: { ...(a.body as object), error_description: "…" } });
        expect(strip(py), c.name).toEqual(strip(ts));
      } else {
        expect(py, c.name).toEqual(ts);
      }
    }
  });

  it("serves the Protected Resource Metadata at both well-known paths (GET and HEAD), as TypeScript does", async () => {
    for (const suffix of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]) {
      const py = await fetch(`${new URL(python.url).origin}${suffix}`);
      const ts = await fetch(`${new URL(typescriptUrl).origin}${suffix}`);
      expect(py.status).toBe(200);
      expect(py.headers.get("cache-control")).toBe(ts.headers.get("cache-control"));
      expect(await py.json()).toEqual({ resource: python.url, authorization_servers: [authorization.issuer], scopes_supported: [SCOPE], bearer_methods_supported: ["header"] });
      await ts.arrayBuffer();
      expect((await fetch(`${new URL(python.url).origin}${suffix}`, { method: "HEAD" })).status).toBe(200);
      expect((await fetch(`${new URL(python.url).origin}${suffix}`, { method: "POST" })).status).toBe(405);
    }
  });
});
