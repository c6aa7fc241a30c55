// A test-only conformance client for the `auth/*` scenarios: plain JSON-RPC over the `ClientFetch` that
// `conformanceFetch` returns (the generated runtime's OAuth), standing in until the generated client
// (test/conformance/client.ts) drives them. Run by `conformance client --command "…"`: the scenario's
// server URL is the last argument, `MCP_CONFORMANCE_SCENARIO` / `MCP_CONFORMANCE_CONTEXT` /
// `MCP_CONFORMANCE_PROTOCOL_VERSION` come in the environment.
// What it sends, at the scenario's wire version:
// - through 2025-11-25: `initialize`, `notifications/initialized` (the session id kept when one is given);
// - 2026-07-28: `server/discover`, every request with the `_meta` envelope and the standard headers;
// then `tools/list` and `tools/call` of the first tool (the scenarios authorize, step up or migrate
// between the two). Exits 1 on any error (its message on stderr), 0 otherwise.
import type { ClientFetch } from "../../generated/runtime/client-fetch.js";
import { conformanceFetch } from "./client-auth.js";

const LEGACY_UNTIL = "2025-11-25";
const clientInfo = { name: "mcp-codegen-auth-driver", version: "1.0.0" };

interface JsonRpcResponse {
  jsonrpc: "2.0";
  id: number | string | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** The response to request `id` in a JSON body or an SSE stream. */
async function responseTo(id: number, response: Response): Promise<JsonRpcResponse> {
  const text = await response.text();
  if (!response.ok) throw new Error(`HTTP ${response.status} ${response.headers.get("www-authenticate") ?? ""}: ${text.slice(0, 300)}`);
  const type = response.headers.get("content-type") ?? "";
  const messages: unknown[] = type.includes("text/event-stream")
    ? text
        .split(/\r?\n\r?\n/)
        .map((event) => event.split(/\r?\n/).filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trimStart()).join("\n"))
        .filter((data) => data !== "")
        .map((data) => JSON.parse(data))
    : [JSON.parse(text)];
  const found = messages.find((m): m is JsonRpcResponse => typeof m === "object" && m !== null && (m as JsonRpcResponse).id === id);
  if (found === undefined) throw new Error(`no response to request ${id} in: ${text.slice(0, 300)}`);
  if (found.error !== undefined) throw new Error(`request ${id}: error ${found.error.code} ${found.error.message}`);
  return found;
}

async function main(): Promise<void> {
  const url = new URL(process.argv.at(-1)!);
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
  const context = process.env.MCP_CONFORMANCE_CONTEXT === undefined ? undefined : (JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) as Record<string, unknown>);
  const version = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? LEGACY_UNTIL;
  const legacy = version <= LEGACY_UNTIL;
  const send: ClientFetch = conformanceFetch(scenario, context) ?? ((u, i) => fetch(u, i));
  let sessionId: string | undefined;
  let nextId = 1;

  const headers = (method: string, name?: string): Record<string, string> => ({
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    ...(legacy && method === "initialize" ? {} : { "mcp-protocol-version": version }),
    ...(sessionId === undefined ? {} : { "mcp-session-id": sessionId }),
    ...(legacy ? {} : { "mcp-method": method, ...(name === undefined ? {} : { "mcp-name": name }) }),
  });
  const params = (p: Record<string, unknown>): Record<string, unknown> =>
    legacy
      ? p
      : {
          ...p,
          _meta: {
            "io.modelcontextprotocol/protocolVersion": version,
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": clientInfo,
          },
        };
  async function request(method: string, p: Record<string, unknown>, name?: string): Promise<Record<string, unknown>> {
    const id = nextId++;
    const response = await send(url, { method: "POST", headers: headers(method, name), body: JSON.stringify({ jsonrpc: "2.0", id, method, params: params(p) }) });
    sessionId ??= response.headers.get("mcp-session-id") ?? undefined;
    return (await responseTo(id, response)).result ?? {};
  }
  async function notify(method: string): Promise<void> {
    const response = await send(url, { method: "POST", headers: headers(method), body: JSON.stringify({ jsonrpc: "2.0", method }) });
    await response.body?.cancel();
    if (!response.ok) throw new Error(`${method}: HTTP ${response.status}`);
  }

  if (legacy) {
    const init = await request("initialize", { protocolVersion: version, capabilities: {}, clientInfo });
    if (init.protocolVersion !== version) throw new Error(`the server answered protocol version ${String(init.protocolVersion)}`);
    await notify("notifications/initialized");
  } else {
    await request("server/discover", {});
  }
  const listed = await request("tools/list", {});
  const tools = (listed.tools as { name: string }[] | undefined) ?? [];
  if (tools.length > 0) await request("tools/call", { name: tools[0].name, arguments: {} }, tools[0].name);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`client-auth-driver: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
