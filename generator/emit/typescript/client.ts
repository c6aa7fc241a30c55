// Emits client.ts: the client's version table over every version's generated code (catalogue,
// METHOD_TABLE with each method's status, sender and the capabilities it needs, params and result
// schemas, guards, normalizers, client dispatcher; the schema and guard of each request's `taskResult`,
// by method; each extension module layered onto the version, by identifier, as an entry of its own that
// the client uses when both sides declare the extension). The rules are ClientCore's (runtime/client.ts).
import { extensionLabel } from "../../model/extensions.js";
import { byCodeUnit } from "../../order.js";
import { tableOf } from "../../print/table.js";
import type { ProtocolModel } from "../../model/types.js";
import type { Templates } from "../../print/templates.js";
import { definitionNaming } from "./naming.js";

export function emitClient(model: ProtocolModel, ident: (label: string) => string, templates: Templates, finish: (text: string) => string): string {
  const tables = model.tables;
  const views = model.versions.map((v) => {
    const names = definitionNaming(v.ir);
    const taskResults = Object.entries(tableOf(tables, v.label))
      .filter(([, row]) => row.status === "present" && row.taskResult !== null)
      .map(([method, row]) => ({ method, schema: names.of(row.taskResult!).schema, guard: names.of(row.taskResult!).guard }))
      .sort((a, b) => byCodeUnit(a.method, b.method));
    return {
      label: v.label,
      era: v.era,
      ident: ident(v.label),
      inputResponse: Object.hasOwn(v.definitions, "InputResponse"),
      taskResults,
      extensions: (model.extensions ?? [])
        .filter((e) => e.core === v.label)
        .map((e) => ({
          identifier: e.identifier,
          folder: extensionLabel(e),
          ident: `${ident(v.label)}_${e.name.replace(/-/g, "_")}`,
          inputResponse: Object.hasOwn(e.model.definitions, "InputResponse"),
          // What the extension adds that a client handles: its notifications (the server sends them).
          handled: e.notifications.length === 0 ? null : [...e.notifications].sort(byCodeUnit).map((m) => JSON.stringify(m)).join(" | "),
        }))
        .sort((a, b) => byCodeUnit(a.identifier, b.identifier)),
    };
  });
  return finish(templates.get("client.ts.hbs")({ versions: model.versions, views }));
}
