// The TypeScript SDK adoption's tables (generated/typescript-sdk/wireTables.ts) and policy (sdk-policy.ts):
// the method sets per era equal the SDK 2.0.0's hand registries, read from its shipped sources; the policy's
// answers under STRICT are the schema's capability rows, and under the SDK's options what its switches checked.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { WIRE_ERAS } from "../../../generated/typescript-sdk/wireTables.js";
import * as policy from "../../../generated/typescript-sdk/sdk-policy.js";
import { SDK_ERA_VERSIONS } from "../../../generator/emit/typescript/sdk-adoption.js";
import { lockedLabels, root } from "../../support.js";

const sdk = path.join(root, "..", "shared", "typescript-sdk", "typescript-sdk-2.0.0");
const wire = path.join(sdk, "packages", "core-internal", "src", "wire");
const registries: Record<string, string> = { "2025-11-25": "rev2025-11-25/registry.ts", "2026-07-28": "rev2026-07-28/registry.ts" };

/** The keys of a `const NAME: … = { 'a': null, b: null }` object literal in an SDK source. */
function keysOf(source: string, name: string): string[] {
  const m = new RegExp(`const ${name}[^=]*= \\{([\\s\\S]*?)\\n\\};`).exec(source);
  if (m === null) throw new Error(`no ${name} in the source`);
  return [...m[1].matchAll(/^\s*'?([\w/]+)'?: null,?$/gm)].map((k) => k[1]);
}

/** The SDK eras the lock has: wireTables.ts prints those. */
const eras = SDK_ERA_VERSIONS.filter((v) => lockedLabels().includes(v));

describe("wireTables.ts", () => {
  it("has one era per SDK era version the lock has", () => {
    expect(Object.keys(WIRE_ERAS)).toEqual(eras);
  });

  it.each(eras)("%s: its requests and notifications are the SDK's hand registry's, on the SDK's own source", (label) => {
    const source = readFileSync(path.join(wire, registries[label]), "utf8");
    const era = WIRE_ERAS[label];
    expect(policy.requestMethods(era).sort()).toEqual(keysOf(source, "requestMethodKeys").sort());
    expect(policy.notificationMethods(era).sort()).toEqual(keysOf(source, "notificationMethodKeys").sort());
  });

  it.each(eras)("%s: every schema name it gives is one buildSchemas exports (but the results the SDK wraps or leaves out)", (label) => {
    const build = readFileSync(path.join(wire, path.dirname(registries[label]), "buildSchemas.ts"), "utf8");
    const era = WIRE_ERAS[label];
    const names = [
      ...policy.requestMethods(era).map((m) => policy.requestSchemaName(era, m)!),
      ...policy.notificationMethods(era).map((m) => policy.notificationSchemaName(era, m)!),
    ];
    for (const name of names) expect(build, name).toMatch(new RegExp(`\\bconst ${name}\\b`));
  });

  it.each(eras)("%s: a request's shape is empty exactly when its one result declares no member but _meta and resultType (or schemas/overrides.json says)", (label) => {
    type Node = { $ref?: string; properties?: Record<string, unknown>; allOf?: Node[] };
    const schema = JSON.parse(readFileSync(path.join(root, "schemas", label, "schema.json"), "utf8")) as { definitions?: Record<string, Node>; $defs?: Record<string, Node> };
    const defs = schema.$defs ?? schema.definitions ?? {};
    const members = (n: Node): string[] => [...Object.keys(n.properties ?? {}), ...(n.$ref ? members(defs[n.$ref.replace(/^#\/(\$defs|definitions)\//, "")]) : []), ...(n.allOf ?? []).flatMap(members)];
    const overrides = (JSON.parse(readFileSync(path.join(root, "schemas", "overrides.json"), "utf8")) as { overrides: Array<{ versions: string[] | "*"; method: string; resultShape?: string }> }).overrides;
    const era = WIRE_ERAS[label];
    for (const method of policy.requestMethods(era)) {
      const row = era.requests[method];
      const override = overrides.find((o) => o.method === method && o.resultShape !== undefined && (o.versions === "*" || o.versions.includes(label)));
      const structural = row.results!.length === 1 && members(defs[row.results![0]]).every((k) => k === "_meta" || k === "resultType") ? "empty" : "object";
      expect(row.shape, method).toBe(override?.resultShape ?? structural);
    }
  });

  it("2026-07-28 (when locked) has no sampling, elicitation or roots request: its schema demoted them", () => {
    if (!eras.includes("2026-07-28")) return;
    for (const m of ["sampling/createMessage", "elicitation/create", "roots/list"]) expect(policy.requestSchemaName(WIRE_ERAS["2026-07-28"], m)).toBeUndefined();
  });
});

describe("sdk-policy.ts", () => {
  const era: policy.WireEra = {
    requests: {
      "resources/subscribe": { definition: "SubscribeRequest", sender: "client", results: ["EmptyResult"], capabilities: [["resources"], ["resources", "subscribe"]] },
      "tools/call": { definition: "CallToolRequest", sender: "client", results: ["InputRequiredResult", "CallToolResult"], capabilities: [["tools"]] },
      "tasks/get": { definition: "GetTaskRequest", sender: "both", results: ["GetTaskResult"], capabilities: [["tasks"]] },
      ping: { definition: "PingRequest", sender: "both", results: ["EmptyResult"], capabilities: [] },
    },
    notifications: {
      "notifications/tools/list_changed": { definition: "ToolListChangedNotification", sender: "server", capabilities: [["tools"], ["tools", "listChanged"]] },
    },
  };
  const sdkLike: policy.SdkPolicy = {
    resultsNotBuiltIn: ["tasks/"],
    resultSchemaNames: { "tools/call": "CallToolResultWireSchema" },
    capabilityPaths: "first",
    allPaths: ["resources/subscribe"],
    unchecked: { send: ["tasks/"], handle: ["resources/subscribe"] },
  };

  it("schema names: <Definition>Schema; a result's only with one definition, unless the policy names it or leaves it out", () => {
    expect(policy.requestSchemaName(era, "ping")).toBe("PingRequestSchema");
    expect(policy.requestSchemaName(era, "nope")).toBeUndefined();
    expect(policy.notificationSchemaName(era, "notifications/tools/list_changed")).toBe("ToolListChangedNotificationSchema");
    expect(policy.resultSchemaName(era, "tools/call")).toBeUndefined();
    expect(policy.resultSchemaName(era, "tools/call", sdkLike)).toBe("CallToolResultWireSchema");
    expect(policy.resultSchemaName(era, "tasks/get")).toBe("GetTaskResultSchema");
    expect(policy.resultSchemaName(era, "tasks/get", sdkLike)).toBeUndefined();
    expect(policy.resultMethods(era, sdkLike)).toEqual(["resources/subscribe", "tools/call", "ping"]);
    // A union read without the definitions `resultsLeftOut` names: one left names the result, none or two do not.
    expect(policy.resultSchemaName(era, "tools/call", { resultsLeftOut: ["InputRequiredResult"] })).toBe("CallToolResultSchema");
    expect(policy.resultSchemaName(era, "tools/call", { resultsLeftOut: ["InputRequiredResult", "CallToolResult"] })).toBeUndefined();
    expect(policy.resultSchemaName(era, "tools/call", { resultsLeftOut: ["EmptyResult"] })).toBeUndefined();
  });

  it("STRICT requires every path of a row; the SDK's options the first, all for subscribe, none where unchecked", () => {
    const caps = { tools: {}, resources: {} };
    const missing = (kind: "request" | "notification", method: string, sender: "client" | "server", site: policy.CapabilitySite, p?: policy.SdkPolicy) =>
      policy.missingCapabilityFor([era], kind, method, sender, site, caps, p);
    expect(missing("notification", "notifications/tools/list_changed", "server", "send")).toEqual(["tools", "listChanged"]);
    expect(missing("notification", "notifications/tools/list_changed", "server", "send", sdkLike)).toBeNull();
    expect(missing("request", "resources/subscribe", "client", "send", sdkLike)).toEqual(["resources", "subscribe"]);
    expect(missing("request", "resources/subscribe", "client", "handle", sdkLike)).toBeNull();
    expect(missing("request", "tasks/get", "client", "send")).toEqual(["tasks"]);
    expect(missing("request", "tasks/get", "client", "send", sdkLike)).toBeNull();
    // A method the sender does not send, or no era has, needs nothing.
    expect(missing("notification", "notifications/tools/list_changed", "client", "send")).toBeNull();
    expect(missing("request", "x/y", "client", "send")).toBeNull();
    // No capabilities object at all: the first path is missing.
    expect(policy.missingCapabilityFor([era], "request", "tools/call", "client", "send", undefined)).toEqual(["tools"]);
    expect(policy.missingCapability([["tools"]], { tools: false })).toEqual(["tools"]);
  });

  it("emptyResult: an empty-shaped request's result is { _meta } when _meta is a plain object, else {}; other requests' undefined", () => {
    const shaped: policy.WireEra = {
      requests: {
        "resources/subscribe": { ...era.requests["resources/subscribe"], shape: "empty" },
        "tools/call": { ...era.requests["tools/call"], shape: "object" },
      },
      notifications: {},
    };
    const meta = { "example.com/k": 1 };
    const out = policy.emptyResult(shaped, "resources/subscribe", { _meta: meta, extra: 1 });
    expect(out).toEqual({ _meta: meta });
    expect(out!._meta).toBe(meta);
    expect(policy.emptyResult(shaped, "resources/subscribe", { _meta: "x", extra: 1 })).toEqual({});
    expect(policy.emptyResult(shaped, "resources/subscribe", { _meta: [1] })).toEqual({});
    expect(policy.emptyResult(shaped, "resources/subscribe", null)).toEqual({});
    expect(policy.emptyResult(shaped, "resources/subscribe", Object.create({ _meta: meta }))).toEqual({});
    expect(policy.emptyResult(shaped, "tools/call", { content: [] })).toBeUndefined();
    expect(policy.emptyResult(shaped, "nope", {})).toBeUndefined();
  });

  it("the copy in the tree is the hand-written source behind the runtime copy header (nothing of the spec), and the SDK copy is present to compare with", () => {
    const source = readFileSync(path.join(root, "runtimes", "typescript", "sdk", "sdk-policy.ts"), "utf8");
    const copy = readFileSync(path.join(root, "generated", "typescript-sdk", "sdk-policy.ts"), "utf8");
    expect(copy.split("\n")[0]).toMatch(/^\/\/ Code generated by mcp-codegen \S+: a copy of runtimes\/typescript\/sdk\/sdk-policy\.ts\. DO NOT EDIT\.$/);
    expect(copy.endsWith(`never with the spec.\n${source}`)).toBe(true);
    expect(existsSync(wire)).toBe(true);
  });
});
