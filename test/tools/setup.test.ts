// tools/setup.ts, the set-up `npm test` runs first: idempotent (a second run only looks), a changed
// requirements file or package-lock.json rebuilds what it made, and a missing Debian package is installed
// as root or named, with the command, otherwise.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { defaultHost, plan, setup, SETUP, SetupError, type SetupConfig, type SetupHost } from "../../tools/setup.js";
import { root, tempDir } from "../support.js";

const tsx = path.join(root, "node_modules", ".bin", "tsx");
const script = path.join(root, "tools", "setup.ts");

/** The real host, every command it runs recorded (program and arguments). */
function recording(base: SetupHost, fake: (command: string) => boolean = () => false): { host: SetupHost; commands: string[]; logged: string[] } {
  const commands: string[] = [];
  const logged: string[] = [];
  const host: SetupHost = {
    ...base,
    log: (line) => logged.push(line),
    run: (command, args, options) => {
      commands.push([path.basename(command), ...args].join(" "));
      return fake(command) ? { status: 0, stdout: "", stderr: "" } : base.run(command, args, options);
    },
  };
  return { host, commands, logged };
}

describe("the project's set-up", () => {
  it("a second run changes nothing: it only asks dpkg, and leaves the venv and the npm folders as they were", () => {
    const first = spawnSync(tsx, [script], { cwd: root, encoding: "utf8" });
    expect(first.status, first.stderr).toBe(0);
    const venv = path.join(root, SETUP.venvs[0].dir);
    const before = { python: statSync(path.join(venv, "bin", "python")).ino, stamp: statSync(path.join(venv, ".mcp-codegen-setup")).mtimeMs };
    const { host, commands } = recording(defaultHost(root));
    expect(setup(SETUP, host)).toEqual([]);
    // dpkg is asked, and the go tool whether its module cache holds the Go modules (offline).
    expect(commands).toEqual([`dpkg-query -W -f=\${Package}\t\${Status}\n ${SETUP.apt.map((a) => a.package).join(" ")}`, ...(SETUP.go ?? []).map(() => "go mod download")]);
    expect({ python: statSync(path.join(venv, "bin", "python")).ino, stamp: statSync(path.join(venv, ".mcp-codegen-setup")).mtimeMs }).toEqual(before);
    const again = spawnSync(tsx, [script], { cwd: root, encoding: "utf8" });
    expect(again.status).toBe(0);
    expect(again.stderr).toBe(`setup: in place (${SETUP.apt.length} Debian packages, ${SETUP.venvs.length} venvs, ${SETUP.npm.length} npm folder, ${SETUP.go?.length ?? 0} Go module)\n`);
    const check = spawnSync(tsx, [script, "--check"], { cwd: root, encoding: "utf8" });
    expect({ status: check.status, stdout: check.stdout }).toEqual({ status: 0, stdout: "" });
  });

  it("names every test need it sets up in one list: the Ruby, Redis and venv packages, the pinned requirements, the conformance runner", () => {
    const packages = SETUP.apt.map((a) => a.package);
    // What the Ruby and Redis tests start: the interpreter and the server.
    expect(packages).toEqual(expect.arrayContaining(["ruby", "ruby-json-schemer", "ruby-minitest", "redis-server"]));
    expect(SETUP.venvs).toEqual([
      expect.objectContaining({ dir: ".venv", requirements: ["requirements-python.txt"] }),
      expect.objectContaining({ dir: ".venv-python-sdk", requirements: ["requirements-python-sdk.txt"], pipArgs: ["--no-deps"] }),
    ]);
    expect(SETUP.npm.map((n) => n.prefix)).toEqual(["tools/conformance", "tools/pnpm"]);
    expect(SETUP.go?.map((g) => g.module)).toEqual(["test/emit/go"]);
    const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
    expect(pkg.scripts.pretest.startsWith("tsx tools/setup.ts && ")).toBe(true);
  });
});

describe("venvs", () => {
  it("made once from the requirements, kept while they are unchanged, rebuilt when they change", () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "req.txt"), "# nothing pinned yet\n");
    const config: SetupConfig = { apt: [], venvs: [{ dir: "v", requirements: ["req.txt"], for: "test" }], npm: [] };
    const made = recording(defaultHost(dir));
    expect(setup(config, made.host)).toEqual([{ kind: "venv", what: "v", why: "missing" }]);
    expect(made.commands.map((c) => c.split(" ").slice(0, 3).join(" "))).toEqual(["python3 -m venv", "pip install --quiet"]);
    expect(existsSync(path.join(dir, "v", "bin", "python"))).toBe(true);
    const marker = path.join(dir, "v", "marker");
    writeFileSync(marker, "");
    const kept = recording(defaultHost(dir));
    expect(setup(config, kept.host)).toEqual([]);
    expect(kept.commands).toEqual([]);
    expect(existsSync(marker)).toBe(true);
    writeFileSync(path.join(dir, "req.txt"), "# nothing pinned yet, still\n");
    expect(plan(config, defaultHost(dir))).toEqual([{ kind: "venv", what: "v", why: "stale (req.txt changed)" }]);
    const rebuilt = recording(defaultHost(dir));
    expect(setup(config, rebuilt.host)).toHaveLength(1);
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(path.join(dir, "v", "bin", "python"))).toBe(true);
    expect(plan(config, defaultHost(dir))).toEqual([]);
    // Two venvs made with pip: minutes on a loaded machine, bounded here, asserted on nothing but results.
  }, 600_000);

  it("an interrupted install (no stamp) is redone", () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "req.txt"), "# none\n");
    const config: SetupConfig = { apt: [], venvs: [{ dir: "v", requirements: ["req.txt"], for: "test" }], npm: [] };
    // A venv whose pip install never finished: python is there, the stamp is not.
    expect(spawnSync("python3", ["-m", "venv", "--without-pip", path.join(dir, "v")]).status).toBe(0);
    expect(plan(config, defaultHost(dir))).toEqual([{ kind: "venv", what: "v", why: "unfinished (no stamp)" }]);
  });
});

describe("npm folders", () => {
  it("npm ci once, again only when package-lock.json changes", () => {
    const dir = tempDir();
    const prefix = path.join(dir, "runner");
    mkdirSync(prefix);
    writeFileSync(path.join(prefix, "package.json"), JSON.stringify({ name: "runner", private: true }) + "\n");
    const lock = (name: string) => JSON.stringify({ name, lockfileVersion: 3, requires: true, packages: { "": { name } } }, null, 2) + "\n";
    writeFileSync(path.join(prefix, "package-lock.json"), lock("runner"));
    const config: SetupConfig = { apt: [], venvs: [], npm: [{ prefix: "runner", for: "test" }] };
    const first = recording(defaultHost(dir));
    expect(setup(config, first.host)).toEqual([{ kind: "npm", what: "runner", why: "not installed" }]);
    expect(first.commands).toEqual([`npm ci --prefix ${prefix} --no-audit --no-fund`]);
    expect(plan(config, defaultHost(dir))).toEqual([]);
    writeFileSync(path.join(prefix, "package.json"), JSON.stringify({ name: "runner2", private: true }) + "\n");
    writeFileSync(path.join(prefix, "package-lock.json"), lock("runner2"));
    expect(plan(config, defaultHost(dir))).toEqual([{ kind: "npm", what: "runner", why: "stale (package-lock.json changed)" }]);
  });
});

describe("Debian packages", () => {
  const absent = ["mcp-codegen-no-such-package", "mcp-codegen-no-such-package-2"];
  const config: SetupConfig = { apt: absent.map((p) => ({ package: p, for: "test" })), venvs: [], npm: [] };

  it("not root: one line naming the missing packages and the command, and nothing run but dpkg", () => {
    const { host, commands } = recording({ ...defaultHost(tempDir()), isRoot: false });
    expect(() => setup(config, host)).toThrow(SetupError);
    expect(() => setup(config, host)).toThrow(
      new SetupError(`missing Debian packages ${absent.join(" ")}: run \`sudo apt-get update && sudo apt-get install -y ${absent.join(" ")}\``),
    );
    expect(new Set(commands.map((c) => c.split(" ")[0]))).toEqual(new Set(["dpkg-query"]));
  });

  it("root: one apt-get update, then one install of every missing package; still missing afterwards is an error", () => {
    // apt-get itself is not run here (the machine is shared): it succeeds without installing anything.
    const { host, commands } = recording({ ...defaultHost(tempDir()), isRoot: true }, (command) => command === "apt-get");
    expect(() => setup(config, host)).toThrow(new SetupError(`apt-get install did not install ${absent.join(" ")}`));
    expect(commands.filter((c) => c.startsWith("apt-get"))).toEqual([
      "apt-get -o DPkg::Lock::Timeout=600 update",
      `apt-get -o DPkg::Lock::Timeout=600 install -y ${absent.join(" ")}`,
    ]);
  });

  it("MCP_CODEGEN_SETUP_SKIP skips those kinds of step (a machine whose packages are managed otherwise)", () => {
    const check = spawnSync(tsx, [script, "--check"], { cwd: root, encoding: "utf8", env: { ...process.env, MCP_CODEGEN_SETUP_SKIP: "apt,venv,npm" } });
    expect({ status: check.status, stdout: check.stdout }).toEqual({ status: 0, stdout: "" });
  });
});
