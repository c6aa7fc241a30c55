// `mcp-codegen bump --extensions-from DIR`, as a maintainer runs it, in a temporary copy of the project:
// a folder of extension folders in which one locked extension version gains a request (a copy of one of
// its own requests under a new method), pinned, regenerated and reviewed as a version bump is; and one
// whose new request takes a core method, refused with nothing changed. Reads the lock for the
// extensions and versions there are; assumes none by name.
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureSchemas, projectCopy, projectSnapshot as snapshot, readTree, runCli, schemasDir, tempDir } from "./support.js";

type Json = Record<string, unknown>;
const hash = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest("hex");
interface Lock {
  versions: Record<string, { sha256: string }>;
  extensions: Record<string, { versions: Record<string, { sha256: string; core: string[]; commit: string }> }>;
}
const lockOf = (project: string) => JSON.parse(readFileSync(path.join(project, "schemas", "lock.json"), "utf8")) as Lock;

/** A request the extension defines itself (an allOf over JSONRPCRequest fixing `method`): its name and method, read from the raw schema. */
function ownRequest(schema: Json, core: Json): { name: string; method: string } {
  const defs = schema.$defs as Record<string, Json>;
  const coreDefs = (core.$defs ?? core.definitions) as Record<string, Json>;
  for (const [name, def] of Object.entries(defs)) {
    if (name in coreDefs || !Array.isArray(def.allOf)) continue;
    const [envelope, body] = def.allOf as Json[];
    const method = ((body?.properties as Json | undefined)?.method as Json | undefined)?.const;
    if (envelope?.$ref === "#/$defs/JSONRPCRequest" && typeof method === "string" && name.endsWith("Request") && `${name.slice(0, -7)}Result` in defs) return { name, method };
  }
  throw new Error("the extension schema has no request of its own");
}

/** The schema with a copy of `request` (and its result) as `<prefix>…Request` fixing `method`. */
function withCopiedRequest(schema: Json, request: { name: string; method: string }, method: string): Json {
  const defs = { ...(schema.$defs as Record<string, Json>) };
  const base = request.name.slice(0, -7);
  const copy = JSON.parse(JSON.stringify(defs[request.name]).replaceAll(JSON.stringify(request.method), JSON.stringify(method))) as Json;
  defs[`Copied${base}Request`] = copy;
  defs[`Copied${base}Result`] = defs[`${base}Result`];
  return { ...schema, $defs: defs };
}

/** Every locked extension's synced folder copied to a new `<dir>/<name>/<version>/`, one version's schema.json replaced. */
function extensionsFolder(lock: Lock, name: string, label: string, schema: Json): { dir: string; bytes: Buffer } {
  const dir = path.join(tempDir(), "extensions");
  for (const ext of Object.keys(lock.extensions)) cpSync(path.join(schemasDir, "extensions", ext), path.join(dir, ext), { recursive: true });
  const bytes = Buffer.from(JSON.stringify(schema, null, 2) + "\n");
  mkdirSync(path.join(dir, name, label), { recursive: true });
  writeFileSync(path.join(dir, name, label, "schema.json"), bytes);
  return { dir, bytes };
}

beforeAll(ensureSchemas);

describe("bump --extensions-from of an extension version that adds a request", () => {
  let project: string;
  let before: Lock;
  let name: string;
  let label: string;
  let core: string;
  let bytes: Buffer;
  let oldSha: string;
  const method = "tasks/copied-by-the-test";
  let bumped: Awaited<ReturnType<typeof runCli>>;

  beforeAll(async () => {
    project = projectCopy();
    before = lockOf(project);
    name = Object.keys(before.extensions).sort()[0];
    label = Object.keys(before.extensions[name].versions).sort()[0];
    core = before.extensions[name].versions[label].core.find((c) => c in before.versions)!;
    oldSha = before.extensions[name].versions[label].sha256;
    const schema = JSON.parse(readFileSync(path.join(schemasDir, "extensions", name, label, "schema.json"), "utf8")) as Json;
    const coreSchema = JSON.parse(readFileSync(path.join(schemasDir, core, "schema.json"), "utf8")) as Json;
    const folder = extensionsFolder(before, name, label, withCopiedRequest(schema, ownRequest(schema, coreSchema), method));
    bytes = folder.bytes;
    bumped = await runCli(["bump", "--extensions-from", folder.dir, "--extensions", name, "--commit", "a".repeat(40), "--format", "json"], {}, project);
  });

  it("pins the new bytes and commit for that extension version and keeps every other entry", () => {
    expect(bumped.status, bumped.stderr).toBe(0);
    const after = lockOf(project);
    expect(after.versions).toEqual(before.versions);
    expect(after.extensions[name].versions[label].sha256).toBe(hash(bytes));
    expect(after.extensions[name].versions[label].commit).toBe("a".repeat(40));
    for (const [other, entry] of Object.entries(before.extensions[name].versions)) if (other !== label) expect(after.extensions[name].versions[other], other).toEqual(entry);
    expect(readFileSync(path.join(project, "schemas", "extensions", name, label, "schema.json"))).toEqual(bytes);
  });

  it("writes the review report <core>+<name>@<old>..<new> naming the added method, and its JSON valid against the diff format", () => {
    const report = `${core}+${name}@${oldSha.slice(0, 12)}..${hash(bytes).slice(0, 12)}`;
    expect(bumped.stdout).toContain(`report: DIFFS/${report}.md`);
    const md = readFileSync(path.join(project, "generated", "DIFFS", `${report}.md`), "utf8");
    expect(md).toContain(`| \`${method}\` |`);
    const json = JSON.parse(readFileSync(path.join(project, "generated", "DIFFS", `${report}.json`), "utf8"));
    const validate = new Ajv2020({ strict: true }).compile(JSON.parse(readFileSync(path.join(schemasDir, "version-diff.schema.json"), "utf8")));
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    expect(json.summary.methods.added).toBe(1);
  });

  it("regenerates the extension module (TypeScript and Ruby) with the method, and leaves a tree `generate --check` accepts", async () => {
    expect(readFileSync(path.join(project, "generated", `${core}+${name}`, "methods.ts"), "utf8")).toContain(`"${method}": {`);
    const rubyFiles = [...readTree(path.join(project, "generated", "ruby")).entries()].filter(([rel]) => rel.endsWith(`_${name}.rb`));
    expect(rubyFiles.some(([, text]) => text.includes(`"${method}"`))).toBe(true);
    const check = await runCli(["generate", "--check", "--no-cache"], {}, project);
    expect(check.status, check.stdout.slice(0, 2000) + check.stderr).toBe(0);
  });
});

describe("bump --extensions-from of an extension version that cannot be generated", () => {
  it("exits 2 naming the file and pointer, and changes neither the lock, schemas/ nor generated/", async () => {
    const project = projectCopy();
    const lock = lockOf(project);
    const name = Object.keys(lock.extensions).sort()[0];
    const label = Object.keys(lock.extensions[name].versions).sort()[0];
    const core = lock.extensions[name].versions[label].core.find((c) => c in lock.versions)!;
    const schema = JSON.parse(readFileSync(path.join(schemasDir, "extensions", name, label, "schema.json"), "utf8")) as Json;
    const coreSchema = JSON.parse(readFileSync(path.join(schemasDir, core, "schema.json"), "utf8")) as Json;
    // The copy takes a method the core version has (its first request's, read from the raw ClientRequest union).
    const coreDefs = (coreSchema.$defs ?? coreSchema.definitions) as Record<string, Json>;
    const first = String(((coreDefs.ClientRequest.anyOf ?? coreDefs.ClientRequest.oneOf) as Json[])[0].$ref).split("/").pop()!;
    const taken = ((coreDefs[first].properties as Json).method as Json).const as string;
    const folder = extensionsFolder(lock, name, label, withCopiedRequest(schema, ownRequest(schema, coreSchema), taken));
    const snap = snapshot(project);
    const r = await runCli(["bump", "--extensions-from", folder.dir], {}, project);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(path.join(folder.dir, name, label, "schema.json"));
    expect(r.stderr).toContain(`"${taken}"`);
    expect(r.stderr).toMatch(/#\/\$defs\/Copied\w+Request/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(snapshot(project)).toEqual(snap);
  });
});

describe("bump --extensions-from and an extension's pinned specification text (the lock's `text`)", () => {
  /** The first locked extension version that pins a text, with the text's file name. */
  const withText = (lock: Lock & { extensions: Record<string, { versions: Record<string, { text?: { path: string; sha256: string } }> }> }) => {
    for (const name of Object.keys(lock.extensions).sort())
      for (const label of Object.keys(lock.extensions[name].versions).sort()) {
        const text = lock.extensions[name].versions[label].text;
        if (text !== undefined) return { name, label, file: path.posix.basename(text.path) };
      }
    throw new Error("the lock pins no extension text");
  };

  it("a changed text is pinned (new sha256, same path) and written under schemas/extensions/, the schema's entry kept", async () => {
    const project = projectCopy();
    const before = lockOf(project) as Parameters<typeof withText>[0];
    const { name, label, file } = withText(before);
    const dir = path.join(tempDir(), "extensions");
    for (const ext of Object.keys(before.extensions)) cpSync(path.join(schemasDir, "extensions", ext), path.join(dir, ext), { recursive: true });
    const text = readFileSync(path.join(dir, name, label, file), "utf8") + "\nA line the test adds.\n";
    writeFileSync(path.join(dir, name, label, file), text);
    const r = await runCli(["bump", "--extensions-from", dir, "--extensions", name, "--commit", "c".repeat(40)], {}, project);
    expect(r.status, r.stderr).toBe(0);
    const after = lockOf(project) as Parameters<typeof withText>[0];
    const entry = after.extensions[name].versions[label] as unknown as { sha256: string; text: { path: string; sha256: string } };
    expect(entry.text).toEqual({ path: before.extensions[name].versions[label].text!.path, sha256: hash(text) });
    expect(entry.sha256).toBe((before.extensions[name].versions[label] as unknown as { sha256: string }).sha256);
    expect(readFileSync(path.join(project, "schemas", "extensions", name, label, file), "utf8")).toBe(text);
  });

  it("a folder without the pinned text: exit 2 naming the folder and the file, nothing written", async () => {
    const project = projectCopy();
    const lock = lockOf(project) as Parameters<typeof withText>[0];
    const { name, label, file } = withText(lock);
    const dir = path.join(tempDir(), "extensions");
    for (const ext of Object.keys(lock.extensions)) cpSync(path.join(schemasDir, "extensions", ext), path.join(dir, ext), { recursive: true });
    rmSync(path.join(dir, name, label, file));
    const snap = snapshot(project);
    const r = await runCli(["bump", "--extensions-from", dir, "--extensions", name], {}, project);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`the extension folder has no ${file} beside ${name} ${label}'s schema.json (the lock pins it)`);
    expect(r.stderr).toContain(path.join(dir, name, label));
    expect(snapshot(project)).toEqual(snap);
  });
});

describe("bump --extensions-from arguments", () => {
  it("--help documents --extensions-from and --extensions", async () => {
    const r = await runCli(["bump", "--help"]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("bump --extensions-from DIR [--extensions a,b]");
    expect(r.stdout).toContain("DIFFS/<core>+<name>@<old sha256 prefix>..<new prefix>.md");
  });

  it.each([
    [["--from", "x"], /--from does not apply to --extensions-from/],
    [["--extensions", "no-such-extension"], /the lock has no extension no-such-extension/],
    [["--commit", "abc"], /expected a 40-hex-digit commit, got "abc"/],
  ])("%j exits 2 and writes nothing", async (args, message) => {
    const project = projectCopy();
    const lock = lockOf(project);
    const dir = path.join(tempDir(), "extensions");
    for (const ext of Object.keys(lock.extensions)) cpSync(path.join(schemasDir, "extensions", ext), path.join(dir, ext), { recursive: true });
    const snap = snapshot(project);
    const r = await runCli(["bump", "--extensions-from", dir, ...args], {}, project);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(snapshot(project)).toEqual(snap);
  });

  it("--extensions without --extensions-from is a usage error", async () => {
    const r = await runCli(["bump", "--commit", "a".repeat(40), "--extensions", "x"], {}, projectCopy());
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("--extensions applies to --extensions-from");
  });
});
