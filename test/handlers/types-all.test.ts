// Type tests over every method of every version: each handler takes its own request's params and may
// return its own results, where "own" comes from a literal table of the spec's names per method
// (`tools/call` → CallToolRequest, CallToolResult), not from the generated catalogue the handler
// types are built from. A handler wired to another method's types, or a method the table does not
// list, fails to compile.
// tsc checks this file (`tsconfig.json` in test/foundation/snapshot.test.ts), so a mismatch fails `npm test`.
import { expectTypeOf, it } from "vitest";
import type * as V20241105 from "../../generated/2024-11-05/index.js";
import type * as V20250326 from "../../generated/2025-03-26/index.js";
import type * as V20250618 from "../../generated/2025-06-18/index.js";
import type * as V20251125 from "../../generated/2025-11-25/index.js";
import type * as V20260728 from "../../generated/2026-07-28/index.js";
import type * as Draft from "../../generated/draft/index.js";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** 2024-11-05: each request's definition and its results, as the spec names them. */
interface ExpectedV20241105 {
  "completion/complete": [V20241105.CompleteRequest, V20241105.CompleteResult];
  "initialize": [V20241105.InitializeRequest, V20241105.InitializeResult];
  "logging/setLevel": [V20241105.SetLevelRequest, V20241105.EmptyResult];
  "ping": [V20241105.PingRequest, V20241105.EmptyResult];
  "prompts/get": [V20241105.GetPromptRequest, V20241105.GetPromptResult];
  "prompts/list": [V20241105.ListPromptsRequest, V20241105.ListPromptsResult];
  "resources/list": [V20241105.ListResourcesRequest, V20241105.ListResourcesResult];
  "resources/read": [V20241105.ReadResourceRequest, V20241105.ReadResourceResult];
  "resources/subscribe": [V20241105.SubscribeRequest, V20241105.EmptyResult];
  "resources/templates/list": [V20241105.ListResourceTemplatesRequest, V20241105.ListResourceTemplatesResult];
  "resources/unsubscribe": [V20241105.UnsubscribeRequest, V20241105.EmptyResult];
  "roots/list": [V20241105.ListRootsRequest, V20241105.ListRootsResult];
  "sampling/createMessage": [V20241105.CreateMessageRequest, V20241105.CreateMessageResult];
  "tools/call": [V20241105.CallToolRequest, V20241105.CallToolResult];
  "tools/list": [V20241105.ListToolsRequest, V20241105.ListToolsResult];
}
/** 2025-03-26: each request's definition and its results, as the spec names them. */
interface ExpectedV20250326 {
  "completion/complete": [V20250326.CompleteRequest, V20250326.CompleteResult];
  "initialize": [V20250326.InitializeRequest, V20250326.InitializeResult];
  "logging/setLevel": [V20250326.SetLevelRequest, V20250326.EmptyResult];
  "ping": [V20250326.PingRequest, V20250326.EmptyResult];
  "prompts/get": [V20250326.GetPromptRequest, V20250326.GetPromptResult];
  "prompts/list": [V20250326.ListPromptsRequest, V20250326.ListPromptsResult];
  "resources/list": [V20250326.ListResourcesRequest, V20250326.ListResourcesResult];
  "resources/read": [V20250326.ReadResourceRequest, V20250326.ReadResourceResult];
  "resources/subscribe": [V20250326.SubscribeRequest, V20250326.EmptyResult];
  "resources/templates/list": [V20250326.ListResourceTemplatesRequest, V20250326.ListResourceTemplatesResult];
  "resources/unsubscribe": [V20250326.UnsubscribeRequest, V20250326.EmptyResult];
  "roots/list": [V20250326.ListRootsRequest, V20250326.ListRootsResult];
  "sampling/createMessage": [V20250326.CreateMessageRequest, V20250326.CreateMessageResult];
  "tools/call": [V20250326.CallToolRequest, V20250326.CallToolResult];
  "tools/list": [V20250326.ListToolsRequest, V20250326.ListToolsResult];
}
/** 2025-06-18: each request's definition and its results, as the spec names them. */
interface ExpectedV20250618 {
  "completion/complete": [V20250618.CompleteRequest, V20250618.CompleteResult];
  "elicitation/create": [V20250618.ElicitRequest, V20250618.ElicitResult];
  "initialize": [V20250618.InitializeRequest, V20250618.InitializeResult];
  "logging/setLevel": [V20250618.SetLevelRequest, V20250618.EmptyResult];
  "ping": [V20250618.PingRequest, V20250618.EmptyResult];
  "prompts/get": [V20250618.GetPromptRequest, V20250618.GetPromptResult];
  "prompts/list": [V20250618.ListPromptsRequest, V20250618.ListPromptsResult];
  "resources/list": [V20250618.ListResourcesRequest, V20250618.ListResourcesResult];
  "resources/read": [V20250618.ReadResourceRequest, V20250618.ReadResourceResult];
  "resources/subscribe": [V20250618.SubscribeRequest, V20250618.EmptyResult];
  "resources/templates/list": [V20250618.ListResourceTemplatesRequest, V20250618.ListResourceTemplatesResult];
  "resources/unsubscribe": [V20250618.UnsubscribeRequest, V20250618.EmptyResult];
  "roots/list": [V20250618.ListRootsRequest, V20250618.ListRootsResult];
  "sampling/createMessage": [V20250618.CreateMessageRequest, V20250618.CreateMessageResult];
  "tools/call": [V20250618.CallToolRequest, V20250618.CallToolResult];
  "tools/list": [V20250618.ListToolsRequest, V20250618.ListToolsResult];
}
/** 2025-11-25: each request's definition and its results, as the spec names them. */
interface ExpectedV20251125 {
  "completion/complete": [V20251125.CompleteRequest, V20251125.CompleteResult];
  "elicitation/create": [V20251125.ElicitRequest, V20251125.ElicitResult];
  "initialize": [V20251125.InitializeRequest, V20251125.InitializeResult];
  "logging/setLevel": [V20251125.SetLevelRequest, V20251125.EmptyResult];
  "ping": [V20251125.PingRequest, V20251125.EmptyResult];
  "prompts/get": [V20251125.GetPromptRequest, V20251125.GetPromptResult];
  "prompts/list": [V20251125.ListPromptsRequest, V20251125.ListPromptsResult];
  "resources/list": [V20251125.ListResourcesRequest, V20251125.ListResourcesResult];
  "resources/read": [V20251125.ReadResourceRequest, V20251125.ReadResourceResult];
  "resources/subscribe": [V20251125.SubscribeRequest, V20251125.EmptyResult];
  "resources/templates/list": [V20251125.ListResourceTemplatesRequest, V20251125.ListResourceTemplatesResult];
  "resources/unsubscribe": [V20251125.UnsubscribeRequest, V20251125.EmptyResult];
  "roots/list": [V20251125.ListRootsRequest, V20251125.ListRootsResult];
  "sampling/createMessage": [V20251125.CreateMessageRequest, V20251125.CreateMessageResult];
  "tasks/cancel": [V20251125.CancelTaskRequest, V20251125.CancelTaskResult];
  "tasks/get": [V20251125.GetTaskRequest, V20251125.GetTaskResult];
  "tasks/list": [V20251125.ListTasksRequest, V20251125.ListTasksResult];
  "tasks/result": [V20251125.GetTaskPayloadRequest, V20251125.GetTaskPayloadResult];
  "tools/call": [V20251125.CallToolRequest, V20251125.CallToolResult];
  "tools/list": [V20251125.ListToolsRequest, V20251125.ListToolsResult];
}
/** 2026-07-28: each request's definition and its results, as the spec names them. */
interface ExpectedV20260728 {
  "completion/complete": [V20260728.CompleteRequest, V20260728.CompleteResult];
  "prompts/get": [V20260728.GetPromptRequest, V20260728.InputRequiredResult | V20260728.GetPromptResult];
  "prompts/list": [V20260728.ListPromptsRequest, V20260728.ListPromptsResult];
  "resources/list": [V20260728.ListResourcesRequest, V20260728.ListResourcesResult];
  "resources/read": [V20260728.ReadResourceRequest, V20260728.InputRequiredResult | V20260728.ReadResourceResult];
  "resources/templates/list": [V20260728.ListResourceTemplatesRequest, V20260728.ListResourceTemplatesResult];
  "server/discover": [V20260728.DiscoverRequest, V20260728.DiscoverResult];
  "subscriptions/listen": [V20260728.SubscriptionsListenRequest, V20260728.SubscriptionsListenResult];
  "tools/call": [V20260728.CallToolRequest, V20260728.InputRequiredResult | V20260728.CallToolResult];
  "tools/list": [V20260728.ListToolsRequest, V20260728.ListToolsResult];
}
/** draft: each request's definition and its results, as the spec names them. */
interface ExpectedDraft {
  "completion/complete": [Draft.CompleteRequest, Draft.CompleteResult];
  "prompts/get": [Draft.GetPromptRequest, Draft.InputRequiredResult | Draft.GetPromptResult];
  "prompts/list": [Draft.ListPromptsRequest, Draft.ListPromptsResult];
  "resources/list": [Draft.ListResourcesRequest, Draft.ListResourcesResult];
  "resources/read": [Draft.ReadResourceRequest, Draft.InputRequiredResult | Draft.ReadResourceResult];
  "resources/templates/list": [Draft.ListResourceTemplatesRequest, Draft.ListResourceTemplatesResult];
  "server/discover": [Draft.DiscoverRequest, Draft.DiscoverResult];
  "subscriptions/listen": [Draft.SubscriptionsListenRequest, Draft.SubscriptionsListenResult];
  "tools/call": [Draft.CallToolRequest, Draft.InputRequiredResult | Draft.CallToolResult];
  "tools/list": [Draft.ListToolsRequest, Draft.ListToolsResult];
}

type Params<H> = H extends (params: infer P, context: never) => unknown ? P : never;
type Returned<H> = H extends (...args: never[]) => infer R ? R : never;

/** What a handler of a request must take: the request's params; undefined too where the request may omit them. */
type ExpectedParams<Req> = Req extends { params?: unknown }
  ? {} extends Pick<Req, "params"> ? NonNullable<Req["params"]> | undefined : Req["params"]
  : undefined;

/** The requests a side handles (its handlers also take notifications, which MCP names `notifications/…`). */
type RequestKeys<H> = Exclude<keyof H, `notifications/${string}`>;

/** For every request a side handles, does its handler take exactly the table's request's params? */
type ParamsOk<Table, H> = {
  [M in RequestKeys<H>]-?: M extends keyof Table ? (Table[M] extends [infer Req, unknown] ? Equal<Params<NonNullable<H[M]>>, ExpectedParams<Req>> : false) : "not in the table";
};

/** For every request a side handles, may its handler return the table's results (sync or async)? */
type ResultOk<Table, H> = {
  [M in RequestKeys<H>]-?: M extends keyof Table ? (Table[M] extends [unknown, infer Res] ? ([Res] extends [Awaited<Returned<NonNullable<H[M]>>>] ? true : false) : false) : "not in the table";
};

type AllTrue<T> = Exclude<T[keyof T], true> extends never ? true : false;

type Check<Table, V extends { ServerHandlers: object; ClientHandlers: object }> = [
  AllTrue<ParamsOk<Table, V["ServerHandlers"]>>,
  AllTrue<ParamsOk<Table, V["ClientHandlers"]>>,
  AllTrue<ResultOk<Table, V["ServerHandlers"]>>,
  AllTrue<ResultOk<Table, V["ClientHandlers"]>>,
  // Every method of the table is handled by one side or the other.
  Exclude<keyof Table, keyof V["ServerHandlers"] | keyof V["ClientHandlers"]>,
];

type Handlers<S, C> = { ServerHandlers: S; ClientHandlers: C };

it("every handler of every version takes its own request's params and may return its own results", () => {
  expectTypeOf<Check<ExpectedV20241105, Handlers<V20241105.ServerHandlers, V20241105.ClientHandlers>>>().toEqualTypeOf<[true, true, true, true, never]>();
  expectTypeOf<Check<ExpectedV20250326, Handlers<V20250326.ServerHandlers, V20250326.ClientHandlers>>>().toEqualTypeOf<[true, true, true, true, never]>();
  expectTypeOf<Check<ExpectedV20250618, Handlers<V20250618.ServerHandlers, V20250618.ClientHandlers>>>().toEqualTypeOf<[true, true, true, true, never]>();
  expectTypeOf<Check<ExpectedV20251125, Handlers<V20251125.ServerHandlers, V20251125.ClientHandlers>>>().toEqualTypeOf<[true, true, true, true, never]>();
  expectTypeOf<Check<ExpectedV20260728, Handlers<V20260728.ServerHandlers, V20260728.ClientHandlers>>>().toEqualTypeOf<[true, true, true, true, never]>();
  expectTypeOf<Check<ExpectedDraft, Handlers<Draft.ServerHandlers, Draft.ClientHandlers>>>().toEqualTypeOf<[true, true, true, true, never]>();
});

it("the checks can fail: another method's params or result, or a method the table lacks, is caught", () => {
  type Mixed = Omit<V20250618.ServerHandlers, "resources/subscribe" | "tools/list"> & {
    "resources/subscribe"?: (params: V20250618.CallToolRequest["params"], context: V20250618.RequestContext) => void;
    "tools/list"?: (params: V20250618.ListToolsRequest["params"] | undefined, context: V20250618.RequestContext) => V20250618.ListPromptsResult;
  };
  expectTypeOf<ParamsOk<ExpectedV20250618, Mixed>["resources/subscribe"]>().toEqualTypeOf<false>();
  expectTypeOf<ResultOk<ExpectedV20250618, Mixed>["tools/list"]>().toEqualTypeOf<false>();
  type Extra = V20250618.ServerHandlers & { "tools/unknown"?: () => void };
  expectTypeOf<ParamsOk<ExpectedV20250618, Extra>["tools/unknown"]>().toEqualTypeOf<"not in the table">();
  // A table listing a method no side handles leaves it in the last slot.
  type Longer = ExpectedV20250618 & { "tools/unknown": [V20250618.PingRequest, V20250618.EmptyResult] };
  expectTypeOf<Check<Longer, Handlers<V20250618.ServerHandlers, V20250618.ClientHandlers>>[4]>().toEqualTypeOf<"tools/unknown">();
});
