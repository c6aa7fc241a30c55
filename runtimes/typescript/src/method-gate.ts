// The method gate over a version's METHOD_TABLE (generated/<version>/methods.ts): the model's verdict
// on a method arriving at one side, under a gate policy. The Ruby gate (Runtime.refusal) and the Python
// gate (runtime.gate) read the same table under the same policy data and give the same verdict; nothing
// here decides which methods a version has, removed or sends from which side.
import { METHOD_NOT_FOUND } from "../protocol.js";

/** A row of METHOD_TABLE, the fields the gate reads. */
export interface GateRow {
  readonly status: string;
  readonly sender: string;
  readonly receivers: readonly string[];
  readonly nearest: string | null;
}

/** A row of METHOD_TABLE as the runtime reads it: the gate's fields, the param a modern request names itself by (`Mcp-Name`), its `resultType` values. */
export interface RoutedRow extends GateRow {
  readonly nameParam: string | null;
  /** The `resultType` values of the request's result here, the default first; null when none (legacy, a notification, absent). */
  readonly resultTypes: readonly string[] | null;
}

/** A version's (or extension module's) METHOD_TABLE, generated/<label>/methods.ts. */
export type RoutedMethodTable = Readonly<Record<string, RoutedRow>>;

/**
 * What the gate does besides the table's verdicts. `custom`: a method no generated version has (or
 * only an extension the version does not serve). `later`: a method only later versions have. A removed
 * method and one only the other side sends are always refused.
 */
export interface GatePolicy {
  readonly custom: "pass" | "refuse";
  readonly later: "pass" | "refuse";
}

/** Why a method is refused: removed, sent by the other side only, only in later versions, or not a method of any version. */
export type RefusalReason = "removed" | "wrong_side" | "other_era" | "unknown";

/** The -32601 error to answer with. */
export interface MethodRefusal {
  code: typeof METHOD_NOT_FOUND;
  message: string;
  data: { method: string; protocolVersion: string; reason: RefusalReason };
}

function refused(method: string, protocolVersion: string, reason: RefusalReason, why: string): MethodRefusal {
  return { code: METHOD_NOT_FOUND, message: `Method not found: ${method} ${why}`, data: { method, protocolVersion, reason } };
}

/** The refusal of `method` arriving at `side` over a connection of `protocolVersion` (whose METHOD_TABLE is `table`), or null to serve it. */
export function methodRefusal(
  table: Readonly<Record<string, GateRow>>,
  method: string,
  protocolVersion: string,
  side: "client" | "server",
  policy: GatePolicy,
): MethodRefusal | null {
  const row = Object.hasOwn(table, method) ? table[method] : undefined;
  if (row === undefined || row.status === "extension") {
    return policy.custom === "pass" ? null : refused(method, protocolVersion, "unknown", `is not a method of protocol version ${protocolVersion}`);
  }
  if (row.status === "present") {
    return row.receivers.includes(side) ? null : refused(method, protocolVersion, "wrong_side", `is sent by the ${row.sender} only in protocol version ${protocolVersion}`);
  }
  if (row.status === "removed") return refused(method, protocolVersion, "removed", `is not a method of protocol version ${protocolVersion} (removed after ${row.nearest})`);
  return policy.later === "pass" ? null : refused(method, protocolVersion, "other_era", `is not a method of protocol version ${protocolVersion} (first in ${row.nearest})`);
}
