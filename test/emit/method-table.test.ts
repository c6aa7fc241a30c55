// The method table, visible: `mcp-codegen table --format json` against every target's METHOD_TABLE
// (TypeScript <label>/methods.ts, the Ruby and Python version modules), serialized as JSON; and the
// table's statuses against the schemas themselves, read here as plain JSON (not through the model).
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { moduleName } from "../../generator/emit/python/language.js";
import { moduleConstant } from "../../generator/emit/ruby/language.js";
import { readLock } from "../../generator/source/lock.js";
import { ensureSchemas, generatedDir, lockedProtocolOrder, lockFile, runCli, schemasDir } from "../support.js";
import { run as python } from "./python/support.js";
import { ruby } from "./ruby/support.js";

type Tables = Record<string, Record<string, { status: string; kind: string; sender: string; nearest: string | null; receivers: string[]; taskResult: string | null; taskCapability: string[] | null }>>;

let tables: Tables;
let labels: string[];

beforeAll(async () => {
  await ensureSchemas();
  const r = await runCli(["table", "--format", "json"]);
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  tables = JSON.parse(r.stdout) as Tables;
  const lock = await readLock(lockFile);
  labels = Object.keys(lock.versions).sort();
}, 300_000);

/** The methods a schema's ClientRequest/ServerRequest/ClientNotification/ServerNotification unions name, by sender, read as plain JSON. */
function schemaMethods(label: string): Map<string, Set<string>> {
  const schema = JSON.parse(readFileSync(path.join(schemasDir, label, "schema.json"), "utf8")) as Record<string, Record<string, Record<string, unknown>>>;
  const defs = schema.$defs ?? schema.definitions;
  const out = new Map<string, Set<string>>();
  for (const [union, sender] of [["ClientRequest", "client"], ["ServerRequest", "server"], ["ClientNotification", "client"], ["ServerNotification", "server"]]) {
    type Message = { $ref?: string; properties?: { method?: { const?: string } } };
    const u = defs[union] as (Message & { anyOf?: Message[]; oneOf?: Message[] }) | undefined;
    // A union of references, a single reference, or one inline message.
    for (const branch of u === undefined ? [] : (u.anyOf ?? u.oneOf ?? [u])) {
      const def = (branch.$ref === undefined ? branch : defs[branch.$ref.split("/").pop()!]) as Message;
      const method = def.properties?.method?.const;
      if (method === undefined) throw new Error(`${label}: a member of ${union} fixes no method`);
      out.set(method, new Set([...(out.get(method) ?? []), sender]));
    }
  }
  return out;
}

/**
 * The methods the extensions layered onto a module label (`core+name`) define: every `method` const of the
 * extension's schema files whose versions the lock lays onto that core. Their senders are the extension's (the
 * row's), also where the core has a method of the same name (a bump may pin a core that does).
 */
function extensionMethods(label: string): Set<string> {
  const [core, ...names] = label.split("+");
  const lock = JSON.parse(readFileSync(lockFile, "utf8")) as { extensions?: Record<string, { versions: Record<string, { core: string[] }> }> };
  const out = new Set<string>();
  for (const name of names) {
    for (const [version, entry] of Object.entries(lock.extensions?.[name]?.versions ?? {})) {
      if (!entry.core.includes(core)) continue;
      const text = readFileSync(path.join(schemasDir, "extensions", name, version, "schema.json"), "utf8");
      for (const m of text.matchAll(/"method"\s*:\s*\{[^{}]*"const"\s*:\s*"([^"]+)"/g)) out.add(m[1]);
    }
  }
  return out;
}

describe("the method table against the schemas", () => {
  it("has an entry per locked version and a row per method any version names", () => {
    expect(Object.keys(tables).filter((l) => !l.includes("+"))).toEqual(labels);
    const all = new Set(labels.flatMap((l) => [...schemaMethods(l).keys()]));
    for (const label of labels) for (const m of all) expect(tables[label][m], `${label} ${m}`).toBeDefined();
  });

  it("says present exactly for the methods a version's unions name, with their senders; removed where only an earlier version has one; later where only a later one does (in protocol order)", () => {
    const byLabel = new Map(labels.map((l) => [l, schemaMethods(l)]));
    const ordered = lockedProtocolOrder();
    expect([...ordered].sort()).toEqual(labels);
    for (const [i, label] of ordered.entries()) {
      const here = byLabel.get(label)!;
      for (const [method, row] of Object.entries(tables[label])) {
        const senders = here.get(method);
        const earlier = ordered.slice(0, i).filter((l) => byLabel.get(l)!.has(method));
        const later = ordered.slice(i + 1).filter((l) => byLabel.get(l)!.has(method));
        const expected = senders !== undefined ? "present" : earlier.length > 0 ? "removed" : later.length > 0 ? "later" : "extension";
        expect(row.status, `${label} ${method}`).toBe(expected);
        if (senders !== undefined) expect(row.sender, `${label} ${method}`).toBe(senders.size === 2 ? "both" : [...senders][0]);
        if (expected === "removed") expect(row.nearest).toBe(earlier[earlier.length - 1]);
        if (expected === "later") expect(row.nearest).toBe(later[0]);
      }
    }
  });

  it("verdicts: accepted exactly at the sides that receive a present method (its schema senders' peers); else -32601 with the reason, the policy that may lift it and the message its status gives", () => {
    type Verdict = { accepted: boolean; code?: number; reason?: string; message?: string; policy?: string | null };
    const byLabel = new Map(labels.map((l) => [l, schemaMethods(l)]));
    let refusals = 0;
    for (const [label, table] of Object.entries(tables)) {
      const [core] = label.split("+");
      for (const [method, r] of Object.entries(table)) {
        const row = r as typeof r & { verdicts: Record<"client" | "server", Verdict> };
        // Who sends it, read from the schema's unions (a method an extension module's extension defines: the row's sender).
        const own = label.includes("+") && row.status === "present" && (!byLabel.get(core)!.has(method) || extensionMethods(label).has(method));
        const senders = own ? new Set(row.sender === "both" ? ["client", "server"] : [row.sender]) : byLabel.get(core)!.get(method);
        for (const side of ["client", "server"] as const) {
          const v = row.verdicts[side];
          const receives = senders !== undefined && [...senders].some((s) => s !== side);
          if (row.status === "present" && receives) {
            expect(v, `${label} ${method} ${side}`).toEqual({ accepted: true });
            continue;
          }
          refusals++;
          const absent = `Method not found: ${method} is not a method of protocol version ${core}`;
          const expected =
            row.status === "present"
              ? { reason: "wrong_side", policy: null, message: `Method not found: ${method} is sent by the ${row.sender} only in protocol version ${core}` }
              : row.status === "removed"
                ? { reason: "removed", policy: null, message: `${absent} (removed after ${row.nearest})` }
                : row.status === "later"
                  ? { reason: "other_era", policy: "later", message: `${absent} (first in ${row.nearest})` }
                  : { reason: "unknown", policy: "custom", message: absent };
          expect(v, `${label} ${method} ${side}`).toEqual({ accepted: false, code: -32601, ...expected });
        }
      }
    }
    expect(refusals).toBeGreaterThan(0);
  });

  it("normalizer: { shape, resultTypes } for a present request (resultTypes the row's own), null for a notification or an absent method", () => {
    for (const [label, table] of Object.entries(tables)) {
      for (const [method, r] of Object.entries(table)) {
        const row = r as typeof r & { normalizer: { shape: string; resultTypes: string[] | null } | null; resultTypes: string[] | null };
        if (row.kind !== "request" || row.status !== "present") {
          expect(row.normalizer, `${label} ${method}`).toBeNull();
          continue;
        }
        expect(Object.keys(row.normalizer!).sort(), `${label} ${method}`).toEqual(["resultTypes", "shape"]);
        expect(["empty", "object"], `${label} ${method}`).toContain(row.normalizer!.shape);
        expect(row.normalizer!.resultTypes, `${label} ${method}`).toEqual(row.resultTypes);
      }
    }
  });

  it("taskResult: CreateTaskResult exactly for the requests whose params (read as plain JSON) declare task as a TaskMetadata, at versions defining CreateTaskResult; null elsewhere", () => {
    type Node = { $ref?: string; properties?: Record<string, Node>; allOf?: Node[]; anyOf?: Node[]; oneOf?: Node[] };
    let augmented = 0;
    for (const label of labels) {
      const schema = JSON.parse(readFileSync(path.join(schemasDir, label, "schema.json"), "utf8")) as { $defs?: Record<string, Node>; definitions?: Record<string, Node> };
      const defs = schema.$defs ?? schema.definitions ?? {};
      const deref = (n: Node): Node => (n.$ref === undefined ? n : deref(defs[n.$ref.split("/").pop()!]));
      // The `task` member of a params schema, looked for in it and every branch it combines.
      const taskOf = (n: Node | undefined): Node | undefined => {
        if (n === undefined) return undefined;
        const d = deref(n);
        return d.properties?.task ?? [...(d.allOf ?? []), ...(d.anyOf ?? []), ...(d.oneOf ?? [])].map(taskOf).find((t) => t !== undefined);
      };
      // Each request's params schema, from the ClientRequest and ServerRequest unions.
      // ...and the capabilities definition of its receiver (a client request's: the server's).
      const requests = new Map<string, Node>();
      const receiverCapabilities = new Map<string, string>();
      for (const [union, capabilities] of [["ClientRequest", "ServerCapabilities"], ["ServerRequest", "ClientCapabilities"]]) {
        const u = defs[union];
        for (const branch of u === undefined ? [] : (u.anyOf ?? u.oneOf ?? [u])) {
          const props = deref(branch).properties as Record<string, Node & { const?: string }>;
          if (props.params !== undefined) requests.set(props.method.const!, props.params);
          receiverCapabilities.set(props.method.const!, capabilities);
        }
      }
      const declaresPath = (definition: string, keys: string[]): boolean => {
        let at: Node | undefined = defs[definition];
        for (const key of keys) {
          at = at === undefined ? undefined : deref(at).properties?.[key];
          if (at === undefined) return false;
        }
        return true;
      };
      for (const [method, row] of Object.entries(tables[label])) {
        const task = row.kind === "request" && row.status === "present" ? taskOf(requests.get(method)) : undefined;
        const expected = task?.$ref?.endsWith("/TaskMetadata") === true && Object.hasOwn(defs, "CreateTaskResult") ? "CreateTaskResult" : null;
        expect(row.taskResult, `${label} ${method}`).toBe(expected);
        // The receiver's capabilities declare tasks.requests.<segments> to accept it as a task (tools/call: tasks.requests.tools.call).
        const path = ["tasks", "requests", ...method.split("/")];
        expect(row.taskCapability, `${label} ${method}`).toEqual(expected !== null && declaresPath(receiverCapabilities.get(method)!, path) ? path : null);
        if (expected !== null) augmented++;
      }
    }
    const anyTaskMetadata = labels.some((l) => readFileSync(path.join(schemasDir, l, "schema.json"), "utf8").includes('"TaskMetadata"'));
    expect(augmented > 0).toBe(anyTaskMetadata);
    // The extension modules add CreateTaskResult to results where the lock says so; their rows name no taskResult unless their own params carry task.
    for (const label of Object.keys(tables).filter((l) => l.includes("+"))) {
      for (const [method, row] of Object.entries(tables[label])) expect(row.taskResult, `${label} ${method}`).toBe(tables[label.split("+")[0]][method]?.taskResult ?? null);
    }
  });

  it("says paginated exactly for the requests whose params declare cursor and whose results declare nextCursor, read from the schemas", () => {
    type Def = { $ref?: string; properties?: Record<string, Def & { const?: string }>; allOf?: Def[] };
    let seen = 0;
    for (const label of labels) {
      const schema = JSON.parse(readFileSync(path.join(schemasDir, label, "schema.json"), "utf8")) as Record<string, Record<string, Def>>;
      const defs = schema.$defs ?? schema.definitions;
      const resolve = (d: Def | undefined): Def | undefined => (d?.$ref === undefined ? d : resolve(defs[d.$ref.split("/").pop()!]));
      const declares = (d: Def | undefined, name: string): boolean => {
        const r = resolve(d);
        return r !== undefined && (Object.hasOwn(r.properties ?? {}, name) || (r.allOf ?? []).some((p) => declares(p, name)));
      };
      // Each request definition by the method it fixes.
      const requestDefs = new Map<string, Def>();
      for (const d of Object.values(defs)) {
        const method = d.properties?.method?.const;
        if (method !== undefined && !requestDefs.has(method)) requestDefs.set(method, d);
      }
      for (const [method, row] of Object.entries(tables[label]) as unknown as Array<[string, { kind: string; status: string; results: string[] | null; paginated: boolean }]>) {
        if (row.status !== "present" || row.kind !== "request") {
          expect(row.paginated, `${label} ${method}`).toBe(false);
          continue;
        }
        const expected = declares(requestDefs.get(method)?.properties?.params, "cursor") && row.results!.length > 0 && row.results!.every((r) => declares(defs[r], "nextCursor"));
        expect(row.paginated, `${label} ${method}`).toBe(expected);
        if (method === "tools/list") expect(row.paginated, `${label} tools/list`).toBe(true);
        if (method === "roots/list") expect(row.paginated, `${label} roots/list`).toBe(false);
        if (row.paginated) seen++;
      }
    }
    expect(seen, "some locked version has a paginated request").toBeGreaterThan(0);
  });

  it("regression: draft's removed methods include initialize and ping (every version without the handshake after one with it)", () => {
    const byLabel = new Map(labels.map((l) => [l, schemaMethods(l)]));
    const after = labels.filter((l, i) => !byLabel.get(l)!.has("initialize") && labels.slice(0, i).some((e) => byLabel.get(e)!.has("initialize")));
    expect(after.length, "a locked version without initialize after one with it").toBeGreaterThan(0);
    for (const label of after) {
      const removed = Object.entries(tables[label]).filter(([, r]) => r.status === "removed").map(([m]) => m);
      const gone = ["initialize", "ping"].filter((m) => !byLabel.get(label)!.has(m));
      expect(removed, label).toEqual(expect.arrayContaining(gone));
      expect(gone).toContain("initialize");
    }
  });

  it("--versions keeps those entries (and the extension modules layered onto them); --help names every column", async () => {
    // The label with an extension module if there is one, else the newest.
    const label = labels.find((l) => Object.hasOwn(tables, `${l}+tasks`)) ?? labels[labels.length - 1];
    const r = await runCli(["table", "--versions", label, "--format", "json"]);
    expect(r.status).toBe(0);
    const picked = JSON.parse(r.stdout) as Tables;
    expect(Object.keys(picked)).toEqual(Object.keys(tables).filter((l) => l === label || l.startsWith(`${label}+`)));
    expect(picked[label]).toEqual(tables[label]);
    const help = await runCli(["table", "--help"]);
    for (const column of ["kind", "status", "nearest", "otherEra", "extensions", "receivers", "params", "results", "normalizer", "resultTypes", "capabilities", "nameParam", "taskResult", "taskCapability", "paginated"]) expect(help.stdout).toContain(column);
    const md = await runCli(["table", "--versions", label]);
    expect(md.stdout).toContain(`## ${label}\n`);
    const [method, row] = Object.entries(tables[label]).find(([, r]) => r.status === "removed") ?? Object.entries(tables[label])[0];
    expect(md.stdout).toContain(`| \`${method}\` | ${row.status === "removed" ? "removed since" : row.status}`);
  });

  it("refuses an unknown label with exit 2", async () => {
    const r = await runCli(["table", "--versions", "no-such-version"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("no-such-version");
  });
});

describe("every target's METHOD_TABLE equals the CLI's table", () => {
  it("TypeScript: METHOD_TABLE of generated/<label>/methods.ts, for every version and extension module", async () => {
    for (const label of Object.keys(tables)) {
      const mod = (await import(pathToFileURL(path.join(generatedDir, label, "methods.ts")).href)) as { METHOD_TABLE: unknown };
      expect(JSON.parse(JSON.stringify(mod.METHOD_TABLE)), label).toEqual(tables[label]);
    }
  });

  it("Ruby: the frozen Hash METHOD_TABLE of each version module, for every version and extension module", () => {
    const script = [
      'require "json"',
      'require "mcp_codegen"',
      "out = {}",
      `${JSON.stringify(Object.keys(tables).map((l) => [l, moduleConstant(l)]))}.each do |label, constant|`,
      "  table = McpCodegen.const_get(constant)::METHOD_TABLE",
      '  raise "#{label}: not deeply frozen" unless table.frozen? && table.values.all? { |r| r.frozen? && r.values.all? { |v| !v.is_a?(Array) && !v.is_a?(Hash) || v.frozen? } }',
      "  out[label] = table",
      "end",
      "puts JSON.generate(out)",
    ].join("\n");
    const r = ruby(["-e", script]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(tables);
  });

  it("Python: the read-only Mapping METHOD_TABLE of each version module", () => {
    const core = Object.keys(tables).filter((l) => !l.includes("+"));
    const script = [
      "import importlib, json, sys",
      "from types import MappingProxyType",
      "def thaw(v):",
      "    if isinstance(v, MappingProxyType):",
      "        return {k: thaw(x) for k, x in v.items()}",
      "    if isinstance(v, tuple):",
      "        return [thaw(x) for x in v]",
      "    assert not isinstance(v, (dict, list)), v",
      "    return v",
      "out = {}",
      `for label, module in ${JSON.stringify(core.map((l) => [l, moduleName(l)]))}:`,
      "    table = importlib.import_module('mcp_codegen.' + module).METHOD_TABLE",
      "    assert isinstance(table, MappingProxyType)",
      "    out[label] = thaw(table)",
      "print(json.dumps(out))",
    ].join("\n");
    const r = python("python", ["-c", script]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(Object.fromEntries(core.map((l) => [l, tables[l]])));
  });
});
