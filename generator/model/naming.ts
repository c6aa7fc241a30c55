// The neutral naming pass every target's namer builds on (emit/<target>/naming.ts): the model keeps
// the spec's own names (definitions, methods, labels) and never a target's identifiers. What is
// decided here is language-free: the names of derived definitions, how a label is made of identifier
// characters, and the one deterministic way names that collide are told apart.
import { byCodeUnit } from "../order.js";

/**
 * Give each key a unique name: `candidate(key)`, then `_2`, `_3` … when taken (keys in code-unit
 * order, after the keys whose candidate is the key itself: a spec name never loses its own name to a
 * derived one). Stable across runs; `taken` holds names no key may have.
 */
export function unique(keys: readonly string[], candidate: (key: string) => string, taken: ReadonlySet<string> = new Set()): Map<string, string> {
  const used = new Set(taken);
  const out = new Map<string, string>();
  const sorted = [...keys].sort((a, b) => Number(candidate(b) === b) - Number(candidate(a) === a) || byCodeUnit(a, b));
  for (const key of sorted) {
    const base = candidate(key);
    let name = base;
    for (let n = 2; used.has(name); n++) name = `${base}_${n}`;
    used.add(name);
    out.set(key, name);
  }
  return out;
}

/** A version label in identifier characters: every character but a letter, a digit or `_` becomes `_` (`2025-11-25` → `2025_11_25`). */
export function labelIdentifier(label: string): string {
  return label.replace(/[^A-Za-z0-9_]/g, "_");
}

/** The name a derived definition gets: `preferred` when free, else `preferred2`, `preferred3` … */
export function freeName(preferred: string, taken: (name: string) => boolean): string {
  let name = preferred;
  for (let n = 2; taken(name); n++) name = `${preferred}${n}`;
  return name;
}
