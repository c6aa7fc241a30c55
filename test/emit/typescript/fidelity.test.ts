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

const lock = await readLock(lockFile);
// A version pinned without schema.ts (a bump from a folder of schema.json files) has no fidelity oracle:
// the files below cover the versions that have one and say which they left out.
const locked = Object.keys(lock.versions).sort();
const labels = locked.filter((l) => lock.versions[l].schemaTs !== undefined);
const leftOut = locked.filter((l) => !labels.includes(l));
if (leftOut.length > 0) console.log(`fidelity: left out ${leftOut.join(", ")}: pinned without schema.ts, no oracle`);

describe("the versions with a fidelity oracle", () => {
  it("are every locked version whose schema.ts the lock pins, and at least one", () => {
    expect(labels.length).toBeGreaterThan(0);
    for (const l of leftOut) expect(lock.versions[l].schemaTs, l).toBeUndefined();
  });
});

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
