// Extensions as inputs: a locked extension version generates its module; bad extension input exits 2
// naming the file and the JSON pointer, and writes nothing. The extension and its core version are
// the lock's first extension version (read from the lock, not assumed).
import { createHash } from "node:crypto";
import { copyFileSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { readLock, type SpecLock } from "../../generator/source/lock.js";
import { extensionSchemasDir } from "../../generator/source/extensions.js";
import { buildModel } from "../../generator/pipeline.js";
import { copyOfGenerated, ensureSchemas, lockFile, readTree, runCli, schemasDir, tempDir } from "../support.js";

let lock: SpecLock;
let name: string;
let label: string;
let core: string;

beforeAll(async () => {
  await ensureSchemas();
  lock = await readLock(lockFile);
  const first = Object.entries(lock.extensions ?? {})[0];
  expect(first, "the lock pins an extension").toBeDefined();
  name = first[0];
  label = Object.keys(first[1].versions)[0];
  core = first[1].versions[label].core[0];
});

/**
 * A schemas folder with the core version and the extension version (its schema.json edited by
 * `edit`), and a lock naming only them (edited by `editLock`).
 */
function fixture(edit: (schema: { $defs: Record<string, Record<string, unknown>> }) => void = () => undefined, editLock: (l: SpecLock) => void = () => undefined) {
  const dir = tempDir();
  cpSync(path.join(schemasDir, core), path.join(dir, core), { recursive: true });
  const extDir = path.join(extensionSchemasDir(dir, name), label);
  mkdirSync(extDir, { recursive: true });
  const file = path.join(extDir, "schema.json");
  const schema = JSON.parse(readFileSync(path.join(extensionSchemasDir(schemasDir, name), label, "schema.json"), "utf8"));
  edit(schema);
  writeFileSync(file, JSON.stringify(schema, null, 2));
  const ext = lock.extensions![name];
  const pinned: SpecLock = { ...lock, versions: { [core]: lock.versions[core] }, extensions: { [name]: { ...ext, versions: { [label]: structuredClone(ext.versions[label]) } } } };
  editLock(pinned);
  const lockPath = path.join(dir, "lock.json");
  writeFileSync(lockPath, JSON.stringify(pinned, null, 2));
  return { dir, file, lockPath };
}

async function generate(dir: string, lockPath: string) {
  const out = copyOfGenerated();
  const before = readTree(out);
  const r = await runCli(["generate", "--target", "typescript", "--schemas", dir, "--lock", lockPath, "--out", out]);
  return { r, out, unchanged: () => expect(readTree(out)).toEqual(before) };
}

describe("generate with a locked extension", () => {
  it("writes the extension's module for its core version, naming the extension in the header", async () => {
    const { dir, lockPath } = fixture();
    const out = path.join(tempDir(), "out");
    const r = await runCli(["generate", "--target", "typescript", "--schemas", dir, "--lock", lockPath, "--out", out]);
    expect(r.status, r.stderr).toBe(0);
    const types = readTree(out).get(`${core}+${name}/types.ts`);
    expect(types).toContain(`// Extension ${lock.extensions![name].identifier} ${label} layered onto it`);
  });
});

describe("a core version that defines the extension's names itself (a revision with Tasks bumped in under the core's label)", () => {
  it("generates (exit 0): in <core>+<name> the extension's definitions, in <core> the core's", async () => {
    const { dir, lockPath } = fixture();
    // The extension's schema.ts beside its schema.json: what it declares is its own.
    copyFileSync(path.join(extensionSchemasDir(schemasDir, name), label, "schema.ts"), path.join(extensionSchemasDir(dir, name), label, "schema.ts"));
    const ext = JSON.parse(readFileSync(path.join(extensionSchemasDir(schemasDir, name), label, "schema.json"), "utf8")) as { $defs: Record<string, unknown> };
    expect(ext.$defs.Task, "the extension defines Task").toBeDefined();
    // The core defines Task too, with another shape, and is pinned with those bytes (no schema.ts).
    const coreFile = path.join(dir, core, "schema.json");
    const coreSchema = JSON.parse(readFileSync(coreFile, "utf8")) as { $defs: Record<string, unknown> };
    expect(coreSchema.$defs.Task, `${core} does not define Task`).toBeUndefined();
    coreSchema.$defs.Task = { type: "object", properties: { legacyOnly: { type: "string" } }, required: ["legacyOnly"] };
    writeFileSync(coreFile, JSON.stringify(coreSchema));
    rmSync(path.join(dir, core, "schema.ts"), { force: true });
    const pinned = JSON.parse(readFileSync(lockPath, "utf8")) as SpecLock;
    pinned.versions[core] = { path: pinned.versions[core].path, sha256: createHash("sha256").update(readFileSync(coreFile)).digest("hex") };
    writeFileSync(lockPath, JSON.stringify(pinned, null, 2));

    const out = path.join(tempDir(), "out");
    const r = await runCli(["generate", "--target", "typescript", "--schemas", dir, "--lock", lockPath, "--out", out]);
    expect(r.status, r.stderr).toBe(0);
    const tree = readTree(out);
    const task = (text: string) => /export interface Task \{[\s\S]*?\n\}/.exec(text)?.[0] ?? "";
    expect(task(tree.get(`${core}/types.ts`)!)).toContain("legacyOnly");
    expect(task(tree.get(`${core}+${name}/types.ts`)!)).not.toContain("legacyOnly");
    expect(task(tree.get(`${core}+${name}/types.ts`)!)).toContain("taskId");
  });
});

describe("bad extension input exits 2, names the file and the pointer, and writes nothing", () => {
  it("a dangling $ref in the extension's own definition", async () => {
    const { dir, file, lockPath } = fixture((s) => {
      const own = Object.keys(s.$defs).find((d) => Array.isArray(s.$defs[d].allOf))!;
      (s.$defs[own].allOf as unknown[]).push({ $ref: "#/$defs/NoSuchDefinition" });
    });
    const { r, unchanged } = await generate(dir, lockPath);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`${file.replace(/[.+]/g, "\\$&")}#/\\$defs/[^/]+/allOf/\\d+/\\$ref`));
    expect(r.stderr).toContain('no definition "NoSuchDefinition"');
    unchanged();
  });

  it("an extension version naming a core version the lock does not have", async () => {
    const { dir, lockPath } = fixture(undefined, (l) => {
      l.extensions![name].versions[label].core = ["not-a-locked-version"];
    });
    const { r, unchanged } = await generate(dir, lockPath);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${lockPath}#/extensions/${name}/versions/${label}/core/0`);
    expect(r.stderr).toContain('core version "not-a-locked-version" is not in the lock');
    unchanged();
  });

  it("an extension request whose method the core version has already", async () => {
    const coreMethod = JSON.parse(readFileSync(path.join(schemasDir, core, "schema.json"), "utf8")).$defs.CallToolRequest.properties.method.const as string;
    let pointer = "";
    const { dir, file, lockPath } = fixture((s) => {
      for (const [def, schema] of Object.entries(s.$defs)) {
        const branches = (schema.allOf as Array<Record<string, any>> | undefined) ?? [];
        const i = branches.findIndex((b) => b.properties?.method?.const !== undefined);
        if (branches.some((b) => b.$ref === "#/$defs/JSONRPCRequest") && i >= 0) {
          branches[i].properties.method.const = coreMethod;
          pointer = `#/$defs/${def}/allOf/${i}/properties/method/const`;
          return;
        }
      }
    });
    const { r, unchanged } = await generate(dir, lockPath);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${file}${pointer}`);
    expect(r.stderr).toContain(`adds the method "${coreMethod}", which core version ${core} has already`);
    unchanged();
  });

  it("a core definition the extension repeats with another schema is the core's (the copy is not read)", async () => {
    const { dir, lockPath } = fixture((s) => {
      s.$defs.Result = { ...s.$defs.Result, properties: { ...(s.$defs.Result.properties as object), addedHere: { type: "string" } } };
    });
    const out = path.join(tempDir(), "out");
    const r = await runCli(["generate", "--target", "typescript", "--schemas", dir, "--lock", lockPath, "--out", out]);
    expect(r.status, r.stderr).toBe(0);
    const tree = readTree(out);
    expect(tree.get(`${core}+${name}/types.ts`)).not.toContain("addedHere");
    // The core's Result, printed the same in the core module and the extension's.
    const result = (text: string) => /export interface Result \{[\s\S]*?\n\}/.exec(text)?.[0];
    expect(result(tree.get(`${core}+${name}/types.ts`)!)).toBe(result(tree.get(`${core}/types.ts`)!));
  });

  it("a result the lock adds to a core request that the extension does not define", async () => {
    const { dir, lockPath } = fixture(undefined, (l) => {
      l.extensions![name].versions[label].results = { [Object.keys(l.extensions![name].versions[label].results ?? { "tools/call": [] })[0]]: ["NotDefinedHere"] };
    });
    const { r, unchanged } = await generate(dir, lockPath);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`${lockPath.replace(/[.+]/g, "\\$&")}#/extensions/${name}/versions/${label}/results/[^ ]+/0`));
    unchanged();
  });

  it("a result the lock adds that the core version defines already (as a core bumped in may) is the core's, listed once", async () => {
    const [method, names] = Object.entries(lock.extensions![name].versions[label].results ?? {})[0];
    const coreResults = buildModel({ schemasDir, versions: [core] }).versions[0].requests.find((r) => r.method === method)!.results;
    const { dir, lockPath } = fixture(undefined, (l) => {
      l.extensions![name].versions[label].results = { [method]: [coreResults[0], ...names] };
    });
    const model = buildModel({ schemasDir: dir, lock: await readLock(lockPath), lockFile: lockPath });
    const merged = model.extensions!.find((e) => e.name === name)!.model.requests.find((r) => r.method === method)!;
    expect(merged.results).toEqual([...coreResults, ...names]);
    const { r } = await generate(dir, lockPath);
    expect(r.status, r.stderr).toBe(0);
  });
});
