// Handlebars file skeletons from templates/: compiled once, strict, no HTML escaping.
// Logic stays in the model and the emitters; templates only lay out text.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
// The runtime is enough to run precompiled templates; its typings are the full package's.
import HandlebarsRuntimeModule from "handlebars/runtime.js";
import { templatesDir } from "../paths.js";
import { cachedText, sha256 } from "../files.js";

export type Template = (context: object) => string;

const COMPILE_OPTIONS = { noEscape: true, strict: true, preventIndent: false } as const;

type Compiler = typeof import("handlebars");
type Runtime = Pick<Compiler, "create" | "template" | "registerHelper" | "registerPartial" | "VERSION">;
const HandlebarsRuntime = HandlebarsRuntimeModule as unknown as Runtime;

let engine: Runtime | undefined;
let compiler: Compiler | undefined;
let cacheDir: string | undefined;
const compiled = new Map<string, Template>();

/**
 * Keep precompiled templates in `dir` (content-addressed by template text and Handlebars version),
 * so a run whose templates did not change skips the template compiler. Undefined: no cache.
 */
export function setTemplateCache(dir: string | undefined): void {
  cacheDir = dir;
}

/** The template compiler, loaded only when a template is not in the cache. */
function getCompiler(): Compiler {
  compiler ??= createRequire(import.meta.url)("handlebars") as Compiler;
  return compiler;
}

/** Compile a template, or load its precompiled form from the cache (then only the runtime is needed). */
function compile(source: string): HandlebarsTemplateDelegate {
  const e = getEngine();
  if (cacheDir === undefined) return e.template(new Function(`return ${getCompiler().precompile(source, COMPILE_OPTIONS)}`)());
  const key = sha256(JSON.stringify({ handlebars: e.VERSION, options: COMPILE_OPTIONS, source }));
  const spec = cachedText(path.join(cacheDir, "handlebars", `${key}.js`), () => getCompiler().precompile(source, COMPILE_OPTIONS) as string);
  // The precompiled form is Handlebars' own output for our own template text.
  return e.template(new Function(`return ${spec}`)());
}

function getEngine(): Runtime {
  if (engine) return engine;
  engine = HandlebarsRuntime.create();
  engine.registerHelper("json", (value: unknown) => JSON.stringify(value));
  engine.registerHelper("join", (list: unknown[], sep: string) => list.join(sep));
  return engine;
}

let partialsRegistered = false;
function registerPartials(): void {
  if (partialsRegistered) return;
  partialsRegistered = true;
  const partials = path.join(templatesDir, "partials");
  for (const file of readdirSync(partials).sort()) {
    if (file.endsWith(".hbs")) getEngine().registerPartial(file.slice(0, -4), compile(readFileSync(path.join(partials, file), "utf8")));
  }
}

/** A template by file name (`methods.ts.hbs`). */
export function template(name: string): Template {
  let t = compiled.get(name);
  if (!t) {
    registerPartials();
    t = compile(readFileSync(path.join(templatesDir, name), "utf8"));
    compiled.set(name, t);
  }
  return t;
}
