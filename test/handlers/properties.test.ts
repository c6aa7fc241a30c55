// Property tests: whatever a handler returns, the empty normalizer answers something the SDK's own
// strict EmptyResultSchema accepts, and never touches a prototype.
import { EmptyResultSchema } from "@modelcontextprotocol/sdk/types.js";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { emptyResult } from "../../generated/runtime.js";
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

  it("passes a JSON object _meta through by reference, else nothing (legacy)", () => {
    // Values as JSON.parse makes them: every object is plain, so "an object, not an array" is the rule.
    const isJsonObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
    fc.assert(
      fc.property(fc.oneof(parsedJson, protoKeys, withMeta.map((v) => JSON.parse(JSON.stringify(v)) as unknown)), (value) => {
        const result = v20250618.normalizeSubscribeResult(value);
        const meta = isJsonObject(value) ? value._meta : undefined;
        if (isJsonObject(meta)) {
          expect(result).toStrictEqual({ _meta: meta });
          expect(result._meta).toBe(meta);
        } else expect(result).toStrictEqual({});
      }),
      { numRuns: 2000 },
    );
  });

  it("drops a _meta that is inherited, an array, or an object JSON.parse never makes (legacy)", () => {
    class Meta {
      a = 1;
    }
    const nullProto = Object.assign(Object.create(null) as object, { a: 1 });
    expect(v20250618.normalizeSubscribeResult(Object.create({ _meta: { a: 1 } }))).toStrictEqual({});
    expect(v20250618.normalizeSubscribeResult({ _meta: [1] })).toStrictEqual({});
    expect(v20250618.normalizeSubscribeResult({ _meta: new Meta() })).toStrictEqual({});
    expect(v20250618.normalizeSubscribeResult({ _meta: new Date(0) })).toStrictEqual({});
    expect(v20250618.normalizeSubscribeResult({ _meta: nullProto })._meta).toBe(nullProto);
    expect(v20250618.normalizeSubscribeResult(Object.assign(new Meta(), { _meta: { a: 1 } }))).toStrictEqual({});
  });

  it("modern: the same, plus resultType complete", () => {
    fc.assert(
      fc.property(returns, (value) => {
        for (const result of [emptyResult(value, ["complete"]), v20260728.normalizeSubscriptionsListenResult(value)]) {
          expect(result.resultType).toBe("complete");
          const { resultType: _drop, ...rest } = result;
          expect(EmptyResultSchema.safeParse(rest).success).toBe(true);
          expect(Object.keys(rest).every((k) => k === "_meta")).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
    expect(v20260728.normalizeSubscriptionsListenResult(JSON.parse('{"_meta": {"k": 1}, "x": 2}'))).toStrictEqual({ _meta: { k: 1 }, resultType: "complete" });
    expect(v20260728.normalizeSubscriptionsListenResult("nothing")).toStrictEqual({ resultType: "complete" });
  });
});
