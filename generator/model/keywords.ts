// The keyword sets live with the loader (generator/spec/keywords.ts); re-exported for the emitters.
export { ANNOTATION_KEYWORDS, MAP_KEYWORDS } from "../spec/keywords.js";
