// The TypeScript target's declared names (generator/emit/typescript/language.ts) against what its
// templates and runtime bind, read off their text here: a template that binds a new module-level name
// fails this test until language.ts lists it, and a listed name nothing binds fails too.
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { TREE_NAMES, TREE_TEMPLATES, VERSION_MODULE_NAMES, VERSION_MODULE_TEMPLATES } from "../../../generator/emit/typescript/language.js";
import { SIDES } from "../../../generator/emit/typescript/naming.js";
import { typescriptTemplatesDir as templatesDir } from "../../../generator/emit/typescript/paths.js";
import { resultTypeView } from "../../../generator/emit/typescript/result-type.js";
import { declaredNames, templatesBind } from "./template-names.js";

const sorted = (s: Iterable<string>) => [...s].sort();

describe("the names language.ts declares", () => {
  it("are every name a version module's templates bind, with the per-side names and what the printer adds (HandlerResult), and no other", () => {
    const printed = [false, true].flatMap((carried) => [...declaredNames(resultTypeView(carried).handlerResult.join("\n"))]);
    expect(printed).toContain("HandlerResult");
    const bound = new Set([...templatesBind(templatesDir, VERSION_MODULE_TEMPLATES), ...SIDES.flatMap((s) => [s.handlers, s.createDispatcher, s.tables]), ...printed]);
    expect(sorted(VERSION_MODULE_NAMES), "edit VERSION_MODULE_NAMES in generator/emit/typescript/language.ts").toEqual(sorted(bound));
  });

  it("are every name the tree's templates bind (index.ts, router.ts), and no other", () => {
    expect(sorted(TREE_NAMES), "edit TREE_NAMES in generator/emit/typescript/language.ts").toEqual(sorted(templatesBind(templatesDir, TREE_TEMPLATES)));
  });

  it("cover every TypeScript module template of the target: each is in one of the two scopes, or a module of its own scope", () => {
    // catalogue.ts and runtime.ts import the version modules by path, not into the version or tree scope.
    const ownScope = ["catalogue.ts.hbs", "runtime.ts.hbs"];
    const modules = readdirSync(templatesDir).filter((f) => f.endsWith(".ts.hbs"));
    expect(sorted(modules)).toEqual(sorted([...VERSION_MODULE_TEMPLATES, ...TREE_TEMPLATES, ...ownScope]));
  });

  it("the oracle reads declarations, imports and re-exports, never names a template expression builds", () => {
    const names = declaredNames(
      [
        'import { a, b as c, type d } from "./x.js";',
        'import * as ns from "./y.js";',
        'export type { E, F as G } from "./z.js";',
        "export const h = 1;",
        "const i = 2;",
        "export interface {{name}}Handlers {}",
        "export function create{{Side}}Dispatcher() {}",
        "  const nested = 3;",
      ].join("\n"),
    );
    expect([...names].sort()).toEqual(["E", "G", "a", "c", "d", "h", "i", "ns"]);
  });
});
