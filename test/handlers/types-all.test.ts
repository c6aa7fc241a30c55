// Type tests over every method of every locked version: each handler takes its own request's params and
// may return its own results. "Own" comes from the model (the catalogue built from the lock's schemas:
// each request's definition and result definitions), not from the generated handler types, which are
// what is checked. Per locked version a table file is written at test time and compiled under strict
// with the generated tree and the checks of ./handler-checks.ts, so whatever labels the lock has (a new
// one, a re-pinned one of another era) are checked alike. A table naming a method no side handles must
// fail to compile, for every version: the check bites.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { VersionModel } from "../../generator/model/types.js";
import { definitionNaming } from "../../generator/emit/typescript/naming.js";
import { buildModel } from "../../generator/pipeline.js";
import { readLock } from "../../generator/source/lock.js";
import { ensureSchemas, generatedDir, lockFile, modelOptions, root } from "../support.js";
import { strictErrors } from "../emit/typescript/corpus.js";

const tmp = path.join(root, ".tmp", `types-all-${process.pid}`);
const checks = path.join(root, "test", "handlers", "handler-checks.ts");
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let versions: VersionModel[] = [];
let errors = new Map<string, string[]>();
const file = (label: string, kind: "table" | "bites") => path.join(tmp, `${kind}-${label.replace(/[^A-Za-z0-9_-]/g, "_")}.ts`);

/** A table row `method: [request type, results];` with the type names of the version's types module. */
function row(v: VersionModel, method: string, r: { definition: string; results: string[] }): string {
  const name = (definition: string) => `V.${definitionNaming(v.ir).of(definition).type}`;
  return `  ${JSON.stringify(method)}: [${name(r.definition)}, ${r.results.map(name).join(" | ")}];`;
}

/** The version's table (one row per request of its catalogue, plus `extra`) and the check over its handler types. */
function source(v: VersionModel, extra: string[] = []): string {
  const from = (target: string) => JSON.stringify(path.relative(tmp, target).split(path.sep).join("/"));
  return [
    `import type * as V from ${from(path.join(generatedDir, v.label, "index.js"))};`,
    `import type { Assert, Passes } from ${from(checks.replace(/\.ts$/, ".js"))};`,
    "interface Expected {",
    ...v.requests.map((r) => row(v, r.method, r)),
    ...extra,
    "}",
    "export type Checked = Assert<Passes<Expected, { ServerHandlers: V.ServerHandlers; ClientHandlers: V.ClientHandlers }>>;",
    "",
  ].join("\n");
}

beforeAll(async () => {
  await ensureSchemas();
  const lock = await readLock(lockFile);
  versions = buildModel({ ...modelOptions, lock, versions: Object.keys(lock.versions) }).versions;
  mkdirSync(tmp, { recursive: true });
  for (const v of versions) {
    writeFileSync(file(v.label, "table"), source(v));
    // A method no side handles, with the types of the version's first request.
    writeFileSync(file(v.label, "bites"), source(v, [row(v, "mcp-codegen/no-such-method", v.requests[0])]));
  }
  errors = strictErrors([...versions.flatMap((v) => [file(v.label, "table"), file(v.label, "bites")]), checks]);
}, 300_000);

it("checks every locked version", async () => {
  const lock = await readLock(lockFile);
  expect(versions.map((v) => v.label).sort()).toEqual(Object.keys(lock.versions).sort());
  expect(versions.every((v) => v.requests.length > 0)).toBe(true);
});

it("holds on the checks' own synthetic cases, where each check must fail", () => {
  expect(errors.get(checks) ?? []).toEqual([]);
});

describe("every locked version", () => {
  it("every handler takes its own request's params and may return its own results", () => {
    for (const v of versions) expect(errors.get(file(v.label, "table")) ?? [], v.label).toEqual([]);
  });

  it("a table naming a method no side handles does not compile", () => {
    for (const v of versions) {
      const found = errors.get(file(v.label, "bites")) ?? [];
      expect(found.length, v.label).toBe(1);
      expect(found[0], v.label).toMatch(/^TS2344 Type 'false' does not satisfy the constraint 'true'/);
    }
  });

  it("no other file of the program has an error", () => {
    const own = new Set([...versions.flatMap((v) => [file(v.label, "table"), file(v.label, "bites")]), checks]);
    expect([...errors].filter(([f]) => !own.has(f))).toEqual([]);
  });
});
