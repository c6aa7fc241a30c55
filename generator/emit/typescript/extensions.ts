// Extensions in the TypeScript tree: each extension version × core version is a module of its own,
// `<core>+<name>/` (`2026-07-28+tasks/`), emitted by the same emitters as a version from the merged
// model (generator/model/extensions.ts): the core's definitions and methods plus the extension's, so
// its types, schemas, guards, handlers, normalizers and dispatchers are complete on their own. Its
// files name the extension below the provenance header.
import { extensionLabel as extensionFolder } from "../../model/extensions.js";
import type { ExtensionModel, ProtocolModel } from "../../model/types.js";
import { extensionProvenanceLine } from "../../print/provenance.js";
import type { GeneratedFiles } from "../target.js";

/** The provenance line naming the extension, placed after the header's protocol version line. */
function provenanceLine(ext: ExtensionModel): string {
  return `// ${extensionProvenanceLine(ext)}`;
}

/**
 * The files of every extension module: `emit` is the version emitter (emitVersion), run on the merged
 * model; its `<core>/` paths move to `<core>+<name>/` and each file's header gains the extension's line.
 * A module whose merged definitions are another's (`key`, the core's definitions key, plus the
 * extension's own definitions) re-exports that one's types, schemas and guards (`sameAs`), as versions do.
 */
export async function emitExtensionModules(
  model: ProtocolModel,
  emit: (version: ExtensionModel["model"], sameAs: string | undefined, ext: ExtensionModel) => Promise<GeneratedFiles>,
  key: (version: ExtensionModel["model"]) => string,
): Promise<GeneratedFiles> {
  const files: GeneratedFiles = new Map();
  const first = new Map<string, string>();
  for (const ext of [...(model.extensions ?? [])].sort((a, b) => (extensionFolder(a) < extensionFolder(b) ? -1 : 1))) {
    const folder = extensionFolder(ext);
    const own = JSON.stringify(ext.definitions.map((n) => [n, ext.model.definitions[n]]));
    const k = `${key(ext.model)}|${own}`;
    const sameAs = first.get(k);
    if (sameAs === undefined) first.set(k, folder);
    for (const [rel, text] of await emit(ext.model, sameAs, ext)) {
      const moved = `${folder}/${rel.slice(rel.indexOf("/") + 1)}`;
      files.set(moved, text.replace(/^(\/\/ Protocol version [^\n]*\n)/m, `$1${provenanceLine(ext)}\n`));
    }
  }
  return files;
}
