// Protocol facts the scenarios pick their versions and methods by, read from the pinned schemas
// (schemas/<label>/schema.json, the labels of schemas/lock.json) and nothing else: no runtime and no
// generated code decides which version batches, which side sends a method, or what a version removed.
// A scenario names a property ("a legacy version whose schema defines batches"); these functions say
// which locked labels have it, so the suite follows the lock through a bump.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { lockFile, lockedProtocolOrder, schemasDir } from "../support.js";

type Schema = { $ref?: string; anyOf?: Schema[]; oneOf?: Schema[]; allOf?: Schema[]; type?: string | string[]; properties?: Record<string, Schema>; const?: unknown; required?: string[] };
interface Lock {
  versions: Record<string, unknown>;
  extensions?: Record<string, { identifier: string; versions: Record<string, { core: string[] }> }>;
}

const lock = JSON.parse(readFileSync(lockFile, "utf8")) as Lock;
const cache = new Map<string, Record<string, Schema>>();

/** The core labels of the lock, in the order the tests sort them (dates, then named drafts). */
export const lockLabels: readonly string[] = Object.keys(lock.versions).sort();

/** The definitions of a version's schema (`definitions` or `$defs`). */
export function definitions(label: string): Record<string, Schema> {
  let defs = cache.get(label);
  if (defs === undefined) {
    const doc = JSON.parse(readFileSync(path.join(schemasDir, label, "schema.json"), "utf8")) as { definitions?: Record<string, Schema>; $defs?: Record<string, Schema> };
    defs = doc.$defs ?? doc.definitions ?? {};
    cache.set(label, defs);
  }
  return defs;
}

const refName = (s: Schema): string | undefined => s.$ref?.replace(/^#\/(\$defs|definitions)\//, "");

/** The `method` const a message definition fixes, in its own properties or an `allOf` branch's. */
function methodConst(def: Schema | undefined): string | undefined {
  const own = def?.properties?.method?.const;
  if (typeof own === "string") return own;
  for (const branch of def?.allOf ?? []) {
    const m = branch.properties?.method?.const;
    if (typeof m === "string") return m;
  }
  return undefined;
}

/** Legacy: the schema defines the `initialize` handshake (InitializeRequest); modern: it does not (requests carry their version in `_meta`). */
export function eraOf(label: string): "legacy" | "modern" {
  return Object.hasOwn(definitions(label), "InitializeRequest") ? "legacy" : "modern";
}

/** The schema defines JSON-RPC batches: a JSONRPCBatchRequest definition, or an array arm of JSONRPCMessage. */
export function schemaDefinesBatches(label: string): boolean {
  const defs = definitions(label);
  if (Object.hasOwn(defs, "JSONRPCBatchRequest")) return true;
  return (defs.JSONRPCMessage?.anyOf ?? []).some((arm) => arm.type === "array" || (refName(arm) !== undefined && defs[refName(arm)!]?.type === "array"));
}

/** The `method` consts of the arms of a union definition (ClientRequest, ServerNotification, ...); none when the schema lacks it. */
function unionMethods(label: string, union: string): string[] {
  const defs = definitions(label);
  const out: string[] = [];
  const def = defs[union];
  // A union of one member may be that member itself (the modern ClientNotification is a $ref to CancelledNotification).
  for (const arm of def === undefined ? [] : (def.anyOf ?? [def])) {
    const target = refName(arm) === undefined ? arm : defs[refName(arm)!];
    const method = target?.properties?.method?.const;
    if (typeof method === "string") out.push(method);
  }
  return out;
}

/** Requests each side sends at `label` (ClientRequest's and ServerRequest's arms). */
export function requests(label: string): { client: string[]; server: string[] } {
  return { client: unionMethods(label, "ClientRequest"), server: unionMethods(label, "ServerRequest") };
}

/** The `_meta` keys a request's params may carry at `label` (RequestParams' `_meta`, RequestMetaObject's properties). */
export function requestMetaKeys(label: string): string[] {
  const defs = definitions(label);
  const resolve = (s: Schema | undefined): Schema | undefined => (s === undefined || refName(s) === undefined ? s : defs[refName(s)!]);
  return Object.keys(resolve(resolve(defs.RequestParams)?.properties?._meta)?.properties ?? {});
}

/** Notifications the client sends at `label` (ClientNotification's arms). */
export function clientNotifications(label: string): string[] {
  return unionMethods(label, "ClientNotification");
}

/** Every method of `label`: requests and notifications of either side. */
export function methods(label: string): Set<string> {
  return new Set(["ClientRequest", "ServerRequest", "ClientNotification", "ServerNotification"].flatMap((u) => unionMethods(label, u)));
}

/** The version's Result requires `resultType` (the modern result envelope: "Servers implementing this protocol version MUST include this field"). */
export function resultRequiresResultType(label: string): boolean {
  return (definitions(label).Result?.required ?? []).includes("resultType");
}

/** The name of the request definition of `method` at `label` (`ListToolsRequest` for tools/list). */
export function requestDefinition(label: string, method: string): string | undefined {
  return Object.entries(definitions(label)).find(([name, def]) => name.endsWith("Request") && def.properties?.method?.const === method)?.[0];
}

/** The core labels the lock has a version of the extension `name` for (its `core` lists, locked labels only). */
export function extensionCores(name: string): string[] {
  const versions = Object.values(lock.extensions?.[name]?.versions ?? {});
  return lockLabels.filter((l) => versions.some((v) => v.core.includes(l)));
}

/** The member names a definition declares, its own and those it takes by `$ref` and `allOf`; null when it is a union (`anyOf`/`oneOf`). */
function members(label: string, name: string, seen = new Set<string>()): Set<string> | null {
  const defs = definitions(label);
  const out = new Set<string>();
  const walk = (s: Schema | undefined): boolean => {
    if (s === undefined) return true;
    if (s.anyOf !== undefined || s.oneOf !== undefined) return false;
    for (const k of Object.keys(s.properties ?? {})) out.add(k);
    const target = refName(s);
    if (target !== undefined && !seen.has(target)) {
      seen.add(target);
      if (!walk(defs[target])) return false;
    }
    return (s.allOf ?? []).every(walk);
  };
  return walk(defs[name]) ? out : null;
}

/**
 * The version's empty result (`EmptyResult`, else `Result`: what ping, logging/setLevel and resources/(un)subscribe
 * answer with) declares no member but `_meta`. Not so in a revision whose `Result` carries another member (a legacy
 * draft with `result_type`): there those results are objects like any other.
 */
export function emptyResultIsBare(label: string): boolean {
  const found = members(label, Object.hasOwn(definitions(label), "EmptyResult") ? "EmptyResult" : "Result");
  return found !== null && [...found].every((k) => k === "_meta");
}

/**
 * The results `method` may answer with at `label`, as its response declaration names them: the `result` of
 * `<Base>ResultResponse` (else `<Base>Response`), a reference or a union of references, in order; else
 * `<Base>Result` (what `{result}` in a scenario's message stands for, joined by " | ").
 */
export function resultNames(label: string, method: string): string[] {
  const defs = definitions(label);
  const base = requestDefinition(label, method)!.replace(/Request$/, "");
  const response = defs[`${base}ResultResponse`] ?? defs[`${base}Response`];
  const declared = response?.properties?.result ?? (response !== undefined && refName(response) !== undefined ? response : undefined);
  const arms = declared === undefined ? [] : (declared.anyOf ?? [declared]);
  const names = arms.map(refName);
  return names.length > 0 && names.every((n) => n !== undefined) ? (names as string[]) : [`${base}Result`];
}

/** The locked labels in protocol order, the newest last (test/support.ts: the model's rule applied to the schema files). */
export const protocolOrder: readonly string[] = lockedProtocolOrder();

/**
 * Whether the version's schema declares `what`: a definition (`ResourceLink`), or a member of one
 * (`ListToolsResult/ttlMs`: its own properties and those it takes by `$ref` and `allOf`).
 */
export function declares(label: string, what: string): boolean {
  const [definition, member] = what.split("/");
  if (!Object.hasOwn(definitions(label), definition)) return false;
  return member === undefined || (members(label, definition)?.has(member) ?? false);
}
/** An extension module (`<core>+<name>`): what the extension's schema adds to its core version, read as the model's rules say (docs/scenarios.md). */
export interface ExtensionAdds {
  /** The extension's name in the lock, and the identifier negotiated under `capabilities.extensions`. */
  name: string;
  identifier: string;
  /** The requests it adds (the client sends them) and its notifications (the server sends them). */
  requests: string[];
  notifications: string[];
  /** The core's methods whose definitions the extension's replace (they leave the core's unions). */
  replaced: string[];
}

/**
 * What the locked extension `name` adds at core version `label` (undefined when the lock has none for it), from
 * schemas/extensions/<name>/<version>/: its own definitions are those its schema.ts declares and those its
 * schema.json defines that the core's does not; its requests are the own ones built on `JSONRPCRequest` (an
 * `allOf` with that `$ref`) fixing `method`, its notifications likewise on `JSONRPCNotification`.
 */
export function extensionAdds(name: string, label: string): ExtensionAdds | undefined {
  const ext = lock.extensions?.[name];
  const version = Object.entries(ext?.versions ?? {}).find(([, v]) => v.core.includes(label))?.[0];
  if (ext === undefined || version === undefined) return undefined;
  const dir = path.join(schemasDir, "extensions", name, version);
  const doc = JSON.parse(readFileSync(path.join(dir, "schema.json"), "utf8")) as { definitions?: Record<string, Schema>; $defs?: Record<string, Schema> };
  const defs = doc.$defs ?? doc.definitions ?? {};
  const ts = path.join(dir, "schema.ts");
  const declared = new Set(existsSync(ts) ? [...readFileSync(ts, "utf8").matchAll(/^(?:export )?(?:interface|type) (\w+)/gm)].map((m) => m[1]) : []);
  const core = definitions(label);
  const own = Object.keys(defs).filter((d) => !Object.hasOwn(core, d) || declared.has(d));
  const on = (def: Schema, envelope: string) => (def.allOf ?? []).some((b) => refName(b) === envelope);
  const adds = (envelope: string) => own.filter((d) => on(defs[d], envelope)).flatMap((d) => methodConst(defs[d]) ?? []).sort();
  const replaced = own.filter((d) => Object.hasOwn(core, d)).flatMap((d) => methodConst(core[d]) ?? []);
  return { name, identifier: ext.identifier, requests: adds("JSONRPCRequest"), notifications: adds("JSONRPCNotification"), replaced };
}

/** The names of the lock's extensions. */
export const lockExtensions: readonly string[] = Object.keys(lock.extensions ?? {}).sort();
