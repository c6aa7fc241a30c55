// The generator as its users get it: `npm pack`, the tarball installed into an empty folder, and
// `npx mcp-codegen generate` run there with the spec the package ships (no lock, no MCP_SPEC_DIR, no
// download): `--target python`, `--target ruby` (its vendoring command, from the tree's own header) and
// no target at all each write exactly the tree committed here, and `--check` passes on it.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { sourceHash } from "../../generator/build-stamp.js";
import { readLock } from "../../generator/source/lock.js";
import { generatedDir, lockFile, readTree, root, tempDir } from "../support.js";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const npx = process.platform === "win32" ? "npx.cmd" : "npx";

function run(command: string, args: string[], cwd: string, env: Record<string, string | undefined> = {}): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(command, args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ...env } });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function must(command: string, args: string[], cwd: string): string {
  const r = run(command, args, cwd);
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} (in ${cwd}) exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

// Nothing pointing at a spec folder: the packed tool must use the spec it carries.
const user = { MCP_SPEC_DIR: undefined, MCP_EXTENSIONS_DIR: undefined, MCP_CODEGEN_CACHE_DIR: undefined };

let tarball: string;
let packed: string[];
let project: string;
beforeAll(() => {
  // The tarball carries dist/: build it first when the sources moved on (as the checkout's bin would).
  const stamp = path.join(root, "dist", "generator", ".source-sha256");
  if (!existsSync(stamp) || readFileSync(stamp, "utf8").trim() !== sourceHash(root)) must(process.execPath, [path.join(root, "tools", "build.mjs")], root);
  const work = tempDir("mcp-codegen-packed-");
  const out = JSON.parse(must(npm, ["pack", "--ignore-scripts", "--json", "--pack-destination", work], root)) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = path.join(work, out[0].filename);
  packed = out[0].files.map((f) => f.path);
  project = path.join(work, "user");
  mkdirSync(project);
  writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "user", private: true }) + "\n");
  // The dependencies come from npm's cache, filled by this checkout's own `npm ci`.
  must(npm, ["install", tarball, "--prefer-offline", "--no-audit", "--no-fund"], project);
}, 600_000);

/** `npx mcp-codegen …` in the user's folder, as its README says. */
const codegen = (args: string[]) => run(npx, ["--no-install", "mcp-codegen", ...args], project, user);

/** The committed tree of a target, relative paths → text (bump's review reports, DIFFS/<label>@…, are not generated). */
function committed(sub: string, skip: (rel: string) => boolean = () => false): Map<string, string> {
  return new Map([...readTree(path.join(generatedDir, sub))].filter(([rel]) => !skip(rel)));
}

describe("the packed generator", () => {
  it("carries every pinned spec file, the licences, templates and runtime sources, and no tests", async () => {
    const lock = await readLock(lockFile);
    for (const v of Object.keys(lock.versions)) {
      expect(packed).toContain(`schemas/${v}/schema.json`);
      if (lock.versions[v].schemaTs) expect(packed).toContain(`schemas/${v}/schema.ts`);
    }
    for (const [name, ext] of Object.entries(lock.extensions ?? {})) for (const v of Object.keys(ext.versions)) expect(packed).toContain(`schemas/extensions/${name}/${v}/schema.json`);
    expect(packed).toEqual(expect.arrayContaining(["schemas/lock.json", "schemas/LICENSE-mcp-spec", "LICENSE", "dist/generator/bin.js", "runtimes/typescript/src/jsonrpc.ts", "runtimes/python/src/mcp_codegen_runtime/runtime.py", "runtimes/ruby/runtime.rb", "runtimes/ruby/gate.rb", "runtimes/ruby/methods.rb", "runtimes/ruby/projection.rb"]));
    expect(packed.filter((f) => f.startsWith("test/") || f.startsWith(".venv/") || f.startsWith("tools/"))).toEqual([]);
  });

  it("--target python in an empty folder writes the committed Python tree, and --check passes", () => {
    const r = codegen(["generate", "--target", "python", "--out", "py"]);
    expect(r.status, r.stderr).toBe(0);
    expect(readTree(path.join(project, "py"))).toEqual(committed("python"));
    expect(existsSync(path.join(project, "schemas"))).toBe(false);
    const check = codegen(["generate", "--target", "python", "--out", "py", "--check"]);
    expect(check.status, check.stderr).toBe(0);
  });

  it("--target ruby: the vendoring command of the Ruby tree's header writes the committed Ruby tree, and --check passes", () => {
    const rb = readdirSync(path.join(generatedDir, "ruby")).find((f) => f.endsWith(".rb"))!;
    const line = readFileSync(path.join(generatedDir, "ruby", rb), "utf8").split("\n").find((l) => l.startsWith("# Regenerate with `mcp-codegen "))!;
    const args = /`mcp-codegen ([^`]+)`/.exec(line)![1].split(" ").map((a) => (a === "DIR" ? "vendor/rb" : a));
    expect(args.slice(0, 3)).toEqual(["generate", "--target", "ruby"]);
    const r = codegen(args);
    expect(r.status, r.stderr).toBe(0);
    expect(readTree(path.join(project, "vendor", "rb"))).toEqual(committed("ruby"));
    const check = codegen([...args, "--check"]);
    expect(check.status, check.stderr).toBe(0);
  });

  it("no --target (the user's package.json names none): the TypeScript tree, as committed", () => {
    const r = codegen(["generate", "--out", "ts"]);
    expect(r.status, r.stderr).toBe(0);
    const expected = committed("", (rel) => rel.startsWith("ruby/") || rel.startsWith("python/") || rel.startsWith("go/") || /^DIFFS\/[^/]*@/.test(rel));
    expect([...readTree(path.join(project, "ts")).keys()]).toEqual([...expected.keys()]);
    expect(readTree(path.join(project, "ts"))).toEqual(expected);
    const check = codegen(["generate", "--out", "ts", "--check"]);
    expect(check.status, check.stderr).toBe(0);
  });
});
