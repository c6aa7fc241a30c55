// The method table as `mcp-codegen table` prints it: JSON (label → method → row, the same data every
// target's METHOD_TABLE holds) or Markdown (one table per version and extension module).
import type { MethodRow, MethodTables, Verdict } from "../model/types.js";
import { normalizerKind } from "../print/table.js";

/** What each column (each row field) means: `table --help` prints it. */
export const TABLE_COLUMNS: ReadonlyArray<readonly [string, string]> = [
  ["kind", "request or notification"],
  ["status", "present (the version has it); removed (an earlier version has it; nearest: the latest that does, since: the first version without it); later (only later versions have it; nearest = since: the first that does); extension (no core version has it; an extension layered onto this version adds it)"],
  ["nearest, since", "see status; null when present"],
  ["otherEra", "the nearest version is of the other era (legacy: initialize handshake; modern: per-request _meta)"],
  ["extensions", "identifiers of the extensions layered onto this version that add the method"],
  ["sender, receivers", "the side that sends it (client, server, both) and the sides that handle it (of the nearest version when absent)"],
  ["verdicts", "per receiving side (client, server), the gate's verdict on the method arriving there at this version: {accepted: true}, or {accepted: false, code (-32601), reason (wrong_side, removed, other_era: later, unknown: extension), message, policy (later or custom: the gate policy that may let it through; null: always refused)}; a method no row names gets the protocol module's UNKNOWN_METHOD"],
  ["params", "the params definition (null: inline) and whether params is required; null when absent or without params"],
  ["results", "a request's result definitions (more than one: a union)"],
  ["normalizer", "a request's normalizer: {shape: empty (only _meta passes) or object, resultTypes: the resultType values, as the resultTypes column}; null for a notification or an absent method"],
  ["resultTypes", "the resultType values a modern result may carry, the default first; null in the legacy era"],
  ["capabilities", "capability key paths the receiver of a request (the sender of a notification) must declare, reviewed in schemas/method-capabilities.json"],
  ["nameParam", "the param a modern request names itself by for routing (the HTTP Mcp-Name header); null when none"],
  ["taskResult", "the result a task-augmented request (params carrying task, a TaskMetadata) is answered with instead of results (CreateTaskResult); null when the request cannot be task-augmented at this version"],
  ["taskCapability", "with a taskResult: the capability key path the receiver declares to accept the request as a task (tasks.requests.<method segments>, where its capabilities define it); else null"],
  ["paginated", "a request whose params declare cursor and whose every result declares nextCursor: a list a client pages through"],
];

/** The tables as JSON text: `{ "<label>": { "<method>": row } }`, labels in generation order. */
export function methodTableJson(tables: MethodTables): string {
  return JSON.stringify(Object.fromEntries(tables), null, 2) + "\n";
}

const code = (s: string) => `\`${s}\``;
const cell = (s: string) => s.replace(/\|/g, "\\|");

function status(r: MethodRow): string {
  if (r.status === "present") return "present";
  if (r.status === "extension") return `extension (${r.extensions.join(", ")})`;
  const era = r.otherEra ? ", other era" : "";
  return r.status === "removed" ? `removed since ${r.since} (in ${r.nearest}${era})` : `from ${r.since} on${era}`;
}

/** A side's verdict in a cell: `accepted`, or the refusal's reason (with the policy that may lift it). */
function verdict(v: Verdict): string {
  if (v.accepted) return "accepted";
  return v.policy === null ? v.reason : `${v.reason} (${v.policy} policy)`;
}

/** The tables as Markdown: one section per label. */
export function methodTableMarkdown(tables: MethodTables): string {
  const out: string[] = ["# Method table", ""];
  for (const [label, table] of tables) {
    out.push(`## ${label}`, "", "| method | status | kind | sender → receivers | at server | at client | params | results | normalizer | resultType | capabilities | Mcp-Name | task result | paginated |", "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (const [method, r] of Object.entries(table)) {
      const params = r.params === null ? "—" : `${r.params.definition === null ? "inline" : code(r.params.definition)}${r.params.required ? "" : " (optional)"}`;
      out.push(
        `| ${code(method)} | ${status(r)}${r.extensions.length > 0 && r.status !== "extension" ? `; added by ${r.extensions.join(", ")}` : ""} | ${r.kind} | ${r.sender} → ${r.receivers.join(", ")} | ${verdict(r.verdicts.server)} | ${verdict(r.verdicts.client)} | ${params} | ${r.results === null ? "—" : cell(r.results.map(code).join(" | "))} | ${r.normalizer === null ? "—" : normalizerKind(r.normalizer)} | ${r.resultTypes === null ? "—" : r.resultTypes.join(", ")} | ${r.capabilities.length === 0 ? "—" : r.capabilities.map((p) => code(p.join("."))).join(", ")} | ${r.nameParam === null ? "—" : code(r.nameParam)} | ${r.taskResult === null ? "—" : `${code(r.taskResult)}${r.taskCapability === null ? "" : ` (${code(r.taskCapability.join("."))})`}`} | ${r.paginated ? "yes" : "—"} |`,
      );
    }
    out.push("");
  }
  return out.join("\n");
}
