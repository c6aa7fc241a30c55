// The Ruby namer's reserved constants come from what the printer writes into a version module (and
// the modules the runtime declares), not from a hand list, plus the tree's own constants beside the
// version modules (Methods reads VERSIONS, so no method may be Methods::VERSIONS).
import { describe, expect, it } from "vitest";
import { methodConstants, normalizerNames, treeMethodConstants, versionModuleConstants } from "../../../generator/emit/ruby/naming.js";
import type { VersionModel } from "../../../generator/model/types.js";

describe("Ruby method constants", () => {
  it("never take a constant the version module assigns itself, in either era", () => {
    const reserved = versionModuleConstants();
    for (const name of ["PROTOCOL_VERSION", "ERA", "PREVIOUS_VERSION", "NO_CAPABILITIES", "REQUESTS", "NOTIFICATIONS", "RESULT_TYPES_COMPLETE", "RESULT_TYPES_INPUT_REQUIRED", "Runtime", "Methods", "Gate", "VERSIONS"]) {
      expect(reserved.has(name), name).toBe(true);
    }
    const version = { label: "x", requests: [{ method: "result/types/complete" }, { method: "requests" }, { method: "versions" }], notifications: [] } as unknown as VersionModel;
    expect([...methodConstants(version, reserved)]).toEqual([
      ["requests", "REQUESTS_METHOD"],
      ["result/types/complete", "RESULT_TYPES_COMPLETE_METHOD"],
      ["versions", "VERSIONS_METHOD"],
    ]);
  });
});

describe("Ruby names under the one policy (a collision is refused)", () => {
  const version = (requests: string[], notifications: string[] = []) =>
    ({ label: "x", requests: requests.map((method) => ({ method })), notifications: notifications.map((method) => ({ method })) }) as unknown as VersionModel;

  it("refuses two methods that would share a constant, naming both and the schema", () => {
    expect(() => methodConstants(version(["tools/call"], ["tools.call"]))).toThrow(/"tools\.call" and "tools\/call" would both be the Ruby constant TOOLS_CALL/);
  });

  it("refuses two requests that would share a normalizer", () => {
    expect(() => normalizerNames(version(["a/b", "a.b"]))).toThrow(/"a\.b" and "a\/b" would both be the Ruby normalizer normalize_a_b/);
  });

  it("never names a normalizer like a function the version module defines itself, nor a method constant like a resultType list", () => {
    expect([...normalizerNames(version(["result", "params/errors", "ping"]))]).toEqual([
      ["params/errors", "normalize_params_errors"],
      ["ping", "normalize_ping"],
      ["result", "normalize_result_method"],
    ]);
    expect(methodConstants(version(["result/types/complete/task"])).get("result/types/complete/task")).toBe("RESULT_TYPES_COMPLETE_TASK_METHOD");
  });

  it("refuses a method that shares a constant with another version's in methods.rb", () => {
    const a = { ...version(["tools/call"]), label: "a" } as VersionModel;
    const b = { ...version(["tools.call"]), label: "b" } as VersionModel;
    expect(() => treeMethodConstants([a, b])).toThrow(/methods "tools\/call" and "tools\.call" would both be the Ruby constant Methods::TOOLS_CALL/);
  });
});
