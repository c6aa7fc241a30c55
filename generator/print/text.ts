// Text rules every target's files share.
import { InputError } from "../errors.js";
import type { VersionModel } from "../model/types.js";

/** A printed file as written: no trailing spaces, at most one empty line in a row, one final newline. */
export function finish(text: string): string {
  return text.replace(/[ \t]+$/gm, "").replace(/\n{3,}/g, "\n\n").trimEnd() + "\n";
}

/** Words of a name: camelCase humps, digit runs and any other character split words (`logging/setLevel` → logging, set, Level). */
export function words(text: string): string[] {
  return text
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== "");
}

/** `logging/setLevel` → `logging_set_level`, `inputSchema` → `input_schema`, `$schema` → `schema`. */
export function snakeCase(text: string): string {
  return words(text).map((w) => w.toLowerCase()).join("_");
}

/** A request's normalizer in a snake_case target: `resources/subscribe` → `normalize_resources_subscribe`. */
export function snakeNormalizerName(method: string): string {
  const base = snakeCase(method);
  return base === "" ? "normalize_method" : `normalize_${base}`;
}

/** Method → its snake_case normalizer name, for every request of a version; two requests that would share one are an InputError (`language` names the target). */
export function snakeNormalizerNames(version: VersionModel, language: string): Map<string, string> {
  const seen = new Map<string, string>();
  for (const r of version.requests) {
    const name = snakeNormalizerName(r.method);
    const clash = seen.get(name);
    if (clash !== undefined) throw new InputError(`requests ${clash} and ${r.method} would both have the ${language} normalizer ${name}`, `${version.label}/schema.json`);
    seen.set(name, r.method);
  }
  return new Map([...seen].map(([name, method]) => [method, name]));
}
