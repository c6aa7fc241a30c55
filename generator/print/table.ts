// The method table as the targets and the reports read it: the model's (computed once by the pipeline), or, for a model
// built by hand, computed here over the tool's own reviewed capability data.
import { buildMethodTables } from "../model/table.js";
import type { MethodTables, ProtocolModel, VersionTable } from "../model/types.js";
import { methodCapabilitiesFile } from "../paths.js";
import { readMethodCapabilities } from "../source/method-capabilities.js";

export function tablesOf(model: ProtocolModel): MethodTables {
  return model.tables ?? buildMethodTables(model, readMethodCapabilities(methodCapabilitiesFile));
}

/** The table of one label (a version, or an extension module `<core>+<name>`). */
export function tableOf(tables: MethodTables, label: string): VersionTable {
  const table = tables.get(label);
  if (table === undefined) throw new Error(`no method table for ${label}`);
  return table;
}
