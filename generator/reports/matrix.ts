// MATRIX.md: method × version, with each request's normalizer kind, a link to each version's diff,
// each version's type fidelity against the spec's schema.ts, its errata (schema.json against schema.ts),
// and the extension modules (each against its core version).
import { normalizerKind } from "../diff/version.js";
import type { Method, ProtocolModel, VersionModel } from "../model/types.js";
import { consecutivePairs, diffReportPath, extensionPairs } from "./diffs.js";
import { errataCounts, errataTables } from "./errata-markdown.js";
import type { Templates } from "../print/templates.js";

function rows(model: ProtocolModel, pick: (v: ProtocolModel["versions"][number]) => Method[]) {
  const methods = [...new Set(model.versions.flatMap((v) => pick(v).map((m) => m.method)))].sort();
  return methods.map((method) => ({
    method,
    cells: model.versions.map((v) => {
      const m = pick(v).find((x) => x.method === method);
      if (!m) return "—";
      // Results by the spec's own names; a `|` inside a table cell must be escaped, even within a code span.
      return m.kind === "request" ? `${m.sender} · \`${m.results.join(" \\| ")}\` · ${normalizerKind(m, v.era)}` : m.sender;
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
  const diffFrom = new Map(consecutivePairs(model).map(([a, b]) => [b.label, `[from ${a.label}](${diffReportPath(a.label, b.label)})`]));
  return templates.get("MATRIX.md.hbs")({
    versions: model.versions.map((v) => ({ ...v, diff: diffFrom.get(v.label) ?? "—", fidelity: fidelity(v), errata: errataCounts(v) })),
    errata: errataTables(model),
    requestRows: rows(model, (v) => v.requests),
    notificationRows: rows(model, (v) => v.notifications),
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
