// The Python router's one handler set (issue 41, item 5): create_router(handlers=..., versions=[...]) with
// handlers written for the newest generated version (in protocol order). Every legacy version's session
// (initialize, then tools/list and tools/call) receives results carrying only the root members its version's
// result declares (read from the schema file), and the handler is told the negotiated version; where the
// newest version is modern, the lifted request carries the session's facts in its `_meta` envelope.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isDated } from "../../generator/model/protocol-order.js";
import { protocolOrder } from "../../generated/projections.js";
import { eras } from "../../generated/router.js";
import { run } from "../emit/python/support.js";
import { declaresProperty, META_CLIENT_INFO, requestMeta, TEST_CLIENT_INFO } from "../request-meta.js";
import { modelOptions } from "../support.js";

const labels = Object.keys(eras);
// The published legacy revisions (dated labels): a legacy draft a bump pins may require members no handler written
// for the newest version gives (an early draft's ListToolsResult requires `ttl`), which the router then refuses by
// the projection (test/model/projections.test.ts holds those refusals), as the TypeScript test serves the dated
// versions the SDK client supports.
const legacy = labels.filter((l) => eras[l as keyof typeof eras] === "legacy" && isDated(l));

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

// Tasks under one handler set (Python): the extension given once (create_router(extensions=...)), served at
// every modern version the package has a Tasks module for (EXTENSION_MODULES); a legacy session gets the core
// handler. The requests carry the client info where their version's `_meta` declares it (as a client sends it).
const tasksScript = `
import asyncio, json, sys
import mcp_codegen
from mcp_codegen import tasks
from mcp_codegen.router import create_router

async def main():
    given = json.load(sys.stdin)
    def text(t):
        return {"type": "text", "text": t}
    async def done(control):
        return {"content": [text("slow done")]}
    def ext_call(params, context):
        name = params["name"] if isinstance(params, dict) else params.name
        return tasks.task(done) if name == "slow" else {"content": [text("instant")], "ttlMs": 5, "cacheScope": "public"}
    extension = tasks.tasks_extension(poll_interval_ms=10, handlers={"tools/call": ext_call})
    router = create_router(server_info={"name": "py", "version": "1"}, versions=given["labels"], capabilities={"tools": {}},
        handlers={"tools/call": lambda params, context: {"content": [text("core")], "structuredContent": {"by": "core"}}},
        extensions={tasks.TASKS_EXTENSION: extension})
    out = {"tasksAt": sorted(label for label in given["metas"] if tasks.TASKS_EXTENSION in mcp_codegen.EXTENSION_MODULES.get(label, {})), "modern": {}, "legacy": {}}
    n = 0
    for label in out["tasksAt"]:
        meta = given["metas"][label]
        async def call(method, params):
            nonlocal n
            n += 1
            return await router.handle({"jsonrpc": "2.0", "id": n, "method": method, "params": {**params, "_meta": meta}})
        created = await call("tools/call", {"name": "slow", "arguments": {}})
        await extension.idle()
        task_id = created.get("result", {}).get("taskId")
        got = await call("tasks/get", {"taskId": task_id})
        instant = await call("tools/call", {"name": "instant", "arguments": {}})
        discovered = await call("server/discover", {})
        out["modern"][label] = {"created": created, "got": got, "instant": instant, "extensions": sorted(discovered["result"]["capabilities"].get("extensions", {}))}
    for label in given["legacy"]:
        async def send(*args, **kwargs):
            return None
        c = router.connect(send)
        await c.handle({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": label, "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}})
        out["legacy"][label] = await c.handle({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "slow", "arguments": {}}})
    router.close()
    print(json.dumps(out))

asyncio.run(main())
`;

describe("Tasks under the Python router's one handler set", () => {
  it("serves Tasks at every modern version with a Tasks module (a task created, completed through tasks/get, advertised); a legacy session gets the core handler", () => {
    const modern = labels.filter((l) => eras[l as keyof typeof eras] === "modern");
    const metas = Object.fromEntries(
      modern.map((l) => [l, requestMeta(l, { extensions: { "io.modelcontextprotocol/tasks": {} } }, declaresProperty(l, "RequestMetaObject", META_CLIENT_INFO) ? { [META_CLIENT_INFO]: TEST_CLIENT_INFO } : {})]),
    );
    const r = run("python", ["-c", tasksScript], { input: JSON.stringify({ labels, legacy, metas }) });
    expect(r.stderr).toBe("");
    type Answer = { result?: Record<string, unknown>; error?: unknown };
    const out = JSON.parse(r.stdout) as { tasksAt: string[]; modern: Record<string, { created: Answer; got: Answer; instant: Answer; extensions: string[] }>; legacy: Record<string, Answer> };
    for (const label of out.tasksAt) {
      const { created, got, instant, extensions } = out.modern[label];
      expect(created.error, label).toBeUndefined();
      expect(created.result!.resultType, label).toBe("task");
      expect(got.result?.status, label).toBe("completed");
      expect((got.result!.result as { content: unknown }).content, label).toEqual([{ type: "text", text: "slow done" }]);
      expect(instant.result?.content, label).toEqual([{ type: "text", text: "instant" }]);
      expect(Object.keys(instant.result!).filter((k) => !declared(label, "CallToolResult").includes(k)), label).toEqual([]);
      expect(extensions, label).toContain("io.modelcontextprotocol/tasks");
    }
    for (const label of legacy) {
      const called = out.legacy[label];
      expect(called.error, label).toBeUndefined();
      expect(called.result!.content, label).toEqual([{ type: "text", text: "core" }]);
      expect(Object.keys(called.result!).filter((k) => !declared(label, "CallToolResult").includes(k)), label).toEqual([]);
    }
  });
});
