// The type-level checks of test/handlers/types-all.test.ts: given a table `method → [request type,
// result type]` and a version's handler types, does every handler take its request's params and may it
// return its results? Type-only; the synthetic cases at the end prove each check can fail (tsc checks
// this file with the rest of the project, and types-all compiles it with each version's table).

export type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
export type Assert<T extends true> = T;

type Params<H> = H extends (params: infer P, context: never) => unknown ? P : never;
type Returned<H> = H extends (...args: never[]) => infer R ? R : never;

/** What a handler of a request must take: the request's params; undefined too where the request may omit them. */
type ExpectedParams<Req> = Req extends { params?: unknown }
  ? {} extends Pick<Req, "params"> ? NonNullable<Req["params"]> | undefined : Req["params"]
  : undefined;

/** The requests a side handles (its handlers also take notifications, which MCP names `notifications/…`). */
type RequestKeys<H> = Exclude<keyof H, `notifications/${string}`>;

/** For every request a side handles, does its handler take exactly the table's request's params? */
export type ParamsOk<Table, H> = {
  [M in RequestKeys<H>]-?: M extends keyof Table ? (Table[M] extends [infer Req, unknown] ? Equal<Params<NonNullable<H[M]>>, ExpectedParams<Req>> : false) : "not in the table";
};

/** For every request a side handles, may its handler return the table's results (sync or async)? */
export type ResultOk<Table, H> = {
  [M in RequestKeys<H>]-?: M extends keyof Table ? (Table[M] extends [unknown, infer Res] ? ([Res] extends [Awaited<Returned<NonNullable<H[M]>>>] ? true : false) : false) : "not in the table";
};

type AllTrue<T> = Exclude<T[keyof T], true> extends never ? true : false;

/** `[true, true, true, true, never]` when every check holds; the last slot lists the table's methods no side handles. */
export type Check<Table, V extends { ServerHandlers: object; ClientHandlers: object }> = [
  AllTrue<ParamsOk<Table, V["ServerHandlers"]>>,
  AllTrue<ParamsOk<Table, V["ClientHandlers"]>>,
  AllTrue<ResultOk<Table, V["ServerHandlers"]>>,
  AllTrue<ResultOk<Table, V["ClientHandlers"]>>,
  // Every method of the table is handled by one side or the other.
  Exclude<keyof Table, keyof V["ServerHandlers"] | keyof V["ClientHandlers"]>,
];

/** Every check holds (a tuple match: the last slot matches only when it is `never`). */
export type Passes<Table, V extends { ServerHandlers: object; ClientHandlers: object }> = Check<Table, V> extends [true, true, true, true, never] ? true : false;

// The checks can fail: synthetic handlers wired to another request's params or result, a handler the
// table lacks, a table method no side handles.
interface Context {
  signal: AbortSignal;
}
interface AddRequest {
  method: "add";
  params: { a: number; b: number };
}
interface AddResult {
  sum: number;
}
interface EchoRequest {
  method: "echo";
  params?: { text: string };
}
interface EchoResult {
  text: string;
}
interface Table {
  add: [AddRequest, AddResult];
  echo: [EchoRequest, EchoResult];
}
interface Right {
  add?: (params: AddRequest["params"], context: Context) => AddResult | Promise<AddResult>;
  echo?: (params: EchoRequest["params"] | undefined, context: Context) => EchoResult;
  "notifications/x"?: (params: undefined) => void;
}
type Wrong = {
  add?: (params: EchoRequest["params"], context: Context) => AddResult;
  echo?: (params: EchoRequest["params"] | undefined, context: Context) => AddResult;
  extra?: (params: undefined, context: Context) => EchoResult;
};
export type SyntheticCases = [
  Assert<Passes<Table, { ServerHandlers: Right; ClientHandlers: {} }>>,
  Assert<Equal<ParamsOk<Table, Wrong>["add"], false>>,
  Assert<Equal<ResultOk<Table, Wrong>["echo"], false>>,
  Assert<Equal<ParamsOk<Table, Wrong>["extra"], "not in the table">>,
  Assert<Equal<Check<Table & { absent: [AddRequest, AddResult] }, { ServerHandlers: Right; ClientHandlers: {} }>[4], "absent">>,
  Assert<Equal<Passes<Table, { ServerHandlers: Wrong; ClientHandlers: {} }>, false>>,
];
