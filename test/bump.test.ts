// `mcp-codegen bump`, as a maintainer runs it, in a temporary copy of the project: a published
// revision of the spec pinned as `draft` and as a new label, then generate, check and the catalogue
// of the new tree against the revision's own JSON; and a revision that cannot be generated refused
// with nothing changed. Nothing here assumes which labels the lock has or what they contain.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureSchemas, projectCopy, projectSnapshot as snapshot, readTree, root, runCli, schemasDir, tempDir } from "./support.js";

const historyDir = path.resolve(process.env.MCP_SPEC_HISTORY_DIR || path.join(root, "..", "shared", "mcp-spec-history"));
const hash = (bytes: Buffer | string) => createHash("sha256").update(bytes).digest("hex");

interface Revision {
  label: string;
  file: string;
  bytes: Buffer;
  commit: string | undefined;
}

/** The newest sample revision (first folder) with the commit its README names, if any. */
function sampleRevision(): Revision {
  const label = readdirSync(historyDir).filter((n) => existsSync(path.join(historyDir, n, "schema.json"))).sort()[0];
  const readme = existsSync(path.join(historyDir, "README.md")) ? readFileSync(path.join(historyDir, "README.md"), "utf8") : "";
  const commit = new RegExp(`^\\| ${label} \\| ([0-9a-f]{40}) \\|`, "m").exec(readme)?.[1];
  const file = path.join(historyDir, label, "schema.json");
  return { label, file, bytes: readFileSync(file), commit };
}

type Json = Record<string, unknown>;
const lockOf = (project: string) => JSON.parse(readFileSync(path.join(project, "schemas", "lock.json"), "utf8")) as { commit: string; versions: Record<string, Json & { sha256: string }> };

/** The definitions container of a raw schema and the names in it. */
function definitions(schema: Json): Record<string, Json> {
  return ((schema.$defs ?? schema.definitions) as Record<string, Json>) ?? {};
}

/** Method names of a raw schema, read from its request and notification unions (no generator code). */
function methodsOf(schema: Json): string[] {
  const defs = definitions(schema);
  const methods = new Set<string>();
  for (const union of ["ClientRequest", "ServerRequest", "ClientNotification", "ServerNotification"]) {
    const members = ((defs[union]?.anyOf ?? defs[union]?.oneOf ?? []) as Json[]).map((m) => String(m.$ref ?? "").split("/").pop()!);
    for (const name of members) {
      const method = ((defs[name]?.properties as Json | undefined)?.method as Json | undefined)?.const;
      if (typeof method === "string") methods.add(method);
    }
  }
  return [...methods].sort();
}

beforeAll(ensureSchemas);

describe.each([
  ["as draft", "draft"],
  ["as a new label", "2999-12-31"],
])("bump of a sample revision %s", (_name, label) => {
  const revision = sampleRevision();
  let project: string;
  let before: ReturnType<typeof lockOf>;
  let bumped: Awaited<ReturnType<typeof runCli>>;

  beforeAll(async () => {
    project = projectCopy();
    before = lockOf(project);
    const commit = revision.commit ? ["--commit", revision.commit] : [];
    bumped = await runCli(["bump", "--from", historyDir, "--versions", revision.label, "--as", label, ...commit, "--format", "json"], {}, project);
  });

  it("pins the revision's bytes under the label and keeps every other version's entry", () => {
    expect(bumped.status, bumped.stderr).toBe(0);
    const after = lockOf(project);
    expect(after.versions[label].sha256).toBe(hash(revision.bytes));
    expect(readFileSync(path.join(project, "schemas", label, "schema.json"))).toEqual(revision.bytes);
    for (const [other, entry] of Object.entries(before.versions)) if (other !== label) expect(after.versions[other], other).toEqual(entry);
    // The revision was given as JSON only: the label pins no schema.ts.
    expect(after.versions[label].schemaTs).toBeUndefined();
    expect(existsSync(path.join(project, "schemas", label, "schema.ts"))).toBe(false);
  });

  it("writes a review report named by the old and new hash prefixes that names the changed methods and definitions", () => {
    // A changed label is compared with its own old bytes; a new one with the newest locked label before it.
    const base = label in before.versions ? label : Object.keys(before.versions).filter((l) => l < label).sort().at(-1)!;
    const oldSha = before.versions[base].sha256;
    const report = `${label}@${oldSha.slice(0, 12)}..${hash(revision.bytes).slice(0, 12)}`;
    const md = readFileSync(path.join(project, "generated", "DIFFS", `${report}.md`), "utf8");
    expect(bumped.stdout).toContain(`report: DIFFS/${report}.md`);
    // The old bytes: this project's synced copy of what the lock pinned before (verified by hash).
    const oldBytes = readFileSync(path.join(schemasDir, base, "schema.json"));
    expect(hash(oldBytes)).toBe(oldSha);
    const oldRaw = JSON.parse(oldBytes.toString("utf8")) as Json;
    const newRaw = JSON.parse(revision.bytes.toString("utf8")) as Json;
    const oldDefs = Object.keys(definitions(oldRaw));
    const newDefs = Object.keys(definitions(newRaw));
    const changedNames = [...newDefs.filter((d) => !oldDefs.includes(d)), ...oldDefs.filter((d) => !newDefs.includes(d))];
    const changedMethods = [...methodsOf(newRaw).filter((m) => !methodsOf(oldRaw).includes(m)), ...methodsOf(oldRaw).filter((m) => !methodsOf(newRaw).includes(m))];
    expect(changedNames.length + changedMethods.length).toBeGreaterThan(0);
    for (const name of changedNames) expect(md, name).toContain(`| \`${name}\` |`);
    for (const method of changedMethods) expect(md, method).toContain(`| \`${method}\` |`);
    // --format json: the same diff as data, valid against the published format.
    const json = JSON.parse(readFileSync(path.join(project, "generated", "DIFFS", `${report}.json`), "utf8"));
    const validate = new Ajv2020({ strict: true }).compile(JSON.parse(readFileSync(path.join(schemasDir, "version-diff.schema.json"), "utf8")));
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    expect(json.from.sha256).toBe(oldSha);
    expect(json.to.sha256).toBe(hash(revision.bytes));

  });

  it("leaves a tree that `generate --check` accepts, and `generate` reproduces it byte for byte", async () => {
    const check = await runCli(["generate", "--check", "--no-cache"], {}, project);
    expect(check.status, check.stdout.slice(0, 2000) + check.stderr).toBe(0);
    const out = path.join(tempDir(), "again");
    const again = await runCli(["generate", "--out", out, "--no-cache"], {}, project);
    expect(again.status, again.stderr).toBe(0);
    const bumpedTree = readTree(path.join(project, "generated"));
    // The review reports are bump's own: a regeneration keeps them but does not make them.
    for (const rel of bumpedTree.keys()) if (rel.includes("@")) bumpedTree.delete(rel);
    expect(readTree(out)).toEqual(bumpedTree);
  });

  it("catalogues exactly the methods of the revision's request and notification unions", () => {
    const methods = readFileSync(path.join(project, "generated", label, "methods.ts"), "utf8");
    const listed = [...methods.matchAll(/^ {2}"([^"]+)": \{$/gm)].map((m) => m[1]).sort();
    expect(listed).toEqual(methodsOf(JSON.parse(revision.bytes.toString("utf8"))));
  });
});

describe("bump of a revision that cannot be generated", () => {
  it("exits 2 naming the file and pointer, and changes neither the lock, schemas/ nor generated/", async () => {
    const project = projectCopy();
    const revision = sampleRevision();
    // One reference made dangling: the loader must refuse it with the pointer of that $ref.
    const schema = JSON.parse(revision.bytes.toString("utf8")) as Json;
    const container = schema.$defs ? "$defs" : "definitions";
    const [name, def] = Object.entries(definitions(schema)).find(([, d]) => JSON.stringify(d).includes('"$ref"'))!;
    const text = JSON.stringify(def).replace(/"\$ref":"[^"]*"/, `"$ref":"#/${container}/NoSuchDefinition"`);
    definitions(schema)[name] = JSON.parse(text);
    const spec = path.join(tempDir(), "spec");
    mkdirSync(path.join(spec, "draft"), { recursive: true });
    writeFileSync(path.join(spec, "draft", "schema.json"), JSON.stringify(schema));
    const before = snapshot(project);
    const r = await runCli(["bump", "--from", spec, "--versions", "draft", "--commit", "f".repeat(40)], {}, project);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(path.join(spec, "draft", "schema.json"));
    expect(r.stderr).toContain('dangling $ref "#/' + container + '/NoSuchDefinition"');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(snapshot(project)).toEqual(before);
    // schemas pin goes through the same check.
    const p = await runCli(["schemas", "pin", "--from", spec, "--versions", "draft", "--commit", "f".repeat(40)], {}, project);
    expect(p.status).toBe(2);
    expect(snapshot(project)).toEqual(before);
  });
});

describe("a bumped tree compiles", () => {
  it("type-checks under strict after pinning a sample revision as a new label", async () => {
    const project = projectCopy();
    const revision = sampleRevision();
    const r = await runCli(["bump", "--from", historyDir, "--versions", revision.label, "--as", "2999-12-31"], {}, project);
    expect(r.status, r.stderr).toBe(0);
    writeFileSync(
      path.join(project, "tsconfig.json"),
      JSON.stringify({ extends: path.join(root, "tsconfig.generated.json"), include: ["generated/**/*.ts"], compilerOptions: { rootDir: "." } }),
    );
    const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
    const c = spawnSync(process.execPath, [tsc, "-p", path.join(project, "tsconfig.json"), "--noEmit"], { encoding: "utf8" });
    expect(c.stdout + c.stderr).toBe("");
    expect(c.status).toBe(0);
  });
});
