// mcp-codegen's library API. It never prints or exits; errors are thrown (`InputError` for bad input).
export { InputError, UsageError } from "./errors.js";
export { GENERATED_MARKER, sha256 } from "./files.js";
export type * from "./model/types.js";
export { buildVersionModel, resolveAlias } from "./model/build.js";
export { readOverrides, readReviewedInputs, reviewedErrata, type ResultOverride, type ReviewedFiles, type ReviewedInputs } from "./source/reviewed.js";
export { compareVersion, erratumStatus, findErrata, type Erratum, type ErratumKind, type ErratumStatus, type ReviewedErratum, type VersionErratum } from "./model/errata.js";
export { errataJson, errataMarkdown } from "./reports/errata-markdown.js";
export { loadSpec, loadSpecBytes, readSchemaDocument, type LoadOptions } from "./source/load.js";
export { patchesFor, stalePatchFiles, type NamedPatch, type PatchFile } from "./source/patch.js";
export { readLock, syncSchemas, specDirCandidates, type LockedFile, type LockedVersion, type SpecLock, type SyncOptions, type SyncedVersion } from "./source/lock.js";
export { findSpecVersions, formatLock, stagePin, type PinOptions, type StagedPin, type StagedVersion } from "./source/pin.js";
export { emitTree, resolveTargetOptions, targetOptions, TargetOptionValues, TargetRegistry, targets, type EmitOptions, type GeneratedFiles, type Target, type TargetContext, type TargetOption, type TargetRuntime } from "./emit/index.js";
export { Templates, type Template, type TemplatesOptions } from "./print/templates.js";
export { provenanceLines } from "./print/provenance.js";
export { apiDiffMarkdown, versionDiffMarkdown, type MarkdownOptions } from "./reports/diff-markdown.js";
export { tableOf } from "./print/table.js";
export { buildMethodTables, removedAt } from "./model/table.js";
export { methodTableJson, methodTableMarkdown, TABLE_COLUMNS } from "./emit/method-table.js";
export * from "./diff/index.js";
export { buildModel, buildModelFromSpecs, diffLabels, discoverVersions, generateFiles, selectVersions, stageTree, writeTree, type ModelOptions, type SpecSource } from "./pipeline.js";
export { checkTree, isReviewReport, keptAsIs, type StagedTree, type StaleFile, type TreeFiles, type TreeKinds, type WriteOptions } from "./writer.js";
export { bump, pinLock, pinSummary, rehearseBump, rehearsalSummary, reviewReportPath, type BumpOptions, type PinResult, type PinnedVersion, type Rehearsal, type RehearsedTarget, type UpdateOptions } from "./bump.js";
export type { BumpReview } from "./reports/bump-review.js";
export { projectPaths, toolVersion, type ProjectPaths } from "./paths.js";
export { parseSpecSource, specTypeFacts, type SpecTypeFacts } from "./model/spec-typescript.js";
export { bumpExtensions, type ExtensionBumpOptions } from "./extension-bump.js";
export {
  check,
  diffTreesText,
  diffVersionsText,
  errataText,
  extensionsDirOf,
  generate,
  methodTableText,
  ownLockFile,
  projectUpdateOptions,
  readSchemas,
  resolveTargets,
  selectTargets,
  syncSpec,
  type CheckResult,
  type GenerateOptions,
  type GenerateResult,
  type ProjectUpdate,
  type SpecInputs,
  type TargetSelection,
} from "./commands.js";
