// Template state belongs to the run (a Templates object per target and run), so every target uses the
// run's template cache, also generated alone (`--target ruby` once compiled its header before the
// cache was set, and never used it).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { targets } from "../../generator/emit/targets.js";
import { isReviewReport } from "../../generator/writer.js";
import { ensureSchemas, generatedDir, readTree, runCli, tempDir } from "../support.js";

beforeAll(ensureSchemas);

describe("the template cache", () => {
  it.each(targets.names)("is used by %s generated alone, and a warm run gives the same tree", async (name) => {
    const target = targets.get(name)!;
    const cache = path.join(tempDir(), "cache");
    const cold = path.join(tempDir(), "cold");
    const r = await runCli(["generate", "--target", name, "--out", cold], { MCP_CODEGEN_CACHE_DIR: cache });
    expect(r.status, r.stderr).toBe(0);
    const entries = readdirSync(path.join(cache, "handlebars"));
    expect(entries.length).toBeGreaterThan(0);
    // Each entry is a precompiled Handlebars template.
    for (const e of entries) expect(readFileSync(path.join(cache, "handlebars", e), "utf8")).toMatch(/"compiler":\[/);
    const warm = path.join(tempDir(), "warm");
    expect((await runCli(["generate", "--target", name, "--out", warm], { MCP_CODEGEN_CACHE_DIR: cache })).status).toBe(0);
    expect(readTree(warm)).toEqual(readTree(cold));
    // Alone, the target's tree is its folder of the committed tree.
    const prefix = target.folder === "" ? "" : `${target.folder}/`;
    const others = targets.targets.filter((t) => t !== target && t.folder !== "").map((t) => `${t.folder}/`);
    // A bump's review reports are kept beside the tree, never regenerated.
    const committed = [...readTree(generatedDir)].filter(([k]) => !isReviewReport(k) && k.startsWith(prefix) && !others.some((o) => k.startsWith(o))).map(([k, v]) => [k.slice(prefix.length), v] as const);
    expect([...readTree(cold)]).toEqual(committed);
  });
});
