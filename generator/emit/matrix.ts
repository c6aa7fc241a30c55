// MATRIX.md: method × version.
import type { Method, ProtocolModel } from "../model/types.js";
import { template } from "./templates.js";

function rows(model: ProtocolModel, pick: (v: ProtocolModel["versions"][number]) => Method[]) {
  const methods = [...new Set(model.versions.flatMap((v) => pick(v).map((m) => m.method)))].sort();
  return methods.map((method) => ({
    method,
    cells: model.versions.map((v) => {
      const m = pick(v).find((x) => x.method === method);
      if (!m) return "—";
      // A `|` inside a table cell must be escaped, even within a code span.
      return m.kind === "request" ? `${m.sender} · \`${m.resultType.ts.replaceAll("|", "\\|")}\` · ${m.resultShape}` : m.sender;
    }),
  }));
}

export function emitMatrix(model: ProtocolModel): string {
  return template("MATRIX.md.hbs")({
    versions: model.versions,
    requestRows: rows(model, (v) => v.requests),
    notificationRows: rows(model, (v) => v.notifications),
  });
}
