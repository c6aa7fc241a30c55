// The reports stage (generator/reports/): MATRIX.md and DIFFS/ are their own product, printed from the
// model beside whichever targets run, never by a target; one target generated alone into its own folder
// gets none (the output folder is then that target's tree).
import { describe, expect, it, beforeAll } from "vitest";
import { emitTree } from "../../generator/emit/index.js";
import { targets } from "../../generator/emit/targets.js";
import { buildModel } from "../../generator/pipeline.js";
import { emitReports, isReportPath } from "../../generator/reports/index.js";
import { readLock } from "../../generator/source/lock.js";
import { ensureSchemas, generatedDir, lockFile, modelOptions, readTree } from "../support.js";
import { catalogueJsonTarget } from "../emit/fixtures/catalogue-json/index.js";

beforeAll(ensureSchemas);

const model = async () => buildModel({ ...modelOptions, lock: await readLock(lockFile) });
const reportsOf = (files: Map<string, string>) => new Map([...files].filter(([p]) => isReportPath(p)));

describe("the reports stage", () => {
  it("prints MATRIX.md and one DIFFS file per consecutive pair of locked versions and per extension module, equal to the committed ones", async () => {
    const m = await model();
    const reports = emitReports(m);
    const committed = reportsOf(readTree(generatedDir));
    // The review reports `bump` writes are kept by regeneration, not printed by the stage.
    for (const p of committed.keys()) if (p.includes("@")) committed.delete(p);
    expect([...reports.keys()].sort()).toEqual([...committed.keys()].sort());
    expect(reports.has("MATRIX.md")).toBe(true);
    expect([...reports.keys()].filter((p) => p.startsWith("DIFFS/"))).toHaveLength(m.versions.length - 1 + (m.extensions ?? []).length);
    for (const [p, text] of reports) expect(text, p).toBe(committed.get(p));
  });

  it("no target prints a report: each shipped target's own files hold no MATRIX.md or DIFFS/", async () => {
    const m = await model();
    for (const t of targets.targets) {
      const files = await t.emit(m, { options: Object.fromEntries(t.options.map((o) => [o.flag, o.default])) });
      expect([...files.keys()].filter(isReportPath), t.name).toEqual([]);
    }
  });

  it("come beside whatever targets run at the root of the output (Ruby and Python without TypeScript, a throwaway target with Ruby), the same bytes", async () => {
    const m = await model();
    const expected = emitReports(m);
    const ruby = await emitTree(m, { targets: ["ruby", "python"] });
    expect(reportsOf(ruby)).toEqual(expected);
    const registry = targets.with(catalogueJsonTarget());
    const withFixture = await emitTree(m, { targets: ["catalogue-json", "ruby"], registry });
    expect(reportsOf(withFixture)).toEqual(expected);
    // The paths are the reports stage's in such a run, whichever target is the root one.
    expect(registry.owned(registry.select(["ruby", "python"]))("MATRIX.md")).toBe(true);
  });

  it("a target alone in its own folder gets none: its output folder is its tree", async () => {
    const m = await model();
    const alone = await emitTree(m, { targets: ["ruby"] });
    expect([...alone.keys()].filter(isReportPath)).toEqual([]);
  });
});
