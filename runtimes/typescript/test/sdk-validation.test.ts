// runtimes/typescript/sdk/sdk-validation.ts as source: the TypeScript SDK adoption's validation policy, on a
// small era written here by hand in the generated schemas' shape (framed, loose messages; EmptyResult = Result).
import { describe, expect, it } from "vitest";
import * as z from "zod";
import type { WireEra } from "../sdk/sdk-policy.js";
import { applyValidationPolicy, EXACT, liftOff, servingVersion } from "../sdk/sdk-validation.js";

const ResultSchema = z.looseObject({ _meta: z.looseObject({}).optional() });
const PingRequestSchema = z.looseObject({
  id: z.union([z.string(), z.number()]),
  jsonrpc: z.literal("2.0"),
  method: z.literal("ping"),
  params: z.looseObject({ _meta: z.looseObject({}).optional() }).optional(),
});
const CallToolRequestSchema = z.looseObject({
  id: z.union([z.string(), z.number()]),
  jsonrpc: z.literal("2.0"),
  method: z.literal("tools/call"),
  params: z.looseObject({ name: z.string(), _meta: z.looseObject({}).optional() }),
});
const InitializedNotificationSchema = z.looseObject({ jsonrpc: z.literal("2.0"), method: z.literal("notifications/initialized") });
const ClientRequestSchema = z.discriminatedUnion("method", [PingRequestSchema, CallToolRequestSchema]);
const CallToolResultSchema = z.looseObject({ _meta: z.looseObject({}).optional(), content: z.array(z.looseObject({ type: z.string() })) });
const ListResultSchema = z.looseObject({ items: z.array(z.string()), ttlMs: z.number().int().gte(0).optional() });
const ServerResultSchema = z.union([ResultSchema, CallToolResultSchema]);
const schemas = {
  ResultSchema,
  EmptyResultSchema: ResultSchema,
  PingRequestSchema,
  CallToolRequestSchema,
  InitializedNotificationSchema,
  ClientRequestSchema,
  CallToolResultSchema,
  ListResultSchema,
  ServerResultSchema,
};
const era: WireEra = {
  requests: {
    ping: { definition: "PingRequest", sender: "both", results: ["EmptyResult"], shape: "empty", capabilities: [] },
    "tools/call": { definition: "CallToolRequest", sender: "client", results: ["CallToolResult"], shape: "object", capabilities: [["tools"]] },
  },
  notifications: { "notifications/initialized": { definition: "InitializedNotification", sender: "client", capabilities: [] } },
};
const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", extra: 1 }, extraTop: true };

describe("applyValidationPolicy", () => {
  it("EXACT returns every schema as it is: framed, loose messages and EmptyResult = Result", () => {
    const out = applyValidationPolicy(schemas, era, EXACT);
    for (const [name, schema] of Object.entries(schemas)) expect(out[name as keyof typeof schemas], name).toBe(schema);
    expect(out.CallToolRequestSchema.parse(call)).toEqual(call);
    expect(out.PingRequestSchema.safeParse({ method: "ping" }).success).toBe(false);
    expect(out.EmptyResultSchema.parse({ extra: 1 })).toEqual({ extra: 1 });
  });

  it("unframed: a request or notification validates without jsonrpc and id, and keeps unknown members", () => {
    const out = applyValidationPolicy(schemas, era, { unframed: true });
    expect(out.PingRequestSchema.parse({ method: "ping" })).toEqual({ method: "ping" });
    expect(out.InitializedNotificationSchema.parse({ method: "notifications/initialized", x: 1 })).toEqual({ method: "notifications/initialized", x: 1 });
    expect(out.CallToolRequestSchema.parse(call)).toEqual(call);
    // The role union holds the replacements: it takes an unframed request too.
    expect(out.ClientRequestSchema.parse({ method: "ping" })).toEqual({ method: "ping" });
    expect(out.ClientRequestSchema.safeParse({ method: "nope" }).success).toBe(false);
    // The inputs are never changed.
    expect(PingRequestSchema.safeParse({ method: "ping" }).success).toBe(false);
  });

  it("stripUnknownParams: unknown members of the message and of its params are dropped, required ones still required", () => {
    const out = applyValidationPolicy(schemas, era, { unframed: true, stripUnknownParams: true });
    expect(out.CallToolRequestSchema.parse(call)).toEqual({ method: "tools/call", params: { name: "t" } });
    expect(out.ClientRequestSchema.parse(call)).toEqual({ method: "tools/call", params: { name: "t" } });
    expect(out.PingRequestSchema.parse({ method: "ping", params: { _meta: { k: 1 }, x: 2 } })).toEqual({ method: "ping", params: { _meta: { k: 1 } } });
    expect(out.CallToolRequestSchema.safeParse({ method: "tools/call", params: {} }).success).toBe(false);
  });

  it("strictEmptyResult: EmptyResult rejects any member but _meta; Result itself and the unions holding it stay loose", () => {
    const out = applyValidationPolicy(schemas, era, { strictEmptyResult: true });
    expect(out.EmptyResultSchema.parse({ _meta: { k: 1 } })).toEqual({ _meta: { k: 1 } });
    const bad = out.EmptyResultSchema.safeParse({ extra: 1 });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.code)).toEqual(["unrecognized_keys"]);
    expect(out.ResultSchema.parse({ extra: 1 })).toEqual({ extra: 1 });
    expect(out.ServerResultSchema).toBe(ServerResultSchema);
  });

  it("defaults and catches: a missing member takes its default, a bad one its fallback; the unions hold the replacement", () => {
    const out = applyValidationPolicy(schemas, era, { defaults: { CallToolResult: { content: [] } }, catches: { ListResult: { ttlMs: 0 } } });
    expect(out.CallToolResultSchema.parse({})).toEqual({ content: [] });
    expect(out.ServerResultSchema.parse({ content: [{ type: "text" }] })).toEqual({ content: [{ type: "text" }] });
    expect(out.ListResultSchema.parse({ items: [], ttlMs: -5 })).toEqual({ items: [], ttlMs: 0 });
    expect(out.ListResultSchema.parse({ items: [], ttlMs: 7 })).toEqual({ items: [], ttlMs: 7 });
    expect(out.ListResultSchema.safeParse({ ttlMs: 7 }).success).toBe(false);
    expect(CallToolResultSchema.safeParse({}).success).toBe(false);
  });
});

describe("applyValidationPolicy: every definition, and the objects holding a replacement", () => {
  const MetaSchema = z.looseObject({ "example.com/info": z.looseObject({ name: z.string() }).optional() });
  const CachedSchema = z.looseObject({ _meta: MetaSchema.optional(), ttlMs: z.number().int().gte(0), kind: z.string() });
  const OtherSchema = z.looseObject({ ttlMs: z.number().int().gte(0), inner: CachedSchema });
  const PlainSchema = z.looseObject({ name: z.string() });
  const own = { MetaSchema, CachedSchema, OtherSchema, PlainSchema };
  const none: WireEra = { requests: {}, notifications: {} };

  it("`*` applies a member's catch and default to every object with that member, and to no other", () => {
    const out = applyValidationPolicy(own, none, { catches: { "*": { ttlMs: 0 } }, defaults: { "*": { kind: "complete" } } });
    expect(out.CachedSchema.parse({ ttlMs: -1 })).toEqual({ ttlMs: 0, kind: "complete" });
    expect(out.OtherSchema.parse({ inner: { ttlMs: 3 } })).toEqual({ ttlMs: 0, inner: { ttlMs: 3, kind: "complete" } });
    expect(out.PlainSchema).toBe(PlainSchema);
    expect(out.PlainSchema.parse({ name: "n" })).toEqual({ name: "n" });
  });

  it("an object holding a replaced definition (as a member or an optional member) holds the replacement", () => {
    const out = applyValidationPolicy(own, none, { catches: { Meta: { "example.com/info": undefined } } });
    const bad = { _meta: { "example.com/info": "x", keep: 1 }, ttlMs: 1, kind: "k" };
    expect(out.MetaSchema.parse({ "example.com/info": 5 })).toEqual({});
    expect(out.CachedSchema.parse(bad)).toEqual({ _meta: { keep: 1 }, ttlMs: 1, kind: "k" });
    expect(out.OtherSchema.parse({ ttlMs: 0, inner: bad })).toEqual({ ttlMs: 0, inner: { _meta: { keep: 1 }, ttlMs: 1, kind: "k" } });
    expect(CachedSchema.safeParse(bad).success).toBe(false);
  });
});

describe("liftOff and servingVersion", () => {
  it("lifts the named members and _meta keys off (an emptied _meta goes), and leaves everything else", () => {
    const policy = { lifted: { members: ["resultType"], metaKeys: ["io.modelcontextprotocol/protocolVersion"] } };
    expect(liftOff({ resultType: "complete", x: 1, _meta: { "io.modelcontextprotocol/protocolVersion": "v" } }, policy)).toEqual({ x: 1 });
    expect(liftOff({ _meta: { "io.modelcontextprotocol/protocolVersion": "v", k: 1 } }, policy)).toEqual({ _meta: { k: 1 } });
    expect(liftOff([1], policy)).toEqual([1]);
    const same = { resultType: "complete" };
    expect(liftOff(same, EXACT)).toBe(same);
  });

  it("serves a listed version with its table's version, any other with itself", () => {
    const policy = { servedBy: { "2024-10-07": "2025-11-25" } };
    expect(servingVersion("2024-10-07", policy)).toBe("2025-11-25");
    expect(servingVersion("2026-07-28", policy)).toBe("2026-07-28");
    expect(servingVersion("2024-10-07", EXACT)).toBe("2024-10-07");
    expect(servingVersion("toString", policy)).toBe("toString");
  });
});
