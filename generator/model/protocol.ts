// Protocol facts (issue 36, item 2): what the runtimes need to know of the protocol beyond its methods,
// decided here once per version and printed by every target as its protocol module (protocol.ts,
// protocol.py, protocol.rb), which the runtimes import instead of spelling the values themselves.
//
// From the schemas (per version):
// - error codes: the consts of schema.json's error definitions (`ParseError.properties.code.const`,
//   `HeaderMismatchError.properties.error.allOf[…].properties.code.const`) and the numeric constants
//   schema.ts exports (`PARSE_ERROR = -32700`, `URL_ELICITATION_REQUIRED = -32042`); a code is named by
//   schema.ts's constant when one names it, else by its definition (`FooBarError` → `FOO_BAR`);
// - the `_meta` keys of requests, notifications and results: the properties of the `_meta` object
//   (`RequestMetaObject`, `RequestParams._meta`, `Request.params._meta`, and the notification and
//   result counterparts);
// - whether the version carries JSON-RPC batches (it defines `JSONRPCBatchRequest`);
// - for a version with the Tasks extension layered on: each task status and the members of its task
//   definition (the definition whose `status` is that const).
// From the reviewed facts (schemas/protocol-facts.json, read in source/protocol-facts.ts): what the
// runtimes rely on in every tree, whatever versions it holds (error codes, `_meta` keys, extension
// identifiers; the selected schemas must agree with them, and what they add is added), and what only
// prose says: the transport-level codes, the first version without batches, the HTTP status of each
// error code, the log levels' order, default limits (milliseconds) and the `x-mcp-header` keyword.
//
// The merged view is what the runtimes read: every code once (a schema.ts constant naming a known code
// otherwise, or a known name with another code, is an InputError; a schema.json definition that disagrees
// stays in its version's facts), every `_meta` key once, the first version without batches. Deterministic.
import { InputError } from "../errors.js";
import { byCodeUnit } from "../order.js";
import type { ProtocolFactsData } from "../source/protocol-facts.js";
import type { ErrorCodeFact, ProtocolFacts, TaskStatusFact, VersionProtocolFacts } from "./protocol-types.js";
import type { JsonSchema } from "../source/types.js";
import type { ProtocolVersions, VersionModel } from "./types.js";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** `FooBarBaz` → `FOO_BAR_BAZ`; `protocolVersion` → `PROTOCOL_VERSION`; `io.modelcontextprotocol/logLevel` → `LOG_LEVEL`. */
export function constantName(text: string): string {
  const tail = text.slice(text.lastIndexOf("/") + 1);
  return tail
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .toUpperCase();
}

/** The integer `code` const an error definition pins, directly or under `error` (through allOf), else undefined. */
function errorCodeConst(def: JsonSchema): number | undefined {
  const codeOf = (s: unknown): number | undefined => {
    if (!isObject(s)) return undefined;
    const props = s.properties;
    if (isObject(props) && isObject(props.code) && Number.isInteger(props.code.const)) return props.code.const as number;
    for (const part of Array.isArray(s.allOf) ? s.allOf : []) {
      const c = codeOf(part);
      if (c !== undefined) return c;
    }
    return undefined;
  };
  const direct = codeOf(def);
  if (direct !== undefined) return direct;
  const props = (def as Record<string, unknown>).properties;
  return isObject(props) ? codeOf(props.error) : undefined;
}

/** The definition a `$ref` to `#/definitions/X` or `#/$defs/X` names, else undefined. */
function refName(s: unknown): string | undefined {
  const ref = isObject(s) && typeof s.$ref === "string" ? s.$ref : undefined;
  const m = ref?.match(/^#\/(?:definitions|\$defs)\/([^/]+)$/);
  return m?.[1];
}

/** The property names of the `_meta` object of these definitions (following one `$ref` per step), sorted. */
function metaKeysOf(defs: Readonly<Record<string, JsonSchema>>, metaObjects: string[], paramsOwners: string[]): string[] {
  const keys = new Set<string>();
  const propsOf = (s: unknown): Record<string, unknown> => {
    const name = refName(s);
    const target = name !== undefined ? defs[name] : s;
    return isObject(target) && isObject(target.properties) ? target.properties : {};
  };
  for (const name of metaObjects) for (const key of Object.keys(propsOf(defs[name]))) keys.add(key);
  for (const owner of paramsOwners) {
    const def = defs[owner];
    if (def === undefined) continue;
    const own = propsOf(def);
    // `X.properties._meta` (RequestParams) or `X.properties.params.properties._meta` (Request).
    for (const meta of [own._meta, propsOf(own.params)._meta]) for (const key of Object.keys(propsOf(meta))) keys.add(key);
  }
  return [...keys].sort(byCodeUnit);
}

/** The task definitions of a version: those whose `status` property is a string const. */
function taskStatusesOf(defs: Readonly<Record<string, JsonSchema>>): TaskStatusFact[] {
  const out: TaskStatusFact[] = [];
  for (const [definition, def] of Object.entries(defs)) {
    const props = (def as Record<string, unknown>).properties;
    if (!isObject(props) || !isObject(props.status) || typeof props.status.const !== "string" || !isObject(props.taskId)) continue;
    const required = (def as Record<string, unknown>).required;
    out.push({
      status: props.status.const,
      definition,
      members: Object.keys(props).sort(byCodeUnit),
      required: (Array.isArray(required) ? (required as string[]) : []).slice().sort(byCodeUnit),
    });
  }
  return out.sort((a, b) => byCodeUnit(a.status, b.status));
}

/** The facts of one version (or extension module) from its schema and schema.ts constants. */
export function versionProtocolFacts(model: VersionModel): VersionProtocolFacts {
  const defs = model.definitions;
  const byCode = new Map<number, ErrorCodeFact>();
  for (const [name, value] of Object.entries(model.specTypes?.constants ?? {})) {
    if (typeof value === "number" && Number.isInteger(value) && value < 0) byCode.set(value, { name, code: value, source: "schema.ts" });
  }
  for (const [definition, def] of Object.entries(defs)) {
    if (!definition.endsWith("Error")) continue;
    const code = errorCodeConst(def);
    if (code === undefined || byCode.has(code)) continue;
    byCode.set(code, { name: constantName(definition.replace(/Error$/, "")), code, source: "schema.json" });
  }
  return {
    label: model.label,
    errors: [...byCode.values()].sort((a, b) => a.code - b.code),
    meta: {
      request: metaKeysOf(defs, ["RequestMetaObject"], ["RequestParams", "Request", "PaginatedRequestParams"]),
      notification: metaKeysOf(defs, ["NotificationMetaObject"], ["NotificationParams", "Notification"]),
      result: metaKeysOf(defs, ["ResultMetaObject"], ["Result"]),
    },
    batches: defs.JSONRPCBatchRequest !== undefined,
    taskStatuses: taskStatusesOf(defs),
  };
}

/** The protocol facts of a model's versions and extension modules, merged with the reviewed prose facts. */
export function buildProtocolFacts(model: ProtocolVersions, reviewed: ProtocolFactsData): ProtocolFacts {
  const versions = [...model.versions.map(versionProtocolFacts), ...(model.extensions ?? []).map((e) => ({ ...versionProtocolFacts(e.model), label: `${e.core}+${e.name}` }))];
  const errors = new Map<number, ErrorCodeFact & { at: string }>();
  const add = (fact: ErrorCodeFact, at: string) => {
    const known = errors.get(fact.code);
    // A schema.json definition names no constant (its name is only derived): where it disagrees with a code or a
    // name known already (drafts renumbered codes: -32003, -32004), only its version's facts record it.
    if (fact.source === "schema.json" && (known !== undefined || [...errors.values()].some((e) => e.name === fact.name))) return;
    if (known !== undefined && known.name !== fact.name) {
      throw new InputError(`error code ${fact.code} is ${known.name} in ${known.at} but ${fact.name} in ${at}; name it once (schemas/protocol-facts.json)`, reviewed.file, "/errors");
    }
    const named = [...errors.values()].find((e) => e.name === fact.name && e.code !== fact.code);
    if (named !== undefined) throw new InputError(`${fact.name} is ${named.code} in ${named.at} but ${fact.code} in ${at}`, reviewed.file, "/errors");
    if (known === undefined) errors.set(fact.code, { ...fact, at });
  };
  for (const entry of reviewed.errors) add({ name: entry.name, code: entry.code, source: "reviewed" }, reviewed.file);
  for (const v of versions) for (const fact of v.errors) add(fact, v.label);
  reviewed.httpStatus.forEach((entry, i) => {
    if (!errors.has(entry.code)) throw new InputError(`HTTP status given for ${entry.code}, which no schema and no reviewed entry declares`, reviewed.file, `/httpStatus/${i}/code`);
  });

  const metaKeys = new Set([...reviewed.meta.map((m) => m.key), ...versions.flatMap((v) => [...v.meta.request, ...v.meta.notification, ...v.meta.result])]);
  const meta = [...metaKeys].sort(byCodeUnit).map((key) => ({ name: constantName(key), key }));
  const names = new Map<string, string>();
  for (const m of meta) {
    const other = names.get(m.name);
    if (other !== undefined) throw new InputError(`_meta keys ${other} and ${m.key} would share the constant ${m.name}`, reviewed.file, "");
    names.set(m.name, m.key);
  }

  // Batching is prose (the 2025-06-18 changelog; 2024-11-05 batches by JSON-RPC without a batch definition);
  // a dated version whose schema defines batch messages must come before the reviewed date, and none after it does.
  const core = model.versions;
  const firstVersionWithoutBatches = reviewed.batches.firstVersionWithout;
  core.forEach((m, i) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(m.label) || !versions[i].batches || m.label < firstVersionWithoutBatches) return;
    throw new InputError(`${m.label}'s schema defines JSONRPCBatchRequest, but versions from ${firstVersionWithoutBatches} on do not batch`, reviewed.file, "/batches/firstVersionWithout");
  });

  // The log levels' order is reviewed prose; every level of a schema's LoggingLevel enum must be in it
  // (an early draft had four of them).
  for (const m of core) {
    const levels = (m.definitions.LoggingLevel as { enum?: unknown } | undefined)?.enum;
    if (!Array.isArray(levels)) continue;
    const missing = (levels as string[]).filter((l) => !reviewed.logLevels.order.includes(l));
    if (missing.length > 0) {
      throw new InputError(`${m.label}'s LoggingLevel has ${missing.join(", ")}, which the log levels' order here lacks`, reviewed.file, "/logLevels/order");
    }
  }

  const identifiers = new Map<string, string>(reviewed.extensions.map((e) => [constantName(e.name), e.identifier]));
  for (const e of model.extensions ?? []) {
    const given = identifiers.get(constantName(e.name));
    if (given !== undefined && given !== e.identifier) {
      throw new InputError(`the ${e.name} extension's identifier is ${e.identifier} in the lock but ${given} here`, reviewed.file, `/extensions/${reviewed.extensions.findIndex((r) => constantName(r.name) === constantName(e.name))}/identifier`);
    }
    identifiers.set(constantName(e.name), e.identifier);
  }
  const statuses = new Map<string, TaskStatusFact>();
  for (const v of versions) for (const s of v.taskStatuses) statuses.set(s.status, s);

  return {
    versions,
    errors: [...errors.values()].map(({ name, code, source }) => ({ name, code, source })).sort((a, b) => a.code - b.code),
    meta,
    firstVersionWithoutBatches,
    extensions: [...identifiers].sort(([a], [b]) => byCodeUnit(a, b)).map(([name, identifier]) => ({ name, identifier })),
    taskStatuses: [...statuses.values()].sort((a, b) => byCodeUnit(a.status, b.status)),
    reviewed,
  };
}
