// The usability fixture (usability.ts) compiles under strict, every @ts-expect-error used; and in
// every version of the lock, every `_meta` property of every generated type accepts any extra key
// (its type has a string index signature), checked with the TypeScript checker.
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { emitTypeDeclarations } from "../../../generator/emit/typescript/declarations.js";
import { buildModel } from "../../../generator/pipeline.js";
import { readLock } from "../../../generator/source/lock.js";
import { ensureSchemas, generatedDir, lockFile, modelOptions, root, schemasDir, tempDir } from "../../support.js";
import { OPTIONS } from "./fidelity.js";

const diagnostics = (program: ts.Program) =>
  ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? `${path.relative(root, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}` : "";
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
  });

it("the usability fixture compiles, every @ts-expect-error included", () => {
  const program = ts.createProgram([path.join(root, "test", "emit", "typescript", "usability.ts")], OPTIONS);
  expect(diagnostics(program)).toEqual([]);
});

/**
 * Every `_meta` property reachable from the exported types of a types.ts (through properties, array
 * elements, index signatures, unions and intersections), as `Type.path: type text`, where the
 * property's type (without undefined) has no string index signature.
 */
function closedMetas(file: string): { closed: string[]; seen: number } {
  const program = ts.createProgram([file], OPTIONS);
  const errors = diagnostics(program);
  if (errors.length > 0) throw new Error(errors.join("\n"));
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file)!;
  const closed: string[] = [];
  let seen = 0;
  const visited = new Set<ts.Type>();
  const visit = (type: ts.Type, where: string, depth: number) => {
    if (visited.has(type) || depth > 12) return;
    visited.add(type);
    if (type.isUnionOrIntersection()) return type.types.forEach((t) => visit(t, where, depth + 1));
    if (checker.isArrayType(type)) return visit(checker.getTypeArguments(type as ts.TypeReference)[0], `${where}[]`, depth + 1);
    if (!(type.flags & ts.TypeFlags.Object)) return;
    for (const info of checker.getIndexInfosOfType(type)) visit(info.type, `${where}[key]`, depth + 1);
    for (const prop of checker.getPropertiesOfType(type)) {
      const propType = checker.getNonNullableType(checker.getTypeOfSymbol(prop));
      const at = `${where}.${prop.getName()}`;
      if (prop.getName() === "_meta") {
        seen++;
        const parts = propType.isUnion() ? propType.types : [propType];
        for (const part of parts) if (checker.getIndexInfoOfType(part, ts.IndexKind.String) === undefined) closed.push(`${at}: ${checker.typeToString(part)}`);
      }
      visit(propType, at, depth + 1);
    }
  };
  const moduleSymbol = checker.getSymbolAtLocation(source)!;
  for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
    if (symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias)) visit(checker.getDeclaredTypeOfSymbol(symbol), symbol.getName(), 0);
  }
  return { closed, seen };
}

describe.each(Object.keys((await readLock(lockFile)).versions).sort())("generated/%s/types.ts", (label) => {
  it("every _meta object accepts extra keys", () => {
    const { closed, seen } = closedMetas(path.join(generatedDir, label, "types.ts"));
    expect(seen).toBeGreaterThan(0);
    expect(closed).toEqual([]);
  });
});

describe("a version given as JSON only (no schema.ts): the fallback rule", () => {
  it("compiles and opens every _meta object, in every version of the lock", async () => {
    await ensureSchemas();
    const dir = tempDir();
    const labels = Object.keys((await readLock(lockFile)).versions).sort();
    for (const label of labels) {
      mkdirSync(path.join(dir, label));
      copyFileSync(path.join(schemasDir, label, "schema.json"), path.join(dir, label, "schema.json"));
    }
    const model = buildModel({ ...modelOptions, schemasDir: dir });
    for (const version of model.versions) {
      expect(version.specTypes ?? null).toBeNull();
      const file = path.join(dir, version.label, "types.ts");
      writeFileSync(file, emitTypeDeclarations(version) + "\n");
      const { closed, seen } = closedMetas(file);
      expect(seen, version.label).toBeGreaterThan(0);
      expect(closed, version.label).toEqual([]);
    }
  });
});
