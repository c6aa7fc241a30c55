// The Ruby target's naming pass: every name the Ruby printer prints into a version module, methods.rb
// and the root file is decided here, over the model's neutral names: method constants, result
// normalizer functions, `resultType` list constants and version modules. The printer only looks them up.
//
// One collision policy: two spec names that would print as one Ruby name are refused, an InputError
// naming both (and the file it comes from). Ruby's conventions leave no room for a suffix: method
// constants are spelled as the Ruby SDK's `MCP::Methods` spells them, and a version module is a file a
// user requires. Reserved names are held by the candidates: a method constant that would be a constant
// the module or the tree takes itself (or a keyword) gets `_METHOD` after it, a normalizer that would be
// a function the module defines itself gets `_method`, a constant not starting with a letter
// `METHOD_` before it. test/emit/ruby/reserved-names.test.ts reads the printed tree with Ruby's own
// parser (Ripper) and holds it to these rules.
import { InputError } from "../../errors.js";
import type { VersionModel } from "../../model/types.js";
import { byCodeUnit } from "../../order.js";
import { snakeNormalizerName } from "../../print/text.js";
import { constantCase, moduleConstant, RUBY_KEYWORDS, VERSION_MODULE_CONSTANTS } from "./language.js";

/**
 * The constants the tree declares beside the version modules, in its namespace: `Runtime` (runtime.rb),
 * `Methods` (methods.rb), `Gate` (gate.rb), `VERSIONS` and `EXTENSIONS` (the root file), `ProtocolFacts`
 * (protocol.rb, the protocol module), and `Protocol`, whose version file would be protocol.rb.
 */
export const TREE_CONSTANTS: ReadonlySet<string> = new Set(["Runtime", "Methods", "Gate", "VERSIONS", "EXTENSIONS", "ProtocolFacts", "Protocol", "Projection", "Projections"]);

/**
 * The constants a version module takes itself, the modules the runtime declares (language.ts) and the
 * tree's own constants beside the version modules (Methods reads VERSIONS): a method constant may not
 * take them, in a version module or in Methods.
 */
export function versionModuleConstants(): ReadonlySet<string> {
  return new Set([...VERSION_MODULE_CONSTANTS, ...TREE_CONSTANTS]);
}

/** The functions a version module defines itself besides the normalizers: no normalizer may take them. */
export const VERSION_MODULE_FUNCTIONS: ReadonlySet<string> = new Set(["normalize_result", "params_errors", "params_document"]);

/** The prefix of every `resultType` list constant (RESULT_TYPES_COMPLETE …): no method constant starts with it. */
const RESULT_TYPES = "RESULT_TYPES_";

/** The candidate constant of a method: CONSTANT_CASE, `METHOD_` before one not starting with a letter, `_METHOD` after a reserved one. */
export function methodConstant(method: string, reserved: ReadonlySet<string> = versionModuleConstants()): string {
  let name = constantCase(method);
  if (!/^[A-Z]/.test(name)) name = `METHOD_${name}`.replace(/_$/, "");
  if (reserved.has(name) || RUBY_KEYWORDS.has(name) || name.startsWith(RESULT_TYPES)) name = `${name}_METHOD`;
  return name;
}

/** Give each key its candidate; two keys with one name are refused (`what` says what the name is). */
function refuseCollisions(keys: readonly string[], candidate: (key: string) => string, what: (name: string) => string, file: string): Map<string, string> {
  const byName = new Map<string, string>();
  const out = new Map<string, string>();
  for (const key of [...keys].sort(byCodeUnit)) {
    const name = candidate(key);
    const clash = byName.get(name);
    if (clash !== undefined) throw new InputError(`"${clash}" and "${key}" would both be ${what(name)}`, file);
    byName.set(name, key);
    out.set(key, name);
  }
  return out;
}

/** Constants for a version's method names, in code-unit order of the methods; distinct methods must not share one. */
export function methodConstants(version: VersionModel, reserved: ReadonlySet<string> = versionModuleConstants()): Map<string, string> {
  const methods = [...version.requests, ...version.notifications].map((x) => x.method);
  return refuseCollisions(methods, (m) => methodConstant(m, reserved), (c) => `the Ruby constant ${c}`, `${version.label}/schema.json`);
}

/** methods.rb's constants: every method of every module once, by method; two methods sharing a constant across versions are refused too. */
export function treeMethodConstants(versions: readonly VersionModel[]): Map<string, string> {
  const constants = new Map<string, string>();
  const byConstant = new Map<string, string>();
  for (const v of versions) {
    for (const [method, constant] of methodConstants(v)) {
      const clash = byConstant.get(constant);
      if (clash !== undefined && clash !== method) throw new InputError(`methods "${clash}" and "${method}" would both be the Ruby constant Methods::${constant}`, `${v.label}/schema.json`);
      byConstant.set(constant, method);
      constants.set(method, constant);
    }
  }
  return new Map([...constants].sort((a, b) => byCodeUnit(a[0], b[0])));
}

/** A request's normalizer function: `resources/subscribe` → `normalize_resources_subscribe` (`_method` after one the module defines itself). */
export function rubyNormalizerName(method: string): string {
  const name = snakeNormalizerName(method);
  return VERSION_MODULE_FUNCTIONS.has(name) ? `${name}_method` : name;
}

/** Method → normalizer function name, for every request of the version (collisions are an InputError). */
export function normalizerNames(version: VersionModel): Map<string, string> {
  return refuseCollisions(version.requests.map((r) => r.method), rubyNormalizerName, (n) => `the Ruby normalizer ${n}`, `${version.label}/schema.json`);
}

/**
 * The module constant holding these `resultType` values, or nil: a standard list's constant, else one
 * named by its values (an extension's, `["complete", "input_required", "task"]` →
 * RESULT_TYPES_COMPLETE_INPUT_REQUIRED_TASK), defined by the module that uses it.
 */
export function resultTypesConstant(types: readonly string[] | null, standard: ReadonlyMap<string, readonly string[]>): string {
  if (types === null) return "nil";
  for (const [constant, list] of standard) if (list.join("\n") === types.join("\n")) return constant;
  return `${RESULT_TYPES}${types.map(constantCase).join("_")}`;
}

/** Version labels must map to distinct module constants, none of which the tree uses itself. */
export function checkVersionModules(labels: readonly string[]): void {
  const seen = new Map<string, string>();
  for (const label of labels) {
    const c = moduleConstant(label);
    const clash = seen.get(c);
    if (clash !== undefined || TREE_CONSTANTS.has(c)) {
      throw new InputError(`version label "${label}" maps to the Ruby module ${c}, which ${clash !== undefined ? `"${clash}" also maps to` : "the Ruby tree uses itself"}; rename one folder`);
    }
    seen.set(c, label);
  }
}
