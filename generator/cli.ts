// The command line: parses arguments, calls the library, prints, and owns the exit code.
// Exit codes: 0 ok · 1 check failed (generated output is stale) · 2 bad input · 3 internal error.
//
// Importable: `main(argv, io)` runs one command and returns its exit code; it never exits the
// process and writes only through `io` (the bin entry, bin.ts, passes the real process). Paths on the
// command line are resolved against `io.cwd`; the defaults (schemas/, generated/, the lock) are the
// project's around `io.cwd` (nearest package.json), never the tool's own folder.
//
// It imports the library's API (index.ts) and nothing else of the tool: every command is a library
// function (commands.ts, bump.ts) that applies the project's defaults; this file only turns arguments
// into its options and its result into text (test/layers/entry.test.ts).
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import {
  bump,
  bumpExtensions,
  check,
  diffTreesText,
  diffVersionsText,
  errataText,
  extensionsDirOf,
  generate as generateTree,
  InputError,
  methodTableText,
  pinLock,
  pinSummary,
  projectPaths,
  projectUpdateOptions,
  rehearsalSummary,
  rehearseBump,
  resolveTargets,
  syncSpec,
  TABLE_COLUMNS,
  targets as shippedTargets,
  toolVersion,
  UsageError,
  type PinResult,
  type ProjectPaths,
  type SpecInputs,
  type SyncedVersion,
  type Target,
  type TargetRegistry,
} from "./index.js";

export interface CliIO {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** The folder relative paths are resolved against and the project is found from. */
  cwd: string;
  env: Record<string, string | undefined>;
}

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

const str = (v: Values, k: OptionName) => v[k] as string | undefined;
const flag = (v: Values, k: OptionName) => v[k] === true;

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

/** `--extensions-dir`, else $MCP_EXTENSIONS_DIR; else none (the library looks beside the spec folder, else downloads). */
function extensionsDir(ctx: Context, values: Values): string | undefined {
  const given = str(values, "extensions-dir") ?? ctx.io.env.MCP_EXTENSIONS_DIR;
  return given !== undefined && given !== "" ? path.resolve(ctx.io.cwd, given) : undefined;
}

/** A path option as given (resolved against the current folder), or undefined for the library's default. */
function given(ctx: Context, values: Values, k: OptionName): string | undefined {
  const value = str(values, k);
  return value === undefined ? undefined : path.resolve(ctx.io.cwd, value);
}

/** Where a command reads the spec from, as the arguments say; sync results are printed as they come. */
function specInputs(ctx: Context, values: Values): SpecInputs {
  return {
    project: ctx.project,
    schemasDir: given(ctx, values, "schemas"),
    lockFile: given(ctx, values, "lock"),
    specDir: specDir(ctx, values),
    extensionsDir: extensionsDir(ctx, values),
    onSynced: (results) => ctx.io.stderr.write(describeSync(results)),
  };
}

function cacheDir(ctx: Context, values: Values): string | undefined {
  if (flag(values, "no-cache")) return undefined;
  return ctx.io.env.MCP_CODEGEN_CACHE_DIR || ctx.project.cacheDir;
}

/** `--target LIST` as names (undefined: the project's choice, see `selectTargets`). */
function targetNames(value: string | undefined): string[] | undefined {
  return value === undefined ? undefined : value.split(",").map((s) => s.trim());
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
  async run(values, _positionals, ctx, targetOptions) {
    const { io, registry } = ctx;
    const options = {
      ...specInputs(ctx, values),
      outDir: given(ctx, values, "out"),
      versions: csv(str(values, "versions")),
      targets: targetNames(str(values, "target")),
      targetOptions,
      cacheDir: cacheDir(ctx, values),
      registry,
    };
    const where = (outDir: string) => path.relative(io.cwd, outDir) || ".";
    if (flag(values, "check")) {
      const result = await check(options);
      if (result.status === "up-to-date") {
        io.stderr.write(`${where(result.outDir)} is up to date: ${result.files} files for ${result.versionCount} versions${result.fast ? " (unchanged inputs)" : ""}\n`);
        return 0;
      }
      for (const s of result.stale) io.stdout.write(s.diff);
      const again = ["mcp-codegen", ...ctx.argv.filter((a) => a !== "--check")].map(shellWord).join(" ");
      io.stderr.write(`${where(result.outDir)} is stale: ${result.stale.map((s) => `${s.path} (${s.status})`).join(", ")}\nRun \`${again}\` to regenerate it.\n`);
      return 1;
    }
    const result = await generateTree(options);
    const summary = result.versions
      .map((v) => `${v.label} (${v.era}, ${Object.keys(v.definitions).length} definitions, ${v.requests.length} requests, ${v.notifications.length} notifications)`)
      .join("\n  ");
    const kept = result.kept.length > 0 ? `; kept ${result.kept.join(", ")} as they were` : "";
    io.stderr.write(`generated ${result.files} files into ${where(result.outDir)} for ${result.versionCount - result.kept.length} versions${kept}:\n  ${summary}\n`);
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
      io.stdout.write(await diffTreesText({ project, oldDir: path.resolve(io.cwd, a), newDir: path.resolve(io.cwd, b), labels: { old: a, new: b }, format: fmt }));
      return 0;
    }
    io.stdout.write(await diffVersionsText({ ...specInputs(ctx, values), from: a, to: b, format: fmt }));
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
    const fmt = format(str(values, "format"));
    ctx.io.stdout.write(await errataText({ ...specInputs(ctx, values), versions: csv(str(values, "versions")), format: fmt, relativeTo: ctx.io.cwd }));
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
    const fmt = format(str(values, "format"));
    ctx.io.stdout.write(await methodTableText({ ...specInputs(ctx, values), versions: csv(str(values, "versions")), format: fmt }));
    return 0;
  },
};

/** Options shared by `schemas pin` and `bump`. */
function updateOptions(values: Values, ctx: Context) {
  if (str(values, "commit") === undefined && str(values, "from") === undefined) throw new UsageError("needs --commit SHA or --from DIR");
  const from = str(values, "from");
  return projectUpdateOptions(ctx.project, {
    lockFile: given(ctx, values, "lock"),
    schemasDir: given(ctx, values, "schemas"),
    commit: str(values, "commit"),
    from: from === undefined ? undefined : path.resolve(ctx.io.cwd, from),
    versions: csv(str(values, "versions")),
    as: str(values, "as"),
    specDir: specDir(ctx, values),
    cacheDir: cacheDir(ctx, values),
  });
}

async function printPin(io: CliIO, result: PinResult): Promise<void> {
  for (const w of result.warnings) io.stderr.write(`mcp-codegen: warning: ${w}\n`);
  io.stdout.write(pinSummary(result));
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
  async run(values, _p, ctx, targetOptions) {
    const outDir = given(ctx, values, "out") ?? ctx.project.outDir;
    const selected = resolveTargets(ctx.project, undefined, targetOptions, ctx.registry);
    const common = {
      outDir,
      json: format(str(values, "format")) === "json",
      targets: selected.targets.map((t) => t.name),
      targetOptions: selected.options,
      registry: ctx.registry,
    };
    const extensionsFrom = str(values, "extensions-from");
    let result: PinResult;
    if (extensionsFrom !== undefined) {
      for (const o of ["from", "versions", "as"] as const) if (str(values, o) !== undefined) throw new UsageError(`--${o} does not apply to --extensions-from`);
      if (flag(values, "dry-run")) throw new UsageError("--dry-run does not apply to --extensions-from");
      const spec = specDir(ctx, values);
      result = await bumpExtensions({
        ...projectUpdateOptions(ctx.project, { lockFile: given(ctx, values, "lock"), schemasDir: given(ctx, values, "schemas"), commit: str(values, "commit"), specDir: spec, cacheDir: cacheDir(ctx, values) }),
        ...common,
        extensionsFrom: path.resolve(ctx.io.cwd, extensionsFrom),
        extensions: csv(str(values, "extensions")),
        extensionsDir: extensionsDirOf({ extensionsDir: extensionsDir(ctx, values), specDir: spec }),
      });
    } else {
      if (str(values, "extensions") !== undefined) throw new UsageError("--extensions applies to --extensions-from");
      if (flag(values, "dry-run")) {
        const rehearsal = await rehearseBump({ ...updateOptions(values, ctx), ...common });
        for (const w of rehearsal.warnings) ctx.io.stderr.write(`mcp-codegen: warning: ${w}\n`);
        ctx.io.stdout.write(common.json ? JSON.stringify(rehearsal, null, 2) + "\n" : rehearsalSummary(rehearsal));
        return rehearsal.needsReview ? 1 : 0;
      }
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
    const results = await syncSpec({ ...specInputs(ctx, values), onSynced: undefined, versions: csv(str(values, "versions")) });
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
    const code = (e as { code?: unknown } | null | undefined)?.code?.toString() ?? "";
    if (e instanceof UsageError || code.startsWith("ERR_PARSE_ARGS")) {
      io.stderr.write(`mcp-codegen: ${(e as Error).message}\nRun \`mcp-codegen help\` for usage.\n`);
      return 2;
    }
    if (e instanceof InputError) {
      io.stderr.write(`mcp-codegen: error: ${e.message}\n`);
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
