// `generate --target`: the Ruby tree alone or beside the TypeScript one, each target's run leaving the
// other's files alone, `--check` over both, `--module`, and bad input (exit 2, nothing written).
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ownedPaths } from "../../../generator/emit/index.js";
import { checkTree, GENERATED_MARKER, writeTree } from "../../../generator/index.js";
import { readLock } from "../../../generator/source/lock.js";
import { copyOfGenerated, ensureSchemas, lockFile, minimalLegacySchema, readTree, runCli, tempDir } from "../../support.js";
import { ruby, rubyTree } from "./support.js";

beforeAll(ensureSchemas);

const rubyPrefix = "ruby/";

describe("writeTree and checkTree scoped to the TypeScript target", () => {
  it("replace and check every file but ruby/, which stays byte for byte", async () => {
    const out = path.join(tempDir(), "generated");
    const header = `// ${GENERATED_MARKER}\n`;
    await writeTree(out, new Map([["index.ts", header], ["old.ts", "x\n"], ["ruby/a.rb", "# a\n"], ["ruby/b/c.rb", "# c\n"]]));
    const scope = { owned: ownedPaths(["typescript"]) };
    const files = new Map([["index.ts", header], ["new.ts", "y\n"]]);
    expect((await checkTree(out, files, scope)).map((s) => `${s.path} ${s.status}`)).toEqual(["new.ts missing", "old.ts extra"]);
    await writeTree(out, files, scope);
    expect(readTree(out)).toEqual(new Map([["index.ts", header], ["new.ts", "y\n"], ["ruby/a.rb", "# a\n"], ["ruby/b/c.rb", "# c\n"]]));
    expect(await checkTree(out, files, scope)).toEqual([]);
    // Unscoped, the same files see ruby/ as extra.
    expect((await checkTree(out, files)).map((s) => s.path)).toEqual(["ruby/a.rb", "ruby/b/c.rb"]);
  });
});

describe("generate --target", () => {
  it("ruby alone writes exactly the committed generated/ruby tree into --out", async () => {
    const out = path.join(tempDir(), "rb");
    const r = await runCli(["generate", "--target", "ruby", "--out", out]);
    expect(r.status, r.stderr).toBe(0);
    expect(readTree(out)).toEqual(readTree(rubyTree));
  });

  it("typescript alone replaces the TypeScript files and keeps ruby/ as it is, and its --check ignores ruby/", async () => {
    const out = copyOfGenerated();
    const before = readTree(out);
    const stale = "ruby/mcp_codegen/runtime.rb";
    writeFileSync(path.join(out, stale), "# hand edit\n");
    writeFileSync(path.join(out, "2025-06-18", "types.ts"), "// hand edit\n");
    expect((await runCli(["generate", "--target", "typescript", "--out", out, "--check"])).status).toBe(1);
    const r = await runCli(["generate", "--target", "typescript", "--out", out]);
    expect(r.status, r.stderr).toBe(0);
    const after = readTree(out);
    expect(after.get(stale)).toBe("# hand edit\n");
    expect([...after.keys()]).toEqual([...before.keys()]);
    for (const [file, text] of before) if (!file.startsWith(rubyPrefix)) expect(after.get(file), file).toBe(text);
    expect((await runCli(["generate", "--target", "typescript", "--out", out, "--check"])).status).toBe(0);
  });

  it("with no --target, the project's configured targets (both, in this project's package.json) are covered: --check exits 1 naming a stale Ruby file, then generate restores it", async () => {
    const out = copyOfGenerated();
    const file = readdirSync(path.join(out, "ruby", "mcp_codegen")).filter((f) => f.endsWith(".rb")).sort()[0];
    const rel = `ruby/mcp_codegen/${file}`;
    const committed = readTree(out).get(rel)!;
    writeFileSync(path.join(out, rel), committed.replace("\nmodule McpCodegen\n", "\nmodule Edited\n"));
    const check = await runCli(["generate", "--out", out, "--check"]);
    expect(check.status).toBe(1);
    expect(check.stderr).toContain(`${rel} (stale)`);
    expect(check.stdout).toContain("+module McpCodegen");
    expect((await runCli(["generate", "--target", "ruby", "--out", path.join(out, "ruby"), "--check"])).status).toBe(1);
    expect((await runCli(["generate", "--out", out])).status).toBe(0);
    expect(readTree(out).get(rel)).toBe(committed);
    expect((await runCli(["generate", "--out", out, "--check"])).status).toBe(0);
  });

  it("--module MCP::Protocol: mcp/protocol.rb and mcp/protocol/, loadable beside the Ruby SDK", async () => {
    const out = path.join(tempDir(), "lib");
    const r = await runCli(["generate", "--target", "ruby", "--module", "MCP::Protocol", "--versions", "2025-06-18,2026-07-28", "--out", out]);
    expect(r.status, r.stderr).toBe(0);
    // Beside the versions' modules, one per locked extension version layered onto a selected version (`v2026_07_28_tasks.rb`).
    const lock = await readLock(lockFile);
    const layered = Object.entries(lock.extensions ?? {}).flatMap(([name, x]) =>
      Object.values(x.versions).flatMap((v) => v.core.filter((c) => ["2025-06-18", "2026-07-28"].includes(c)).map((c) => `mcp/protocol/v${c.replaceAll("-", "_")}_${name}`)),
    );
    expect([...readTree(out).keys()].sort()).toEqual(
      [
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
        "mcp/protocol/v2026_07_28.params.json",
        "mcp/protocol/v2026_07_28.rb",
        "ruby-sdk-1.3.0.patch",
        ...layered.flatMap((f) => [`${f}.params.json`, `${f}.rb`]),
      ].sort(),
    );
    const load = ruby(["-w", "-I", out, "-e", 'require "mcp"; require "mcp/protocol"; p [MCP::Protocol::VERSIONS.keys, MCP::Protocol::V2026_07_28::PREVIOUS_VERSION, MCP::Protocol::V2025_06_18.normalize_resources_subscribe({ "_meta" => { "a" => 1 } }), MCP::Server.name]']);
    expect(load.stderr).toBe("");
    expect(load.stdout).toBe('[["2025-06-18", "2026-07-28"], "2025-06-18", {:_meta=>{"a"=>1}}, "MCP::Server"]\n');
  });

  it.each([
    [["--target", "cobol"], /unknown --target "cobol"; expected: typescript, ruby/],
    [["--target", "ruby", "--module", "mcp::protocol"], /--module must be a Ruby constant path such as McpCodegen or MCP::Protocol, got "mcp::protocol"/],
    [["--target", "typescript", "--module", "X"], /--module applies to the ruby target/],
  ])("bad arguments %j exit 2 and write nothing", async (args, message) => {
    const out = path.join(tempDir(), "out");
    const r = await runCli(["generate", ...args, "--out", out]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(() => readdirSync(out)).toThrow();
  });

  it("a version labelled ruby clashes with the Ruby tree when both targets are generated, not with TypeScript alone", async () => {
    const schemas = tempDir();
    mkdirSync(path.join(schemas, "ruby"));
    writeFileSync(path.join(schemas, "ruby", "schema.json"), JSON.stringify(minimalLegacySchema()));
    const both = await runCli(["generate", "--schemas", schemas, "--out", path.join(tempDir(), "out")]);
    expect(both.status).toBe(2);
    expect(both.stderr).toContain('version label "ruby" would share its folder with the Ruby tree');
    const out = path.join(tempDir(), "out");
    expect((await runCli(["generate", "--schemas", schemas, "--target", "typescript", "--out", out])).status).toBe(0);
    expect(readTree(out).has("ruby/methods.ts")).toBe(true);
  });

  it("ruby alone refuses to replace a folder that is not a generated tree", async () => {
    const out = tempDir();
    writeFileSync(path.join(out, "mine.rb"), "# mine\n");
    const r = await runCli(["generate", "--target", "ruby", "--out", out]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/refusing to replace .*: it is not empty and is not a tree generated by mcp-codegen/);
    expect(readTree(out)).toEqual(new Map([["mine.rb", "# mine\n"]]));
  });
});
