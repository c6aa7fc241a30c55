// MATRIX.md: method × version, with each request's normalizer kind, a link to each version's diff,
// and each version's type fidelity against the spec's schema.ts.
import { normalizerKind } from "../diff/version.js";
import type { Method, ProtocolModel, VersionModel } from "../model/types.js";
import { consecutivePairs, diffReportPath, extensionPairs } from "./diffs.js";
import { template } from "./templates.js";

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
 * A version's type fidelity cell: against its schema.ts, how many of the spec's definitions are
 * equal (test/types/fidelity.test.ts proves it) and which are listed as reviewed exceptions; or that
 * it has no schema.ts, and its types follow the fallback rule.
 */
function fidelity(v: VersionModel): string {
  if (!v.specTypes) return "no schema.ts: fallback rule";
  const own = [...v.ir.definitions.values()].filter((d) => d.derived === null).length;
  const listed = Object.keys(v.typeExceptions ?? {}).sort();
  const names = listed.length === 0 ? "" : ` (${listed.map((n) => `\`${n}\``).join(", ")})`;
  return `${own - listed.length} equal / ${listed.length} listed${names}`;
}

export function emitMatrix(model: ProtocolModel): string {
  const diffFrom = new Map(consecutivePairs(model).map(([a, b]) => [b.label, `[from ${a.label}](${diffReportPath(a.label, b.label)})`]));
  return template("MATRIX.md.hbs")({
    versions: model.versions.map((v) => ({ ...v, diff: diffFrom.get(v.label) ?? "—", fidelity: fidelity(v) })),
    requestRows: rows(model, (v) => v.requests),
    notificationRows: rows(model, (v) => v.notifications),
    extensions: extensionPairs(model).map(({ ext, core, merged }) => ({
      module: merged.label,
      identifier: ext.identifier,
      label: ext.label,
      core: ext.core,
      methods: [...ext.requests, ...ext.notifications].map((m) => `\`${m}\``).join(", ") || "—",
      results: Object.entries(ext.results).map(([m, r]) => `\`${m}\` + \`${r.join(" \\| ")}\``).join(", ") || "—",
      // test/types/extension-fidelity.test.ts proves every added definition equal to the extension's schema.ts.
      fidelity: ext.model.specTypes ? `${ext.definitions.length} added, equal` : "no schema.ts: fallback rule",
      diff: `[from ${core.label}](${diffReportPath(core.label, merged.label)})`,
    })),
  });
}
