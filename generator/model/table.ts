// The method table: every protocol decision about a method, made once, for every target. For each
// generated version (and each extension module, `<core>+<name>`), one row per method that any generated
// version or extension names, saying what that method is *at this version*:
//
// - `status`: `present` (the version has it); `removed` (an earlier version has it, this one not;
//   `nearest` is the latest such version, `since` the first version after it); `later` (only later
//   versions have it; `nearest` = `since` = the first that does); `extension` (no core version has it,
//   an extension layered onto this version adds it). `otherEra` says the nearest version is of the other
//   era (`initialize` at draft; `server/discover` at 2025-11-25).
// - `extensions`: the identifiers of the extensions layered onto this version whose messages include the
//   method: they add it, or (the clash rule of model/extensions.ts) redefine a method the core has (an
//   extension module's own methods: its identifier; there they are `present`).
// - `kind`, `sender`, `receivers`: of the version that has it (this one, else `nearest`).
// - `params`, `results`, `normalizer`, `resultTypes`, `capabilities`, `nameParam`: this version's, null (or
//   empty) when it does not have the method. `capabilities` are key paths the receiver of a request
//   (the sender of a notification) must declare; `nameParam` is the param a modern request names itself
//   by for routing (the HTTP `Mcp-Name` header's value), null when none. `taskResult`: the result a
//   task-augmented request (its params carry `task`) is answered with instead of `results`
//   (`CreateTaskResult`), null when the request cannot be task-augmented here; `taskCapability`, the
//   capability path its receiver declares to accept it as a task (`tasks.requests.tools.call`), or null;
//   `paginated`: a request whose params declare `cursor` and whose every result declares `nextCursor`
//   (what a client pages through).
//
// Targets print these rows (their METHOD_TABLE) and their gates read them; none recomputes them.
import { byCodeUnit } from "../order.js";
import type { MethodCapabilityData } from "../source/method-capabilities.js";
import { methodCapabilities, taskCapability } from "./capabilities.js";
import { extensionLabel } from "./extensions.js";
import { receivedBy } from "./rules.js";
import type { Era, ExtensionModel, Method, MethodRow, MethodStatus, MethodTables, ProtocolVersions, Sender, Side, VersionModel, VersionTable } from "./types.js";

export type { MethodRow, MethodStatus, MethodTables, Side, VersionTable } from "./types.js";

/**
 * The params a modern request names itself by for routing (the transport's `Mcp-Name` rule, SEP-2243;
 * Tasks' `taskId`, SEP-2663), where the version's request has that param.
 */
const NAME_PARAMS: Readonly<Record<string, string>> = {
  "prompts/get": "name",
  "resources/read": "uri",
  "tools/call": "name",
  "tasks/cancel": "taskId",
  "tasks/get": "taskId",
  "tasks/update": "taskId",
};

const methodsOf = (v: VersionModel): Method[] => [...v.requests, ...v.notifications];

function receivers(sender: Sender): Side[] {
  return (["client", "server"] as const).filter((side) => receivedBy(sender, side));
}

function normalizerKind(m: Method, era: Era): string | null {
  if (m.kind !== "request") return null;
  return era === "modern" ? `${m.resultShape}+resultType` : m.resultShape;
}

/**
 * The schema `schema` declares for the member `name` (following `$ref`s, and into `allOf`, `anyOf` and
 * `oneOf` branches: the first branch that declares it), undefined when it declares none.
 */
function memberOf(version: VersionModel, schema: unknown, name: string): unknown {
  const walk = (node: unknown, depth: number): unknown => {
    if (typeof node !== "object" || node === null || depth > 16) return undefined;
    const n = node as Record<string, unknown>;
    if (typeof n.properties === "object" && n.properties !== null && Object.hasOwn(n.properties, name)) return (n.properties as Record<string, unknown>)[name];
    if (typeof n.$ref === "string") {
      const m2 = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(n.$ref);
      return m2 === null ? undefined : walk(version.definitions[decodeURIComponent(m2[1])], depth + 1);
    }
    for (const key of ["allOf", "anyOf", "oneOf"]) {
      if (!Array.isArray(n[key])) continue;
      for (const p of n[key] as unknown[]) {
        const found = walk(p, depth + 1);
        if (found !== undefined) return found;
      }
    }
    return undefined;
  };
  return walk(schema, 0);
}

/** The schema a request's params declare for the member `name`, undefined when they declare none. */
function paramsMember(version: VersionModel, m: Method, name: string): unknown {
  if (m.params === null) return undefined;
  return memberOf(version, m.params.definition === null ? m.params.schema : version.definitions[m.params.definition], name);
}

/** Whether a request's params declare `name`. */
function paramsDeclare(version: VersionModel, m: Method, name: string): boolean {
  return paramsMember(version, m, name) !== undefined;
}

/** Whether a request's params declare `cursor` and each of its results declares `nextCursor`: a list a client pages through. */
function paginated(version: VersionModel, m: Method): boolean {
  if (m.kind !== "request" || !paramsDeclare(version, m, "cursor") || m.results.length === 0) return false;
  return m.results.every((r) => memberOf(version, version.definitions[r], "nextCursor") !== undefined);
}

/**
 * The task rule (2025-11-25, basic/utilities/tasks: "Receivers that accept a task-augmented request MUST
 * return a CreateTaskResult"): a request whose params may carry `task` as a `TaskMetadata` is answered,
 * when the sender sends one, with the version's `CreateTaskResult` instead of its `results`. Null where
 * the request has no such param or the version lacks either definition. (The 2026-07-28 Tasks extension
 * has no `TaskMetadata`: there the server may answer any `tools/call` with a task, and the lock adds
 * `CreateTaskResult` to that request's `results` instead; see model/extensions.ts.)
 */
function taskResultOf(version: VersionModel, m: Method): string | null {
  if (m.kind !== "request" || !Object.hasOwn(version.definitions, "TaskMetadata") || !Object.hasOwn(version.definitions, "CreateTaskResult")) return null;
  const task = paramsMember(version, m, "task") as { $ref?: unknown } | undefined;
  return typeof task?.$ref === "string" && /^#\/(?:\$defs|definitions)\/TaskMetadata$/.test(task.$ref) ? "CreateTaskResult" : null;
}

/** The task columns of a present method: its `taskResult`, and the capability path its receiver declares to accept it as a task (null when none). */
function taskColumns(version: VersionModel, m: Method): Pick<MethodRow, "taskResult" | "taskCapability"> {
  const taskResult = taskResultOf(version, m);
  return { taskResult, taskCapability: taskResult === null ? null : taskCapability(version, m) };
}

function presentRow(version: VersionModel, m: Method, capabilities: string[][], extensions: string[]): MethodRow {
  const nameParam = m.kind === "request" && version.era === "modern" && Object.hasOwn(NAME_PARAMS, m.method) && paramsDeclare(version, m, NAME_PARAMS[m.method]) ? NAME_PARAMS[m.method] : null;
  return {
    kind: m.kind,
    status: "present",
    nearest: null,
    since: null,
    otherEra: false,
    extensions,
    sender: m.sender,
    receivers: receivers(m.sender),
    params: m.params === null ? null : { definition: m.params.definition, required: m.params.required },
    results: m.kind === "request" ? [...m.results] : null,
    normalizer: normalizerKind(m, version.era),
    resultTypes: m.kind === "request" && m.resultTypes !== null ? [...m.resultTypes] : null,
    capabilities,
    nameParam,
    ...taskColumns(version, m),
    paginated: paginated(version, m),
  };
}

function absentRow(status: MethodStatus, m: Method, nearest: VersionModel | null, since: string | null, era: Era, extensions: string[]): MethodRow {
  return {
    kind: m.kind,
    status,
    nearest: nearest?.label ?? null,
    since,
    otherEra: nearest !== null && nearest.era !== era,
    extensions,
    sender: m.sender,
    receivers: receivers(m.sender),
    params: null,
    results: null,
    normalizer: null,
    resultTypes: null,
    capabilities: [],
    nameParam: null,
    taskResult: null,
    taskCapability: null,
    paginated: false,
  };
}

/** The capabilities an extension's own methods require: the extension itself under `capabilities.extensions` (SEP-2133). */
function extensionCapabilities(ext: ExtensionModel): string[][] {
  return [["extensions"], ["extensions", ext.identifier]];
}

/**
 * The method tables of a run: one per version, then one per extension module. `capabilities` is the
 * reviewed data (checked here against each version's capability definitions).
 */
export function buildMethodTables(model: ProtocolVersions, capabilities: MethodCapabilityData): MethodTables {
  const versions = [...model.versions].sort((a, b) => byCodeUnit(a.label, b.label));
  const extensions = [...(model.extensions ?? [])].sort((a, b) => byCodeUnit(extensionLabel(a), extensionLabel(b)));
  const required = methodCapabilities(versions, capabilities);
  const paths = (label: string, method: string) => (required.get(label)?.get(method) ?? []).map((p) => p.split("."));

  // Every method any version or extension names, with a definition to describe it when no version has it.
  const universe = new Map<string, Method>();
  for (const v of versions) for (const m of methodsOf(v)) if (!universe.has(m.method)) universe.set(m.method, m);
  for (const x of extensions) for (const m of methodsOf(x.model)) if (!universe.has(m.method)) universe.set(m.method, m);
  const methods = [...universe.keys()].sort(byCodeUnit);

  const addedBy = (core: string, method: string) =>
    extensions.filter((x) => x.core === core && (x.requests.includes(method) || x.notifications.includes(method))).map((x) => x.identifier).sort(byCodeUnit);

  /** One table: `at` is the core version's index among `versions`, `own` the methods the module has. */
  const table = (at: number, own: VersionModel, capabilityOf: (m: Method) => string[][], extensionsOf: (method: string) => string[]): VersionTable => {
    const rows: Record<string, MethodRow> = {};
    for (const method of methods) {
      const here = methodsOf(own).find((m) => m.method === method);
      if (here !== undefined) {
        rows[method] = presentRow(own, here, capabilityOf(here), extensionsOf(method));
        continue;
      }
      const has = (v: VersionModel) => methodsOf(v).find((m) => m.method === method);
      const earlier = versions.slice(0, at).map((v, i) => ({ v, i })).filter(({ v }) => has(v) !== undefined);
      const later = versions.slice(at + 1).find((v) => has(v) !== undefined);
      if (earlier.length > 0) {
        const last = earlier[earlier.length - 1];
        rows[method] = absentRow("removed", has(last.v)!, last.v, versions[last.i + 1].label, own.era, extensionsOf(method));
      } else if (later !== undefined) {
        rows[method] = absentRow("later", has(later)!, later, later.label, own.era, extensionsOf(method));
      } else {
        rows[method] = absentRow("extension", universe.get(method)!, null, null, own.era, extensionsOf(method));
      }
    }
    return rows;
  };

  const out = new Map<string, VersionTable>();
  versions.forEach((v, i) => out.set(v.label, table(i, v, (m) => paths(v.label, m.method), (method) => addedBy(v.label, method))));
  for (const x of extensions) {
    const at = versions.findIndex((v) => v.label === x.core);
    const own = (method: string) => x.requests.includes(method) || x.notifications.includes(method);
    out.set(
      extensionLabel(x),
      table(at, x.model, (m) => (own(m.method) ? extensionCapabilities(x) : paths(x.core, m.method)), (method) => (own(method) ? [x.identifier] : [])),
    );
  }
  return out;
}

/** The tables as JSON data: label → method → row (what `mcp-codegen table --format json` prints). */
export function tablesJson(tables: MethodTables): Record<string, VersionTable> {
  return Object.fromEntries(tables);
}

/** The methods `side` receives that a version's table says it removed, sorted (`initialize` and `ping` at draft). */
export function removedAt(table: VersionTable, side?: Side): string[] {
  return Object.entries(table)
    .filter(([, r]) => r.status === "removed" && (side === undefined || r.receivers.includes(side)))
    .map(([m]) => m)
    .sort(byCodeUnit);
}
