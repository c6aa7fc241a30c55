// The protocol order of versions: which version is newer, decided once for every layer. The method table's
// `removed` and `later` rows (their `nearest` and `since`), the projections, one handler set (written for
// the newest version served), the reports and the printed `protocolOrder` all read it; no layer orders
// labels by itself (sorting labels by code unit is only a listing order). The rule, from what the schemas
// and the labels say:
// 1. era: every legacy version (its schema has `initialize`) before every modern one (the stateless
//    revisions that removed it);
// 2. within an era, a label that is a protocol version date (`YYYY-MM-DD`, the string the version is
//    negotiated by and the spec dates its releases with) by its date;
// 3. a label that is no date (`draft`, a bump's new label) names a revision not released under a date:
//    after the dated ones of its era, those among themselves by label (nothing in the lock or the
//    schemas orders them further).
import { byCodeUnit } from "../order.js";
import type { VersionModel } from "./types.js";

/** Whether a label is a protocol version date (a published revision), not a draft's or a bump's own name. */
export function isDated(label: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(label);
}

type Ordered = Pick<VersionModel, "label" | "era">;

/** `versions` in protocol order (this file's header states the rule), the newest last. */
export function inProtocolOrder<V extends Ordered>(versions: readonly V[]): V[] {
  const rank = (v: Ordered) => [v.era === "legacy" ? 0 : 1, isDated(v.label) ? 0 : 1] as const;
  return [...versions].sort((a, b) => {
    const [x, y] = [rank(a), rank(b)];
    return x[0] - y[0] || x[1] - y[1] || byCodeUnit(a.label, b.label);
  });
}

/** The labels of `versions` in protocol order, the newest last. */
export function protocolOrder(versions: readonly Ordered[]): string[] {
  return inProtocolOrder(versions).map((v) => v.label);
}
