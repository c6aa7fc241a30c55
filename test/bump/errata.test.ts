// Issue 17: every bump review report says which errata the bump brings, which it makes go away, and
// which change status. Issue 35: a reviewed patch whose own `test` operations still hold on the new
// bytes is carried to them (its errata stay fixed), one whose test fails is reopened with the pointer
// that moved. Run in a copy of the project on a version whose bytes the JSONValue patch covers (read
// from the lock and the patch files, whichever label that is), re-pinned to edited bytes of the same schema.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { sha256 } from "../../generator/files.js";
import type { VersionDiff } from "../../generator/diff/version.js";
import type { BumpReview } from "../../generator/reports/bump-review.js";
import { readLock } from "../../generator/source/lock.js";
import { buildModel } from "../../generator/pipeline.js";
import { patchesFor, readPatches } from "../../generator/source/patch.js";
import { ensureSchemas, lockFile, modelOptions, projectCopy, runCli, schemasDir, tempDir } from "../support.js";

const lock = await readLock(lockFile);
const covered = Object.keys(lock.versions)
  .sort()
  .map((label) => ({ label, patch: patchesFor(modelOptions.patchesDir, lock.versions[label].sha256)?.patches.find((p) => p.ops.some((op) => op.path.includes("/JSONValue/"))) }))
  .find((v) => v.patch !== undefined);

beforeAll(ensureSchemas);

it("a locked version's bytes are covered by the JSONValue patch", () => {
  expect(covered).toBeDefined();
});

/** Bump `label` of a project copy to `bytes` (with its synced schema.ts), and read the review report. */
async function bumpTo(label: string, bytes: string) {
  const project = projectCopy();
  const from = tempDir();
  mkdirSync(path.join(from, label));
  writeFileSync(path.join(from, label, "schema.json"), bytes);
  cpSync(path.join(schemasDir, label, "schema.ts"), path.join(from, label, "schema.ts"));
  const r = await runCli(["bump", "--from", from, "--versions", label, "--commit", lock.versions[label].commit ?? lock.commit, "--format", "json"], {}, project);
  const report = `${label}@${lock.versions[label].sha256.slice(0, 12)}..${sha256(bytes).slice(0, 12)}`;
  const read = (ext: string) => readFileSync(path.join(project, "generated", "DIFFS", `${report}.${ext}`), "utf8");
  return { r, project, md: r.status === 0 ? read("md") : "", json: r.status === 0 ? (JSON.parse(read("json")) as VersionDiff & { review: BumpReview }) : null };
}

describe.runIf(covered !== undefined)("bump of the version the JSONValue patch covers", () => {
  const { label, patch } = covered!;
  const at = patch!.ops.find((op) => op.op === "replace")!.path;
  const published = readFileSync(path.join(schemasDir, label, "schema.json"), "utf8");
  /** The published document with the value at `at` replaced. */
  const edited = (value: unknown) => {
    const doc = JSON.parse(published) as Record<string, unknown>;
    const tokens = at.split("/").slice(1);
    const parent = tokens.slice(0, -1).reduce<Record<string, unknown>>((node, t) => node[t] as Record<string, unknown>, doc);
    parent[tokens.at(-1)!] = value;
    return JSON.stringify(doc, null, 2);
  };

  it("to the same schema in other bytes: every patch is carried to the new bytes' file, still applied, its errata still fixed, no warning", async () => {
    const bytes = JSON.stringify(JSON.parse(published));
    const { r, project, md, json } = await bumpTo(label, bytes);
    expect(r.status, r.stderr).toBe(0);
    const old = patchesFor(modelOptions.patchesDir, lock.versions[label].sha256)!;
    const names = old.patches.map((p) => p.name);
    expect(names).toContain(patch!.name);
    expect(r.stderr).not.toContain("not carried");
    // The review lists each patch as carried, from the old bytes' file to the new bytes' file.
    expect(json!.review.patches).toEqual({
      from: `${lock.versions[label].sha256.slice(0, 12)}.json`,
      to: `${sha256(bytes).slice(0, 12)}.json`,
      outcomes: names.map((name) => ({ name, status: "carried" })),
    });
    for (const name of names) expect(md).toContain(`| \`${name}\` | carried | — | its tests hold on the new bytes |`);
    // The bump committed the carried patches keyed to the new bytes, exactly as reviewed.
    const carried = readPatches(path.join(project, "schemas", "patches", `${sha256(bytes).slice(0, 12)}.json`));
    expect(carried).toEqual({ sha256: sha256(bytes), patches: old.patches });
    // No erratum at the pointer changed status, and the project's model still applies the patch: fixed.
    expect(json!.errata.changes.filter((e) => e.pointer === at)).toEqual([]);
    const after = buildModel({
      schemasDir: path.join(project, "schemas"),
      versions: [label],
      lock: await readLock(path.join(project, "schemas", "lock.json")),
      patchesDir: path.join(project, "schemas", "patches"),
      errataReviewedFile: path.join(project, "schemas", "errata-reviewed.json"),
    }).versions[0];
    expect(after.sha256).toBe(sha256(bytes));
    expect(after.patches).toEqual(names);
    const atPointer = (after.errata ?? []).filter((e) => e.pointer === at);
    expect(atPointer.map((e) => [e.kind, e.status])).toEqual([
      ["integer", "fixed"],
      ["null", "fixed"],
    ]);
  });

  it("to bytes where the patch's tested value moved: that patch is reopened naming the pointer, the others carried, and bump warns", async () => {
    const moved = ["string", "number", "boolean"];
    const bytes = edited(moved);
    const { r, project, md, json } = await bumpTo(label, bytes);
    expect(r.status, r.stderr).toBe(0);
    const test = patch!.ops.find((op) => op.op === "test" && op.path === at)!;
    expect(test).toBeDefined();
    const old = patchesFor(modelOptions.patchesDir, lock.versions[label].sha256)!.patches;
    expect(json!.review.patches.outcomes).toEqual(
      old.map((p) => (p.name === patch!.name ? { name: p.name, status: "reopened", reason: "test failed", pointer: at, expected: test.value, found: moved } : { name: p.name, status: "carried" })),
    );
    expect(md).toContain(`| \`${patch!.name}\` | reopened | \`${at}\` | its test at ${at} expected ${JSON.stringify(test.value)}, the new bytes have ${JSON.stringify(moved)} |`);
    expect(r.stderr).toContain(`mcp-codegen: warning: ${label}: reviewed patch "${patch!.name}" is not carried to the new bytes: its test at ${at} expected ${JSON.stringify(test.value)}`);
    // Only the carried ones are in the new bytes' file. The new bytes say number (the integer erratum is
    // gone: the spec fixed it) but still no null: that erratum, which the patch fixed, is open again.
    const carried = readPatches(path.join(project, "schemas", "patches", `${sha256(bytes).slice(0, 12)}.json`));
    expect(carried?.patches.map((p) => p.name)).toEqual(old.filter((p) => p.name !== patch!.name).map((p) => p.name));
    expect(json!.errata.changes.filter((e) => e.pointer === at).map((e) => [e.change, e.kind, e.from, e.to])).toEqual([
      ["gone", "integer", "fixed", null],
      ["status", "null", "fixed", "open"],
    ]);
  });

  it("to a schema that says number and null but drops boolean: the JSONValue errata are gone, a type erratum is brought", async () => {
    const { r, md, json } = await bumpTo(label, edited(["string", "number", "null"]));
    expect(r.status, r.stderr).toBe(0);
    expect(json!.errata.changes.filter((e) => e.pointer === at).map((e) => [e.change, e.kind, e.schemaJson, e.schemaTs, e.from, e.to])).toEqual([
      ["gone", "integer", "integer", "number", "fixed", null],
      ["gone", "null", "no null", "null", "fixed", null],
      // The kinds each side admits besides the references both make (JSONObject, compared at its own definition).
      ["brought", "type", "array | number | string", "array | boolean | number | string", null, "open"],
    ]);
    expect(md).toContain(`| gone | integer | \`${at}\` |`);
    expect(md).toContain(`| brought | type | \`${at}\` | \`array \\| number \\| string\` |`);
  });
});
