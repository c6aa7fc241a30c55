// The output targets and which paths of the output folder each owns. Kept apart from the emitters so
// the CLI can scope a check or a write without loading them.

/** The languages `generate` can emit. With TypeScript, the Ruby and Python trees are its `ruby/` and `python/` folders. */
export const TARGETS = ["typescript", "ruby", "python"] as const;
export type Target = (typeof TARGETS)[number];
/** Where the Ruby tree sits inside the output folder when TypeScript is generated too. */
export const RUBY_FOLDER = "ruby";
/** Where the Python tree sits inside the output folder when TypeScript (or another target) is generated too. */
export const PYTHON_FOLDER = "python";

/** The folder of each target but TypeScript, whose tree is the output's root. */
const FOLDERS: Record<Exclude<Target, "typescript">, string> = { ruby: RUBY_FOLDER, python: PYTHON_FOLDER };

/** Whether the targets' trees are folders of the output (TypeScript, or several targets), rather than one tree at its root. */
export function nested(targets: readonly Target[]): boolean {
  return targets.includes("typescript") || targets.length > 1;
}

/** The folder a target's tree occupies in a run with these targets ("" for the root). */
export function folderOf(target: Target, targets: readonly Target[]): string {
  return target === "typescript" || !nested(targets) ? "" : FOLDERS[target];
}

/**
 * Which paths of the output folder a run with these targets owns (replaces, checks); the rest is
 * another target's and is kept. TypeScript alone leaves `ruby/` and `python/` alone; one other target
 * alone owns its folder; several without TypeScript own only their folders.
 */
export function ownedPaths(targets: readonly Target[] = TARGETS): (rel: string) => boolean {
  if (!nested(targets)) return () => true;
  const entries = Object.entries(FOLDERS) as Array<[Target, string]>;
  const others = entries.filter(([t]) => !targets.includes(t)).map(([, f]) => `${f}/`);
  if (targets.includes("typescript")) return (rel) => !others.some((f) => rel.startsWith(f));
  const mine = entries.filter(([t]) => targets.includes(t)).map(([, f]) => `${f}/`);
  return (rel) => mine.some((f) => rel.startsWith(f));
}
