// The Ruby printer's language rules, checked by Ruby itself: string literals read back as the exact
// text, names follow Ruby's conventions (and the Ruby SDK's constant spelling), keywords are avoided.
import { writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { constantCase, fileName, isModulePath, moduleConstant, modulePath, rubyString } from "../../../generator/emit/ruby/language.js";
import { snakeCase } from "../../../generator/emit/text.js";
import { tempDir } from "../../support.js";
import { ruby } from "./support.js";

describe("Ruby language rules", () => {
  it("rubyString: Ruby reads every literal back as exactly the text (any Unicode, #{}, quotes, controls)", () => {
    const tricky = ['#{raise "x"}', "#@x #$0", '\\"', "\u0000\u0007\u001b\u007f\u0085\u2028\u2029", "é😀", "'", ""];
    const texts = [...tricky, ...fc.sample(fc.string({ unit: "binary-ascii", maxLength: 20 }), { numRuns: 200, seed: 1 }), ...fc.sample(fc.string({ unit: "grapheme", maxLength: 10 }), { numRuns: 200, seed: 2 })];
    const file = path.join(tempDir(), "literals.rb");
    writeFileSync(file, `# frozen_string_literal: true\n\nrequire "json"\n\n$stdout.write(JSON.generate([\n${texts.map((t) => `  ${rubyString(t)},`).join("\n")}\n]))\n`);
    const r = ruby(["-w", file], { loadPath: [] });
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual(texts);
  });

  it("names: the SDK's constant spelling, snake_case functions, version modules and their files", () => {
    expect(["logging/setLevel", "sampling/createMessage", "notifications/tools/list_changed", "resources/templates/list"].map(constantCase)).toEqual([
      "LOGGING_SET_LEVEL",
      "SAMPLING_CREATE_MESSAGE",
      "NOTIFICATIONS_TOOLS_LIST_CHANGED",
      "RESOURCES_TEMPLATES_LIST",
    ]);
    expect(snakeCase("subscriptions/listen")).toBe("subscriptions_listen");
    expect(snakeCase("logging/setLevel")).toBe("logging_set_level");
    expect(["2025-11-25", "draft", "next-1"].map(moduleConstant)).toEqual(["V2025_11_25", "Draft", "Next_1"]);
    expect(["V2025_11_25", "Draft", "McpCodegen", "MCPTools"].map(fileName)).toEqual(["v2025_11_25", "draft", "mcp_codegen", "mcp_tools"]);
    expect(modulePath("MCP::Protocol")).toBe("mcp/protocol");
    expect(["McpCodegen", "MCP::Protocol"].every(isModulePath)).toBe(true);
    expect(["mcp", "MCP::", "END", "A::BEGIN", "A-B", ""].some(isModulePath)).toBe(false);
  });
});
