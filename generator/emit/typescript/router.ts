// Emits router.ts: the server's version router over every version's dispatcher. Which versions are
// legacy or modern comes from each version's `era`; which version has which client message, from
// the requests and notifications a client sends.
import type { ProtocolModel } from "../../model/types.js";
import type { Templates } from "../templates.js";
import { byKey } from "../../order.js";
import { receivedBy } from "../../model/rules.js";

export function emitRouter(model: ProtocolModel, ident: (label: string) => string, templates: Templates, finish: (text: string) => string): string {
  const versions = model.versions.map((v) => ({ label: v.label, era: v.era, ident: ident(v.label), legacy: v.era === "legacy", owned: v.era === "legacy" ? "LegacyOwned" : "ModernOwned" }));
  const has = new Map<string, string[]>();
  for (const v of model.versions) {
    for (const m of [...v.requests, ...v.notifications]) {
      if (!receivedBy(m.sender, "server")) continue;
      const list = has.get(m.method) ?? [];
      list.push(v.label);
      has.set(m.method, list);
    }
  }
  const clientMessages = [...has].sort(byKey).map(([method, labels]) => ({ method, versions: labels }));
  return finish(
    templates.get("router.ts.hbs")({
      versions: model.versions,
      views: versions,
      legacy: versions.filter((v) => v.legacy).map((v) => v.label),
      modern: versions.filter((v) => !v.legacy).map((v) => v.label),
      clientMessages,
    }),
  );
}
