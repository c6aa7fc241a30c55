// Bad input: exit 2, a message naming the file and the JSON pointer, and the output folder untouched.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { sha256 } from "../../generator/spec/lock.js";
import { copyOfGenerated, ensureSchemas, minimalLegacySchema, readTree, runCli, tempDir } from "../support.js";

beforeAll(ensureSchemas);

/** A schemas folder holding one version, `bad`, with the given schema text. */
function schemasWith(label: string, text: string): { dir: string; file: string } {
  const dir = tempDir();
  mkdirSync(path.join(dir, label));
  const file = path.join(dir, label, "schema.json");
  writeFileSync(file, text);
  return { dir, file };
}

/** Run `generate` against a copy of generated/ and require that the copy is unchanged afterwards. */
async function generateFails(args: string[]) {
  const out = copyOfGenerated();
  const before = readTree(out);
  const r = await runCli(["generate", "--out", out, ...args]);
  expect(readTree(out)).toEqual(before);
  return r;
}

describe("generate: bad input exits 2 and leaves the output untouched", () => {
  it("a minimal valid schema generates (the fixture the cases below break)", async () => {
    const { dir } = schemasWith("mini", JSON.stringify(minimalLegacySchema()));
    const out = path.join(tempDir(), "out");
    const r = await runCli(["generate", "--schemas", dir, "--out", out]);
    expect(r.stderr).toContain("mini (legacy");
    expect(r.status).toBe(0);
    expect(readTree(out).get("mini/methods.ts")).toContain('"ping": {');
  });

  it("a label that is a reserved word becomes a safe module name", async () => {
    const { dir } = schemasWith("default", JSON.stringify(minimalLegacySchema()));
    const out = path.join(tempDir(), "out");
    const r = await runCli(["generate", "--schemas", dir, "--out", out]);
    expect(r.status, r.stderr).toBe(0);
    const index = readTree(out).get("index.ts")!;
    expect(index).toContain('import * as v_default from "./default/index.js";');
    expect(index).toContain('"default": v_default,');
  });

  it("invalid JSON names the file and the line", async () => {
    const { dir, file } = schemasWith("bad", '{\n  "definitions": {\n    "A": ,\n  }\n}\n');
    const r = await generateFails(["--schemas", dir]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(file);
    expect(r.stderr).toMatch(/invalid JSON at line 3, column \d+/);
  });

  it("a dangling $ref names the file and the pointer of the $ref", async () => {
    const schema = minimalLegacySchema();
    (schema.definitions.InitializeResult.properties as Record<string, unknown>).serverInfo = { $ref: "#/definitions/Implementation" };
    const { dir, file } = schemasWith("bad", JSON.stringify(schema));
    const r = await generateFails(["--schemas", dir]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${file}#/definitions/InitializeResult/properties/serverInfo/$ref`);
    expect(r.stderr).toContain('no definition "Implementation"');
  });

  it("a schema without the request unions names ClientRequest", async () => {
    const schema = minimalLegacySchema();
    delete (schema.definitions as Record<string, unknown>).ClientRequest;
    const { dir, file } = schemasWith("bad", JSON.stringify(schema));
    const r = await generateFails(["--schemas", dir]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${file}#/definitions/ClientRequest`);
    expect(r.stderr).toContain("expected a ClientRequest definition");
  });

  it("a request without a method const names the method property", async () => {
    const schema = minimalLegacySchema();
    (schema.definitions.PingRequest.properties as Record<string, unknown>).method = { type: "string" };
    const { dir, file } = schemasWith("bad", JSON.stringify(schema));
    const r = await generateFails(["--schemas", dir]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${file}#/definitions/PingRequest/properties/method`);
    expect(r.stderr).toContain('string "const"');
  });

  it("two requests with the same method name both", async () => {
    const schema = minimalLegacySchema();
    schema.definitions.OtherPingRequest = structuredClone(schema.definitions.PingRequest);
    (schema.definitions.ClientRequest.anyOf as unknown[]).push({ $ref: "#/definitions/OtherPingRequest" });
    const { dir, file } = schemasWith("bad", JSON.stringify(schema));
    const r = await generateFails(["--schemas", dir]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${file}#/definitions/ClientRequest`);
    expect(r.stderr).toContain('two requests in ClientRequest have the method "ping" (PingRequest and OtherPingRequest)');
  });

  it("an empty schemas folder", async () => {
    const dir = tempDir();
    const r = await generateFails(["--schemas", dir]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(dir);
    expect(r.stderr).toContain("expected at least one <version>/schema.json folder");
  });

  it("an unknown --versions label lists the available ones", async () => {
    const r = await generateFails(["--versions", "2025-11-25,1999-01-01"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('unknown version label "1999-01-01"');
    expect(r.stderr).toContain("2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28, draft");
  });

  it("a hash mismatch in the sync before generating", async () => {
    const { lock, spec, expected, actual } = mismatchedLock();
    const r = await generateFails(["--lock", lock, "--spec-dir", spec]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("9999-01-01");
    expect(r.stderr).toContain(`expected sha256 ${expected}, got ${actual}`);
  });

  it("an unknown option is a usage error", async () => {
    const r = await generateFails(["--frobnicate"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("--frobnicate");
  });
});

/** A lock naming version 9999-01-01 with one hash, and a spec folder whose file has another. */
function mismatchedLock() {
  const dir = tempDir();
  const spec = path.join(dir, "spec");
  mkdirSync(path.join(spec, "9999-01-01"), { recursive: true });
  const bytes = JSON.stringify(minimalLegacySchema());
  writeFileSync(path.join(spec, "9999-01-01", "schema.json"), bytes);
  const expected = sha256("something else");
  const lock = path.join(dir, "lock.json");
  writeFileSync(
    lock,
    JSON.stringify({
      repository: "https://example.invalid/spec",
      commit: "0".repeat(40),
      rawUrl: "http://127.0.0.1:9/{commit}/{path}",
      versions: { "9999-01-01": { path: "schema/9999-01-01/schema.json", sha256: expected } },
    }),
  );
  return { dir, lock, spec, expected, actual: sha256(bytes) };
}

describe("schemas sync", () => {
  it("a hash mismatch names the version, the source and both hashes, and writes nothing", async () => {
    const { dir, lock, spec, expected, actual } = mismatchedLock();
    const target = path.join(dir, "synced");
    const r = await runCli(["schemas", "sync", "--lock", lock, "--schemas", target, "--spec-dir", spec]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("version 9999-01-01");
    expect(r.stderr).toContain(path.join(spec, "9999-01-01", "schema.json"));
    expect(r.stderr).toContain(`expected sha256 ${expected}, got ${actual}`);
    expect(() => readTree(target)).toThrow();
  });

  it("copies from a spec checkout's schema/<version>/ layout and verifies the hash", async () => {
    const dir = tempDir();
    const checkout = path.join(dir, "checkout");
    mkdirSync(path.join(checkout, "schema", "9999-01-01"), { recursive: true });
    const bytes = JSON.stringify(minimalLegacySchema());
    writeFileSync(path.join(checkout, "schema", "9999-01-01", "schema.json"), bytes);
    const lock = path.join(dir, "lock.json");
    writeFileSync(
      lock,
      JSON.stringify({
        repository: "r",
        commit: "1".repeat(40),
        rawUrl: "http://127.0.0.1:9/{commit}/{path}",
        versions: { "9999-01-01": { path: "schema/9999-01-01/schema.json", sha256: sha256(bytes) } },
      }),
    );
    const target = path.join(dir, "synced");
    const r = await runCli(["schemas", "sync", "--lock", lock, "--schemas", target, "--spec-dir", checkout]);
    expect(r.status).toBe(0);
    expect(readFileSync(path.join(target, "9999-01-01", "schema.json"), "utf8")).toBe(bytes);
  });

  it("a stale file in one layout does not hide a matching one in the other", async () => {
    const dir = tempDir();
    const spec = path.join(dir, "spec");
    const bytes = JSON.stringify(minimalLegacySchema());
    mkdirSync(path.join(spec, "9999-01-01"), { recursive: true });
    writeFileSync(path.join(spec, "9999-01-01", "schema.json"), bytes + "\n");
    mkdirSync(path.join(spec, "schema", "9999-01-01"), { recursive: true });
    writeFileSync(path.join(spec, "schema", "9999-01-01", "schema.json"), bytes);
    const lock = path.join(dir, "lock.json");
    writeFileSync(
      lock,
      JSON.stringify({
        repository: "r",
        commit: "1".repeat(40),
        rawUrl: "http://127.0.0.1:9/{commit}/{path}",
        versions: { "9999-01-01": { path: "schema/9999-01-01/schema.json", sha256: sha256(bytes) } },
      }),
    );
    const target = path.join(dir, "synced");
    const r = await runCli(["schemas", "sync", "--lock", lock, "--schemas", target, "--spec-dir", spec]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain(`copied from ${path.join(spec, "schema", "9999-01-01", "schema.json")}`);
    expect(readFileSync(path.join(target, "9999-01-01", "schema.json"), "utf8")).toBe(bytes);
  });

  it("an unreachable source names the version, the sources tried and the expected hash", async () => {
    const { lock, expected } = mismatchedLock();
    const r = await runCli(["schemas", "sync", "--lock", lock, "--schemas", path.join(tempDir(), "s")], { MCP_SPEC_DIR: "" });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("cannot obtain schema.json of version 9999-01-01");
    expect(r.stderr).toContain(`expected sha256 ${expected}`);
    expect(r.stderr).toContain("http://127.0.0.1:9/0000000000000000000000000000000000000000/schema/9999-01-01/schema.json");
  });
});

describe("generate --check", () => {
  it("exits 1 and prints the diff after a hand edit to a generated file", async () => {
    const out = copyOfGenerated();
    const file = path.join(out, "2025-11-25", "methods.ts");
    writeFileSync(file, readFileSync(file, "utf8").replace('resultShape: "empty"', 'resultShape: "object"'));
    const r = await runCli(["generate", "--check", "--out", out]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("--- a/2025-11-25/methods.ts");
    expect(r.stdout).toContain('-    resultShape: "object",');
    expect(r.stdout).toContain('+    resultShape: "empty",');
    expect(r.stderr).toContain("2025-11-25/methods.ts (stale)");
  });

  it("reports missing and extra files", async () => {
    const out = copyOfGenerated();
    writeFileSync(path.join(out, "extra.ts"), "export {};\n");
    const r1 = await runCli(["generate", "--check", "--out", out]);
    expect(r1.status).toBe(1);
    expect(r1.stderr).toContain("extra.ts (extra)");
    const r2 = await runCli(["generate", "--check", "--out", path.join(tempDir(), "none")]);
    expect(r2.status).toBe(1);
    expect(r2.stderr).toContain("index.ts (missing)");
  });
});
