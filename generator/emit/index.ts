// The output stage: a model → the files of the generated tree (paths relative to the output folder), one
// target after another, each target's tree in its folder (targets.ts, target.ts), and the reports
// (generator/reports/: MATRIX.md, DIFFS/) at the root of the tree, whatever targets run — unless one
// target is generated alone into its own folder (then the output folder is that target's tree).
import { InputError, UsageError } from "../errors.js";
import type { ProtocolModel } from "../model/types.js";
import { byKey } from "../order.js";
import { emitReports } from "../reports/index.js";
import { targets as defaultRegistry, type TargetRegistry } from "./targets.js";
import type { GeneratedFiles, Target } from "./target.js";

export { TargetRegistry, targets } from "./targets.js";
export type { GeneratedFiles, Target, TargetContext, TargetOption, TargetRuntime } from "./target.js";

export interface EmitOptions {
  /** Folder for the content-addressed cache of precompiled templates; absent: no cache. */
  cacheDir?: string;
  /** Which targets to emit, by name (default: every target of the registry). */
  targets?: readonly string[];
  /** Target options by flag (`{ "ruby-module": "MCP::Protocol" }`; absent ones take their defaults), or as resolved for the run. */
  options?: Readonly<Record<string, string>> | TargetOptionValues;
  /** The targets to choose from (default: the shipped ones). */
  registry?: TargetRegistry;
}

/**
 * The target options of a run, resolved once: every option of the selected targets by flag, from the
 * spellings given (its flag or a deprecated alias), defaults applied and every value validated. emitTree
 * takes them as they are; options given otherwise (a plain record) are resolved by emitTree.
 */
export class TargetOptionValues {
  constructor(readonly byFlag: Readonly<Record<string, string>>) {}
  /** The options of one target of the run. */
  of(target: Target): Record<string, string> {
    return Object.fromEntries(target.options.map((o) => [o.flag, this.byFlag[o.flag]]));
  }
  toJSON(): Readonly<Record<string, string>> {
    return this.byFlag;
  }
}

/**
 * Resolve the spellings given (`{ "ruby-module": "MCP::Protocol" }`, or a deprecated alias) for the
 * `selected` targets among `registry`'s: a spelling of a target not selected, an option given twice or a
 * value its target cannot use is a UsageError naming the spelling; spellings of no target are ignored.
 */
export function resolveTargetOptions(given: Readonly<Record<string, string>>, selected: readonly Target[], registry: Pick<TargetRegistry, "options"> = defaultRegistry): TargetOptionValues {
  const out: Record<string, string> = {};
  for (const { target, option } of registry.options()) {
    const spellings = [option.flag, ...(option.aliases ?? [])];
    for (const spelling of spellings) {
      const value = given[spelling];
      if (value === undefined) continue;
      if (!selected.includes(target)) throw new UsageError(`--${spelling} applies to the ${target.name} target`);
      if (out[option.flag] !== undefined) throw new UsageError(`--${option.flag} is given twice (${spellings.map((s) => `--${s}`).join(", ")})`);
      const problem = option.validate?.(value) ?? null;
      if (problem !== null) throw new UsageError(`--${spelling} ${problem}`);
      out[option.flag] = value;
    }
  }
  for (const target of selected) {
    for (const option of target.options) {
      if (out[option.flag] !== undefined) continue;
      const problem = option.validate?.(option.default) ?? null;
      if (problem !== null) throw new UsageError(`--${option.flag} ${problem} (its default)`);
      out[option.flag] = option.default;
    }
  }
  return new TargetOptionValues(out);
}

/** The options of one target, defaults applied, checked (a UsageError, an InputError, for a value it cannot use). */
export function targetOptions(target: Target, given: Readonly<Record<string, string>> = {}): Record<string, string> {
  return resolveTargetOptions(given, [target], { options: () => target.options.map((option) => ({ target, option })) }).of(target);
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
  const resolved = options.options instanceof TargetOptionValues ? options.options : resolveTargetOptions(options.options ?? {}, selected, registry);
  const files: GeneratedFiles = new Map();
  for (const target of selected) {
    const prefix = registry.prefix(selected, target);
    const emitted = await target.emit(model, { options: resolved.of(target), cacheDir: options.cacheDir });
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
