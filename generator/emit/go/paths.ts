// Where the Go target's own files are (read from the source folder, also when running from dist/).
import path from "node:path";
import { generatorSourceDir, runtimesDir } from "../../paths.js";

/** The Go target's folder in the generator's sources. */
export const goSourceDir = path.join(generatorSourceDir, "emit", "go");
/** The Go runtime's folder (runtimes/go/: a Go module checked by gofmt and go vet). */
export const goRuntimeDir = path.join(runtimesDir, "go");
/** The package every tree carries the runtime as, beside the version packages. */
export const GO_RUNTIME_PACKAGE = "mcpruntime";
/** The Go target's templates (its provenance header). */
export const goTemplatesDir = path.join(goSourceDir, "templates");
/** The package the tree's protocol module is (the model's protocol facts, which the runtime imports). */
export const GO_PROTOCOL_PACKAGE = "protocol";
/** The recipe that adopts the tree in the official Go SDK (ADOPTING.md and the patch), copied into every tree. */
export const goAdoptingDir = path.join(goSourceDir, "adopting");
