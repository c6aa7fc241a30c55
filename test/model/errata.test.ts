// Issue 17: errata found by the generator, where a version's schema.json and the spec's schema.ts
// disagree; reviewed fixes as data (schemas/patches/, schemas/errata-reviewed.json).
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import { InputError } from "../../generator/errors.js";
import { sha256 } from "../../generator/files.js";
import { findErrata, type Erratum } from "../../generator/model/errata.js";
import { reviewedErrata } from "../../generator/source/reviewed.js";
import { parseSpecSource } from "../../generator/model/spec-typescript.js";
import { readJsonFile } from "../../generator/files.js";
import { buildModel } from "../../generator/pipeline.js";
import { readLock } from "../../generator/source/lock.js";
import { readSchemaDocument } from "../../generator/source/load.js";
import { patchesFor } from "../../generator/source/patch.js";
import { ensureSchemas, generatedDir, lockFile, modelOptions, root, runCli, schemasDir, tempDir } from "../support.js";

const fixture = path.join(root, "test", "fixtures", "errata");
/** schemas/errata-reviewed.json as the pipeline reads it: the file's JSON, checked. */
const readReviewed = (file: string) => reviewedErrata(readJsonFile(file), file);
const lock = await readLock(lockFile);
const labels = Object.keys(lock.versions).sort();

beforeAll(ensureSchemas);

describe("the comparison, on a synthetic schema.json/schema.ts pair with one disagreement of each kind", () => {
  const found = () => {
    const bytes = readFileSync(path.join(fixture, "schema.json"));
    const file = path.join(fixture, "schema.ts");
    return findErrata(readSchemaDocument(bytes, "schema.json").root, parseSpecSource(file, readFileSync(file, "utf8")));
  };
  const brief = (e: Erratum) => `${e.kind} ${e.definition} ${e.pointer} | ${e.schemaJson} | ${e.schemaTs} | line ${e.line}`;

  it("finds exactly the disagreements written into the fixture, with the schema.json pointer and the schema.ts line", () => {
    // Read off the fixture files by hand: each line is one place where the two files differ.
    expect(found().map(brief)).toEqual([
      // `Agrees | NullKind`: schema.json writes NullKind inline as a string, without its null (schema.ts line 16).
      `null Alias /$defs/Alias/anyOf/1/type | no null | null | line 16`,
      `open ClosedKind /$defs/ClosedKind/additionalProperties | open (additionalProperties) | closed (no index signature) | line 40`,
      `integer IntegerKind /$defs/IntegerKind/properties/ratio/type | integer | number | line 13`,
      `literal LiteralKind /$defs/LiteralKind/properties/mode/enum | "a" | "b" | "c" | "a" | "b" | line 23`,
      // Inside an inline object: `deep: number` against type [integer, null].
      `integer Nested /$defs/Nested/properties/inner/properties/deep/type | integer | number | line 47`,
      `null Nested /$defs/Nested/properties/inner/properties/deep/type | null | no null | line 47`,
      `null NullKind /$defs/NullKind/type | no null | null | line 16`,
      `open OpenKind /$defs/OpenKind/additionalProperties | closed (additionalProperties: false) | open (index signature) | line 36`,
      `property PropertyKind /$defs/PropertyKind/properties/onlyInJson | declared | not declared | line 31`,
      `property PropertyKind /$defs/PropertyKind/properties/onlyInTs | not declared | declared | line 33`,
      `required RequiredKind /$defs/RequiredKind/properties/must | optional | required | line 27`,
      `required RequiredKind /$defs/RequiredKind/required/0 | required | optional | line 28`,
      `type TypeKind /$defs/TypeKind/properties/flag/type | string | boolean | line 19`,
    ]);
  });

  it("finds nothing once schema.json says what schema.ts says", () => {
    const doc = readSchemaDocument(readFileSync(path.join(fixture, "schema.json")), "schema.json").root as { $defs: Record<string, unknown> };
    const defs = doc.$defs;
    defs.Alias = { anyOf: [{ $ref: "#/$defs/Agrees" }, { type: ["string", "null"] }] };
    defs.ClosedKind = { type: "object", properties: { a: { type: "string" } }, required: ["a"] };
    defs.IntegerKind = { type: "object", properties: { ratio: { type: "number" } }, required: ["ratio"] };
    defs.LiteralKind = { type: "object", properties: { mode: { type: "string", enum: ["a", "b"] } }, required: ["mode"] };
    defs.Nested = { type: "object", properties: { inner: { type: "object", properties: { deep: { type: "number" } }, required: ["deep"] }, list: { type: "array", items: { $ref: "#/$defs/IntegerKind" } } }, required: ["inner", "list"] };
    defs.NullKind = { type: ["string", "null"] };
    defs.OpenKind = { type: "object", additionalProperties: {} };
    defs.PropertyKind = { type: "object", properties: { shared: { type: "string" }, onlyInTs: { type: "string" } }, required: ["shared", "onlyInTs"] };
    defs.RequiredKind = { type: "object", properties: { must: { type: "string" }, may: { type: "string" } }, required: ["must"] };
    defs.TypeKind = { type: "object", properties: { flag: { type: "boolean" } }, required: ["flag"] };
    const file = path.join(fixture, "schema.ts");
    expect(findErrata(doc, parseSpecSource(file, readFileSync(file, "utf8")))).toEqual([]);
  });

  it("`mcp-codegen errata --schemas DIR` prints every finding as open (nothing reviewed or patched for those bytes), in Markdown and JSON", async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, "pair"));
    cpSync(path.join(fixture, "schema.json"), path.join(dir, "pair", "schema.json"));
    cpSync(path.join(fixture, "schema.ts"), path.join(dir, "pair", "schema.ts"));
    const json = await runCli(["errata", "--schemas", dir, "--format", "json"]);
    expect(json.stderr).toBe("");
    expect(json.status).toBe(0);
    const report = JSON.parse(json.stdout) as { format: string; formatVersion: number; versions: Array<{ label: string; schemaTs: boolean; findings: Array<Erratum & { status: string; by: string | null }> }> };
    expect([report.format, report.formatVersion]).toEqual(["mcp-codegen/errata", 1]);
    expect(report.versions.map((v) => v.label)).toEqual(["pair"]);
    const findings = report.versions[0].findings;
    expect(findings.map(({ status, by, ...e }) => [status, by, brief(e)])).toEqual(found().map((e) => ["open", null, brief(e)]));
    const md = await runCli(["errata", "--schemas", dir]);
    expect(md.status).toBe(0);
    expect(md.stdout).toContain("### pair");
    expect(md.stdout).toContain("| **open** | required | `/$defs/RequiredKind/required/0` | `required` | `optional` (line 28) |");
    expect(md.stdout.split("\n").filter((l) => l.startsWith("| **open** |"))).toHaveLength(13);
  });

  it("a version without schema.ts has nothing to compare with", async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, "json-only"));
    cpSync(path.join(fixture, "schema.json"), path.join(dir, "json-only", "schema.json"));
    const r = await runCli(["errata", "--schemas", dir]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("### json-only\n\nNo schema.ts: nothing to compare with.");
  });
});

describe("the JSONValue defect of the pinned bytes: found as published, fixed by its reviewed patch", () => {
  /**
   * Every locked version whose schema.json bytes have a reviewed patch, with it, and whose schema.ts is pinned
   * (errata compare the two: a revision a bump brings without its schema.ts has nothing to compare with).
   */
  const patched = labels
    .filter((label) => lock.versions[label].schemaTs !== undefined)
    .map((label) => ({ label, reviewed: patchesFor(modelOptions.patchesDir, lock.versions[label].sha256) }))
    .filter((v): v is { label: string; reviewed: NonNullable<ReturnType<typeof patchesFor>> } => v.reviewed !== null);
  const jsonValuePatch = (v: (typeof patched)[number]) => v.reviewed.patches.find((p) => p.ops.some((op) => op.path.includes("/JSONValue/")));

  it("the JSONValue patch applies to at least one locked version (a patch whose bytes are no longer pinned must be reviewed again)", () => {
    expect(patched.filter(jsonValuePatch).length).toBeGreaterThan(0);
  });

  it.each(labels)("%s: when the patch covers its bytes, the published schema.json drops what schema.ts says, errata finds it there, and not after the patch", (label) => {
    const v = patched.find((p) => p.label === label);
    const patch = v && jsonValuePatch(v);
    if (patch === undefined) return; // this version's bytes are not the ones the patch was reviewed against
    const file = path.join(schemasDir, label, "schema.json");
    const tsFile = path.join(schemasDir, label, "schema.ts");
    const ts = readFileSync(tsFile, "utf8");
    const published = readSchemaDocument(readFileSync(file), file).root;
    const at = patch.ops.find((op) => op.op === "replace")!.path;
    // Independent reading of both files: schema.json's primitive types lack number and null; schema.ts's union has both.
    const written = at.split("/").slice(1).reduce<unknown>((node, token) => (node as Record<string, unknown>)[token], published) as string[];
    expect(written).not.toContain("number");
    expect(written).not.toContain("null");
    const declared = /export type JSONValue =([^;]*);/.exec(ts)![1].split("|").map((s) => s.trim());
    expect(declared).toEqual(expect.arrayContaining(["number", "null"]));
    const line = ts.slice(0, ts.indexOf("export type JSONValue =")).split("\n").length + 1;

    const before = findErrata(published, parseSpecSource(tsFile, ts)).filter((e) => e.pointer === at);
    expect(before.map((e) => [e.kind, e.schemaTs, e.line])).toEqual([
      ["integer", "number", line],
      ["null", "null", line],
    ]);
    const after = findErrata(readSchemaDocument(readFileSync(file), file, { patchesDir: modelOptions.patchesDir }).root, parseSpecSource(tsFile, ts));
    expect(after.filter((e) => e.pointer === at)).toEqual([]);
  });

  it("`mcp-codegen errata` lists them, for every version the patch covers, as fixed by it; and MATRIX.md shows the same", async () => {
    const r = await runCli(["errata", "--format", "json"]);
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout) as { versions: Array<{ label: string; patches: string[]; findings: Array<Erratum & { status: string; by: string | null }> }>; stalePatches: string[] };
    const validate = new Ajv2020({ allErrors: true, strict: true }).compile(JSON.parse(readFileSync(path.join(schemasDir, "errata.schema.json"), "utf8")));
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...report, formatVersion: 2 })).toBe(false);
    expect(report.versions.map((v) => v.label)).toEqual(labels);
    expect(report.stalePatches).toEqual([]);
    const matrix = readFileSync(path.join(generatedDir, "MATRIX.md"), "utf8");
    for (const v of patched.filter(jsonValuePatch)) {
      const patch = jsonValuePatch(v)!;
      const at = patch.ops.find((op) => op.op === "replace")!.path;
      const listed = report.versions.find((x) => x.label === v.label)!;
      expect(listed.patches).toContain(patch.name);
      expect(listed.findings.filter((e) => e.pointer === at).map((e) => [e.kind, e.status, e.by])).toEqual([
        ["integer", "fixed", patch.name],
        ["null", "fixed", patch.name],
      ]);
      const section = matrix.slice(matrix.indexOf(`### ${v.label}\n`));
      expect(section).toContain(`| fixed by \`${patch.name}\` | integer | \`${at}\` |`);
      expect(section).toContain(`| fixed by \`${patch.name}\` | null | \`${at}\` |`);
    }
  });

  it("MATRIX.md counts each version's findings by status, as the model has them", () => {
    const model = buildModel({ ...modelOptions, lock });
    const matrix = readFileSync(path.join(generatedDir, "MATRIX.md"), "utf8");
    for (const v of model.versions) {
      const row = matrix.split("\n").find((l) => l.startsWith(`| ${v.label} |`))!;
      if (!v.errata) {
        expect(row).toContain("| no schema.ts |");
        continue;
      }
      const n = (s: string) => v.errata!.filter((e) => e.status === s).length;
      expect(row).toContain(v.errata.length === 0 ? "| none |" : `| ${n("fixed")} fixed · ${n("reviewed")} reviewed · ${n("open")} open |`);
    }
  });

  it("every reviewed entry says why, and every pointer it lists is a finding of some locked version", () => {
    const model = buildModel({ ...modelOptions, lock });
    const reviewed = readReviewed(modelOptions.errataReviewedFile);
    const seen = new Set(model.versions.flatMap((v) => (v.errata ?? []).filter((e) => e.status === "reviewed").map((e) => `${e.kind} ${e.pointer}`)));
    for (const entry of reviewed) {
      expect(entry.why.length).toBeGreaterThan(40);
      for (const p of entry.pointers) expect(seen.has(`${entry.kind} ${p}`), `${entry.kind} ${p}`).toBe(true);
    }
  });
});

describe("schemas/errata-reviewed.json is read like the other reviewed files", () => {
  function read(content: unknown): unknown {
    const file = path.join(tempDir(), "errata-reviewed.json");
    writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
    try {
      return readReviewed(file);
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      expect(e.file).toBe(file);
      expect(e.message.startsWith(`${file}#${e.pointer}: `)).toBe(true);
      return { error: e.pointer };
    }
  }

  it("reads kind, pointers and why; nothing from a file that does not exist", () => {
    const entry = { kind: "integer", pointers: ["/$defs/X/type"], why: "because" };
    expect(read({ reviewed: [entry] })).toEqual([entry]);
    expect(readReviewed(path.join(tempDir(), "absent.json"))).toEqual([]);
  });

  it("names the pointer of what is wrong", () => {
    expect(read("{")).toEqual({ error: "" });
    expect(read({ reviewd: [] })).toEqual({ error: "/reviewed" });
    expect(read({ reviewed: [1] })).toEqual({ error: "/reviewed/0" });
    expect(read({ reviewed: [{ kind: "float", pointers: ["/a"], why: "w" }] })).toEqual({ error: "/reviewed/0/kind" });
    expect(read({ reviewed: [{ kind: "null", pointers: [], why: "w" }] })).toEqual({ error: "/reviewed/0/pointers" });
    expect(read({ reviewed: [{ kind: "null", pointers: ["a"], why: "w" }] })).toEqual({ error: "/reviewed/0/pointers/0" });
    expect(read({ reviewed: [{ kind: "null", pointers: ["/a"], why: " " }] })).toEqual({ error: "/reviewed/0/why" });
  });

  it("a reviewed entry turns an open finding into a reviewed one, with its reason, in the CLI's output", async () => {
    // A project of its own around the fixture pair: its schemas/errata-reviewed.json reviews one finding.
    const project = tempDir();
    writeFileSync(path.join(project, "package.json"), "{}");
    mkdirSync(path.join(project, "schemas", "pair"), { recursive: true });
    cpSync(path.join(fixture, "schema.json"), path.join(project, "schemas", "pair", "schema.json"));
    cpSync(path.join(fixture, "schema.ts"), path.join(project, "schemas", "pair", "schema.ts"));
    const why = "IntegerKind.ratio is a whole number by its meaning in this fixture.";
    writeFileSync(path.join(project, "schemas", "errata-reviewed.json"), JSON.stringify({ reviewed: [{ kind: "integer", pointers: ["/$defs/IntegerKind/properties/ratio/type"], why }] }));
    const r = await runCli(["errata", "--schemas", "schemas", "--format", "json"], {}, project);
    expect(r.status).toBe(0);
    const findings = (JSON.parse(r.stdout) as { versions: Array<{ findings: Array<{ kind: string; pointer: string; status: string; by: string | null }> }> }).versions[0].findings;
    expect(findings.filter((e) => e.status !== "open").map((e) => [e.kind, e.pointer, e.status, e.by])).toEqual([["integer", "/$defs/IntegerKind/properties/ratio/type", "reviewed", why]]);
    const md = await runCli(["errata", "--schemas", "schemas"], {}, project);
    expect(md.stdout).toContain("| reviewed [1] | integer | `/$defs/IntegerKind/properties/ratio/type` |");
    expect(md.stdout).toContain(`1. ${why}`);
  });

  it("`mcp-codegen errata` exits 2 on a bad reviewed file or a misnamed patch file, naming the file and pointer; --help exits 0", async () => {
    const project = tempDir();
    writeFileSync(path.join(project, "package.json"), "{}");
    mkdirSync(path.join(project, "schemas", "pair"), { recursive: true });
    cpSync(path.join(fixture, "schema.json"), path.join(project, "schemas", "pair", "schema.json"));
    cpSync(path.join(fixture, "schema.ts"), path.join(project, "schemas", "pair", "schema.ts"));
    const reviewedFile = path.join(project, "schemas", "errata-reviewed.json");
    writeFileSync(reviewedFile, JSON.stringify({ reviewed: [{ kind: "float", pointers: ["/a"], why: "w" }] }));
    const bad = await runCli(["errata", "--schemas", "schemas"], {}, project);
    expect([bad.status, bad.stdout]).toEqual([2, ""]);
    expect(bad.stderr).toBe(`mcp-codegen: error: ${reviewedFile}#/reviewed/0/kind: expected a kind of finding: integer, null, type, literal, required, property, open\n`);

    writeFileSync(reviewedFile, JSON.stringify({ reviewed: [] }));
    const sha = sha256(readFileSync(path.join(fixture, "schema.json")));
    const patchFile = path.join(project, "schemas", "patches", `${sha.slice(0, 12)}.json`);
    mkdirSync(path.dirname(patchFile));
    writeFileSync(patchFile, JSON.stringify({ sha256: sha256("other bytes"), patches: [] }));
    const misnamed = await runCli(["errata", "--schemas", "schemas"], {}, project);
    expect([misnamed.status, misnamed.stdout]).toEqual([2, ""]);
    expect(misnamed.stderr).toContain(`mcp-codegen: error: ${patchFile}#/sha256: a patch file is named by the first 12 hex digits of the sha256 it was reviewed against`);

    const help = await runCli(["errata", "--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout.startsWith("Usage: mcp-codegen errata [--versions a,b] [--format md|json]")).toBe(true);
  });
});
