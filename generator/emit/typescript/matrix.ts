// MATRIX.md: method × version, with each request's normalizer kind, a link to each version's diff,
// each version's type fidelity against the spec's schema.ts, and its errata (schema.json against schema.ts).
import { normalizerKind } from "../../diff/version.js";
import type { Method, ProtocolModel, VersionModel } from "../../model/types.js";
import { consecutivePairs, diffReportPath } from "../diffs.js";
import { errataCounts, errataTables } from "../errata.js";
import type { Templates } from "../templates.js";

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
  });
}
