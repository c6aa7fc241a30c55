// The fidelity oracle: each definition of a generated types.ts against the type of the same name in
// the spec's own schema.ts (the TypeScript its schema.json is generated from), compared with the
// TypeScript checker: is ours assignable to the spec's, and the spec's to ours?
//
// Two programs per version. In the first, both files as they are. In the second, the definitions
// listed as exceptions are replaced in ours by the spec's own (`export type X = Spec.X`), so every
// other definition is compared as printed, given its listed dependencies.
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

/**
 * Compare each variant of ours (file path → source text, the files need not exist) with the spec's
 * `specFile` for each name in `names`, all in one program. Returns the relations per variant, and
 * the program's diagnostics (every file must compile).
 */
function compare(variants: ReadonlyMap<string, string>, specFile: string, names: readonly string[]): { relations: Map<string, Map<string, Relation>>; diagnostics: string[] } {
  const spec = path.resolve(specFile);
  const virtual = new Map([...variants].map(([f, text]) => [path.resolve(f), text]));
  const host = ts.createCompilerHost(OPTIONS);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (fileName) => virtual.has(path.resolve(fileName)) || fileExists(fileName);
  host.getSourceFile = (fileName, language, onError, shouldCreate) => {
    const text = virtual.get(path.resolve(fileName));
    return text !== undefined ? ts.createSourceFile(fileName, text, language) : getSourceFile(fileName, language, onError, shouldCreate);
  };
  const program = ts.createProgram({ rootNames: [...virtual.keys(), spec], options: OPTIONS, host });
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
  const relations = new Map<string, Map<string, Relation>>();
  for (const file of virtual.keys()) {
    const oursTypes = exportedTypes(checker, sourceFile(file));
    const rel = new Map<string, Relation>();
    for (const name of names) {
      const a = oursTypes.get(name);
      const b = specTypes.get(name);
      if (a === undefined) rel.set(name, "missing-in-ours");
      else if (b === undefined) rel.set(name, "missing-in-spec");
      else {
        const toSpec = checker.isTypeAssignableTo(a, b);
        const toOurs = checker.isTypeAssignableTo(b, a);
        rel.set(name, toSpec && toOurs ? "equal" : toOurs ? "spec-to-ours" : toSpec ? "ours-to-spec" : "neither");
      }
    }
    relations.set(file, rel);
  }
  return { relations, diagnostics };
}

/** The top-level interface and type alias declarations of a source text, by name. */
function declarations(file: string, text: string): Map<string, ts.InterfaceDeclaration | ts.TypeAliasDeclaration> {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out = new Map<string, ts.InterfaceDeclaration | ts.TypeAliasDeclaration>();
  for (const s of source.statements) if (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) out.set(s.name.text, s);
  return out;
}

/** `text` with each declaration named in `names` replaced by an alias of the spec's type of that name. */
export function substitute(file: string, text: string, specFile: string, names: ReadonlySet<string>): string {
  const specModule = path.resolve(specFile).replace(/\.ts$/, ".js");
  const spans = [...declarations(file, text)]
    .filter(([name]) => names.has(name))
    .map(([name, d]) => ({ start: d.getStart(), end: d.getEnd(), text: `export type ${name} = import(${JSON.stringify(specModule)}).${name};` }))
    .sort((a, b) => b.start - a.start);
  let out = text;
  for (const s of spans) out = out.slice(0, s.start) + s.text + out.slice(s.end);
  return out;
}

/** For each declaration of a types.ts, the declarations of the same file it names (directly). */
export function references(file: string, text: string): Map<string, Set<string>> {
  const decls = declarations(file, text);
  const out = new Map<string, Set<string>>();
  for (const [name, d] of decls) {
    const refs = new Set<string>();
    const visit = (node: ts.Node) => {
      if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName) && decls.has(node.typeName.text)) refs.add(node.typeName.text);
      if (ts.isExpressionWithTypeArguments(node) && ts.isIdentifier(node.expression) && decls.has(node.expression.text)) refs.add(node.expression.text);
      ts.forEachChild(node, visit);
    };
    ts.forEachChild(d, visit);
    out.set(name, refs);
  }
  return out;
}

/** The names of `graph` that reach one of `targets` (themselves included): a walk back along the edges. */
export function reaching(graph: ReadonlyMap<string, ReadonlySet<string>>, targets: ReadonlySet<string>): Set<string> {
  const back = new Map<string, string[]>();
  for (const [from, tos] of graph) for (const to of tos) back.set(to, [...(back.get(to) ?? []), from]);
  const out = new Set<string>();
  const queue = [...targets];
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (out.has(name)) continue;
    out.add(name);
    queue.push(...(back.get(name) ?? []));
  }
  return out;
}

export interface FidelityResult {
  /** Both files as they are. */
  strict: Map<string, Relation>;
  /** With the listed definitions replaced by the spec's own in ours. */
  givenListed: Map<string, Relation>;
  /** Definitions of ours that reach a listed one through references (the listed ones included). */
  dependsOnListed: Set<string>;
  diagnostics: string[];
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

/** Compare a generated types.ts with the spec's schema.ts, for `names`, given the `listed` exceptions. */
export function fidelity(typesFile: string, specFile: string, names: readonly string[], listed: ReadonlySet<string>): FidelityResult {
  const oursFile = declaringFile(typesFile);
  const text = readFileSync(oursFile, "utf8");
  const ours = path.resolve(oursFile);
  // A file beside ours, so it resolves what ours resolves.
  const given = path.join(path.dirname(ours), "types.fidelity-given-listed.ts");
  const result = compare(new Map([[ours, text], [given, substitute(oursFile, text, specFile, listed)]]), specFile, names);
  return {
    strict: result.relations.get(ours)!,
    givenListed: result.relations.get(given)!,
    dependsOnListed: reaching(references(oursFile, text), listed),
    diagnostics: result.diagnostics,
  };
}
