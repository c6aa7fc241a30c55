// Faithful models (issue 29): what a round trip writes, what constructors take, and how the tree is
// printed: integers stay integers, a plain dump is the wire (unset members left out, its own model
// accepts it), field names and wire names both construct, identical versions re-export, docstrings
// carry no `\"` escapes and no Annotated is nested in another. The corpus-wide round trip is the
// differential test's (batch.py: every accepted instance dumps back to the same JSON text).
import { describe, expect, it } from "vitest";
import { readTree } from "../../support.js";
import { pythonJson, pythonTree } from "./support.js";

const tree = readTree(pythonTree);

describe("faithful Python models", () => {
  const facts = pythonJson<Record<string, unknown>>("models.py", null);

  it("keeps a JSON integer in a number member an integer, and a float a float", () => {
    expect(facts.progress).toBe('{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":50,"total":100.5}}');
  });

  it("dumps by wire name, in the wire's member order, leaving unset members out; the model accepts its own dump", () => {
    expect(facts.dump).toEqual({ protocolVersion: "2025-11-25", clientInfo: { version: "1", name: "c" }, capabilities: {} });
    expect(JSON.stringify(facts.dump)).toBe('{"protocolVersion":"2025-11-25","clientInfo":{"version":"1","name":"c"},"capabilities":{}}');
    expect(facts.dump_again).toEqual(facts.dump);
  });

  it("constructs from field names as from wire names; meta= sets _meta, never an extra member", () => {
    expect(facts.by_name).toEqual({ name: "n", version: "1", websiteUrl: "https://x.example" });
    expect(facts.by_name_equals_wire).toBe(true);
    expect(facts.result_meta).toEqual({ _meta: { k: 1 } });
    expect(facts.result_meta_extra).toEqual({});
    // Validation reads wire names only: {"meta": …} is an unknown member.
    expect(facts.wire_meta).toEqual([null, { meta: { k: 1 } }]);
  });

  it("re-exports the definitions of an identical version (draft: 2026-07-28's classes), its own constants and gate kept", () => {
    expect(facts.reexported).toBe(true);
    expect(facts.draft_version).toEqual(["draft", "2026-07-28", { code: -32601, message: "Method not found: nope is not a method of protocol version draft", data: { method: "nope", protocolVersion: "draft", reason: "unknown" } }]);
    const draft = tree.get("mcp_codegen/draft.py")!;
    expect(draft).not.toMatch(/^class /m);
    expect(draft.split("\n").length).toBeLessThan(tree.get("mcp_codegen/v2026_07_28.py")!.split("\n").length / 5);
  });

  it("prints docstrings without \\\" escapes and no Annotated nested in an Annotated", () => {
    for (const [file, text] of tree) {
      if (!file.endsWith(".py")) continue;
      expect(text.includes('\\"'), file).toBe(false);
      expect(text.includes("Annotated[Annotated["), file).toBe(false);
    }
  });
});
