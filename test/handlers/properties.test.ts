// Property tests: whatever a handler returns, the empty normalizer answers something the SDK's own
// strict EmptyResultSchema accepts, and never touches a prototype.
import { EmptyResultSchema } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { emptyModernResult, emptyResult } from "../../generated/runtime.js";
import * as v20250618 from "../../generated/2025-06-18/index.js";
import * as v20260728 from "../../generated/2026-07-28/index.js";

const objectPrototypeKeys = Reflect.ownKeys(Object.prototype);

afterEach(() => {
  expect(Reflect.ownKeys(Object.prototype)).toEqual(objectPrototypeKeys);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

// JSON values as JSON.parse makes them (so "__proto__" keys are own data properties).
const parsedJson = fc.jsonValue().map((v) => JSON.parse(JSON.stringify(v)) as unknown);
const withMeta = fc.record({ _meta: fc.oneof(fc.jsonValue(), fc.object()), extra: fc.anything() }, { requiredKeys: [] });
const protoKeys = fc
  .dictionary(fc.constantFrom("__proto__", "constructor", "prototype", "k"), fc.jsonValue())
  .map((d) => JSON.parse(`{"_meta": ${JSON.stringify(d)}, "subscriptionId": "s"}`) as unknown);
const returns = fc.oneof(parsedJson, fc.anything(), fc.object(), withMeta, protoKeys);

describe("the empty normalizer", () => {
  it("never throws and its output passes the SDK's EmptyResultSchema (legacy)", () => {
    fc.assert(
      fc.property(returns, (value) => {
        const result = emptyResult(value);
        expect(EmptyResultSchema.safeParse(result).success).toBe(true);
        expect(Object.keys(result).every((k) => k === "_meta")).toBe(true);
        expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
      }),
      { numRuns: 2000 },
    );
  });

  it("passes a plain own _meta through by reference, else nothing (legacy)", () => {
    fc.assert(
      fc.property(returns, (value) => {
        const result = v20250618.normalizeSubscribeResult(value);
        const meta = v20250618.isPlainObject(value) && Object.hasOwn(value, "_meta") ? value._meta : undefined;
        if (v20250618.isPlainObject(meta)) expect(result).toStrictEqual({ _meta: meta });
        else expect(result).toStrictEqual({});
        if (result._meta !== undefined) expect(result._meta).toBe(meta);
      }),
      { numRuns: 2000 },
    );
  });

  it("modern: the same, plus resultType complete", () => {
    fc.assert(
      fc.property(returns, (value) => {
        const result = emptyModernResult(value);
        expect(result.resultType).toBe("complete");
        const { resultType: _drop, ...rest } = result;
        expect(EmptyResultSchema.safeParse(rest).success).toBe(true);
        expect(v20260728.normalizeSubscriptionsListenResult(value)).toStrictEqual(result);
      }),
      { numRuns: 1000 },
    );
  });
});
