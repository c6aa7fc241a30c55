// mcp-codegen's library API. It never prints or exits; errors are thrown (`InputError` for bad input).
export { InputError } from "./errors.js";
export type * from "./model/types.js";
export { buildVersionModel, resolveAlias } from "./model/build.js";
export { readOverrides, type ResultOverride } from "./model/overrides.js";
export { loadSpec, loadSpecBytes, type LoadOptions } from "./spec/load.js";
export { readLock, syncSchemas, sha256, specDirCandidates, type SpecLock, type SyncOptions, type SyncedVersion } from "./spec/lock.js";
export { emitTree, emitVersion, latestReleased, versionIdent, type GeneratedFiles } from "./emit/index.js";
export { buildModel, discoverVersions, generateFiles, selectVersions, type ModelOptions } from "./pipeline.js";
export { checkTree, writeTree, type StaleFile } from "./writer.js";
