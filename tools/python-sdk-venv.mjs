// The virtual environment the official Python SDK's own test suite runs in (.venv-python-sdk/, apart from
// .venv/): made by the project's one set-up script (tools/setup.ts, SETUP.venvs) from
// requirements-python-sdk.txt (exact versions of everything the SDK README's pip line pulls in, and the
// build backends), remade when that file changes.
//
// The SDK itself (mcp, mcp-types, the examples) and the generated tree are installed editable, without
// build isolation, by the rig from its copy of the SDK (installSdk below), not here.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const sdkRequirements = path.join(root, "requirements-python-sdk.txt");
export const sdkVenv = path.join(root, ".venv-python-sdk");
export const sdkPython = path.join(sdkVenv, "bin", "python");

function run(command, args, options = {}) {
  const r = spawnSync(command, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, ...options });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${r.status}:\n${(r.stdout + r.stderr).slice(-4000)}`);
  return r;
}

/** The python of .venv-python-sdk/, which the project's set-up makes (tools/setup.ts, the first step of `npm test`). */
export function ensureSdkVenv() {
  if (!existsSync(sdkPython)) throw new Error(`no virtual environment at ${sdkVenv}: run \`npm run setup\` (tools/setup.ts, which \`npm test\` runs first)`);
  return sdkPython;
}

/**
 * Installs the SDK copy at `sdk` editable as its README does (mcp-types, mcp[cli], the examples), and
 * src/mcp-codegen when the copy has it (the recipe's vendored tree); without it, mcp-codegen is uninstalled.
 */
export function installSdk(sdk) {
  const pip = [sdkPython, "-m", "pip"];
  const env = { ...process.env, UV_DYNAMIC_VERSIONING_BYPASS: "2.3.0", PIP_DISABLE_PIP_VERSION_CHECK: "1" };
  const editable = ["src/mcp-types", ".[cli]", "examples", ...(existsSync(path.join(sdk, "src", "mcp-codegen")) ? ["src/mcp-codegen"] : [])];
  if (!editable.includes("src/mcp-codegen")) run(pip[0], [...pip.slice(1), "uninstall", "--yes", "mcp-codegen"], { cwd: sdk, env });
  run(pip[0], [...pip.slice(1), "install", "--quiet", "--no-deps", "--no-build-isolation", ...editable.flatMap((e) => ["-e", e])], { cwd: sdk, env });
}
