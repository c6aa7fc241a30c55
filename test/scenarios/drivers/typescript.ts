// The TypeScript driver: runs concrete scenario cases (../resolve.ts) against the TypeScript runtime as the
// generated tree carries it (generated/runtime/, generated/<label>/, generated/router.ts) and answers what
// it observed, in the shape every driver answers (see docs/scenarios.md):
// { results: { [case id]: actual }, skipped: { [case id]: why }, summary: [lines] }.
import { PassThrough } from "node:stream";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { generatedDir } from "../../support.js";
import type { Case } from "../resolve.js";

export interface DriverOutput {
  results: Record<string, unknown>;
  skipped: Record<string, string>;
  summary: string[];
}

const load = async <T>(...parts: string[]): Promise<T> => (await import(pathToFileURL(path.join(generatedDir, ...parts)).href)) as T;

type Gate = typeof import("../../../generated/runtime/method-gate.js");
type Stdio = typeof import("../../../generated/runtime/transport-stdio.js");
type Router = typeof import("../../../generated/router.js");

type Context = { signal: AbortSignal; notify(method: string, params?: Record<string, unknown>): Promise<void> };

/** The router being served, for the "publish" tool. */
let serving: { publish(method: string, params?: Record<string, unknown>): Promise<void> } | undefined;

/** The handlers every served version gets in stdio scenarios (docs/scenarios.md, "The scenario server"). */
const handlers = {
  ping: () => ({}),
  "logging/setLevel": () => ({}),
  "tools/list": () => ({ tools: [{ name: "echo", inputSchema: { type: "object" } }] }),
  "tools/call": async (params: { name?: unknown }, context: Context) => {
    if (params.name === "log") {
      for (const level of ["debug", "warning", "error"]) await context.notify("notifications/message", { level, data: level });
    }
    if (params.name === "publish") await serving!.publish("notifications/tools/list_changed");
    if (params.name === "slow") {
      await new Promise((_resolve, reject) => {
        if (context.signal.aborted) reject(new Error("cancelled"));
        context.signal.addEventListener("abort", () => reject(new Error("cancelled")), { once: true });
      });
    }
    return { content: [{ type: "text", text: String(params.name) }] };
  },
};

/** Lines written in answer to one line: wait for `count` of them, then a little longer for any extra. */
async function stdioCase(c: Extract<Case, { kind: "stdio" }>, stdio: Stdio, router: Router): Promise<unknown[][]> {
  const versions = Object.fromEntries(Object.keys(router.eras).map((l) => [l, { handlers, capabilities: { tools: { listChanged: true }, logging: {} } }]));
  const server = router.createServerRouter({ serverInfo: { name: "scenario-server", version: "1.0.0" }, versions: versions as never, onError: () => undefined });
  serving = server;
  const input = new PassThrough();
  const output = new PassThrough();
  const got: unknown[] = [];
  let text = "";
  output.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n")) {
      got.push(JSON.parse(text.slice(0, i)));
      text = text.slice(i + 1);
    }
  });
  const served = stdio.serveStdio(server, { input, output, onError: () => undefined });
  const answers: unknown[][] = [];
  for (const [i, line] of c.lines.entries()) {
    const from = got.length;
    input.write(line + "\n");
    const want = c.expect[i].length;
    const deadline = Date.now() + 5000;
    while (got.length - from < want && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
    await new Promise((r) => setTimeout(r, 20));
    answers.push(got.slice(from));
  }
  input.end();
  await served.closed;
  server.close();
  return answers;
}

export async function runTypeScript(cases: readonly Case[]): Promise<DriverOutput> {
  const gate = await load<Gate>("runtime", "method-gate.ts");
  const stdio = await load<Stdio>("runtime", "transport-stdio.ts");
  const router = await load<Router>("router.ts");
  const results: Record<string, unknown> = {};
  for (const c of cases) {
    if (c.kind === "gate") {
      const { METHOD_TABLE, protocolVersion } = await load<{ METHOD_TABLE: Record<string, import("../../../generated/runtime/method-gate.js").GateRow>; protocolVersion: string }>(c.version, "methods.ts");
      results[c.id] = gate.methodRefusal(METHOD_TABLE, c.method, protocolVersion, c.side, c.policy);
    } else if (c.kind === "normalize") {
      const { resultNormalizers } = await load<{ resultNormalizers: Record<string, (v: unknown) => unknown> }>(c.version, "normalizers.ts");
      try {
        results[c.id] = { ok: JSON.parse(JSON.stringify(resultNormalizers[c.method](structuredClone(c.input)))) };
      } catch (e) {
        const { code, message } = e as { code?: unknown; message?: unknown };
        if (typeof code !== "number") throw e;
        results[c.id] = { error: { code, message } };
      }
    } else {
      results[c.id] = await stdioCase(c, stdio, router);
    }
  }
  const kinds = [...new Set(cases.map((c) => c.kind))];
  return { results, skipped: {}, summary: kinds.map((k) => `typescript runs ${cases.filter((c) => c.kind === k).length} ${k} cases`) };
}
