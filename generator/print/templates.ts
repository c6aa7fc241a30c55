// Handlebars file skeletons: compiled once per Templates object, strict, no HTML escaping. Logic stays
// in the model and the emitters; templates only lay out text. A target makes one Templates for its
// template folder and passes it down to its printers: the engine, the compiled templates and the
// cache folder belong to that object, never to this module.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
// The runtime is enough to run precompiled templates; its typings are the full package's.
import HandlebarsRuntimeModule from "handlebars/runtime.js";
import { cachedText, sha256 } from "../files.js";
import { provenanceLines } from "./provenance.js";

export type Template = (context: object) => string;

const COMPILE_OPTIONS = { noEscape: true, strict: true, preventIndent: false } as const;

type Compiler = typeof import("handlebars");
type Runtime = Pick<Compiler, "create" | "template" | "registerHelper" | "registerPartial" | "VERSION">;
const HandlebarsRuntime = HandlebarsRuntimeModule as unknown as Runtime;

/** The template compiler, loaded only when a template is not in the cache. */
function loadCompiler(): Compiler {
  return createRequire(import.meta.url)("handlebars") as Compiler;
}

export interface TemplatesOptions {
  /** The folder of the templates; its `partials/*.hbs` are registered as partials by file name. */
  dir: string;
  /**
   * Keep precompiled templates here (content-addressed by template text and Handlebars version), so a
   * run whose templates did not change skips the template compiler. Undefined: no cache.
   */
  cacheDir?: string;
}

export class Templates {
  readonly #dir: string;
  readonly #cacheDir: string | undefined;
  readonly #compiled = new Map<string, Template>();
  #engine: Runtime | undefined;
  #compiler: Compiler | undefined;

  constructor(options: TemplatesOptions) {
    this.#dir = options.dir;
    this.#cacheDir = options.cacheDir;
  }

  /** A template by file name (`methods.ts.hbs`). */
  get(name: string): Template {
    let t = this.#compiled.get(name);
    if (!t) {
      t = this.#compile(readFileSync(path.join(this.#dir, name), "utf8"));
      this.#compiled.set(name, t);
    }
    return t;
  }

  #getEngine(): Runtime {
    if (this.#engine) return this.#engine;
    const engine = HandlebarsRuntime.create();
    this.#engine = engine;
    engine.registerHelper("json", (value: unknown) => JSON.stringify(value));
    engine.registerHelper("join", (list: unknown[], sep: string) => list.join(sep));
    // `(provenance versions)` or `(provenance versions regenerate)`; Handlebars passes its options last.
    engine.registerHelper("provenance", (versions: Parameters<typeof provenanceLines>[0], ...rest: unknown[]) =>
      provenanceLines(versions, rest.length > 1 ? String(rest[0]) : undefined),
    );
    const partials = path.join(this.#dir, "partials");
    if (existsSync(partials)) {
      for (const file of readdirSync(partials).sort()) {
        if (file.endsWith(".hbs")) engine.registerPartial(file.slice(0, -4), this.#compile(readFileSync(path.join(partials, file), "utf8")));
      }
    }
    return engine;
  }

  /** Compile a template, or load its precompiled form from the cache (then only the runtime is needed). */
  #compile(source: string): HandlebarsTemplateDelegate {
    const e = this.#getEngine();
    const precompile = () => {
      this.#compiler ??= loadCompiler();
      return this.#compiler.precompile(source, COMPILE_OPTIONS) as string;
    };
    const spec = this.#cacheDir === undefined
      ? precompile()
      : cachedText(path.join(this.#cacheDir, "handlebars", `${sha256(JSON.stringify({ handlebars: e.VERSION, options: COMPILE_OPTIONS, source }))}.js`), precompile);
    // The precompiled form is Handlebars' own output for our own template text.
    return e.template(new Function(`return ${spec}`)());
  }
}
