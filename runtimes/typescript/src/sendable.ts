// Whether a value can go on the wire as JSON unchanged: what JSON.stringify would throw on (a
// BigInt, a cycle) or silently lose (a function, a symbol, undefined in an array, NaN or ±Infinity)
// is not sendable. Objects are read as JSON.stringify reads them: own enumerable string keys, and
// `toJSON` when present; an object field that is undefined is absent, as JSON has it.
import { pointerToken } from "./schema-support.js";

/**
 * Why `value` cannot be sent as JSON, with the JSON pointer of the first offending value
 * ("a bigint at /content/0/size"), or undefined when it can. Reading may run getters and
 * `toJSON`; what they throw propagates.
 */
export function unsendable(value: unknown): string | undefined {
  return check(value, "", "", []);
}

function check(value: unknown, key: string, at: string, ancestors: object[]): string | undefined {
  switch (typeof value) {
    case "string":
    case "boolean":
      return undefined;
    case "number":
      return Number.isFinite(value) ? undefined : `${String(value)} at ${at || "(root)"}`;
    case "object":
      break;
    default:
      // bigint, function, symbol, undefined (where undefined is not an absent object field).
      return `${value === undefined ? "undefined" : `a ${typeof value}`} at ${at || "(root)"}`;
  }
  if (value === null) return undefined;
  // Boxed primitives: JSON.stringify sends (or refuses) the value inside.
  if (value instanceof Number || value instanceof String || value instanceof Boolean) return check(value.valueOf(), key, at, ancestors);
  if (value instanceof BigInt) return `a bigint at ${at || "(root)"}`;
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === "function") {
    const replaced: unknown = toJSON.call(value, key);
    return replaced === value ? walk(value, at, ancestors) : check(replaced, key, at, ancestors);
  }
  return walk(value, at, ancestors);
}

function walk(value: object, at: string, ancestors: object[]): string | undefined {
  if (ancestors.includes(value)) return `a cycle at ${at || "(root)"}`;
  ancestors.push(value);
  try {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const problem = check(value[i], String(i), `${at}/${i}`, ancestors);
        if (problem !== undefined) return problem;
      }
      return undefined;
    }
    for (const key of Object.keys(value)) {
      const field = (value as Record<string, unknown>)[key];
      if (field === undefined) continue;
      const problem = check(field, key, `${at}/${pointerToken(key)}`, ancestors);
      if (problem !== undefined) return problem;
    }
    return undefined;
  } finally {
    ancestors.pop();
  }
}
