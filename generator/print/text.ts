// Text rules every target's files share.

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
