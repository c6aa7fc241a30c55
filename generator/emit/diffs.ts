// generated/DIFFS/<from>..<to>.md: the version diff of each consecutive pair of versions, in label order.
import { versionDiffMarkdown } from "./diff-markdown.js";
import { diffVersions } from "../diff/version.js";
import type { ProtocolModel, VersionModel } from "../model/types.js";
import type { Templates } from "./templates.js";

/** The consecutive pairs of a model's versions (sorted by label, so `draft` comes last). */
export function consecutivePairs(model: ProtocolModel): Array<[VersionModel, VersionModel]> {
  return model.versions.slice(1).map((v, i) => [model.versions[i], v]);
}

export function diffReportPath(from: string, to: string): string {
  return `DIFFS/${from}..${to}.md`;
}

export function emitDiffs(model: ProtocolModel, templates?: Templates): Map<string, string> {
  const files = new Map<string, string>();
  for (const [a, b] of consecutivePairs(model)) {
    files.set(diffReportPath(a.label, b.label), versionDiffMarkdown(diffVersions(a, b), { generated: { versions: [a, b] }, templates }));
  }
  return files;
}
