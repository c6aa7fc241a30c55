// The Ruby target's option comes from the target (--ruby-module), and its first spelling (--module)
// is a deprecated alias of it: the same tree, and never both at once.
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureSchemas, readTree, runCli, tempDir } from "../../support.js";

beforeAll(ensureSchemas);

describe("--ruby-module", () => {
  it("names the namespace as its deprecated alias --module does", async () => {
    const trees = [];
    for (const flag of ["--ruby-module", "--module"]) {
      const out = path.join(tempDir(), "out");
      const r = await runCli(["generate", "--target", "ruby", flag, "MCP::Protocol", "--versions", "2025-06-18", "--out", out, "--no-cache"]);
      expect(r.status, r.stderr).toBe(0);
      trees.push(readTree(out));
    }
    expect([...trees[0].keys()].sort()).toEqual([
      "ADOPTING.md",
      "mcp/protocol.rb",
      "mcp/protocol/gate.rb",
      "mcp/protocol/methods.rb",
      "mcp/protocol/projection.rb",
      "mcp/protocol/projections.rb",
      "mcp/protocol/protocol.rb",
      "mcp/protocol/runtime.rb",
      "mcp/protocol/v2025_06_18.params.json",
      "mcp/protocol/v2025_06_18.rb",
      "ruby-sdk-1.3.0.patch",
    ]);
    // The header names the command by the flag's own name, whichever spelling made the tree.
    expect(trees[1].get("mcp/protocol.rb")).toContain("`mcp-codegen generate --target ruby --ruby-module MCP::Protocol --versions 2025-06-18 --out DIR`");
    expect(trees[1]).toEqual(trees[0]);
  });

  it("is refused with its alias, and named as given when its value is not a constant path", async () => {
    const both = await runCli(["generate", "--target", "ruby", "--ruby-module", "A", "--module", "B", "--out", path.join(tempDir(), "out")]);
    expect(both.status).toBe(2);
    expect(both.stderr).toContain("--ruby-module is given twice (--ruby-module, --module)");
    const bad = await runCli(["generate", "--target", "ruby", "--ruby-module", "a::b", "--out", path.join(tempDir(), "out")]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--ruby-module must be a Ruby constant path such as McpCodegen or MCP::Protocol, got "a::b"');
  });
});
