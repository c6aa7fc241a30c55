// The diff tests use the shared test helpers.
export { ensureSchemas, lockFile, modelOptions, root, runCli, schemasDir, specDir, tempDir } from "../support.js";
