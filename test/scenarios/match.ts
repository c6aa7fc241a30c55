// The scenarios' match rules (scenario.schema.json, "matchers"): an expected value matches an actual one
// exactly (JSON equality, member order ignored), except {"$any": "string" | "number"} (any value of that
// type; "id": a JSON-RPC id, a string or an integer), {"$subset": object} (an object holding at least those members, each matched by these rules) and
// {"$contains": value} (an array with an element matching value).

/** Where `actual` first differs from `expected` (a JSON pointer and what was wanted), or null when it matches. */
export function mismatch(expected: unknown, actual: unknown, at = ""): string | null {
  if (isObject(expected) && Object.keys(expected).length === 1 && Object.hasOwn(expected, "$any")) {
    const ok = expected.$any === "id" ? typeof actual === "string" || Number.isInteger(actual) : typeof actual === expected.$any;
    return ok ? null : `${at || "/"}: expected any ${String(expected.$any)}, got ${JSON.stringify(actual)}`;
  }
  if (isObject(expected) && Object.keys(expected).length === 1 && Object.hasOwn(expected, "$subset")) {
    const want = expected.$subset;
    if (!isObject(want) || !isObject(actual)) return `${at || "/"}: expected an object holding ${JSON.stringify(want)}, got ${JSON.stringify(actual)}`;
    for (const [k, v] of Object.entries(want)) {
      if (!Object.hasOwn(actual, k)) return `${at}/${k}: missing`;
      const m = mismatch(v, actual[k], `${at}/${k}`);
      if (m !== null) return m;
    }
    return null;
  }
  if (isObject(expected) && Object.keys(expected).length === 1 && Object.hasOwn(expected, "$contains")) {
    if (!Array.isArray(actual) || !actual.some((a) => mismatch(expected.$contains, a) === null)) return `${at || "/"}: expected an array holding ${JSON.stringify(expected.$contains)}, got ${JSON.stringify(actual)}`;
    return null;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return `${at || "/"}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
    for (let i = 0; i < expected.length; i++) {
      const m = mismatch(expected[i], actual[i], `${at}/${i}`);
      if (m !== null) return m;
    }
    return null;
  }
  if (isObject(expected)) {
    if (!isObject(actual)) return `${at || "/"}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
    for (const k of keys) {
      if (!Object.hasOwn(actual, k)) return `${at}/${k}: missing (expected ${JSON.stringify(expected[k])})`;
      if (!Object.hasOwn(expected, k)) return `${at}/${k}: unexpected ${JSON.stringify(actual[k])}`;
      const m = mismatch(expected[k], actual[k], `${at}/${k}`);
      if (m !== null) return m;
    }
    return null;
  }
  return Object.is(expected, actual) || expected === actual ? null : `${at || "/"}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
