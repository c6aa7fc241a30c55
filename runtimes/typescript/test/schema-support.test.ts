// runtimes/typescript/src/schema-support.ts as source: the helpers every schemas.ts and guards.ts import.
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { acceptAny, codePoints, formatIssues, integer, isPlainObject, issuePaths, multipleOf, OP, pointerToken } from "../src/schema-support.js";

describe("codePoints", () => {
  it("counts code points as JSON Schema does, a lone surrogate as one", () => {
    expect(codePoints("")).toBe(0);
    expect(codePoints("abc")).toBe(3);
    expect(codePoints("é")).toBe(1);
    expect(codePoints("😀")).toBe(1);
    expect(codePoints("a😀b")).toBe(3);
    expect(codePoints("\ud83d")).toBe(1);
    expect(codePoints("\ude00\ud83d")).toBe(2);
    expect(codePoints("\ud83d\ud83d\ude00")).toBe(2);
  });
});

describe("integer", () => {
  it("accepts any integral number (1.0 and 2^60 included) and nothing else", () => {
    const s = integer();
    for (const v of [0, -3, 1.0, 2 ** 60, -0]) expect(s.safeParse(v).success, String(v)).toBe(true);
    for (const v of [1.5, NaN, Infinity, "1", null]) expect(s.safeParse(v).success, String(v)).toBe(false);
    expect(s.safeParse(1.5).error?.issues[0].message).toBe("Invalid input: expected integer");
  });
});

describe("multipleOf", () => {
  it("divides in decimal on the shortest forms: 0.3 is a multiple of 0.1, 1e21 and 2^60 are none of 3", () => {
    // Worked by hand: 0.3 = 3 × 10^-1; 1e21 = 10^21 ≡ 1 (mod 3); 2^60 = 1152921504606846976, digit sum 76 ≡ 1 (mod 3).
    for (const v of [0.3, 1.1, 0.7, -0.3, 0, 2, 1e21, 12345.6]) expect(multipleOf(v, "1", 1), String(v)).toBe(true);
    for (const v of [0.35, 0.01, 1e-7, NaN, Infinity]) expect(multipleOf(v, "1", 1), String(v)).toBe(false);
    for (const v of [9, -3, 3e21, 3e300]) expect(multipleOf(v, "3", 0), String(v)).toBe(true);
    for (const v of [10, 1e21, 2 ** 60]) expect(multipleOf(v, "3", 0), String(v)).toBe(false);
    expect([0.75, 1.5e-7, 3e-7, 3e3, 1e-7, 2.5e3].map((v) => multipleOf(v, "15", 8))).toEqual([true, true, true, true, false, false]);
    expect([1e-8, 0.3].map((v) => multipleOf(v, "25", 2))).toEqual([false, false]);
  });
});

describe("isPlainObject (the runtime's, which guards use)", () => {
  it("is true only for objects with the prototype JSON.parse gives them (or none)", () => {
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject(JSON.parse('{"__proto__": 1}'))).toBe(true);
    expect(isPlainObject(Object.create(null))).toBe(true);
    for (const v of [[], null, undefined, "x", 1, new Date(0), new (class {})(), Object.create({})]) expect(isPlainObject(v)).toBe(false);
  });

  it("OP is Object.prototype; acceptAny accepts anything", () => {
    expect(OP).toBe(Object.prototype);
    for (const v of [undefined, null, 0, {}, []]) expect(acceptAny(v)).toBe(true);
  });
});

describe("issue pointers", () => {
  const schema = z.object({ "a/b": z.string(), "c~d": z.array(z.number()) });
  const error = schema.safeParse({ "a/b": 1, "c~d": [1, "x"] }).error!;

  it("escapes reference tokens (RFC 6901)", () => {
    expect(pointerToken("a/b~c")).toBe("a~1b~0c");
    expect(pointerToken(3)).toBe("3");
  });

  it("lists each failing value's pointer once, the root as the empty pointer", () => {
    expect(issuePaths(error).sort()).toEqual(["/a~1b", "/c~0d/1"]);
    expect(issuePaths(z.string().safeParse(1).error!)).toEqual([""]);
  });

  it("formats one line per failing value", () => {
    expect(formatIssues(z.string().safeParse(1).error!)).toBe("(root): Invalid input: expected string, received number");
    expect(formatIssues(error).split("; ").map((l) => l.split(":")[0]).sort()).toEqual(["/a~1b", "/c~0d/1"]);
  });
});
