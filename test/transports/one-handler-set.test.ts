// One handler set for every generated version (issue 41): createServerRouter({ handlers, versions: [...] })
// with handlers written for the newest generated version (in the tree's protocolOrder), served over HTTP to the official SDK 1.32.2
// client pinned (its initialize rewritten) to each legacy version it supports and the version generated
// here, and to the 2.4.0 client pinned to the modern version it speaks. Every client accepts every result;
// every result a legacy client receives carries only root members its version's result declares (read
// from the schema file, not from the projection data), so never the later revisions' `resultType`, `ttlMs`,
// `cacheScope`; the handler is told the negotiated version, and where the newest version is modern, a
// legacy session's request reaches it with the session's client info in the `_meta` envelope.
import { readFileSync } from "node:fs";
import path from "node:path";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyHttp } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from "@modelcontextprotocol/client";
import { beforeAll, describe, expect, it } from "vitest";
import { protocolOrder } from "../../generated/projections.js";
import { createServerRouter, eras, type RoutedVersion } from "../../generated/router.js";
import { serveHttp } from "../../generated/runtime/transport-http.js";
import type { ProtocolModel } from "../../generator/model/types.js";
import { buildModel } from "../../generator/pipeline.js";
import { readLock } from "../../generator/source/lock.js";
import { lockFile, modelOptions } from "../support.js";
import { MODERN } from "./support.js";

const labels = Object.keys(eras) as RoutedVersion[];
let model: ProtocolModel;

beforeAll(async () => {
  model = buildModel({ ...modelOptions, versions: labels, lock: await readLock(lockFile) });
});

/** The root members a version's result of `method` declares, from its schema.json (`$ref` and `allOf` followed). */
function declared(label: string, method: string): Set<string> {
  const doc = JSON.parse(readFileSync(path.join(modelOptions.schemasDir, label, "schema.json"), "utf8")) as { definitions?: Record<string, Record<string, unknown>>; $defs?: Record<string, Record<string, unknown>> };
  const defs = doc.$defs ?? doc.definitions!;
  const names = (s: Record<string, unknown>): string[] => [
    ...Object.keys((s.properties as object | undefined) ?? {}),
    ...(typeof s.$ref === "string" ? names(defs[s.$ref.split("/").pop()!]) : []),
    ...((s.allOf as Record<string, unknown>[] | undefined) ?? []).flatMap(names),
  ];
  const request = model.versions.find((v) => v.label === label)!.requests.find((r) => r.method === method)!;
  return new Set(request.results.flatMap((name) => names(defs[name])));
}

const seen: Array<{ version: string; method: string }> = [];
/** The `_meta` of every tools/call the handler received. */
const calledMeta: Array<Record<string, unknown> | undefined> = [];

/** Whether the newest version's request `_meta` declares the client info key (its schema.json's RequestMetaObject). */
function newestDeclaresClientInfo(): boolean {
  const newest = protocolOrder[protocolOrder.length - 1];
  const doc = JSON.parse(readFileSync(path.join(modelOptions.schemasDir, newest, "schema.json"), "utf8")) as { definitions?: Record<string, { properties?: object }>; $defs?: Record<string, { properties?: object }> };
  return Object.hasOwn((doc.$defs ?? doc.definitions!).RequestMetaObject?.properties ?? {}, "io.modelcontextprotocol/clientInfo");
}

function router() {
  const tool = { name: "echo", title: "Echo", description: "echoes", inputSchema: { type: "object" as const, properties: { text: { type: "string" } }, additionalProperties: false } };
  return createServerRouter({
    serverInfo: { name: "one-set", version: "1.0.0" },
    versions: labels,
    capabilities: { tools: { listChanged: true }, resources: {}, prompts: {} },
    handlers: {
      "tools/list": (_params: unknown, context: { protocolVersion: string }) => {
        seen.push({ version: context.protocolVersion, method: "tools/list" });
        return { tools: [tool], ttlMs: 60_000, cacheScope: "public" as const };
      },
      "tools/call": (params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> }) => {
        calledMeta.push(params._meta);
        return { content: [{ type: "text" as const, text: String(params.arguments?.text ?? "") }], structuredContent: { text: params.arguments?.text ?? "" } };
      },
      "resources/list": () => ({ resources: [{ uri: "file:///a.txt", name: "a", mimeType: "text/plain" }], ttlMs: 0, cacheScope: "private" as const }),
      "resources/read": (params: { uri: string }) => ({ contents: [{ uri: params.uri, mimeType: "text/plain", text: "A" }] }),
      "prompts/list": () => ({ prompts: [{ name: "greet", arguments: [{ name: "who", required: true }] }], ttlMs: 0, cacheScope: "public" as const }),
      "prompts/get": (params: { arguments?: Record<string, string> }) => ({ messages: [{ role: "user" as const, content: { type: "text" as const, text: `hello ${params.arguments?.who}` } }] }),
    } as never,
  });
}

/** The SDK 1.32.2 client asking for `version` at initialize; every result it receives recorded. */
async function legacyClient(url: string, version: string) {
  const transport = new LegacyHttp(new URL(url));
  const received: Array<{ id: unknown; result: Record<string, unknown> }> = [];
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const m = message as { method?: string; params?: Record<string, unknown> };
    return send(m.method === "initialize" ? ({ ...message, params: { ...m.params, protocolVersion: version } } as typeof message) : message, options);
  };
  const client = new LegacyClient({ name: "pinned", version: "1" });
  const onmessage = () => {
    const inner = transport.onmessage!;
    transport.onmessage = (msg: Parameters<typeof inner>[0]) => {
      const r = msg as { id?: unknown; result?: Record<string, unknown> };
      if (r.result !== undefined) received.push({ id: r.id, result: r.result });
      inner(msg);
    };
  };
  await client.connect(transport);
  onmessage();
  return { client, transport, received };
}

describe("one handler set serving every generated version", () => {
  it("the SDK 1.32.2 client pinned to each legacy version it supports accepts every result, each carrying only members its version declares", async () => {
    const r = router();
    const server = await serveHttp(r);
    const legacy = labels.filter((l) => eras[l] === "legacy" && SUPPORTED_PROTOCOL_VERSIONS.includes(l));
    expect(legacy.length).toBeGreaterThan(0);
    try {
      for (const version of legacy) {
        const { client, transport, received } = await legacyClient(server.url, version);
        expect(transport.protocolVersion).toBe(version);
        const methods: string[] = [];
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["echo"]);
        methods.push("tools/list");
        const called = await client.callTool({ name: "echo", arguments: { text: "hi" } });
        expect(called.content).toEqual([{ type: "text", text: "hi" }]);
        // Lifted to a modern newest version: the session's facts in the envelope, its client info among them.
        const newest = protocolOrder[protocolOrder.length - 1];
        if (eras[newest] === "modern") {
          expect(calledMeta.at(-1)?.["io.modelcontextprotocol/protocolVersion"], version).toBe(version);
          if (newestDeclaresClientInfo()) expect(calledMeta.at(-1)?.["io.modelcontextprotocol/clientInfo"], version).toEqual({ name: "pinned", version: "1" });
        }
        methods.push("tools/call");
        expect((await client.listResources()).resources.map((x) => x.uri)).toEqual(["file:///a.txt"]);
        methods.push("resources/list");
        expect((await client.readResource({ uri: "file:///a.txt" })).contents).toEqual([{ uri: "file:///a.txt", mimeType: "text/plain", text: "A" }]);
        methods.push("resources/read");
        expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(["greet"]);
        methods.push("prompts/list");
        expect((await client.getPrompt({ name: "greet", arguments: { who: "x" } })).messages[0].content).toEqual({ type: "text", text: "hello x" });
        methods.push("prompts/get");
        expect(received.length).toBe(methods.length);
        received.forEach(({ result }, i) => {
          const allowed = declared(version, methods[i]);
          expect(Object.keys(result).filter((k) => !allowed.has(k)), `${methods[i]} at ${version}`).toEqual([]);
        });
        await client.close();
        expect(seen.at(-1)).toEqual({ version, method: "tools/list" });
      }
    } finally {
      r.close();
      await server.close();
    }
  });

  it("the 2.4.0 client pinned to the modern version it speaks is served by the same handlers, with the cache hints its version declares", async () => {
    if (!labels.includes(MODERN as RoutedVersion)) return expect(labels).not.toContain(MODERN);
    const r = router();
    const server = await serveHttp(r);
    try {
      const modern = new ModernClient({ name: "t", version: "1" }, { versionNegotiation: { mode: { pin: MODERN } } });
      await modern.connect(new ModernHttp(new URL(server.url)));
      const tools = await modern.listTools();
      expect(tools.tools.map((t) => t.name)).toEqual(["echo"]);
      expect(textOfCall(await modern.callTool({ name: "echo", arguments: { text: "yo" } }))).toBe("yo");
      expect(seen.at(-1)).toEqual({ version: MODERN, method: "tools/list" });
      await modern.close();
    } finally {
      r.close();
      await server.close();
    }
  });
});

function textOfCall(result: unknown): string {
  return ((result as { content: Array<{ text?: string }> }).content[0].text ?? "") as string;
}
