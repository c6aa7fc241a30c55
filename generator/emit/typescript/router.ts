// Emits router.ts: the server's version router over every version's dispatcher. Which versions are
// legacy or modern comes from each version's `era`; which methods each serves, from its METHOD_TABLE
// (the model's method table, printed in <label>/methods.ts), which the router's gate reads.
import type { ExtensionModel, ProtocolModel, VersionModel } from "../../model/types.js";
import type { Templates } from "../../print/templates.js";
import { extensionLabel } from "../../model/extensions.js";

/** One served extension module of a version: its identifier, module identifier, folder and methods. */
interface ExtensionView {
  identifier: string;
  ident: string;
  folder: string;
  methods: string[];
}

function extensionView(v: VersionModel, e: ExtensionModel, ident: (label: string) => string): ExtensionView {
  return { identifier: e.identifier, folder: extensionLabel(e), ident: `${ident(v.label)}_${e.name.replace(/-/g, "_")}`, methods: [...e.requests, ...e.notifications].sort() };
}

/** A version's member type of ServedVersions: its handlers and capabilities, and the extensions it may serve. */
function servedType(id: string, owned: string, extensions: readonly ExtensionView[]): string {
  const core = `Served<Omit<${id}.ServerHandlers, ${owned}>, ${id}.ServerCapabilities>`;
  if (extensions.length === 0) return core;
  return [
    `${core} & {`,
    "    /** The extensions served, by identifier: `server/discover` advertises them; a request that negotiates one is answered by its module. */",
    "    extensions?: {",
    ...extensions.map((e) => `      ${JSON.stringify(e.identifier)}?: ServedExtension<Omit<${e.ident}.ServerHandlers, ModernOwned>>;`),
    "    };",
    "  }",
  ].join("\n");
}

/** A version's member type of ExtensionsAt: each extension it has a module of, optional; `{}` when none. */
function extensionsType(extensions: readonly ExtensionView[]): string {
  if (extensions.length === 0) return "{}";
  return `{ ${extensions.map((e) => `${JSON.stringify(e.identifier)}?: ServedExtension<Omit<${e.ident}.ServerHandlers, ModernOwned>>;`).join(" ")} }`;
}

/** A version's entry of the router table: its dispatcher, and each extension module's with the methods it adds. */
function tableEntry(label: string, era: string, id: string, extensions: readonly ExtensionView[]): string {
  if (extensions.length === 0) return `    { label: ${JSON.stringify(label)}, era: ${JSON.stringify(era)}, createDispatcher: ${id}.createServerDispatcher, methodTable: ${id}.METHOD_TABLE, customResultTypes: ${id}.customResultTypes, discoverServerInfo: ${id}.discoverServerInfo },`;
  return [
    "    {",
    `      label: ${JSON.stringify(label)},`,
    `      era: ${JSON.stringify(era)},`,
    `      createDispatcher: ${id}.createServerDispatcher,`,
    `      methodTable: ${id}.METHOD_TABLE,`,
    `      customResultTypes: ${id}.customResultTypes,`,
    `      discoverServerInfo: ${id}.discoverServerInfo,`,
    "      extensions: {",
    ...extensions.map(
      (e) => `        ${JSON.stringify(e.identifier)}: { createDispatcher: ${e.ident}.createServerDispatcher, methodTable: ${e.ident}.METHOD_TABLE, methods: [${e.methods.map((m) => JSON.stringify(m)).join(", ")}] },`,
    ),
    "      },",
    "    },",
  ].join("\n");
}

export function emitRouter(model: ProtocolModel, ident: (label: string) => string, templates: Templates, finish: (text: string) => string): string {
  const versions = model.versions.map((v) => {
    const extensions = (model.extensions ?? []).filter((e) => e.core === v.label).map((e) => extensionView(v, e, ident));
    const id = ident(v.label);
    const owned = v.era === "legacy" ? "LegacyOwned" : "ModernOwned";
    return {
      label: v.label,
      era: v.era,
      ident: id,
      legacy: v.era === "legacy",
      owned,
      extensions,
      served: servedType(id, owned, extensions),
      handlersAt: `Omit<${id}.ServerHandlers, ${owned}>`,
      capabilitiesAt: `${id}.ServerCapabilities`,
      extensionsAt: extensionsType(extensions),
      entry: tableEntry(v.label, v.era, id, extensions),
    };
  });
  // The modules imported: each version's, followed by its extension modules'.
  const modules = versions.flatMap((v) => [{ ident: v.ident, folder: v.label }, ...v.extensions.map((e) => ({ ident: e.ident, folder: e.folder }))]);
  const typeImports = versions.some((v) => v.extensions.length > 0) ? ['import type { ServedExtension } from "./runtime/router-extensions.js";'] : [];
  return finish(
    templates.get("router.ts.hbs")({
      versions: model.versions,
      views: versions,
      modules,
      typeImports,
      legacy: versions.filter((v) => v.legacy).map((v) => v.label),
      modern: versions.filter((v) => !v.legacy).map((v) => v.label),
    }),
  );
}
