// Reserved names held to the printed TypeScript tree (issue 36, item 5): every module the TypeScript
// printers write is read with the TypeScript parser, and no top-level identifier may be a keyword of
// the language or bound twice in its module, and the modules a version's index.ts re-exports with
// `export *` (one scope) may not export one name twice (`export *` drops such a name silently). The
// rules come from the parser and the printed files, not from the naming pass (emit/typescript/naming.ts).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { generatedDir } from "../../support.js";

/** Every token the scanner reads as a keyword (reserved, strict-mode and contextual), and the names with a meaning in every scope. */
const scanner = ts.createScanner(ts.ScriptTarget.Latest, true);
function reserved(name: string): boolean {
  scanner.setText(name);
  const kind = scanner.scan();
  return (kind >= ts.SyntaxKind.FirstKeyword && kind <= ts.SyntaxKind.LastKeyword) || ["undefined", "arguments", "eval", "NaN", "Infinity"].includes(name);
}

interface Binding {
  name: string;
  exported: boolean;
  /** Types and values live in two namespaces: an interface and a const may share a name. `export { X }` (from a module or not) names an export, not a local binding. */
  space: "type" | "value" | "both" | "export";
  line: number;
}

function bindings(file: string): Binding[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const out: Binding[] = [];
  const line = (n: ts.Node) => source.getLineAndCharacterOfPosition(n.getStart(source)).line + 1;
  const exported = (n: ts.Node) => ts.canHaveModifiers(n) && (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const s of source.statements) {
    if (ts.isImportDeclaration(s) && s.importClause !== undefined) {
      const c = s.importClause;
      if (c.name !== undefined) out.push({ name: c.name.text, exported: false, space: "both", line: line(s) });
      const b = c.namedBindings;
      if (b !== undefined && ts.isNamespaceImport(b)) out.push({ name: b.name.text, exported: false, space: "both", line: line(s) });
      if (b !== undefined && ts.isNamedImports(b)) for (const e of b.elements) out.push({ name: e.name.text, exported: false, space: "both", line: line(s) });
    } else if (ts.isFunctionDeclaration(s) && s.body === undefined) {
      // An overload signature: the implementation that follows it binds the name once.
    } else if (ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s) || ts.isEnumDeclaration(s)) {
      if (s.name !== undefined) out.push({ name: s.name.text, exported: exported(s), space: ts.isFunctionDeclaration(s) ? "value" : "both", line: line(s) });
    } else if (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) {
      out.push({ name: s.name.text, exported: exported(s), space: "type", line: line(s) });
    } else if (ts.isVariableStatement(s)) {
      for (const d of s.declarationList.declarations) if (ts.isIdentifier(d.name)) out.push({ name: d.name.text, exported: exported(s), space: "value", line: line(s) });
    } else if (ts.isExportDeclaration(s) && s.exportClause !== undefined && ts.isNamedExports(s.exportClause)) {
      for (const e of s.exportClause.elements) out.push({ name: e.name.text, exported: true, space: "export", line: line(s) });
    }
  }
  return out;
}

/** Problems of one module: a reserved name, or a name bound twice in one namespace. */
function moduleProblems(file: string, list: Binding[]): string[] {
  const problems: string[] = [];
  const seen = new Map<string, Binding>();
  for (const b of list) {
    if (reserved(b.name)) problems.push(`${file}:${b.line}: ${b.name} is a keyword`);
    if (b.space === "export") continue;
    const other = seen.get(b.name);
    if (other !== undefined && (other.space === "both" || b.space === "both" || other.space === b.space)) {
      problems.push(`${file}:${b.line}: ${b.name} is bound again (first at line ${other.line})`);
    }
    if (other === undefined) seen.set(b.name, b);
  }
  return problems;
}

const versionFolders = readdirSync(generatedDir).filter((d) => existsSync(path.join(generatedDir, d, "index.ts")) && d !== "runtime");
const treeFiles = readdirSync(generatedDir).filter((f) => f.endsWith(".ts")).map((f) => path.join(generatedDir, f));

describe("the printed TypeScript tree", () => {
  it("has version folders and tree modules to read", () => {
    expect(versionFolders).toContain("2025-11-25");
    expect(treeFiles.map((f) => path.basename(f))).toEqual(expect.arrayContaining(["index.ts", "router.ts", "client.ts"]));
  });

  it("binds no top-level name that is a keyword or taken in its module", () => {
    const problems: string[] = [];
    let read = 0;
    for (const folder of versionFolders) {
      for (const f of readdirSync(path.join(generatedDir, folder)).filter((n) => n.endsWith(".ts"))) {
        const file = path.join(generatedDir, folder, f);
        const list = bindings(file);
        read += list.length;
        problems.push(...moduleProblems(path.relative(generatedDir, file), list));
      }
    }
    for (const file of treeFiles) problems.push(...moduleProblems(path.relative(generatedDir, file), bindings(file)));
    expect(problems).toEqual([]);
    expect(read).toBeGreaterThan(1000);
  });

  it("exports each name from one module only among those a version's index.ts re-exports together", () => {
    const problems: string[] = [];
    for (const folder of versionFolders) {
      const index = path.join(generatedDir, folder, "index.ts");
      const stars = [...readFileSync(index, "utf8").matchAll(/^export \* from "\.\/([\w-]+)\.js";$/gm)].map((m) => m[1]);
      expect(stars.length, folder).toBeGreaterThan(3);
      // index.ts's own named re-exports share the scope too.
      const owner = new Map<string, string>(bindings(index).filter((b) => b.exported).map((b) => [b.name, "index"]));
      for (const module of stars) {
        for (const b of bindings(path.join(generatedDir, folder, `${module}.ts`)).filter((x) => x.exported)) {
          const other = owner.get(b.name);
          if (other !== undefined && other !== module) problems.push(`${folder}: ${b.name} is exported by ${other} and ${module}`);
          owner.set(b.name, module);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

describe("the reader of printed names", () => {
  it("reports a name bound twice in one namespace, not a type and a value sharing one (a hand-made module)", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "ts-reserved-"));
    try {
      const file = path.join(dir, "bad.ts");
      writeFileSync(file, ['import { y } from "./z.js";', "export const x = 1;", "export function x$1() {}", "function x() {}", "export interface T {}", "export type T = 1;", "export const T = 2;", "const y = 2;", "export { y };", ""].join("\n"));
      expect(moduleProblems("bad.ts", bindings(file))).toEqual(["bad.ts:4: x is bound again (first at line 2)", "bad.ts:6: T is bound again (first at line 5)", "bad.ts:8: y is bound again (first at line 1)"]);
      expect(reserved("interface") && reserved("type") && reserved("undefined") && !reserved("isTool$1")).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
