// Type tests over every method of every version: each handler's params and return types are its own
// method's, as the catalogue describes it (a handler wired to another method's types fails to compile).
// tsc checks this file (`tsconfig.json` in test/foundation/snapshot.test.ts), so a mismatch fails `npm test`.
import { expectTypeOf, it } from "vitest";
import type * as V20241105 from "../../generated/2024-11-05/index.js";
import type * as V20250326 from "../../generated/2025-03-26/index.js";
import type * as V20250618 from "../../generated/2025-06-18/index.js";
import type * as V20251125 from "../../generated/2025-11-25/index.js";
import type * as V20260728 from "../../generated/2026-07-28/index.js";
import type * as Draft from "../../generated/draft/index.js";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** The version module's shape this test reads. */
interface VersionModule {
  requests: object;
  RequestTypes: object;
  ServerHandlers: object;
  ClientHandlers: object;
}

type ParamsOf<V extends VersionModule, M> = M extends keyof V["RequestTypes"] ? (V["RequestTypes"][M] extends { params: infer P } ? P : never) : never;
type ResultOf<V extends VersionModule, M> = M extends keyof V["RequestTypes"] ? (V["RequestTypes"][M] extends { result: infer R } ? R : never) : never;
type Required<V extends VersionModule, M> = M extends keyof V["requests"] ? (V["requests"][M] extends { params: { required: true } } ? true : false) : never;

type Params<H> = H extends (params: infer P, context: never) => unknown ? P : never;
type Returned<H> = H extends (...args: never[]) => infer R ? R : never;

/** What the handler of request M must take: its params, or undefined too when the message may omit them. */
type ExpectedParams<V extends VersionModule, M> = Required<V, M> extends true ? ParamsOf<V, M> : ParamsOf<V, M> | undefined;

/** For every request a side handles, does its handler take exactly ExpectedParams? */
type ParamsOk<V extends VersionModule, H> = {
  [M in keyof H & keyof V["RequestTypes"] & keyof V["requests"]]: Equal<Params<NonNullable<H[M]>>, ExpectedParams<V, M>>;
};

/** For every request a side handles, does its handler return the method's own result (sync or async)? */
type ResultOk<V extends VersionModule, H> = {
  [M in keyof H & keyof V["RequestTypes"] & keyof V["requests"]]: Returned<NonNullable<H[M]>> extends infer R
    ? // The method's own result type must be returnable, and another method's result must not be required.
      [ResultOf<V, M>] extends [Awaited<R>] ? true : false
    : false;
};

type AllTrue<T> = Exclude<T[keyof T], true> extends never ? true : false;

interface Modules {
  "2024-11-05": typeof V20241105 & { RequestTypes: V20241105.RequestTypes; ServerHandlers: V20241105.ServerHandlers; ClientHandlers: V20241105.ClientHandlers };
  "2025-03-26": typeof V20250326 & { RequestTypes: V20250326.RequestTypes; ServerHandlers: V20250326.ServerHandlers; ClientHandlers: V20250326.ClientHandlers };
  "2025-06-18": typeof V20250618 & { RequestTypes: V20250618.RequestTypes; ServerHandlers: V20250618.ServerHandlers; ClientHandlers: V20250618.ClientHandlers };
  "2025-11-25": typeof V20251125 & { RequestTypes: V20251125.RequestTypes; ServerHandlers: V20251125.ServerHandlers; ClientHandlers: V20251125.ClientHandlers };
  "2026-07-28": typeof V20260728 & { RequestTypes: V20260728.RequestTypes; ServerHandlers: V20260728.ServerHandlers; ClientHandlers: V20260728.ClientHandlers };
  draft: typeof Draft & { RequestTypes: Draft.RequestTypes; ServerHandlers: Draft.ServerHandlers; ClientHandlers: Draft.ClientHandlers };
}

type Check<V extends VersionModule> = [
  AllTrue<ParamsOk<V, V["ServerHandlers"]>>,
  AllTrue<ParamsOk<V, V["ClientHandlers"]>>,
  AllTrue<ResultOk<V, V["ServerHandlers"]>>,
  AllTrue<ResultOk<V, V["ClientHandlers"]>>,
];

it("every handler of every version takes its own method's params and may return its own method's result", () => {
  expectTypeOf<Check<Modules["2024-11-05"]>>().toEqualTypeOf<[true, true, true, true]>();
  expectTypeOf<Check<Modules["2025-03-26"]>>().toEqualTypeOf<[true, true, true, true]>();
  expectTypeOf<Check<Modules["2025-06-18"]>>().toEqualTypeOf<[true, true, true, true]>();
  expectTypeOf<Check<Modules["2025-11-25"]>>().toEqualTypeOf<[true, true, true, true]>();
  expectTypeOf<Check<Modules["2026-07-28"]>>().toEqualTypeOf<[true, true, true, true]>();
  expectTypeOf<Check<Modules["draft"]>>().toEqualTypeOf<[true, true, true, true]>();
});

it("the checks can fail: a handler typed with another method's params or result is caught", () => {
  type Mixed = Omit<V20250618.ServerHandlers, "resources/subscribe" | "tools/list"> & {
    "resources/subscribe"?: (params: V20250618.RequestTypes["tools/call"]["params"], context: V20250618.RequestContext) => void;
    "tools/list"?: (params: V20250618.RequestTypes["tools/list"]["params"] | undefined, context: V20250618.RequestContext) => V20250618.ListPromptsResult;
  };
  type V = Modules["2025-06-18"];
  expectTypeOf<ParamsOk<V, Mixed>["resources/subscribe"]>().toEqualTypeOf<false>();
  expectTypeOf<ResultOk<V, Mixed>["tools/list"]>().toEqualTypeOf<false>();
});
