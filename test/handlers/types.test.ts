// Type tests: handler params and returns per method. `expectTypeOf` and `@ts-expect-error` are checked
// by tsc, which typecheck.test.ts runs over this file (so a type error here fails `npm test`).
import { describe, expectTypeOf, it } from "vitest";
import type * as Legacy from "../../generated/2025-06-18/index.js";
import type * as Modern from "../../generated/2026-07-28/index.js";

type Params<H> = H extends (params: infer P, context: never) => unknown ? P : never;
type Returned<H> = H extends (...args: never[]) => infer R ? R : never;
type Server<M extends keyof Legacy.ServerHandlers> = NonNullable<Legacy.ServerHandlers[M]>;
type ModernServer<M extends keyof Modern.ServerHandlers> = NonNullable<Modern.ServerHandlers[M]>;

describe("handler types, legacy (2025-06-18)", () => {
  it("params come from the request's params type; omitted params are undefined", () => {
    expectTypeOf<Params<Server<"resources/subscribe">>>().toEqualTypeOf<Legacy.RequestTypes["resources/subscribe"]["params"]>();
    expectTypeOf<Params<Server<"resources/subscribe">>>().toEqualTypeOf<{ uri: string }>();
    expectTypeOf<Params<Server<"tools/call">>>().toEqualTypeOf<Legacy.RequestTypes["tools/call"]["params"]>();
    expectTypeOf<Params<Server<"tools/list">>>().toEqualTypeOf<Legacy.RequestTypes["tools/list"]["params"] | undefined>();
    expectTypeOf<Parameters<Server<"tools/call">>[1]>().toEqualTypeOf<Legacy.RequestContext>();
    expectTypeOf<Legacy.RequestContext["protocolVersion"]>().toEqualTypeOf<"2025-06-18">();
    expectTypeOf<Legacy.RequestContext["signal"]>().toEqualTypeOf<AbortSignal>();
  });

  it("returns: the result type, sync or async; an empty result may be nothing", () => {
    expectTypeOf<Returned<Server<"tools/call">>>().toEqualTypeOf<Legacy.CallToolResult | Promise<Legacy.CallToolResult>>();
    expectTypeOf<Returned<Server<"resources/subscribe">>>().toEqualTypeOf<Legacy.EmptyResult | void | Promise<Legacy.EmptyResult | void>>();
    expectTypeOf<Returned<NonNullable<Legacy.ClientHandlers["roots/list"]>>>().toEqualTypeOf<Legacy.ListRootsResult | Promise<Legacy.ListRootsResult>>();
  });

  it("accepts well-typed handlers", () => {
    const handlers: Legacy.ServerHandlers = {
      "resources/subscribe": async () => {},
      "resources/unsubscribe": () => ({ _meta: { k: "v" } }),
      "tools/call": async (params) => ({ content: [{ type: "text", text: params.name }] }),
      "notifications/initialized": () => {},
    };
    expectTypeOf(handlers).toExtend<Legacy.ServerHandlers>();
  });

  it("rejects a handler returning the wrong result type", () => {
    const wrong: Legacy.ServerHandlers = {
      // @ts-expect-error tools/list must return a ListToolsResult, not a CallToolResult
      "tools/list": () => ({ content: [{ type: "text", text: "not a tool list" }] }),
    };
    const wrongAsync: Legacy.ServerHandlers = {
      // @ts-expect-error a _meta must be an object
      "resources/subscribe": async () => ({ _meta: "not an object" }),
    };
    // @ts-expect-error ClientHandlers has no tools/call: a client never receives it
    const notClient: Legacy.ClientHandlers = { "tools/call": () => ({ content: [] }) };
    expectTypeOf([wrong, wrongAsync, notClient]).toBeArray();
  });
});

describe("handler types, modern (2026-07-28)", () => {
  it("params are required; resultType is optional in what a handler returns", () => {
    expectTypeOf<Params<ModernServer<"tools/list">>>().toEqualTypeOf<Modern.RequestTypes["tools/list"]["params"]>();
    expectTypeOf<Modern.HandlerResult<Modern.ListToolsResult>>().toHaveProperty("resultType").toEqualTypeOf<string | undefined>();
    expectTypeOf<Modern.HandlerResult<Modern.ListToolsResult>>().toHaveProperty("tools").toEqualTypeOf<Modern.Tool[]>();
  });

  it("tools/call may answer InputRequiredResult; tools/list may not answer a CallToolResult", () => {
    const ok: Modern.ServerHandlers = {
      "tools/call": () => ({ resultType: "input_required", requestState: "s" }),
      "subscriptions/listen": () => undefined,
    };
    const wrong: Modern.ServerHandlers = {
      // @ts-expect-error tools/list must return a ListToolsResult
      "tools/list": () => ({ content: [] }),
    };
    expectTypeOf([ok, wrong]).toBeArray();
  });
});
