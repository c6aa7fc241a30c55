// Extension types against the extension's own schema.ts, with the core's rule (fidelity.test.ts),
// strictly: every definition the extension adds, as printed in generated/<core>+<name>/types.ts, is
// mutually assignable with the type of the same name in the extension's schema.ts, with no exception.
// The extension's schema.ts imports the core's types from "./spec.types.js": that module is the core
// version's own schema.ts, placed beside it in a temporary folder, and one module re-exports both
// (the extension declares only its own names; where the core defines one of them too, the extension's
// wins in its module, docs/extensions.md, so the module re-exports the extension's by name).
// An extension whose core version or own version was pinned without schema.ts (a bump from a folder of
// schema.json files) has no oracle: left out, and printed.
import { copyFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { extensionLabel as extensionFolder } from "../../../generator/model/extensions.js";
import { buildModel } from "../../../generator/pipeline.js";
import type { ExtensionModel } from "../../../generator/model/types.js";
import { extensionSchemasDir } from "../../../generator/source/extensions.js";
import { readLock } from "../../../generator/source/lock.js";
import { ensureSchemas, generatedDir, lockFile, modelOptions, schemasDir, tempDir } from "../../support.js";
import { fidelity } from "./fidelity.js";

await ensureSchemas();
const lock = await readLock(lockFile);
const modelled: ExtensionModel[] = buildModel({ ...modelOptions, lock }).extensions ?? [];
const hasOracle = (e: ExtensionModel) => lock.versions[e.core]?.schemaTs !== undefined && lock.extensions?.[e.name]?.versions[e.label]?.schemaTs !== undefined;
const extensions = modelled.filter(hasOracle);
const leftOut = modelled.filter((e) => !hasOracle(e)).map(extensionFolder);
if (leftOut.length > 0) console.log(`extension fidelity: left out ${leftOut.join(", ")}: its core or extension version pinned without schema.ts, no oracle`);

it("the lock's extensions are modelled (one per extension version and core version); those with both schema.ts files are checked", () => {
  const expected = Object.values(lock.extensions ?? {}).flatMap((e) => Object.values(e.versions).flatMap((v) => v.core));
  expect(modelled.map((e) => e.core).sort()).toEqual(expected.sort());
  expect(extensions.length).toBeGreaterThan(0);
});

describe.each(extensions.map((e) => [`${e.name}@${e.label} on ${e.core}`, e] as const))("types of %s against the extension's schema.ts", (_title, ext) => {
  let result: ReturnType<typeof fidelity>;
  beforeAll(() => {
    const dir = tempDir("mcp-codegen-ext-fidelity-");
    copyFileSync(path.join(extensionSchemasDir(schemasDir, ext.name), ext.label, "schema.ts"), path.join(dir, "extension.ts"));
    copyFileSync(path.join(schemasDir, ext.core, "schema.ts"), path.join(dir, "spec.types.ts"));
    // One module exporting both: the extension's names and the core's it builds on.
    const replaced = ext.replaced.length === 0 ? "" : `export type { ${ext.replaced.join(", ")} } from "./extension.js";\n`;
    writeFileSync(path.join(dir, "all.ts"), `export * from "./spec.types.js";\nexport * from "./extension.js";\n${replaced}`);
    result = fidelity(path.join(generatedDir, extensionFolder(ext), "types.ts"), path.join(dir, "all.ts"), ext.definitions);
  });

  it("compiles in one program with the extension's and the core's schema.ts", () => {
    expect(result.diagnostics).toEqual([]);
  });

  it("every definition the extension adds is equal to the extension's own type, with no exception", () => {
    expect(ext.definitions.length).toBeGreaterThan(0);
    const unequal = ext.definitions.filter((n) => result.relations.get(n) !== "equal").map((n) => `${n}: ${result.relations.get(n)}`);
    expect(unequal).toEqual([]);
  });
});
