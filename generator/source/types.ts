// The loaded form of a version's schema: what generator/source/ produces and generator/model/ reads.

/** A JSON Schema node after loading: one dialect-neutral form (see `LoadedSpec`). */
export type JsonSchema = { [keyword: string]: unknown };

/** The JSON Schema dialect a version's schema.json was written in. */
export type Dialect = "draft-07" | "2020-12";

/**
 * A version's schema after loading, in one form whatever its dialect:
 * definitions live under `defs`, every local reference reads `#/$defs/<Name>`, draft-07
 * `$ref` siblings (ignored by that dialect) are dropped, 2020-12 `$ref` siblings that are
 * annotations stay as annotations, and reviewed patches from `schemas/patches/` are applied.
 */
export interface LoadedSpec {
  /** Version label: the folder name (`2025-11-25`, `draft`, or any label given with `--schemas`). */
  label: string;
  /** Path of the schema.json this came from, as given to the loader. */
  file: string;
  /** sha256 (hex) of the schema file's bytes as read, before any patch. */
  sha256: string;
  /** Dialect of the source file; the loaded form is the same for both. */
  dialect: Dialect;
  /** Where the source file keeps its definitions (`definitions` or `$defs`); error pointers use it. */
  container: "definitions" | "$defs";
  /** Names of the patches applied, in order (empty when none). */
  patches: string[];
  /** Definitions by name, in the order of the source file. Deep-frozen. */
  defs: Readonly<Record<string, JsonSchema>>;
}
