// Where the TypeScript target's own files are (read from the source folder, also when running from dist/).
import path from "node:path";
import { generatorSourceDir } from "../../paths.js";

/** The TypeScript tree's templates (partials/header.hbs lays out the provenance header). */
export const typescriptTemplatesDir = path.join(generatorSourceDir, "emit", "typescript", "templates");
