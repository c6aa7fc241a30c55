// The method table: every protocol decision about a method, made once, for every target. For each
// generated version (and each extension module, `<core>+<name>`), one row per method that any generated
// version or extension names, saying what that method is *at this version*:
//
// - `status`: `present` (the version has it); `removed` (an earlier version has it, this one not;
//   `nearest` is the latest such version, `since` the first version after it; earlier and later in the
//   protocol order of model/protocol-order.ts); `later` (only later
//   versions have it; `nearest` = `since` = the first that does); `extension` (no core version has it,
//   an extension layered onto this version adds it). `otherEra` says the nearest version is of the other
//   era (`initialize` at draft; `server/discover` at 2025-11-25).
// - `extensions`: the identifiers of the extensions layered onto this version whose messages include the
//   method: they add it, or (the clash rule of model/extensions.ts) redefine a method the core has (an
//   extension module's own methods: its identifier; there they are `present`).
// - `kind`, `sender`, `receivers`: of the version that has it (this one, else `nearest`).
// - `verdicts`: per receiving side (`client`, `server`), the gate's verdict on the method arriving there
//   over a connection of this version: `{ accepted: true }`, or the refusal `{ accepted: false, code,
//   reason, message, policy }`: JSON-RPC -32601 (the reviewed METHOD_NOT_FOUND), `reason` (`wrong_side`:
//   present, but only the other side receives it; `removed`; `other_era`: later; `unknown`: extension),
//   the message, and the gate policy that may let it through (`later` for a later method, `custom` for an
//   extension's, null: always refused). A method no row names gets `unknownMethodVerdict`, whose message has the slots
//   `{method}` and `{protocolVersion}`. Every gate is a lookup of these plus its policy: the messages are
//   written here only.
// - `params`, `results`, `normalizer`, `resultTypes`, `capabilities`, `nameParam`: this version's, null (or
//   empty) when it does not have the method. `normalizer` is `{ shape, resultTypes }`: the result shape
//   (`empty`: only `_meta` passes; `object`) and the `resultType` values (the row's `resultTypes`).
//   `capabilities` are key paths the receiver of a request (the sender of a notification) must declare;
//   `nameParam` is the param a modern request names itself by for routing (the HTTP `Mcp-Name` header's
//   value), null when none. `taskResult`: the result a
//   task-augmented request (its params carry `task`) is answered with instead of `results`
//   (`CreateTaskResult`), null when the request cannot be task-augmented here; `taskCapability`, the
//   capability path its receiver declares to accept it as a task (`tasks.requests.tools.call`), or null;
//   `paginated`: a request whose params declare `cursor` and whose every result declares `nextCursor`
//   (what a client pages through).
//
// Targets print these rows (their METHOD_TABLE) and their gates read them; none recomputes them.
import { InputError } from "../errors.js";
import { byCodeUnit } from "../order.js";
import type { MethodCapabilityData } from "../source/method-capabilities.js";
import { methodCapabilities, taskCapability } from "./capabilities.js";
import { extensionLabel } from "./extensions.js";
import { inProtocolOrder } from "./protocol-order.js";
import { receivedBy } from "./rules.js";
import type { ProtocolFacts } from "./protocol-types.js";
import type { Era, ExtensionModel, GatePolicyKey, Method, MethodRow, MethodStatus, MethodTables, ProtocolVersions, Refusal, RefusalReason, RowNormalizer, Sender, Side, Verdict, VersionModel, VersionTable } from "./types.js";

export type { MethodRow, MethodStatus, MethodTables, Refusal, RowNormalizer, Side, Verdict, VersionTable } from "./types.js";

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

function normalizerOf(m: Method): RowNormalizer | null {
  if (m.kind !== "request") return null;
  return { shape: m.resultShape, resultTypes: m.resultTypes === null ? null : [...m.resultTypes] };
}

/** The code every gate refusal answers with: the protocol facts' METHOD_NOT_FOUND (JSON-RPC's -32601, reviewed). */
function methodNotFound(protocol: ProtocolFacts): number {
  const fact = protocol.errors.find((e) => e.name === "METHOD_NOT_FOUND");
  if (fact === undefined) throw new InputError("the protocol facts name no METHOD_NOT_FOUND error code, which the gate refuses with", protocol.reviewed.file, "/errors");
  return fact.code;
}

/** A refusal: `Method not found: <method> <why>`, JSON-RPC's -32601 message followed by what the table says of the method. */
function refused(code: number, method: string, reason: RefusalReason, policy: GatePolicyKey | null, why: string): Refusal {
  return { accepted: false, code, reason, message: `Method not found: ${method} ${why}`, policy };
}

/** The gate's verdict on `method` (whose row says `status`, `sender`, `receivers`, `nearest`) arriving at `side` over a connection of `protocolVersion`. */
function verdictOf(code: number, method: string, protocolVersion: string, side: Side, row: Pick<MethodRow, "status" | "sender" | "receivers" | "nearest">): Verdict {
  const absent = `is not a method of protocol version ${protocolVersion}`;
  switch (row.status) {
    case "present":
      return row.receivers.includes(side) ? { accepted: true } : refused(code, method, "wrong_side", null, `is sent by the ${row.sender} only in protocol version ${protocolVersion}`);
    case "removed":
      return refused(code, method, "removed", null, `${absent} (removed after ${row.nearest})`);
    case "later":
      return refused(code, method, "other_era", "later", `${absent} (first in ${row.nearest})`);
    case "extension":
      return refused(code, method, "unknown", "custom", absent);
  }
}

/** The row's verdict at each side. */
function verdicts(code: number, method: string, protocolVersion: string, row: Pick<MethodRow, "status" | "sender" | "receivers" | "nearest">): Record<Side, Verdict> {
  return { client: verdictOf(code, method, protocolVersion, "client", row), server: verdictOf(code, method, protocolVersion, "server", row) };
}

/** The slots of `unknownMethodVerdict`'s message, filled by a gate with the refusal's `data` (`method`, `protocolVersion`). */
export const VERDICT_SLOTS = { method: "{method}", protocolVersion: "{protocolVersion}" } as const;

/**
 * The verdict on a method no row of a table names (a custom method), at either side: the same refusal as an
 * `extension` row's, its message a template with the slots `{method}` and `{protocolVersion}` (every
 * protocol module prints it as UNKNOWN_METHOD); the gate's `custom` policy may let it through.
 */
export function unknownMethodVerdict(protocol: ProtocolFacts): Refusal {
  return verdictOf(methodNotFound(protocol), VERDICT_SLOTS.method, VERDICT_SLOTS.protocolVersion, "server", { status: "extension", sender: "client", receivers: [], nearest: null }) as Refusal;
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

function presentRow(version: VersionModel, m: Method, capabilities: string[][], extensions: string[], code: number): MethodRow {
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
    verdicts: verdicts(code, m.method, version.label, { status: "present", sender: m.sender, receivers: receivers(m.sender), nearest: null }),
    params: m.params === null ? null : { definition: m.params.definition, required: m.params.required },
    results: m.kind === "request" ? [...m.results] : null,
    normalizer: normalizerOf(m),
    resultTypes: m.kind === "request" && m.resultTypes !== null ? [...m.resultTypes] : null,
    capabilities,
    nameParam,
    ...taskColumns(version, m),
    paginated: paginated(version, m),
  };
}

function absentRow(status: MethodStatus, m: Method, nearest: VersionModel | null, since: string | null, own: VersionModel, extensions: string[], code: number): MethodRow {
  const era: Era = own.era;
  return {
    kind: m.kind,
    status,
    nearest: nearest?.label ?? null,
    since,
    otherEra: nearest !== null && nearest.era !== era,
    extensions,
    sender: m.sender,
    receivers: receivers(m.sender),
    verdicts: verdicts(code, m.method, own.label, { status, sender: m.sender, receivers: receivers(m.sender), nearest: nearest?.label ?? null }),
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
 * reviewed data (checked here against each version's capability definitions); `protocol` the run's
 * protocol facts (the code the verdicts refuse with).
 */
export function buildMethodTables(model: ProtocolVersions, capabilities: MethodCapabilityData, protocol: ProtocolFacts): MethodTables {
  const code = methodNotFound(protocol);
  // Earlier and later are the protocol order's (a bump's legacy `draft` is earlier than every modern version);
  // the tables are listed by label.
  const versions = inProtocolOrder(model.versions);
  const byLabel = [...model.versions].sort((a, b) => byCodeUnit(a.label, b.label));
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

  /** One table: `at` is the core version's index among `versions` (protocol order), `own` the methods the module has. */
  const table = (at: number, own: VersionModel, capabilityOf: (m: Method) => string[][], extensionsOf: (method: string) => string[]): VersionTable => {
    const rows: Record<string, MethodRow> = {};
    for (const method of methods) {
      const here = methodsOf(own).find((m) => m.method === method);
      if (here !== undefined) {
        rows[method] = presentRow(own, here, capabilityOf(here), extensionsOf(method), code);
        continue;
      }
      const has = (v: VersionModel) => methodsOf(v).find((m) => m.method === method);
      const earlier = versions.slice(0, at).map((v, i) => ({ v, i })).filter(({ v }) => has(v) !== undefined);
      const later = versions.slice(at + 1).find((v) => has(v) !== undefined);
      if (earlier.length > 0) {
        const last = earlier[earlier.length - 1];
        rows[method] = absentRow("removed", has(last.v)!, last.v, versions[last.i + 1].label, own, extensionsOf(method), code);
      } else if (later !== undefined) {
        rows[method] = absentRow("later", has(later)!, later, later.label, own, extensionsOf(method), code);
      } else {
        rows[method] = absentRow("extension", universe.get(method)!, null, null, own, extensionsOf(method), code);
      }
    }
    return rows;
  };

  const out = new Map<string, VersionTable>();
  for (const v of byLabel) out.set(v.label, table(versions.indexOf(v), v, (m) => paths(v.label, m.method), (method) => addedBy(v.label, method)));
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
