// One ordering for everything emitted: by UTF-16 code units, independent of locale, so output is
// byte-for-byte the same on every machine.

/** Compare two strings by code units (what `Array.prototype.sort()` does by default). */
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Compare map entries `[key, value]` by key. */
export function byKey<T>(a: readonly [string, T], b: readonly [string, T]): number {
  return byCodeUnit(a[0], b[0]);
}
