// Where the Ruby target's own files are (read from the source folder, also when running from dist/).
import path from "node:path";
import { generatorSourceDir, runtimesDir } from "../../paths.js";

/** The Ruby target's folder in the generator's sources. */
export const rubySourceDir = path.join(generatorSourceDir, "emit", "ruby");
/** The Ruby runtime's folder (runtimes/ruby/: hand-written Ruby, each file checked with `ruby -wc`). */
export const rubyRuntimeDir = path.join(runtimesDir, "ruby");
/** Hand-written Ruby runtime, copied into every Ruby tree inside its namespace. */
export const rubyRuntimeSource = path.join(rubyRuntimeDir, "runtime.rb");
/** Hand-written Ruby of the gate (gate.rb, copied like runtime.rb) and of the Methods helpers (methods.rb, printed after the method constants). */
export const rubyGateSource = path.join(rubyRuntimeDir, "gate.rb");
export const rubyMethodsSource = path.join(rubyRuntimeDir, "methods.rb");
/** Hand-written Ruby of the projection interpreter (projection.rb, copied like runtime.rb), over the tree's projections.rb. */
export const rubyProjectionSource = path.join(rubyRuntimeDir, "projection.rb");
/** The Ruby target's templates (its header). */
export const rubyTemplatesDir = path.join(rubySourceDir, "templates");
/** The hand-written recipe that adopts the tree in the Ruby SDK (ADOPTING.md, the patch), copied into every Ruby tree. */
export const adoptingSourceDir = path.join(rubySourceDir, "adopting");
/** Reviewed per-method capability requirements (the tool's own data, shipped with it), read by the method table. */
export { methodCapabilitiesFile, protocolFactsFile } from "../../paths.js";
