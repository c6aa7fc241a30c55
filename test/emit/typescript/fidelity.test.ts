// Issue 13: the generated types agree with the spec's own TypeScript, definition by definition.
// For every version of the lock, every definition of its schema.json: generated/<version>/types.ts
// and the spec's schema.ts (read from MCP_SPEC_DIR) are mutually assignable, except the reviewed
// exceptions in schemas/type-fidelity-exceptions.json.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildModel } from "../../../generator/pipeline.js";
import type { ProtocolModel } from "../../../generator/model/types.js";
import { readLock } from "../../../generator/source/lock.js";
import { ensureSchemas, generatedDir, lockFile, modelOptions, schemasDir } from "../../support.js";
import { fidelity, type FidelityResult } from "./fidelity.js";

type Json = unknown;
const exceptions = (JSON.parse(readFileSync(modelOptions.typeExceptionsFile, "utf8")) as { versions: Record<string, Record<string, string>> }).versions;
const labels = Object.keys((await readLock(lockFile)).versions).sort();

/** The definitions of a spec schema.json, by name, whatever its dialect. */
function specDefinitions(label: string): Record<string, Json> {
  const schema = JSON.parse(readFileSync(path.join(schemasDir, label, "schema.json"), "utf8")) as Record<string, Record<string, Json>>;
  return schema.$defs ?? schema.definitions;
}

/** Definitions used as a `_meta` value anywhere in a schema (by `$ref`, also inside allOf/anyOf/oneOf). */
function metaDefinitions(defs: Record<string, Json>): Set<string> {
  const out = new Set<string>();
  const refs = (s: Json) => {
    if (typeof s !== "object" || s === null) return;
    const o = s as Record<string, Json>;
    if (typeof o.$ref === "string") out.add(o.$ref.split("/").pop()!);
    for (const k of ["allOf", "anyOf", "oneOf"]) if (Array.isArray(o[k])) (o[k] as Json[]).forEach(refs);
  };
  const walk = (s: Json) => {
    if (Array.isArray(s)) return s.forEach(walk);
    if (typeof s !== "object" || s === null) return;
    const o = s as Record<string, Json>;
    const props = o.properties as Record<string, Json> | undefined;
    if (props !== undefined && typeof props === "object" && props._meta !== undefined) refs(props._meta);
    for (const v of Object.values(o)) walk(v);
  };
  walk(defs);
  return out;
}

let model: ProtocolModel;
beforeAll(async () => {
  await ensureSchemas();
  model = buildModel({ ...modelOptions, lock: await readLock(lockFile) });
});

describe.each(labels)("types.ts of %s against the spec's schema.ts", (label) => {
  const specTs = path.join(schemasDir, label, "schema.ts");
  const listed = exceptions[label] ?? {};
  const names = Object.keys(specDefinitions(label)).sort();
  let result: FidelityResult;
  beforeAll(() => {
    expect(existsSync(specTs), specTs).toBe(true);
    result = fidelity(path.join(generatedDir, label, "types.ts"), specTs, names, new Set(Object.keys(listed)));
  });

  it("both files compile in one program", () => {
    expect(result.diagnostics).toEqual([]);
  });

  it("every definition is equal to the spec's, given the listed exceptions", () => {
    const unequal = names.filter((n) => !(n in listed) && result.givenListed.get(n) !== "equal").map((n) => `${n}: ${result.givenListed.get(n)}`);
    expect(unequal).toEqual([]);
  });

  it("every definition that is not equal as it stands is listed or uses a listed one", () => {
    const unexplained = names.filter((n) => result.strict.get(n) !== "equal" && !result.dependsOnListed.has(n)).map((n) => `${n}: ${result.strict.get(n)}`);
    expect(unexplained).toEqual([]);
  });

  it("every listed exception is a definition that differs, with a reason", () => {
    for (const [name, reason] of Object.entries(listed)) {
      expect(names, name).toContain(name);
      expect(result.strict.get(name), name).not.toBe("equal");
      expect(reason.trim().length, name).toBeGreaterThan(20);
    }
  });

  it("MATRIX.md reports what this test proves: equal / listed", () => {
    const matrix = readFileSync(path.join(generatedDir, "MATRIX.md"), "utf8");
    const row = matrix.split("\n").find((l) => l.startsWith(`| ${label} |`));
    const count = Object.keys(listed).length;
    const listedNames = Object.keys(listed).sort().map((n) => `\`${n}\``).join(", ");
    expect(row).toContain(`| ${names.length - count} equal / ${count} listed${count === 0 ? "" : ` (${listedNames})`} |`);
  });

  it("lists at most 5% of the definitions, and no _meta object, request params or result", () => {
    expect(Object.keys(listed).length).toBeLessThanOrEqual(names.length * 0.05);
    const version = model.versions.find((v) => v.label === label)!;
    const guarded = metaDefinitions(specDefinitions(label));
    for (const n of names) if (/MetaObject$/.test(n)) guarded.add(n);
    // Params are their own definition or inline in the message's: both are guarded.
    for (const r of version.requests) {
      guarded.add(r.definition);
      if (r.params?.definition) guarded.add(r.params.definition);
      for (const res of r.results) guarded.add(res);
    }
    for (const n of version.notifications) {
      guarded.add(n.definition);
      if (n.params?.definition) guarded.add(n.params.definition);
    }
    expect(Object.keys(listed).filter((n) => guarded.has(n))).toEqual([]);
  });
});

it("the exceptions file names only versions of the lock", () => {
  expect(Object.keys(exceptions).filter((v) => !labels.includes(v))).toEqual([]);
});
