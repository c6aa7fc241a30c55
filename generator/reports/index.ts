// The reports stage: the project-wide reports beside the targets' trees, printed from the model
// whatever targets run — MATRIX.md (method × version, fidelity, errata, extensions) and
// DIFFS/<from>..<to>.md (the diff of each consecutive pair of versions, and of each extension module
// against its core). The review reports of `bump` (bump.ts) and the text of `mcp-codegen diff` and
// `errata` (cli.ts) are printed by this folder's printers too. No target prints a report.
import type { ProtocolModel } from "../model/types.js";
import { finish } from "../print/text.js";
import { emitDiffs } from "./diffs.js";
import { emitMatrix } from "./matrix.js";
import { projectionsMarkdown } from "./projections.js";
import { MATRIX_FILE } from "./paths.js";
import { reportTemplates } from "./templates.js";

export { isReportPath } from "./paths.js";

export interface ReportsContext {
  /** Folder of the content-addressed template cache, or undefined for none. */
  cacheDir?: string;
}

/** The reports of a model: paths relative to the root of the output tree. */
export function emitReports(model: ProtocolModel, context: ReportsContext = {}): Map<string, string> {
  const templates = reportTemplates(context.cacheDir);
  // MATRIX.md ends with the projections section: what the newest version's handlers send to each older one.
  const projections = projectionsMarkdown(model);
  const files = new Map<string, string>([[MATRIX_FILE, finish(emitMatrix(model, templates) + (projections === "" ? "" : `\n${projections}`))]]);
  for (const [p, text] of emitDiffs(model, templates)) files.set(p, text);
  return files;
}
