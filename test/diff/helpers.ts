// Helpers of the diff tests: the synced schemas, the CLI as a separate process, temp folders.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { readLock, syncSchemas } from "../../generator/spec/lock.js";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const schemasDir = path.join(root, "schemas");
export const lockFile = path.join(schemasDir, "lock.json");
// The shared spec copy sits beside the main checkout (../shared) or beside a worktree's parent.
export const specDir = path.resolve(
  process.env.MCP_SPEC_DIR ??
    [path.join(root, "..", "shared", "mcp-spec"), path.join(root, "..", "..", "shared", "mcp-spec")].find((d) => existsSync(d)) ??
    path.join(root, "..", "shared", "mcp-spec"),
);
export const modelOptions = {
  schemasDir,
  patchesDir: path.join(schemasDir, "patches"),
  overridesFile: path.join(schemasDir, "overrides.json"),
};

/** Make schemas/<version>/schema.json present and verified, as `generate` does. */
export async function ensureSchemas(): Promise<void> {
  await syncSchemas({ lock: await readLock(lockFile), schemasDir, specDir });
}

export function tempDir(): string {
  return mkdtempSync(path.join(tmpdir(), "mcp-codegen-diff-"));
}

export function runCli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ["--import", "tsx", path.join(root, "generator", "cli.ts"), ...args], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, MCP_SPEC_DIR: specDir },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
