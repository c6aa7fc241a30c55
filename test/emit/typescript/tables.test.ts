// The per-method tables of schemas.ts (what the dispatcher validates with) and issuePaths.
import { describe, expect, it } from "vitest";
import * as v20241105 from "../../../generated/2024-11-05/index.js";
import * as v20260728 from "../../../generated/2026-07-28/index.js";
import { forVersion, versions } from "../../../generated/index.js";

describe("per-method schema tables", () => {
  it.each(versions)("%s: one entry per request and notification of methods.ts", (version) => {
    const mod = forVersion(version);
    expect(Object.keys(mod.requestParamsSchemas).sort()).toEqual(Object.keys(mod.requests).sort());
    expect(Object.keys(mod.resultSchemas).sort()).toEqual(Object.keys(mod.requests).sort());
    expect(Object.keys(mod.notificationParamsSchemas).sort()).toEqual(Object.keys(mod.notifications).sort());
  });

  it.each(versions)("%s: params and results that are one definition use that definition's schema", (version) => {
    const mod = forVersion(version) as unknown as Record<string, unknown> & typeof v20260728;
    for (const info of [...Object.values(mod.requests), ...Object.values(mod.notifications)]) {
      const type = info.params?.type;
      if (type === undefined || !/^\w+$/.test(type)) continue;
      const table: Record<string, unknown> = info.kind === "request" ? mod.requestParamsSchemas : mod.notificationParamsSchemas;
      expect(table[info.method], info.method).toBe(mod[`${type}Schema`]);
    }
    for (const info of Object.values(mod.requests)) {
      const results = info.results as readonly string[];
      if (results.length === 1) expect((mod.resultSchemas as Record<string, unknown>)[info.method], info.method).toBe(mod[`${results[0]}Schema`]);
    }
  });

  it("a request with several results accepts each of them (2026-07-28 tools/call)", () => {
    const schema = v20260728.resultSchemas["tools/call"];
    expect(schema.safeParse({ resultType: "complete", content: [{ type: "text", text: "hi" }] }).success).toBe(true);
    expect(schema.safeParse({ resultType: "input_required", inputRequests: {}, requestState: "s" }).success).toBe(true);
    expect(schema.safeParse({ content: [] }).success).toBe(false);
    // InputRequiredResult requires only a string resultType, so any such object is a valid result.
    expect(schema.safeParse({ resultType: "complete" }).success).toBe(true);
  });

  it("inline params (2024-11-05 tools/call) require what the request definition requires", () => {
    const schema = v20241105.requestParamsSchemas["tools/call"];
    expect(schema.safeParse({ name: "echo", arguments: { x: 1 } }).success).toBe(true);
    expect(schema.safeParse({ arguments: {} }).success).toBe(false);
  });

  it("2026-07-28 subscriptions/listen: a result without _meta is invalid", () => {
    const result = v20260728.resultSchemas["subscriptions/listen"].safeParse({ resultType: "complete" });
    expect(result.success).toBe(false);
    expect(v20260728.issuePaths(result.error!)).toEqual(["/_meta"]);
  });
});

describe("issuePaths", () => {
  it("gives a JSON pointer per failing value, escaping / in keys", () => {
    const result = v20260728.CallToolRequestParamsSchema.safeParse({ name: 1, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } });
    expect(result.success).toBe(false);
    expect(v20260728.issuePaths(result.error!).sort()).toEqual(["/_meta/io.modelcontextprotocol~1clientCapabilities", "/name"]);
  });

  it("points into arrays and through discriminated unions", () => {
    const result = v20260728.CallToolResultSchema.safeParse({ resultType: "complete", content: [{ type: "text", text: "ok" }, { type: "text" }] });
    expect(v20260728.issuePaths(result.error!)).toEqual(["/content/1/text"]);
    expect(v20260728.formatIssues(result.error!)).toBe("/content/1/text: Invalid input: expected string, received undefined");
  });

  it('gives "" for the whole value', () => {
    const result = v20241105.CallToolResultSchema.safeParse("not an object");
    expect(v20241105.issuePaths(result.error!)).toEqual([""]);
  });
});
