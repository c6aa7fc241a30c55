// The normalizer rules as source: what cannot be shown as JSON in an error message is described instead.
import { describe, expect, it } from "vitest";
import { JsonRpcError } from "../src/jsonrpc.js";
import { objectNormalizer } from "../src/normalize.js";

describe("objectNormalizer", () => {
  const normalize = objectNormalizer("tools/list", "ListToolsResult", ["complete"]);

  it("names a resultType it does not allow as JSON", () => {
    expect(() => normalize({ tools: [], resultType: 5 })).toThrow(
      new JsonRpcError(-32603, 'Internal error: the tools/list handler returned resultType 5; expected ListToolsResult with resultType "complete"'),
    );
  });

  it("describes a resultType JSON cannot carry instead of failing on it", () => {
    expect(() => normalize({ tools: [], resultType: 1n })).toThrow(
      new JsonRpcError(-32603, 'Internal error: the tools/list handler returned resultType a bigint; expected ListToolsResult with resultType "complete"'),
    );
  });
});
