// Faithful models (issue 29): what a round trip writes, what constructors take, and how the tree is
// printed: integers stay integers, a plain dump is the wire (unset members left out, its own model
// accepts it), field names and wire names both construct, identical versions re-export, docstrings
// carry no `\"` escapes and no Annotated is nested in another. The corpus-wide round trip is the
// differential test's (batch.py: every accepted instance dumps back to the same JSON text).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readTree, root } from "../../support.js";
import { pythonJson, pythonTree } from "./support.js";

const tree = readTree(pythonTree);
// The lock is the oracle of which versions are identical: the first label (in label order) whose schema.json
// has the bytes of an earlier label's, and that label.
const lock = JSON.parse(readFileSync(path.join(root, "schemas", "lock.json"), "utf8")) as { versions: Record<string, { sha256: string }> };
const labels = Object.keys(lock.versions).sort();
const moduleOf = (label: string) => (/^\d/.test(label) ? `v${label.replace(/-/g, "_")}` : label.replace(/-/g, "_"));
const identical = ((): { label: string; owner: string } | null => {
  for (const [i, label] of labels.entries()) {
    const owner = labels.slice(0, i).find((l) => lock.versions[l].sha256 === lock.versions[label].sha256);
    if (owner !== undefined) return { label, owner };
  }
  return null;
})();

describe("faithful Python models", () => {
  const facts = pythonJson<Record<string, unknown>>("models.py", identical === null ? { module: null, owner: null } : { module: moduleOf(identical.label), owner: moduleOf(identical.owner) });

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

  it("re-exports the definitions of a version whose schema the lock pins with the same bytes as an earlier one's, its own constants and gate kept (none such: every module defines its own)", () => {
    if (identical === null) {
      for (const label of labels) expect(tree.get(`mcp_codegen/${moduleOf(label)}.py`), label).toMatch(/^class /m);
      return;
    }
    const { label, owner } = identical;
    expect([facts.reexported, facts.reexported_definitions]).toEqual([true, true]);
    const previous = labels[labels.indexOf(label) - 1] ?? null;
    expect(facts.own_version).toEqual([label, previous, { code: -32601, message: `Method not found: nope is not a method of protocol version ${label}`, data: { method: "nope", protocolVersion: label, reason: "unknown" } }]);
    const mine = tree.get(`mcp_codegen/${moduleOf(label)}.py`)!;
    expect(mine).not.toMatch(/^class /m);
    expect(mine.split("\n").length).toBeLessThan(tree.get(`mcp_codegen/${moduleOf(owner)}.py`)!.split("\n").length / 5);
  });

  it("prints docstrings without \\\" escapes and no Annotated nested in an Annotated", () => {
    for (const [file, text] of tree) {
      if (!file.endsWith(".py")) continue;
      // Docstrings only: code may well need a backslash before a quote (http.py's `"\\"`).
      const docstrings = text.match(/"""[\s\S]*?"""/g) ?? [];
      expect(docstrings.filter((d) => d.includes('\\"')), file).toEqual([]);
      expect(text.includes("Annotated[Annotated["), file).toBe(false);
    }
  });
});
