// The rules the model decides once for every target: resultType values, who receives a message, and
// which methods a version dropped (the Ruby tree's REMOVED_METHODS).
import { describe, expect, it } from "vitest";
import { receivedBy, removedMethods, resultTypesOf } from "../../generator/model/rules.js";
import type { VersionModel } from "../../generator/model/types.js";

const version = (requests: string[], notifications: string[]) =>
  ({ requests: requests.map((method) => ({ method })), notifications: notifications.map((method) => ({ method })) }) as unknown as VersionModel;

describe("model rules", () => {
  it("allow input_required only in the modern era and only where the results include InputRequiredResult", () => {
    expect(resultTypesOf(["InputRequiredResult", "CallToolResult"], "legacy")).toBeNull();
    expect(resultTypesOf(["CallToolResult"], "modern")).toEqual(["complete"]);
    expect(resultTypesOf(["InputRequiredResult", "CallToolResult"], "modern")).toEqual(["complete", "input_required"]);
  });

  it("have the other side receive a message, and both sides one both send", () => {
    expect([receivedBy("client", "server"), receivedBy("client", "client"), receivedBy("server", "client"), receivedBy("both", "server"), receivedBy("both", "client")]).toEqual([true, false, true, true, true]);
  });

  it("name the methods of the previous version that a version lacks, requests and notifications, sorted", () => {
    const previous = version(["tools/list", "initialize", "ping"], ["notifications/initialized", "notifications/cancelled"]);
    const next = version(["tools/list", "server/discover"], ["notifications/cancelled"]);
    expect(removedMethods(previous, next)).toEqual(["initialize", "notifications/initialized", "ping"]);
    expect(removedMethods(next, next)).toEqual([]);
  });
});
