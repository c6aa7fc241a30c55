// Review tooling: what changed between two versions (diffVersions), what a regeneration changes in
// the public API (diffGeneratedTrees), and moving the lock to a new spec (pinLock). Never prints.
import { buildModel, type ModelOptions } from "../pipeline.js";
import { diffVersions, type VersionDiff } from "./version.js";

export * from "./version.js";
export { apiDiffMarkdown, versionDiffMarkdown, type MarkdownOptions } from "./markdown.js";
export { assertGeneratedTree, diffApiSurfaces, diffGeneratedTrees, readApiSurfaces, type ApiDiff, type ApiSurface, type ApiSymbol, type SymbolChange, type VersionApiChange } from "./api.js";
export { findSpecVersions, formatLock, pinLock, pinSummary, type PinOptions, type PinResult, type PinnedVersion } from "./pin.js";

/** Compare two version labels of a schemas folder (any labels, in the order given). */
export function diffLabels(from: string, to: string, options: Omit<ModelOptions, "versions">): VersionDiff {
  const model = buildModel({ ...options, versions: [from, to] });
  const pick = (label: string) => model.versions.find((v) => v.label === label)!;
  return diffVersions(pick(from), pick(to));
}
