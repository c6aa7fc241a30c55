// The output targets and which paths of the output folder each owns. Kept apart from the emitters so
// the CLI can scope a check or a write without loading them.

/** The languages `generate` can emit. With both, the Ruby tree is the `ruby/` folder of the TypeScript one. */
export const TARGETS = ["typescript", "ruby"] as const;
export type Target = (typeof TARGETS)[number];
/** Where the Ruby tree sits inside the output folder when TypeScript is generated too. */
export const RUBY_FOLDER = "ruby";

/**
 * Which paths of the output folder a run with these targets owns (replaces, checks); the rest is
 * another target's and is kept. TypeScript alone leaves `ruby/` alone; Ruby alone owns its folder.
 */
export function ownedPaths(targets: readonly Target[] = TARGETS): (rel: string) => boolean {
  if (targets.includes("typescript") && !targets.includes("ruby")) return (rel) => !rel.startsWith(`${RUBY_FOLDER}/`);
  return () => true;
}
