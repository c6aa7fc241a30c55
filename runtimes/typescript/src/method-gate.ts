// The method gate over a version's METHOD_TABLE (generated/<version>/methods.ts): each row carries the
// model's verdict on the method arriving at each side (accepted, or the refusal: code, reason, message,
// and the policy that may let it through); the gate looks it up and applies its policy, the only rule
// left here. A method no row names gets the protocol module's UNKNOWN_METHOD. The Ruby gate
// (Runtime.refusal), the Python gate (runtime.gate) and the Go gate (mcpruntime.Refusal) do the same
// lookup under the same policy data; none writes a message or decides a verdict.
import { UNKNOWN_METHOD } from "../protocol.js";

/** Why a method is refused: removed, sent by the other side only, only in later versions, or not a method of any version. */
export type RefusalReason = "removed" | "wrong_side" | "other_era" | "unknown";

/** A refusal as the table states it: the JSON-RPC error's code and message, `data.reason`, and the gate policy that may let the method through (null: none). */
export interface Refused {
  readonly accepted: false;
  readonly code: number;
  readonly reason: string;
  readonly message: string;
  readonly policy: "custom" | "later" | null;
}

/** A row's verdict at one side. */
export type Verdict = { readonly accepted: true } | Refused;

/** A row of METHOD_TABLE, the fields the gate reads: its verdict at each receiving side. */
export interface GateRow {
  readonly verdicts: { readonly client: Verdict; readonly server: Verdict };
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
 * method and one only the other side sends are always refused. Each names the verdicts whose `policy` it is.
 */
export interface GatePolicy {
  readonly custom: "pass" | "refuse";
  readonly later: "pass" | "refuse";
}

/** The -32601 error to answer with. */
export interface MethodRefusal {
  code: number;
  message: string;
  data: { method: string; protocolVersion: string; reason: RefusalReason };
}

/** UNKNOWN_METHOD's message with its `{method}` and `{protocolVersion}` slots filled from the refusal's data (a row's message is complete). */
function filled(message: string, data: MethodRefusal["data"]): string {
  return message.replace(/\{(method|protocolVersion)\}/g, (_, slot: "method" | "protocolVersion") => data[slot]);
}

/** The refusal of `method` arriving at `side` over a connection of `protocolVersion` (whose METHOD_TABLE is `table`), or null to serve it. */
export function methodRefusal(
  table: Readonly<Record<string, GateRow>>,
  method: string,
  protocolVersion: string,
  side: "client" | "server",
  policy: GatePolicy,
): MethodRefusal | null {
  const named = Object.hasOwn(table, method);
  const verdict: Verdict = named ? table[method].verdicts[side] : UNKNOWN_METHOD;
  if (verdict.accepted || (verdict.policy !== null && policy[verdict.policy] === "pass")) return null;
  const data = { method, protocolVersion, reason: verdict.reason as RefusalReason };
  return { code: verdict.code, message: named ? verdict.message : filled(verdict.message, data), data };
}
