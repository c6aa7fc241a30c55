// No module-level mutable state anywhere in generator/ (issue 26): caches belong to a run object
// (generator/run.ts), never to a module. Read with the TypeScript compiler's parser: a top-level
// `let`/`var`, a top-level WeakMap/WeakSet (only ever a cache), a top-level Map, Set, array or object
// that its module mutates (`.set`, `.add`, `.push`, `x[k] =`, `x.k =`, `delete`, `Object.assign`), and an
// exported Map, Set or array not typed read-only (another module could mutate it).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { root } from "../support.js";

const MUTATORS = new Set(["set", "add", "delete", "clear", "push", "pop", "shift", "unshift", "splice", "sort", "reverse", "fill", "copyWithin"]);

/** The module-level mutable state of one source text, as `line: what`. */
export function moduleState(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const line = (n: ts.Node) => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
  const collections = new Map<string, ts.Node>();
  for (const st of sf.statements) {
    if (!ts.isVariableStatement(st)) continue;
    const isConst = (st.declarationList.flags & ts.NodeFlags.Const) !== 0;
    const exported = st.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false;
    for (const d of st.declarationList.declarations) {
      const name = d.name.getText(sf);
      if (!isConst) {
        found.push(`${line(d)}: let ${name}`);
        continue;
      }
      let init = d.initializer;
      let asConst = false;
      while (init !== undefined && (ts.isAsExpression(init) || ts.isSatisfiesExpression(init) || ts.isParenthesizedExpression(init))) {
        if (ts.isAsExpression(init) && init.type.getText(sf) === "const") asConst = true;
        init = init.expression;
      }
      if (init === undefined || asConst) continue;
      const constructed = ts.isNewExpression(init) ? init.expression.getText(sf) : null;
      if (constructed === "WeakMap" || constructed === "WeakSet") {
        found.push(`${line(d)}: const ${name} = new ${constructed} (a cache)`);
        continue;
      }
      const kind = constructed === "Map" || constructed === "Set" ? constructed : ts.isArrayLiteralExpression(init) ? "array" : ts.isObjectLiteralExpression(init) ? "object" : null;
      if (kind === null) continue;
      collections.set(name, d);
      const type = d.type?.getText(sf) ?? "";
      if (exported && kind !== "object" && !/^(Readonly|readonly )/.test(type)) found.push(`${line(d)}: exported ${kind} ${name} not typed read-only`);
    }
  }
  const visit = (n: ts.Node): void => {
    const target = (e: ts.Expression): string | null => {
      while (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) {
        if (ts.isIdentifier(e.expression)) return e.expression.text;
        e = e.expression;
      }
      return null;
    };
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && ts.isIdentifier(n.expression.expression) && collections.has(n.expression.expression.text) && MUTATORS.has(n.expression.name.text)) {
      found.push(`${line(n)}: ${n.expression.expression.text}.${n.expression.name.text}(…) mutates module state`);
    }
    if (ts.isBinaryExpression(n) && n.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && n.operatorToken.kind <= ts.SyntaxKind.LastAssignment) {
      const t = target(n.left);
      if (t !== null && collections.has(t)) found.push(`${line(n)}: assignment into ${t} mutates module state`);
    }
    if (ts.isDeleteExpression(n)) {
      const t = target(n.expression);
      if (t !== null && collections.has(t)) found.push(`${line(n)}: delete from ${t} mutates module state`);
    }
    if (ts.isCallExpression(n) && n.expression.getText(sf) === "Object.assign" && n.arguments[0] !== undefined && ts.isIdentifier(n.arguments[0]) && collections.has(n.arguments[0].text)) {
      found.push(`${line(n)}: Object.assign(${n.arguments[0].text}, …) mutates module state`);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
    .sort();
}

describe("module-level mutable state", () => {
  it("the scan finds each kind it names, and nothing in read-only tables or state inside functions", () => {
    const text = [
      "let cache: string | undefined;",
      "var old = 1;",
      "const memo = new WeakMap<object, string>();",
      "const byKey = new Map<string, number>();",
      "export function remember(k: string) { byKey.set(k, 1); }",
      "const list: string[] = [];",
      "export function add(x: string) { list.push(x); }",
      "const table: Record<string, number> = {};",
      "export function put(k: string) { table[k] = 1; }",
      "export const shared = new Set<string>();",
      "export const fine: ReadonlySet<string> = new Set(['a']);",
      "const WORDS = ['a', 'b'] as const;",
      "const LOOKUP = { a: 1 };",
      "export function read() { let local = 0; const m = new Map(); m.set('a', 1); local++; return LOOKUP.a + local + WORDS.length + fine.size; }",
    ].join("\n");
    expect(moduleState("x.ts", text)).toEqual([
      "1: let cache",
      "2: let old",
      "3: const memo = new WeakMap (a cache)",
      "10: exported Set shared not typed read-only",
      "5: byKey.set(…) mutates module state",
      "7: list.push(…) mutates module state",
      "9: assignment into table mutates module state",
    ]);
  });

  it("is nowhere in generator/ (caches belong to a run object: generator/run.ts)", () => {
    const files = sourceFiles(path.join(root, "generator"));
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((f) => moduleState(f, readFileSync(path.join(root, f), "utf8")).map((s) => `${f}:${s}`));
    expect(found).toEqual([]);
  });
});
