// The rules the model decides once for every target: resultType values and who receives a message.
import { describe, expect, it } from "vitest";
import { customResultTypes, discoverServerInfo, receivedBy, resultTypesOf } from "../../generator/model/rules.js";
import { buildSchemaIR } from "../../generator/model/ir-build.js";
import type { JsonSchema, VersionModel } from "../../generator/model/types.js";

/** The IR of a few result definitions, as the real builder reads them (`#/$defs/<Name>` refs). */
const irOf = (defs: Record<string, JsonSchema>) =>
  buildSchemaIR({ label: "x", file: "x/schema.json", sha256: "0".repeat(64), dialect: "2020-12", container: "$defs", patches: [], defs });

const RESULTS = irOf({
  Result: { type: "object", properties: { _meta: { type: "object" }, resultType: { type: "string" } } },
  CallToolResult: { allOf: [{ $ref: "#/$defs/Result" }, { type: "object", properties: { content: { type: "array" } } }] },
  InputRequiredResult: { allOf: [{ $ref: "#/$defs/Result" }, { type: "object", properties: { resultType: { const: "input_required" } } }] },
  CreateTaskResult: { allOf: [{ $ref: "#/$defs/Result" }, { type: "object", properties: { resultType: { const: "task" }, task: { type: "object" } } }] },
});

describe("model rules", () => {
  it("allow input_required only in the modern era and only where the results include InputRequiredResult", () => {
    expect(resultTypesOf(["InputRequiredResult", "CallToolResult"], "legacy", RESULTS)).toBeNull();
    expect(resultTypesOf(["CallToolResult"], "modern", RESULTS)).toEqual(["complete"]);
    expect(resultTypesOf(["InputRequiredResult", "CallToolResult"], "modern", RESULTS)).toEqual(["complete", "input_required"]);
  });

  it("add the resultType a result definition fixes with a const, through allOf and references, once", () => {
    expect(resultTypesOf(["CallToolResult", "CreateTaskResult"], "modern", RESULTS)).toEqual(["complete", "task"]);
    expect(resultTypesOf(["InputRequiredResult", "CallToolResult", "CreateTaskResult"], "modern", RESULTS)).toEqual(["complete", "input_required", "task"]);
    expect(resultTypesOf(["CreateTaskResult"], "legacy", RESULTS)).toBeNull();
  });

  it("give a custom request (no result definition) the default resultType alone in the modern era, none in the legacy era", () => {
    expect(customResultTypes("modern")).toEqual(["complete"]);
    expect(customResultTypes("legacy")).toBeNull();
  });

  it("have the other side receive a message, and both sides one both send", () => {
    expect([receivedBy("client", "server"), receivedBy("client", "client"), receivedBy("server", "client"), receivedBy("both", "server"), receivedBy("both", "client")]).toEqual([true, false, true, true, true]);
  });

  it("put the server's info where the version's server/discover result declares it: a serverInfo member (the earlier 2026 drafts), else _meta; null without server/discover", () => {
    const discoverIr = (withMember: boolean) =>
      irOf({
        Result: { type: "object", properties: { _meta: { type: "object" }, resultType: { type: "string" } } },
        DiscoverResult: {
          allOf: [{ $ref: "#/$defs/Result" }, { type: "object", properties: { supportedVersions: { type: "array" }, ...(withMember ? { serverInfo: { type: "object" } } : {}) } }],
        },
      });
    const at = (ir: ReturnType<typeof irOf>, methods: string[]) => ({ requests: methods.map((method) => ({ method, results: ["DiscoverResult"] })), ir }) as unknown as VersionModel;
    expect(discoverServerInfo(at(discoverIr(true), ["server/discover"]))).toBe("member");
    expect(discoverServerInfo(at(discoverIr(false), ["server/discover"]))).toBe("meta");
    expect(discoverServerInfo(at(discoverIr(true), ["initialize"]))).toBeNull();
  });
});
