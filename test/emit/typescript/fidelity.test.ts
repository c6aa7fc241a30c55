// Issues 13 and 17: the generated types agree with the spec's own TypeScript, definition by
// definition, strictly. For every version of the lock, every definition of its schema.json:
// generated/<version>/types.ts and the spec's schema.ts (committed in schemas/<version>/, checked against the lock) are mutually
// assignable. Nothing is excused: a schema.json defect is fixed by a reviewed patch (schemas/patches/).
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readLock } from "../../../generator/source/lock.js";
import { ensureSchemas, generatedDir, lockFile, schemasDir } from "../../support.js";
import { fidelity, type FidelityResult } from "./fidelity.js";

const labels = Object.keys((await readLock(lockFile)).versions).sort();

/** The definitions of a spec schema.json, by name, whatever its dialect. */
function specDefinitions(label: string): string[] {
  const schema = JSON.parse(readFileSync(path.join(schemasDir, label, "schema.json"), "utf8")) as Record<string, Record<string, unknown>>;
  return Object.keys(schema.$defs ?? schema.definitions).sort();
}

beforeAll(async () => {
  await ensureSchemas();
});

describe.each(labels)("types.ts of %s against the spec's schema.ts", (label) => {
  const specTs = path.join(schemasDir, label, "schema.ts");
  let names: string[];
  let result: FidelityResult;
  beforeAll(() => {
    expect(existsSync(specTs), specTs).toBe(true);
    names = specDefinitions(label);
    result = fidelity(path.join(generatedDir, label, "types.ts"), specTs, names);
  });

  it("both files compile in one program", () => {
    expect(result.diagnostics).toEqual([]);
  });

  it("every definition is mutually assignable with the spec's, with no exception", () => {
    expect(names.length).toBeGreaterThan(0);
    const unequal = names.filter((n) => result.relations.get(n) !== "equal").map((n) => `${n}: ${result.relations.get(n)}`);
    expect(unequal).toEqual([]);
  });

  it("MATRIX.md reports what this test proves: every definition equal", () => {
    const matrix = readFileSync(path.join(generatedDir, "MATRIX.md"), "utf8");
    const row = matrix.split("\n").find((l) => l.startsWith(`| ${label} |`));
    expect(row).toContain(`| ${names.length} equal |`);
  });
});
