#!/usr/bin/env node
// The command line: parses arguments, calls the library, prints, and owns the exit code.
// Exit codes: 0 ok · 1 check failed (generated output is stale) · 2 bad input · 3 internal error.
import path from "node:path";
import { parseArgs } from "node:util";
import { apiDiffMarkdown, diffGeneratedTrees, diffLabels, pinLock, pinSummary, versionDiffMarkdown } from "./diff/index.js";
import { InputError } from "./errors.js";
import { defaultCacheDir, defaultLockFile, defaultOutDir, defaultOverridesFile, defaultPatchesDir, defaultSchemasDir } from "./paths.js";
import { ownedPaths, RUBY_FOLDER, TARGETS, type Target } from "./emit/index.js";
import { generateFiles } from "./pipeline.js";
import { readLock, syncSchemas, type SyncedVersion } from "./spec/lock.js";
import { checkTree, writeTree } from "./writer.js";

const HELP = `mcp-codegen — typed code from the MCP specification's JSON Schemas

Usage:
  mcp-codegen generate [--target typescript,ruby] [--module NAME] [--schemas DIR] [--out DIR] [--versions a,b] [--check] [--spec-dir DIR] [--lock FILE] [--no-cache]
  mcp-codegen schemas sync [--spec-dir DIR] [--versions a,b] [--schemas DIR] [--lock FILE]
  mcp-codegen schemas pin (--commit SHA [--versions a,b] | --from DIR [--commit SHA]) [--lock FILE] [--schemas DIR]
  mcp-codegen diff <from> <to> [--format md|json] [--schemas DIR] [--spec-dir DIR]
  mcp-codegen diff --generated <old-dir> <new-dir> [--format md|json]
  mcp-codegen help

generate
  Reads <DIR>/<label>/schema.json for every folder of DIR (each folder name is a version label)
  and writes the generated tree to --out (default: generated/), replacing it atomically.
  --target LIST    typescript, ruby, or both (the default): the Ruby tree is then the ruby/ folder
                   of the output; with typescript alone, ruby/ is kept as it is
  --module NAME    the Ruby namespace (default: McpCodegen; e.g. MCP::Protocol)
  --schemas DIR    schema folders (default: schemas/, synced from the lock first)
  --out DIR        output folder (default: generated/; with --target ruby alone: generated/ruby/)
  --versions a,b   only these version labels
  --check          generate in memory, print a unified diff of every stale, missing or extra
                   file, and exit 1 if there is any (0 when identical)
  --spec-dir DIR   where sync finds the spec's schema files (default: $MCP_SPEC_DIR)
  --lock FILE      the lock pinning the spec's files (default: schemas/lock.json)
  --no-cache       compile every type afresh; by default the type compiler's output is cached
                   by content in node_modules/.cache/mcp-codegen ($MCP_CODEGEN_CACHE_DIR)

schemas sync
  Fills schemas/<version>/schema.json with the bytes pinned in schemas/lock.json, from --spec-dir
  or $MCP_SPEC_DIR (<dir>/<version>/schema.json or a spec checkout's <dir>/schema/<version>/schema.json),
  else by downloading the pinned raw file. Every file is verified against its sha256; on a mismatch
  or an unreachable source nothing is written. --schemas DIR syncs into DIR instead of schemas/.

schemas pin
  Moves schemas/lock.json to another spec commit and prints what changed per version.
  --commit SHA     download schema/<version>/schema.json at SHA for every locked version (a commit
                   has no listing of versions: add new ones with --versions a,b)
  --from DIR       a local spec folder or checkout: every <DIR>/<version>/schema.json or
                   <DIR>/schema/<version>/schema.json is pinned, new versions are added; the commit is
                   --commit, else DIR's git HEAD, else unchanged (with a warning)
  Hashes are recomputed; new schema bytes go into schemas/<version>/; the lock is written last,
  atomically; nothing is written on any error.

diff <from> <to>
  Compares two versions' models: methods, senders, params, results, normalizers, definitions and
  their properties, each entry breaking or not with a reason.
  --format md|json Markdown (default) or JSON (schemas/version-diff.schema.json)
  --schemas DIR    schema folders (default: schemas/, synced from the lock first)

diff --generated <old-dir> <new-dir>
  Compares the public API (exported names, kinds, type text) of two generated trees, per version
  folder. JSON follows schemas/api-diff.schema.json.

Exit codes: 0 ok, 1 check failed (stale output), 2 bad input, 3 internal error.
`;

class UsageError extends Error {}

function csv(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const list = value.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (list.length === 0) throw new UsageError("--versions needs at least one label");
  return list;
}

function targetList(value: string | undefined): Target[] {
  if (value === undefined) return [...TARGETS];
  const list = value.split(",").map((s) => s.trim());
  for (const t of list) if (!(TARGETS as readonly string[]).includes(t)) throw new UsageError(`unknown --target "${t}"; expected: ${TARGETS.join(", ")}`);
  return TARGETS.filter((t) => list.includes(t));
}

function specDir(flag: string | undefined): string | undefined {
  const dir = flag ?? process.env.MCP_SPEC_DIR;
  return dir === undefined || dir === "" ? undefined : path.resolve(dir);
}

function describeSync(results: SyncedVersion[]): string {
  return results
    .filter((r) => r.status !== "present")
    .map((r) => `synced ${r.version} (${r.status} from ${r.source})`)
    .join("\n");
}

async function generate(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      schemas: { type: "string" },
      out: { type: "string" },
      versions: { type: "string" },
      check: { type: "boolean", default: false },
      "spec-dir": { type: "string" },
      lock: { type: "string" },
      "no-cache": { type: "boolean", default: false },
      target: { type: "string" },
      module: { type: "string" },
    },
    strict: true,
    allowPositionals: false,
  });
  const targets = targetList(values.target);
  if (values.module !== undefined && !targets.includes("ruby")) throw new UsageError("--module applies to the ruby target");
  const lockFile = values.lock !== undefined ? path.resolve(values.lock) : defaultLockFile;
  const lock = await readLock(lockFile);
  const versions = csv(values.versions);
  const schemasDir = values.schemas !== undefined ? path.resolve(values.schemas) : defaultSchemasDir;
  if (values.schemas === undefined) {
    // The default folder is lock-managed: fetch what is missing before generating.
    if (versions) for (const v of versions) if (!lock.versions[v]) throw new InputError(`unknown version label "${v}"; available: ${Object.keys(lock.versions).sort().join(", ")}`, lockFile);
    const synced = await syncSchemas({ lock, schemasDir, specDir: specDir(values["spec-dir"]), versions });
    const said = describeSync(synced);
    if (said) process.stderr.write(said + "\n");
  }
  const rubyOnly = !targets.includes("typescript");
  const outDir = values.out !== undefined ? path.resolve(values.out) : rubyOnly ? path.join(defaultOutDir, RUBY_FOLDER) : defaultOutDir;
  const scope = { owned: ownedPaths(targets) };
  const { model, files } = await generateFiles({
    schemasDir,
    versions,
    lock,
    patchesDir: defaultPatchesDir,
    overridesFile: defaultOverridesFile,
    cacheDir: values["no-cache"] ? undefined : (process.env.MCP_CODEGEN_CACHE_DIR || defaultCacheDir),
  }, { targets, rubyModule: values.module });
  const summary = model.versions
    .map((v) => `${v.label} (${v.era}, ${Object.keys(v.definitions).length} definitions, ${v.requests.length} requests, ${v.notifications.length} notifications)`)
    .join("\n  ");
  const where = path.relative(process.cwd(), outDir) || ".";
  if (values.check) {
    const stale = await checkTree(outDir, files, scope);
    if (stale.length === 0) {
      process.stderr.write(`${where} is up to date: ${files.size} files for ${model.versions.length} versions\n`);
      return 0;
    }
    for (const s of stale) process.stdout.write(s.diff);
    process.stderr.write(
      `${where} is stale: ${stale.map((s) => `${s.path} (${s.status})`).join(", ")}\nRun \`npm run generate\` to regenerate it.\n`,
    );
    return 1;
  }
  await writeTree(outDir, files, scope);
  process.stderr.write(`generated ${files.size} files into ${where} for ${model.versions.length} versions:\n  ${summary}\n`);
  return 0;
}

function format(value: string | undefined): "md" | "json" {
  if (value === undefined || value === "md" || value === "json") return value ?? "md";
  throw new UsageError(`--format must be md or json, got "${value}"`);
}

async function diff(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      format: { type: "string" },
      schemas: { type: "string" },
      "spec-dir": { type: "string" },
      generated: { type: "boolean", default: false },
    },
    strict: true,
    allowPositionals: true,
  });
  const fmt = format(values.format);
  if (positionals.length !== 2) {
    throw new UsageError(values.generated ? "diff --generated needs two folders: <old-dir> <new-dir>" : "diff needs two version labels: <from> <to>");
  }
  const [a, b] = positionals;
  if (values.generated) {
    if (values.schemas !== undefined) throw new UsageError("--schemas does not apply to diff --generated");
    const report = await diffGeneratedTrees(a, b);
    process.stdout.write(fmt === "json" ? JSON.stringify(report, null, 2) + "\n" : apiDiffMarkdown(report));
    return 0;
  }
  const schemasDir = values.schemas !== undefined ? path.resolve(values.schemas) : defaultSchemasDir;
  const lock = await readLock(defaultLockFile);
  if (values.schemas === undefined) {
    for (const v of [a, b]) if (!lock.versions[v]) throw new InputError(`unknown version label "${v}"; available: ${Object.keys(lock.versions).sort().join(", ")}`, defaultLockFile);
    const said = describeSync(await syncSchemas({ lock, schemasDir, specDir: specDir(values["spec-dir"]), versions: [...new Set([a, b])] }));
    if (said) process.stderr.write(said + "\n");
  }
  const report = diffLabels(a, b, { schemasDir, lock, patchesDir: defaultPatchesDir, overridesFile: defaultOverridesFile });
  process.stdout.write(fmt === "json" ? JSON.stringify(report, null, 2) + "\n" : versionDiffMarkdown(report));
  return 0;
}

async function pin(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { commit: { type: "string" }, from: { type: "string" }, versions: { type: "string" }, lock: { type: "string" }, schemas: { type: "string" } },
    strict: true,
    allowPositionals: false,
  });
  if (values.commit === undefined && values.from === undefined) throw new UsageError("schemas pin needs --commit SHA or --from DIR");
  if (values.from !== undefined && values.versions !== undefined) throw new UsageError("--versions applies to --commit alone: with --from every version folder found is pinned");
  const result = await pinLock({
    lockFile: values.lock !== undefined ? path.resolve(values.lock) : defaultLockFile,
    schemasDir: values.schemas !== undefined ? path.resolve(values.schemas) : defaultSchemasDir,
    commit: values.commit,
    from: values.from,
    versions: csv(values.versions),
    patchesDir: defaultPatchesDir,
    overridesFile: defaultOverridesFile,
  });
  for (const w of result.warnings) process.stderr.write(`mcp-codegen: warning: ${w}\n`);
  process.stdout.write(pinSummary(result));
  return 0;
}

async function schemas(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "pin") return pin(rest);
  if (sub !== "sync") throw new UsageError(`unknown schemas command ${sub === undefined ? "(none)" : `"${sub}"`}; expected: sync or pin`);
  const { values } = parseArgs({
    args: rest,
    options: { "spec-dir": { type: "string" }, versions: { type: "string" }, lock: { type: "string" }, schemas: { type: "string" } },
    strict: true,
    allowPositionals: false,
  });
  const lock = await readLock(values.lock !== undefined ? path.resolve(values.lock) : defaultLockFile);
  const schemasDir = values.schemas !== undefined ? path.resolve(values.schemas) : defaultSchemasDir;
  const results = await syncSchemas({ lock, schemasDir, specDir: specDir(values["spec-dir"]), versions: csv(values.versions) });
  for (const r of results) process.stderr.write(`${r.version}: ${r.status === "present" ? "already synced" : `${r.status} from ${r.source}`}\n`);
  return 0;
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "generate":
        return await generate(rest);
      case "schemas":
        return await schemas(rest);
      case "diff":
        return await diff(rest);
      case undefined:
      case "help":
      case "--help":
      case "-h":
        process.stdout.write(HELP);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (e) {
    if (e instanceof InputError) {
      process.stderr.write(`mcp-codegen: error: ${e.message}\n`);
      return 2;
    }
    if (e instanceof UsageError || (e as { code?: unknown } | null | undefined)?.code?.toString().startsWith("ERR_PARSE_ARGS")) {
      process.stderr.write(`mcp-codegen: ${(e as Error).message}\nRun \`mcp-codegen help\` for usage.\n`);
      return 2;
    }
    process.stderr.write(`mcp-codegen: internal error: ${(e as Error | null | undefined)?.stack ?? String(e)}\n`);
    return 3;
  }
}

process.exitCode = await main(process.argv.slice(2));
