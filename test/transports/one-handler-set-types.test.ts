// Type tests of one handler set (issue 41): `expectTypeOf` and `@ts-expect-error` are checked by tsc, which
// test/handlers/typecheck.test.ts runs over this file. No label is assumed: the versions are read from the
// tree's `protocolOrder` (the model's protocol order, the newest last) as types.
// - the handlers are typed at the newest served version in protocol order (`NewestOf`), whatever order
//   `versions` lists them in;
// - the context's `protocolVersion` is any of the served versions, not only the newest.
import { describe, expectTypeOf, it } from "vitest";
import type { protocolOrder } from "../../generated/projections.js";
import type { HandlersAt, NewestOf, OneSetOptions, RoutedVersion } from "../../generated/router.js";

type Order = typeof protocolOrder;
type Oldest = Order[0];
type Newest = Order extends readonly [...unknown[], infer L] ? L : never;
/** The one-set handlers object (not the per-connection factory form). */
type HandlerSet<S extends RoutedVersion> = Exclude<OneSetOptions<S>["handlers"], (...args: never[]) => unknown>;
type ListTools<S extends RoutedVersion> = NonNullable<HandlerSet<S>["tools/list"]>;

describe("one handler set's types", () => {
  it("the newest of the served versions is the last of them in protocol order", () => {
    expectTypeOf<NewestOf<RoutedVersion>>().toEqualTypeOf<Newest>();
    expectTypeOf<NewestOf<Oldest>>().toEqualTypeOf<Oldest>();
    expectTypeOf<NewestOf<Oldest | Newest>>().toEqualTypeOf<Newest>();
  });

  it("handlers are typed at the newest served version: its params and results", () => {
    type Written = NonNullable<HandlersAt[Newest]["tools/list"]>;
    expectTypeOf<Parameters<ListTools<Oldest | Newest>>[0]>().toEqualTypeOf<Parameters<Written>[0]>();
    expectTypeOf<ReturnType<ListTools<Oldest | Newest>>>().toEqualTypeOf<ReturnType<Written>>();
  });

  it("the context's protocolVersion is any served version", () => {
    expectTypeOf<Parameters<ListTools<Oldest | Newest>>[1]["protocolVersion"]>().toEqualTypeOf<Oldest | Newest>();
    expectTypeOf<Parameters<ListTools<RoutedVersion>>[1]["protocolVersion"]>().toEqualTypeOf<RoutedVersion>();
    expectTypeOf<Parameters<ListTools<Oldest>>[1]["protocolVersion"]>().toEqualTypeOf<Oldest>();
  });
});
