// The model pass: a loaded schema → the version's model (era, method catalogue, result shapes).
// Methods come only from the ClientRequest / ServerRequest / ClientNotification /
// ServerNotification unions; a `method` literal anywhere else is not a method of the version.
import { InputError, pointer } from "../errors.js";
import { refName } from "../source/load.js";
import type { VersionErratum } from "./errata.js";
import type { ResultOverride } from "../source/reviewed.js";
import type { SpecTypeFacts } from "./spec-typescript.js";
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
import { resultTypesOf } from "./rules.js";
import { byCodeUnit } from "../order.js";
import type { IrNode, SchemaIR } from "./ir.js";
import { IrBuilder } from "./ir-build.js";
import { ANNOTATION_KEYWORDS, MAP_KEYWORDS } from "./keywords.js";
import { freeName } from "./naming.js";
import { type DeclaredResult, responseResults } from "./results.js";

const UNIONS = [
  { union: "ClientRequest", kind: "request", sender: "client", required: true },
  { union: "ServerRequest", kind: "request", sender: "server", required: false },
  { union: "ClientNotification", kind: "notification", sender: "client", required: false },
  { union: "ServerNotification", kind: "notification", sender: "server", required: false },
] as const;

export interface Member {
  method: string;
  definition: string;
  schema: JsonSchema;
  union: string;
  /** Where `schema` is, below the definitions container. */
  where: Array<string | number>;
  /** The part of `schema` that declares `method` and `params` (see messageBranch). */
  branch: { node: JsonSchema; tokens: Array<string | number> };
}

/**
 * Where a message schema declares its `method` and `params`: its own `properties`, else the branch of
 * its `allOf` whose `properties` has `method` (an extension writes `JSONRPCRequest & { method, params }`).
 */
export function messageBranch(schema: JsonSchema): Member["branch"] {
  const has = (node: unknown) => typeof node === "object" && node !== null && (node as { properties?: Record<string, unknown> }).properties?.method !== undefined;
  if (has(schema) || !Array.isArray(schema.allOf)) return { node: schema, tokens: [] };
  const i = schema.allOf.findIndex(has);
  return i < 0 ? { node: schema, tokens: [] } : { node: schema.allOf[i] as JsonSchema, tokens: ["allOf", i] };
}


export interface BuildOptions {
  specCommit: string | null;
  overrides?: ResultOverride[];
  /** The version's schema.ts facts (generator/model/spec-typescript.ts), when it has one. */
  specTypes?: SpecTypeFacts | null;
  /** Where the version's schema.json and schema.ts disagree (null: no schema.ts). */
  errata?: readonly VersionErratum[] | null;
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

  // The IR first: every definition, then the inline schemas the methods need (params, results).
  const builder = new IrBuilder(spec);
  const derivedSchemas: Record<string, JsonSchema> = {};
  const requestParts = [...collected.request.values()].map(({ member, senders }) => {
    const override = (options.overrides ?? []).find(
      (o) => o.method === member.method && (o.versions === "*" || o.versions.includes(spec.label)),
    );
    const mapping = resultMapping(spec, member, override, fail);
    const base = baseName(member.definition);
    const results = mapping.results.map((r, i) => {
      if ("definition" in r) return r.definition;
      const name = freeName(`${base}Result`, (n) => builder.has(n));
      const why = mapping.results.length === 1 ? "the inline result" : `branch ${i} of the inline result union`;
      builder.derive(name, r.inline, r.where, `${why} of ${member.definition} ("${member.method}")`);
      derivedSchemas[name] = r.inline;
      return name;
    });
    return { member, senders, override, results, source: mapping.source, params: paramsNode(builder, member) };
  });
  const notificationParts = [...collected.notification.values()].map(({ member, senders }) => ({ member, senders, params: paramsNode(builder, member) }));
  const ir = builder.finish();

  const requests: RequestMethod[] = requestParts
    .map(({ member, senders, override, results, source, params }) => ({
      kind: "request" as const,
      method: member.method,
      sender: sender(senders),
      definition: member.definition,
      params: paramsOf(member, params),
      results,
      resultShape: override?.resultShape ?? resultShape(ir, results, era),
      resultTypes: resultTypesOf(results, era, ir),
      resultSource: source,
    }))
    .sort(byMethod);

  if (era === "legacy") labelledInitialize(requests.find((r) => r.method === "initialize")!);

  const notifications: NotificationMethod[] = notificationParts
    .map(({ member, senders, params }) => ({
      kind: "notification" as const,
      method: member.method,
      sender: sender(senders),
      definition: member.definition,
      params: paramsOf(member, params),
    }))
    .sort(byMethod);

  const definitions: Record<string, JsonSchema> = {};
  const all = { ...spec.defs, ...derivedSchemas };
  for (const name of Object.keys(all).sort(byCodeUnit)) definitions[name] = all[name];

  return {
    label: spec.label,
    era,
    dialect: spec.dialect,
    sha256: spec.sha256,
    specCommit: options.specCommit,
    patches: spec.patches,
    definitions,
    ir,
    specTypes: options.specTypes ?? null,
    errata: options.errata ?? null,
    requests,
    notifications,
  };
}

/**
 * A legacy version is negotiated by its label: `initialize`'s `protocolVersion` carries it as a string. A
 * revision from before dated labels (the 2024 drafts' integer `protocolVersion`) could be negotiated by no
 * runtime and no client, so it is refused where it says so rather than generated into code that cannot
 * serve or call it (a bump of it writes nothing).
 */
function labelledInitialize(initialize: RequestMethod): void {
  let params = initialize.params?.node;
  while (params?.kind === "ref") params = params.target.node;
  let version = params?.kind === "object" ? params.properties.find((p) => p.name === "protocolVersion")?.node : undefined;
  while (version?.kind === "ref") version = version.target.node;
  // Refused only where no string could be the value: a number, a boolean, …, or constants none of which is a string.
  if (version === undefined || !["literal", "number", "boolean", "null", "object", "array"].includes(version.kind)) return;
  if (version.kind === "literal" && version.values.some((v) => typeof v === "string")) return;
  const what = version.kind === "literal" ? `the constant ${version.values.map((v) => JSON.stringify(v)).join(" or ")}` : `a ${version.kind}`;
  throw new InputError(
    `initialize's protocolVersion is ${what}, not a string: a legacy version is negotiated by its label, so no runtime or client could serve or call this revision`,
    version.at.file,
    version.at.pointer.replace(/^#/, ""),
  );
}

/** A request definition's name without `Request` (`SubscribeRequest` → `Subscribe`). */
function baseName(definition: string): string {
  return definition.endsWith("Request") ? definition.slice(0, -"Request".length) : definition;
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
    const branch = messageBranch(schema);
    const methodSchema = (branch.node.properties as Record<string, JsonSchema> | undefined)?.method;
    const method =
      typeof methodSchema?.const === "string"
        ? methodSchema.const
        : Array.isArray(methodSchema?.enum) && methodSchema.enum.length === 1 && typeof methodSchema.enum[0] === "string"
          ? methodSchema.enum[0]
          : undefined;
    if (method === undefined) fail(`expected ${definition} to fix its method with a string "const"`, ...where, ...branch.tokens, "properties", "method");
    return { method: method as string, definition, schema, union, where, branch };
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

/** The params schema of a message and its IR node, or null when the message has no `params`. */
function paramsNode(builder: IrBuilder, member: Member): { schema: JsonSchema; node: IrNode } | null {
  const schema = (member.branch.node.properties as Record<string, JsonSchema> | undefined)?.params;
  if (schema === undefined) return null;
  return { schema, node: builder.node(schema, [...member.where, ...member.branch.tokens, "properties", "params"], member.definition) };
}

function paramsOf(member: Member, params: { schema: JsonSchema; node: IrNode } | null): MethodParams | null {
  if (params === null) return null;
  const required = Array.isArray(member.branch.node.required) && member.branch.node.required.includes("params");
  const { schema, node } = params;
  return { definition: node.kind === "ref" ? node.name : null, required, schema, node };
}


/**
 * Where a request's results are declared, in this order: a reviewed override; the request's response
 * definition (`<Base>ResultResponse`, else `<Base>Response`), read by the rule of ./results.ts whatever
 * its form; a `<Base>Result` definition; `EmptyResult`.
 */
function resultMapping(
  spec: LoadedSpec,
  member: Member,
  override: ResultOverride | undefined,
  fail: (m: string, ...t: Array<string | number>) => never,
): { results: DeclaredResult[]; source: RequestMethod["resultSource"] } {
  if (override?.results) {
    override.results.forEach((r, j) => {
      if (Object.hasOwn(spec.defs, r)) return;
      const message = `override for "${member.method}" names "${r}", which is not a definition of ${spec.label} (${spec.file})`;
      if (override.source) throw new InputError(message, override.source.file, `${override.source.pointer}/results/${j}`);
      fail(message);
    });
    return { results: override.results.map((definition) => ({ definition })), source: "override" };
  }
  const base = baseName(member.definition);
  const responseName = [`${base}ResultResponse`, `${base}Response`].find((n) => Object.hasOwn(spec.defs, n));
  if (responseName !== undefined) {
    return { results: responseResults(spec, spec.defs[responseName], [responseName], fail), source: "result-response" };
  }
  if (Object.hasOwn(spec.defs, `${base}Result`)) return { results: [{ definition: `${base}Result` }], source: "name" };
  if (Object.hasOwn(spec.defs, "EmptyResult")) return { results: [{ definition: "EmptyResult" }], source: "empty-result" };
  return fail(`no result for "${member.method}": expected ${base}Result, ${base}ResultResponse, ${base}Response, EmptyResult or an entry in schemas/overrides.json`, member.definition);
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

/**
 * `empty` when the result's only properties are `_meta` (and `resultType` in the modern era),
 * following references and `allOf`; a union of several results, or one that is a union or has a union
 * inside (an extension's `Result & (WorkingTask | …)`), is an `object`.
 */
function resultShape(ir: SchemaIR, results: string[], era: Era): ResultShape {
  if (results.length !== 1) return "object";
  const keys = new Set<string>();
  const seen = new Set<string>();
  const collect = (node: IrNode) => {
    if (node.kind === "ref") {
      if (seen.has(node.name)) return;
      seen.add(node.name);
      collect(node.target.node);
    } else if (node.kind === "object") {
      for (const p of node.properties) keys.add(p.name);
    } else if (node.kind === "intersection") {
      for (const part of node.parts) collect(part);
    } else if (node.kind === "union") {
      // A union inside one result (a definition that is a union of results, or an extension's
      // `Result & (WorkingTask | …)`): as several results, an object.
      keys.add("|");
    }
  };
  collect(ir.definitions.get(results[0])!.node);
  const allowed = era === "modern" ? ["_meta", "resultType"] : ["_meta"];
  return [...keys].every((k) => allowed.includes(k)) ? "empty" : "object";
}
