// The Ruby target's namer, over the model's neutral names: method constants, normalizer functions and
// version modules. Ruby's conventions (the Ruby SDK's `MCP::Methods` spelling) leave no room for a
// suffix, so a clash is an input error naming both methods rather than a renamed constant.
import { InputError } from "../../errors.js";
import type { VersionModel } from "../../model/types.js";
import { byCodeUnit } from "../../order.js";
import { snakeNormalizerName, snakeNormalizerNames } from "../../print/text.js";
import { constantCase, moduleConstant, RUBY_KEYWORDS } from "./language.js";

/** Constants for a version's method names; distinct methods must not share one. */
export function methodConstants(version: VersionModel, reserved: ReadonlySet<string>): Map<string, string> {
  const byName = new Map<string, string>();
  const out = new Map<string, string>();
  for (const m of [...version.requests, ...version.notifications].map((x) => x.method).sort(byCodeUnit)) {
    let name = constantCase(m);
    if (!/^[A-Z]/.test(name)) name = `METHOD_${name}`.replace(/_$/, "");
    if (reserved.has(name) || RUBY_KEYWORDS.has(name)) name = `${name}_METHOD`;
    const clash = byName.get(name);
    if (clash !== undefined && clash !== m) {
      throw new InputError(`methods "${clash}" and "${m}" would both be the Ruby constant ${name}`, `${version.label}/schema.json`);
    }
    byName.set(name, m);
    out.set(m, name);
  }
  return out;
}

/** A request's normalizer function: `resources/subscribe` → `normalize_resources_subscribe`. */
export const rubyNormalizerName = snakeNormalizerName;

/** Method → normalizer function name, for every request of the version (collisions are an InputError). */
export function normalizerNames(version: VersionModel): Map<string, string> {
  return snakeNormalizerNames(version, "Ruby");
}

/**
 * The constants the tree declares beside the version modules, in its namespace: `Runtime` (runtime.rb),
 * `Methods` (methods.rb), `Gate` (gate.rb), `VERSIONS` and `EXTENSIONS` (the root file), `ProtocolFacts`
 * (protocol.rb, the protocol module), and `Protocol`, whose version file would be protocol.rb.
 */
export const TREE_CONSTANTS: ReadonlySet<string> = new Set(["Runtime", "Methods", "Gate", "VERSIONS", "EXTENSIONS", "ProtocolFacts", "Protocol"]);

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
