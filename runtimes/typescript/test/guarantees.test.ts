// Message-level guarantees, with generated inputs (fast-check), over the generated dispatchers and the
// generated router of the newest version of each era the tree has:
// - handle() never rejects, whatever it is given;
// - every request with a valid id is answered exactly once with that id, unless cancelled, and the
//   answer survives JSON.stringify; a result JSON cannot carry is -32603 naming the method;
// - an object that is no request, notification or response → -32600 with id null;
// - notifications and responses are never answered;
// - the router and the dispatcher apply the same envelope rule;
// - a request cancelled by notifications/cancelled or by its transport's signal settles at once even if
//   its handler never does, and nothing is left in flight.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { forVersion, versions, type ProtocolVersion } from "../../../generated/index.js";
import { createServerRouter, eras, type ServedVersions, type ServerRouter } from "../../../generated/router.js";
import type { Dispatcher, JsonRpcResponse } from "../../../generated/runtime.js";

const RUNS = { numRuns: 150 };
const quiet = { onError: () => {} };

/** The newest generated version of each era the tree has. */
const newest = (["legacy", "modern"] as const)
  .map((era) => ({ era, version: versions.filter((v) => eras[v] === era).at(-1) }))
  .filter((e): e is { era: "legacy" | "modern"; version: ProtocolVersion } => e.version !== undefined);


/** The request methods a client sends in a version (what a server dispatcher answers). */
function clientRequests(version: ProtocolVersion): string[] {
  return Object.values(forVersion(version).requests as Record<string, { method: string; sender: string }>)
    .filter((r) => r.sender !== "server")
    .map((r) => r.method);
}
function notificationMethods(version: ProtocolVersion): string[] {
  return Object.keys(forVersion(version).notifications);
}
/** Dispatcher options without schema validation: the handler runs whatever its params, and its result is not checked. */
function unvalidated(version: ProtocolVersion) {
  return { ...quiet, validateResults: false, validators: Object.fromEntries(clientRequests(version).map((m) => [m, {}])) };
}
/** A request the router does not answer itself. */
function routedRequest(version: ProtocolVersion): string {
  return clientRequests(version).find((m) => !["initialize", "server/discover", "subscriptions/listen"].includes(m))!;
}

/** What a handler does for one request: return or throw a value, now or later, or never settle. */
type Behaviour = { kind: "return" | "throw" | "resolve" | "reject"; value: unknown } | { kind: "never" };

const values = fc.anything({ withBigInt: true, withNullPrototype: true, withBoxedValues: true, withSparseArray: true, withObjectString: true, maxDepth: 3 });
const unsendables = fc.constantFrom<unknown>(1n, () => 1, Symbol("s"), Number.NaN, Number.POSITIVE_INFINITY, [undefined]).chain((leaf) =>
  fc.constantFrom(leaf, { leaf }, [1, { leaf }]),
);
const behaviour: fc.Arbitrary<Behaviour> = fc.oneof(
  fc.record({ kind: fc.constantFrom("return" as const, "throw" as const, "resolve" as const, "reject" as const), value: values }),
  fc.record({ kind: fc.constant("return" as const), value: unsendables.map((bad) => ({ content: [], _meta: { bad } })) }),
);

function act(b: Behaviour): unknown {
  switch (b.kind) {
    case "return":
      return b.value;
    case "throw":
      throw b.value;
    case "resolve":
      return Promise.resolve().then(() => b.value);
    case "reject":
      return Promise.resolve().then(() => {
        throw b.value;
      });
    case "never":
      return new Promise(() => {});
  }
}

/** Handlers for every method of a version, acting as the behaviour registered for the request's id. */
function handlersFor(methods: string[], notifications: string[], behaviours: Map<unknown, Behaviour>, notify: Behaviour): Record<string, (params: unknown, context: { requestId?: unknown }) => unknown> {
  const handlers: Record<string, (params: unknown, context: { requestId?: unknown }) => unknown> = {};
  for (const m of methods) handlers[m] = (_params, context) => act(behaviours.get(context.requestId) ?? { kind: "return", value: {} });
  for (const m of notifications) handlers[m] = () => act(notify);
  return handlers;
}

/** A response that JSON carries: it stringifies, and reads back as one response with this id. */
function expectSendable(response: JsonRpcResponse, id: unknown): void {
  const text = JSON.stringify(response);
  expect(typeof text).toBe("string");
  const back = JSON.parse(text) as Record<string, unknown>;
  expect(back.jsonrpc).toBe("2.0");
  expect(back.id).toBe(id);
  expect(Object.hasOwn(back, "result") !== Object.hasOwn(back, "error")).toBe(true);
}

function hostile(): fc.Arbitrary<unknown> {
  // fast-check prints a counterexample through its toString symbol, so printing never reads the traps.
  const throwing = (key: string, base: Record<string, unknown>) =>
    Object.defineProperty({ ...base, [fc.toStringMethod]: () => `hostile ${key}` }, key, {
      enumerable: true,
      get() {
        throw new Error(`getter ${key}`);
      },
    });
  const trap = () => {
    throw new Error("trap");
  };
  // Symbol keys answer normally: fast-check itself asks generated values for its clone symbol.
  const onString =
    <T>(fallback: (target: object, key: string | symbol) => T) =>
    (target: object, key: string | symbol): T =>
      typeof key === "symbol" ? fallback(target, key) : trap();
  return fc.constantFrom<unknown>(
    throwing("method", { jsonrpc: "2.0", id: 1 }),
    throwing("id", { jsonrpc: "2.0", method: "ping" }),
    throwing("params", { jsonrpc: "2.0", id: 2, method: "tools/list" }),
    { jsonrpc: "2.0", id: 3, method: "tools/list", params: throwing("_meta", {}) },
    { jsonrpc: "2.0", method: "notifications/cancelled", params: throwing("requestId", {}) },
    new Proxy({ [fc.toStringMethod]: () => "a trapping proxy" }, { get: onString(Reflect.get), has: onString(Reflect.has), ownKeys: trap, getOwnPropertyDescriptor: trap, getPrototypeOf: trap }),
    new Proxy({ jsonrpc: "2.0", id: 4, method: "ping", [fc.toStringMethod]: () => "a proxy without descriptors" }, { getOwnPropertyDescriptor: trap }),
  );
}

/** Messages of every kind, valid and not. */
function messages(version: ProtocolVersion): fc.Arbitrary<unknown> {
  const method = fc.oneof(fc.constantFrom(...clientRequests(version), ...notificationMethods(version)), fc.string());
  const id = fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.anything());
  const message = fc.record({ jsonrpc: fc.oneof(fc.constant("2.0"), fc.anything()), id, method: fc.oneof(method, fc.anything()), params: values, result: values, error: values }, { requiredKeys: [] });
  return fc.oneof(message, values, hostile());
}

/** Objects that are no request, notification or response: no method, no result, no error. */
const noMessage = fc.record({ jsonrpc: fc.oneof(fc.constant("2.0"), fc.anything()), id: fc.oneof(fc.integer(), fc.string(), fc.anything()), params: values, other: values }, { requiredKeys: [] });
/** Objects with a method that are not valid requests or notifications: wrong jsonrpc, or a method that is not a string. */
const badMethod = fc.oneof(
  fc.record({ jsonrpc: fc.anything().filter((j) => j !== "2.0"), method: fc.string(), id: fc.oneof(fc.integer(), fc.anything()) }, { requiredKeys: ["method"] }),
  fc.record({ jsonrpc: fc.constant("2.0"), method: fc.anything().filter((m) => typeof m !== "string"), id: fc.oneof(fc.integer(), fc.anything()) }, { requiredKeys: ["method"] }),
);
const notAnObject = fc.anything().filter((v) => typeof v !== "object" || v === null || Array.isArray(v));

function servedRouter(behaviours: Map<unknown, Behaviour>, notify: Behaviour): ServerRouter {
  const served: Record<string, unknown> = {};
  for (const { version } of newest) served[version] = { handlers: handlersFor(clientRequests(version), notificationMethods(version), behaviours, notify), capabilities: {}, dispatcher: unvalidated(version) };
  return createServerRouter({ serverInfo: { name: "fuzz", version: "0" }, versions: served as ServedVersions, onError: () => {} });
}

const modernMeta = (version: ProtocolVersion) => ({ "io.modelcontextprotocol/protocolVersion": version, "io.modelcontextprotocol/clientCapabilities": {} });

describe.each(newest)("the $era dispatcher ($version)", ({ era, version }) => {
  const mod = forVersion(version) as unknown as { createServerDispatcher(h: object, o?: object): Dispatcher };
  const metaParams = (params: unknown) => (era === "modern" && (params === undefined || (typeof params === "object" && params !== null && !Array.isArray(params))) ? { ...(params as object), _meta: modernMeta(version) } : params);

  it("handle() never rejects, and what it answers survives JSON.stringify", async () => {
    await fc.assert(
      fc.asyncProperty(messages(version), behaviour, behaviour, async (message, b, notify) => {
        const d = mod.createServerDispatcher(handlersFor(clientRequests(version), notificationMethods(version), new Map([[1, b]]), notify), quiet);
        const response = await d.handle(message);
        if (response !== undefined) expectSendable(response, response.id);
      }),
      RUNS,
    );
  });

  it("every request with a valid id is answered exactly once, with its id", async () => {
    const request = fc.record({ method: fc.constantFrom(...clientRequests(version)), params: fc.option(values, { nil: undefined }), behaviour });
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.oneof(fc.string({ maxLength: 6 }), fc.integer()), { minLength: 1, maxLength: 8 }), fc.array(request, { minLength: 8, maxLength: 8 }), async (ids, requests) => {
        const behaviours = new Map<unknown, Behaviour>(ids.map((id, i) => [id, requests[i].behaviour]));
        const sent: unknown[] = [];
        const peer = { notify: async (...args: unknown[]) => void sent.push(args), request: async (...args: unknown[]) => void sent.push(args) };
        const d = mod.createServerDispatcher(handlersFor(clientRequests(version), [], behaviours, { kind: "return", value: undefined }), quiet);
        const answers = await Promise.all(ids.map((id, i) => d.handle({ jsonrpc: "2.0", id, method: requests[i].method, params: metaParams(requests[i].params) }, { peer })));
        answers.forEach((response, i) => {
          expect(response).toBeDefined();
          expectSendable(response!, ids[i]);
        });
        expect(sent).toEqual([]);
        expect(d.inFlight).toBe(0);
      }),
      RUNS,
    );
  });

  it("a result JSON cannot carry is -32603 naming the method, for every request", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...clientRequests(version)), unsendables, fc.oneof(fc.string({ maxLength: 6 }), fc.integer()), async (method, bad, id) => {
        const handlers = handlersFor(clientRequests(version), [], new Map([[id, { kind: "return", value: { content: [], _meta: { bad } } }]]), { kind: "return", value: undefined });
        const response = await mod.createServerDispatcher(handlers, unvalidated(version)).handle({ jsonrpc: "2.0", id, method, params: metaParams({}) });
        expect(response).toMatchObject({ jsonrpc: "2.0", id, error: { code: -32603 } });
        expect((response as { error: { message: string } }).error.message).toContain(method);
        expectSendable(response!, id);
      }),
      RUNS,
    );
  });

  it("notifications are never answered, whatever their handler does", async () => {
    const notification = fc.record({ method: fc.oneof(fc.constantFrom(...notificationMethods(version), ...clientRequests(version)), fc.string()), params: values }, { requiredKeys: ["method"] });
    await fc.assert(
      fc.asyncProperty(notification, behaviour, async (n, notify) => {
        const d = mod.createServerDispatcher(handlersFor(clientRequests(version), notificationMethods(version), new Map(), notify), quiet);
        expect(await d.handle({ jsonrpc: "2.0", ...n })).toBeUndefined();
      }),
      RUNS,
    );
  });

  it("an object that is no message, or a method without jsonrpc 2.0, → -32600 with id null, whatever id it carries; a non-object → -32600 id null", async () => {
    const d = mod.createServerDispatcher({}, quiet);
    await fc.assert(
      fc.asyncProperty(fc.oneof(noMessage, badMethod), async (message) => {
        const response = await d.handle(message);
        expect(response).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });
        expect(response!.id).toBeNull();
      }),
      RUNS,
    );
    await fc.assert(
      fc.asyncProperty(notAnObject, async (message) => {
        expect(await d.handle(message)).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
      }),
      RUNS,
    );
  });

  it("a cancelled request settles at once though its handler never does; nothing stays in flight", async () => {
    // By notifications/cancelled where the version has it (a 2024 revision bumped in may not), else by the signal only.
    const ways = notificationMethods(version).includes("notifications/cancelled") ? (["notification", "signal"] as const) : (["signal"] as const);
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.oneof(fc.string({ maxLength: 6 }), fc.integer()), { minLength: 1, maxLength: 8 }),
        fc.array(fc.constantFrom<"answer" | "notification" | "signal">("answer", ...ways), { minLength: 8, maxLength: 8 }),
        async (ids, fates) => {
          const method = routedRequest(version);
          const behaviours = new Map<unknown, Behaviour>(ids.map((id, i) => [id, fates[i] === "answer" ? { kind: "return", value: {} } : { kind: "never" }]));
          const d = mod.createServerDispatcher(handlersFor(clientRequests(version), [], behaviours, { kind: "return", value: undefined }), unvalidated(version));
          const scope = {};
          const controllers = ids.map(() => new AbortController());
          const pending = ids.map((id, i) => d.handle({ jsonrpc: "2.0", id, method, params: metaParams({}) }, { scope, signal: controllers[i].signal }));
          for (const [i, id] of ids.entries()) {
            if (fates[i] === "notification") await d.handle({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: "fuzz" } }, { scope });
            if (fates[i] === "signal") controllers[i].abort("gone");
          }
          const answers = await Promise.all(pending);
          answers.forEach((response, i) => {
            if (fates[i] === "answer") expect(response).toMatchObject({ id: ids[i] });
            else expect(response).toBeUndefined();
          });
          expect(d.inFlight).toBe(0);
        },
      ),
      RUNS,
    );
  });
});

describe("the router", () => {
  it("applies the dispatcher's envelope rule: the same answer to invalid objects, responses and non-objects", async () => {
    const router = servedRouter(new Map(), { kind: "return", value: undefined });
    const connection = router.connect(() => {});
    const dispatchers = newest.map(({ version }) => (forVersion(version) as unknown as { createServerDispatcher(h: object, o?: object): Dispatcher }).createServerDispatcher({}, quiet));
    const response = fc.record({ jsonrpc: fc.anything(), id: fc.anything(), result: values, error: values }, { requiredKeys: ["result"] });
    await fc.assert(
      fc.asyncProperty(fc.oneof(noMessage, badMethod, notAnObject, response), async (message) => {
        const expected = await dispatchers[0].handle(message);
        for (const d of dispatchers) expect(await d.handle(message)).toStrictEqual(expected);
        expect(await router.handle(message)).toStrictEqual(expected);
        expect(await connection.handle(message)).toStrictEqual(expected);
      }),
      RUNS,
    );
    router.close();
  });

  it("handle() of the router and of a legacy connection never rejects, and answers a request with a valid id exactly once, with its id", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(messages(newest[0].version), ...newest.map(({ version }) => messages(version))), { maxLength: 6 }), behaviour, async (batch, b) => {
        const idOf = (m: unknown): unknown => {
          try {
            return (m as { id?: unknown } | null)?.id;
          } catch {
            return undefined;
          }
        };
        const router = servedRouter(new Map(batch.map((m) => [idOf(m), b])), { kind: "return", value: undefined });
        const connection = router.connect(() => {});
        for (const message of batch) {
          for (const answer of [await router.handle(message, { scope: {} }), await connection.handle(message)]) {
            if (answer === undefined) continue;
            expectSendable(answer, answer.id);
          }
        }
        router.close();
      }),
      { numRuns: 60 },
    );
  });

  it("a request cancelled through the router settles at once though its handler never does; nothing stays in flight", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.oneof(fc.string({ maxLength: 6 }), fc.integer()), { minLength: 1, maxLength: 6 }),
        fc.array(fc.constantFrom("answer" as const, "notification" as const, "signal" as const), { minLength: 6, maxLength: 6 }),
        async (ids, fates) => {
          const behaviours = new Map<unknown, Behaviour>(ids.map((id, i) => [id, fates[i] === "answer" ? { kind: "return", value: {} } : { kind: "never" }]));
          const router = servedRouter(behaviours, { kind: "return", value: undefined });
          const runs: Promise<JsonRpcResponse | undefined>[] = [];
          const cancels: Array<() => Promise<unknown>> = [];
          for (const { era, version } of newest) {
            const connection = router.connect(() => {});
            if (era === "legacy") {
              await connection.handle({ jsonrpc: "2.0", id: "init", method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "c", version: "1" } } });
              expect(connection.protocolVersion).toBe(version);
            }
            const scope = {};
            for (const [i, id] of ids.entries()) {
              const controller = new AbortController();
              const params = era === "modern" ? { _meta: modernMeta(version) } : {};
              const message = { jsonrpc: "2.0", id, method: routedRequest(version), params };
              const cancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { ...params, requestId: id } };
              runs.push(era === "modern" ? router.handle(message, { scope, signal: controller.signal }) : connection.handle(message, { signal: controller.signal }));
              // A version without notifications/cancelled (a 2024 revision bumped in) is cancelled by the signal.
              const notified = fates[i] === "notification" && notificationMethods(version).includes("notifications/cancelled");
              if (fates[i] === "signal" || (fates[i] === "notification" && !notified)) cancels.push(async () => controller.abort("gone"));
              if (notified) cancels.push(() => (era === "modern" ? router.handle(cancel, { scope }) : connection.handle(cancel)));
            }
          }
          for (const cancel of cancels) await cancel();
          const answers = await Promise.all(runs);
          answers.forEach((response, n) => {
            const i = n % ids.length;
            if (fates[i] === "answer") expect(response).toMatchObject({ id: ids[i], result: {} });
            else expect(response).toBeUndefined();
          });
          expect(router.inFlight).toBe(0);
          router.close();
        },
      ),
      { numRuns: 60 },
    );
  });
});
