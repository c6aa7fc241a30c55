// The emitters: a model → the files of the generated tree (paths relative to the output folder).
import type { Method, ProtocolModel, VersionModel, VersionTable } from "../../model/types.js";
import { customResultTypes, discoverServerInfo } from "../../model/rules.js";
import { extensionLabel } from "../../model/extensions.js";
import { tableOf } from "../../print/table.js";
import { emitHandlerFiles, emitRuntime } from "./handlers.js";
import { guardModule } from "./guards.js";
import { emitPackageFiles } from "./package.js";
import { emitRouter } from "./router.js";
import { emitClient } from "./client.js";
import { typescriptRuntime } from "./runtime.js";
import { copyRuntime } from "../runtime-copy.js";
import { typescriptTemplatesDir as templatesDir } from "./paths.js";
import { Templates } from "../../print/templates.js";
import { finish } from "../../print/text.js";
import { emitTypeDeclarations } from "./declarations.js";
import { zodModule } from "./zod.js";
import { byCodeUnit, byKey } from "../../order.js";
import { versionIdents, versionNaming, type VersionNaming } from "./naming.js";
import { sha256 } from "../../source/lock.js";
import type { GeneratedFiles, TargetContext } from "../target.js";
import { emitExtensionModules } from "./extensions.js";
import { projectionsFile } from "./projections.js";
import { typescriptProtocolModule } from "./protocol.js";
import { emitSdkAdoption } from "./sdk-adoption.js";
import { inProtocolOrder, protocolOrder } from "../../model/protocol-order.js";

/** A module identifier for a version label, as the naming pass gives it when the label is alone. */
export function versionIdent(label: string): string {
  return versionIdents([label]).get(label)!;
}

/** The newest label that is a release date (in protocol order), or null when none is. */
export function latestReleased(versions: readonly Pick<VersionModel, "label" | "era">[]): string | null {
  return protocolOrder(versions).filter((l) => /^\d{4}-\d{2}-\d{2}$/.test(l)).at(-1) ?? null;
}

/** The definitions a version's method types name: what methods.ts imports from types.ts. */
function methodTypeImports(names: VersionNaming): string[] {
  return [...new Set([...names.version.requests, ...names.version.notifications].flatMap((m) => names.typeImports(m)))].sort();
}

/** The catalogue rows of methods.ts: each method with its params and result type text. */
function methodViews(names: VersionNaming) {
  const params = (m: Method) => (m.params === null ? null : { type: names.paramsType(m)!, required: m.params.required });
  return {
    requests: names.version.requests.map((r) => ({ ...r, params: params(r), resultType: names.resultType(r) })),
    notifications: names.version.notifications.map((n) => ({ ...n, params: params(n) })),
  };
}

// A version's types.ts, schemas.ts and guards.ts from their printers' output: what generation writes,
// and what tests that compile one of them alone build it with (templates default to uncached ones).

export function typesFile(version: VersionModel, templates = new Templates({ dir: templatesDir }), declarations = emitTypeDeclarations(version)): string {
  return finish(templates.get("types.ts.hbs")({ versions: [version], specTypes: version.specTypes ?? null, declarations }));
}

export function schemasFile(version: VersionModel, templates = new Templates({ dir: templatesDir }), zod = zodModule(version)): string {
  return finish(templates.get("schemas.ts.hbs")({ versions: [version], dialect: version.dialect, ...zod }));
}

export function guardsFile(version: VersionModel, templates = new Templates({ dir: templatesDir }), guards = guardModule(version)): string {
  return finish(templates.get("guards.ts.hbs")({ versions: [version], ...guards }));
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

/** The model's `resultType` values of a custom request at this version, as a TypeScript constant's value. */
function customResultTypesText(version: VersionModel): string {
  const types = customResultTypes(version.era);
  return types === null ? "null" : `${JSON.stringify(types)} as const`;
}

/** A method table as a TypeScript object literal: one row a line, as JSON. */
function methodTableText(table: VersionTable): string {
  return ["{", ...Object.entries(table).map(([method, row]) => `  ${JSON.stringify(method)}: ${JSON.stringify(row)},`), "}"].join("\n");
}

/**
 * One version's files. `sameAs`: a label of the same tree whose definitions are this version's
 * (see `sameDefinitionsAs`); its types.ts, schemas.ts and guards.ts are then re-exported, not copied.
 */
export async function emitVersion(
  version: VersionModel,
  table: VersionTable,
  templates: Templates = new Templates({ dir: templatesDir }),
  memo: OutputsMemo = new Map(),
  sameAs?: string,
): Promise<GeneratedFiles> {
  const header = { versions: [version] };
  const names = versionNaming(version);
  const files: GeneratedFiles = new Map();
  files.set(
    `${version.label}/methods.ts`,
    finish(templates.get("methods.ts.hbs")({ ...header, version, imports: methodTypeImports(names), ...methodViews(names), methodTable: methodTableText(table), customResultTypes: customResultTypesText(version), discoverServerInfo: JSON.stringify(discoverServerInfo(version)) })),
  );
  for (const [p, text] of emitHandlerFiles(version, table, templates, finish)) files.set(p, text);
  files.set(`${version.label}/index.ts`, finish(templates.get("version-index.ts.hbs")(header)));
  if (sameAs !== undefined) {
    for (const module of ["types", "schemas", "guards"]) {
      files.set(`${version.label}/${module}.ts`, finish(templates.get("reexport.ts.hbs")({ ...header, module, sameAs })));
    }
    return files;
  }
  const { declarations, zod, guards } = await definitionOutputs(version, memo);
  files.set(`${version.label}/types.ts`, typesFile(version, templates, declarations));
  files.set(`${version.label}/schemas.ts`, schemasFile(version, templates, zod));
  files.set(`${version.label}/guards.ts`, guardsFile(version, templates, guards));
  return files;
}

/** The TypeScript tree: paths relative to its folder. */
export async function emitTypeScriptTree(model: ProtocolModel, context: Pick<TargetContext, "cacheDir"> = {}): Promise<GeneratedFiles> {
  const idents = versionIdents(model.versions.map((v) => v.label));
  const identOf = (label: string) => idents.get(label)!;
  const templates = new Templates({ dir: templatesDir, cacheDir: context.cacheDir });
  const files: GeneratedFiles = new Map();
  const memo: OutputsMemo = new Map();
  const sameAs = sameDefinitionsAs(model.versions);
  const tables = model.tables;
  const perVersion = await Promise.all(model.versions.map((v) => emitVersion(v, tableOf(tables, v.label), templates, memo, sameAs.get(v.label))));
  for (const f of perVersion) for (const [p, text] of f) files.set(p, text);
  // Merged models share no memo with the core versions (their definitions differ); equal ones re-export each other.
  for (const [p, text] of await emitExtensionModules(model, (merged, same, ext) => emitVersion(merged, tableOf(tables, extensionLabel(ext)), templates, new Map(), same), definitionsKey)) files.set(p, text);

  const header = { versions: model.versions };
  const versions = model.versions.map((v) => ({ ...v, ident: identOf(v.label) }));
  files.set("catalogue.ts", finish(templates.get("catalogue.ts.hbs")(header)));
  files.set("runtime.ts", emitRuntime(model.versions, templates, finish));
  for (const [p, text] of copyRuntime(typescriptRuntime)) files.set(p, text);
  files.set("protocol.ts", typescriptProtocolModule(model));
  files.set("router.ts", emitRouter(model, identOf, templates, finish));
  files.set("client.ts", emitClient(model, identOf, templates, finish));
  files.set("projections.ts", projectionsFile(model, templates, finish));
  // The TypeScript SDK adoption (typescript-sdk/): its files are no entry point of the package.
  for (const [p, text] of emitSdkAdoption(model)) files.set(p, text);
  // index.ts lists the versions oldest first: in protocol order.
  files.set("index.ts", finish(templates.get("index.ts.hbs")({ versions: inProtocolOrder(versions), latest: latestReleased(model.versions) })));
  for (const [p, text] of emitPackageFiles(files.keys())) files.set(p, text);
  return new Map([...files].sort(byKey));
}
