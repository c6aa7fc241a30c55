// Issue 17: every bump review report says which errata the bump brings, which it makes go away, and
// which change status (a reviewed patch applies only to the bytes it was reviewed against). Run in a
// copy of the project on a version whose bytes the JSONValue patch covers (read from the lock and the
// patch files, whichever label that is), re-pinned to edited bytes of the same schema.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { sha256 } from "../../generator/files.js";
import type { VersionDiff } from "../../generator/diff/version.js";
import { readLock } from "../../generator/source/lock.js";
import { patchesFor } from "../../generator/source/patch.js";
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
  return { r, md: r.status === 0 ? read("md") : "", json: r.status === 0 ? (JSON.parse(read("json")) as VersionDiff) : null };
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

  it("to the same schema in other bytes: the patch no longer applies, so its errata change from fixed to open, and bump warns", async () => {
    const { r, md, json } = await bumpTo(label, JSON.stringify(JSON.parse(published)));
    expect(r.status, r.stderr).toBe(0);
    // Every patch of the old bytes is named (the JSONValue one among them).
    const names = patchesFor(modelOptions.patchesDir, lock.versions[label].sha256)!.patches.map((p) => `"${p.name}"`);
    expect(names).toContain(`"${patch!.name}"`);
    expect(r.stderr).toContain(`mcp-codegen: warning: ${label}: reviewed patch ${names.join(", ")} applied to the old bytes and does not apply to the new ones`);
    expect(json!.errata.compared).toBe(true);
    expect(json!.errata.changes.filter((e) => e.pointer === at).map((e) => [e.change, e.kind, e.from, e.to])).toEqual([
      ["status", "integer", "fixed", "open"],
      ["status", "null", "fixed", "open"],
    ]);
    expect(md).toContain(`| status changed | integer | \`${at}\` | \`integer\` | \`number\``);
    expect(md).toContain(`| status changed | null | \`${at}\` | \`no null\` | \`null\``);
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
