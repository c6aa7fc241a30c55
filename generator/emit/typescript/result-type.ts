// The text a version's results carrying `resultType` (the modern era) add to its handlers.ts and
// normalizers.ts. Kept apart so the namer can reserve what it declares (see naming.ts).
/**
 * What a version's results carrying `resultType` (the modern era) changes in its handlers.ts and
 * normalizers.ts: data the templates lay out, so that they never branch on the era.
 */
export function resultTypeView(carried: boolean) {
  return {
    emptyNormalizer: carried ? "emptyModernResult" : "emptyResult",
    /** What an `object` normalizer fixes besides the plain object, `_meta` and undefined fields. */
    objectFixes: carried ? ", `resultType`" : "",
    /** What an `empty` handler's peer gets besides `{}`. */
    emptyReturn: carried ? " plus `resultType`" : "",
    /** The header comment's lines about `resultType`. */
    notes: carried ? ['Results may omit `resultType`: the dispatcher sends "complete" unless the handler says otherwise.'] : [],
    /** The handler-side result type (`resultType` optional), or nothing. */
    handlerResult: carried
      ? [
          "",
          '/** A result as a handler may return it: `resultType` optional (the dispatcher defaults it to "complete"). */',
          "export type HandlerResult<R> = R extends unknown",
          '  ? { [K in keyof R as K extends "resultType" ? never : K]: R[K] } & { resultType?: string }',
          "  : never;",
        ]
      : [],
  };
}
