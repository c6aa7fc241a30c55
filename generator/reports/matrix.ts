// MATRIX.md: method × version (printed from the method table), with each request's normalizer kind, a link to each version's diff,
// each version's type fidelity against the spec's schema.ts, its errata (schema.json against schema.ts),
// and the extension modules (each against its core version).
import type { MethodTables, ProtocolModel, VersionModel } from "../model/types.js";
import { consecutivePairs, diffReportPath, extensionPairs } from "./diffs.js";
import { errataCounts, errataTables } from "./errata-markdown.js";
import { normalizerKind } from "../print/table.js";
import type { Templates } from "../print/templates.js";

/** The method × version rows of one kind, printed from the method table (the model's decisions). */
function rows(model: ProtocolModel, tables: MethodTables, kind: "request" | "notification") {
  const labels = model.versions.map((v) => v.label);
  const here = (label: string, method: string) => {
    const r = tables.get(label)?.[method];
    return r !== undefined && r.status === "present" && r.kind === kind ? r : undefined;
  };
  const methods = [...new Set(labels.flatMap((l) => Object.keys(tables.get(l) ?? {}).filter((m) => here(l, m) !== undefined)))].sort();
  return methods.map((method) => ({
    method,
    cells: labels.map((label) => {
      const r = here(label, method);
      if (!r) return "—";
      // Results by the spec's own names; a `|` inside a table cell must be escaped, even within a code span.
      return r.kind === "request" ? `${r.sender} · \`${r.results!.join(" \\| ")}\` · ${normalizerKind(r.normalizer!)}` : r.sender;
    }),
  }));
}

/**
  * A version's type fidelity cell: against its schema.ts, every one of the spec's definitions is
  * equal (test/emit/typescript/fidelity.test.ts proves it); or it has no schema.ts, and its types follow the
  * fallback rule.
 */
function fidelity(v: VersionModel): string {
  if (!v.specTypes) return "no schema.ts: fallback rule";
  return `${[...v.ir.definitions.values()].filter((d) => d.derived === null).length} equal`;
}

export function emitMatrix(model: ProtocolModel, templates: Templates): string {
  const tables = model.tables;
  const diffFrom = new Map(consecutivePairs(model).map(([a, b]) => [b.label, `[from ${a.label}](${diffReportPath(a.label, b.label)})`]));
  return templates.get("MATRIX.md.hbs")({
    versions: model.versions.map((v) => ({ ...v, diff: diffFrom.get(v.label) ?? "—", fidelity: fidelity(v), errata: errataCounts(v) })),
    errata: errataTables(model),
    requestRows: rows(model, tables, "request"),
    notificationRows: rows(model, tables, "notification"),
    extensionsSection: extensionsSection(model, templates),
  });
}

/** The Extensions section: one row per extension module; nothing when the tree has none. */
function extensionsSection(model: ProtocolModel, templates: Templates): string {
  const pairs = extensionPairs(model);
  if (pairs.length === 0) return "";
  return templates.get("extensions-table.md.hbs")({
    extensions: pairs.map(({ ext, core, merged }) => ({
      module: merged.label,
      identifier: ext.identifier,
      label: ext.label,
      core: ext.core,
      methods: [...ext.requests, ...ext.notifications].map((m) => `\`${m}\``).join(", ") || "—",
      results: Object.entries(ext.results).map(([m, r]) => `\`${m}\` + \`${r.join(" \\| ")}\``).join(", ") || "—",
      // test/emit/typescript/extension-fidelity.test.ts proves every added definition equal to the extension's schema.ts.
      fidelity: ext.model.specTypes ? `${ext.definitions.length} added, equal` : "no schema.ts: fallback rule",
      diff: `[from ${core.label}](${diffReportPath(core.label, merged.label)})`,
    })),
  });
}
