// The Python target's naming pass: every identifier the Python printer prints into a version module is
// decided here, over the model's neutral names and the neutral pass of model/naming.ts. The printer
// builds one ModuleNaming per version module before printing and only looks names up in it.
//
// One collision policy: a name that is taken gets a trailing `_`, then `__` … (`underscored`, PEP 8's way
// out of a clash, as in `class_`). It applies alike to definition classes and aliases, result
// normalizers, inline classes and fields. Reserved names are held by the candidates: a keyword or a
// leading digit is made an identifier (language.ts `identifier`), a leading underscore (Python's mark of
// a private name, which `from module import *` skips) moves to the end, and no module-level name is one
// the module binds itself (language.ts MODULE_NAMES) or a builtin it reads (BUILTINS_READ), and no
// field one of pydantic's BaseModel attributes (BASE_MODEL_ATTRIBUTES) or a module-level name (a field
// may be named like a builtin: its scope is the class, and `list` is a wire name of the spec). Version modules (`v2025_11_25`) are file names: a label whose module another
// label or the tree's own module takes is refused (renaming it would move the file users import).
// test/emit/python/reserved-names.test.ts reads the printed tree with Python's own parser and holds it to
// these rules.
import { InputError } from "../../errors.js";
import type { SchemaIR } from "../../model/ir.js";
import { free, underscored, unique } from "../../model/naming.js";
import type { VersionModel } from "../../model/types.js";
import { byCodeUnit } from "../../order.js";
import { snakeCase, snakeNormalizerName } from "../../print/text.js";
import { BASE_MODEL_ATTRIBUTES, BUILTINS_READ, identifier, MODULE_NAMES, moduleName, pascalCase } from "./language.js";
import { pythonRuntimeModules } from "./paths.js";

/** The candidate Python name of a spec definition name. */
export function definitionCandidate(name: string): string {
  const py = identifier(name);
  return py.startsWith("_") || MODULE_NAMES.has(py) ? `${py.replace(/^_+/, "")}_` : py;
}

/** The Python name of every definition of a version's IR, unique and free of the module's own names, in code-unit order of the spec names. */
export function definitionNames(ir: SchemaIR): Map<string, string> {
  const names = unique([...ir.definitions.keys()], definitionCandidate, new Set([...MODULE_NAMES, ...BUILTINS_READ]), underscored);
  return new Map([...names].sort(([a], [b]) => byCodeUnit(a, b)));
}

/** The candidate field name of a property: snake_case, an identifier, never a BaseModel attribute. */
export function fieldCandidate(property: string): string {
  let field = snakeCase(property);
  if (field === "" || /^[0-9]/.test(field)) field = `field_${field}`;
  field = identifier(field);
  return BASE_MODEL_ATTRIBUTES.has(field) ? `${field}_` : field;
}

/** The names of one version (or extension) module: what is module-level, and each class's fields. */
export class ModuleNaming {
  /** Spec definition name → its class or alias. */
  readonly definitions: ReadonlyMap<string, string>;
  /** Request method → its result normalizer function. */
  readonly normalizers: ReadonlyMap<string, string>;
  /** Every module-level name taken so far (the module's own, definitions, normalizers, inline classes). */
  readonly #scope: Set<string>;
  /** Every field name given so far: an inline class named later must not take one (the field would shadow it). */
  readonly #fields = new Set<string>();

  constructor(version: VersionModel) {
    this.definitions = definitionNames(version.ir);
    this.#scope = new Set([...MODULE_NAMES, ...this.definitions.values()]);
    const methods = version.requests.map((r) => r.method).sort(byCodeUnit);
    this.normalizers = unique(methods, snakeNormalizerName, new Set([...this.#scope, ...BUILTINS_READ]), underscored);
    for (const n of this.normalizers.values()) this.#scope.add(n);
  }

  /** A definition's class or alias name. */
  definition(name: string): string {
    const py = this.definitions.get(name);
    if (py === undefined) throw new Error(`no Python name for the definition ${JSON.stringify(name)}`);
    return py;
  }

  /** A request's normalizer function. */
  normalizer(method: string): string {
    const py = this.normalizers.get(method);
    if (py === undefined) throw new Error(`no Python normalizer for the request ${JSON.stringify(method)}`);
    return py;
  }

  /** The context an inline type of a class's property is named from: the class name and the property in PascalCase (`CallToolResult` + `structuredContent`). */
  propertyContext(owner: string, property: string): string {
    return owner + pascalCase(property);
  }

  /** A module-level class for an inline object, named from its context, taken from now on. */
  inlineClass(context: string): string {
    const name = free(context, (n) => this.#scope.has(n) || this.#fields.has(n) || BUILTINS_READ.has(n), underscored);
    this.#scope.add(name);
    return name;
  }

  /**
   * The field names of a class's properties (wire names, in order): distinct within the class, and none
   * a module-level name (a class body would shadow it in its annotations).
   */
  fields(properties: readonly string[]): string[] {
    const mine = new Set<string>();
    return properties.map((p) => {
      const field = free(fieldCandidate(p), (n) => mine.has(n) || this.#scope.has(n), underscored);
      mine.add(field);
      this.#fields.add(field);
      return field;
    });
  }

  /** Forget the inline classes and fields named from now on when the returned function is called (for a dry run). */
  snapshot(): () => void {
    const saved = [new Set(this.#scope), new Set(this.#fields)] as const;
    return () => {
      for (const [set, kept] of [[this.#scope, saved[0]], [this.#fields, saved[1]]] as const) {
        set.clear();
        for (const n of kept) set.add(n);
      }
    };
  }
}

/**
 * Version and extension labels must map to distinct modules (`2026-07-28+tasks` → `v2026_07_28_tasks`),
 * none of which is a module the tree has itself (a runtime module of paths.ts, the root's `__init__`).
 */
export function checkModuleNames(labels: readonly string[]): void {
  // The runtime's modules, and the modules the tree prints beside the versions (protocol.py, projections.py).
  const own = new Set(["__init__", "protocol", "projections", ...pythonRuntimeModules().map((name) => name.replace(/\.py$/, ""))]);
  const seen = new Map<string, string>();
  for (const label of labels) {
    const m = moduleName(label);
    const clash = seen.get(m);
    if (clash !== undefined || own.has(m)) {
      throw new InputError(`version label "${label}" maps to the Python module ${m}, which ${clash !== undefined ? `"${clash}" also maps to` : "the Python tree uses itself"}; rename one folder`);
    }
    seen.set(m, label);
  }
}
