// The neutral naming pass every target's namer builds on (emit/<target>/naming.ts): the model keeps
// the spec's own names (definitions, methods, labels) and never a target's identifiers. What is
// decided here is language-free: the names of derived definitions, how a label is made of identifier
// characters, and the one deterministic pass that tells colliding names apart under the collision
// policy a target declares (docs/naming.md lists each target's).
import { byCodeUnit } from "../order.js";

/** How a target tells apart names that collide: the `n`th name (n ≥ 2) made of a taken `base`. Each target declares one (emit/<target>/naming.ts). */
export type CollisionPolicy = (base: string, n: number) => string;

/** `_2`, `_3` …: the TypeScript target's policy. */
export const numbered: CollisionPolicy = (base, n) => `${base}_${n}`;

/** A trailing `_`, then `__` …: the Python target's policy (PEP 8's way out of a clash, as in `class_`). */
export const underscored: CollisionPolicy = (base, n) => base + "_".repeat(n - 1);

/** The first name `policy` makes of `base` that `taken` does not hold (`base` itself when free). */
export function free(base: string, taken: (name: string) => boolean, policy: CollisionPolicy): string {
  let name = base;
  for (let n = 2; taken(name); n++) name = policy(base, n);
  return name;
}

/**
 * Give each key a unique name: `candidate(key)`, told apart by `policy` when taken (keys in code-unit
 * order, after the keys whose candidate is the key itself: a spec name never loses its own name to a
 * derived one). Stable across runs; `taken` holds names no key may have.
 */
export function unique(keys: readonly string[], candidate: (key: string) => string, taken: ReadonlySet<string> = new Set(), policy: CollisionPolicy = numbered): Map<string, string> {
  const used = new Set(taken);
  const out = new Map<string, string>();
  const sorted = [...keys].sort((a, b) => Number(candidate(b) === b) - Number(candidate(a) === a) || byCodeUnit(a, b));
  for (const key of sorted) {
    const name = free(candidate(key), (n) => used.has(n), policy);
    used.add(name);
    out.set(key, name);
  }
  return out;
}

/** A version label in identifier characters: every character but a letter, a digit or `_` becomes `_` (`2025-11-25` → `2025_11_25`). */
export function labelIdentifier(label: string): string {
  return label.replace(/[^A-Za-z0-9_]/g, "_");
}

/**
 * The name a derived definition gets in the model (a spec-level name, as the spec's own, printed by
 * every target through its namer): `preferred` when free, else `preferred2`, `preferred3` …
 */
export function freeName(preferred: string, taken: (name: string) => boolean): string {
  return free(preferred, taken, (base, n) => `${base}${n}`);
}
