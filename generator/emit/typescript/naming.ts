// The TypeScript target's naming pass, over the model's neutral names (the spec's definition names, the
// methods, the labels) and the neutral collision pass of model/naming.ts. Every identifier the
// TypeScript printers emit is decided here, once: definition type names, their `XSchema`, the schema as
// built (`XSchema_`), `isX` and the guards' helper functions (`isX$1`, `isX$params`), result
// normalizers, the per-side names, version module identifiers. Printers only look them up.
//
// One collision policy: a name that is taken gets `_2`, `_3` … (`numbered`, in sorted order of the
// original names; stable across runs). Reserved words are held by the candidates (a `_` before a
// reserved word or a leading digit). The guards' helpers are the one family not told apart by the
// policy: they are numbered under their guard after a `$`, which no other name the pass gives holds, so
// they cannot meet another name. test/emit/typescript/reserved-names.test.ts reads the printed tree with
// the TypeScript parser and holds it to these rules.
//
// The names a definition must never take are the ones language.ts declares: every module-level name a
// version module's template declares, imports or re-exports, every export of a runtime module a
// template imports a computed list from, the per-side names below, and the declarations the printer
// adds to a template (result-type.ts); a test holds the list to the templates. The version index
// re-exports all its modules together, so they share one scope; a definition named like a runtime
// export (`OnError`) would otherwise vanish behind the index's explicit re-export.
import { labelIdentifier, unique } from "../../model/naming.js";
import type { IrDefinition, SchemaIR } from "../../model/ir.js";
import type { Method, RequestMethod, VersionModel } from "../../model/types.js";
import { RESERVED_WORDS, TREE_NAMES, VERSION_MODULE_NAMES } from "./language.js";

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

/** The names a version's modules take besides the per-definition and per-request ones (language.ts). */
export function versionModuleNames(): ReadonlySet<string> {
  return VERSION_MODULE_NAMES;
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
  /** The zod schema as built, before it is asserted to the declared type (`CallToolResultSchema_`). */
  built: string;
}

/** The `n`th helper function (from 1) of a guard: `isCallToolResult$1`. */
export function guardHelper(guard: string, n: number): string {
  return `${guard}$${n}`;
}

/** The guard of a method's inline params schema, under the guard of the method's definition: `isSubscribeRequest$params`. */
export function paramsGuard(guard: string): string {
  return `${guard}$params`;
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
    for (const n of guards.values()) taken.add(n);
    const built = unique(typeNames, (t) => `${schemas.get(t)!}_`, taken);
    this.#names = new Map(defs.map((d) => {
      const type = types.get(d.name)!;
      return [d.name, { type, schema: schemas.get(type)!, guard: guards.get(type)!, built: built.get(type)! }];
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
    return [...this.#names.values()].flatMap((n) => [n.type, n.schema, n.guard, n.built]);
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

/** The definition names of a version's IR (the same names however often asked: the namer is deterministic). */
export function definitionNaming(ir: SchemaIR): DefinitionNaming {
  return new DefinitionNaming(ir.definitions.values());
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

/** The TypeScript names of a version (the same names however often asked). */
export function versionNaming(version: VersionModel): VersionNaming {
  return new VersionNaming(version);
}

/**
 * The module identifier of each version label (`2025-11-25` → `v2025_11_25`, `draft` → `draft`,
 * `default` → `v_default`), unique across the labels of one tree.
 */
export function versionIdents(labels: readonly string[]): Map<string, string> {
  const tree = TREE_NAMES;
  const candidate = (label: string) => {
    const safe = labelIdentifier(label);
    if (/^[0-9]/.test(safe)) return `v${safe}`;
    return RESERVED_WORDS.has(safe) || tree.has(safe) ? `v_${safe}` : safe;
  };
  return unique([...labels], candidate);
}
