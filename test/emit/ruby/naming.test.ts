// The Ruby namer's reserved constants come from what the printer writes into a version module (and
// the modules the runtime declares), not from a hand list, plus the tree's own constants beside the
// version modules (Methods reads VERSIONS, so no method may be Methods::VERSIONS).
import { describe, expect, it } from "vitest";
import { versionModuleConstants } from "../../../generator/emit/ruby/printer.js";
import { methodConstants } from "../../../generator/emit/ruby/naming.js";
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
