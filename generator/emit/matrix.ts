// MATRIX.md: method × version, with each request's normalizer kind and a link to each version's diff.
import { normalizerKind } from "../diff/version.js";
import type { Method, ProtocolModel } from "../model/types.js";
import { consecutivePairs, diffReportPath } from "./diffs.js";
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

export function emitMatrix(model: ProtocolModel): string {
  const diffFrom = new Map(consecutivePairs(model).map(([a, b]) => [b.label, `[from ${a.label}](${diffReportPath(a.label, b.label)})`]));
  return template("MATRIX.md.hbs")({
    versions: model.versions.map((v) => ({ ...v, diff: diffFrom.get(v.label) ?? "—" })),
    requestRows: rows(model, (v) => v.requests),
    notificationRows: rows(model, (v) => v.notifications),
  });
}
