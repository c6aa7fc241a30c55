// Where the reports stage keeps its templates, and which paths of the output tree are its reports.
import path from "node:path";
import { generatorSourceDir } from "../paths.js";

/** The reports' templates (MATRIX.md, the version and API diffs, the errata). */
export const reportTemplatesDir = path.join(generatorSourceDir, "reports", "templates");

/** The method matrix, at the root of the output tree. */
export const MATRIX_FILE = "MATRIX.md";

/** `DIFFS/<from>..<to>.md`: the diff of two versions. */
export function diffReportPath(from: string, to: string): string {
  return `DIFFS/${from}..${to}.md`;
}

/**
 * Whether a path of the output tree is a report (MATRIX.md, a file of DIFFS/): the reports stage's,
 * whatever targets run. The review reports `bump` writes under DIFFS/ are kept by regeneration (writer.ts).
 */
export function isReportPath(rel: string): boolean {
  return rel === MATRIX_FILE || rel.startsWith("DIFFS/");
}
