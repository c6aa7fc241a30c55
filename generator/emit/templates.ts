// Handlebars file skeletons from templates/: compiled once, strict, no HTML escaping.
// Logic stays in the model and the emitters; templates only lay out text.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Handlebars from "handlebars";
import { templatesDir } from "../paths.js";

export type Template = (context: object) => string;

let engine: typeof Handlebars | undefined;
const compiled = new Map<string, Template>();

function getEngine(): typeof Handlebars {
  if (engine) return engine;
  engine = Handlebars.create();
  engine.registerHelper("json", (value: unknown) => JSON.stringify(value));
  engine.registerHelper("join", (list: unknown[], sep: string) => list.join(sep));
  const partials = path.join(templatesDir, "partials");
  for (const file of readdirSync(partials).sort()) {
    if (file.endsWith(".hbs")) engine.registerPartial(file.slice(0, -4), readFileSync(path.join(partials, file), "utf8"));
  }
  return engine;
}

/** A template by file name (`methods.ts.hbs`). */
export function template(name: string): Template {
  let t = compiled.get(name);
  if (!t) {
    const source = readFileSync(path.join(templatesDir, name), "utf8");
    t = getEngine().compile(source, { noEscape: true, strict: true, preventIndent: false });
    compiled.set(name, t);
  }
  return t;
}
