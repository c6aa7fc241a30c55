// Where the Python target's hand-written source is: apart from the printer so the fingerprint can
// hash it without loading the emitter.
import path from "node:path";
import { toolRoot } from "../../paths.js";

/** The hand-written runtime, copied into every Python tree (the source, also when running from dist/). */
export const pythonRuntimeSource = path.join(toolRoot, "generator", "emit", "python", "runtime.py");
