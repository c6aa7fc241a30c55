// Bad input: exit 2, a message naming the file and the JSON pointer, and the output folder untouched.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readLock, sha256 } from "../generator/source/lock.js";
import { isReviewReport } from "../generator/writer.js";
import { copyOfGenerated, ensureSchemas, generatedDir, lockFile, minimalLegacySchema, projectCopy, readTree, root, runBin, runCli, schemasDir, tempDir } from "./support.js";

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
    const labels = Object.keys((await readLock(lockFile)).versions).sort();
    const r = await generateFails(["--versions", `${labels[0]},1999-01-01`]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('unknown version label "1999-01-01"');
    expect(r.stderr).toContain(`available: ${labels.join(", ")}`);
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

/** Write a lock naming these versions, with a download address nothing answers at; returns its path. */
function writeLock(dir: string, versions: Record<string, object>): string {
  const lock = path.join(dir, "lock.json");
  const body = { repository: "https://example.invalid/spec", commit: "0".repeat(40), rawUrl: "http://127.0.0.1:9/{commit}/{path}", versions };
  writeFileSync(lock, JSON.stringify(body));
  return lock;
}

/** A lock naming version 9999-01-01 with one hash, and a spec folder whose file has another. */
function mismatchedLock() {
  const dir = tempDir();
  const spec = path.join(dir, "spec");
  mkdirSync(path.join(spec, "9999-01-01"), { recursive: true });
  const bytes = JSON.stringify(minimalLegacySchema());
  writeFileSync(path.join(spec, "9999-01-01", "schema.json"), bytes);
  const expected = sha256("something else");
  const lock = writeLock(dir, { "9999-01-01": { path: "schema/9999-01-01/schema.json", sha256: expected } });
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
    const lock = writeLock(dir, { "9999-01-01": { path: "schema/9999-01-01/schema.json", sha256: sha256(bytes) } });
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
    const lock = writeLock(dir, { "9999-01-01": { path: "schema/9999-01-01/schema.json", sha256: sha256(bytes) } });
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
    const label = Object.keys((await readLock(lockFile)).versions).sort()[0];
    const file = path.join(out, label, "methods.ts");
    const text = readFileSync(file, "utf8");
    const shape = /resultShape: "(empty|object)"/.exec(text)!;
    const flipped = shape[1] === "empty" ? "object" : "empty";
    writeFileSync(file, text.replace(shape[0], `resultShape: "${flipped}"`));
    const r = await runCli(["generate", "--check", "--out", out]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`--- a/${label}/methods.ts`);
    expect(r.stdout).toContain(`-    resultShape: "${flipped}",`);
    expect(r.stdout).toContain(`+    resultShape: "${shape[1]}",`);
    expect(r.stderr).toContain(`${label}/methods.ts (stale)`);
    // The command it names regenerates that same folder, not the project's generated/.
    expect(r.stderr).toContain(`Run \`mcp-codegen generate --out ${out}\` to regenerate it.`);
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

/** A lock whose versions are pinned to bytes no source has, with an unreachable download address. */
function unreachableLock(versions: string[]): { lock: string; expected: Record<string, string> } {
  const dir = tempDir();
  const expected = Object.fromEntries(versions.map((v) => [v, sha256(`not published: ${v}`)]));
  const lock = writeLock(dir, Object.fromEntries(versions.map((v) => [v, { path: `schema/${v}/schema.json`, sha256: expected[v] }])));
  return { lock, expected };
}

const noStack = (stderr: string) => expect(stderr).not.toMatch(/\n\s+at /);

describe("bad paths and sources: exit 2, a message naming them, no stack", () => {
  it("a file where a folder is expected", async () => {
    const file = path.join(tempDir(), "a-file");
    writeFileSync(file, "x\n");
    const lockCopy = path.join(tempDir(), "lock.json");
    writeFileSync(lockCopy, readFileSync(lockFile));
    const cases: string[][] = [
      ["generate", "--schemas", file, "--out", path.join(tempDir(), "o")],
      ["generate", "--out", file],
      ["generate", "--spec-dir", file],
      ["schemas", "pin", "--from", file, "--lock", lockCopy, "--schemas", path.join(tempDir(), "s")],
      ["bump", "--from", file, "--lock", lockCopy, "--schemas", path.join(tempDir(), "s"), "--out", path.join(tempDir(), "o")],
      ["schemas", "sync", "--spec-dir", file, "--schemas", path.join(tempDir(), "s")],
      ["diff", "--generated", file, "generated"],
    ];
    for (const args of cases) {
      const r = await runCli(args);
      expect(r.status, args.join(" ") + "\n" + r.stderr).toBe(2);
      expect(r.stderr, args.join(" ")).toContain(file);
      expect(r.stderr, args.join(" ")).toMatch(/found a file|not a folder|expected a folder/);
      noStack(r.stderr);
    }
  });

  it("a --spec-dir that does not exist is an error, not a reason to download", async () => {
    const { lock } = unreachableLock(["9999-01-01"]);
    const missing = path.join(tempDir(), "missing");
    const r = await runCli(["schemas", "sync", "--lock", lock, "--schemas", path.join(tempDir(), "s"), "--spec-dir", missing]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`mcp-codegen: error: ${missing}: the spec folder: the folder does not exist\n`);
  });

  it("a hand-edited synced schema names the file, its hash and the pinned one", async () => {
    const { lock, expected } = unreachableLock(["9999-01-01"]);
    const schemas = tempDir();
    const synced = path.join(schemas, "9999-01-01", "schema.json");
    mkdirSync(path.dirname(synced));
    writeFileSync(synced, "{}\n");
    const r = await runCli(["schemas", "sync", "--lock", lock, "--schemas", schemas], { MCP_SPEC_DIR: "" });
    expect(r.status).toBe(2);
    // Not downloaded over: the lock's address is unreachable, and the message is the edited file's, not a download's.
    expect(r.stderr).toContain(`${synced} has sha256 ${createHash("sha256").update("{}\n").digest("hex")}, the lock pins ${expected["9999-01-01"]}: restore it`);
    expect(r.stderr).not.toContain("cannot obtain");
    expect(readFileSync(synced, "utf8")).toBe("{}\n");
  });

  it("a download failure names every version it could not obtain", async () => {
    const { lock, expected } = unreachableLock(["9999-01-01", "9999-02-02", "9999-03-03"]);
    const r = await runCli(["schemas", "sync", "--lock", lock, "--schemas", path.join(tempDir(), "s")], { MCP_SPEC_DIR: "" });
    expect(r.status).toBe(2);
    for (const [v, sha] of Object.entries(expected)) expect(r.stderr).toContain(`cannot obtain schema.json of version ${v} (expected sha256 ${sha})`);
    expect(r.stderr).toContain("cannot sync 3 files");
  });
});

describe("schemas sync: schema.ts", () => {
  it("copies each version's schema.ts where the lock pins one, verified, and only schema.json elsewhere", async () => {
    const dir = tempDir();
    const spec = path.join(dir, "spec");
    const json = JSON.stringify(minimalLegacySchema());
    const ts = "export interface Ping { method: \"ping\" }\n";
    for (const v of ["9999-01-01", "9999-02-02"]) {
      mkdirSync(path.join(spec, v), { recursive: true });
      writeFileSync(path.join(spec, v, "schema.json"), json);
      writeFileSync(path.join(spec, v, "schema.ts"), ts);
    }
    const digest = (s: string) => createHash("sha256").update(s).digest("hex");
    const entry = { path: "schema/x/schema.json", sha256: digest(json) };
    // 9999-02-02 was published as JSON only: no schemaTs in its entry.
    const lock = writeLock(dir, { "9999-01-01": { ...entry, schemaTs: { path: "schema/x/schema.ts", sha256: digest(ts) } }, "9999-02-02": entry });
    const target = path.join(dir, "synced");
    const r = await runCli(["schemas", "sync", "--lock", lock, "--schemas", target, "--spec-dir", spec]);
    expect(r.status, r.stderr).toBe(0);
    expect(readTree(target)).toEqual(
      new Map([
        ["9999-01-01/schema.json", json],
        ["9999-01-01/schema.ts", ts],
        ["9999-02-02/schema.json", json],
      ]),
    );
    // A schema.ts with other bytes is refused, naming both hashes, and nothing is written.
    writeFileSync(path.join(spec, "9999-01-01", "schema.ts"), ts + "// edited\n");
    const other = path.join(dir, "other");
    const bad = await runCli(["schemas", "sync", "--lock", lock, "--schemas", other, "--spec-dir", spec]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(`schema.ts of version 9999-01-01 does not match the lock: expected sha256 ${digest(ts)}, got ${digest(ts + "// edited\n")}`);
    expect(() => readTree(other)).toThrow();
  });

  it("every schema.ts the project's lock pins is the spec's beside schema.json, and sync puts it beside schema.json", async () => {
    const lock = await readLock(lockFile);
    // A version pinned from JSON alone (a bump from a folder of schema.json files) pins none.
    for (const [v, entry] of Object.entries(lock.versions).filter(([, e]) => e.schemaTs !== undefined)) {
      expect(entry.schemaTs?.path, v).toBe(entry.path.replace(/schema\.json$/, "schema.ts"));
      const synced = readFileSync(path.join(schemasDir, v, "schema.ts"));
      expect(createHash("sha256").update(synced).digest("hex"), v).toBe(entry.schemaTs!.sha256);
    }
  });
});

describe("help and version", () => {
  const commands = ["generate", "bump", "schemas sync", "schemas pin", "diff"];

  it.each(commands)("`%s --help` and `help %s` print that command's usage and options", async (command) => {
    const a = await runCli([...command.split(" "), "--help"]);
    const b = await runCli(["help", ...command.split(" ")]);
    expect(a.status).toBe(0);
    expect(b).toEqual(a);
    expect(a.stdout.startsWith(`Usage: mcp-codegen ${command} `)).toBe(true);
    // Every option the usage line names is explained below it.
    const usage = a.stdout.split("\n\n")[0];
    for (const option of new Set(usage.match(/--[a-z-]+/g))) expect(a.stdout.split("\n\n").slice(1).join("\n"), option).toMatch(new RegExp(`^  ${option}\\b`, "m"));
  });

  it("`help` lists every command and says defaults come from the project around the current folder", async () => {
    const r = await runCli(["help"]);
    expect(r.status).toBe(0);
    for (const c of commands) expect(r.stdout).toContain(`mcp-codegen ${c} `);
    expect(r.stdout).toContain("the nearest folder from the current one holding a");
    expect(r.stdout).toContain("never the tool's own folder");
  });

  it("`--version` prints the package's version", async () => {
    const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
    expect(await runCli(["--version"])).toEqual({ status: 0, stdout: `${pkg.version}\n`, stderr: "" });
  });
});

describe("safe defaults", () => {
  it("`generate --versions X` without --out regenerates X and keeps the other versions as they are", async () => {
    const project = projectCopy();
    const labels = Object.keys((await readLock(lockFile)).versions).sort();
    const [chosen, other] = [labels[0], labels[labels.length - 1]];
    const edit = (label: string) => {
      const file = path.join(project, "generated", label, "methods.ts");
      writeFileSync(file, readFileSync(file, "utf8") + "// hand edit\n");
      return file;
    };
    const chosenFile = edit(chosen);
    const otherFile = edit(other);
    const r = await runCli(["generate", "--versions", chosen], {}, project);
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(chosenFile, "utf8")).toBe(readTree(generatedDir).get(`${chosen}/methods.ts`));
    expect(readFileSync(otherFile, "utf8")).toBe(readTree(generatedDir).get(`${other}/methods.ts`) + "// hand edit\n");
    const tree = readTree(path.join(project, "generated"));
    expect([...tree.keys()]).toEqual([...readTree(generatedDir).keys()]);
    // --check of the same selection accepts it; the whole tree's check sees the kept edit.
    expect((await runCli(["generate", "--versions", chosen, "--check"], {}, project)).status).toBe(0);
    const all = await runCli(["generate", "--check"], {}, project);
    expect(all.status).toBe(1);
    expect(all.stderr).toContain(`${other}/methods.ts (stale)`);
  });

  it("without --target, a project generates the targets its package.json names, else TypeScript alone", async () => {
    const project = projectCopy();
    const pkgFile = path.join(project, "package.json");
    const pkg = JSON.parse(readFileSync(pkgFile, "utf8")) as Record<string, unknown>;
    const setConfig = (config: unknown) => {
      const next = { ...pkg };
      if (config === undefined) delete next["mcp-codegen"];
      else next["mcp-codegen"] = config;
      writeFileSync(pkgFile, JSON.stringify(next, null, 2) + "\n");
    };
    setConfig(undefined);
    const tsOnly = path.join(tempDir(), "ts-only");
    expect((await runCli(["generate", "--out", tsOnly], {}, project)).status).toBe(0);
    const keys = [...readTree(tsOnly).keys()];
    expect(keys.some((k) => k.startsWith("ruby/"))).toBe(false);
    // The review reports `bump` wrote are kept by a regeneration, never made by one.
    expect(keys).toEqual([...readTree(generatedDir).keys()].filter((k) => !k.startsWith("ruby/") && !k.startsWith("python/") && !k.startsWith("go/") && !isReviewReport(k)));
    setConfig({ targets: ["ruby"] });
    const rubyOnly = path.join(tempDir(), "ruby-only");
    expect((await runCli(["generate", "--out", rubyOnly], {}, project)).status).toBe(0);
    expect([...readTree(rubyOnly).keys()]).toEqual([...readTree(generatedDir).keys()].filter((k) => k.startsWith("ruby/")).map((k) => k.slice("ruby/".length)));
    setConfig({ targets: ["cobol"] });
    const bad = await runCli(["generate", "--out", path.join(tempDir(), "bad")], {}, project);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(`${pkgFile}#/mcp-codegen/targets`);
  });

  it("defaults resolve from the nearest package.json above the current folder, never the tool's folder", async () => {
    const project = projectCopy();
    const sub = path.join(project, "src", "deep");
    mkdirSync(sub, { recursive: true });
    const r = await runCli(["generate", "--check"], {}, sub);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^\.\.\/\.\.\/generated is up to date/);
    // A project without a lock reads the spec shipped with the tool (test/source/shipped-spec.test.ts);
    // a command that moves the lock names that project's own lock, not the tool's.
    const empty = tempDir();
    writeFileSync(path.join(empty, "package.json"), "{}\n");
    const e = await runCli(["schemas", "pin", "--from", tempDir()], {}, empty);
    expect(e.status).toBe(2);
    expect(e.stderr).toContain(path.join(empty, "schemas", "lock.json"));
  });
});

describe("the executable (a real process)", () => {
  it("runs in the project around its working folder and keeps the exit-code contract", () => {
    const project = projectCopy();
    const ok = runBin(["generate", "--check"], {}, path.join(project, "schemas"));
    expect(ok.status, ok.stderr).toBe(0);
    expect(ok.stderr).toContain("../generated is up to date");
    const bad = runBin(["generate", "--schemas", path.join(project, "package.json")], {}, project);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("expected a folder, found a file");
    noStack(bad.stderr);
    const usage = runBin(["frobnicate"], {}, project);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('unknown command "frobnicate"');
  });
});

describe("generate --check fingerprint", () => {
  it("answers from the recorded hashes only when every input is unchanged, and still sees any edit", async () => {
    const project = projectCopy();
    const env = { MCP_CODEGEN_CACHE_DIR: path.join(tempDir(), "cache") };
    const check = () => runCli(["generate", "--check"], env, project);
    const cold = await check();
    expect(cold.status, cold.stderr).toBe(0);
    expect(cold.stderr).not.toContain("(unchanged inputs)");
    const warm = await check();
    expect(warm.status).toBe(0);
    expect(warm.stderr).toContain("(unchanged inputs)");
    // An edited output file: the hashes differ, so the check generates and reports it.
    const label = Object.keys((await readLock(lockFile)).versions).sort()[0];
    const file = path.join(project, "generated", label, "types.ts");
    const original = readFileSync(file, "utf8");
    writeFileSync(file, original + "// edit\n");
    const edited = await check();
    expect(edited.status).toBe(1);
    expect(edited.stderr).toContain(`${label}/types.ts (stale)`);
    writeFileSync(file, original);
    // An extra file is not in the record either.
    writeFileSync(path.join(project, "generated", "extra.ts"), "export {};\n");
    expect((await check()).status).toBe(1);
    rmSync(path.join(project, "generated", "extra.ts"));
    // An input with other bytes (same meaning): a new key, so a full generation, which agrees.
    const overrides = path.join(project, "schemas", "overrides.json");
    writeFileSync(overrides, readFileSync(overrides, "utf8") + "\n");
    const changedInput = await check();
    expect(changedInput.status, changedInput.stderr).toBe(0);
    expect(changedInput.stderr).not.toContain("(unchanged inputs)");
    // --no-cache never reads the record.
    const uncached = await runCli(["generate", "--check", "--no-cache"], env, project);
    expect(uncached.status).toBe(0);
    expect(uncached.stderr).not.toContain("(unchanged inputs)");
  });
});
