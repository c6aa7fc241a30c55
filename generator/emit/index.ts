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
import { emitTypeDeclarations } from "./typescript.js";
import { zodModule } from "./zod.js";
import { byCodeUnit, byKey } from "../order.js";
import { versionIdents } from "../model/naming.js";
import { sha256 } from "../spec/lock.js";
import { emitRubyTree } from "./ruby/printer.js";
import { emitExtensionModules } from "./extensions.js";

// The targets live in targets.ts (the CLI reads them without loading the emitters).
import { RUBY_FOLDER, TARGETS, type Target } from "./targets.js";
export { ownedPaths, RUBY_FOLDER, TARGETS, type Target } from "./targets.js";

export interface EmitOptions {
  /** Folder for the content-addressed cache of precompiled templates; absent: no cache. */
  cacheDir?: string;
  /** Which targets to emit (default: all of TARGETS). */
  targets?: readonly Target[];
  /** The Ruby namespace (default `McpCodegen`). */
  rubyModule?: string;
}

export type GeneratedFiles = Map<string, string>;

/** A module identifier for a version label, as the naming pass gives it when the label is alone. */
export function versionIdent(label: string): string {
  return versionIdents([label]).get(label)!;
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
function methodTypeImports(version: VersionModel): string[] {
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

function definitionOutputs(version: VersionModel, memo: OutputsMemo): Promise<DefinitionOutputs> {
  const key = definitionsKey(version);
  let outputs = memo.get(key);
  if (outputs === undefined) {
    outputs = Promise.resolve({ declarations: emitTypeDeclarations(version), zod: zodModule(version), guards: guardModule(version) });
    memo.set(key, outputs);
  }
  return outputs;
}

/**
 * What makes two versions' definitions the same: the schema bytes, the dialect, the patches applied,
 * and what the type printer takes from the version's schema.ts (the facts, not the file's bytes:
 * two schema.ts that differ only in what the printer does not read print the same types).
 */
function definitionsKey(version: VersionModel): string {
  const facts = version.specTypes ? sha256(JSON.stringify(version.specTypes.definitions)) : "json-only";
  return `${version.sha256}|${version.dialect}|${version.patches.join(",")}|${facts}`;
}

/**
 * For each version whose definitions are the same as another's of the tree, the label whose
 * types.ts, schemas.ts and guards.ts it re-exports: the first such label in code-unit order.
 */
function sameDefinitionsAs(versions: readonly VersionModel[]): Map<string, string> {
  const first = new Map<string, string>();
  const out = new Map<string, string>();
  for (const v of [...versions].sort((a, b) => byCodeUnit(a.label, b.label))) {
    const key = definitionsKey(v);
    const owner = first.get(key);
    if (owner === undefined) first.set(key, v.label);
    else out.set(v.label, owner);
  }
  return out;
}

/**
 * One version's files. `sameAs`: a label of the same tree whose definitions are this version's
 * (see `sameDefinitionsAs`); its types.ts, schemas.ts and guards.ts are then re-exported, not copied.
 */
export async function emitVersion(version: VersionModel, options: EmitOptions = {}, memo: OutputsMemo = new Map(), sameAs?: string): Promise<GeneratedFiles> {
  const header = { versions: [version] };
  const files: GeneratedFiles = new Map();
  files.set(
    `${version.label}/methods.ts`,
    finish(template("methods.ts.hbs")({ ...header, version, imports: methodTypeImports(version), requests: version.requests, notifications: version.notifications })),
  );
  for (const [p, text] of emitHandlerFiles(version, finish)) files.set(p, text);
  files.set(`${version.label}/index.ts`, finish(template("version-index.ts.hbs")(header)));
  if (sameAs !== undefined) {
    for (const module of ["types", "schemas", "guards"]) {
      files.set(`${version.label}/${module}.ts`, finish(template("reexport.ts.hbs")({ ...header, module, sameAs })));
    }
    return files;
  }
  const { declarations, zod, guards } = await definitionOutputs(version, memo);
  files.set(`${version.label}/types.ts`, finish(template("types.ts.hbs")({ ...header, specTypes: version.specTypes ?? null, declarations })));
  files.set(`${version.label}/schemas.ts`, finish(template("schemas.ts.hbs")({ ...header, dialect: version.dialect, ...zod })));
  files.set(`${version.label}/guards.ts`, finish(template("guards.ts.hbs")({ ...header, ...guards })));
  return files;
}

export async function emitTree(model: ProtocolModel, options: EmitOptions = {}): Promise<GeneratedFiles> {
  const targets = options.targets ?? TARGETS;
  const ruby = targets.includes("ruby") ? emitRubyTree(model, { module: options.rubyModule }) : new Map<string, string>();
  if (!targets.includes("typescript")) return ruby;
  if (ruby.size > 0 && model.versions.some((v) => v.label === RUBY_FOLDER)) {
    throw new InputError(`version label "${RUBY_FOLDER}" would share its folder with the Ruby tree; rename the folder or generate one target (--target)`);
  }
  const idents = versionIdents(model.versions.map((v) => v.label));
  const identOf = (label: string) => idents.get(label)!;
  setTemplateCache(options.cacheDir);
  const files: GeneratedFiles = new Map();
  const memo: OutputsMemo = new Map();
  const sameAs = sameDefinitionsAs(model.versions);
  const perVersion = await Promise.all(model.versions.map((v) => emitVersion(v, options, memo, sameAs.get(v.label))));
  for (const f of perVersion) for (const [p, text] of f) files.set(p, text);
  // Merged models share no memo with the core versions (their definitions differ); equal ones re-export each other.
  for (const [p, text] of await emitExtensionModules(model, (merged, same) => emitVersion(merged, options, new Map(), same), definitionsKey)) files.set(p, text);

  const header = { versions: model.versions };
  const versions = model.versions.map((v) => ({ ...v, ident: identOf(v.label) }));
  files.set("catalogue.ts", finish(template("catalogue.ts.hbs")(header)));
  files.set("runtime.ts", emitRuntime(model.versions, finish));
  for (const [p, text] of runtimeFiles()) files.set(p, text);
  files.set("router.ts", emitRouter(model, identOf, finish));
  files.set("index.ts", finish(template("index.ts.hbs")({ versions, latest: latestReleased(model.versions.map((v) => v.label)) })));
  files.set("MATRIX.md", finish(emitMatrix(model)));
  for (const [p, text] of emitDiffs(model)) files.set(p, text);
  for (const [p, text] of emitPackageFiles(files.keys())) files.set(p, text);
  for (const [p, text] of ruby) files.set(`${RUBY_FOLDER}/${p}`, text);
  return new Map([...files].sort(byKey));
}
