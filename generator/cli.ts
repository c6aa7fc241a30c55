// The command line: parses arguments, calls the library, prints, and owns the exit code.
// Exit codes: 0 ok · 1 check failed (generated output is stale) · 2 bad input · 3 internal error.
//
// Importable: `main(argv, io)` runs one command and returns its exit code; it never exits the
// process and writes only through `io` (the bin entry, bin.ts, passes the real process). Paths on the
// command line are resolved against `io.cwd`; the defaults (schemas/, generated/, the lock) are the
// project's around `io.cwd` (nearest package.json), never the tool's own folder.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import type { PinResult } from "./bump.js";
import { targets as shippedTargets, TargetRegistry } from "./emit/targets.js";
import type { Target } from "./emit/target.js";
import { InputError } from "./errors.js";
import { TABLE_COLUMNS } from "./emit/method-table.js";
import { checkFingerprint, recordFingerprint } from "./fingerprint.js";
import { projectPaths, toolVersion, type ProjectPaths } from "./paths.js";
import { discoverVersions } from "./source/folders.js";
import { syncExtensions } from "./source/extensions.js";
import { readLock, syncSchemas, type SpecLock, type SyncedVersion } from "./source/lock.js";
import { checkTree, keptAsIs, writeTree } from "./writer.js";

// The model, the emitters, the diff readers and bump are loaded when a command needs them, so that
// `generate --check` on an unchanged tree (see fingerprint.ts) loads none of them.
const pipeline = () => import("./pipeline.js");
const markdown = () => import("./reports/diff-markdown.js");

export interface CliIO {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** The folder relative paths are resolved against and the project is found from. */
  cwd: string;
  env: Record<string, string | undefined>;
}

class UsageError extends Error {}

// ── Options ───────────────────────────────────────────────────────────────────────────────────
// Every option is declared once, with its help line; a command lists the options it takes.

type OptionSpec = { type: "string" | "boolean"; usage: string; help: string };

const OPTIONS = {
  schemas: { type: "string", usage: "--schemas DIR", help: "schema folders <DIR>/<label>/schema.json (default: the project's schemas/, checked against the lock first; without a lock, the spec shipped with the tool)" },
  out: { type: "string", usage: "--out DIR", help: "the generated tree (default: the project's generated/)" },
  versions: { type: "string", usage: "--versions a,b", help: "only these version labels" },
  check: { type: "boolean", usage: "--check", help: "generate in memory, print a unified diff of every stale, missing or extra file; exit 1 if any" },
  "spec-dir": { type: "string", usage: "--spec-dir DIR", help: "where sync finds a spec file missing from schemas/, or restores one whose bytes differ from the lock (default: $MCP_SPEC_DIR; else a missing file is downloaded)" },
  "extensions-dir": { type: "string", usage: "--extensions-dir DIR", help: "where sync finds the locked extensions' files, <DIR>/<name>/<version>/ (default: $MCP_EXTENSIONS_DIR; else mcp-extensions beside the spec folder, when there; else the pinned download)" },
  lock: { type: "string", usage: "--lock FILE", help: "the lock pinning the spec's files (default: the project's schemas/lock.json)" },
  "no-cache": { type: "boolean", usage: "--no-cache", help: "redo every cached step (precompiled templates, the facts read from each schema.ts, the errata) and skip the whole-tree fingerprint" },
  format: { type: "string", usage: "--format md|json", help: "Markdown (default) or JSON" },
  generated: { type: "boolean", usage: "--generated", help: "compare two generated trees instead of two versions" },
  commit: { type: "string", usage: "--commit SHA", help: "the spec commit to pin" },
  from: { type: "string", usage: "--from DIR", help: "a local spec folder or checkout (<DIR>/<v>/schema.json or <DIR>/schema/<v>/schema.json)" },
  as: { type: "string", usage: "--as LABEL", help: "with --from and one --versions entry: pin that folder under this label" },
  "extensions-from": { type: "string", usage: "--extensions-from DIR", help: "bump the locked extensions from a folder of extension folders (<DIR>/<name>/<version>/schema.json or <DIR>/<name>/schema/<version>/schema.json); the core versions stay as locked" },
  extensions: { type: "string", usage: "--extensions a,b", help: "with --extensions-from: only these locked extensions" },
  "dry-run": {
    type: "boolean",
    usage: "--dry-run",
    help: "rehearse: read, check and generate everything in memory, write nothing (the locked schemas must be synced), and print what the bump would do; exit 0 when it would go in cleanly, 1 when it needs review",
  },
  target: {
    type: "string",
    usage: "--target LIST",
    help: "the targets, comma-separated (see below). Alone, a target's tree is the output folder; with others, each is its target's folder of it, and a run without a target leaves that target's folder as it is. Default: the project's package.json \"mcp-codegen\": { \"targets\": [...] }, else the first target",
  },
  help: { type: "boolean", usage: "--help", help: "this command's help" },
} satisfies Record<string, OptionSpec>;

type OptionName = keyof typeof OPTIONS;
type Values = Partial<Record<OptionName, string | boolean>>;

interface Command {
  usage: string[];
  summary: string;
  /** Lines of help after the options. */
  details: string[];
  options: OptionName[];
  positionals?: boolean;
  /** Takes the targets' own options (`--ruby-module`, …), listed after the command's. */
  targetOptions?: boolean;
  /** `given`: the target options given, by spelling (only for commands that take them). */
  run(values: Values, positionals: string[], ctx: Context, given: Record<string, string>): Promise<number>;
}

interface Context {
  io: CliIO;
  project: ProjectPaths;
  /** The targets to choose from. */
  registry: TargetRegistry;
  /** The argv as given, for messages that tell the user what to run next. */
  argv: string[];
}

/** The flags of the targets' options, each with its spellings (the flag first, then deprecated aliases). */
function targetFlags(registry: TargetRegistry): Array<{ target: Target; option: Target["options"][number]; spellings: string[] }> {
  return registry.options().map(({ target, option }) => ({ target, option, spellings: [option.flag, ...(option.aliases ?? [])] }));
}

function parse(command: Command, args: string[], registry: TargetRegistry): { values: Values; positionals: string[]; given: Record<string, string> } {
  const options: Record<string, { type: "string" | "boolean" }> = Object.fromEntries([...command.options, "help"].map((o) => [o, { type: OPTIONS[o as OptionName].type }]));
  const spelled = command.targetOptions ? targetFlags(registry).flatMap((t) => t.spellings) : [];
  for (const f of spelled) options[f] = { type: "string" };
  const { values, positionals } = parseArgs({ args, options, strict: true, allowPositionals: command.positionals === true });
  const given = Object.fromEntries(spelled.filter((f) => values[f] !== undefined).map((f) => [f, values[f] as string]));
  return { values: values as Values, positionals, given };
}

/**
 * The target options of a run by flag, from the spellings given: each must belong to a target of the
 * run and hold a value that target accepts.
 */
function targetOptionValues(given: Record<string, string>, selected: readonly Target[], registry: TargetRegistry): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { target, option, spellings } of targetFlags(registry)) {
    for (const spelling of spellings) {
      const value = given[spelling];
      if (value === undefined) continue;
      if (!selected.includes(target)) throw new UsageError(`--${spelling} applies to the ${target.name} target`);
      if (out[option.flag] !== undefined) throw new UsageError(`--${option.flag} is given twice (${spellings.map((s) => `--${s}`).join(", ")})`);
      const problem = option.validate?.(value) ?? null;
      if (problem !== null) throw new UsageError(`--${spelling} ${problem}`);
      out[option.flag] = value;
    }
  }
  return out;
}

const str = (v: Values, k: OptionName) => v[k] as string | undefined;
const flag = (v: Values, k: OptionName) => v[k] === true;

function resolvePath(ctx: Context, value: string | undefined, fallback: string): string {
  return value !== undefined ? path.resolve(ctx.io.cwd, value) : fallback;
}

function csv(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const list = value.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (list.length === 0) throw new UsageError("--versions needs at least one label");
  return list;
}

function specDir(ctx: Context, values: Values): string | undefined {
  const given = str(values, "spec-dir");
  if (given !== undefined) return path.resolve(ctx.io.cwd, given);
  const env = ctx.io.env.MCP_SPEC_DIR;
  return env === undefined || env === "" ? undefined : path.resolve(ctx.io.cwd, env);
}

/** `--extensions-dir`, else $MCP_EXTENSIONS_DIR, else `mcp-extensions` beside the spec folder when that exists (an offline layout such as ../shared), else none (download). */
function extensionsDir(ctx: Context, values: Values): string | undefined {
  const given = str(values, "extensions-dir") ?? ctx.io.env.MCP_EXTENSIONS_DIR;
  if (given !== undefined && given !== "") return path.resolve(ctx.io.cwd, given);
  const spec = specDir(ctx, values);
  const beside = spec === undefined ? undefined : path.join(path.dirname(spec), "mcp-extensions");
  return beside !== undefined && existsSync(beside) ? beside : undefined;
}

/**
 * Whether the run reads the spec shipped inside the tool (the project has no schemas/lock.json and
 * neither --lock nor --schemas names another): verified, never written.
 */
function shippedSpec(ctx: Context, values: Values): boolean {
  return ctx.project.embeddedSpec && str(values, "lock") === undefined && str(values, "schemas") === undefined;
}

/** The project's own lock for a command that writes it (bump, schemas pin): never the one shipped inside the tool. */
function ownLockFile(ctx: Context, values: Values): string {
  const given = str(values, "lock");
  if (given !== undefined) return path.resolve(ctx.io.cwd, given);
  if (ctx.project.embeddedSpec) {
    const own = path.join(ctx.project.root, "schemas", "lock.json");
    throw new InputError(`cannot read the lock file (ENOENT): bump and schemas pin move a project's own lock; start one by copying ${ctx.project.lockFile} (and the pinned files beside it)`, own);
  }
  return ctx.project.lockFile;
}

function cacheDir(ctx: Context, values: Values): string | undefined {
  if (flag(values, "no-cache")) return undefined;
  return ctx.io.env.MCP_CODEGEN_CACHE_DIR || ctx.project.cacheDir;
}

/**
 * The targets of a run: `--target`, else the project's own choice (`"mcp-codegen": { "targets": [...] }`
 * in its package.json), else the registry's first target alone.
 */
function targetList(value: string | undefined, ctx: Context): Target[] {
  const { registry } = ctx;
  const known = (t: string) => registry.get(t) !== undefined;
  if (value !== undefined) {
    const list = value.split(",").map((s) => s.trim());
    for (const t of list) if (!known(t)) throw new UsageError(`unknown --target "${t}"; expected: ${registry.names.join(", ")}`);
    return registry.select(list);
  }
  const pkgFile = path.join(ctx.project.root, "package.json");
  let configured: unknown;
  try {
    configured = (JSON.parse(readFileSync(pkgFile, "utf8")) as { "mcp-codegen"?: { targets?: unknown } })["mcp-codegen"]?.targets;
  } catch {
    configured = undefined;
  }
  if (configured === undefined) return registry.targets.slice(0, 1);
  if (!Array.isArray(configured) || configured.length === 0 || configured.some((t) => typeof t !== "string" || !known(t))) {
    throw new InputError(`expected a non-empty array of targets (${registry.names.join(", ")})`, pkgFile, "/mcp-codegen/targets");
  }
  return registry.select(configured as string[]);
}

function format(value: string | undefined): "md" | "json" {
  if (value === undefined || value === "md" || value === "json") return value ?? "md";
  throw new UsageError(`--format must be md or json, got "${value}"`);
}

function describeSync(results: SyncedVersion[]): string {
  return results
    .filter((r) => r.status !== "present")
    .map((r) => `synced ${r.version} (${r.status} from ${r.source})\n`)
    .join("");
}

function unknownLabels(labels: string[], known: string[], where: string): void {
  const unknown = labels.filter((l) => !known.includes(l));
  if (unknown.length > 0) {
    throw new InputError(`unknown version label${unknown.length > 1 ? "s" : ""} ${unknown.map((v) => `"${v}"`).join(", ")}; available: ${[...known].sort().join(", ")}`, where);
  }
}

/** A shell word, quoted only when it needs to be. */
function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`;
}

// ── Commands ──────────────────────────────────────────────────────────────────────────────────

const generate: Command = {
  usage: ["generate [--target LIST] [--<target>-<option> VALUE …] [--schemas DIR] [--out DIR] [--versions a,b] [--check] [--spec-dir DIR] [--extensions-dir DIR] [--lock FILE] [--no-cache]"],
  summary: "Generate the tree for every version (or check that it is up to date).",
  details: [
    "Reads <DIR>/<label>/schema.json for every folder of --schemas (each folder name is a version label)",
    "and replaces the output folder atomically. Review reports (DIFFS/<label>@<old>..<new>.md) are kept.",
    "--versions without --out regenerates those versions and the shared files and keeps the other",
    "versions' folders as they are; with --out, the tree holds only those versions.",
    "--check on an unchanged tree compares file hashes with the fingerprint of the last generation",
    "from the same inputs (in the cache); anything else generates in memory and compares.",
  ],
  options: ["target", "schemas", "out", "versions", "check", "spec-dir", "extensions-dir", "lock", "no-cache"],
  targetOptions: true,
  async run(values, _positionals, ctx, given) {
    const { io, project, registry } = ctx;
    const selected = targetList(str(values, "target"), ctx);
    const emit = { targets: selected.map((t) => t.name), options: targetOptionValues(given, selected, registry) };
    const lockFile = resolvePath(ctx, str(values, "lock"), project.lockFile);
    const versions = csv(str(values, "versions"));
    const outGiven = str(values, "out") !== undefined;
    const schemasGiven = str(values, "schemas") !== undefined;
    const schemasDir = resolvePath(ctx, str(values, "schemas"), project.schemasDir);
    const lock = schemasGiven && str(values, "lock") === undefined ? await readLock(lockFile).catch(() => undefined) : await readLock(lockFile);
    let synced: Set<string> | undefined;
    if (!schemasGiven) {
      // The default folder is lock-managed: fetch what is missing before generating.
      if (versions) unknownLabels(versions, Object.keys(lock!.versions), lockFile);
      // Into a tree of its own (--out) only the chosen versions are needed; the project's tree names them all.
      const needed = versions !== undefined && outGiven ? versions : undefined;
      const readOnly = shippedSpec(ctx, values);
      const results = await syncSchemas({ lock: lock!, schemasDir, specDir: specDir(ctx, values), versions: needed, readOnly });
      const extensions = await syncExtensions({ lock: lock!, schemasDir, extensionsDir: extensionsDir(ctx, values), coreVersions: needed, readOnly });
      io.stderr.write(describeSync([...results, ...extensions]));
      synced = new Set(results.map((r) => r.version));
    }
    // A target alone is the whole output folder: by default, its own folder of the project's tree.
    const outDir = resolvePath(ctx, str(values, "out"), selected.length === 1 ? path.join(project.outDir, selected[0].folder) : project.outDir);
    // Version folders are the root tree's.
    const rootTree = selected.some((t) => t.folder === "");
    const all = discoverVersions(schemasDir);
    if (versions) unknownLabels(versions, all, schemasDir);
    // --versions into the project's own tree: every version is generated (the shared files name them
    // all) and only the chosen ones' folders are replaced; the others stay as they are on disk.
    const others = versions !== undefined && !outGiven && rootTree ? new Set(all.filter((v) => !versions.includes(v))) : new Set<string>();
    const byTarget = registry.owned(selected);
    const scope = { owned: (rel: string) => byTarget(rel) && !others.has(rel.split("/")[0]), registry };
    const selection = others.size > 0 ? undefined : versions;
    const modelOptions = {
      schemasDir,
      versions: selection,
      lock,
      lockFile,
      patchesDir: project.patchesDir,
      overridesFile: project.overridesFile,
      errataReviewedFile: project.errataReviewedFile,
      cacheDir: cacheDir(ctx, values),
    };
    const where = path.relative(io.cwd, outDir) || ".";
    const fingerprint =
      modelOptions.cacheDir !== undefined ? { ...modelOptions, cacheDir: modelOptions.cacheDir, labels: selection ?? all, kept: [...others].sort(), synced, emit, targets: selected } : undefined;
    if (flag(values, "check") && fingerprint !== undefined) {
      const fast = await checkFingerprint(outDir, fingerprint, (rel) => keptAsIs(rel, scope));
      if (fast !== null) {
        io.stderr.write(`${where} is up to date: ${fast.files} files for ${fast.versions} versions (unchanged inputs)\n`);
        return 0;
      }
    }
    const { model, files } = await (await pipeline()).generateFiles(modelOptions, { ...emit, registry });
    // The versions kept as they are: their freshly generated files are set aside, the disk's kept.
    for (const rel of [...files.keys()]) if (others.has(rel.split("/")[0])) files.delete(rel);
    const versionCount = model.versions.length;
    if (flag(values, "check")) {
      const stale = await checkTree(outDir, files, scope);
      if (stale.length === 0) {
        if (fingerprint !== undefined) await recordFingerprint(outDir, fingerprint, files, versionCount);
        io.stderr.write(`${where} is up to date: ${files.size} files for ${versionCount} versions\n`);
        return 0;
      }
      for (const s of stale) io.stdout.write(s.diff);
      const again = ["mcp-codegen", ...ctx.argv.filter((a) => a !== "--check")].map(shellWord).join(" ");
      io.stderr.write(`${where} is stale: ${stale.map((s) => `${s.path} (${s.status})`).join(", ")}\nRun \`${again}\` to regenerate it.\n`);
      return 1;
    }
    await writeTree(outDir, files, scope);
    if (fingerprint !== undefined) await recordFingerprint(outDir, fingerprint, files, versionCount);
    const summary = model.versions
      .filter((v) => !others.has(v.label))
      .map((v) => `${v.label} (${v.era}, ${Object.keys(v.definitions).length} definitions, ${v.requests.length} requests, ${v.notifications.length} notifications)`)
      .join("\n  ");
    const kept = others.size > 0 ? `; kept ${[...others].sort().join(", ")} as they were` : "";
    io.stderr.write(`generated ${files.size} files into ${where} for ${versionCount - others.size} versions${kept}:\n  ${summary}\n`);
    return 0;
  },
};

const diff: Command = {
  usage: ["diff <from> <to> [--format md|json] [--schemas DIR] [--spec-dir DIR] [--lock FILE]", "diff --generated <old-dir> <new-dir> [--format md|json]"],
  summary: "Compare two versions' models, or the public API of two generated trees.",
  details: [
    "diff <from> <to>: methods, senders, params, results, normalizers, definitions and their",
    "properties, each entry breaking or not with a reason (JSON: schemas/version-diff.schema.json).",
    "diff --generated: exported names, kinds and types per version folder, read with the type checker;",
    "imports of zod and of the runtime resolve from the project or this tool's installation, wherever",
    "the trees are; a type that still does not resolve is an error (exit 2), never a change",
    "(JSON: schemas/api-diff.schema.json).",
  ],
  options: ["format", "schemas", "spec-dir", "lock", "generated"],
  positionals: true,
  async run(values, positionals, ctx) {
    const { io, project } = ctx;
    const fmt = format(str(values, "format"));
    if (positionals.length !== 2) {
      throw new UsageError(flag(values, "generated") ? "diff --generated needs two folders: <old-dir> <new-dir>" : "diff needs two version labels: <from> <to>");
    }
    const [a, b] = positionals;
    if (flag(values, "generated")) {
      if (str(values, "schemas") !== undefined) throw new UsageError("--schemas does not apply to diff --generated");
      const { diffGeneratedTrees } = await import("./diff/api.js");
      const report = await diffGeneratedTrees(path.resolve(io.cwd, a), path.resolve(io.cwd, b), { labels: { old: a, new: b }, projectRoot: project.root });
      io.stdout.write(fmt === "json" ? JSON.stringify(report, null, 2) + "\n" : (await markdown()).apiDiffMarkdown(report));
      return 0;
    }
    const { schemasDir, lock } = await readSchemas(ctx, values, { versions: [...new Set([a, b])] });
    const report = (await pipeline()).diffLabels(a, b, { schemasDir, lock, patchesDir: project.patchesDir, overridesFile: project.overridesFile, errataReviewedFile: project.errataReviewedFile });
    io.stdout.write(fmt === "json" ? JSON.stringify(report, null, 2) + "\n" : (await markdown()).versionDiffMarkdown(report));
    return 0;
  },
};

const errata: Command = {
  usage: ["errata [--versions a,b] [--format md|json] [--schemas DIR] [--spec-dir DIR] [--lock FILE]"],
  summary: "List where each version's schema.json and schema.ts disagree: fixed by a patch, reviewed, or open.",
  details: [
    "Per version with a schema.ts, definition by definition, wherever both files speak: integer against",
    "number, null, the kinds of value admitted, enum/const members, required and optional members,",
    "members one side lacks, and additionalProperties against index signatures. Each finding names the",
    "schema.json JSON pointer (as published) and the schema.ts line, and its status: fixed (a reviewed",
    "patch in schemas/patches/ corrects it), reviewed (schemas/errata-reviewed.json says why it is no",
    "defect) or open. Patch files that apply to no locked version are named. JSON: format",
    "\"mcp-codegen/errata\", formatVersion 1.",
  ],
  options: ["versions", "format", "schemas", "spec-dir", "lock"],
  async run(values, _p, ctx) {
    const { io, project } = ctx;
    const fmt = format(str(values, "format"));
    const versions = csv(str(values, "versions"));
    const { schemasDir, lock, schemasGiven } = await readSchemas(ctx, values, { versions });
    if (versions) unknownLabels(versions, discoverVersions(schemasDir), schemasDir);
    const model = (await pipeline()).buildModel({ schemasDir, versions, lock, patchesDir: project.patchesDir, overridesFile: project.overridesFile, errataReviewedFile: project.errataReviewedFile });
    const { stalePatchFiles } = await import("./source/patch.js");
    const pinned = lock !== undefined && !schemasGiven ? Object.values(lock.versions).map((v) => v.sha256) : model.versions.map((v) => v.sha256);
    const stale = stalePatchFiles(project.patchesDir, pinned).map((f) => path.relative(io.cwd, f));
    const { errataJson, errataMarkdown } = await import("./reports/errata-markdown.js");
    io.stdout.write(fmt === "json" ? errataJson(model, stale) : errataMarkdown(model, stale));
    return 0;
  },
};

const table: Command = {
  usage: ["table [--versions a,b] [--format json|md] [--schemas DIR] [--spec-dir DIR] [--lock FILE]"],
  summary: "Print the method table: every method of every version and extension module, as the model decides it.",
  details: [
    "One entry per generated version and extension module (<core>+<name>); --versions keeps the entries of",
    "those labels (and the extension modules layered onto them), computed over every locked version. Each",
    "entry holds, for every method any version or extension names, what it is at that version. JSON is",
    "what each generated tree carries as METHOD_TABLE (TypeScript <version>/methods.ts, the Ruby and Python",
    "version modules). Columns:",
    ...(() => {
      const width = Math.max(...TABLE_COLUMNS.map(([c]) => c.length));
      return TABLE_COLUMNS.map(([c, text]) => `  ${c.padEnd(width)}  ${text}`);
    })(),
  ],
  options: ["versions", "format", "schemas", "spec-dir", "extensions-dir", "lock"],
  async run(values, _p, ctx) {
    const { io, project } = ctx;
    const fmt = format(str(values, "format"));
    const versions = csv(str(values, "versions"));
    // Every version is read (the table's statuses compare them); --versions picks entries afterwards.
    const { schemasDir, lock, lockFile } = await readSchemas(ctx, values, { extensions: true });
    const model = (await pipeline()).buildModel({ schemasDir, lock, lockFile, patchesDir: project.patchesDir, overridesFile: project.overridesFile, errataReviewedFile: project.errataReviewedFile });
    const all = model.tables;
    const cores = new Map<string, string>([...model.versions.map((v) => [v.label, v.label] as [string, string]), ...(model.extensions ?? []).map((x) => [`${x.core}+${x.name}`, x.core] as [string, string])]);
    if (versions) unknownLabels(versions, [...cores.keys()], schemasDir);
    const picked = new Map([...all].filter(([label]) => versions === undefined || versions.includes(label) || versions.includes(cores.get(label)!)));
    const { methodTableJson, methodTableMarkdown } = await import("./emit/method-table.js");
    io.stdout.write(fmt === "json" ? methodTableJson(picked) : methodTableMarkdown(picked));
    return 0;
  },
};

/**
 * The schemas folder and lock a reading command (diff, errata, table) works on: `--schemas` as given (its
 * lock optional), else the project's lock-managed folder, synced first (verified; read-only for the spec
 * shipped with the tool) for `versions` (every locked one when undefined; a label the lock lacks is a
 * usage error), with the locked extensions when `extensions`.
 */
async function readSchemas(
  ctx: Context,
  values: Values,
  options: { versions?: string[]; extensions?: boolean },
): Promise<{ schemasDir: string; lockFile: string; lock: SpecLock | undefined; schemasGiven: boolean }> {
  const { io, project } = ctx;
  const schemasGiven = str(values, "schemas") !== undefined;
  const schemasDir = resolvePath(ctx, str(values, "schemas"), project.schemasDir);
  const lockFile = resolvePath(ctx, str(values, "lock"), project.lockFile);
  const lock = schemasGiven ? await readLock(lockFile).catch(() => undefined) : await readLock(lockFile);
  if (!schemasGiven) {
    if (options.versions) unknownLabels(options.versions, Object.keys(lock!.versions), lockFile);
    const readOnly = shippedSpec(ctx, values);
    const results = await syncSchemas({ lock: lock!, schemasDir, specDir: specDir(ctx, values), versions: options.versions, readOnly });
    const extensions = options.extensions ? await syncExtensions({ lock: lock!, schemasDir, extensionsDir: extensionsDir(ctx, values), readOnly }) : [];
    io.stderr.write(describeSync([...results, ...extensions]));
  }
  return { schemasDir, lockFile, lock, schemasGiven };
}

/** Options shared by `schemas pin` and `bump`. */
function updateOptions(values: Values, ctx: Context) {
  if (str(values, "commit") === undefined && str(values, "from") === undefined) throw new UsageError("needs --commit SHA or --from DIR");
  const from = str(values, "from");
  return {
    lockFile: ownLockFile(ctx, values),
    schemasDir: resolvePath(ctx, str(values, "schemas"), ctx.project.schemasDir),
    commit: str(values, "commit"),
    from: from === undefined ? undefined : path.resolve(ctx.io.cwd, from),
    versions: csv(str(values, "versions")),
    as: str(values, "as"),
    patchesDir: ctx.project.patchesDir,
    overridesFile: ctx.project.overridesFile,
    errataReviewedFile: ctx.project.errataReviewedFile,
    specDir: specDir(ctx, values),
    cacheDir: cacheDir(ctx, values),
  };
}

async function printPin(io: CliIO, result: PinResult): Promise<void> {
  for (const w of result.warnings) io.stderr.write(`mcp-codegen: warning: ${w}\n`);
  io.stdout.write((await import("./bump.js")).pinSummary(result));
}

const UPDATE_DETAILS = [
  "--commit SHA     download schema/<version>/schema.json (and schema.ts) at SHA for every locked",
  "                 version; a commit has no listing, so new versions are named with --versions a,b",
  "--from DIR       pin every version folder of a local spec folder or checkout (each locked version",
  "                 must be there), or only those named with --versions (the others keep their entry);",
  "                 --as LABEL pins the one --versions folder under another label (e.g. as draft).",
  "                 The commit is --commit, else DIR's git HEAD, else unchanged (with a warning).",
  "Every new schema is verified, and the whole tree is generated in memory, before anything is",
  "written: a spec that cannot be generated is refused (exit 2) with the lock and schemas/ untouched.",
];

const pin: Command = {
  usage: ["schemas pin (--commit SHA [--versions a,b] | --from DIR [--versions a,b [--as LABEL]] [--commit SHA]) [--lock FILE] [--schemas DIR] [--spec-dir DIR]"],
  summary: "Move the lock (and schemas/) to another spec; generated/ is left as it is (see bump).",
  details: UPDATE_DETAILS,
  options: ["commit", "from", "versions", "as", "lock", "schemas", "spec-dir", "no-cache"],
  async run(values, _p, ctx) {
    if (str(values, "from") === undefined && str(values, "as") !== undefined) throw new UsageError("--as applies to --from");
    const { pinLock } = await import("./bump.js");
    await printPin(ctx.io, await pinLock(updateOptions(values, ctx)));
    return 0;
  },
};

const bumpCommand: Command = {
  usage: [
    "bump (--commit SHA [--versions a,b] | --from DIR [--versions a,b [--as LABEL]] [--commit SHA]) [--dry-run] [--format md|json] [--out DIR] [--lock FILE] [--schemas DIR] [--spec-dir DIR] [--no-cache]",
    "bump --extensions-from DIR [--extensions a,b] [--commit SHA] [--format md|json] [--out DIR] [--lock FILE] [--schemas DIR] [--spec-dir DIR] [--extensions-dir DIR] [--no-cache]",
  ],
  summary: "Pin a new spec, regenerate, and write a review report per changed or added version: all or nothing.",
  details: [
    ...UPDATE_DETAILS.slice(0, -2),
    "The new schemas are verified and staged, the whole tree is generated in memory, and only then are",
    "the schemas, the lock and the tree written; on any error (exit 2) nothing is. For every changed or",
    "added version it writes <out>/DIFFS/<label>@<old sha256 prefix>..<new prefix>.md (and .json with",
    "--format json): the old model (from the bytes synced before the bump) against the new one; an",
    "added version is compared with the locked version before it. The report also says which reviewed",
    "patches of the old bytes carry to the new ones (each of its own `test` operations still holds there: it",
    "is written to the new bytes' patch file in schemas/patches/) and which reopen (the pointer whose",
    "expected value moved; a patch without a test always reopens), and proposes a capability entry for",
    "each method schemas/method-capabilities.json has no entry for, from the capability members the",
    "same bump adds.",
    "--dry-run rehearses it: everything above in memory, each target generated on its own, and nothing",
    "written (nor synced: run `schemas sync` first). It prints per version the new and removed methods",
    "and definitions, the breaking changes, the errata, the patches carried and reopened and the",
    "capability entries to add, and per target whether it generates or what its printer refuses (with",
    "--format json: the same as data); exit 0 when the bump would go in cleanly, 1 when something needs",
    "review, 2 for bad input.",
    "--extensions-from DIR bumps the locked extensions (or those of --extensions a,b) instead: every",
    "locked version of each is read from <DIR>/<name>/, verified, staged and generated in memory with the",
    "core versions as locked; its commit is --commit, else that folder's git HEAD, else unchanged (with a",
    "warning). Per changed extension version and core version it layers onto it writes",
    "<out>/DIFFS/<core>+<name>@<old sha256 prefix>..<new prefix>.md (and .json): the extension module's",
    "old model against its new one. On any error (exit 2) nothing is written.",
  ],
  options: ["commit", "from", "versions", "as", "dry-run", "extensions-from", "extensions", "format", "out", "lock", "schemas", "spec-dir", "extensions-dir", "no-cache"],
  targetOptions: true,
  async run(values, _p, ctx, given) {
    const outDir = resolvePath(ctx, str(values, "out"), ctx.project.outDir);
    const selected = targetList(undefined, ctx);
    const common = {
      outDir,
      json: format(str(values, "format")) === "json",
      targets: selected.map((t) => t.name),
      targetOptions: targetOptionValues(given, selected, ctx.registry),
      registry: ctx.registry,
    };
    const extensionsFrom = str(values, "extensions-from");
    let result: PinResult;
    if (extensionsFrom !== undefined) {
      for (const o of ["from", "versions", "as"] as const) if (str(values, o) !== undefined) throw new UsageError(`--${o} does not apply to --extensions-from`);
      if (flag(values, "dry-run")) throw new UsageError("--dry-run does not apply to --extensions-from");
      const { bumpExtensions } = await import("./extension-bump.js");
      result = await bumpExtensions({
        ...common,
        extensionsFrom: path.resolve(ctx.io.cwd, extensionsFrom),
        extensions: csv(str(values, "extensions")),
        extensionsDir: extensionsDir(ctx, values),
        lockFile: ownLockFile(ctx, values),
        schemasDir: resolvePath(ctx, str(values, "schemas"), ctx.project.schemasDir),
        commit: str(values, "commit"),
        patchesDir: ctx.project.patchesDir,
        overridesFile: ctx.project.overridesFile,
        errataReviewedFile: ctx.project.errataReviewedFile,
        specDir: specDir(ctx, values),
        cacheDir: cacheDir(ctx, values),
      });
    } else {
      if (str(values, "extensions") !== undefined) throw new UsageError("--extensions applies to --extensions-from");
      if (flag(values, "dry-run")) {
        const { rehearseBump, rehearsalSummary } = await import("./bump.js");
        const rehearsal = await rehearseBump({ ...updateOptions(values, ctx), ...common });
        for (const w of rehearsal.warnings) ctx.io.stderr.write(`mcp-codegen: warning: ${w}\n`);
        ctx.io.stdout.write(common.json ? JSON.stringify(rehearsal, null, 2) + "\n" : rehearsalSummary(rehearsal));
        return rehearsal.needsReview ? 1 : 0;
      }
      const { bump } = await import("./bump.js");
      result = await bump({ ...updateOptions(values, ctx), ...common });
    }
    await printPin(ctx.io, result);
    const where = path.relative(ctx.io.cwd, outDir) || ".";
    const reports = result.versions.reduce((n, v) => n + v.reports.length, 0);
    ctx.io.stdout.write(
      `wrote the lock, schemas/ and ${result.files} files into ${where}` +
        (reports > 0 ? `; review the report${reports > 1 ? "s" : ""} above, then commit them with the lock and the tree\n` : "; no version changed\n"),
    );
    return 0;
  },
};

const sync: Command = {
  usage: ["schemas sync [--spec-dir DIR] [--extensions-dir DIR] [--versions a,b] [--schemas DIR] [--lock FILE]"],
  summary: "Check schemas/<version>/ against the lock (schema.json, and schema.ts where pinned); fill what is missing.",
  details: [
    "A file there with the pinned sha256 is kept. A missing one comes from --spec-dir or $MCP_SPEC_DIR",
    "(<dir>/<version>/ or a spec checkout's <dir>/schema/<version>/), else from the pinned raw address.",
    "A file there with other bytes is an error naming it (exit 2), unless a spec folder is given to restore",
    "it from. Every file is verified against its sha256; on any failure nothing is written and every file",
    "that could not be obtained is named. A project without a lock checks the spec shipped with the tool.",
  ],
  options: ["spec-dir", "extensions-dir", "versions", "schemas", "lock"],
  async run(values, _p, ctx) {
    const lock = await readLock(resolvePath(ctx, str(values, "lock"), ctx.project.lockFile));
    const schemasDir = resolvePath(ctx, str(values, "schemas"), ctx.project.schemasDir);
    const versions = csv(str(values, "versions"));
    const readOnly = shippedSpec(ctx, values);
    const core = await syncSchemas({ lock, schemasDir, specDir: specDir(ctx, values), versions, readOnly });
    const results = [...core, ...(await syncExtensions({ lock, schemasDir, extensionsDir: extensionsDir(ctx, values), coreVersions: versions, readOnly }))];
    for (const r of results) ctx.io.stderr.write(`${r.version}: ${r.status === "present" ? "already synced" : `${r.status} from ${r.source}`}\n`);
    return 0;
  },
};

const COMMANDS: Record<string, Command> = { generate, bump: bumpCommand, "schemas sync": sync, "schemas pin": pin, diff, errata, table };

function commandHelp(name: string, c: Command, registry: TargetRegistry): string {
  const rows: Array<[string, string]> = c.options.map((o) => [OPTIONS[o].usage, OPTIONS[o].help]);
  if (c.options.includes("target")) rows.push(["  (targets)", registry.targets.map((t) => t.name).join(", ")]);
  if (c.targetOptions) {
    for (const { target, option, spellings } of targetFlags(registry)) {
      const value = option.placeholder ?? "VALUE";
      const aliases = spellings.slice(1).map((s) => `; --${s} ${value} is a deprecated alias`).join("");
      rows.push([`--${option.flag} ${value}`, `${target.name} target: ${option.description}${aliases}`]);
    }
  }
  const width = Math.max(...rows.map(([usage]) => usage.length));
  return [
    ...c.usage.map((u, i) => `${i === 0 ? "Usage: " : "       "}mcp-codegen ${u}`),
    "",
    c.summary,
    "",
    ...rows.map(([usage, text]) => `  ${usage.padEnd(width)}  ${text}`),
    "",
    ...c.details,
    "",
    `Run \`mcp-codegen help\` for every command, the exit codes and where the defaults come from.`,
    "",
  ].join("\n");
}

function help(): string {
  return [
    `mcp-codegen ${toolVersion}: typed code from the MCP specification's JSON Schemas`,
    "",
    "Usage:",
    ...Object.values(COMMANDS).flatMap((c) => c.usage.map((u) => `  mcp-codegen ${u}`)),
    "  mcp-codegen help [command]     (or <command> --help)",
    "  mcp-codegen --version",
    "",
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(13)} ${c.summary}`),
    "",
    "Defaults come from the project you run it in: the nearest folder from the current one holding a",
    "package.json. Its schemas/ (lock.json, the pinned spec files, overrides.json, patches/, errata-reviewed.json), its generated/",
    "and its node_modules/.cache/mcp-codegen (or $MCP_CODEGEN_CACHE_DIR); never the tool's own folder, except that a",
    "project without a schemas/lock.json reads the spec shipped with the tool (verified by hash, never written).",
    "Paths given on the command line are relative to the current folder.",
    "",
    "Exit codes: 0 ok, 1 check failed (stale output), 2 bad input, 3 internal error.",
    "",
  ].join("\n");
}

/**
 * Run one command; the exit code is returned, never passed to `process.exit`. `registry`: the targets
 * `--target` chooses from (default: the shipped ones; `targets.with(mine)` adds one).
 */
export async function main(argv: string[], io: CliIO, registry: TargetRegistry = shippedTargets): Promise<number> {
  const [first, second] = argv;
  try {
    if (first === undefined) {
      io.stderr.write(help());
      return 2;
    }
    if (first === "help" || first === "--help" || first === "-h") {
      const topic = argv.slice(1).join(" ");
      if (topic === "") {
        io.stdout.write(help());
        return 0;
      }
      const c = COMMANDS[topic];
      if (c === undefined) throw new UsageError(`no help for "${topic}": commands are ${Object.keys(COMMANDS).join(", ")}`);
      io.stdout.write(commandHelp(topic, c, registry));
      return 0;
    }
    if (first === "--version" || first === "-V") {
      io.stdout.write(`${toolVersion}\n`);
      return 0;
    }
    const name = first === "schemas" ? `schemas ${second ?? ""}`.trim() : first;
    const command = COMMANDS[name];
    if (command === undefined) {
      if (first === "schemas") throw new UsageError(`unknown schemas command ${second === undefined ? "(none)" : `"${second}"`}; expected: sync or pin`);
      throw new UsageError(`unknown command "${first}"`);
    }
    const args = argv.slice(name.split(" ").length);
    const { values, positionals, given } = parse(command, args, registry);
    if (flag(values, "help")) {
      io.stdout.write(commandHelp(name, command, registry));
      return 0;
    }
    return await command.run(values, positionals, { io, project: projectPaths(io.cwd), argv, registry }, given);
  } catch (e) {
    if (e instanceof InputError) {
      io.stderr.write(`mcp-codegen: error: ${e.message}\n`);
      return 2;
    }
    const code = (e as { code?: unknown } | null | undefined)?.code?.toString() ?? "";
    if (e instanceof UsageError || code.startsWith("ERR_PARSE_ARGS")) {
      io.stderr.write(`mcp-codegen: ${(e as Error).message}\nRun \`mcp-codegen help\` for usage.\n`);
      return 2;
    }
    // A path of the wrong kind (a file where a folder is expected, or the reverse) is bad input.
    const at = (e as { path?: unknown }).path;
    if ((code === "ENOTDIR" || code === "EISDIR") && typeof at === "string") {
      io.stderr.write(`mcp-codegen: error: ${at}: ${code === "ENOTDIR" ? "expected a folder, found a file" : "expected a file, found a folder"}\n`);
      return 2;
    }
    io.stderr.write(`mcp-codegen: internal error: ${(e as Error | null | undefined)?.stack ?? String(e)}\n`);
    return 3;
  }
}

// Run directly (`tsx generator/cli.ts …`), it is its own executable; imported, it runs nothing.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), env: process.env });
}
