// Review data: what changed between two versions' models (diffVersions) and between two generated
// trees' public API (diffGeneratedTrees). Data only: reports/diff-markdown.ts renders it, and the
// pipeline (diffLabels) and bump (generator/bump.ts) call it. Never prints.
export * from "./version.js";
export { assertGeneratedTree, diffApiSurfaces, diffGeneratedTrees, readApiSurfaces, type ApiDiff, type ApiSurface, type ApiSymbol, type SymbolChange, type VersionApiChange } from "./api.js";
