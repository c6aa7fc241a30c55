// mcp-codegen's library API. It never prints or exits; errors are thrown (`InputError` for bad input).
export { InputError } from "./errors.js";
export { GENERATED_MARKER, sha256 } from "./files.js";
export type * from "./model/types.js";
export { buildVersionModel, resolveAlias } from "./model/build.js";
export { readOverrides, type ResultOverride } from "./model/overrides.js";
export { loadSpec, loadSpecBytes, type LoadOptions } from "./source/load.js";
export { readLock, syncSchemas, specDirCandidates, type LockedFile, type LockedVersion, type SpecLock, type SyncOptions, type SyncedVersion } from "./source/lock.js";
export { findSpecVersions, formatLock, stagePin, type PinOptions, type StagedPin, type StagedVersion } from "./source/pin.js";
export { emitTree, targetOptions, TargetRegistry, targets, type EmitOptions, type GeneratedFiles, type Target, type TargetContext, type TargetOption } from "./emit/index.js";
export { Templates, type Template, type TemplatesOptions } from "./emit/templates.js";
export { provenanceLines } from "./emit/provenance.js";
export { apiDiffMarkdown, versionDiffMarkdown, type MarkdownOptions } from "./emit/diff-markdown.js";
export * from "./diff/index.js";
export { buildModel, buildModelFromSpecs, diffLabels, discoverVersions, generateFiles, selectVersions, type ModelOptions, type SpecSource } from "./pipeline.js";
export { checkTree, isReviewReport, stageTree, writeTree, type StaleFile, type WriteOptions } from "./writer.js";
export { bump, pinLock, pinSummary, reviewReportPath, type BumpOptions, type PinResult, type PinnedVersion, type UpdateOptions } from "./bump.js";
export { projectPaths, type ProjectPaths } from "./paths.js";
