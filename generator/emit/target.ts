// The contract every output target implements (issue 18): a target is one folder under generator/emit/
// plus one line in the registry. Nothing outside a target's folder and the registry names a target.
import type { ProtocolModel } from "../model/types.js";

/** One command-line option a target adds to `generate` and `bump` (`--ruby-module NAME`). */
export interface TargetOption {
  /** The flag without its dashes; it starts with the target's name (`ruby-module`, `python-package`). */
  flag: string;
  /** One line for `--help`. */
  description: string;
  /** The value when the flag is absent. */
  default: string;
  /** An error message for a value the target cannot use (the CLI exits 2 with it), or null. */
  validate?(value: string): string | null;
}

/** What a target's emitter is given besides the model. */
export interface TargetContext {
  /** Every option of the target, by flag, defaults applied. */
  options: Readonly<Record<string, string>>;
  /** Folder of the content-addressed template cache, or undefined for none. */
  cacheDir?: string;
}

export interface Target {
  /** The name `--target` and package.json's `"mcp-codegen": { "targets": [...] }` use. */
  name: string;
  /** The folder of the output the tree occupies when other targets are generated too ("" is the root). */
  folder: string;
  options: readonly TargetOption[];
  /** The target's files, paths relative to its folder. Throws InputError for a model it cannot print. */
  emit(model: ProtocolModel, context: TargetContext): Promise<Map<string, string>>;
  /** Whether these paths (relative to a folder) are a tree this target wrote. */
  recognizes(paths: readonly string[]): boolean;
  /** Files or folders, relative to generator/, whose contents decide this target's output (the fingerprint hashes them). */
  sources: readonly string[];
}
