// Result normalizers: what a handler returned → the result that is sent. Each version's
// normalizers.ts names one per request from these rules and the request's data.
//
// - a `_meta` object passes through by reference, as data: nothing is copied out of it, so keys
//   such as `__proto__` or `constructor` parsed from JSON stay plain keys and no prototype changes;
// - a getter that throws is not caught here: it propagates, and the dispatcher answers -32603.
import { ErrorCode, isPlainObject, JsonRpcError, metaOfParams as ownMeta } from "./jsonrpc.js";

/** A result normalizer: a handler's return value → the result to send (throws a -32603 JsonRpcError when there is none). */
export type ResultNormalizer<R extends object = object> = (value: unknown) => R;

/**
 * `empty`-shape result: `{ _meta }` when the handler returned a plain object whose own `_meta` is a
 * plain object, else `{}`; with `resultTypes` (the method's METHOD_TABLE row's, null in the legacy
 * era), plus `resultType`: the first of them, the default. Nothing else is ever sent: strict peers
 * reject other members.
 */
export function emptyResult(value: unknown, resultTypes: readonly string[] | null = null): { _meta?: Record<string, unknown>; resultType?: string } {
  const meta = ownMeta(value);
  const base = meta === undefined ? {} : { _meta: meta };
  return resultTypes === null ? base : { ...base, resultType: resultTypes[0] };
}

/** The normalizer of one `empty`-shape request: {@link emptyResult} with the request's `resultTypes` (their first, the default, typed as the result's `resultType`). */
export function emptyNormalizer(resultTypes: null): ResultNormalizer<{ _meta?: Record<string, unknown> }>;
export function emptyNormalizer<const T extends string>(resultTypes: readonly [T, ...string[]]): ResultNormalizer<{ _meta?: Record<string, unknown>; resultType: T }>;
export function emptyNormalizer(resultTypes: readonly string[] | null): ResultNormalizer<{ _meta?: Record<string, unknown>; resultType?: string }>;
export function emptyNormalizer(resultTypes: readonly string[] | null): ResultNormalizer<{ _meta?: Record<string, unknown>; resultType?: string }> {
  return (value) => emptyResult(value, resultTypes);
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object that is not a plain object";
  return typeof value === "undefined" ? "undefined" : `a ${typeof value}`;
}

/** A value as JSON text for a message; what JSON cannot carry (a BigInt, a cycle) is described instead. */
function asJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? describe(value);
  } catch {
    return describe(value);
  }
}

/**
 * `object`-shape result: the handler's own enumerable fields, except those whose value is
 * undefined and a `_meta` that is not a plain object. Unknown fields are kept (the spec allows them).
 * `resultTypes` is null in the legacy era; in the modern era it lists the `resultType` values the
 * method's result union allows, the first being the default (its METHOD_TABLE row's `resultTypes`).
 * Throws a -32603 JsonRpcError naming the method and the expected type when the handler returned
 * anything but a plain object, or a `resultType` the method does not allow.
 */
export function objectResult(value: unknown, method: string, expected: string, resultTypes: readonly string[] | null): Record<string, unknown> {
  if (!isPlainObject(value)) {
    throw new JsonRpcError(ErrorCode.InternalError, `Internal error: the ${method} handler returned ${describe(value)}; expected ${expected}`);
  }
  let copy = false;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const field = value[key];
    if (field === undefined || (key === "_meta" && !isPlainObject(field))) {
      copy = true;
      break;
    }
  }
  let resultType: unknown;
  if (resultTypes !== null) {
    resultType = Object.hasOwn(value, "resultType") ? value.resultType : undefined;
    if (resultType === undefined) {
      resultType = resultTypes[0];
      copy = true;
    } else if (typeof resultType !== "string" || !resultTypes.includes(resultType)) {
      throw new JsonRpcError(
        ErrorCode.InternalError,
        `Internal error: the ${method} handler returned resultType ${asJson(resultType)}; expected ${expected} with resultType ${resultTypes.map((t) => JSON.stringify(t)).join(" or ")}`,
      );
    }
  }
  // Nothing to drop or add: send the handler's object as it is.
  if (!copy) return value;
  const out: Record<string, unknown> = {};
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const field = value[key];
    if (field === undefined || (key === "_meta" && !isPlainObject(field))) continue;
    // defineProperty, not assignment: a "__proto__" key must stay a field, not set a prototype.
    if (key === "__proto__") Object.defineProperty(out, key, { value: field, enumerable: true, writable: true, configurable: true });
    else out[key] = field;
  }
  if (resultTypes !== null) out.resultType = resultType;
  return out;
}

/** The normalizer of one `object`-shape request: {@link objectResult} with the request's data. */
export function objectNormalizer(method: string, expected: string, resultTypes: readonly string[] | null): ResultNormalizer<Record<string, unknown>> {
  return (value) => objectResult(value, method, expected, resultTypes);
}
