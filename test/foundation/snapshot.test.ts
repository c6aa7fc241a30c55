// The committed generated/ tree is exactly what the generator produces, every time, and compiles.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { emitTree } from "../../generator/emit/index.js";
import { isReviewReport } from "../../generator/writer.js";
import { buildModel } from "../../generator/pipeline.js";
import { readLock } from "../../generator/source/lock.js";
import { ensureSchemas, generatedDir, lockFile, readTree, root, runBin, runCli, schemasDir, tempDir } from "../support.js";

beforeAll(ensureSchemas);

/** The committed tree without the review reports `bump` wrote: a regeneration keeps them but never makes them. */
function committedGeneration(): Map<string, string> {
  return new Map([...readTree(generatedDir)].filter(([file]) => !isReviewReport(file)));
}

/** The tool's version (its package.json): the runtime copies' headers name it. */
const toolVersion = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version;

/** The source under runtimes/ a file of the committed tree is a copy of, or null (the default package and namespace). */
function runtimeSourceOf(file: string): string | null {
  const candidates: Array<[RegExp, string]> = [
    [/^runtime\/([\w-]+\.ts)$/, "runtimes/typescript/src/"],
    [/^python\/mcp_codegen\/(\w+\.py)$/, "runtimes/python/src/mcp_codegen_runtime/"],
    [/^ruby\/mcp_codegen\/(\w+\.rb)$/, "runtimes/ruby/"],
    [/^go\/mcpruntime\/(\w+\.go)$/, "runtimes/go/"],
    [/^typescript-sdk\/([\w-]+\.ts)$/, "runtimes/typescript/sdk/"],
  ];
  for (const [pattern, dir] of candidates) {
    const m = pattern.exec(file);
    // methods.rb prints the spec's method constants before the helpers runtimes/ruby/methods.rb holds, and the
    // Python tree's __init__.py and protocol.py are its own (the runtime's protocol.py is a stand-in): no copies.
    if (m !== null && m[1] !== "methods.rb" && m[1] !== "__init__.py" && m[1] !== "protocol.py" && existsSync(path.join(root, dir, m[1]))) return dir + m[1];
  }
  return null;
}

describe("generated/", () => {
  it("is reproduced byte for byte by `generate --out <tmp> --no-cache`", async () => {
    const out = path.join(tempDir(), "out");
    const r = await runCli(["generate", "--out", out, "--no-cache"]);
    expect(r.stderr).toContain("generated");
    expect(r.status).toBe(0);
    const fresh = readTree(out);
    const committed = committedGeneration();
    expect([...fresh.keys()]).toEqual([...committed.keys()]);
    for (const [file, text] of fresh) expect(text, file).toBe(committed.get(file));
  });

  it("is reproduced byte for byte from a cold and then a warm compiler cache (separate processes)", async () => {
    const cache = path.join(tempDir(), "cache");
    const committed = committedGeneration();
    for (const run of ["cold", "warm"]) {
      const out = path.join(tempDir(), run);
      // A real process each: the cache is what a fresh process finds on disk, not module state.
      const r = runBin(["generate", "--out", out], { MCP_CODEGEN_CACHE_DIR: cache });
      expect(r.status, r.stderr).toBe(0);
      expect(readTree(out), run).toEqual(committed);
    }
    // One facts entry per distinct schema.ts the lock pins (versions may share bytes), extensions' included, and the templates.
    const lock = await readLock(lockFile);
    const pinned = [...Object.values(lock.versions), ...Object.values(lock.extensions ?? {}).flatMap((e) => Object.values(e.versions))];
    const distinct = new Set(pinned.flatMap((v) => (v.schemaTs ? [v.schemaTs.sha256] : []))).size;
    const entries = [...readTree(cache).keys()];
    expect(entries.filter((e) => e.startsWith("spec-typescript/")).length).toBe(distinct);
    expect(entries.some((e) => e.startsWith("handlebars/"))).toBe(true);
  });

  it("gives identical bytes on two runs and leaves the loaded schemas unmutated", async () => {
    const model = buildModel({
      schemasDir,
      lock: await readLock(lockFile),
      patchesDir: path.join(root, "schemas", "patches"),
      overridesFile: path.join(root, "schemas", "overrides.json"),
    });
    // The IR's references point at their definitions (a cycle wherever the schema recurses): the
    // definitions are serialized once each, under `ir.definitions`.
    const serialize = () => JSON.stringify(model, (key, value) => (key === "target" ? undefined : value instanceof Map ? [...value] : value));
    const before = serialize();
    const first = await emitTree(model);
    const second = await emitTree(model);
    expect(serialize()).toBe(before);
    expect([...second]).toEqual([...first]);
    // Loaded definitions are deep-frozen: an emitter that tried to mutate them would throw.
    for (const v of model.versions) {
      const [name, definition] = Object.entries(v.definitions).find(([, d]) => typeof d.properties === "object")!;
      expect(Object.isFrozen(definition), `${v.label} ${name}`).toBe(true);
      expect(Object.isFrozen(definition.properties), `${v.label} ${name}.properties`).toBe(true);
    }
  });

  it("begins every file with the provenance header naming the locked hash and commit", async () => {
    const lock = await readLock(lockFile);
    const commits = [...new Set(Object.values(lock.versions).map((v) => v.commit ?? lock.commit))];
    for (const [file, text] of readTree(generatedDir)) {
      const source = runtimeSourceOf(file);
      if (source !== null) {
        // A copy of hand-written source (runtimes/): its header names the source and the generator's version,
        // nothing of the spec, so a spec bump rewrites no copy. TypeScript and Python copies are the source as written.
        const mark = file.endsWith(".ts") || file.endsWith(".go") ? "//" : "#";
        const header = [
          `${mark} Code generated by mcp-codegen ${toolVersion}: a copy of ${source}. DO NOT EDIT.`,
          `${mark} Edit the source and regenerate the tree; the copy changes with its source or the generator's version, never with the spec.`,
        ].join("\n");
        // A Ruby file's first line is its frozen-string-literal magic comment, as Ruby's style has it.
        const magic = file.endsWith(".rb") ? "# frozen_string_literal: true\n" : "";
        expect(text.startsWith(magic + header + "\n"), file).toBe(true);
        // Nothing of the spec added: a spec hash, version or commit the copy carries is one its source has (the
        // Python client's DPoP proof computes a sha256 of its own).
        const specWords = (t: string) => t.match(/sha256|Protocol version|spec commit/g) ?? [];
        expect(specWords(text), file).toEqual(specWords(readFileSync(path.join(root, source), "utf8")));
        // A Go copy keeps an empty line after the header: the source's own comment before `package` stays the package's doc.
        if (!file.endsWith(".rb")) expect(text, file).toBe(`${header}\n${file.endsWith(".go") ? "\n" : ""}${readFileSync(path.join(root, source), "utf8")}`);
        continue;
      }
      // The generated package's files name their emitter, not a spec version (package.json in its "//" field,
      // JSON having no comments); the license text stays verbatim.
      if (file === "LICENSE") {
        expect(text).toBe(readFileSync(path.join(root, "LICENSE"), "utf8"));
        continue;
      }
      if (file === "package.json" || file === "README.md") {
        const first = file === "package.json" ? String(JSON.parse(text)["//"]) : text.split("\n")[0];
        expect(first, file).toMatch(/Code generated by mcp-codegen \(generator\/emit\/package\.ts\)\. DO NOT EDIT\./);
        continue;
      }
      // A review report records the bump that wrote it: the new bytes its name ends with, at that bump's commit
      // (an earlier bump's report keeps naming its own, whatever the lock pins now).
      const report = isReviewReport(file) ? /@[0-9a-f]+\.\.([0-9a-f]+)\.(md|json)$/.exec(file)! : null;
      if (report?.[2] === "json") {
        expect(JSON.parse(text).to.sha256, file).toMatch(new RegExp(`^${report[1]}[0-9a-f]*$`));
        continue;
      }
      const lines = text.split("\n");
      if (file.endsWith(".rb")) expect(lines.shift(), file).toBe("# frozen_string_literal: true");
      expect(lines[0], file).toMatch(/Code generated by mcp-codegen .*DO NOT EDIT\./);
      if (report) expect(text, file).toMatch(new RegExp(`schema sha256 ${report[1]}[0-9a-f]*, spec commit [0-9a-f]{40}`));
      else expect(text, file).toMatch(new RegExp(`schema sha256 [0-9a-f]{64}, spec commit (${commits.join("|")})`));
    }
    for (const [label, v] of Object.entries(lock.versions)) {
      expect(readTree(generatedDir).get(`${label}/types.ts`)).toMatch(
        new RegExp(`// Protocol version ${label} \\((legacy|modern)\\): schema sha256 ${v.sha256}, spec commit ${v.commit ?? lock.commit}`),
      );
    }
  });

  it.each(["tsconfig.generated.json", "tsconfig.json"])("type-checks under strict (%s)", async (config) => {
    // tsconfig.generated.json: the generated tree alone; tsconfig.json: with the generator and the tests.
    const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
    const r = spawnSync(process.execPath, [tsc, "-p", path.join(root, config), "--noEmit"], { encoding: "utf8" });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  });
});

describe("types.ts", () => {
  it("has exactly one export per definition, named as the definition, and no numbered duplicates", async () => {
    const model = buildModel({ schemasDir });
    const tree = readTree(generatedDir);
    for (const v of model.versions) {
      let text = tree.get(`${v.label}/types.ts`)!;
      // A version whose schema is another's re-exports that version's types.
      const same = /^export \* from "\.\.\/([^/]+)\/types\.js";$/m.exec(text);
      if (same) text = tree.get(`${same[1]}/types.ts`)!;
      const exported = [...text.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]);
      // A definition whose name is no identifier (a 2024 revision's "Record<string,string>") is exported
      // under the name its doc comment gives; every other one under its own.
      const renamed = new Map([...text.matchAll(/^ \* The definition ("(?:[^"\\]|\\.)*") of the schema, named (\w+) here\.$/gm)].map((m) => [JSON.parse(m[1]) as string, m[2]]));
      for (const name of renamed.keys()) expect(name, `${v.label}: renamed though an identifier`).not.toMatch(/^[A-Za-z_$][\w$]*$/);
      expect(exported, v.label).toEqual(Object.keys(v.definitions).sort().map((n) => renamed.get(n) ?? n));
    }
  });

  it("reads like the spec's TypeScript: interfaces that extend, index signatures where the spec's TypeScript has them", async () => {
    const types = readTree(generatedDir).get("2026-07-28/types.ts")!;
    const decl = (name: string) => {
      const start = types.search(new RegExp(`^export interface ${name}\\b`, "m"));
      return types.slice(start, types.indexOf("\n}", start) + 2);
    };
    // A closed interface in schema.ts: no index signature; its inherited members left to its base.
    expect(decl("CallToolRequest")).toBe('export interface CallToolRequest extends JSONRPCRequest {\n  method: "tools/call";\n  params: CallToolRequestParams;\n}');
    // `type MetaObject = Record<string, unknown>` and `interface Result { …; [key: string]: unknown }`.
    expect(decl("MetaObject")).toBe("export interface MetaObject {\n  [key: string]: unknown;\n}");
    expect(decl("Result")).toContain("\n  [key: string]: unknown;\n}");
    expect(types).toContain("export type EmptyResult = Result;");
  });
});

describe("--check", () => {
  it("exits 0 on the committed tree", async () => {
    const r = await runCli(["generate", "--check"]);
    expect(r.stderr).toContain("up to date");
    expect(r.status).toBe(0);
  });
});
