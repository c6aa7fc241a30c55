// The guard emitter on small synthetic schemas, against Ajv in both dialects: exact where it claims
// to be (its verdict equals Ajv's), `false` on the constructs it leaves to zod (never true where Ajv
// says no), the reading rules (own properties, plain prototypes, arrays, `__proto__`), strict tsc
// on the emitted file, and the dispatcher asking zod only when the guard says false.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it, vi } from "vitest";
import { guardsFile } from "../../../generator/emit/typescript/tree.js";
import type { Dialect, JsonSchema, VersionModel } from "../../../generator/model/types.js";
import { toolRoot } from "../../../generator/paths.js";
import { createDispatcher, type SchemaLike } from "../../../generated/runtime.js";
import { ajvOracle, InstanceGenerator, type Json, rng, seedOf, strictErrors, syntheticModel, writeRuntime } from "./corpus.js";

type Guard = (value: unknown) => boolean;

/** Definitions whose every keyword the guards compile exactly: guard and Ajv must agree on all input. */
const EXACT: Record<string, JsonSchema> = {
  Closed: { type: "object", properties: { a: { type: "string" }, b: { type: "integer" } }, required: ["a"], additionalProperties: false },
  Empty: { type: "object", additionalProperties: false },
  Extra: { type: "object", properties: { a: { type: "integer" } }, additionalProperties: { type: "string" } },
  Untyped: { properties: { a: { type: "string" } }, required: ["a"] },
  RequiredOnly: { required: ["x"] },
  TypeArray: { type: ["string", "null", "integer"], minimum: 2, maxLength: 3 },
  Int: { type: "integer", minimum: 0, exclusiveMaximum: 10 },
  Num: { type: "number", exclusiveMinimum: 0, maximum: 1 },
  Len: { type: "string", minLength: 2, maxLength: 3 },
  Arr: { type: "array", items: { $ref: "#/$defs/Int" }, minItems: 1, maxItems: 3 },
  NoItems: { type: "array", maxItems: 0 },
  Any: { anyOf: [{ type: "string" }, { $ref: "#/$defs/Closed" }] },
  All: { allOf: [{ $ref: "#/$defs/Closed" }, { properties: { a: { const: "x" } } }] },
  Mixed: { enum: ["a", 1, null, true] },
  TypedEnum: { type: "string", enum: ["a", 1, "b"] },
  Zero: { const: 0 },
  Tree: { type: "object", properties: { value: { type: "integer" }, children: { type: "array", items: { $ref: "#/$defs/Tree" } } }, required: ["value"] },
  Ping: { anyOf: [{ type: "null" }, { $ref: "#/$defs/Pong" }] },
  Pong: { type: "array", items: { $ref: "#/$defs/Ping" } },
  Anything: { description: "the true schema" },
  Cat: { type: "object", properties: { kind: { type: "string", const: "cat" }, lives: { type: "integer" } }, required: ["kind", "lives"] },
  Dog: { type: "object", properties: { kind: { type: "string", const: "dog" }, good: { type: "boolean" } }, required: ["kind"] },
  Pet: { anyOf: [{ $ref: "#/$defs/Cat" }, { $ref: "#/$defs/Dog" }] },
};

/** Definitions using constructs the guards leave to zod: the guard says false where they matter. */
const CONSERVATIVE: Record<string, JsonSchema> = {
  One: { oneOf: [{ type: "integer" }, { type: "number", minimum: 5 }] },
  NotString: { not: { type: "string" } },
  Pattern: { type: "string", pattern: "^[a-z]+$" },
  Triple: { type: "number", multipleOf: 3 },
  Names: { type: "object", propertyNames: { pattern: "^[a-z]+$" } },
  Counted: { type: "object", minProperties: 1 },
  /** Conservative only inside: the optional `p` must be absent for the guard to say true. */
  Holder: { type: "object", properties: { p: { $ref: "#/$defs/Pattern" }, q: { type: "string", pattern: "x" } }, required: ["p"] },
  Either: { anyOf: [{ $ref: "#/$defs/Pattern" }, { type: "integer" }] },
  /** Exact, but Ajv reads `required` through the prototype (every object has a `__proto__`), so only soundness is asked of it. */
  ProtoKeys: { type: "object", properties: { ["__proto__"]: { type: "string" }, constructor: { type: "integer" } }, required: ["__proto__"] },
};

const DEFS = { ...EXACT, ...CONSERVATIVE };

const EDGES: Json[] = [null, true, 0, -0, 1, 1.0, 1.5, 2 ** 60, "", "a", "ab", "😀😀😀", "😀😀😀😀", [], [1], [null], {}, { a: "x" }, { a: "x", b: 1 }, { a: "x", c: 1 }, { kind: "cat", lives: 9 }, { kind: "dog" }, { x: null }];

function model(dialect: Dialect): VersionModel {
  return syntheticModel(`guards-${dialect}`, dialect, DEFS);
}

const tmpRoot = path.join(toolRoot, ".tmp", `guards-${process.pid}`);
afterAll(() => rmSync(tmpRoot, { recursive: true, force: true }));

function emitToDisk(dialect: Dialect): string {
  const version = model(dialect);
  const text = guardsFile(version);
  const dir = path.join(tmpRoot, dialect);
  mkdirSync(dir, { recursive: true });
  writeRuntime(tmpRoot);
  writeFileSync(path.join(dir, "guards.ts"), text);
  return path.join(dir, "guards.ts");
}

async function load(dialect: Dialect): Promise<Record<string, Guard>> {
  return (await import(pathToFileURL(emitToDisk(dialect)).href)) as Record<string, Guard>;
}

const oracle = (dialect: Dialect) => ajvOracle(dialect, DEFS);

describe.each(["draft-07", "2020-12"] as const)("guard emitter, %s", (dialect) => {
  it("is exact on the constructs it compiles and sound on the rest, against Ajv", async () => {
    const guards = await load(dialect);
    const ajv = oracle(dialect);
    const wrong: string[] = [];
    for (const name of Object.keys(DEFS)) {
      const validate = ajv(name);
      const generator = new InstanceGenerator(DEFS, rng(seedOf(`guards/${name}`)));
      const corpus: Json[] = [...EDGES];
      for (let i = 0; i < 100; i++) {
        const instance = generator.generate(DEFS[name]);
        corpus.push(instance, generator.mutate(instance));
      }
      for (const instance of corpus) {
        const expected = validate(instance) as boolean;
        const got = guards[`is${name}`](instance);
        if (got && !expected) wrong.push(`is${name} accepts ${JSON.stringify(instance)}, which Ajv rejects`);
        if (Object.hasOwn(EXACT, name) && got !== expected) wrong.push(`is${name} says ${got} for ${JSON.stringify(instance)}, Ajv ${expected}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("says false wherever a construct it leaves to zod decides, true where it does not", async () => {
    const g = await load(dialect);
    for (const v of [1, 6, 7.5]) expect(g.isOne(v)).toBe(false);
    expect(g.isNotString(1)).toBe(false);
    expect(g.isPattern("abc")).toBe(false);
    expect(g.isTriple(9)).toBe(false);
    expect(g.isNames({ a: 1 })).toBe(false);
    expect(g.isCounted({ a: 1 })).toBe(false);
    // The conservative part of Holder is its required `p`: the whole guard gives up.
    expect(g.isHolder({ p: "abc" })).toBe(false);
    // A conservative branch of anyOf leaves the other branch exact.
    expect(g.isEither(3)).toBe(true);
    expect(g.isEither("abc")).toBe(false);
  });
});

describe("guard reading rules", () => {
  it("integer accepts 1.0 and 2^60, rejects 1.5; number rejects NaN and Infinity", async () => {
    const g = await load("2020-12");
    expect([1.0, 2 ** 60, 1.5].map((v) => g.isTree({ value: v }))).toEqual([true, true, false]);
    expect([Number.NaN, Infinity, 0.5].map((v) => g.isNum(v))).toEqual([false, false, true]);
  });

  it("a schema without type constrains only the types it mentions", async () => {
    const g = await load("2020-12");
    expect([g.isUntyped("text"), g.isUntyped(3), g.isUntyped([1]), g.isUntyped({ a: 1 }), g.isUntyped({ a: "x" })]).toEqual([true, true, true, false, true]);
    expect([g.isRequiredOnly({}), g.isRequiredOnly({ x: null }), g.isRequiredOnly(null)]).toEqual([false, true, true]);
  });

  it("arrays are not objects, and objects are not arrays", async () => {
    const g = await load("2020-12");
    expect(g.isEmpty([])).toBe(false);
    expect(g.isNoItems({})).toBe(false);
    expect(g.isNoItems([])).toBe(true);
  });

  it("counts string lengths in code points", async () => {
    const g = await load("2020-12");
    expect(["😀😀😀", "😀", "abcd", "ab"].map((s) => g.isLen(s))).toEqual([true, false, false, true]);
  });

  it("reads own properties only: inherited values never count, a non-plain prototype is left to zod", async () => {
    const g = await load("2020-12");
    expect(g.isCat(Object.create({ kind: "cat", lives: 9 }))).toBe(false);
    expect(g.isCat(Object.assign(Object.create(null), { kind: "cat", lives: 9 }))).toBe(true);
    class Cat {
      kind = "cat";
      lives = 9;
    }
    expect(g.isCat(new Cat())).toBe(false);
    const proto = Object.prototype as Record<string, unknown>;
    proto.a = "polluted";
    try {
      expect(g.isUntyped({})).toBe(false);
      expect(g.isUntyped({ a: "own" })).toBe(true);
      // A polluted key is listed by for-in: a closed object does not let it pass silently.
      expect(g.isEmpty({})).toBe(false);
    } finally {
      delete proto.a;
    }
    expect(g.isEmpty({})).toBe(true);
  });

  it("treats `__proto__` and `constructor` as plain keys", async () => {
    const g = await load("2020-12");
    expect(g.isProtoKeys(JSON.parse('{"__proto__": "x"}'))).toBe(true);
    expect(g.isProtoKeys(JSON.parse('{"__proto__": 1}'))).toBe(false);
    expect(g.isProtoKeys({})).toBe(false);
    expect(g.isProtoKeys(JSON.parse('{"__proto__": "x", "constructor": 2}'))).toBe(true);
    expect(g.isProtoKeys(JSON.parse('{"__proto__": "x", "constructor": "no"}'))).toBe(false);
    expect(g.isClosed(JSON.parse('{"a": "x", "__proto__": 1}'))).toBe(false);
  });

  it("compiles under strict tsc", () => {
    const file = emitToDisk("draft-07");
    expect([...strictErrors([file])]).toEqual([]);
  });
});

describe("dispatcher validation hooks run the guard first", () => {
  const failing = { success: false, error: { issues: [{ path: ["content"], message: "bad" }] } } as const;

  function dispatcher(resultGuard: Guard, paramsGuard: Guard) {
    const result: SchemaLike = { safeParse: vi.fn(() => failing) };
    const params: SchemaLike = { safeParse: vi.fn(() => failing) };
    const d = createDispatcher(
      {
        protocolVersion: "test",
        side: "server",
        requests: { "tools/call": { paramsRequired: false, normalize: (v) => v as object, params, result, expected: "CallToolResult", paramsGuard, resultGuard } },
        notifications: [],
        methodTable: { "tools/call": { verdicts: { server: { accepted: true }, client: { accepted: true } } } },
      },
      { "tools/call": () => ({ content: [] }) },
    );
    return { d, result, params };
  }
  const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "x" } };

  it("a guard's true sends the value without running the schema", async () => {
    const { d, result, params } = dispatcher(() => true, () => true);
    expect(await d.handle(call)).toStrictEqual({ jsonrpc: "2.0", id: 1, result: { content: [] } });
    expect(result.safeParse).not.toHaveBeenCalled();
    expect(params.safeParse).not.toHaveBeenCalled();
  });

  it("a guard's false runs the schema, whose errors are answered", async () => {
    const { d, result, params } = dispatcher(() => false, () => true);
    const answer = await d.handle(call);
    expect(result.safeParse).toHaveBeenCalledTimes(1);
    expect(params.safeParse).not.toHaveBeenCalled();
    expect(answer).toMatchObject({ id: 1, error: { code: -32603, message: "Internal error: the tools/call handler's result is not a valid CallToolResult (at /content)" } });
    const second = dispatcher(() => true, () => false);
    expect(await second.d.handle(call)).toMatchObject({ id: 1, error: { code: -32602, data: { paths: ["/params/content"] } } });
  });
});
