// The conformance client: made only of the generated client (generated/client.ts). The official
// runner (`conformance client --command "…" --scenario …`) starts it with the scenario server's URL
// as its last argument and MCP_CONFORMANCE_SCENARIO / MCP_CONFORMANCE_CONTEXT / MCP_CONFORMANCE_PROTOCOL_VERSION
// in its environment. It connects at the scenario's wire version and uses whatever the server offers:
// every tool is called (a JSON-RPC error answer noted, not fatal; arguments from the context's `toolCalls` when it names them, else from the
// tool's inputSchema), every resource read, every prompt got; the server's elicitations are accepted
// with the requested schema's defaults, sampling answered with a fixed text. Exit 0 when nothing failed.
import { createClient, httpClientTransport, type ClientVersion } from "../../generated/client.js";
import { JsonRpcError } from "../../generated/runtime/jsonrpc.js";
import { conformanceFetch } from "./client-auth.js";

const url = process.argv[process.argv.length - 1];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const context = process.env.MCP_CONFORMANCE_CONTEXT === undefined ? undefined : (JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) as Record<string, unknown>);
const wire = (process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? "2025-11-25") as ClientVersion;
const legacy: ClientVersion[] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** A value of each property the schema requires, by its type. */
function argumentsFor(inputSchema: unknown): Json {
  const properties = isObject(inputSchema) && isObject(inputSchema.properties) ? inputSchema.properties : {};
  const required = isObject(inputSchema) && Array.isArray(inputSchema.required) ? (inputSchema.required as string[]) : [];
  const out: Json = {};
  for (const name of required) {
    const p = properties[name];
    const type = isObject(p) ? p.type : undefined;
    out[name] = type === "number" || type === "integer" ? 1 : type === "boolean" ? true : type === "object" ? {} : type === "array" ? [] : "test";
  }
  return out;
}

/** An elicitation accepted with every default the requested schema gives. */
function acceptWithDefaults(params: unknown): Json {
  const schema = isObject(params) ? params.requestedSchema : undefined;
  const properties = isObject(schema) && isObject(schema.properties) ? schema.properties : {};
  const content: Json = {};
  for (const [name, p] of Object.entries(properties)) if (isObject(p) && Object.hasOwn(p, "default")) content[name] = p.default;
  return { action: "accept", content };
}

const client = createClient({
  clientInfo: { name: "mcp-codegen-conformance-client", version: "1.0.0" },
  capabilities: { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } },
  versions: wire === "2026-07-28" ? ["2026-07-28"] : legacy.filter((v) => v <= wire),
  handlers: {
    "elicitation/create": ((params: unknown) => acceptWithDefaults(params)) as never,
    "sampling/createMessage": (() => ({ role: "assistant", content: { type: "text", text: "conformance sample" }, model: "conformance-model" })) as never,
    "roots/list": (() => ({ roots: [] })) as never,
  },
  onError: (error) => {
    const cause = error instanceof Error && error.cause !== undefined ? ` (cause: ${String((error.cause as { code?: unknown }).code ?? error.cause)})` : "";
    process.stderr.write(`client: ${error instanceof Error ? error.message : String(error)}${cause}\n`);
  },
});

const toolCalls = Array.isArray(context?.toolCalls) ? (context.toolCalls as Array<{ name: string; arguments: Json }>) : undefined;

try {
  const negotiated = await client.connect(httpClientTransport(url, { fetch: conformanceFetch(scenario, context) }));
  const caps = negotiated.serverCapabilities;
  if (caps.tools !== undefined) {
    const { tools } = (await client.request("tools/list", {})) as { tools: Array<{ name: string; inputSchema: unknown }> };
    const calls = toolCalls ?? tools.map((t) => ({ name: t.name, arguments: argumentsFor(t.inputSchema) }));
    const echo = tools.find((t) => t.name === "json_schema_echo");
    for (const call of calls) {
      if (echo !== undefined && call.name === echo.name) {
        // The scenario asks for another tool's inputSchema back, exactly as received.
        const focal = tools.find((t) => t.name !== echo.name);
        await client.request("tools/call", { name: call.name, arguments: { schema: focal?.inputSchema } });
        continue;
      }
      // A server's error answer is the server's business (a scenario whose tool has no handler); the scenario's checks judge.
      await client.request("tools/call", { name: call.name, arguments: call.arguments }).catch((error: unknown) => {
        if (!(error instanceof JsonRpcError)) throw error;
        process.stderr.write(`tools/call ${call.name}: the server answered ${error.code} ${error.message}\n`);
      });
    }
  }
  if (caps.resources !== undefined) {
    const { resources } = (await client.request("resources/list", {})) as { resources: Array<{ uri: string }> };
    for (const r of resources) await client.request("resources/read", { uri: r.uri });
  }
  if (caps.prompts !== undefined) {
    const { prompts } = (await client.request("prompts/list", {})) as { prompts: Array<{ name: string; arguments?: Array<{ name: string; required?: boolean }> }> };
    for (const p of prompts) {
      const args = Object.fromEntries((p.arguments ?? []).filter((a) => a.required === true).map((a) => [a.name, "test"]));
      await client.request("prompts/get", { name: p.name, arguments: args });
    }
  }
  await client.close();
  process.exit(0);
} catch (error) {
  const cause = error instanceof Error && error.cause !== undefined ? ` (cause: ${String((error.cause as { code?: unknown }).code ?? error.cause)})` : "";
  process.stderr.write(`conformance client (${scenario}): ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}${cause}\n`);
  await client.close().catch(() => undefined);
  process.exit(1);
}
