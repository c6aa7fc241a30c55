// The scenario files (test/scenarios/<kind>/*.json), checked against scenario.schema.json (Ajv), and
// expanded into concrete cases: each scenario at every locked version that has the properties it names,
// the methods it picks read from that version's schema (facts.ts), and {version}, {method}, {nearest},
// {result} filled in. The expected answers stay the scenario's data: nothing here runs a runtime.
// Drivers receive the cases as JSON (stdin for Python and Ruby), so a new language's driver only runs them.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import { requestMeta } from "../request-meta.js";
import { clientNotifications, declares, definitions, emptyResultIsBare, eraOf, extensionAdds, extensionCores, type ExtensionAdds, requestMetaKeys, lockExtensions, lockLabels, methods, requestDefinition, protocolOrder, requests, resultNames, resultRequiresResultType, schemaDefinesBatches } from "./facts.js";

export const scenariosDir = path.dirname(fileURLToPath(import.meta.url));
export const KINDS = ["gate", "normalize", "stdio", "http", "projections"] as const;
export type Kind = (typeof KINDS)[number];

type Policy = { custom: "pass" | "refuse"; later: "pass" | "refuse" };
export interface Scenario {
  name: string;
  spec: string;
  kind: Kind;
  versions: { era?: "legacy" | "modern" | "any"; batches?: boolean; resultType?: boolean; emptyResult?: boolean; sends?: string; serverSends?: string; notifies?: string; meta?: string; extension?: string; defines?: string; declares?: Record<string, boolean>; newest?: "legacy" | "modern"; latest?: boolean };
  pick?: "clientRequest" | "serverOnlyRequest" | "clientOnlyRequest" | "removed" | "later" | "custom" | "extensionRequest" | "extensionNotification" | "extensionMethod";
  /** gate: the modules a case runs in: the version's own (`core`, the default) and each extension module the lock has for it (`extension`). */
  modules?: Array<"core" | "extension">;
  side?: "client" | "server";
  policy?: Policy;
  expect?: unknown;
  methods?: string[];
  cases?: Array<{ input: unknown; expect: unknown; why?: string }>;
  steps?: Array<{ send: unknown; expect: unknown[]; why?: string }>;
  server?: Server;
  exchanges?: Array<{ request: HttpRequest<unknown>; expect: HttpAnswer; why?: string } | { read: string; expect: HttpRead; why?: string }>;
}

/** The scenario server's options an http scenario names (docs/scenarios.md, "The scenario server"). */
export interface Server {
  /** The resource-server role, with the scenario tokens. */
  auth?: boolean;
  /** The Tasks extension at the case's version (with the task tools). */
  tasks?: boolean;
}

/** An HTTP request of a scenario (`body` a JSON value, or {"$raw": text}); a concrete case's body is its text. */
export interface HttpRequest<Body> {
  method: string;
  path?: string;
  headers?: Record<string, string | null>;
  body?: Body;
  /** Send the Mcp-Session-Id the last answer carrying one gave. */
  session?: boolean;
  /** Keep the answer's stream open under this name, for later `read` steps (the next request goes at once). */
  stream?: string;
}

/** What a named stream carried since it was last read: its SSE events' data, and whether the server has ended it. */
export interface HttpRead {
  events: unknown[];
  ended: boolean;
}

/** What an HTTP request is answered: the status, the headers that matter (at least these), and the body as JSON, or its SSE events' data, or its text. */
export interface HttpAnswer {
  status: number;
  headers?: Record<string, unknown>;
  body?: unknown;
  events?: unknown[];
  text?: string;
}

/** One concrete case, as every driver receives it. */
export type Case =
  | { id: string; scenario: string; kind: "gate"; version: string; module: string; extension: string | null; method: string; side: "client" | "server"; policy: Policy; expect: unknown }
  | { id: string; scenario: string; kind: "normalize"; version: string; method: string; input: unknown; expect: unknown }
  | { id: string; scenario: string; kind: "stdio"; version: string; lines: string[]; expect: unknown[][] }
  | { id: string; scenario: string; kind: "projections"; version: string; lines: string[]; expect: unknown[][] }
  | { id: string; scenario: string; kind: "http"; version: string; server: Server; requests: Array<HttpRequest<string> | { read: string }>; expect: Array<HttpAnswer | HttpRead> };

/** The custom methods of the gate scenarios: names no version has, the empty one and names a JavaScript object inherits among them. */
export const CUSTOM_METHODS = ["x-vendor/custom", "no/such", "", "__proto__", "constructor", "toString", "tools/call/", "TOOLS/LIST", "ünïcode/メソッド"];

/** Every scenario file, checked against the format; a file that fails names itself and the JSON pointer. */
export function loadScenarios(): Scenario[] {
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validate = ajv.compile(JSON.parse(readFileSync(path.join(scenariosDir, "scenario.schema.json"), "utf8")) as object);
  const out: Scenario[] = [];
  for (const kind of KINDS) {
    for (const file of readdirSync(path.join(scenariosDir, kind)).filter((f) => f.endsWith(".json")).sort()) {
      const where = `test/scenarios/${kind}/${file}`;
      const scenario = JSON.parse(readFileSync(path.join(scenariosDir, kind, file), "utf8")) as Scenario;
      if (!validate(scenario)) throw new Error(`${where}: ${validate.errors!.map((e) => `${e.instancePath || "/"} ${e.message}`).join("; ")}`);
      if (scenario.kind !== kind) throw new Error(`${where}: kind "${scenario.kind}" in the ${kind}/ folder`);
      if (`${scenario.name}.json` !== file) throw new Error(`${where}: name "${scenario.name}" is not the file's`);
      out.push(scenario);
    }
  }
  return out;
}

/** The locked labels with the properties a scenario names, in protocol order (`latest`: the newest of them). */
export function versionsOf(scenario: Scenario): string[] {
  const v = scenario.versions;
  const all = protocolOrder.filter(
    (label) =>
      (v.era === undefined || v.era === "any" || eraOf(label) === v.era) &&
      (v.batches === undefined || schemaDefinesBatches(label) === v.batches) &&
      (v.resultType === undefined || resultRequiresResultType(label) === v.resultType) &&
      (v.emptyResult === undefined || emptyResultIsBare(label) === v.emptyResult) &&
      (v.sends === undefined || requests(label).client.includes(v.sends)) &&
      (v.serverSends === undefined || requests(label).server.includes(v.serverSends)) &&
      (v.notifies === undefined || clientNotifications(label).includes(v.notifies)) &&
      (v.meta === undefined || requestMetaKeys(label).includes(v.meta)) &&
      (v.extension === undefined || extensionCores(v.extension).includes(label)) &&
      (v.defines === undefined || Object.hasOwn(definitions(label), v.defines)) &&
      Object.entries(v.declares ?? {}).every(([what, yes]) => declares(label, what) === yes) &&
      (v.newest === undefined || eraOf(protocolOrder.at(-1)!) === v.newest),
  );
  return v.latest === true ? all.slice(-1) : all;
}

/**
 * A message to send with its `{"$envelope": label, "capabilities": {...}, "extra": {...}}` objects replaced
 * by the `_meta` a modern request at that label carries: the keys its schema requires (test/request-meta.ts
 * reads them from schemas/<label>/schema.json; a label the lock lacks gets the two routing keys), the client
 * capabilities given (default none), then `extra`.
 */
export function envelopes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(envelopes);
  if (typeof value !== "object" || value === null) return value;
  const o = value as Record<string, unknown>;
  if (typeof o.$envelope === "string") return requestMeta(o.$envelope, (o.capabilities ?? {}) as Record<string, unknown>, (o.extra ?? {}) as Record<string, unknown>);
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, envelopes(v)]));
}

/** `value` with {name} placeholders of its strings filled from `vars` (an unknown placeholder is an error). */
export function fill(value: unknown, vars: Record<string, string>): unknown {
  if (typeof value === "string") {
    return value.replace(/\{(version|method|nearest|result)\}/g, (_m, name: string) => {
      if (vars[name] === undefined) throw new Error(`no value for {${name}} in ${JSON.stringify(value)}`);
      return vars[name];
    });
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, vars));
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, vars)]));
  return value;
}

/** A module a gate case runs in: a core version, or an extension layered onto it (`<core>+<name>`), with its methods by side. */
interface Module {
  label: string;
  extension: ExtensionAdds | undefined;
  methods: Set<string>;
  client: string[];
  server: string[];
  /**
   * Core methods the extension's definitions replace and do not add again (a core with Tasks of its own, after
   * a bump): no case asks about them. The module's table has them no more; Ruby's Gate, serving the extension,
   * answers them as the core version does (its documented contract), so the runtimes differ there.
   */
  unsettled: string[];
}

/** The version's own module, or the extension's layered onto it: the core's methods but those the extension's definitions replace, and the extension's. */
function moduleOf(label: string, extension?: ExtensionAdds): Module {
  const { client, server } = requests(label);
  if (extension === undefined) return { label, extension, methods: methods(label), client, server, unsettled: [] };
  const kept = (ms: Iterable<string>) => [...ms].filter((m) => !extension.replaced.includes(m));
  const added = [...extension.requests, ...extension.notifications];
  return {
    label: `${label}+${extension.name}`,
    extension,
    methods: new Set([...kept(methods(label)), ...added]),
    client: [...kept(client), ...extension.requests],
    server: kept(server),
    unsettled: extension.replaced.filter((m) => !added.includes(m)),
  };
}

/** The modules a gate scenario's cases run in at `label`. */
function modulesOf(scenario: Scenario, label: string): Module[] {
  const wanted = scenario.modules ?? ["core"];
  const extensions = lockExtensions.filter((n) => scenario.versions.extension === undefined || n === scenario.versions.extension).flatMap((n) => extensionAdds(n, label) ?? []);
  return [...(wanted.includes("core") ? [moduleOf(label)] : []), ...(wanted.includes("extension") ? extensions.map((x) => moduleOf(label, x)) : [])];
}

/** Methods a locked extension adds (at any core version) that no locked core version has. */
function extensionOnlyMethods(): string[] {
  const added = lockExtensions.flatMap((n) => lockLabels.flatMap((l) => extensionAdds(n, l) ?? []).flatMap((x) => [...x.requests, ...x.notifications]));
  return [...new Set(added)].filter((m) => !lockLabels.some((l) => methods(l).has(m))).sort();
}

/** The methods a gate scenario picks in a module of version `label`, each with its {nearest} where the pick has one. */
export function picks(scenario: Scenario, label: string, module: Module = moduleOf(label)): Array<{ method: string; nearest?: string }> {
  return picked(scenario, label, module).filter((p) => !module.unsettled.includes(p.method));
}

function picked(scenario: Scenario, label: string, module: Module): Array<{ method: string; nearest?: string }> {
  const { client, server, methods: here } = module;
  // Earlier and later in protocol order, as the method table's `removed` and `later` rows say.
  const index = protocolOrder.indexOf(label);
  const earlier = protocolOrder.slice(0, index);
  const later = protocolOrder.slice(index + 1);
  const elsewhere = new Set([...earlier, ...later].flatMap((l) => [...methods(l)]));
  switch (scenario.pick) {
    case "clientRequest":
      return client.map((method) => ({ method }));
    case "serverOnlyRequest":
      return server.filter((m) => !client.includes(m)).map((method) => ({ method }));
    case "clientOnlyRequest":
      return client.filter((m) => !server.includes(m)).map((method) => ({ method }));
    case "removed":
      // Absent here, present in an earlier version: removed after the newest earlier one that has it.
      return [...elsewhere].sort().flatMap((method) => {
        const nearest = earlier.filter((l) => methods(l).has(method)).at(-1);
        return here.has(method) || nearest === undefined ? [] : [{ method, nearest }];
      });
    case "later":
      // Absent here and in every earlier version: first in the oldest later one that has it.
      return [...elsewhere].sort().flatMap((method) => {
        const nearest = later.find((l) => methods(l).has(method));
        return here.has(method) || nearest === undefined || earlier.some((l) => methods(l).has(method)) ? [] : [{ method, nearest }];
      });
    case "custom":
      return CUSTOM_METHODS.filter((method) => !here.has(method) && ![...lockLabels].some((l) => methods(l).has(method))).map((method) => ({ method }));
    case "extensionRequest":
      return (module.extension?.requests ?? []).map((method) => ({ method }));
    case "extensionNotification":
      return (module.extension?.notifications ?? []).map((method) => ({ method }));
    case "extensionMethod":
      // A method only an extension has is a custom method to a module without that extension.
      return extensionOnlyMethods().filter((m) => !here.has(m)).map((method) => ({ method }));
    default:
      throw new Error(`${scenario.name}: no pick`);
  }
}

/** A message as the text sent: JSON, or as it is for {"$raw": text}. */
function text(send: unknown): string {
  const raw = typeof send === "object" && send !== null && !Array.isArray(send) && Object.keys(send).length === 1 ? (send as { $raw?: unknown }).$raw : undefined;
  return typeof raw === "string" ? raw : JSON.stringify(send);
}

/** A scenario's concrete cases at every version it names (none when the lock has no such version). */
export function expand(scenario: Scenario): Case[] {
  const cases: Case[] = [];
  for (const version of versionsOf(scenario)) {
    const base = { scenario: scenario.name, version };
    if (scenario.kind === "gate") {
      for (const module of modulesOf(scenario, version)) {
        for (const { method, nearest } of picks(scenario, version, module)) {
          const vars = { version, method, ...(nearest === undefined ? {} : { nearest }) };
          const where = { module: module.label, extension: module.extension?.identifier ?? null };
          cases.push({ ...base, ...where, id: `${scenario.name} @ ${module.label} ${method}`, kind: "gate", method, side: scenario.side!, policy: scenario.policy!, expect: fill(scenario.expect, vars) });
        }
      }
    } else if (scenario.kind === "normalize") {
      for (const method of scenario.methods!.filter((m) => requests(version).client.includes(m))) {
        const vars = { version, method, result: resultNames(version, method).join(" | ") };
        scenario.cases!.forEach((c, i) => {
          cases.push({ ...base, id: `${scenario.name} @ ${version} ${method} #${i}`, kind: "normalize", method, input: c.input, expect: fill(c.expect, vars) });
        });
      }
    } else if (scenario.kind === "stdio" || scenario.kind === "projections") {
      const vars = { version };
      const lines = scenario.steps!.map((s) => text(envelopes(fill(s.send, vars))));
      cases.push({ ...base, id: `${scenario.name} @ ${version}`, kind: scenario.kind, lines, expect: scenario.steps!.map((s) => fill(s.expect, vars) as unknown[]) });
    } else {
      const vars = { version };
      const requests = scenario.exchanges!.map((e): HttpRequest<string> | { read: string } => {
        if (!("request" in e)) return { read: e.read };
        const { body, ...r } = fill(e.request, vars) as HttpRequest<unknown>;
        return { ...r, ...(body === undefined ? {} : { body: text(envelopes(body)) }) };
      });
      // The headers named are those that matter: an answer carries at least these.
      const expect = scenario.exchanges!.map((e) => ("request" in e ? { ...(fill(e.expect, vars) as HttpAnswer), headers: { $subset: fill(e.expect.headers ?? {}, vars) } } : (fill(e.expect, vars) as HttpRead)));
      cases.push({ ...base, id: `${scenario.name} @ ${version}`, kind: "http", server: scenario.server ?? {}, requests, expect });
    }
  }
  return cases;
}
