// Cross-language: the generated Python server dispatcher (mcp_codegen.<version>.create_server_dispatcher)
// answers a corpus of messages byte-for-byte as the generated TypeScript one does, at every locked
// version: valid requests, invalid envelopes, responses, unknown, removed and wrong-side methods, a
// method without a handler, missing and non-object params, handler failures (coded and not), results
// that are not results, notifications. Invalid params by schema agree on the code and the failing
// JSON pointers (data.paths); the message text names pydantic's or zod's words, which differ.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readLock } from "../../../generator/source/lock.js";
import { requestMeta } from "../../request-meta.js";
import { lockFile, root } from "../../support.js";
import { pythonJson } from "./support.js";

const labels = Object.keys((await readLock(lockFile)).versions).sort();

interface TsModule {
  createServerDispatcher(handlers: Record<string, (params: any, context: any) => unknown>, options?: object): { handle(m: unknown): Promise<unknown> };
  JsonRpcError: new (code: number, message: string, data?: unknown) => Error;
}

function tsHandlers(mod: TsModule): Record<string, (params: any, context: any) => unknown> {
  return {
    ping: () => ({}),
    "tools/list": async () => ({ tools: [{ name: "echo", inputSchema: { type: "object" } }] }),
    "tools/call": (params: { name: string }) => {
      if (params.name === "fail-coded") throw new mod.JsonRpcError(-32000, "coded failure", { why: "asked" });
      if (params.name === "fail-plain") throw new Error("secret detail");
      if (params.name === "bad-result") return { content: "not an array" };
      return { content: [{ type: "text", text: params.name }] };
    },
    "prompts/list": () => ["not", "a", "result"],
    "notifications/initialized": () => {
      throw new Error("a failing notification handler is never answered");
    },
  };
}

/** The corpus at one version: `_meta` the modern era requires in every request's params (the version's schema's required keys). */
function corpus(modern: boolean, label: string): unknown[] {
  const meta = modern ? { _meta: requestMeta(label) } : {};
  const p = (params: Record<string, unknown>) => ({ ...meta, ...params });
  const req = (id: number | string, method: string, params?: unknown) => (params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
  return [
    req(1, "ping", modern ? p({}) : undefined),
    req("s", "tools/list", p({})),
    req(3, "tools/call", p({ name: "hello", arguments: {} })),
    req(4, "tools/call", p({ name: "fail-coded" })),
    req(5, "tools/call", p({ name: "fail-plain" })),
    req(6, "tools/call", p({ name: "bad-result" })),
    req(7, "prompts/list", p({})),
    req(8, "resources/list", p({})),
    req(9, "no/such-method", p({})),
    req(10, "sampling/createMessage", p({ messages: [], maxTokens: 1 })),
    req(11, "initialize", { protocolVersion: label, capabilities: {}, clientInfo: { name: "c", version: "1" } }),
    req(12, "subscriptions/listen", p({})),
    req(13, "tools/call"),
    req(14, "tools/call", "not an object"),
    req(15, "tools/call", [1, 2]),
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { jsonrpc: "2.0", method: "notifications/initialized", params: 5 },
    { jsonrpc: "2.0", id: 16, result: {} },
    { jsonrpc: "2.0", id: 17, error: { code: 1, message: "x" } },
    { jsonrpc: "1.0", id: 18, method: "ping" },
    { jsonrpc: "2.0", id: null, method: "ping" },
    { jsonrpc: "2.0", id: true, method: "ping" },
    { jsonrpc: "2.0", id: 19, method: 5 },
    { id: 20 },
    [],
    "text",
    null,
    req(1.0, "ping", modern ? p({}) : undefined),
  ];
}

describe("the Python dispatcher answers as the TypeScript one", () => {
  it.each(labels)("%s", async (label) => {
    const mod = (await import(path.join(root, "generated", label, "index.ts"))) as TsModule & { era: string };
    const modern = mod.era === "modern";
    const messages = corpus(modern, label);
    const failures: string[] = [];
    const ts = mod.createServerDispatcher(tsHandlers(mod), { onError: (_error: unknown, f: { kind: string }) => failures.push(f.kind) });
    const expected: unknown[] = [];
    for (const m of messages) expected.push((await ts.handle(m)) ?? null);
    const py = pythonJson<{ answers: unknown[]; failures: string[] }>("dispatch.py", { version: label, messages });
    // Both answered something (a result or an error) for each request.
    expect(expected.filter((a) => a !== null).length).toBeGreaterThan(15);
    messages.forEach((m, i) => expect(JSON.stringify(py.answers[i]), JSON.stringify(m)).toBe(JSON.stringify(expected[i])));
    expect(py.failures).toEqual(failures);
  });
});
