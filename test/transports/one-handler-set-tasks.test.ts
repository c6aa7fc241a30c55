// Tasks under one handler set (issue 41): createServerRouter({ handlers, versions: [...], extensions }) with the
// Tasks extension given once, its handlers written for the newest version. Every served modern version the tree
// has a Tasks module for (read from the model's extension modules, no label assumed) serves it: a tools/call that
// negotiates Tasks and returns a task handle is answered with a task (`resultType` "task"), which completes
// with the work's result through tasks/get, and `server/discover` advertises the extension; a plain result of
// the extension's handler is projected as a core result is; a request whose `_meta` lacks a key the newest
// version requires (and the session cannot supply) is refused -32602 naming it, as the schemas say. A legacy
// session is answered by the core handler (a legacy session has no extensions), with only the members its
// version's result declares.
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createServerRouter, eras, type RoutedVersion } from "../../generated/router.js";
import { createMemoryTaskStore } from "../../generated/runtime/task-store.js";
import { task, tasksExtension, TASKS_EXTENSION } from "../../generated/runtime/tasks.js";
import type { ProtocolModel } from "../../generator/model/types.js";
import { buildModel } from "../../generator/pipeline.js";
import { readLock } from "../../generator/source/lock.js";
import { protocolOrder } from "../../generated/projections.js";
import { declaresProperty, META_CLIENT_INFO, requestMeta, requiredRequestMetaKeys, TEST_CLIENT_INFO } from "../request-meta.js";
import { lockFile, modelOptions } from "../support.js";
import { alternatives, fitsSome, type Alternative } from "../model/schema-alternatives.js";

const labels = Object.keys(eras) as RoutedVersion[];
const text = (t: string) => ({ type: "text" as const, text: t });
let model: ProtocolModel;
/** The served modern versions the tree has a Tasks module for. */
let tasksAt: string[];

beforeAll(async () => {
  model = buildModel({ ...modelOptions, versions: labels, lock: await readLock(lockFile) });
  tasksAt = (model.extensions ?? []).filter((e) => e.identifier === TASKS_EXTENSION && eras[e.core as RoutedVersion] === "modern").map((e) => e.core);
});

/**
 * The alternatives of a version's CallToolResult, from its schema.json: the branches of a union (an early draft's
 * unstructured and structured results), each with the root members it declares and requires (`$ref` and `allOf` followed).
 */
function callResult(label: string): Alternative[] {
  const doc = JSON.parse(readFileSync(path.join(modelOptions.schemasDir, label, "schema.json"), "utf8")) as { definitions?: Record<string, Record<string, unknown>>; $defs?: Record<string, Record<string, unknown>> };
  const defs = doc.$defs ?? doc.definitions!;
  return alternatives(defs, defs.CallToolResult);
}

/** The root members of `result` that no alternative of the version's CallToolResult declares all of (none when it fits one). */
const undeclared = (label: string, result: Record<string, unknown>) => (fitsSome(callResult(label), result) ? [] : Object.keys(result));

function router() {
  const extension = tasksExtension({
    store: createMemoryTaskStore(),
    pollIntervalMs: 10,
    handlers: {
      "tools/call": (params: { name: string }) => (params.name === "slow" ? task(async () => ({ content: [text("slow done")] })) : { content: [text("instant")], ttlMs: 5, cacheScope: "public" }),
    },
  });
  const r = createServerRouter({
    serverInfo: { name: "one-set-tasks", version: "1.0.0" },
    versions: labels,
    capabilities: { tools: {} },
    handlers: {
      "tools/list": () => ({ tools: [{ name: "slow", inputSchema: { type: "object" } }], ttlMs: 0, cacheScope: "public" }),
      "tools/call": () => ({ content: [text("core")], structuredContent: { by: "core" } }),
    } as never,
    extensions: { [TASKS_EXTENSION]: extension } as never,
  });
  return { r, extension };
}

describe("Tasks under one handler set", () => {
  it("every served modern version with a Tasks module serves it: a task created, completed through tasks/get, the extension advertised", async () => {
    const { r, extension } = router();
    try {
      if (tasksAt.length === 0) return expect((model.extensions ?? []).filter((e) => e.identifier === TASKS_EXTENSION && eras[e.core as RoutedVersion] === "modern")).toEqual([]);
      const newest = protocolOrder[protocolOrder.length - 1];
      let id = 0;
      for (const label of tasksAt) {
        const capabilities = { extensions: { [TASKS_EXTENSION]: {} } };
        // What the label requires in `_meta`, and the client info where its request declares it (as a client sends it).
        const meta = requestMeta(label, capabilities, declaresProperty(label, "RequestMetaObject", META_CLIENT_INFO) ? { [META_CLIENT_INFO]: TEST_CLIENT_INFO } : {});
        const call = async (method: string, params: Record<string, unknown>, m = meta) => (await r.handle({ jsonrpc: "2.0", id: ++id, method, params: { ...params, _meta: m } })) as { result?: Record<string, unknown>; error?: { code: number; message: string } };
        // Only what the label requires: lifted to the newest version, a key it requires beyond those has no faithful value.
        const beyond = eras[newest] === "modern" ? requiredRequestMetaKeys(newest).filter((k) => !requiredRequestMetaKeys(label).includes(k)) : [];
        const bare = await call("tools/call", { name: "instant", arguments: {} }, requestMeta(label, capabilities));
        if (beyond.length === 0) expect(bare.error, label).toBeUndefined();
        else {
          expect(bare.error?.code, label).toBe(-32602);
          expect(bare.error?.message, label).toContain(`/_meta/${beyond[0].replace(/~/g, "~0").replace(/\//g, "~1")}`);
        }
        const created = await call("tools/call", { name: "slow", arguments: {} });
        expect(created.error, label).toBeUndefined();
        expect(created.result!.resultType, label).toBe("task");
        const taskId = created.result!.taskId as string;
        expect(typeof taskId, label).toBe("string");
        await extension.idle();
        const got = await call("tasks/get", { taskId });
        expect(got.error, label).toBeUndefined();
        expect(got.result!.status, label).toBe("completed");
        expect((got.result!.result as { content: unknown }).content, label).toEqual([text("slow done")]);
        // A plain result of the extension's handler: a complete core result, its cache hints dropped where CallToolResult lacks them.
        const instant = await call("tools/call", { name: "instant", arguments: {} });
        expect(instant.error, label).toBeUndefined();
        expect(instant.result!.content, label).toEqual([text("instant")]);
        expect(undeclared(label, instant.result!), label).toEqual([]);
        const discovered = await call("server/discover", {});
        expect(Object.keys((discovered.result!.capabilities as { extensions?: object }).extensions ?? {}), label).toContain(TASKS_EXTENSION);
      }
    } finally {
      r.close();
      await extension.store.close?.();
    }
  });

  it("a legacy session is answered by the core handler, with only the members its version's result declares", async () => {
    const legacy = labels.filter((l) => eras[l] === "legacy");
    expect(legacy.length).toBeGreaterThan(0);
    const { r, extension } = router();
    try {
      for (const label of legacy) {
        const connection = r.connect(() => Promise.resolve(undefined));
        const init = (await connection.handle({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: label, capabilities: {}, clientInfo: { name: "c", version: "1" } } })) as { result?: { protocolVersion: string } };
        expect(init.result?.protocolVersion).toBe(label);
        const called = (await connection.handle({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "slow", arguments: {} } })) as { result?: Record<string, unknown>; error?: { code: number; message: string } };
        // A member the version requires beyond the handler's content (an early draft's `toolResult`) has no
        // faithful value: refused -32603 at its pointer rather than sent invalid.
        // Every alternative requiring such a member, the call is refused; else it fits one alternative.
        const lacked = callResult(label).map((a) => [...a.required].filter((m) => m !== "content" && m !== "structuredContent"));
        if (lacked.every((l) => l.length > 0)) {
          expect(called.error?.code, label).toBe(-32603);
          expect(lacked.flat().some((m) => called.error!.message.includes(`at /${m}`)), `${label}: ${called.error?.message}`).toBe(true);
          connection.close();
          continue;
        }
        expect(called.error, label).toBeUndefined();
        expect(called.result!.content, label).toEqual([text("core")]);
        expect(undeclared(label, called.result!), label).toEqual([]);
        connection.close();
      }
    } finally {
      r.close();
      await extension.store.close?.();
    }
  });
});
