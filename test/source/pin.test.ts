import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { pinLock, pinSummary } from "../../generator/bump.js";
import { readLock, sha256 } from "../../generator/source/lock.js";
import { lockFile, runCli, tempDir } from "../diff/helpers.js";

// Small hand-written schemas: version 1.0 before and after a change, and a new version 2.0.
const schema = (defs: Record<string, unknown>) => JSON.stringify({ $schema: "https://json-schema.org/draft/2020-12/schema", $defs: defs }, null, 2) + "\n";
const request = (method: string) => ({ type: "object", properties: { method: { const: method, type: "string" } }, required: ["method"] });
const base = {
  Result: { type: "object", properties: { _meta: { type: "object" } } },
  EmptyResult: { $ref: "#/$defs/Result" },
  PingRequest: request("ping"),
};
const v1Old = schema({ ...base, ClientRequest: { anyOf: [{ $ref: "#/$defs/PingRequest" }] } });
const v1New = schema({
  ...base,
  EchoRequest: request("echo"),
  EchoResult: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  ClientRequest: { anyOf: [{ $ref: "#/$defs/PingRequest" }, { $ref: "#/$defs/EchoRequest" }] },
});
const v2 = schema({ ...base, ClientRequest: { anyOf: [{ $ref: "#/$defs/PingRequest" }] } });

function write(file: string, text: string) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

function setUp() {
  const dir = tempDir();
  const lock = path.join(dir, "lock.json");
  const schemas = path.join(dir, "schemas");
  const commit = "a".repeat(40);
  write(lock, JSON.stringify({
    repository: "https://example.test/spec",
    commit,
    rawUrl: "https://example.test/{commit}/{path}",
    versions: { "1.0": { path: "schema/1.0/schema.json", sha256: sha256(v1Old) } },
  }));
  write(path.join(schemas, "1.0", "schema.json"), v1Old);
  const spec = path.join(dir, "spec");
  write(path.join(spec, "1.0", "schema.json"), v1New);
  // A checkout's layout: schema/<version>/schema.json.
  write(path.join(spec, "schema", "2.0", "schema.json"), v2);
  return { dir, lock, schemas, spec, commit };
}

describe("schemas pin --from", () => {
  it("adds the new version, rehashes the changed one, writes the lock and the schema files, and summarizes", async () => {
    const { lock, schemas, spec, commit } = setUp();
    const next = "b".repeat(40);
    const result = await pinLock({ lockFile: lock, schemasDir: schemas, from: spec, commit: next });

    const written = await readLock(lock);
    expect(written).toEqual({
      repository: "https://example.test/spec",
      commit: next,
      rawUrl: "https://example.test/{commit}/{path}",
      versions: {
        "1.0": { path: "schema/1.0/schema.json", sha256: sha256(v1New) },
        "2.0": { path: "schema/2.0/schema.json", sha256: sha256(v2) },
      },
    });
    expect(readFileSync(path.join(schemas, "1.0", "schema.json"), "utf8")).toBe(v1New);
    expect(readFileSync(path.join(schemas, "2.0", "schema.json"), "utf8")).toBe(v2);

    expect(result.versions.map((v) => [v.version, v.status])).toEqual([["1.0", "changed"], ["2.0", "added"]]);
    const diff = result.versions[0].diff!;
    expect(diff.methods.map((m) => [m.method, m.change, m.sender])).toEqual([["echo", "added", "client"]]);
    expect(diff.definitions.map((d) => [d.definition, d.change])).toEqual([["ClientRequest", "changed"], ["EchoRequest", "added"], ["EchoResult", "added"]]);
    expect(pinSummary(result)).toBe(
      [
        `lock: commit ${commit} → ${next}`,
        `  1.0: changed (sha256 ${sha256(v1Old)} → ${sha256(v1New)}): methods +1 -0 ~0, normalizers ~1, definitions +2 -0 ~1; 1 breaking, 4 not`,
        // 2.0 is compared with the locked version before it (1.0 as it was): the same definitions.
        `  2.0: new version (sha256 ${sha256(v2)}), against 1.0: methods +0 -0 ~0, normalizers ~0, definitions +0 -0 ~0; 0 breaking, 0 not`,
        "",
      ].join("\n"),
    );
  });

  it("keeps the commit and warns when the folder is not a git checkout and no --commit is given", async () => {
    const { lock, schemas, spec, commit } = setUp();
    const result = await pinLock({ lockFile: lock, schemasDir: schemas, from: spec });
    expect((await readLock(lock)).commit).toBe(commit);
    // The fixture's own method ("echo") has no reviewed capability entry: the bump names it too.
    expect(result.warnings).toHaveLength(2);
    expect(result.warnings.filter((w) => w.includes("is not a git checkout"))).toHaveLength(1);
    expect(result.warnings.filter((w) => w.includes('method "echo" has no reviewed capability entry'))).toHaveLength(1);
  });

  it("writes nothing when a new schema is not valid", async () => {
    const { lock, schemas, spec } = setUp();
    write(path.join(spec, "schema", "2.0", "schema.json"), "{ not json");
    const before = readFileSync(lock, "utf8");
    await expect(pinLock({ lockFile: lock, schemasDir: schemas, from: spec, commit: "c".repeat(40) })).rejects.toThrow(/invalid JSON|JSON/);
    expect(readFileSync(lock, "utf8")).toBe(before);
    expect(readFileSync(path.join(schemas, "1.0", "schema.json"), "utf8")).toBe(v1Old);
  });

  it("fails when the folder lacks a locked version", async () => {
    const { lock, schemas, dir } = setUp();
    write(path.join(dir, "other", "3.0", "schema.json"), v2);
    await expect(pinLock({ lockFile: lock, schemasDir: schemas, from: path.join(dir, "other") })).rejects.toThrow("no schema for the locked version 1.0");
  });
});

describe("mcp-codegen schemas pin --from (CLI)", () => {
  it("writes the lock given with --lock and prints the version-diff summary", async () => {
    const { lock, schemas, spec, commit } = setUp();
    const next = "c".repeat(40);
    const r = await runCli(["schemas", "pin", "--from", spec, "--commit", next, "--lock", lock, "--schemas", schemas]);
    // The one warning: the fixture's method "echo" has no reviewed capability entry.
    expect(r.stderr).toBe(
      'mcp-codegen: warning: 1.0: method "echo" has no reviewed capability entry: add { "requires": [...], "reason": "..." } for it to schemas/method-capabilities.json (its test fails until then)\n',
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(
      [
        `lock: commit ${commit} → ${next}`,
        `  1.0: changed (sha256 ${sha256(v1Old)} → ${sha256(v1New)}): methods +1 -0 ~0, normalizers ~1, definitions +2 -0 ~1; 1 breaking, 4 not`,
        // 2.0 is compared with the locked version before it (1.0 as it was): the same definitions.
        `  2.0: new version (sha256 ${sha256(v2)}), against 1.0: methods +0 -0 ~0, normalizers ~0, definitions +0 -0 ~0; 0 breaking, 0 not`,
        "",
      ].join("\n"),
    );
    expect((await readLock(lock)).versions["2.0"]).toEqual({ path: "schema/2.0/schema.json", sha256: sha256(v2) });
  });
});

describe("schemas pin --commit", () => {
  it("downloads every locked version plus --versions at the new commit", async () => {
    const { lock, schemas } = setUp();
    const next = "d".repeat(40);
    const asked: string[] = [];
    const ts = "export type Ping = { method: \"ping\" };\n";
    const at = (p: string) => `https://example.test/${next}/${p}`;
    // 1.0 has a schema.ts at that commit; 2.0 was published as JSON only (404).
    const files: Record<string, string> = { [at("schema/1.0/schema.json")]: v1Old, [at("schema/1.0/schema.ts")]: ts, [at("schema/2.0/schema.json")]: v2 };
    const result = await pinLock({
      lockFile: lock, schemasDir: schemas, commit: next, versions: ["2.0"],
      download: async (url) => {
        asked.push(url);
        if (!(url in files)) throw new Error("HTTP 404");
        return new TextEncoder().encode(files[url]);
      },
    });
    expect(asked).toEqual([at("schema/1.0/schema.json"), at("schema/1.0/schema.ts"), at("schema/2.0/schema.json"), at("schema/2.0/schema.ts")]);
    expect(result.versions.map((v) => [v.version, v.status])).toEqual([["1.0", "unchanged"], ["2.0", "added"]]);
    const written = await readLock(lock);
    expect(written.commit).toBe(next);
    expect(written.versions["1.0"].schemaTs).toEqual({ path: "schema/1.0/schema.ts", sha256: sha256(ts) });
    expect(written.versions["2.0"].schemaTs).toBeUndefined();
    expect(readFileSync(path.join(schemas, "1.0", "schema.ts"), "utf8")).toBe(ts);
  });

  it("does not touch the repository's lock in these tests", async () => {
    // The tests above work on copies; the real lock stays as committed.
    const copy = path.join(tempDir(), "lock.json");
    copyFileSync(lockFile, copy);
    expect(readFileSync(copy, "utf8")).toBe(readFileSync(lockFile, "utf8"));
  });
});
