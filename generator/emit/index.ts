// The output stage: a model → the files of the generated tree (paths relative to the output folder), one
// target after another, each target's tree in its folder (targets.ts, target.ts), and the reports
// (generator/reports/: MATRIX.md, DIFFS/) at the root of the tree, whatever targets run — unless one
// target is generated alone into its own folder (then the output folder is that target's tree).
import { InputError } from "../errors.js";
import type { ProtocolModel } from "../model/types.js";
import { byKey } from "../order.js";
import { emitReports } from "../reports/index.js";
import { targets as defaultRegistry, type TargetRegistry } from "./targets.js";
import type { Target } from "./target.js";

export { TargetRegistry, targets } from "./targets.js";
export type { Target, TargetContext, TargetOption, TargetRuntime } from "./target.js";

export interface EmitOptions {
  /** Folder for the content-addressed cache of precompiled templates; absent: no cache. */
  cacheDir?: string;
  /** Which targets to emit, by name (default: every target of the registry). */
  targets?: readonly string[];
  /** Target options by flag (`{ "ruby-module": "MCP::Protocol" }`); absent ones take their defaults. */
  options?: Readonly<Record<string, string>>;
  /** The targets to choose from (default: the shipped ones). */
  registry?: TargetRegistry;
}

export type GeneratedFiles = Map<string, string>;

/** The options of one target, defaults applied, checked (InputError for a value it cannot use). */
export function targetOptions(target: Target, given: Readonly<Record<string, string>> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const o of target.options) {
    const value = given[o.flag] ?? o.default;
    const problem = o.validate?.(value) ?? null;
    if (problem !== null) throw new InputError(`--${o.flag} ${problem}`);
    out[o.flag] = value;
  }
  return out;
}

export async function emitTree(model: ProtocolModel, options: EmitOptions = {}): Promise<GeneratedFiles> {
  const registry = options.registry ?? defaultRegistry;
  const selected = options.targets === undefined ? [...registry.targets] : registry.select(options.targets);
  for (const name of options.targets ?? []) if (registry.get(name) === undefined) throw new InputError(`unknown target "${name}"; expected: ${registry.names.join(", ")}`);
  // A version folder of the root tree must not be another target's folder.
  if (selected.length > 1 && selected.some((t) => t.folder === "")) {
    for (const t of selected) {
      if (t.folder !== "" && model.versions.some((v) => v.label === t.folder)) {
        throw new InputError(`version label "${t.folder}" would share its folder with the ${t.title ?? t.name} tree; rename the folder or generate one target (--target)`);
      }
    }
  }
  const files: GeneratedFiles = new Map();
  for (const target of selected) {
    const prefix = registry.prefix(selected, target);
    const emitted = await target.emit(model, { options: targetOptions(target, options.options), cacheDir: options.cacheDir });
    for (const [p, text] of emitted) files.set(`${prefix}${p}`, text);
  }
  if (registry.writesReports(selected)) {
    for (const [p, text] of emitReports(model, { cacheDir: options.cacheDir })) {
      if (files.has(p)) throw new InputError(`a target's tree and the reports both write ${p}`);
      files.set(p, text);
    }
  }
  return new Map([...files].sort(byKey));
}

/** Which paths of the output folder a run of the named targets owns (see TargetRegistry.owned). */
export function ownedPaths(names?: readonly string[], registry: TargetRegistry = defaultRegistry): (rel: string) => boolean {
  return registry.owned(names === undefined ? registry.targets : registry.select(names));
}
