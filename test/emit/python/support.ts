// Running real Python from the tests: the virtual environment .venv/ at the repository root (made by
// tools/setup.ts, which `npm test` runs first, from requirements-python.txt), with the generated Python tree on the import path.
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { generatedDir, root } from "../../support.js";

export const pythonTree = path.join(generatedDir, "python");
export const pythonTestDir = path.join(root, "test", "emit", "python");
/** The Python runtime's package (runtimes/python/): its ruff.toml and pyrightconfig.json check it, the generated tree and these tests' Python. */
export const pythonRuntimePackage = path.join(root, "runtimes", "python");
export const venv = path.join(root, ".venv");
const python = path.join(venv, "bin", "python");

/** The venv's python, or an error saying how to make it: a test needing Python fails, never skips. */
export function pythonBin(): string {
  if (!existsSync(python)) {
    throw new Error(`no Python virtual environment at ${venv}: run \`npm run setup\` (tools/setup.ts, which \`npm test\` runs first)`);
  }
  return python;
}

export interface ProcessResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Run a program of the venv (`python`, `ruff`) with `input` on stdin and `pythonPath` (default: generated/python) importable. */
/** How long one Python process of these tests may run (a synchronous spawn blocks the test's own timeout). */
const PROCESS_TIMEOUT_MS = 10 * 60 * 1000;

export function run(program: string, args: string[], options: { input?: string; pythonPath?: string[]; cwd?: string; timeoutMs?: number } = {}): ProcessResult {
  const bin = program === "python" ? pythonBin() : path.join(path.dirname(pythonBin()), program);
  const timeout = options.timeoutMs ?? PROCESS_TIMEOUT_MS;
  const r = spawnSync(bin, args, {
    timeout,
    killSignal: "SIGKILL",
    cwd: options.cwd ?? root,
    encoding: "utf8",
    input: options.input,
    maxBuffer: 512 * 1024 * 1024,
    env: { ...process.env, PYTHONPATH: (options.pythonPath ?? [pythonTree]).join(path.delimiter), PYTHONDONTWRITEBYTECODE: "1", PYTHONIOENCODING: "utf-8", PYTHONUTF8: "1" },
  });
  if (r.error) throw new Error(`${program} ${args.join(" ")}: ${r.error.message}${(r.error as { code?: string }).code === "ETIMEDOUT" ? ` (killed after ${timeout} ms)` : ""}\n${(r.stderr ?? "").slice(-4000)}`);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `python <script> …` of this folder, JSON in (stdin) and out (stdout); fails on any stderr or exit status. */
export function pythonJson<T>(script: string, input: unknown, pythonPath?: string[]): T {
  const r = run("python", [path.join(pythonTestDir, script)], { input: JSON.stringify(input), pythonPath });
  if (r.status !== 0 || r.stderr !== "") throw new Error(`${script} exited ${r.status}:\n${r.stderr.slice(-4000)}`);
  return JSON.parse(r.stdout) as T;
}

/** pyright (npm, pinned) in strict mode over every Python file of `dir`, the venv's packages and `extraPaths` importable. */
export function pyrightStrict(dir: string, extraPaths: string[] = []): ProcessResult {
  pythonBin();
  const config = { typeCheckingMode: "strict", pythonVersion: "3.11", venvPath: path.dirname(venv), venv: path.basename(venv), extraPaths, include: ["."] };
  writeFileSync(path.join(dir, "pyrightconfig.json"), JSON.stringify(config));
  const r = spawnSync(path.join(root, "node_modules", ".bin", "pyright"), ["-p", path.join(dir, "pyrightconfig.json")], { cwd: dir, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

type VersionView = { era: string; METHOD_TABLE: Record<string, { status: string; nearest?: string | null }>; resultSchemas: Record<string, { safeParse(v: unknown): { success: boolean } }> };
/** A generated TypeScript version module, as these tests read its tables (the same model the Python tree prints). */
export const versionView = async (label: string): Promise<VersionView> => (await import(`../../../generated/${label}/index.ts`)) as VersionView;

/** Whether `label`'s result schema of `method` takes `result` (its generated zod schema says). */
export async function takesResult(label: string, method: string, result: unknown): Promise<boolean> {
  return (await versionView(label)).resultSchemas[method]?.safeParse(result).success === true;
}

/** Whether `label`'s CallToolResult takes a result of text `content`. */
export const takesTextContent = (label: string): Promise<boolean> => takesResult(label, "tools/call", { content: [{ type: "text", text: "x" }] });

/**
 * The newest legacy version (label order) with what the transport and router tests drive: tools/call taking
 * text content, sampling, progress and cancellation. A bump's older revision (`next`) or a legacy `draft` may
 * lack them; the tests of each version's own rules still run at every label.
 */
export async function servingLegacy(labels: readonly string[]): Promise<string> {
  for (const label of [...labels].sort().reverse()) {
    const v = await versionView(label);
    const present = (method: string) => v.METHOD_TABLE[method]?.status === "present";
    if (v.era === "legacy" && ["tools/call", "sampling/createMessage", "notifications/progress", "notifications/cancelled"].every(present) && (await takesTextContent(label))) return label;
  }
  throw new Error("no legacy version of the lock has tools/call taking text content, sampling, progress and cancellation");
}
