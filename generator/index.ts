// mcp-codegen's library API. It never prints or exits; errors are thrown (`InputError` for bad input).
export { InputError } from "./errors.js";
export { GENERATED_MARKER, sha256 } from "./files.js";
export type * from "./model/types.js";
export { buildVersionModel, resolveAlias } from "./model/build.js";
export { readOverrides, type ResultOverride } from "./model/overrides.js";
export { compareVersion, erratumStatus, findErrata, readReviewedErrata, type Erratum, type ErratumKind, type ErratumStatus, type ReviewedErratum, type VersionErratum } from "./model/errata.js";
export { errataJson, errataMarkdown } from "./emit/errata.js";
export { loadSpec, loadSpecBytes, readSchemaDocument, type LoadOptions } from "./spec/load.js";
export { patchesFor, stalePatchFiles, type NamedPatch, type PatchFile } from "./spec/patch.js";
export { readLock, syncSchemas, specDirCandidates, type LockedFile, type LockedVersion, type SpecLock, type SyncOptions, type SyncedVersion } from "./spec/lock.js";
export { findSpecVersions, formatLock, stagePin, type PinOptions, type StagedPin, type StagedVersion } from "./spec/pin.js";
export { emitTree, emitVersion, latestReleased, versionIdent, type GeneratedFiles } from "./emit/index.js";
export { apiDiffMarkdown, versionDiffMarkdown, type MarkdownOptions } from "./emit/diff-markdown.js";
export * from "./diff/index.js";
export { buildModel, buildModelFromSpecs, diffLabels, discoverVersions, generateFiles, selectVersions, type ModelOptions, type SpecSource } from "./pipeline.js";
export { checkTree, isReviewReport, stageTree, writeTree, type StaleFile, type WriteOptions } from "./writer.js";
export { bump, pinLock, pinSummary, reviewReportPath, type BumpOptions, type PinResult, type PinnedVersion, type UpdateOptions } from "./bump.js";
export { projectPaths, type ProjectPaths } from "./paths.js";
