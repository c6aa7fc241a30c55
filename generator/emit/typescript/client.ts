// Emits client.ts: the client's version table over every version's generated code (catalogue,
// METHOD_TABLE with each method's status, sender and the capabilities it needs, params and result
// schemas, guards, normalizers, client dispatcher). The rules are ClientCore's (runtime/client.ts).
import type { ProtocolModel } from "../../model/types.js";
import type { Templates } from "../../print/templates.js";

export function emitClient(model: ProtocolModel, ident: (label: string) => string, templates: Templates, finish: (text: string) => string): string {
  const views = model.versions.map((v) => ({
    label: v.label,
    era: v.era,
    ident: ident(v.label),
    inputResponse: Object.hasOwn(v.definitions, "InputResponse"),
  }));
  return finish(templates.get("client.ts.hbs")({ versions: model.versions, views }));
}
