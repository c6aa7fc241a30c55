// The emitters: a model → the files of the generated tree (paths relative to the output folder).
import { InputError } from "../errors.js";
import type { ProtocolModel, VersionModel } from "../model/types.js";
import { emitHandlerFiles, emitRuntime } from "./handlers.js";
import { emitDiffs } from "./diffs.js";
import { guardModule } from "./guards.js";
import { emitMatrix } from "./matrix.js";
import { emitPackageFiles } from "./package.js";
import { emitRouter } from "./router.js";
import { runtimeFiles } from "./runtime-source.js";
import { setTemplateCache, template } from "./templates.js";
import { emitTypeDeclarations, type TypeEmitOptions } from "./typescript.js";
import { zodModule } from "./zod.js";
import { byKey } from "../order.js";
import { emitRubyTree } from "./ruby/printer.js";

/** The languages `generate` can emit. With both, the Ruby tree is the `ruby/` folder of the TypeScript one. */
export const TARGETS = ["typescript", "ruby"] as const;
export type Target = (typeof TARGETS)[number];
/** Where the Ruby tree sits inside the output folder when TypeScript is generated too. */
export const RUBY_FOLDER = "ruby";

export interface EmitOptions extends TypeEmitOptions {
  /** Which targets to emit (default: all of TARGETS). */
  targets?: readonly Target[];
  /** The Ruby namespace (default `McpCodegen`). */
  rubyModule?: string;
}

/**
 * Which paths of the output folder a run with these targets owns (replaces, checks); the rest is
 * another target's and is kept. TypeScript alone leaves `ruby/` alone; Ruby alone owns its folder.
 */
export function ownedPaths(targets: readonly Target[] = TARGETS): (rel: string) => boolean {
  if (targets.includes("typescript") && !targets.includes("ruby")) return (rel) => !rel.startsWith(`${RUBY_FOLDER}/`);
  return () => true;
}

export type GeneratedFiles = Map<string, string>;

/** Words a label may not be used as verbatim: reserved in TypeScript modules, or names index.ts uses itself. */
const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for function if " +
    "import in instanceof new null return super switch this throw true try typeof var void while with implements interface let " +
    "package private protected public static yield await arguments eval as async from of type declare module namespace " +
    "versions latestVersion modules isProtocolVersion forVersion VersionModule ProtocolVersion"
  ).split(" "),
);

/** A module identifier for a version label (`2025-11-25` → `v2025_11_25`, `draft` → `draft`, `default` → `v_default`). */
export function versionIdent(label: string): string {
  const safe = label.replace(/[^A-Za-z0-9_$]/g, "_");
  if (/^[0-9]/.test(safe)) return `v${safe}`;
  return RESERVED.has(safe) ? `v_${safe}` : safe;
}

/** The newest label that is a release date, or null when none is. */
export function latestReleased(labels: string[]): string | null {
  const dated = labels.filter((l) => /^\d{4}-\d{2}-\d{2}$/.test(l)).sort();
  return dated.length > 0 ? dated[dated.length - 1] : null;
}

function finish(text: string): string {
  return text.replace(/[ \t]+$/gm, "").replace(/\n{3,}/g, "\n\n").trimEnd() + "\n";
}

/** The definitions a version's method types name: what methods.ts imports from types.ts. */
export function methodTypeImports(version: VersionModel): string[] {
  const names = new Set<string>();
  for (const m of [...version.requests, ...version.notifications]) {
    for (const r of m.params?.type.refs ?? []) names.add(r);
    if (m.kind === "request") for (const r of m.resultType.refs) names.add(r);
  }
  return [...names].sort();
}

/**
 * What a version's emitters produce from its definitions alone, shared by versions whose schemas are
 * the same bytes (as draft and 2026-07-28 are at the pinned commit). Keyed per run by content.
 */
interface DefinitionOutputs {
  declarations: string;
  zod: ReturnType<typeof zodModule>;
  guards: ReturnType<typeof guardModule>;
}
type OutputsMemo = Map<string, Promise<DefinitionOutputs>>;

function definitionOutputs(version: VersionModel, options: EmitOptions, memo: OutputsMemo): Promise<DefinitionOutputs> {
  const key = `${version.sha256}|${version.dialect}|${version.patches.join(",")}`;
  let outputs = memo.get(key);
  if (outputs === undefined) {
    outputs = emitTypeDeclarations(version, options).then((declarations) => ({ declarations, zod: zodModule(version), guards: guardModule(version) }));
    memo.set(key, outputs);
  }
  return outputs;
}

export async function emitVersion(version: VersionModel, options: EmitOptions = {}, memo: OutputsMemo = new Map()): Promise<GeneratedFiles> {
  const header = { versions: [version] };
  const files: GeneratedFiles = new Map();
  const { declarations, zod, guards } = await definitionOutputs(version, options, memo);
  files.set(`${version.label}/types.ts`, finish(template("types.ts.hbs")({ ...header, declarations })));
  files.set(
    `${version.label}/methods.ts`,
    finish(template("methods.ts.hbs")({ ...header, version, imports: methodTypeImports(version), requests: version.requests, notifications: version.notifications })),
  );
  for (const [p, text] of emitHandlerFiles(version, finish)) files.set(p, text);
  files.set(`${version.label}/schemas.ts`, finish(template("schemas.ts.hbs")({ ...header, dialect: version.dialect, ...zod })));
  files.set(`${version.label}/guards.ts`, finish(template("guards.ts.hbs")({ ...header, ...guards })));
  files.set(`${version.label}/schemas.check.ts`, finish(template("schemas.check.ts.hbs")({ ...header, declarations: zod.declarations })));
  files.set(`${version.label}/index.ts`, finish(template("version-index.ts.hbs")(header)));
  return files;
}

export async function emitTree(model: ProtocolModel, options: EmitOptions = {}): Promise<GeneratedFiles> {
  const targets = options.targets ?? TARGETS;
  const ruby = targets.includes("ruby") ? emitRubyTree(model, { module: options.rubyModule }) : new Map<string, string>();
  if (!targets.includes("typescript")) return ruby;
  if (ruby.size > 0 && model.versions.some((v) => v.label === RUBY_FOLDER)) {
    throw new InputError(`version label "${RUBY_FOLDER}" would share its folder with the Ruby tree; rename the folder or generate one target (--target)`);
  }
  const idents = new Map<string, string>();
  for (const v of model.versions) {
    const ident = versionIdent(v.label);
    const clash = idents.get(ident);
    if (clash !== undefined) throw new InputError(`version labels "${clash}" and "${v.label}" map to the same module name ${ident}; rename one folder`);
    idents.set(ident, v.label);
  }
  setTemplateCache(options.cacheDir);
  const files: GeneratedFiles = new Map();
  const memo: OutputsMemo = new Map();
  const perVersion = await Promise.all(model.versions.map((v) => emitVersion(v, options, memo)));
  for (const f of perVersion) for (const [p, text] of f) files.set(p, text);

  const header = { versions: model.versions };
  const versions = model.versions.map((v) => ({ ...v, ident: versionIdent(v.label) }));
  files.set("catalogue.ts", finish(template("catalogue.ts.hbs")(header)));
  files.set("runtime.ts", emitRuntime(model.versions, finish));
  for (const [p, text] of runtimeFiles()) files.set(p, text);
  files.set("router.ts", emitRouter(model, versionIdent, finish));
  files.set("index.ts", finish(template("index.ts.hbs")({ versions, latest: latestReleased(model.versions.map((v) => v.label)) })));
  files.set("MATRIX.md", finish(emitMatrix(model)));
  for (const [p, text] of emitDiffs(model)) files.set(p, text);
  for (const [p, text] of emitPackageFiles(files.keys())) files.set(p, text);
  for (const [p, text] of ruby) files.set(`${RUBY_FOLDER}/${p}`, text);
  return new Map([...files].sort(byKey));
}
