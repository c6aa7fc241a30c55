// The TypeScript namer reserves what the target prints, not a hand list: a definition named like a name
// the version index re-exports from the runtime (OnError, Exchange, FailureContext, FailureKind) gets
// another name, so its type stays reachable from the version index beside the runtime's.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { versionModuleNames } from "../../../generator/emit/typescript/naming.js";
import { typescriptTemplatesDir as templatesDir } from "../../../generator/emit/typescript/paths.js";
import { minimalLegacySchema, root, runCli } from "../../support.js";

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const RUNTIME_NAMED = ["OnError", "Exchange", "FailureContext", "FailureKind"];

describe("names a version module takes", () => {
  it("come from its templates: what the version index re-exports from the runtime is among them", () => {
    const index = readFileSync(path.join(templatesDir, "version-index.ts.hbs"), "utf8");
    const reexported = [...index.matchAll(/^export (?:type )?\{([^}]*)\} from "\.\.\/runtime\//gm)].flatMap((m) => m[1].split(",").map((s) => s.trim()));
    expect(reexported).toEqual(expect.arrayContaining(RUNTIME_NAMED));
    for (const name of reexported) expect(versionModuleNames().has(name), name).toBe(true);
  });

  it("include what the printer declares beside the templates' text (HandlerResult) and the per-side names", () => {
    for (const name of ["HandlerResult", "ServerHandlers", "ClientHandlers", "createServerDispatcher", "createClientDispatcher"]) expect(versionModuleNames().has(name), name).toBe(true);
  });
});

describe("a definition named like a runtime export", () => {
  it("keeps its type in the version index, under a name of its own, beside the runtime's", async () => {
    mkdirSync(path.join(root, ".tmp"), { recursive: true });
    const work = mkdtempSync(path.join(root, ".tmp", "naming-"));
    made.push(work);
    const schema = minimalLegacySchema();
    for (const name of RUNTIME_NAMED) schema.definitions[name] = { type: "string", const: `definition ${name}` };
    // What the router reads of every version.
    schema.definitions.ServerCapabilities = { type: "object" };
    mkdirSync(path.join(work, "schemas", "fixture"), { recursive: true });
    writeFileSync(path.join(work, "schemas", "fixture", "schema.json"), JSON.stringify(schema));
    const r = await runCli(["generate", "--target", "typescript", "--schemas", path.join(work, "schemas"), "--out", path.join(work, "tree"), "--no-cache"]);
    expect(r.status, r.stderr).toBe(0);
    // Each definition's type is exported by the index under `<Name>_2`, and `<Name>` is still the runtime's.
    const lines = [
      'import type * as V from "./tree/fixture/index.js";',
      'import type { Exchange } from "./tree/runtime/dispatcher.js";',
      'import type { FailureContext, FailureKind, OnError } from "./tree/runtime/report.js";',
      "type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;",
      ...RUNTIME_NAMED.map((n) => `export const ${n}Definition: [Equal<V.${n}_2, "definition ${n}">, Equal<V.${n}, ${n}>] = [true, true];`),
    ];
    writeFileSync(path.join(work, "check.ts"), lines.join("\n") + "\n");
    writeFileSync(
      path.join(work, "tsconfig.json"),
      JSON.stringify({ extends: path.join(root, "tsconfig.generated.json"), compilerOptions: { rootDir: "." }, include: ["tree/**/*.ts", "check.ts"] }),
    );
    const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
    const result = spawnSync(process.execPath, [tsc, "-p", path.join(work, "tsconfig.json"), "--noEmit"], { encoding: "utf8" });
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
    // The doc comment names the spec's definition.
    expect(readFileSync(path.join(work, "tree", "fixture", "types.ts"), "utf8")).toContain('The definition "OnError" of the schema, named OnError_2 here.');
  }, 120_000);
});
