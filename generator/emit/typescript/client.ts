// Emits client.ts: the client's version table over every version's generated code (catalogue,
// params and result schemas, guards, normalizers, client dispatcher) and, per version, the server
// capabilities each client request needs (schemas/method-capabilities.json, as the Ruby gate reads
// it). The rules are ClientCore's (runtime/client.ts).
import type { ProtocolModel } from "../../model/types.js";
import { methodCapabilities } from "../ruby/capabilities.js";
import type { Templates } from "../templates.js";

export function emitClient(model: ProtocolModel, ident: (label: string) => string, templates: Templates, finish: (text: string) => string): string {
  const capabilities = methodCapabilities(model.versions);
  const views = model.versions.map((v) => {
    const byMethod = capabilities.get(v.label) ?? new Map<string, string[]>();
    const requires = v.requests
      .filter((m) => m.sender !== "server")
      .map((m) => ({ method: m.method, paths: byMethod.get(m.method) ?? [] }))
      .filter((r) => r.paths.length > 0)
      .sort((a, b) => (a.method < b.method ? -1 : a.method > b.method ? 1 : 0));
    return {
      label: v.label,
      era: v.era,
      ident: ident(v.label),
      requires,
      inputResponse: Object.hasOwn(v.definitions, "InputResponse"),
    };
  });
  return finish(templates.get("client.ts.hbs")({ versions: model.versions, views }));
}
