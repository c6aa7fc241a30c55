// Unit tests live at the mirrored path of the file they test: generator/<path>.ts → test/<path>.test.ts
// (the end-to-end folders test/handlers, test/transports and test/conformance, and the cross-cutting
// test/layers, test/foundation, test/bump, test/pipeline, stay as they are), and in the TypeScript
// runtime's package runtimes/typescript/src/<name>.ts → runtimes/typescript/test/<name>.test.ts. The
// lists below hold the files that have one today: they may grow, never shrink. The files without one are printed.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "../support.js";

/** Every generator file with its unit test at test/<same path>.test.ts (keep sorted; add, never remove). */
const MIRRORED = [
  "build-stamp.ts",
  "bump.ts",
  "cli.ts",
  "commands.ts",
  "diff/api.ts",
  "diff/version.ts",
  "emit/go/doc-comment.ts",
  "emit/go/language.ts",
  "emit/go/options.ts",
  "emit/go/projections.ts",
  "emit/go/types.ts",
  "emit/method-table.ts",
  "emit/python/naming.ts",
  "emit/registry.ts",
  "emit/ruby/language.ts",
  "emit/ruby/naming.ts",
  "emit/ruby/options.ts",
  "emit/ruby/printer.ts",
  "emit/runtime-copy.ts",
  "emit/typescript/declarations.ts",
  "emit/typescript/guards.ts",
  "emit/typescript/language.ts",
  "emit/typescript/naming.ts",
  "emit/typescript/zod.ts",
  "errors.ts",
  "extension-bump.ts",
  "fingerprint.ts",
  "model/capabilities.ts",
  "model/errata.ts",
  "model/extensions.ts",
  "model/ir-objects.ts",
  "model/ir.ts",
  "model/pattern.ts",
  "model/projections.ts",
  "model/protocol-order.ts",
  "model/protocol.ts",
  "model/rules.ts",
  "print/table.ts",
  "print/templates.ts",
  "reports/index.ts",
  "run.ts",
  "source/load.ts",
  "source/patch.ts",
  "source/pin.ts",
  "writer.ts",
];

/** Every TypeScript runtime file with its unit test at runtimes/typescript/test/<name>.test.ts (keep sorted; add, never remove). */
const RUNTIME_MIRRORED = [
  "cancellation.ts",
  "client-http.ts",
  "client-oauth.ts",
  "client-stdio.ts",
  "client-tasks.ts",
  "client.ts",
  "custom-methods.ts",
  "jsonrpc.ts",
  "method-gate.ts",
  "normalize.ts",
  "router-legacy.ts",
  "router-log.ts",
  "router-modern.ts",
  "router-served.ts",
  "router-subscriptions.ts",
  "router.ts",
  "schema-support.ts",
  "tasks.ts",
];

const generatorFiles = readdirSync(path.join(root, "generator"), { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith(".ts"))
  .map((e) => path.relative(path.join(root, "generator"), path.join(e.parentPath, e.name)).split(path.sep).join("/"))
  .sort();
const mirrorOf = (f: string) => path.join(root, "test", f.replace(/\.ts$/, ".test.ts"));
const runtimeDir = path.join(root, "runtimes", "typescript");
const runtimeFiles = readdirSync(path.join(runtimeDir, "src"))
  .filter((name) => name.endsWith(".ts"))
  .sort();
const runtimeMirrorOf = (f: string) => path.join(runtimeDir, "test", f.replace(/\.ts$/, ".test.ts"));

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

  it("every TypeScript runtime file listed has its test at runtimes/typescript/test/<name>.test.ts (the list only grows)", () => {
    expect(RUNTIME_MIRRORED.length).toBeGreaterThan(10);
    expect([...RUNTIME_MIRRORED].sort()).toEqual(RUNTIME_MIRRORED);
    const missing = RUNTIME_MIRRORED.filter((f) => !runtimeFiles.includes(f) || !existsSync(runtimeMirrorOf(f)));
    expect(missing, "a listed file lost its mirrored test (or moved: list its new path)").toEqual([]);
  });

  it("a TypeScript runtime file that gained a mirrored test is listed, and no runtime test sits in test/", () => {
    const unlisted = runtimeFiles.filter((f) => existsSync(runtimeMirrorOf(f)) && !RUNTIME_MIRRORED.includes(f));
    expect(unlisted, "add these to RUNTIME_MIRRORED in test/layers/mirrored-tests.test.ts").toEqual([]);
    expect(existsSync(path.join(root, "test", "emit", "typescript", "runtime"))).toBe(false);
    const without = runtimeFiles.filter((f) => !existsSync(runtimeMirrorOf(f)));
    console.log(`${RUNTIME_MIRRORED.length} of ${runtimeFiles.length} TypeScript runtime files have a mirrored test; without one:\n  ${without.join("\n  ")}`);
  });
});
