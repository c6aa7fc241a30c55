// The method table as the targets and the reports read it: the model's `tables`, computed once with the model
// (generator/model/table.ts); nothing here computes a table.
import type { MethodTables, RowNormalizer, VersionTable } from "../model/types.js";

export type { RowNormalizer } from "../model/types.js";

/** The normalizer a request's row of `table` names; a request without a row (or a row without a normalizer) is an error. */
export function normalizerOf(table: VersionTable, method: string): RowNormalizer {
  const row = Object.hasOwn(table, method) ? table[method] : undefined;
  if (row === undefined || row.normalizer === null) throw new Error(`the method table has no normalizer for the request ${method}`);
  return row.normalizer;
}

/** A normalizer as the reports name it: its shape, `+resultType` where results carry `resultType` (`object+resultType`). */
export function normalizerKind(n: RowNormalizer): string {
  return n.resultTypes === null ? n.shape : `${n.shape}+resultType`;
}

/** The table of one label (a version, or an extension module `<core>+<name>`). */
export function tableOf(tables: MethodTables, label: string): VersionTable {
  const table = tables.get(label);
  if (table === undefined) throw new Error(`no method table for ${label}`);
  return table;
}
