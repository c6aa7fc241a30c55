// Unit tests live at the mirrored path of the file they test: generator/<path>.ts → test/<path>.test.ts
// (the end-to-end folders test/handlers, test/transports and test/conformance, and the cross-cutting
// test/layers, test/foundation, test/bump, test/pipeline, stay as they are). The list below holds the
// generator files that have one today: it may grow, never shrink. The files without one are printed.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "../support.js";

/** Every generator file with its unit test at test/<same path>.test.ts (keep sorted; add, never remove). */
const MIRRORED = [
  "build-stamp.ts",
  "bump.ts",
  "cli.ts",
  "diff/api.ts",
  "diff/version.ts",
  "emit/method-table.ts",
  "emit/python/naming.ts",
  "emit/registry.ts",
  "emit/ruby/capabilities.ts",
  "emit/ruby/language.ts",
  "emit/ruby/naming.ts",
  "emit/ruby/options.ts",
  "emit/ruby/printer.ts",
  "emit/typescript/declarations.ts",
  "emit/typescript/guards.ts",
  "emit/typescript/language.ts",
  "emit/typescript/naming.ts",
  "emit/typescript/runtime/cancellation.ts",
  "emit/typescript/runtime/client-http.ts",
  "emit/typescript/runtime/client-oauth.ts",
  "emit/typescript/runtime/client-stdio.ts",
  "emit/typescript/runtime/custom-methods.ts",
  "emit/typescript/runtime/jsonrpc.ts",
  "emit/typescript/runtime/method-gate.ts",
  "emit/typescript/runtime/normalize.ts",
  "emit/typescript/runtime/router-legacy.ts",
  "emit/typescript/runtime/router-log.ts",
  "emit/typescript/runtime/router-modern.ts",
  "emit/typescript/runtime/router-served.ts",
  "emit/typescript/runtime/router-subscriptions.ts",
  "emit/typescript/runtime/router.ts",
  "emit/typescript/runtime/schema-support.ts",
  "emit/typescript/runtime/tasks.ts",
  "emit/typescript/zod.ts",
  "errors.ts",
  "extension-bump.ts",
  "fingerprint.ts",
  "model/errata.ts",
  "model/extensions.ts",
  "model/ir.ts",
  "model/rules.ts",
  "print/table.ts",
  "print/templates.ts",
  "reports/index.ts",
  "run.ts",
  "source/load.ts",
  "source/pin.ts",
  "writer.ts",
];

const generatorFiles = readdirSync(path.join(root, "generator"), { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith(".ts"))
  .map((e) => path.relative(path.join(root, "generator"), path.join(e.parentPath, e.name)).split(path.sep).join("/"))
  .sort();
const mirrorOf = (f: string) => path.join(root, "test", f.replace(/\.ts$/, ".test.ts"));

describe("unit tests at the mirrored path", () => {
  it("every generator file listed has its test at test/<same path>.test.ts (the list only grows)", () => {
    expect(MIRRORED.length).toBeGreaterThan(20);
    expect([...MIRRORED].sort()).toEqual(MIRRORED);
    const missing = MIRRORED.filter((f) => !generatorFiles.includes(f) || !existsSync(mirrorOf(f)));
    expect(missing, "a listed file lost its mirrored test (or moved: list its new path)").toEqual([]);
  });

  it("a generator file that gained a mirrored test is listed (so it cannot silently lose it)", () => {
    const unlisted = generatorFiles.filter((f) => existsSync(mirrorOf(f)) && !MIRRORED.includes(f));
    expect(unlisted, "add these to MIRRORED in test/layers/mirrored-tests.test.ts").toEqual([]);
    // Informational: the files whose unit tests are still elsewhere, or that have none.
    const without = generatorFiles.filter((f) => !existsSync(mirrorOf(f)));
    console.log(`${MIRRORED.length} of ${generatorFiles.length} generator files have a mirrored test; without one:\n  ${without.join("\n  ")}`);
  });
});
