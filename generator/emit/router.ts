// Emits router.ts: the server's version router over every version's dispatcher. Which versions are
// legacy or modern comes from each version's `era`; which version has which client message, from
// the requests and notifications a client sends.
import type { ProtocolModel } from "../model/types.js";
import { template } from "./templates.js";
import { byKey } from "../order.js";
import { extensionFolder } from "./extensions.js";

export function emitRouter(model: ProtocolModel, ident: (label: string) => string, finish: (text: string) => string): string {
  const versions = model.versions.map((v) => {
    const extensions = (model.extensions ?? [])
      .filter((e) => e.core === v.label)
      .map((e) => ({ identifier: e.identifier, folder: extensionFolder(e), ident: `${ident(v.label)}_${e.name.replace(/-/g, "_")}`, methods: [...e.requests, ...e.notifications].sort() }));
    return { label: v.label, era: v.era, ident: ident(v.label), legacy: v.era === "legacy", extensions };
  });
  const has = new Map<string, string[]>();
  for (const v of model.versions) {
    for (const m of [...v.requests, ...v.notifications]) {
      if (m.sender === "server") continue;
      const list = has.get(m.method) ?? [];
      list.push(v.label);
      has.set(m.method, list);
    }
  }
  const clientMessages = [...has].sort(byKey).map(([method, labels]) => ({ method, versions: labels }));
  return finish(
    template("router.ts.hbs")({
      versions: model.versions,
      views: versions,
      extensions: versions.some((v) => v.extensions.length > 0),
      legacy: versions.filter((v) => v.legacy).map((v) => v.label),
      modern: versions.filter((v) => !v.legacy).map((v) => v.label),
      clientMessages,
    }),
  );
}
