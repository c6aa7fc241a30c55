// docs/client.md's OAuth example, run as written: the ```ts block it marks `oauth-client.ts`, with `mcp-codegen-generated/...` resolved to this tree's generated/
// (as the package's entry points are), written to a temporary file, imported, and its `listTools` sent to
// a protected endpoint behind the official SDK's authorization server (runtimes/typescript/test/oauth-servers.ts).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { generatedDir, root } from "../../../test/support.js";
import { docExample } from "../../../test/docs/blocks.js";
import { closeOAuthServers, setup } from "./oauth-servers.js";

afterEach(closeOAuthServers);

function example(): string {
  return docExample("docs/client.md", "oauth-client.ts");
}

interface Example {
  listTools(server: URL): Promise<unknown>;
  store: { tokens: Map<string, { issuer: string }>; clients: Map<string, unknown> };
}

async function load(): Promise<Example> {
  // Inside the repository, so that `oauth4webapi` resolves from its node_modules.
  const dir = path.join(root, "node_modules", ".cache", "mcp-codegen-readme-test");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "oauth-client.ts");
  const entry = (sub: string) => pathToFileURL(path.join(generatedDir, sub)).href;
  writeFileSync(file, example().replace(/"mcp-codegen-generated\/runtime\/([\w-]+)"/g, (_m, name: string) => JSON.stringify(entry(`runtime/${name}.ts`))));
  return (await import(pathToFileURL(file).href)) as Example;
}

describe("docs/client.md's oauth-client.ts", () => {
  it("authorizes against the SDK's authorization server and gets the protected endpoint's answer, the token in its store", async () => {
    const s = await setup();
    const { listTools, store } = await load();
    expect(await listTools(s.mcpUrl)).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(s.served).toEqual([{ method: "tools/list", scopes: ["mcp:read"], resource: s.mcpUrl.href }]);
    expect(s.provider.authorizations).toHaveLength(1);
    expect(store.tokens.get(s.mcpUrl.href)?.issuer).toBe(s.issuer);
    expect([...store.clients.keys()]).toEqual([s.issuer]);
  });
});
