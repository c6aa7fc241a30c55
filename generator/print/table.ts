// The method table as the targets and the reports read it: the model's `tables`, computed once with the model
// (generator/model/table.ts); nothing here computes a table.
import type { MethodTables, VersionTable } from "../model/types.js";

/** How a request's result is normalized, as its row says: the shape of its normalizer kind and the `resultType` values, the default first (null: none). */
export interface RowNormalizer {
  readonly shape: "empty" | "object";
  readonly resultTypes: readonly string[] | null;
}

/** The normalizer a request's row of `table` names; a request without a row (or a row without a normalizer) is an error. */
export function normalizerOf(table: VersionTable, method: string): RowNormalizer {
  const row = Object.hasOwn(table, method) ? table[method] : undefined;
  if (row === undefined || row.normalizer === null) throw new Error(`the method table has no normalizer for the request ${method}`);
  return { shape: row.normalizer.split("+")[0] === "empty" ? "empty" : "object", resultTypes: row.resultTypes };
}

/** The table of one label (a version, or an extension module `<core>+<name>`). */
export function tableOf(tables: MethodTables, label: string): VersionTable {
  const table = tables.get(label);
  if (table === undefined) throw new Error(`no method table for ${label}`);
  return table;
}
