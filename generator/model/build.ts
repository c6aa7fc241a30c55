// The model pass: a loaded schema → the version's model (era, method catalogue, result shapes).
// Methods come only from the ClientRequest / ServerRequest / ClientNotification /
// ServerNotification unions; a `method` literal anywhere else is not a method of the version.
import { InputError, pointer } from "../errors.js";
import { refName } from "../spec/load.js";
import type { ResultOverride } from "./overrides.js";
import type {
  Era,
  JsonSchema,
  LoadedSpec,
  MethodParams,
  NotificationMethod,
  RequestMethod,
  ResultShape,
  Sender,
  VersionModel,
} from "./types.js";
import { byCodeUnit } from "../order.js";
import { ANNOTATION_KEYWORDS, MAP_KEYWORDS } from "./keywords.js";

const UNIONS = [
  { union: "ClientRequest", kind: "request", sender: "client", required: true },
  { union: "ServerRequest", kind: "request", sender: "server", required: false },
  { union: "ClientNotification", kind: "notification", sender: "client", required: false },
  { union: "ServerNotification", kind: "notification", sender: "server", required: false },
] as const;

interface Member {
  method: string;
  definition: string;
  schema: JsonSchema;
  union: string;
}

export interface BuildOptions {
  specCommit: string | null;
  overrides?: ResultOverride[];
}

export function buildVersionModel(spec: LoadedSpec, options: BuildOptions): VersionModel {
  const at = (...tokens: Array<string | number>) => pointer(spec.container, ...tokens);
  const fail = (message: string, ...tokens: Array<string | number>): never => {
    throw new InputError(message, spec.file, at(...tokens));
  };

  const collected = { request: new Map<string, { member: Member; senders: Set<"client" | "server"> }>(), notification: new Map<string, { member: Member; senders: Set<"client" | "server"> }>() };
  for (const u of UNIONS) {
    const unionDef = spec.defs[u.union];
    if (unionDef === undefined) {
      if (u.required) fail(`expected a ${u.union} definition: the union of the ${u.kind}s a ${u.sender} sends`, u.union);
      continue;
    }
    const seen = new Map<string, string>();
    for (const member of unionMembers(spec, u.union, fail)) {
      const previous = seen.get(member.method);
      if (previous !== undefined) {
        fail(`two ${u.kind}s in ${u.union} have the method "${member.method}" (${previous} and ${member.definition}); expected each method once`, u.union);
      }
      seen.set(member.method, member.definition);
      const entry = collected[u.kind].get(member.method);
      if (entry === undefined) {
        collected[u.kind].set(member.method, { member, senders: new Set([u.sender]) });
      } else if (entry.member.definition !== member.definition) {
        fail(`method "${member.method}" is ${entry.member.definition} in ${entry.member.union} but ${member.definition} in ${u.union}; expected one definition per method`, u.union);
      } else {
        entry.senders.add(u.sender);
      }
    }
  }

  const era: Era = collected.request.has("initialize") ? "legacy" : "modern";
  const sender = (s: Set<"client" | "server">): Sender => (s.size === 2 ? "both" : [...s][0]);
  const byMethod = (a: { method: string }, b: { method: string }) => byCodeUnit(a.method, b.method);

  const requests: RequestMethod[] = [...collected.request.values()]
    .map(({ member, senders }) => {
      const override = (options.overrides ?? []).find(
        (o) => o.method === member.method && (o.versions === "*" || o.versions.includes(spec.label)),
      );
      const mapping = resultMapping(spec, member, override, fail);
      return {
        kind: "request" as const,
        method: member.method,
        sender: sender(senders),
        definition: member.definition,
        params: paramsOf(member),
        results: mapping.results,
        resultType: {
          ts: mapping.results.join(" | "),
          definition: mapping.results.length === 1 ? mapping.results[0] : null,
          refs: [...new Set(mapping.results)].sort(),
        },
        resultShape: override?.resultShape ?? resultShape(spec, mapping.results, era),
        resultSource: mapping.source,
      };
    })
    .sort(byMethod);

  const notifications: NotificationMethod[] = [...collected.notification.values()]
    .map(({ member, senders }) => ({
      kind: "notification" as const,
      method: member.method,
      sender: sender(senders),
      definition: member.definition,
      params: paramsOf(member),
    }))
    .sort(byMethod);

  const definitions: Record<string, JsonSchema> = {};
  for (const name of Object.keys(spec.defs).sort()) definitions[name] = spec.defs[name];

  return {
    label: spec.label,
    era,
    dialect: spec.dialect,
    sha256: spec.sha256,
    specCommit: options.specCommit,
    patches: spec.patches,
    definitions,
    requests,
    notifications,
  };
}

/** The members of a union definition: `anyOf`/`oneOf` of refs, a single ref, or one inline message schema. */
function unionMembers(spec: LoadedSpec, union: string, fail: (m: string, ...t: Array<string | number>) => never): Member[] {
  const def = spec.defs[union];
  const branches = Array.isArray(def.anyOf) ? { key: "anyOf", list: def.anyOf } : Array.isArray(def.oneOf) ? { key: "oneOf", list: def.oneOf } : null;
  const entries: Array<{ node: JsonSchema; tokens: Array<string | number> }> = branches
    ? branches.list.map((node, i) => ({ node: node as JsonSchema, tokens: [union, branches.key, i] }))
    : [{ node: def, tokens: [union] }];

  return entries.map(({ node, tokens }) => {
    let definition: string;
    let schema: JsonSchema;
    let where: Array<string | number>;
    if (typeof node.$ref === "string") {
      definition = refName(node.$ref);
      schema = spec.defs[definition];
      where = [definition];
    } else {
      // An inline message: name it after the definition it repeats, else after the union.
      definition = sameAsDefinition(spec, node, union) ?? union;
      schema = node;
      where = tokens;
    }
    const methodSchema = (schema.properties as Record<string, JsonSchema> | undefined)?.method;
    const method =
      typeof methodSchema?.const === "string"
        ? methodSchema.const
        : Array.isArray(methodSchema?.enum) && methodSchema.enum.length === 1 && typeof methodSchema.enum[0] === "string"
          ? methodSchema.enum[0]
          : undefined;
    if (method === undefined) fail(`expected ${definition} to fix its method with a string "const"`, ...where, "properties", "method");
    return { method: method as string, definition, schema, union };
  });
}

/** A schema without its annotations, keys sorted (property names are names, not keywords). */
function withoutAnnotations(node: unknown, inMap = false): unknown {
  if (Array.isArray(node)) return node.map((n) => withoutAnnotations(n));
  if (typeof node !== "object" || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(node).sort()) {
    if (!inMap && ANNOTATION_KEYWORDS.has(key)) continue;
    out[key] = withoutAnnotations((node as Record<string, unknown>)[key], !inMap && MAP_KEYWORDS.has(key));
  }
  return out;
}

function sameAsDefinition(spec: LoadedSpec, node: JsonSchema, union: string): string | null {
  const target = JSON.stringify(withoutAnnotations(node));
  for (const name of Object.keys(spec.defs).sort()) {
    if (name !== union && JSON.stringify(withoutAnnotations(spec.defs[name])) === target) return name;
  }
  return null;
}

function paramsOf(member: Member): MethodParams | null {
  const props = member.schema.properties as Record<string, JsonSchema> | undefined;
  const params = props?.params;
  if (params === undefined) return null;
  const required = Array.isArray(member.schema.required) && member.schema.required.includes("params");
  if (typeof params.$ref === "string") {
    const name = refName(params.$ref);
    return { type: { ts: name, definition: name, refs: [name] }, required, schema: params };
  }
  return { type: { ts: `NonNullable<${member.definition}["params"]>`, definition: null, refs: [member.definition] }, required, schema: params };
}

function resultMapping(
  spec: LoadedSpec,
  member: Member,
  override: ResultOverride | undefined,
  fail: (m: string, ...t: Array<string | number>) => never,
): { results: string[]; source: RequestMethod["resultSource"] } {
  if (override?.results) {
    override.results.forEach((r, j) => {
      if (Object.hasOwn(spec.defs, r)) return;
      const message = `override for "${member.method}" names "${r}", which is not a definition of ${spec.label} (${spec.file})`;
      if (override.source) throw new InputError(message, override.source.file, `${override.source.pointer}/results/${j}`);
      fail(message);
    });
    return { results: [...override.results], source: "override" };
  }
  const base = member.definition.endsWith("Request") ? member.definition.slice(0, -"Request".length) : member.definition;
  const response = spec.defs[`${base}ResultResponse`];
  if (response !== undefined) {
    const result = (response.properties as Record<string, JsonSchema> | undefined)?.result;
    const refs = result === undefined ? [] : typeof result.$ref === "string" ? [result] : ((result.anyOf ?? result.oneOf ?? []) as JsonSchema[]);
    if (refs.length === 0 || refs.some((r) => typeof r.$ref !== "string")) {
      fail(`expected ${base}ResultResponse's result to be a $ref or a union of $refs`, `${base}ResultResponse`, "properties", "result");
    }
    return { results: refs.map((r) => refName(r.$ref as string)), source: "result-response" };
  }
  if (Object.hasOwn(spec.defs, `${base}Result`)) return { results: [`${base}Result`], source: "name" };
  if (Object.hasOwn(spec.defs, "EmptyResult")) return { results: ["EmptyResult"], source: "empty-result" };
  return fail(`no result for "${member.method}": expected ${base}Result, ${base}ResultResponse, EmptyResult or an entry in schemas/overrides.json`, member.definition);
}

/** Follow definitions that are only a `$ref` (`EmptyResult` → `Result`). */
export function resolveAlias(spec: { defs: Readonly<Record<string, JsonSchema>> }, name: string): string {
  const seen = new Set<string>();
  let current = name;
  while (!seen.has(current)) {
    seen.add(current);
    const def = spec.defs[current];
    const keys = Object.keys(def).filter((k) => !ANNOTATION_KEYWORDS.has(k));
    if (keys.length === 1 && typeof def.$ref === "string") current = refName(def.$ref);
    else break;
  }
  return current;
}

function resultShape(spec: LoadedSpec, results: string[], era: Era): ResultShape {
  if (results.length !== 1) return "object";
  const def = spec.defs[resolveAlias(spec, results[0])];
  const keys = new Set<string>();
  const collect = (node: JsonSchema) => {
    for (const k of Object.keys((node.properties as object | undefined) ?? {})) keys.add(k);
    for (const sub of (node.allOf as JsonSchema[] | undefined) ?? []) {
      collect(typeof sub.$ref === "string" ? spec.defs[resolveAlias(spec, refName(sub.$ref))] : sub);
    }
  };
  collect(def);
  const allowed = era === "modern" ? ["_meta", "resultType"] : ["_meta"];
  return [...keys].every((k) => allowed.includes(k)) ? "empty" : "object";
}
