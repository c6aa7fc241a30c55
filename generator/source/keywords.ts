// JSON Schema keywords by what they do, shared by the loader, the model and the emitters.

/**
 * Keywords that only annotate, in draft-07 and 2020-12 alike (`format` included: both dialects treat
 * it as an annotation unless a validator opts in). They never change what a schema accepts.
 */
export const ANNOTATION_KEYWORDS: ReadonlySet<string> = new Set([
  "description",
  "title",
  "$comment",
  "format",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "contentMediaType",
  "contentEncoding",
  "contentSchema",
  // Identifiers a reference may name (the loader resolves `#name` references to them); they validate nothing.
  "$anchor",
  "$dynamicAnchor",
]);

/** Keywords whose values map names to schemas: inside them, keys are names, not keywords. */
export const MAP_KEYWORDS: ReadonlySet<string> = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
