// The fidelity oracle: each definition of a generated types.ts against the type of the same name in
// the spec's own schema.ts (the TypeScript its schema.json is generated from), compared with the
// TypeScript checker: is ours assignable to the spec's, and the spec's to ours? Both files as they
// are, in one program: no definition is replaced or excused.
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

export type Relation = "equal" | "spec-to-ours" | "ours-to-spec" | "neither" | "missing-in-spec" | "missing-in-ours";

/** Strict options for the in-memory programs of the type tests: ES2022 lib, no ambient @types. */
export const OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ["lib.es2022.d.ts"],
  types: [],
};

/** The declared type of every exported interface or type alias of a file, by name. */
function exportedTypes(checker: ts.TypeChecker, file: ts.SourceFile): Map<string, ts.Type> {
  const out = new Map<string, ts.Type>();
  const moduleSymbol = checker.getSymbolAtLocation(file);
  if (moduleSymbol === undefined) throw new Error(`${file.fileName} is not a module`);
  for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
    const s = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    if (s.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias)) out.set(symbol.getName(), checker.getDeclaredTypeOfSymbol(s));
  }
  return out;
}

export interface FidelityResult {
  /** Per definition: how ours relates to the spec's. */
  relations: Map<string, Relation>;
  /** The program's diagnostics: both files must compile. */
  diagnostics: string[];
}

/** Compare ours (`oursFile`) with the spec's `specFile` for each name in `names`, in one program. */
function compare(oursFile: string, specFile: string, names: readonly string[]): FidelityResult {
  const ours = path.resolve(oursFile);
  const spec = path.resolve(specFile);
  const program = ts.createProgram({ rootNames: [ours, spec], options: OPTIONS });
  const checker = program.getTypeChecker();
  const diagnostics = ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
  const sourceFile = (f: string) => {
    const sf = program.getSourceFile(f);
    if (sf === undefined) throw new Error(`not in the program: ${f}`);
    return sf;
  };
  const specTypes = exportedTypes(checker, sourceFile(spec));
  const oursTypes = exportedTypes(checker, sourceFile(ours));
  const relations = new Map<string, Relation>();
  for (const name of names) {
    const a = oursTypes.get(name);
    const b = specTypes.get(name);
    if (a === undefined) relations.set(name, "missing-in-ours");
    else if (b === undefined) relations.set(name, "missing-in-spec");
    else {
      const toSpec = checker.isTypeAssignableTo(a, b);
      const toOurs = checker.isTypeAssignableTo(b, a);
      relations.set(name, toSpec && toOurs ? "equal" : toOurs ? "spec-to-ours" : toSpec ? "ours-to-spec" : "neither");
    }
  }
  return { relations, diagnostics };
}

/**
 * The file that declares what a types.ts exports: itself, or, for a version that re-exports another
 * version's types (`export * from "../<label>/types.js"` and nothing else), the file it re-exports.
 */
export function declaringFile(file: string): string {
  const text = readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const reexports = source.statements.filter((s): s is ts.ExportDeclaration => ts.isExportDeclaration(s) && s.exportClause === undefined && s.moduleSpecifier !== undefined);
  if (reexports.length !== 1 || source.statements.length !== 1) return file;
  const specifier = (reexports[0].moduleSpecifier as ts.StringLiteral).text;
  return declaringFile(path.resolve(path.dirname(file), specifier.replace(/\.js$/, ".ts")));
}

/** Compare a generated types.ts with the spec's schema.ts, for `names`. */
export function fidelity(typesFile: string, specFile: string, names: readonly string[]): FidelityResult {
  return compare(declaringFile(typesFile), specFile, names);
}
