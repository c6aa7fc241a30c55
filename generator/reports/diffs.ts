// generated/DIFFS/<from>..<to>.md: the version diff of each consecutive pair of versions, in label order.
import { versionDiffMarkdown } from "./diff-markdown.js";
import { diffVersions } from "../diff/version.js";
import type { ExtensionModel, ProtocolModel, VersionModel } from "../model/types.js";
import { extensionLabel } from "../model/extensions.js";
import type { Templates } from "../print/templates.js";
import { diffReportPath } from "./paths.js";

export { diffReportPath } from "./paths.js";

/** The consecutive pairs of a model's versions (sorted by label, so `draft` comes last). */
export function consecutivePairs(model: ProtocolModel): Array<[VersionModel, VersionModel]> {
  return model.versions.slice(1).map((v, i) => [model.versions[i], v]);
}


/** Each extension module against its core version: what the extension adds (`DIFFS/<core>..<core>+<name>.md`). */
export function extensionPairs(model: ProtocolModel): Array<{ ext: ExtensionModel; core: VersionModel; merged: VersionModel }> {
  return (model.extensions ?? []).flatMap((ext) => {
    const core = model.versions.find((v) => v.label === ext.core);
    return core === undefined ? [] : [{ ext, core, merged: { ...ext.model, label: extensionLabel(ext) } }];
  });
}

export function emitDiffs(model: ProtocolModel, templates?: Templates): Map<string, string> {
  const files = new Map<string, string>();
  for (const [a, b] of consecutivePairs(model)) {
    files.set(diffReportPath(a.label, b.label), versionDiffMarkdown(diffVersions(a, b), { generated: { versions: [a, b] }, templates }));
  }
  for (const { core, merged } of extensionPairs(model)) {
    files.set(diffReportPath(core.label, merged.label), versionDiffMarkdown(diffVersions(core, merged), { generated: { versions: [core, merged] }, templates }));
  }
  return files;
}
