// The contract every output target implements (issue 18): a target is one folder under generator/emit/
// plus one line in the list of targets (targets.ts). Nothing outside a target's folder and the registry names a target.
//
// A target's index.ts holds only this descriptor and loads its printers inside `emit`, so the CLI can
// list targets, parse their options and scope a check or a write without loading any emitter.
import type { ProtocolModel } from "../model/types.js";

/** A tree's files: path (relative to the tree's folder, or to the output folder for the whole tree) → text. */
export type GeneratedFiles = Map<string, string>;

/** One command-line option a target adds to `generate` and `bump` (`--ruby-module NAME`). */
export interface TargetOption {
  /** The flag without its dashes; it starts with the target's name (`ruby-module`, `python-package`). */
  flag: string;
  /** Earlier spellings of the flag, still accepted and documented as deprecated (`module` for `ruby-module`). */
  aliases?: readonly string[];
  /** The value's placeholder in usage lines (`NAME`). */
  placeholder?: string;
  /** One line for `--help`. */
  description: string;
  /** The value when the flag is absent. */
  default: string;
  /**
   * An error message for a value the target cannot use, or null. The message follows the flag as
   * the user spelled it (`--ruby-module must be …`); the CLI exits 2 with it.
   */
  validate?(value: string): string | null;
}

/**
 * A target's hand-written runtime (runtimes/<language>/, a package of its language checked by its own
 * tools): the files every tree of the target carries a copy of. One copier (emit/runtime-copy.ts) reads
 * them as files, never as imports, and puts the one header policy on each copy: the header names the
 * source file and the generator's version, never a spec version or hash, so a spec bump rewrites no copy.
 */
export interface TargetRuntime {
  /** The folder the runtime's files are read from (absolute, under runtimes/<language>/). */
  dir: string;
  /** The files copied, relative to `dir`. */
  files(): readonly string[];
  /** Where a file's copy goes, relative to the target's folder, under the target's options (every option by flag, defaults applied). */
  destination(file: string, options: Readonly<Record<string, string>>): string;
  /**
   * A copy's text: `header` (the policy's lines, without comment markers) in the language's comments, then
   * the source, as the language must carry it into the tree (Ruby: inside the tree's namespace). Nothing
   * here may depend on the spec.
   */
  wrap(source: string, header: readonly string[], options: Readonly<Record<string, string>>): string;
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
  /** How messages name the language (`TypeScript`, `Ruby`); default: `name`. */
  title?: string;
  /**
   * The folder of the output the tree occupies when other targets are generated too ("" is the root:
   * at most one target has it, and the others' folders inside it are theirs). A target generated
   * alone writes its tree at the root of the output folder.
   */
  folder: string;
  options: readonly TargetOption[];
  /** The target's files, paths relative to its folder. Throws InputError for a model it cannot print. */
  emit(model: ProtocolModel, context: TargetContext): Promise<GeneratedFiles>;
  /**
   * Whether these paths (every file of a folder, relative to it) are a tree this target wrote. The
   * writer replaces a non-empty folder only when a target recognizes it and one of its top-level
   * files carries the generated header.
   */
  recognizes(paths: readonly string[]): boolean;
  /**
   * Files or folders, relative to generator/ (absolute for a target outside it), whose contents decide
   * this target's output besides the generator's own TypeScript: the fingerprint hashes them.
   */
  sources: readonly string[];
  /** The target's hand-written runtime, copied into every tree it writes (hashed by the fingerprint too); none for a target without one. */
  runtime?: TargetRuntime;
}
