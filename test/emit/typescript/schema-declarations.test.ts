// What a consumer's compiler reads of the generated schemas: the declarations tsc emits for each
// version's schemas.ts name every schema by its type, never by zod's inferred type of the expression.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { generatedDir } from "../../support.js";

/** Versions of the committed tree that declare their own schemas (not a re-export of another version's). */
const versions = readdirSync(generatedDir, { withFileTypes: true })
  .filter((e) => e.isDirectory() && existsSync(path.join(generatedDir, e.name, "schemas.ts")))
  .map((e) => e.name)
  .filter((label) => /^export const /m.test(readFileSync(path.join(generatedDir, label, "schemas.ts"), "utf8")))
  .sort();

/** The .d.ts tsc emits for each version's schemas.ts (one program, declarations only, in memory). */
function declarations(): Map<string, string> {
  const out = new Map<string, string>();
  const files = versions.map((v) => path.join(generatedDir, v, "schemas.ts"));
  const program = ts.createProgram(files, {
    strict: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    declaration: true,
    emitDeclarationOnly: true,
    types: [],
  });
  for (const file of files) {
    program.emit(program.getSourceFile(file), (name, text) => {
      if (name.endsWith("schemas.d.ts")) out.set(path.basename(path.dirname(file)), text);
    });
  }
  return out;
}

describe("the declarations of generated schemas", () => {
  it("declare each exported schema as the z.ZodType<T.X> its source gives it, carry no inferred zod type, and are smaller than the source", () => {
    expect(versions.length).toBeGreaterThan(0);
    const emitted = declarations();
    for (const label of versions) {
      const source = readFileSync(path.join(generatedDir, label, "schemas.ts"), "utf8");
      const dts = emitted.get(label)!;
      expect(dts, label).toBeDefined();
      // Each schema's declared type, as the source gives it (`: z.ZodType<T.Y> = …` or `= XSchema_ as unknown as z.ZodType<T.Y>`).
      const annotated = new Map(
        [...source.matchAll(/^export const (\w+)(?:: (z\.ZodType<T\.\w+>) = | = \w+_ as unknown as (z\.ZodType<T\.\w+>);$)/gm)].map((m) => [m[1], m[2] ?? m[3]]),
      );
      const exported = [...source.matchAll(/^export const (\w+)/gm)].map((m) => m[1]).filter((n) => /Schema$/.test(n));
      // Not vacuous: the source has schemas, and the pattern read their declared types.
      expect(exported.length, label).toBeGreaterThan(0);
      expect(annotated.size, label).toBe(exported.length);
      expect(exported.filter((n) => !annotated.has(n)), label).toEqual([]);
      for (const [name, type] of annotated) expect(dts, `${label} ${name}`).toContain(`export declare const ${name}: ${type};\n`);
      // No schema's inferred object type survives into the declarations (only the per-method tables may hold inline params).
      const beforeTables = dts.slice(0, dts.indexOf("export declare const requestParamsSchemas"));
      expect(beforeTables, label).not.toMatch(/ZodObject|ZodUnion|ZodDiscriminatedUnion|ZodIntersection/);
      expect(dts.length, label).toBeLessThan(source.length);
    }
  }, 120_000);
});
