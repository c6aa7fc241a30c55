// The Python router's one handler set (issue 41, item 5): create_router(handlers=..., versions=[...]) with
// handlers written for the newest generated version (in protocol order). Every legacy version's session
// (initialize, then tools/list and tools/call) receives results carrying only the root members its version's
// result declares (read from the schema file), and the handler is told the negotiated version; where the
// newest version is modern, the lifted request carries the session's facts in its `_meta` envelope.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { protocolOrder } from "../../generated/projections.js";
import { eras } from "../../generated/router.js";
import { run } from "../emit/python/support.js";
import { modelOptions } from "../support.js";

const labels = Object.keys(eras);
const legacy = labels.filter((l) => eras[l as keyof typeof eras] === "legacy");

/** The root members of `definition` in a version's schema.json. */
function declared(label: string, definition: string): string[] {
  const doc = JSON.parse(readFileSync(path.join(modelOptions.schemasDir, label, "schema.json"), "utf8")) as { definitions?: Record<string, { properties?: object }>; $defs?: Record<string, { properties?: object }> };
  return Object.keys((doc.$defs ?? doc.definitions!)[definition].properties ?? {});
}

const script = `
import asyncio, json, sys
from mcp_codegen.router import create_router

async def main():
    legacy = json.load(sys.stdin)
    def tools_list(params, context):
        return {"tools": [{"name": "echo", "title": context.protocol_version, "inputSchema": {"type": "object"}}]}
    def tools_call(params, context):
        name = params["name"] if isinstance(params, dict) else params.name
        meta = params.get("_meta") if isinstance(params, dict) else None
        return {"content": [{"type": "text", "text": json.dumps({"name": name, "meta": meta})}], "structuredContent": {"ok": True}}
    router = create_router(server_info={"name": "py", "version": "1"}, versions=${JSON.stringify(labels)}, handlers={"tools/list": tools_list, "tools/call": tools_call}, capabilities={"tools": {}}, cache_hints={"ttlMs": 5, "cacheScope": "public"})
    out = {}
    for label in legacy:
        async def send(*args, **kwargs):
            return None
        c = router.connect(send)
        await c.handle({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": label, "capabilities": {"roots": {}}, "clientInfo": {"name": "c", "version": "1"}}})
        listed = await c.handle({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}})
        called = await c.handle({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "echo", "arguments": {}}})
        out[label] = {"list": listed, "call": called}
    print(json.dumps(out))

asyncio.run(main())
`;

describe("the Python router's one handler set", () => {
  it("serves every legacy version with results carrying only the members its version declares", () => {
    expect(legacy.length).toBeGreaterThan(0);
    const r = run("python", ["-c", script], { input: JSON.stringify(legacy) });
    expect(r.stderr).toBe("");
    const out = JSON.parse(r.stdout) as Record<string, { list: { result?: Record<string, unknown>; error?: unknown }; call: { result?: Record<string, unknown>; error?: unknown } }>;
    for (const label of legacy) {
      const { list, call } = out[label];
      expect(list.error, label).toBeUndefined();
      expect(call.error, label).toBeUndefined();
      expect(Object.keys(list.result!).filter((k) => !declared(label, "ListToolsResult").includes(k)), label).toEqual([]);
      expect(Object.keys(call.result!).filter((k) => !declared(label, "CallToolResult").includes(k)), label).toEqual([]);
      expect((list.result!.tools as Array<{ title?: string; name: string }>)[0].name).toBe("echo");
      // The handler saw the negotiated version (where the version's Tool declares `title`, it arrives).
      if (declared(label, "Tool").includes("title")) expect((list.result!.tools as Array<{ title?: string }>)[0].title).toBe(label);
      // Lifted to a modern newest version: the session's version, capabilities and client info in the envelope.
      const seen = JSON.parse((call.result!.content as Array<{ text: string }>)[0].text) as { name: string; meta: Record<string, unknown> | null };
      expect(seen.name).toBe("echo");
      const newest = protocolOrder[protocolOrder.length - 1];
      if (eras[newest] === "modern") {
        expect(seen.meta?.["io.modelcontextprotocol/protocolVersion"], label).toBe(label);
        expect(seen.meta?.["io.modelcontextprotocol/clientCapabilities"], label).toEqual({ roots: {} });
        if (declared(newest, "RequestMetaObject").includes("io.modelcontextprotocol/clientInfo")) expect(seen.meta?.["io.modelcontextprotocol/clientInfo"], label).toEqual({ name: "c", version: "1" });
      }
    }
  });
});
