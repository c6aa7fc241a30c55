// What a TypeScript module template binds at module level, read off its text: the oracle the namer's
// declared lists (generator/emit/typescript/language.ts) are held to. Test code, not generator code:
// the generator never reads its templates to find names.
import { readFileSync } from "node:fs";
import path from "node:path";
import { typescriptRuntime } from "../../../generator/emit/typescript/runtime.js";

/**
 * The module-level names a TypeScript module template declares, imports or re-exports. A name spelled
 * with a template expression in it (`{{name}}`) is the namer's, not the template's; an import list
 * that is a template expression brings every export of the runtime module it names.
 */
export function declaredNames(template: string, runtimeDir: string = typescriptRuntime.dir): Set<string> {
  const text = template.replace(/\{\{![\s\S]*?\}\}/g, "").replace(/\{\{[\s\S]*?\}\}/g, "\u0001");
  const out = new Set<string>();
  const plain = (name: string) => /^[A-Za-z_$][\w$]*$/.test(name);
  const listNames = (list: string) =>
    list
      .split(",")
      .map((item) => item.trim().replace(/^type\s+/, ""))
      .filter((item) => item !== "")
      .map((item) => item.split(/\s+as\s+/).pop()!.trim());
  for (const m of text.matchAll(/^(import|export)\s+(?:type\s+)?\{([^}]*)\}(?:\s*from\s*"([^"]+)")?/gm)) {
    for (const name of listNames(m[2])) if (plain(name)) out.add(name);
    // A computed import list from a runtime module: any of its exports may be imported.
    if (m[2].includes("\u0001") && m[3] !== undefined && m[3].startsWith("../runtime/")) {
      for (const name of exportedNames(readFileSync(path.join(runtimeDir, m[3].slice("../runtime/".length).replace(/\.js$/, ".ts")), "utf8"))) out.add(name);
    }
  }
  for (const m of text.matchAll(/^import\s+(?:type\s+)?\*\s+as\s+([A-Za-z_$][\w$]*)(?![\w$\u0001])/gm)) out.add(m[1]);
  for (const m of text.matchAll(/^(?:export\s+)?(?:declare\s+)?(?:const|let|var|function|type|interface|class|enum)\s+([A-Za-z_$][\w$]*)(?![\w$\u0001])/gm)) out.add(m[1]);
  return out;
}

/** The names a TypeScript source module exports (declarations and `export { … }` lists). */
function exportedNames(source: string): Set<string> {
  const out = new Set<string>();
  for (const m of source.matchAll(/^export\s+(?:declare\s+)?(?:async\s+)?(?:const|let|var|function|type|interface|class|enum)\s+([A-Za-z_$][\w$]*)/gm)) out.add(m[1]);
  for (const m of source.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}/gm)) {
    for (const item of m[1].split(",")) {
      const name = item.trim().replace(/^type\s+/, "").split(/\s+as\s+/).pop()!.trim();
      if (name !== "") out.add(name);
    }
  }
  return out;
}

/** Every name a set of templates of a folder binds. */
export function templatesBind(dir: string, files: readonly string[]): Set<string> {
  const all = new Set<string>();
  for (const f of files) for (const n of declaredNames(readFileSync(path.join(dir, f), "utf8"))) all.add(n);
  return all;
}
