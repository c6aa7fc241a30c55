// The runtime as source: the envelope rule, JSON safety and the error hook, read from runtimes/typescript/src/.
import { isDeepStrictEqual } from "node:util";
import path from "node:path";
import fc from "fast-check";
import ts from "typescript";
import { describe, expect, it, vi } from "vitest";
import { readEnvelope } from "../src/jsonrpc.js";
import { failureLine, writeFailureToStderr } from "../src/report.js";
import { unsendable } from "../src/sendable.js";
import { root } from "../../../test/support.js";

describe("readEnvelope", () => {
  it.each([
    ["a request", { jsonrpc: "2.0", id: 1, method: "ping" }, { kind: "request", id: 1, method: "ping", params: undefined }],
    ["a request with a string id and params", { jsonrpc: "2.0", id: "a", method: "m", params: [1] }, { kind: "request", id: "a", method: "m", params: [1] }],
    ["a notification", { jsonrpc: "2.0", method: "notifications/initialized" }, { kind: "notification", method: "notifications/initialized", params: undefined }],
    ["a result response", { jsonrpc: "2.0", id: 1, result: {} }, { kind: "response", id: 1 }],
    ["an error response with id null", { jsonrpc: "2.0", id: null, error: { code: 1, message: "m" } }, { kind: "response", id: null }],
    ["a response without jsonrpc", { id: "x", result: 1 }, { kind: "response", id: "x" }],
    ["an array (a batch)", [{ jsonrpc: "2.0", id: 1, method: "ping" }], { kind: "invalid", id: null, reason: "expected a JSON-RPC message object" }],
    ["a string", "ping", { kind: "invalid", id: null, reason: "expected a JSON-RPC message object" }],
    ["null", null, { kind: "invalid", id: null, reason: "expected a JSON-RPC message object" }],
    ["an empty object", {}, { kind: "invalid", id: null, reason: "expected a method, or a result or error" }],
    ["an id alone", { jsonrpc: "2.0", id: 3 }, { kind: "invalid", id: null, reason: "expected a method, or a result or error" }],
    ["a request without jsonrpc", { id: 4, method: "ping" }, { kind: "invalid", id: null, reason: 'expected jsonrpc "2.0" and a string method' }],
    ["a notification without jsonrpc", { method: "x" }, { kind: "invalid", id: null, reason: 'expected jsonrpc "2.0" and a string method' }],
    ["jsonrpc 2 as a number", { jsonrpc: 2, method: "x" }, { kind: "invalid", id: null, reason: 'expected jsonrpc "2.0" and a string method' }],
    ["a numeric method", { jsonrpc: "2.0", id: 5, method: 5 }, { kind: "invalid", id: null, reason: 'expected jsonrpc "2.0" and a string method' }],
    ["a null id", { jsonrpc: "2.0", id: null, method: "ping" }, { kind: "invalid", id: null, reason: "the id must be a string or an integer" }],
    ["a fractional id", { jsonrpc: "2.0", id: 0.5, method: "ping" }, { kind: "invalid", id: null, reason: "the id must be a string or an integer" }],
    ["an inherited method", Object.create({ jsonrpc: "2.0", method: "ping" }) as object, { kind: "invalid", id: null, reason: "expected a JSON-RPC message object" }],
  ])("%s", (_name, message, expected) => {
    expect(readEnvelope(message)).toStrictEqual(expected);
  });

  it("a message whose members throw when read is invalid, not an exception", () => {
    const hostile = Object.defineProperty({ jsonrpc: "2.0", id: 1 }, "method", {
      enumerable: true,
      get() {
        throw new Error("boom");
      },
    });
    expect(readEnvelope(hostile)).toStrictEqual({ kind: "invalid", id: null, reason: "the message could not be read" });
    const trap = new Proxy({}, { getPrototypeOf: () => Object.prototype, getOwnPropertyDescriptor: () => { throw new Error("trap"); } });
    expect(readEnvelope(trap)).toStrictEqual({ kind: "invalid", id: null, reason: "the message could not be read" });
  });
});

describe("unsendable", () => {
  // Values JSON carries faithfully or not: the oracle is JSON itself. -0 is left out (JSON has one zero).
  const leaf = fc.oneof(
    fc.string(),
    fc.boolean(),
    fc.constant(null),
    fc.integer(),
    fc.double().map((d) => (Object.is(d, -0) ? 0 : d)),
    fc.bigInt(),
    fc.constant(() => 1),
    fc.constant(Symbol("s")),
  );
  const { value } = fc.letrec<{ value: unknown; field: unknown }>((tie) => ({
    // Array elements may be undefined (JSON turns them into null); object fields may not (JSON drops them, as we do).
    value: fc.oneof({ depthSize: "small" }, leaf, fc.constant(undefined), fc.array(tie("value"), { maxLength: 4 }), fc.dictionary(fc.string(), tie("field"), { maxKeys: 4, noNullPrototype: true })),
    field: fc.oneof({ depthSize: "small" }, leaf, fc.array(tie("value"), { maxLength: 4 }), fc.dictionary(fc.string(), tie("field"), { maxKeys: 4, noNullPrototype: true })),
  }));

  function roundTrips(v: unknown): boolean {
    try {
      const text = JSON.stringify(v);
      return text !== undefined && isDeepStrictEqual(JSON.parse(text), v);
    } catch {
      return false;
    }
  }

  it("says undefined exactly when JSON.stringify and JSON.parse give the same value back", () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(unsendable(v) === undefined).toBe(roundTrips(v));
      }),
      { numRuns: 1000 },
    );
  });

  it("names the first offending value by JSON pointer", () => {
    expect(unsendable({ a: [1, { "b/c": 2n }] })).toBe("a bigint at /a/1/b~1c");
    expect(unsendable(Symbol("s"))).toBe("a symbol at (root)");
    expect(unsendable({ x: Number.POSITIVE_INFINITY })).toBe("Infinity at /x");
    const cycle: unknown[] = [];
    cycle.push({ back: cycle });
    expect(unsendable({ list: cycle })).toBe("a cycle at /list/0/back");
  });

  it("reads toJSON as JSON.stringify does, and a shared object twice is no cycle", () => {
    expect(unsendable({ at: new Date(0) })).toBeUndefined();
    expect(unsendable({ bad: { toJSON: () => 1n } })).toBe("a bigint at /bad");
    const shared = { k: 1 };
    expect(unsendable([shared, { again: shared }])).toBeUndefined();
  });

  it("reads boxed primitives as JSON.stringify does (it unboxes them)", () => {
    expect(unsendable({ n: new Number(1), s: new String("s"), b: new Boolean(false) })).toBeUndefined();
    expect(unsendable({ n: new Number(Number.NaN) })).toBe("NaN at /n");
    expect(unsendable({ big: Object(1n) })).toBe("a bigint at /big");
    expect(() => JSON.stringify({ big: Object(1n) })).toThrow(TypeError);
  });
});

describe("the error hook's default", () => {
  it("writes exactly one line on stderr, whatever the message holds", () => {
    const write = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      writeFailureToStderr(new TypeError("a\n  b\r\nc"), { kind: "notification", method: "notifications/progress", protocolVersion: "v1" });
      writeFailureToStderr("plain", { kind: "result", method: "tools/call", id: "7", protocolVersion: "v1" });
      writeFailureToStderr(Object.create(null), { kind: "invalid-params", method: "notifications/message", protocolVersion: "v1" });
      expect(write.mock.calls).toEqual([
        ["mcp-codegen v1: the notifications/progress handler failed: TypeError: a b c\n"],
        ['mcp-codegen v1: the tools/call handler\'s result (request "7") was not sent: plain\n'],
        ["mcp-codegen v1: notifications/message was not delivered: invalid params: (an unprintable value)\n"],
      ]);
    } finally {
      write.mockRestore();
    }
    expect(failureLine(1, { kind: "request", method: "ping", id: 3, protocolVersion: "v2" })).toBe("mcp-codegen v2: the ping handler (request 3) failed: 1\n");
  });

  it("type-checks without Node's types (no @types/node in the consumer)", () => {
    const file = path.join(root, "runtimes", "typescript", "src", "report.ts");
    const program = ts.createProgram([file], {
      strict: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ["lib.es2022.d.ts"],
      types: [],
      noEmit: true,
    });
    expect(ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))).toEqual([]);
  });
});
