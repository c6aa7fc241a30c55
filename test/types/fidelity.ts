// The fidelity oracle: each definition of generated/<version>/types.ts against the type of the same
// name in the spec's own schema.ts (the TypeScript its schema.json is generated from), compared with
// the TypeScript checker in one program per version: is ours assignable to the spec's, and the
// spec's to ours?
import path from "node:path";
import ts from "typescript";

export type Relation = "equal" | "spec-to-ours" | "ours-to-spec" | "neither" | "missing-in-spec" | "missing-in-ours";

export interface FidelityReport {
  /** Relation per definition name, for the names given. */
  relations: Map<string, Relation>;
}

const OPTIONS: ts.CompilerOptions = {
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

/**
 * Compare `ours` (a generated types.ts) with `spec` (the spec's schema.ts) for each name in `names`.
 * Both files must compile on their own (their diagnostics are returned for the caller to assert on).
 */
export function compareTypes(ours: string, spec: string, names: readonly string[]): FidelityReport & { diagnostics: string[] } {
  const program = ts.createProgram({ rootNames: [path.resolve(ours), path.resolve(spec)], options: OPTIONS });
  const checker = program.getTypeChecker();
  const diagnostics = ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
  const file = (f: string) => {
    const sf = program.getSourceFile(path.resolve(f));
    if (sf === undefined) throw new Error(`not in the program: ${f}`);
    return sf;
  };
  const oursTypes = exportedTypes(checker, file(ours));
  const specTypes = exportedTypes(checker, file(spec));
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
