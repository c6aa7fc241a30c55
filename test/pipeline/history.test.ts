// Every published revision of the spec's schema (the development sample beside the checkout,
// `../shared/mcp-spec-history/<label>/schema.json`, or $MCP_SPEC_HISTORY_DIR) generates alone and
// together with the pinned versions, and the output compiles under strict. Which revisions are
// sound is Ajv's call, not this test's: a revision Ajv cannot compile (a dangling $ref) must be
// refused with exit 2, naming the file and the JSON pointer, with nothing written. So must a revision
// whose initialize takes a protocolVersion no string can be (read from the file): versions are
// negotiated by their labels.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolRoot } from "../../generator/paths.js";
import { copyRuntime } from "../../generator/emit/runtime-copy.js";
import { typescriptRuntime } from "../../generator/emit/typescript/runtime.js";
import { guardsFile, schemasFile, typesFile } from "../../generator/emit/typescript/tree.js";
import { buildModel, discoverVersions, generateFiles, type ModelOptions } from "../../generator/pipeline.js";
import { ensureSchemas, modelOptions, runCli, schemasDir } from "../support.js";
import { strictErrors } from "../emit/typescript/corpus.js";

const historyDir = path.resolve(
  process.env.MCP_SPEC_HISTORY_DIR ||
    [path.join(toolRoot, "..", "shared", "mcp-spec-history"), path.join(toolRoot, "..", "..", "shared", "mcp-spec-history")].find((d) => existsSync(d)) ||
    path.join(toolRoot, "..", "shared", "mcp-spec-history"),
);
const revisions = existsSync(historyDir) ? discoverVersions(historyDir) : [];
const tmpRoot = path.join(toolRoot, ".tmp", `history-${process.pid}`);
afterAll(() => rmSync(tmpRoot, { recursive: true, force: true }));

/** Ajv's verdict on a revision: null when every definition compiles, else its error. */
function ajvRefusal(file: string): { message: string; missingRef: string | undefined } | null {
  const doc = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  const container = Object.hasOwn(doc, "$defs") ? "$defs" : "definitions";
  const options = { strict: false, validateFormats: false } as const;
  const ajv = String(doc.$schema ?? "").includes("2020-12") || container === "$defs" ? new Ajv2020(options) : new Ajv(options);
  try {
    ajv.addSchema(doc, "mcp");
    for (const name of Object.keys(doc[container] as object)) ajv.getSchema(`mcp#/${container}/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`);
    return null;
  } catch (e) {
    return { message: (e as Error).message, missingRef: (e as { missingRef?: string }).missingRef };
  }
}

/**
 * Where a revision's initialize takes a protocolVersion that cannot be a string (the 2024 drafts' integer `1`),
 * read from the file: the JSON pointer of that schema, else null. Versions are negotiated by their labels, so
 * such a revision cannot be served or called, and the tool refuses it.
 */
function unlabelled(file: string): string | null {
  const doc = JSON.parse(readFileSync(file, "utf8")) as Record<string, Record<string, any>>;
  const container = Object.hasOwn(doc, "$defs") ? "$defs" : "definitions";
  const follow = (node: any, at: string): [any, string] => {
    const ref = typeof node?.$ref === "string" ? (node.$ref as string) : undefined;
    return ref === undefined ? [node, at] : follow(doc[container]?.[ref.split("/").pop()!], ref.slice(1));
  };
  const [params, paramsAt] = follow(doc[container]?.InitializeRequest?.properties?.params, `/${container}/InitializeRequest/properties/params`);
  const [version, at] = follow(params?.properties?.protocolVersion, `${paramsAt}/properties/protocolVersion`);
  if (version === undefined) return null;
  const types = version.type === undefined ? null : ([] as string[]).concat(version.type);
  const constants = version.const !== undefined ? [version.const] : Array.isArray(version.enum) ? version.enum : null;
  const noString = (types !== null && !types.includes("string")) || (constants !== null && !constants.some((c: unknown) => typeof c === "string"));
  return noString ? at : null;
}

const verdicts = new Map(revisions.map((r) => [r, ajvRefusal(path.join(historyDir, r, "schema.json"))]));
const unlabelledAt = new Map(revisions.map((r) => [r, unlabelled(path.join(historyDir, r, "schema.json"))]));
const sound = revisions.filter((r) => verdicts.get(r) === null && unlabelledAt.get(r) === null);
const broken = revisions.filter((r) => verdicts.get(r) !== null);
const notNegotiable = revisions.filter((r) => verdicts.get(r) === null && unlabelledAt.get(r) !== null);

/** A schemas folder holding only `labels` (copied from `from`), as `--schemas` takes it. */
function schemasFolder(name: string, labels: string[], from: (label: string) => string): string {
  const dir = path.join(tmpRoot, name, "schemas");
  for (const label of labels) {
    mkdirSync(path.join(dir, label), { recursive: true });
    copyFileSync(from(label), path.join(dir, label, "schema.json"));
  }
  return dir;
}

interface Tree {
  out: string;
  error: string | null;
  files: string[];
}

function writeFiles(out: string, files: Map<string, string>): string[] {
  for (const [file, text] of files) {
    mkdirSync(path.dirname(path.join(out, file)), { recursive: true });
    writeFileSync(path.join(out, file), text);
  }
  return [...files.keys()].filter((f) => f.endsWith(".ts")).map((f) => path.join(out, f));
}

/**
 * Generate in-process into `.tmp/…/out` (inside the project, so `zod` resolves). Where the whole tree
 * fails to generate, the schema printers' files are still emitted, each version's alone (with its
 * types.ts where the type emitter manages it), so that their own compilation is still judged.
 */
async function generateTree(name: string, options: ModelOptions): Promise<Tree> {
  const out = path.join(tmpRoot, name, "out");
  try {
    return { out, error: null, files: writeFiles(out, (await generateFiles(options)).files) };
  } catch (e) {
    const files = new Map(copyRuntime(typescriptRuntime));
    for (const version of buildModel(options).versions) {
      files.set(`${version.label}/schemas.ts`, schemasFile(version));
      files.set(`${version.label}/guards.ts`, guardsFile(version));
      try {
        files.set(`${version.label}/types.ts`, typesFile(version));
      } catch {
        // The type emitter's failure is the whole tree's error, reported by "generates".
      }
    }
    return { out, error: (e as Error).stack ?? String(e), files: writeFiles(out, files) };
  }
}

const trees = new Map<string, Tree>();
let diagnostics = new Map<string, string[]>();
const ALL = "all pinned versions and every sound revision";

/** The files of a tree whose printers are the schema IR's: schemas, guards, the type test and the runtime helpers. */
const isIrOutput = (file: string) => /(^|\/)(schemas|guards)\.ts$|runtime\/schema-support\.ts$/.test(file);

function errorsIn(tree: Tree, only?: (relative: string) => boolean): string[] {
  const out: string[] = [];
  for (const file of tree.files) {
    const relative = path.relative(tree.out, file).split(path.sep).join("/");
    if (only && !only(relative)) continue;
    for (const d of diagnostics.get(file) ?? []) out.push(`${relative}: ${d}`);
  }
  return out;
}

beforeAll(async () => {
  expect(revisions.length, `revisions in ${historyDir}`).toBeGreaterThan(0);
  await ensureSchemas();
  const pinned = discoverVersions(schemasDir);
  for (const label of sound) {
    const dir = schemasFolder(label, [label], (l) => path.join(historyDir, l, "schema.json"));
    trees.set(label, await generateTree(label, { schemasDir: dir, overridesFile: modelOptions.overridesFile }));
  }
  const together = schemasFolder("together", [...pinned, ...sound], (l) => path.join(pinned.includes(l) ? schemasDir : historyDir, l, "schema.json"));
  trees.set(ALL, await generateTree("together", { ...modelOptions, schemasDir: together }));

  // One program over every tree: the compiler's libraries and zod's types are read once.
  diagnostics = strictErrors([...trees.values()].flatMap((t) => t.files));
}, 900_000);

describe("every sound published revision", () => {
  it("has Ajv's word on which revisions are sound", () => {
    expect(sound.length).toBeGreaterThan(0);
  });

  describe.each([...sound, ALL])("%s", (label) => {
    it("generates", () => {
      expect(trees.get(label)!.error).toBeNull();
    });

    it("gives schemas.ts (with its type test), guards.ts and the runtime helpers that compile under strict", () => {
      const tree = trees.get(label)!;
      expect(tree.files.filter((f) => isIrOutput(path.relative(tree.out, f))).length).toBeGreaterThan(0);
      expect(errorsIn(tree, isIrOutput).slice(0, 10)).toEqual([]);
    });

    it("gives a whole tree that compiles under strict", () => {
      const tree = trees.get(label)!;
      expect(tree.error).toBeNull();
      expect(errorsIn(tree).slice(0, 10)).toEqual([]);
    });
  });
});

describe.each(broken)("the broken revision %s", (label) => {
  it("is refused with exit 2, naming the file and the JSON pointer, with nothing written", async () => {
    const dir = schemasFolder(`broken-${label}`, [label], (l) => path.join(historyDir, l, "schema.json"));
    const out = path.join(tmpRoot, `broken-${label}`, "out");
    const r = await runCli(["generate", "--schemas", dir, "--out", out]);
    expect(r.status).toBe(2);
    const file = path.join(dir, label, "schema.json");
    expect(r.stderr).toContain(`${file}#/`);
    // The reference Ajv could not resolve is the one named.
    const missing = verdicts.get(label)!.missingRef;
    if (missing !== undefined) expect(r.stderr).toContain(missing.slice(missing.indexOf("#")));
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(existsSync(out)).toBe(false);
  });
});

describe.each(notNegotiable)("the revision %s, whose initialize takes no string protocolVersion", (label) => {
  it("is refused with exit 2 at that protocolVersion (a version is negotiated by its label), with nothing written", async () => {
    const dir = schemasFolder(`unlabelled-${label}`, [label], (l) => path.join(historyDir, l, "schema.json"));
    const out = path.join(tmpRoot, `unlabelled-${label}`, "out");
    const r = await runCli(["generate", "--schemas", dir, "--out", out]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${path.join(dir, label, "schema.json")}#${unlabelledAt.get(label)}: `);
    expect(r.stderr).toContain("negotiated by its label");
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(existsSync(out)).toBe(false);
  });
});
