// The spec ships with the tool: every file the lock pins is committed under schemas/ (and packed, see
// test/foundation/artifacts.test.ts), every read checks it against the lock, and nothing downloads
// it: generation needs neither the network nor MCP_SPEC_DIR.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { readLock, syncSchemas } from "../../generator/source/lock.js";
import { lockFile, projectCopy, readTree, root, runCli, tempDir } from "../support.js";

const sha = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest("hex");
/** No MCP_SPEC_DIR, no MCP_EXTENSIONS_DIR: the environment of a fresh clone. */
const fresh = { MCP_SPEC_DIR: undefined, MCP_EXTENSIONS_DIR: undefined, MCP_CODEGEN_CACHE_DIR: undefined };

// Any download would go through fetch: make it fail loudly, and count the attempts.
const fetchCalls: string[] = [];
beforeEach(() => {
  fetchCalls.length = 0;
  vi.stubGlobal("fetch", async (url: unknown) => {
    fetchCalls.push(String(url));
    throw new Error("no network in this test");
  });
});
afterEach(() => vi.unstubAllGlobals());

/** Every file the lock pins, by its path under schemas/, with its pinned sha256. */
async function pinnedFiles(): Promise<Array<{ rel: string; sha256: string }>> {
  const lock = await readLock(lockFile);
  const out: Array<{ rel: string; sha256: string }> = [];
  for (const [v, e] of Object.entries(lock.versions)) {
    out.push({ rel: `schemas/${v}/schema.json`, sha256: e.sha256 });
    if (e.schemaTs) out.push({ rel: `schemas/${v}/schema.ts`, sha256: e.schemaTs.sha256 });
  }
  for (const [name, ext] of Object.entries(lock.extensions ?? {})) {
    for (const [v, e] of Object.entries(ext.versions)) {
      out.push({ rel: `schemas/extensions/${name}/${v}/schema.json`, sha256: e.sha256 });
      if (e.schemaTs) out.push({ rel: `schemas/extensions/${name}/${v}/schema.ts`, sha256: e.schemaTs.sha256 });
      if (e.text) out.push({ rel: `schemas/extensions/${name}/${v}/${path.posix.basename(e.text.path)}`, sha256: e.text.sha256 });
    }
  }
  return out;
}

describe("the committed spec", () => {
  it("every file the lock pins is tracked by git under schemas/ with the pinned bytes, beside the licences", async () => {
    const tracked = new Set(execFileSync("git", ["ls-files", "schemas"], { cwd: root, encoding: "utf8" }).split("\n"));
    const files = await pinnedFiles();
    expect(files.length).toBeGreaterThan(0);
    for (const { rel, sha256 } of files) {
      expect(tracked.has(rel), rel).toBe(true);
      expect(sha(readFileSync(path.join(root, rel))), rel).toBe(sha256);
    }
    expect(tracked.has("schemas/LICENSE-mcp-spec")).toBe(true);
    expect(tracked.has("schemas/extensions/tasks/LICENSE")).toBe(true);
  });

  it("generate and --check run with MCP_SPEC_DIR unset and no network, and download nothing", async () => {
    const label = Object.keys((await readLock(lockFile)).versions).sort()[0];
    const out = path.join(tempDir(), "out");
    const r = await runCli(["generate", "--target", "typescript", "--versions", label, "--out", out, "--no-cache"], fresh);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toContain("synced");
    const check = await runCli(["generate", "--target", "typescript", "--versions", label, "--out", out, "--check", "--no-cache"], fresh);
    expect(check.status, check.stderr).toBe(0);
    expect(fetchCalls).toEqual([]);
  });

  it("a committed schema with other bytes: exit 2 naming the file and both hashes, nothing downloaded or written", async () => {
    const project = projectCopy();
    const [first] = await pinnedFiles();
    const file = path.join(project, first.rel);
    writeFileSync(file, readFileSync(file, "utf8") + "\n");
    const edited = sha(readFileSync(file));
    const before = readTree(path.join(project, "generated"));
    const r = await runCli(["generate"], fresh, project);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${file} has sha256 ${edited}, the lock pins ${first.sha256}`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(fetchCalls).toEqual([]);
    expect(readTree(path.join(project, "generated"))).toEqual(before);
    expect(sha(readFileSync(file))).toBe(edited);
  });

  it("--spec-dir still overrides: it restores an edited file from the pinned bytes it holds", async () => {
    const project = projectCopy();
    const lock = await readLock(lockFile);
    const label = Object.keys(lock.versions).sort()[0];
    // A spec folder holding the pinned bytes (as ../shared/mcp-spec or a spec checkout would).
    const spec = tempDir();
    mkdirSync(path.join(spec, label));
    for (const name of ["schema.json", "schema.ts"]) {
      if (existsSync(path.join(root, "schemas", label, name))) writeFileSync(path.join(spec, label, name), readFileSync(path.join(root, "schemas", label, name)));
    }
    const file = path.join(project, "schemas", label, "schema.json");
    writeFileSync(file, "{}\n");
    const r = await runCli(["schemas", "sync", "--versions", label, "--spec-dir", spec], fresh, project);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain(`copied from ${path.join(spec, label, "schema.json")}`);
    expect(sha(readFileSync(file))).toBe(lock.versions[label].sha256);
    expect(fetchCalls).toEqual([]);
  });
});

describe("a project without a lock of its own reads the spec shipped with the tool", () => {
  it("generates from it, verified, and writes no schemas/ into the project", async () => {
    const project = tempDir();
    writeFileSync(path.join(project, "package.json"), "{}\n");
    const label = Object.keys((await readLock(lockFile)).versions).sort()[0];
    const r = await runCli(["generate", "--target", "python", "--versions", label, "--out", "x"], fresh, project);
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(path.join(project, "x", "mcp_codegen", "__init__.py"))).toBe(true);
    expect(existsSync(path.join(project, "schemas"))).toBe(false);
    const sync = await runCli(["schemas", "sync"], fresh, project);
    expect(sync.status, sync.stderr).toBe(0);
    expect(sync.stderr).toContain(`${label}: already synced`);
    expect(fetchCalls).toEqual([]);
  });

  it("read-only: a shipped file missing or with other bytes is named, and neither a spec folder nor a download is tried", async () => {
    const dir = tempDir();
    const pinned = '{"definitions":{}}\n';
    const lock = {
      repository: "r",
      commit: "0".repeat(40),
      rawUrl: "http://127.0.0.1:9/{commit}/{path}",
      versions: { "9999-01-01": { path: "schema/9999-01-01/schema.json", sha256: sha(pinned) }, "9999-02-02": { path: "schema/9999-02-02/schema.json", sha256: sha(pinned) } },
    };
    mkdirSync(path.join(dir, "9999-02-02"));
    writeFileSync(path.join(dir, "9999-02-02", "schema.json"), "{}\n");
    const spec = tempDir();
    mkdirSync(path.join(spec, "9999-01-01"));
    writeFileSync(path.join(spec, "9999-01-01", "schema.json"), pinned);
    await expect(syncSchemas({ lock, schemasDir: dir, specDir: spec, readOnly: true })).rejects.toThrow(
      `the spec shipped with mcp-codegen does not match its lock (2 files):\n` +
        `  ${path.join(dir, "9999-01-01", "schema.json")} is missing (the lock pins sha256 ${sha(pinned)}); reinstall mcp-codegen\n` +
        `  ${path.join(dir, "9999-02-02", "schema.json")} has sha256 ${sha("{}\n")}, the lock pins ${sha(pinned)}; reinstall mcp-codegen`,
    );
    expect(existsSync(path.join(dir, "9999-01-01"))).toBe(false);
    expect(readFileSync(path.join(dir, "9999-02-02", "schema.json"), "utf8")).toBe("{}\n");
    expect(fetchCalls).toEqual([]);
  });
});

describe("an extension's pinned specification text (the lock's `text`), synced and checked like its schema", () => {
  const text = "# The extension\n\n```json\n{}\n```\n";
  const schema = '{"$defs":{}}\n';
  const lockWith = (textSha: string) => ({
    repository: "r",
    commit: "0".repeat(40),
    rawUrl: "http://127.0.0.1:9/{commit}/{path}",
    versions: { "9999-01-01": { path: "schema/9999-01-01/schema.json", sha256: sha(schema) } },
    extensions: {
      ext: {
        identifier: "example.com/ext",
        repository: "e",
        rawUrl: "http://127.0.0.1:9/{commit}/{path}",
        versions: { v1: { core: ["9999-01-01"], commit: "1".repeat(40), path: "schema/v1/schema.json", sha256: sha(schema), text: { path: "specification/v1/ext.md", sha256: textSha } } },
      },
    },
  });

  it("is copied beside the schema under its file name from a folder laid out as ../shared/mcp-extensions, and from a checkout at its pinned path", async () => {
    const { syncExtensions, extensionTextFile } = await import("../../generator/source/extensions.js");
    const lock = lockWith(sha(text));
    for (const layout of [["v1", "ext.md"], ["specification", "v1", "ext.md"]]) {
      const folder = tempDir();
      mkdirSync(path.join(folder, "ext", "v1"), { recursive: true });
      writeFileSync(path.join(folder, "ext", "v1", "schema.json"), schema);
      mkdirSync(path.join(folder, "ext", ...layout.slice(0, -1)), { recursive: true });
      writeFileSync(path.join(folder, "ext", ...layout), text);
      const schemas = tempDir();
      await syncExtensions({ lock, schemasDir: schemas, extensionsDir: folder });
      const file = extensionTextFile(schemas, "ext", "v1", lock.extensions.ext.versions.v1);
      expect(file).toBe(path.join(schemas, "extensions", "ext", "v1", "ext.md"));
      expect(readFileSync(file!, "utf8"), layout.join("/")).toBe(text);
    }
    expect(fetchCalls).toEqual([]);
  });

  it("with other bytes than the lock pins: refused naming the file and both hashes, nothing written", async () => {
    const { syncExtensions } = await import("../../generator/source/extensions.js");
    const folder = tempDir();
    mkdirSync(path.join(folder, "ext", "v1"), { recursive: true });
    writeFileSync(path.join(folder, "ext", "v1", "schema.json"), schema);
    writeFileSync(path.join(folder, "ext", "v1", "ext.md"), text + "edited\n");
    const schemas = tempDir();
    await expect(syncExtensions({ lock: lockWith(sha(text)), schemasDir: schemas, extensionsDir: folder })).rejects.toThrow(
      `ext.md of version v1 does not match the lock: expected sha256 ${sha(text)}, got ${sha(text + "edited\n")} from ${path.join(folder, "ext", "v1", "ext.md")}`,
    );
    expect(existsSync(path.join(schemas, "extensions", "ext", "v1"))).toBe(false);
  });

  it("a lock whose text names a schema file is exit-2 input naming the pointer", async () => {
    const dir = tempDir();
    const lock = lockWith(sha(text));
    (lock.extensions.ext.versions.v1.text as { path: string }).path = "schema/v1/schema.json";
    writeFileSync(path.join(dir, "lock.json"), JSON.stringify(lock));
    await expect(readLock(path.join(dir, "lock.json"))).rejects.toMatchObject({ pointer: "/extensions/ext/versions/v1/text" });
  });
});
