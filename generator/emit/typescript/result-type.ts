// The text a version's results carrying `resultType` (the modern era) add to its handlers.ts and
// normalizers.ts. Kept apart so the namer can reserve what it declares (see naming.ts).
/**
 * What a version's results carrying `resultType` (its METHOD_TABLE rows have `resultTypes`) changes in
 * its handlers.ts and normalizers.ts: data the templates lay out, so that they never branch on the era.
 */
export function resultTypeView(carried: boolean) {
  return {
    /** What an `object` normalizer fixes besides the plain object, `_meta` and undefined fields. */
    objectFixes: carried ? ", `resultType`" : "",
    /** What an `empty` handler's peer gets besides `{}`. */
    emptyReturn: carried ? " plus `resultType`" : "",
    /** The header comment's lines about `resultType`. */
    notes: carried ? ["Results may omit `resultType`: the dispatcher sends the method's default (the first of its `resultTypes`) unless the handler says otherwise."] : [],
    /** The handler-side result type (`resultType` optional), or nothing. */
    handlerResult: carried
      ? [
          "",
          "/** A result as a handler may return it: `resultType` optional (the dispatcher defaults it to the first of the method's `resultTypes`). */",
          "export type HandlerResult<R> = R extends unknown",
          '  ? { [K in keyof R as K extends "resultType" ? never : K]: R[K] } & { resultType?: string }',
          "  : never;",
        ]
      : [],
  };
}
