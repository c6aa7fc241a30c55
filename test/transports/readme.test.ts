// The done-when check of the generated-code package: build and `npm pack` it, install the tarball in an
// empty project (offline: zod from a tarball packed from this repository's node_modules), write the
// example files of docs/typescript.md (router, stdio, HTTP) and of the README's quick start (a server and a
// client) there, type-check them against the installed .d.ts, and serve the official clients with them over
// stdio and HTTP: no glue beyond what the pages show.
// Nothing but zod is installed: both eras over stdio and over HTTP (legacy sessions included) are served
// without the SDK or the optional peer redis.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as LegacyStdio } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as LegacyHttp } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from "@modelcontextprotocol/client";
import { StdioClientTransport as ModernStdio } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root, schemasDir, tempDir } from "../support.js";
import { docExamplesRunBy } from "../docs/blocks.js";
import { MODERN, textOf } from "./support.js";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const tsx = path.join(root, "node_modules", "tsx", "dist", "cli.mjs");

function run(command: string, args: string[], cwd: string): string {
  const r = spawnSync(command, args, { cwd, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} (in ${cwd}) exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** The examples docs/typescript.md marks as run by this test, by file name. */
function readmeFiles(): Map<string, string> {
  return docExamplesRunBy("docs/typescript.md", "test/transports/readme.test.ts");
}

/** The README's quick-start examples (a server and its client), by file name. */
function quickStartFiles(): Map<string, string> {
  return docExamplesRunBy("README.md", "test/transports/readme.test.ts");
}

let project: string;
beforeAll(() => {
  const work = tempDir("mcp-codegen-package-");
  const built = path.join(work, "package");
  run(process.execPath, [path.join(root, "tools", "build.mjs"), "--package-only", "--out", built], root);
  const tarball = run(npm, ["pack", built, "--pack-destination", work, "--ignore-scripts", "--silent"], work).trim().split("\n").pop()!;
  const zod = run(npm, ["pack", path.join(root, "node_modules", "zod"), "--pack-destination", work, "--ignore-scripts", "--silent"], work).trim().split("\n").pop()!;
  project = path.join(work, "consumer");
  mkdirSync(project);
  writeFileSync(
    path.join(project, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: "module", dependencies: { "mcp-codegen-generated": `file:../${tarball}`, zod: `file:../${zod}` } }),
  );
  run(npm, ["install", "--offline", "--ignore-scripts", "--no-audit", "--no-fund"], project);
  for (const [name, text] of [...readmeFiles(), ...quickStartFiles()]) writeFileSync(path.join(project, name), text);
}, 300_000);

describe("the packed generated-code package in a new project", () => {
  it("installs with zod as its only dependency, ships a LICENSE and no type tests", () => {
    expect(readdirSync(path.join(project, "node_modules")).filter((n) => !n.startsWith("."))).toEqual(["mcp-codegen-generated", "zod"]);
    const installed = path.join(project, "node_modules", "mcp-codegen-generated");
    expect(readFileSync(path.join(installed, "LICENSE"), "utf8")).toBe(readFileSync(path.join(root, "LICENSE"), "utf8"));
    const all = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? all(path.join(dir, e.name)) : [e.name]));
    expect(all(installed).filter((n) => n.includes("check"))).toEqual([]);
    expect(all(installed).filter((n) => n.endsWith(".ts") && !n.endsWith(".d.ts"))).toEqual([]);
    expect(JSON.parse(readFileSync(path.join(installed, "package.json"), "utf8")).dependencies).toEqual({ zod: JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).dependencies.zod });
  });

  it("docs/typescript.md's examples are the three files, the README's quick start two, and they type-check (strict) against the installed declarations", () => {
    expect([...readmeFiles().keys()].sort()).toEqual(["http.ts", "router.ts", "stdio.ts"]);
    expect([...quickStartFiles().keys()].sort()).toEqual(["quick-client.ts", "quick-server.ts"]);
    writeFileSync(
      path.join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true, skipLibCheck: true, types: ["node"], typeRoots: [path.join(root, "node_modules", "@types")] },
        files: ["router.ts", "stdio.ts", "http.ts", "quick-server.ts", "quick-client.ts"],
      }),
    );
    run(process.execPath, [path.join(root, "node_modules", "typescript", "bin", "tsc"), "-p", project], project);
  });

  it("serves the SDK 1.32.2 client and the 2.4.0 client over stdio, with _meta through resources/subscribe", async () => {
    const legacy = new LegacyClient({ name: "readme", version: "1.0.0" });
    await legacy.connect(new LegacyStdio({ command: process.execPath, args: [tsx, "stdio.ts"], cwd: project, stderr: "inherit" }));
    try {
      expect(textOf(await legacy.callTool({ name: "add", arguments: { a: 1, b: 2 } }))).toBe("3");
      expect(await legacy.subscribeResource({ uri: "file:///a.txt" })).toStrictEqual({ _meta: { "example.com/subscribed": "file:///a.txt" } });
    } finally {
      await legacy.close();
    }
    const modern = new ModernClient({ name: "readme", version: "1.0.0" }, { versionNegotiation: { mode: { pin: MODERN } } });
    await modern.connect(new ModernStdio({ command: process.execPath, args: [tsx, "stdio.ts"], cwd: project, stderr: "inherit" }));
    try {
      expect((await modern.listTools()).tools.map((t) => t.name)).toEqual(["add"]);
      expect(textOf(await modern.callTool({ name: "add", arguments: { a: 2, b: 5 } }))).toBe("7");
    } finally {
      await modern.close();
    }
  });

  it("the README's quick-start client spawns the quick-start server over stdio, negotiates 2025-11-25 and calls greet", () => {
    // The example runs its server with `npx tsx`; this project has no tsx installed, so the repository's is used.
    const client = quickStartFiles().get("quick-client.ts")!;
    const spawning = 'command: "npx", args: ["tsx", "quick-server.ts"]';
    expect(client).toContain(spawning);
    writeFileSync(path.join(project, "quick-client.ts"), client.replace(spawning, `command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(tsx)}, "quick-server.ts"]`));
    const out = spawnSync(process.execPath, [tsx, "quick-client.ts"], { cwd: project, encoding: "utf8", timeout: 60_000 });
    expect(out.stderr).toBe("");
    expect(out.stdout).toBe('2025-11-25 [{"type":"text","text":"Hello, Ada!"}]\n');
    expect(out.status).toBe(0);
  });

  describe("over HTTP", () => {
    let url: string;
    let stop: (() => Promise<void>) | undefined;
    async function start(): Promise<void> {
      await stop?.();
      const child = spawn(process.execPath, [tsx, "http.ts"], { cwd: project, env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "pipe"] });
      child.stderr!.resume();
      url = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.once("exit", (code) => reject(new Error(`http.ts exited ${code}: ${out}`)));
        child.stdout!.on("data", (c: Buffer) => {
          out += c.toString();
          const m = /listening (\S+)/.exec(out);
          if (m !== null) {
            child.removeAllListeners("exit");
            resolve(m[1]);
          }
        });
      });
      stop = () => new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : (child.once("exit", () => resolve()), process.kill(child.pid!, "SIGTERM"))));
    }
    beforeAll(start, 120_000);
    afterAll(async () => {
      await stop?.();
    });

    it("serves the 2.4.0 client at 2026-07-28 and the SDK 1.32.2 client (a legacy session, _meta through resources/subscribe) with no SDK installed", async () => {
      expect(existsSync(path.join(project, "node_modules", "@modelcontextprotocol"))).toBe(false);
      const client = new ModernClient({ name: "readme", version: "1.0.0" }, { versionNegotiation: { mode: { pin: MODERN } } });
      await client.connect(new ModernHttp(new URL(url)));
      try {
        expect(textOf(await client.callTool({ name: "add", arguments: { a: 4, b: 4 } }))).toBe("8");
      } finally {
        await client.close();
      }
      const legacy = new LegacyClient({ name: "readme", version: "1.0.0" });
      await legacy.connect(new LegacyHttp(new URL(url)));
      try {
        expect(textOf(await legacy.callTool({ name: "add", arguments: { a: 1, b: 2 } }))).toBe("3");
        expect(await legacy.subscribeResource({ uri: "file:///b.txt" })).toStrictEqual({ _meta: { "example.com/subscribed": "file:///b.txt" } });
      } finally {
        await legacy.close();
      }
    });
  });
});

describe("the root package's tarball", () => {
  it("ships the LICENSE, every output-format JSON Schema the README and `help` point to and the reviewed data, and no type tests", () => {
    const listed = JSON.parse(run(npm, ["pack", "--dry-run", "--json", "--ignore-scripts", "--silent"], root)) as { files: { path: string }[] }[];
    const files = listed[0].files.map((f) => f.path);
    const formatSchemas = readdirSync(schemasDir).filter((n) => n.endsWith(".schema.json"));
    expect(formatSchemas.length).toBeGreaterThan(0);
    for (const name of ["LICENSE", "schemas/errata-reviewed.json", ...formatSchemas.map((n) => `schemas/${n}`)]) expect(files).toContain(name);
    expect(files.filter((f) => f.startsWith("dist/") && f.includes(".check."))).toEqual([]);
    expect(files.filter((f) => f.startsWith("dist/generated-package/"))).toEqual([]);
  });
});
