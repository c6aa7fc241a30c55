// The keyword sets live with the loader (generator/source/keywords.ts); re-exported for the emitters.
export { ANNOTATION_KEYWORDS, MAP_KEYWORDS } from "../source/keywords.js";
