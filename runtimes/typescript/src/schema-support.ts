// Helpers every generated schemas.ts and guards.ts share, written once: JSON Schema's own rules where
// JavaScript's differ (string length in code points, `integer`, objects as JSON.parse makes them) and
// the JSON pointers of a zod error. Hand-written, type-checked and unit-tested as source; the
// generator copies it into generated/runtime/.
import * as z from "zod";

/** String length as JSON Schema counts it: in code points, not UTF-16 units (a lone surrogate counts one). */
export function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++, n++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
  }
  return n;
}

/** JSON Schema `integer`: any integral number (1.0 included, not only safe integers). */
export function integer(): z.ZodNumber {
  return z.number().refine(Number.isInteger, { message: "Invalid input: expected integer" });
}

/**
 * JSON Schema `multipleOf` by the one rule every target follows: `n` divided by the divisor `digits` × 10^-`scale`
 * is an integer in exact decimal arithmetic on `n`'s shortest decimal form (what JSON writes), so 0.3 is a multiple
 * of 0.1 although 0.3 / 0.1 is 2.9999999999999996 in binary.
 */
export function multipleOf(n: number, digits: string, scale: number): boolean {
  if (!Number.isFinite(n)) return false;
  // toExponential always writes "<mantissa>e<exponent>" (defaults only for noUncheckedIndexedAccess readers).
  const [mantissa = "0", exponent = "0"] = n.toExponential().split("e");
  const [whole = "0", fraction = ""] = mantissa.split(".");
  // n = value × 10^-places, exactly.
  let value = BigInt(whole + fraction);
  let places = fraction.length - Number(exponent);
  if (places < 0) {
    value *= 10n ** BigInt(-places);
    places = 0;
  }
  // n / divisor = value × 10^(scale - places) / digits.
  const divisor = BigInt(digits);
  return scale >= places ? (value * 10n ** BigInt(scale - places)) % divisor === 0n : value % (divisor * 10n ** BigInt(places - scale)) === 0n;
}

/** `Object.prototype`, which guards consult before trusting a plain property read. */
export const OP: object = Object.prototype;

/** The plain-object test guards use: the runtime's one (prototype Object.prototype or null; arrays are not). */
export { isPlainObject } from "./jsonrpc.js";

/** The guard of params a method does not describe: any value. */
export function acceptAny(_value: unknown): boolean {
  return true;
}

/** One JSON pointer reference token (RFC 6901) of a path element. */
export function pointerToken(token: PropertyKey): string {
  return String(token).replace(/~/g, "~0").replace(/\//g, "~1");
}

/** What the issue helpers read of a validation error (a zod error, or any schema's alike). */
export interface IssueList {
  readonly issues: ReadonlyArray<Issue>;
}

/** One issue: where and why; a union none of whose branches accepted the value carries each branch's issues (zod's `invalid_union`). */
interface Issue {
  readonly path: ReadonlyArray<PropertyKey>;
  readonly message: string;
  readonly errors?: ReadonlyArray<ReadonlyArray<Issue>>;
}

/**
 * The issues of the values rejected, a union's replaced by its branches' (their paths below the union's): a result
 * no branch of its union accepts is refused where each branch refused it, as every target's validator says it.
 */
function leafIssues(issues: ReadonlyArray<Issue>, prefix: ReadonlyArray<PropertyKey> = []): Array<{ path: PropertyKey[]; message: string }> {
  return issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    const branches = issue.errors ?? [];
    return branches.length > 0 ? branches.flatMap((b) => leafIssues(b, path)) : [{ path, message: issue.message }];
  });
}

/** The JSON pointer of an issue path ("" is the whole value). */
function pathPointer(path: ReadonlyArray<PropertyKey>): string {
  return path.map((t) => "/" + pointerToken(t)).join("");
}

/** The JSON pointers (RFC 6901; "" is the whole value) of the values a validation error rejects, each once. */
export function issuePaths(error: IssueList): string[] {
  return [...new Set(leafIssues(error.issues).map((issue) => pathPointer(issue.path)))];
}

/** One line per failing value: `<pointer>: <message>`, joined by "; ". */
export function formatIssues(error: IssueList): string {
  return leafIssues(error.issues).map((issue) => `${pathPointer(issue.path) || "(root)"}: ${issue.message}`).join("; ");
}

/** The property names a type declares (index signatures left out), over every member of a union. */
export type DeclaredKeys<T> = T extends object
  ? keyof { [K in keyof T as string extends K ? never : number extends K ? never : symbol extends K ? never : K]: 0 }
  : never;

/** Type test: compiles only when `Some` is assignable to `All` (for unions of names: each name of `Some` is in `All`). */
export type Within<Some extends All, All> = [Some, All];

/** JSON equality (JSON Schema's, for `uniqueItems`): numbers by value, objects whatever their key order. */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** Whether no two items of an array are JSON-equal (`uniqueItems: true`). */
export function uniqueItems(items: readonly unknown[]): boolean {
  for (let i = 0; i < items.length; i++) for (let j = i + 1; j < items.length; j++) if (jsonEqual(items[i], items[j])) return false;
  return true;
}
