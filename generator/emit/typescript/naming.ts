// The TypeScript target's namer, over the model's neutral names (the spec's definition names, the
// methods, the labels) and the neutral collision pass of model/naming.ts. Every identifier the
// TypeScript printers emit is decided here, once: definition type names, their `XSchema` and `isX`,
// result normalizers, the per-side names, version module identifiers. Collision-free (a deterministic
// `_2`, `_3` … in sorted order of the original names) and stable across runs.
//
// The names a definition must never take are derived from what the target prints (templates and
// runtime), not listed by hand: every module-level name a version module's template declares,
// imports or re-exports, every export of a runtime module a template imports a computed list from,
// the per-side names below, and the declarations the printer adds to a template (result-type.ts). The version index re-exports all its modules together, so they share
// one scope; a definition named like a runtime export (`OnError`) would otherwise vanish behind the
// index's explicit re-export.
import { readFileSync } from "node:fs";
import path from "node:path";
import { runtimeSourceDir } from "../../paths.js";
import { typescriptTemplatesDir as templatesDir } from "./paths.js";
import { labelIdentifier, unique } from "../../model/naming.js";
import type { IrDefinition, SchemaIR } from "../../model/ir.js";
import type { Method, RequestMethod, VersionModel } from "../../model/types.js";
import { resultTypeView } from "./result-type.js";

/** Reserved words of TypeScript and JavaScript modules, and names with a meaning in every scope. */
const RESERVED_WORDS: ReadonlySet<string> = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for function if " +
    "import in instanceof new null return super switch this throw true try typeof var void while with implements interface let " +
    "package private protected public static yield await arguments eval as async from of type declare module namespace " +
    "undefined unknown never any object string number boolean symbol bigint infer keyof readonly unique is asserts satisfies accessor"
  ).split(" "),
);

/** The templates of one version's modules (its index.ts re-exports them all: one scope). */
const VERSION_MODULE_TEMPLATES = [
  "types.ts.hbs",
  "schemas.ts.hbs",
  "guards.ts.hbs",
  "methods.ts.hbs",
  "handlers.ts.hbs",
  "normalizers.ts.hbs",
  "dispatcher.ts.hbs",
  "version-index.ts.hbs",
  "reexport.ts.hbs",
];
/** The templates whose scope holds the version module identifiers (`import * as v2025_11_25`). */
const TREE_TEMPLATES = ["index.ts.hbs", "router.ts.hbs", "client.ts.hbs"];

/** What each side's names are in a version's handlers.ts and dispatcher.ts. */
export interface SideNames {
  side: "server" | "client";
  /** The handlers interface (`ServerHandlers`). */
  handlers: string;
  /** The dispatcher factory (`createServerDispatcher`). */
  createDispatcher: string;
  /** The module-local dispatcher tables (`serverTables`). */
  tables: string;
}

export const SIDES: readonly SideNames[] = (["server", "client"] as const).map((side) => {
  const Side = side[0].toUpperCase() + side.slice(1);
  return { side, handlers: `${Side}Handlers`, createDispatcher: `create${Side}Dispatcher`, tables: `${side}Tables` };
});

/**
 * The module-level names a TypeScript module template declares, imports or re-exports. A name spelled
 * with a template expression in it (`{{name}}`) is the namer's, not the template's; an import list
 * that is a template expression brings every export of the runtime module it names.
 */
export function declaredNames(template: string, runtimeDir: string = runtimeSourceDir): Set<string> {
  const text = template.replace(/\{\{![\s\S]*?\}\}/g, "").replace(/\{\{[\s\S]*?\}\}/g, "\u0001");
  const out = new Set<string>();
  const plain = (name: string) => /^[A-Za-z_$][\w$]*$/.test(name);
  const listNames = (list: string) =>
    list
      .split(",")
      .map((item) => item.trim().replace(/^type\s+/, ""))
      .filter((item) => item !== "")
      .map((item) => item.split(/\s+as\s+/).pop()!.trim());
  for (const m of text.matchAll(/^(import|export)\s+(?:type\s+)?\{([^}]*)\}(?:\s*from\s*"([^"]+)")?/gm)) {
    for (const name of listNames(m[2])) if (plain(name)) out.add(name);
    // A computed import list from a runtime module: any of its exports may be imported.
    if (m[2].includes("\u0001") && m[3] !== undefined && m[3].startsWith("../runtime/")) {
      for (const name of exportedNames(readFileSync(path.join(runtimeDir, m[3].slice("../runtime/".length).replace(/\.js$/, ".ts")), "utf8"))) out.add(name);
    }
  }
  for (const m of text.matchAll(/^import\s+(?:type\s+)?\*\s+as\s+([A-Za-z_$][\w$]*)(?![\w$\u0001])/gm)) out.add(m[1]);
  for (const m of text.matchAll(/^(?:export\s+)?(?:declare\s+)?(?:const|let|var|function|type|interface|class|enum)\s+([A-Za-z_$][\w$]*)(?![\w$\u0001])/gm)) out.add(m[1]);
  return out;
}

/** The names a TypeScript source module exports (declarations and `export { … }` lists). */
function exportedNames(source: string): Set<string> {
  const out = new Set<string>();
  for (const m of source.matchAll(/^export\s+(?:declare\s+)?(?:async\s+)?(?:const|let|var|function|type|interface|class|enum)\s+([A-Za-z_$][\w$]*)/gm)) out.add(m[1]);
  for (const m of source.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}/gm)) {
    for (const item of m[1].split(",")) {
      const name = item.trim().replace(/^type\s+/, "").split(/\s+as\s+/).pop()!.trim();
      if (name !== "") out.add(name);
    }
  }
  return out;
}

/** The names a set of templates takes (see declaredNames), read once per template folder. */
const takenByTemplates = new Map<string, ReadonlySet<string>>();
function templateNames(dir: string, files: readonly string[], extra: Iterable<string> = []): ReadonlySet<string> {
  const key = `${dir}\0${files.join(",")}`;
  let names = takenByTemplates.get(key);
  if (names === undefined) {
    const all = new Set<string>(extra);
    for (const f of files) for (const n of declaredNames(readFileSync(path.join(dir, f), "utf8"))) all.add(n);
    names = all;
    takenByTemplates.set(key, names);
  }
  return names;
}

/** The names a version's modules take besides the per-definition and per-request ones. */
export function versionModuleNames(dir: string = templatesDir): ReadonlySet<string> {
  // The templates, the per-side names, and what the printer adds to the templates' text (HandlerResult).
  const printed = [false, true].flatMap((carried) => [...declaredNames(resultTypeView(carried).handlerResult.join("\n"))]);
  return templateNames(dir, VERSION_MODULE_TEMPLATES, [...SIDES.flatMap((s) => [s.handlers, s.createDispatcher, s.tables]), ...printed]);
}

/** Identifier characters the names we derive may use (no `$`: printers keep `$` for their own helpers). */
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * A name made an identifier: kept when it is one; else its runs of letters and digits joined with
 * each run's first letter upper-cased (`Record<string,string>` → `RecordStringString`), `_` before
 * a leading digit or a reserved word.
 */
function sanitize(name: string): string {
  if (IDENT.test(name) && !RESERVED_WORDS.has(name)) return name;
  const words = name.split(/[^A-Za-z0-9_]+/).filter((w) => w.length > 0);
  let out = words.map((w, i) => (i === 0 ? w : w[0].toUpperCase() + w.slice(1))).join("");
  if (out === "") out = "Definition";
  if (/^[0-9]/.test(out) || RESERVED_WORDS.has(out)) out = `_${out}`;
  return out;
}

/** The identifiers emitted for one definition. */
export interface DefinitionNames {
  /** The TypeScript type (`CallToolResult`; `Record<string,string>` → a derived identifier). */
  type: string;
  /** The zod schema constant (`CallToolResultSchema`). */
  schema: string;
  /** The guard function (`isCallToolResult`). */
  guard: string;
}

/** The TypeScript names of one version's definitions, by original name. */
export class DefinitionNaming {
  readonly #names: ReadonlyMap<string, DefinitionNames>;

  constructor(definitions: Iterable<IrDefinition>, reserved: ReadonlySet<string> = versionModuleNames()) {
    // Type, schema and guard names share one scope (the version's index.ts exports them all), so each
    // avoids the others and the modules' own names.
    const defs = [...definitions];
    const types = unique(defs.map((d) => d.name), sanitize, reserved);
    const taken = new Set([...reserved, ...types.values()]);
    const typeNames = [...types.values()];
    const schemas = unique(typeNames, (t) => `${t}Schema`, taken);
    for (const n of schemas.values()) taken.add(n);
    const guards = unique(typeNames, (t) => `is${t}`, taken);
    this.#names = new Map(defs.map((d) => {
      const type = types.get(d.name)!;
      return [d.name, { type, schema: schemas.get(type)!, guard: guards.get(type)! }];
    }));
  }

  /** The names of a definition (its original name, or the definition). */
  of(definition: string | IrDefinition): DefinitionNames {
    const names = this.#names.get(typeof definition === "string" ? definition : definition.name);
    if (names === undefined) throw new Error(`no TypeScript names for the definition ${JSON.stringify(definition)}`);
    return names;
  }

  /** Every name the definitions take. */
  all(): string[] {
    return [...this.#names.values()].flatMap((n) => [n.type, n.schema, n.guard]);
  }

  /**
   * A doc comment for a printed declaration whose name does not show the spec's definition: a derived
   * definition (where its schema is and why it got a name) or a sanitised name (the original). Else null.
   */
  doc(d: IrDefinition): string | null {
    const note = this.note(d);
    // Spec strings may hold anything, a comment's end included.
    return note === null ? null : `/** ${note.replace(/\*\//g, "*\\/")} */`;
  }

  /** The text of `doc` without the comment around it (for a printer that adds it to a longer doc comment). */
  note(d: IrDefinition): string | null {
    const type = this.of(d).type;
    if (d.derived !== null) return `${d.derived.reason} (${d.derived.from.pointer}), named ${type}.`;
    if (type !== d.name) return `The definition ${JSON.stringify(d.name)} of the schema, named ${type} here.`;
    return null;
  }
}

const namingOfIr = new WeakMap<SchemaIR, DefinitionNaming>();
/** The definition names of a version's IR (computed once per IR). */
export function definitionNaming(ir: SchemaIR): DefinitionNaming {
  let naming = namingOfIr.get(ir);
  if (naming === undefined) {
    naming = new DefinitionNaming(ir.definitions.values());
    namingOfIr.set(ir, naming);
  }
  return naming;
}

/** Every TypeScript name of one version: definitions, normalizers, and the type text of params and results. */
export class VersionNaming {
  readonly definitions: DefinitionNaming;
  readonly #normalizers: ReadonlyMap<string, string>;

  constructor(readonly version: VersionModel) {
    this.definitions = definitionNaming(version.ir);
    // `normalize<Base>Result`, where `<Base>` is the request's type name without `Request`
    // (`SubscribeRequest` → `normalizeSubscribeResult`); never a name a definition or a module takes.
    const taken = new Set([...versionModuleNames(), ...this.definitions.all()]);
    const base = new Map(version.requests.map((r) => {
      const typeName = this.definitions.of(r.definition).type;
      return [r.method, typeName.endsWith("Request") ? typeName.slice(0, -"Request".length) : typeName];
    }));
    this.#normalizers = unique([...base.keys()], (method) => `normalize${base.get(method)}Result`, taken);
  }

  /** The exported name of a request's result normalizer. */
  normalizer(r: RequestMethod): string {
    return this.#normalizers.get(r.method)!;
  }

  /** The params type, valid in the version's types module (`CallToolRequestParams`, `NonNullable<SubscribeRequest["params"]>`), or null. */
  paramsType(m: Method): string | null {
    if (m.params === null) return null;
    if (m.params.definition !== null) return this.definitions.of(m.params.definition).type;
    return `NonNullable<${this.definitions.of(m.definition).type}["params"]>`;
  }

  /** The result type (`EmptyResult`, `InputRequiredResult | CallToolResult`). */
  resultType(r: RequestMethod): string {
    return r.results.map((d) => this.definitions.of(d).type).join(" | ");
  }

  /** The type names a method's params and result types use: what a module using them imports from types.ts. */
  typeImports(m: Method): string[] {
    const defs = [...(m.params === null ? [] : [m.params.definition ?? m.definition]), ...(m.kind === "request" ? m.results : [])];
    return defs.map((d) => this.definitions.of(d).type);
  }
}

const namingOfVersion = new WeakMap<VersionModel, VersionNaming>();
/** The TypeScript names of a version (computed once per version model). */
export function versionNaming(version: VersionModel): VersionNaming {
  let naming = namingOfVersion.get(version);
  if (naming === undefined) {
    naming = new VersionNaming(version);
    namingOfVersion.set(version, naming);
  }
  return naming;
}

/**
 * The module identifier of each version label (`2025-11-25` → `v2025_11_25`, `draft` → `draft`,
 * `default` → `v_default`), unique across the labels of one tree.
 */
export function versionIdents(labels: readonly string[]): Map<string, string> {
  const tree = templateNames(templatesDir, TREE_TEMPLATES);
  const candidate = (label: string) => {
    const safe = labelIdentifier(label);
    if (/^[0-9]/.test(safe)) return `v${safe}`;
    return RESERVED_WORDS.has(safe) || tree.has(safe) ? `v_${safe}` : safe;
  };
  return unique([...labels], candidate);
}
