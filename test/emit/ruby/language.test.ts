// The Ruby printer's language rules, checked by Ruby itself: string literals read back as the exact
// text, names follow Ruby's conventions (and the Ruby SDK's constant spelling), keywords are avoided.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { constantCase, fileName, isModulePath, moduleConstant, modulePath, rubyString, VERSION_MODULE_CONSTANTS } from "../../../generator/emit/ruby/language.js";
import { rubyRuntimeSource } from "../../../generator/emit/ruby/paths.js";
import { buildModel } from "../../../generator/pipeline.js";
import { snakeCase } from "../../../generator/print/text.js";
import { ensureSchemas, lockFile, modelOptions, tempDir } from "../../support.js";
import { readLock } from "../../../generator/source/lock.js";
import { ruby, rubyTree } from "./support.js";

/** The constants Ruby source assigns or declares as modules (`PROTOCOL_VERSION = …`, `module Runtime`): the oracle of the declared list. */
function assignedConstants(source: string): Set<string> {
  const out = new Set<string>();
  for (const m of source.matchAll(/^\s*([A-Z][A-Za-z0-9_]*)\s*=(?!=)/gm)) out.add(m[1]);
  for (const m of source.matchAll(/^\s*module\s+([A-Z][A-Za-z0-9_]*)\s*$/gm)) out.add(m[1]);
  return out;
}

describe("VERSION_MODULE_CONSTANTS", () => {
  it("is what the generated version modules assign besides their method constants, and the modules runtime.rb declares", async () => {
    await ensureSchemas();
    const lock = await readLock(lockFile);
    const model = buildModel({ ...modelOptions, lock });
    const methods = new Set([...model.versions, ...(model.extensions ?? []).map((e) => e.model)].flatMap((v) => [...v.requests, ...v.notifications].map((m) => m.method)));
    const dir = path.join(rubyTree, "mcp_codegen");
    const found = new Set(assignedConstants(readFileSync(rubyRuntimeSource, "utf8")));
    const versionFiles = readdirSync(dir).filter((f) => f.endsWith(".rb") && !["runtime.rb", "gate.rb", "methods.rb", "protocol.rb", "projection.rb", "projections.rb"].includes(f));
    expect(versionFiles.length).toBeGreaterThan(1);
    for (const f of versionFiles) {
      const text = readFileSync(path.join(dir, f), "utf8");
      const methodConstant = new Set([...text.matchAll(/^\s*([A-Z][A-Za-z0-9_]*)\s*=\s*"([^"]*)"$/gm)].filter((m) => methods.has(m[2])).map((m) => m[1]));
      for (const c of assignedConstants(text)) if (!methodConstant.has(c)) found.add(c);
    }
    // The modules each file opens around its body (the namespace, the version module) are the tree's names, not the version module's.
    for (const f of versionFiles) {
      const text = readFileSync(path.join(dir, f), "utf8");
      const firstConstant = text.search(/^\s*[A-Z][A-Za-z0-9_]*\s*=(?!=)/m);
      for (const m of text.slice(0, firstConstant).matchAll(/^\s*module\s+([A-Z][A-Za-z0-9_]*)\s*$/gm)) found.delete(m[1]);
    }
    // A `resultType` list beyond the two standard ones is a constant named by its values (RESULT_TYPES_COMPLETE_INPUT_REQUIRED_TASK),
    // printed from the version's data like the method constants, and not reserved (as before the list was declared).
    for (const c of found) if (/^RESULT_TYPES_/.test(c) && !["RESULT_TYPES_COMPLETE", "RESULT_TYPES_INPUT_REQUIRED"].includes(c)) found.delete(c);
    expect([...VERSION_MODULE_CONSTANTS].sort(), "edit VERSION_MODULE_CONSTANTS in generator/emit/ruby/language.ts").toEqual([...found].sort());
  });
});

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
