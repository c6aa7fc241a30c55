// The generated Python client's OAuth (client_oauth.py) end to end on loopback, against the test authorization
// server the TypeScript OAuth tests use (test/transports/oauth-server.ts: RFC 8414 metadata, a JWKS, a
// client_credentials token endpoint issuing JWTs for the RFC 8707 `resource` asked) and the generated router behind
// serveHttp with `auth` and the ready `jwtVerifier`: 401 → Protected Resource Metadata → authorization-server
// metadata → token → the call succeeds and the handler sees the client; a client whose tokens lack the required
// scope ends with the server's 403. (The authorization-code flow, registration, CIMD, step-up and issuer checks run
// in the conformance suite's auth/* scenarios: test/conformance/client.py.)
import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServerRouter } from "../../../generated/router.js";
import { jwtVerifier } from "../../../generated/runtime/auth-jwt.js";
import { serveHttp, type HttpServer } from "../../../generated/runtime/transport-http.js";
import { root } from "../../support.js";
import { startAuthorizationServer } from "../../transports/oauth-server.js";
import { freePort } from "../../transports/redis-server.js";
import { pythonBin, pythonTestDir, pythonTree } from "./support.js";

const MODERN = "2026-07-28";
const SCOPE = "mcp:tools";
const clients = { good: { secret: "s1", scopes: [SCOPE] }, narrow: { secret: "s2", scopes: ["profile"] } };

let authorization: Awaited<ReturnType<typeof startAuthorizationServer>>;
let server: HttpServer;
let resource: string;
const seen: unknown[] = [];

beforeAll(async () => {
  authorization = await startAuthorizationServer(clients);
  const issuer = authorization.issuer;
  const port = await freePort();
  resource = `http://127.0.0.1:${port}/mcp`;
  const router = createServerRouter({
    serverInfo: { name: "protected", version: "1" },
    versions: {
      [MODERN]: {
        capabilities: { tools: {} },
        handlers: {
          "tools/list": () => ({ tools: [{ name: "whoami", inputSchema: { type: "object" as const } }], ttlMs: 0, cacheScope: "private" }),
          "tools/call": (_params, context) => {
            seen.push(context.auth?.clientId);
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

function driver(input: unknown): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(pythonBin(), [path.join(pythonTestDir, "client_oauth_driver.py")], { cwd: root, env: { ...process.env, PYTHONPATH: pythonTree, PYTHONDONTWRITEBYTECODE: "1" } });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("exit", (code) => (code === 0 && err === "" ? resolve(JSON.parse(out)) : reject(new Error(`client_oauth_driver.py exited ${code}:\n${err}`))));
    child.stdin.end(JSON.stringify(input));
  });
}

describe("the Python client with OAuth (client credentials) against a protected generated server", () => {
  it("401 → discovery → token: the call succeeds and the handler sees the client", async () => {
    const out = await driver({ url: resource, versions: [MODERN], clientId: "good", clientSecret: "s1" });
    expect(out).toEqual({ protocolVersion: MODERN, tools: ["whoami"], text: "hello good" });
    expect(seen).toEqual(["good"]);
  }, 60_000);

  it("a token without the required scope: the server's 403 naming it, after no new scope could be asked for", async () => {
    const out = await driver({ url: resource, versions: [MODERN], clientId: "narrow", clientSecret: "s2" });
    expect(out.status).toBe(403);
    expect(out.challenge).toContain('error="insufficient_scope"');
    expect(out.challenge).toContain(`scope="${SCOPE}"`);
  }, 60_000);
});
