// What a set of targets means for a run: which target a name is, where each tree goes in the output
// folder, which paths a run owns, whether a folder is a generated tree. Loads no emitter (the CLI's
// `generate --check` fast path uses it).
import { isReportPath } from "../reports/paths.js";
import type { Target } from "./target.js";

export class TargetRegistry {
  readonly targets: readonly Target[];

  constructor(targets: readonly Target[]) {
    const names = new Set<string>();
    const folders = new Set<string>();
    const flags = new Set<string>();
    for (const t of targets) {
      if (names.has(t.name)) throw new Error(`two targets are named "${t.name}"`);
      if (folders.has(t.folder)) throw new Error(`target "${t.name}" takes the folder "${t.folder}" of another target`);
      if (t.folder.includes("/")) throw new Error(`target "${t.name}": its folder "${t.folder}" must be one path segment`);
      names.add(t.name);
      folders.add(t.folder);
      for (const o of t.options) {
        for (const f of [o.flag, ...(o.aliases ?? [])]) {
          if (flags.has(f)) throw new Error(`target "${t.name}": the option --${f} is taken`);
          flags.add(f);
        }
        if (!o.flag.startsWith(`${t.name}-`)) throw new Error(`target "${t.name}": option --${o.flag} must start with "${t.name}-"`);
      }
    }
    this.targets = [...targets];
  }

  /** This registry and `more` (a project's own target, a test's). */
  with(...more: Target[]): TargetRegistry {
    return new TargetRegistry([...this.targets, ...more]);
  }

  get names(): string[] {
    return this.targets.map((t) => t.name);
  }

  get(name: string): Target | undefined {
    return this.targets.find((t) => t.name === name);
  }

  /** The named targets in registry order (unknown names are left out: the caller reports them). */
  select(names: readonly string[]): Target[] {
    return this.targets.filter((t) => names.includes(t.name));
  }

  /** Every option of every target, with the target it belongs to. */
  options(): Array<{ target: Target; option: Target["options"][number] }> {
    return this.targets.flatMap((target) => target.options.map((option) => ({ target, option })));
  }

  /**
   * Where each selected target's files go inside the output folder: a target alone at its root, else
   * each in its own folder (the root target at the root).
   */
  prefix(selected: readonly Target[], target: Target): string {
    return selected.length === 1 || target.folder === "" ? "" : `${target.folder}/`;
  }

  /**
   * Whether a run of `selected` writes the reports (MATRIX.md, DIFFS/) at the root of the output: every
   * run but one target alone whose tree is a folder of its own (its output folder is that tree).
   */
  writesReports(selected: readonly Target[]): boolean {
    return !(selected.length === 1 && selected[0].folder !== "");
  }

  /**
   * Which paths of the output folder a run of `selected` owns (replaces, checks); the rest is another
   * target's and is kept. A non-root target alone owns its whole folder; otherwise a path belongs to the
   * target whose folder holds it (the root target: any path outside the others' folders), and the
   * reports at the root to the reports stage, which every run that writes the root runs.
   */
  owned(selected: readonly Target[]): (rel: string) => boolean {
    if (!this.writesReports(selected)) return () => true;
    const root = this.targets.find((t) => t.folder === "");
    const ownerOf = (rel: string) => this.targets.find((t) => t.folder !== "" && rel.startsWith(`${t.folder}/`)) ?? root;
    return (rel) => {
      if (isReportPath(rel)) return true;
      const owner = ownerOf(rel);
      return owner !== undefined && selected.includes(owner);
    };
  }

  /** Whether these paths (every file of a folder, relative to it) are a tree one of the targets wrote. */
  recognizes(paths: readonly string[]): boolean {
    return this.targets.some((t) => t.recognizes(paths));
  }
}
