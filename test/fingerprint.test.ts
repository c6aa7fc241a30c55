// The whole-tree fingerprint's key: a version synced just before (its files verified against the
// lock) is keyed by the lock's hashes instead of a second read; the key must be the same either way.
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { checkFingerprint, recordFingerprint } from "../generator/fingerprint.js";
import { readLock, type SpecLock } from "../generator/source/lock.js";
import { ensureSchemas, lockFile, schemasDir as syncedSchemas, tempDir } from "./support.js";

let lock: SpecLock;
beforeAll(async () => {
  await ensureSchemas();
  lock = await readLock(lockFile);
});

describe("fingerprint key of synced versions", () => {
  it("is the key of the same bytes read from disk, and still changes when they change", async () => {
    const label = Object.keys(lock.versions).sort()[0];
    const schemasDir = path.join(tempDir(), "schemas");
    mkdirSync(path.join(schemasDir, label), { recursive: true });
    for (const name of ["schema.json", "schema.ts"]) {
      const from = path.join(syncedSchemas, label, name);
      if (existsSync(from)) copyFileSync(from, path.join(schemasDir, label, name));
    }
    const outDir = path.join(tempDir(), "out");
    mkdirSync(outDir);
    writeFileSync(path.join(outDir, "a.ts"), "export {};\n");
    const inputs = { schemasDir, labels: [label], kept: [], lock, cacheDir: path.join(tempDir(), "cache") };
    await recordFingerprint(outDir, { ...inputs, synced: new Set([label]) }, new Map([["a.ts", "export {};\n"]]), 1);
    // Read from disk (no `synced`): the same key, so the record is found.
    expect(await checkFingerprint(outDir, inputs, () => false)).toEqual({ files: 1, versions: 1 });
    // Other bytes on disk: read, they make another key; taken from the lock, they cannot.
    writeFileSync(path.join(schemasDir, label, "schema.json"), "{}\n");
    expect(await checkFingerprint(outDir, inputs, () => false)).toBeNull();
  });
});

describe("fingerprint key of extensions", () => {
  it("changes when an extension's synced schema changes", async () => {
    const label = Object.keys(lock.versions).sort()[0];
    const schemasDir = path.join(tempDir(), "schemas");
    const extDir = path.join(schemasDir, "extensions", "some-extension", "v1");
    mkdirSync(extDir, { recursive: true });
    writeFileSync(path.join(extDir, "schema.json"), '{ "$defs": {} }\n');
    const outDir = path.join(tempDir(), "out");
    mkdirSync(outDir);
    writeFileSync(path.join(outDir, "a.ts"), "export {};\n");
    const inputs = { schemasDir, labels: [label], kept: [], lock, cacheDir: path.join(tempDir(), "cache"), synced: new Set([label]) };
    await recordFingerprint(outDir, inputs, new Map([["a.ts", "export {};\n"]]), 1);
    expect(await checkFingerprint(outDir, inputs, () => false)).toEqual({ files: 1, versions: 1 });
    writeFileSync(path.join(extDir, "schema.json"), '{ "$defs": { "X": {} } }\n');
    expect(await checkFingerprint(outDir, inputs, () => false)).toBeNull();
  });
});
