// The TypeScript SDK adoption's schemas (generated/typescript-sdk/wireSchemas.ts): per SDK era the lock has,
// the names it answers against the names the SDK 2.0.0's hand buildSchemas returned, read from its shipped
// source; with EXACT each is the version's generated schema itself.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as wireSchemas from "../../../generated/typescript-sdk/wireSchemas.js";
import * as z from "zod";
import { applyValidationPolicy, EXACT, liftedSchema, liftOff } from "../../../generated/typescript-sdk/sdk-validation.js";
import { eraSchemasFunction, SDK_ENVELOPE_PREFIX, SDK_ERA_VERSIONS } from "../../../generator/emit/typescript/sdk-adoption.js";
import { lockedLabels, root } from "../../support.js";

const wire = path.join(root, "..", "shared", "typescript-sdk", "typescript-sdk-2.0.0", "packages", "core-internal", "src", "wire");
const eras = SDK_ERA_VERSIONS.filter((v) => lockedLabels().includes(v));

/** The names the SDK's `build()` returns: the shorthand members of its final `return { … };`. */
function sdkNames(label: string): string[] {
  const source = readFileSync(path.join(wire, `rev${label}`, "buildSchemas.ts"), "utf8");
  const block = /\n {4}return \{\n([\s\S]*?)\n {4}\};\n\}/.exec(source);
  if (block === null) throw new Error(`no return block in rev${label}/buildSchemas.ts`);
  return block[1].split("\n").map((l) => l.trim().replace(/,$/, "")).filter((l) => /^\w+$/.test(l));
}

/** The names the 2025-11-25 patch keeps by hand (ADOPTING.md lists them); every other SDK name is generated. */
const REMAINDER_2025 = [
  "BaseRequestParamsSchema",
  "CallToolResultWireSchema",
  "ClientTasksCapabilitySchema",
  "CreateMessageResultWithToolsSchema",
  "ElicitationCompleteNotificationParamsSchema",
  "JSONObjectSchema",
  "JSONValueSchema",
  "NotificationsParamsSchema",
  "ProgressSchema",
  "RequestMetaSchema",
  "SamplingContentSchema",
  "ServerTasksCapabilitySchema",
  "TaskCreationParamsSchema",
];

/**
 * The names the 2026-07-28 patch does not take from wireSchemas.ts (ADOPTING.md lists them): derived there from
 * generated schemas (the anchor's `_meta` objects under the SDK's names, the capability forks, the dispatch maps)
 * or kept by hand (names the schema does not define, the JSON-RPC result envelope).
 */
const REMAINDER_2026 = [
  "BaseRequestParamsSchema",
  "ClientCapabilities2026Schema",
  "ClientTasksCapabilitySchema",
  "JSONRPCResultResponseSchema",
  "NotificationMetaSchema",
  "NotificationsParamsSchema",
  "ProgressSchema",
  "RelatedTaskMetadataSchema",
  "RequestMetaEnvelopeSchema",
  "RequestMetaSchema",
  "ResultMetaSchema",
  "ServerCapabilities2026Schema",
  "ServerTasksCapabilitySchema",
  "SubscriptionsListenResultMetaSchema",
  "TaskAugmentedRequestParamsSchema",
  "TaskMetadataSchema",
  "dispatchRequestSchemas",
  "dispatchResultSchemas",
  "notificationSchemas2026",
];

/** Per era the patch replaces: the number of names the SDK's buildSchemas returned, and the listed remainder. */
const REPLACED: Readonly<Record<string, { names: number; remainder: string[] }>> = {
  "2025-11-25": { names: 148, remainder: REMAINDER_2025 },
  "2026-07-28": { names: 134, remainder: REMAINDER_2026 },
};

function answered(label: string): Record<string, unknown> {
  const fn = (wireSchemas as unknown as Record<string, (p: typeof EXACT) => Record<string, unknown>>)[eraSchemasFunction(label)];
  expect(fn, eraSchemasFunction(label)).toBeTypeOf("function");
  return fn(EXACT);
}

describe("wireSchemas.ts", () => {
  it.each(eras)("%s: with EXACT every name is the version's generated schema itself, and no JSON-RPC envelope definition is answered", async (label) => {
    const generated = (await import(path.join(root, "generated", label, "schemas.ts"))) as Record<string, unknown>;
    const schemas = answered(label);
    expect(Object.keys(schemas).length).toBeGreaterThan(50);
    for (const [name, schema] of Object.entries(schemas)) expect(schema, name).toBe(generated[name]);
    const envelope = Object.keys(generated).filter((n) => n.startsWith(SDK_ENVELOPE_PREFIX) && n.endsWith("Schema"));
    expect(envelope.length).toBeGreaterThan(0);
    for (const name of envelope) expect(Object.keys(schemas)).not.toContain(name);
  });

  // The eras whose buildSchemas the patch replaces (those the lock has).
  it.each(eras.filter((l) => l in REPLACED))("%s: every name the SDK's buildSchemas returned is answered but the listed remainder, each named in ADOPTING.md", (label) => {
    const sdk = sdkNames(label);
    expect(sdk.length).toBe(REPLACED[label].names);
    const schemas = answered(label);
    expect(sdk.filter((n) => !(n in schemas)).sort()).toEqual(REPLACED[label].remainder);
    const recipe = readFileSync(path.join(root, "generated", "typescript-sdk", "ADOPTING.md"), "utf8");
    for (const name of REPLACED[label].remainder) expect(recipe, name).toContain(`\`${name}\``);
  });
});

describe("sdk-validation.ts: the options the 2026 era selects", () => {
  const era = { requests: {}, notifications: {} };
  const capabilities = z.looseObject({ tools: z.looseObject({}).optional() });
  const meta = z.looseObject({ "example.com/version": z.string(), "example.com/info": z.string().optional(), progressToken: z.string().optional() });
  const request = z.looseObject({ method: z.literal("tools/list"), params: z.looseObject({ _meta: meta, cursor: z.string().optional() }) });
  const named = z.looseObject({ method: z.literal("tools/call"), params: z.looseObject({ _meta: meta, name: z.string() }) });
  const result = z.looseObject({ resultType: z.string(), content: z.array(z.string()) });
  const lifting = { lifted: { members: ["resultType"], metaKeys: ["example.com/version", "example.com/info"] } };

  it("stripUnknown: the named definition drops unknown members, others and EXACT keep them", () => {
    const value = { tools: {}, tasks: {} };
    const out = applyValidationPolicy({ CapabilitiesSchema: capabilities, OtherSchema: capabilities }, era, { stripUnknown: ["Capabilities"] });
    expect((out.CapabilitiesSchema as z.ZodType).parse(value)).toEqual({ tools: {} });
    expect((out.OtherSchema as z.ZodType).parse(value)).toEqual(value);
    expect(applyValidationPolicy({ CapabilitiesSchema: capabilities }, era, EXACT).CapabilitiesSchema).toBe(capabilities);
  });

  it("liftedSchema: a request after the lift validates without the lifted _meta keys, and without params when nothing required is left", () => {
    const lifted = liftedSchema(request, lifting);
    expect(request.safeParse({ method: "tools/list", params: {} }).success).toBe(false);
    expect(lifted.safeParse({ method: "tools/list", params: {} }).success).toBe(true);
    expect(lifted.safeParse({ method: "tools/list" }).success).toBe(true);
    expect(lifted.parse({ method: "tools/list", params: { _meta: { progressToken: "p" }, cursor: "c" } })).toEqual({ method: "tools/list", params: { _meta: { progressToken: "p" }, cursor: "c" } });
    // What is left is still checked: a member of the same schema object.
    expect(lifted.safeParse({ method: "tools/list", params: { cursor: 1 } }).success).toBe(false);
    const liftedNamed = liftedSchema(named, lifting);
    expect(liftedNamed.safeParse({ method: "tools/call" }).success).toBe(false);
    expect(liftedNamed.safeParse({ method: "tools/call", params: { name: "t" } }).success).toBe(true);
    // The value liftOff leaves is what the lifted schema accepts.
    const wire = { method: "tools/call", params: { _meta: { "example.com/version": "v" }, name: "t" } };
    expect(named.safeParse(wire).success).toBe(true);
    expect(liftedNamed.safeParse({ ...wire, params: liftOff(wire.params, lifting) }).success).toBe(true);
  });

  it("liftedSchema: a result without the lifted members; with no lifted option the schema itself", () => {
    expect(result.safeParse({ content: [] }).success).toBe(false);
    expect(liftedSchema(result, lifting).safeParse({ content: [] }).success).toBe(true);
    expect(liftedSchema(result, lifting).safeParse({ content: [1] }).success).toBe(false);
    expect(liftedSchema(result, EXACT)).toBe(result);
  });
});
