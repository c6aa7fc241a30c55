// Issue 35, items 2 and 5, end to end in copies of the project: a reviewed patch without a test is
// reopened (it has nothing to carry it by); a bump that adds a notification and the capability member
// beside it proposes the capability entry to review; `bump --dry-run` writes nothing (every file of the
// project hashed before and after) and lists what the bump would do in every target, a target's
// refusal among it, with exit 0 (clean), 1 (review needed) or 2 (bad input). The synthetic revisions
// are edits of a locked version's own schema.json, whichever label the reviewed patches cover.
import { createHash } from "node:crypto";
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { main } from "../../generator/cli.js";
import { InputError } from "../../generator/errors.js";
import { targets, type Target } from "../../generator/emit/targets.js";
import type { VersionDiff } from "../../generator/diff/version.js";
import { sha256 } from "../../generator/files.js";
import type { BumpReview } from "../../generator/reports/bump-review.js";
import { readLock } from "../../generator/source/lock.js";
import { patchesFor, patchFileFor, type PatchFile } from "../../generator/source/patch.js";
import { ensureSchemas, lockFile, modelOptions, projectCopy, root, runCli, schemasDir, tempDir, type CliResult } from "../support.js";
import { docExample } from "../docs/blocks.js";

type Json = Record<string, any>;
const lock = await readLock(lockFile);
/** The first locked label (sorted) whose bytes have reviewed patches, each starting with a test. */
const label = Object.keys(lock.versions)
  .sort()
  .find((l) => (patchesFor(modelOptions.patchesDir, lock.versions[l].sha256)?.patches.length ?? 0) > 0)!;
const reviewed = () => patchesFor(modelOptions.patchesDir, lock.versions[label].sha256)!.patches;
const published = () => readFileSync(path.join(schemasDir, label, "schema.json"), "utf8");
const commit = () => lock.versions[label].commit ?? lock.commit;

beforeAll(ensureSchemas);

it("a locked version's bytes have reviewed patches", () => {
  expect(label).toBeDefined();
});

/** A spec folder holding `bytes` as `label`'s schema.json, beside the label's synced schema.ts. */
function specFolder(bytes: string): string {
  const from = tempDir();
  mkdirSync(path.join(from, label));
  writeFileSync(path.join(from, label, "schema.json"), bytes);
  cpSync(path.join(schemasDir, label, "schema.ts"), path.join(from, label, "schema.ts"));
  return from;
}

/**
 * The label's schema with a new server notification, `notifications/tool/progress`, and a new
 * `streaming` member of the server's `tools` capability beside it (as the open spec pull request has).
 */
function withToolProgress(): string {
  const doc = JSON.parse(published()) as Json;
  const container = doc.$defs ? "$defs" : "definitions";
  const defs = doc[container] as Json;
  const ref = (name: string) => ({ $ref: `#/${container}/${name}` });
  defs.ToolProgressNotificationParams = {
    description: "Progress of a running tool call.",
    properties: { progressToken: ref("ProgressToken"), progress: { type: "number" } },
    required: ["progressToken", "progress"],
    type: "object",
  };
  defs.ToolProgressNotification = {
    description: "A notification from the server: progress of a tool call it streams.",
    properties: { jsonrpc: { const: "2.0", type: "string" }, method: { const: "notifications/tool/progress", type: "string" }, params: ref("ToolProgressNotificationParams") },
    required: ["jsonrpc", "method", "params"],
    type: "object",
  };
  const union = defs.ServerNotification.anyOf ?? defs.ServerNotification.oneOf;
  union.push(ref("ToolProgressNotification"));
  const tools = defs.ServerCapabilities.properties.tools;
  expect(tools.$ref, "the tools capability is declared inline").toBeUndefined();
  tools.properties = { ...tools.properties, streaming: { description: "Whether the server streams tool progress.", type: "boolean" } };
  return JSON.stringify(doc, null, 2);
}

/** sha256 of every file of the project copy (node_modules is a link to this checkout's, left out). */
function treeHashes(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const full = path.join(d, name);
      if (name === "node_modules" && lstatSync(full).isSymbolicLink()) continue;
      if (lstatSync(full).isDirectory()) walk(full);
      else out.set(path.relative(dir, full), createHash("sha256").update(readFileSync(full)).digest("hex"));
    }
  };
  walk(dir);
  return out;
}

const reportOf = (project: string, bytes: string) => {
  const name = `${label}@${lock.versions[label].sha256.slice(0, 12)}..${sha256(bytes).slice(0, 12)}`;
  return {
    md: readFileSync(path.join(project, "generated", "DIFFS", `${name}.md`), "utf8"),
    json: JSON.parse(readFileSync(path.join(project, "generated", "DIFFS", `${name}.json`), "utf8")) as VersionDiff & { review: BumpReview },
  };
};

describe("a reviewed patch without a test operation", () => {
  it("is reopened on a bump, the report saying it has no test to carry it by; the others carry", async () => {
    const project = projectCopy();
    // The project's patch file for the label's bytes, with the first patch's tests taken out.
    const file = patchFileFor(path.join(project, "schemas", "patches"), lock.versions[label].sha256);
    const data = JSON.parse(readFileSync(file, "utf8")) as PatchFile;
    const blind = data.patches[0].name;
    data.patches[0].ops = data.patches[0].ops.filter((op) => op.op !== "test");
    writeFileSync(file, JSON.stringify(data, null, 2) + "\n");
    const bytes = JSON.stringify(JSON.parse(published()));
    const r = await runCli(["bump", "--from", specFolder(bytes), "--versions", label, "--commit", commit(), "--format", "json"], {}, project);
    expect(r.status, r.stderr).toBe(0);
    const { md, json } = reportOf(project, bytes);
    expect(json.review.patches.outcomes).toEqual(data.patches.map((p) => (p.name === blind ? { name: blind, status: "reopened", reason: "no test", pointer: null } : { name: p.name, status: "carried" })));
    expect(md).toContain(`| \`${blind}\` | reopened | — | it has no \`test\` operation to carry it by`);
    expect(r.stderr).toContain(`${label}: reviewed patch "${blind}" is not carried to the new bytes: it has no \`test\` operation to carry it by`);
    // What it fixed is open again: every erratum at the pointers it patches went from fixed to open.
    const pointers = data.patches[0].ops.map((op) => op.path);
    const changed = json.errata.changes.filter((e) => pointers.includes(e.pointer));
    expect(changed.length).toBeGreaterThan(0);
    for (const e of changed) expect([e.change, e.from, e.to]).toEqual(["status", "fixed", "open"]);
  });
});

describe("a patch file whose bytes the bump unpins", () => {
  it("is removed when every patch carried: the new bytes' file holds them all", async () => {
    const project = projectCopy();
    // Every label pinned to the same bytes moves, so the old bytes are pinned no more.
    const sharing = Object.keys(lock.versions).filter((l) => lock.versions[l].sha256 === lock.versions[label].sha256);
    const bytes = JSON.stringify(JSON.parse(published()));
    const from = tempDir();
    for (const l of sharing) {
      mkdirSync(path.join(from, l));
      writeFileSync(path.join(from, l, "schema.json"), bytes);
      cpSync(path.join(schemasDir, l, "schema.ts"), path.join(from, l, "schema.ts"));
    }
    const r = await runCli(["bump", "--from", from, "--versions", sharing.join(","), "--commit", commit()], {}, project);
    expect(r.status, r.stderr).toBe(0);
    const patches = path.join(project, "schemas", "patches");
    expect(existsSync(patchFileFor(patches, lock.versions[label].sha256))).toBe(false);
    expect(JSON.parse(readFileSync(patchFileFor(patches, sha256(bytes)), "utf8"))).toEqual({ sha256: sha256(bytes), patches: reviewed() });
    expect(r.stderr).not.toContain("no longer applies");
  });
});

describe("a bump that adds a notification and the capability member beside it", () => {
  it("proposes the capability entry in the review report, and warns naming the method and the file to edit", async () => {
    const project = projectCopy();
    const bytes = withToolProgress();
    const r = await runCli(["bump", "--from", specFolder(bytes), "--versions", label, "--commit", commit(), "--format", "json"], {}, project);
    expect(r.status, r.stderr).toBe(0);
    const { md, json } = reportOf(project, bytes);
    expect(json.review.capabilities).toEqual([
      {
        method: "notifications/tool/progress",
        kind: "notification",
        definitions: ["ServerCapabilities"],
        added: ["tools.streaming"],
        entry: {
          requires: ["tools", "tools.streaming"],
          reason: "PROPOSED by bump, to review: the same bump adds tools.streaming to ServerCapabilities, under the capability named like the method's namespace",
        },
      },
    ]);
    expect(md).toContain("### `notifications/tool/progress` (notification)");
    expect(md).toContain('  "notifications/tool/progress": {\n    "requires": [\n      "tools",\n      "tools.streaming"\n    ],');
    expect(r.stderr).toContain(`${label}: method "notifications/tool/progress" has no reviewed capability entry: add { "requires": [...], "reason": "..." } for it to schemas/method-capabilities.json`);
    // The patches still carry: the edit did not touch what they test.
    expect(json.review.patches.outcomes.every((o) => o.status === "carried")).toBe(true);
  });
});

/** A target that refuses every model, as a printer refuses a keyword it cannot say (an InputError with file and pointer). */
const refuser: Target = {
  name: "refuser",
  folder: "refuser",
  options: [],
  async emit(model) {
    const v = model.versions[0];
    throw new InputError("the refuser target cannot print a `streaming` capability", `${v.label}/schema.json`, "/ServerCapabilities/properties/tools");
  },
  recognizes: () => false,
  sources: [],
};

async function rehearse(project: string, from: string, withRefuser = false): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const io = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, cwd: project, env: { ...process.env } };
  const status = await main(["bump", "--dry-run", "--from", from, "--versions", label, "--commit", commit()], io, withRefuser ? targets.with(refuser) : targets);
  return { status, stdout, stderr };
}

describe("bump --dry-run", () => {
  it("writes nothing, and lists the new method and definitions, the patches carried, the capability entry to add and a target's refusal: exit 1", async () => {
    const project = projectCopy();
    const pkg = JSON.parse(readFileSync(path.join(project, "package.json"), "utf8"));
    pkg["mcp-codegen"] = { targets: [...targets.names, "refuser"] };
    writeFileSync(path.join(project, "package.json"), JSON.stringify(pkg, null, 2));
    const before = treeHashes(project);
    const r = await rehearse(project, specFolder(withToolProgress()), true);
    expect(r.status, r.stderr).toBe(1);
    expect(treeHashes(project)).toEqual(before);
    const lines = r.stdout.split("\n");
    const after = (heading: string) => lines.slice(lines.indexOf(heading) + 1);
    expect(lines[0]).toMatch(/^rehearsal \(nothing written\): lock commit [0-9a-f]{40} → [0-9a-f]{40}$/);
    expect(lines).toContain(`  ${label}: changed (sha256 ${lock.versions[label].sha256} → ${sha256(withToolProgress())})`);
    expect(after("    new methods:")[0]).toBe("      notifications/tool/progress (notification sent by the server)");
    expect(after("    new definitions:").slice(0, 2)).toEqual(["      ToolProgressNotification", "      ToolProgressNotificationParams"]);
    expect(lines).not.toContain("    removed methods:");
    expect(lines).not.toContain("    removed definitions:");
    const from = `${lock.versions[label].sha256.slice(0, 12)}.json`;
    const to = `${sha256(withToolProgress()).slice(0, 12)}.json`;
    expect(after("    patches carried:").slice(0, reviewed().length)).toEqual(reviewed().map((p) => `      ${p.name} (${from} → ${to})`));
    expect(after("    capability entries to add to schemas/method-capabilities.json (PROPOSED, review each):")[0]).toBe(
      `      "notifications/tool/progress": {"requires":["tools","tools.streaming"],"reason":"PROPOSED by bump, to review: the same bump adds tools.streaming to ServerCapabilities, under the capability named like the method's namespace"}`,
    );
    const targetLines = after("targets:");
    for (const name of targets.names) expect(targetLines.find((l) => l.startsWith(`  ${name}: `))).toMatch(new RegExp(`^  ${name}: generates \\(\\d+ files\\)$`));
    // The refuser names the first version of the model (the labels sorted; the bump adds none).
    const first = Object.keys(lock.versions).sort()[0];
    expect(targetLines).toContain(`  refuser: REFUSES: ${first}/schema.json#/ServerCapabilities/properties/tools: the refuser target cannot print a \`streaming\` capability`);
    expect(lines).toContain("the bump needs review (the items above) before it goes in cleanly");
  });

  it("exit 0 for a bump that would go in cleanly (the same schema in other bytes: every patch carries), writing nothing", async () => {
    const project = projectCopy();
    const before = treeHashes(project);
    const bytes = JSON.stringify(JSON.parse(published()));
    const r = await rehearse(project, specFolder(bytes));
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(treeHashes(project)).toEqual(before);
    expect(r.stdout).toContain("    patches carried:\n");
    expect(r.stdout).not.toContain("patches reopened");
    expect(r.stdout.endsWith("the bump would go in cleanly\n")).toBe(true);
  });

  it("exit 1 naming the reopened patch and the pointer whose expected value moved", async () => {
    const project = projectCopy();
    const patch = reviewed()[0];
    const test = patch.ops.find((op) => op.op === "test")!;
    // A type the schema still allows, other than the one the patch expects.
    expect(test.path.endsWith("/type")).toBe(true);
    const doc = JSON.parse(published()) as Json;
    const tokens = test.path.split("/").slice(1).map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
    const parent = tokens.slice(0, -1).reduce((node, t) => node[t], doc);
    parent[tokens.at(-1)!] = "string";
    const r = await rehearse(project, specFolder(JSON.stringify(doc)));
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toContain(`    patches reopened:\n      ${patch.name}: its test at ${test.path} expected ${JSON.stringify(test.value)}, the new bytes have "string"\n`);
  });

  it("--format json prints the same as data", async () => {
    const project = projectCopy();
    const r = await runCli(["bump", "--dry-run", "--format", "json", "--from", specFolder(withToolProgress()), "--versions", label, "--commit", commit()], {}, project);
    expect(r.status, r.stderr).toBe(1);
    const data = JSON.parse(r.stdout);
    expect(data.needsReview).toBe(true);
    expect(data.targets.map((t: { target: string; refusal: unknown }) => [t.target, t.refusal])).toEqual(targets.names.map((n) => [n, null]));
    const v = data.versions.find((x: { version: string }) => x.version === label);
    expect(v.review.capabilities.map((c: { method: string }) => c.method)).toEqual(["notifications/tool/progress"]);
    expect(v.diff.methods.filter((m: { change: string }) => m.change === "added").map((m: { method: string }) => m.method)).toEqual(["notifications/tool/progress"]);
  });

  it("exit 2 for bad input, naming it, with nothing written", async () => {
    const project = projectCopy();
    const before = treeHashes(project);
    const missing = path.join(tempDir(), "no-such-spec");
    const r = await rehearse(project, missing);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(missing);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(treeHashes(project)).toEqual(before);
  });

  it("refuses --extensions-from (exit 2)", async () => {
    const r = await runCli(["bump", "--dry-run", "--extensions-from", tempDir()], {}, projectCopy());
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("--dry-run does not apply to --extensions-from");
  });
});

describe("docs/bump.md's rehearsal example", () => {
  const command = /^npm run cli -- (bump --dry-run [^\n]+)\n$/.exec(docExample("docs/bump.md", "rehearsal"))!;
  const output = docExample("docs/bump.md", "rehearsal-output");

  it("runs in a copy of the project and prints what it shows (… standing for what varies), writing nothing", async () => {
    expect(command).not.toBeNull();
    const project = projectCopy();
    const before = treeHashes(project);
    // The page runs it from the project's root: its relative paths are resolved there.
    const args = command[1].split(/\s+/).map((a) => (a.startsWith("../") ? path.resolve(root, a) : a));
    const r = await runCli(args, {}, project);
    expect([0, 1], r.stderr).toContain(r.status);
    expect(treeHashes(project)).toEqual(before);
    // Each shown line matches an output line, in order.
    const out = r.stdout.split("\n");
    let from = 0;
    for (const shown of output.trimEnd().split("\n")) {
      if (shown.trim() === "…") continue;
      const pattern = new RegExp(`^${shown.split("…").map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".+")}$`);
      const i = out.findIndex((l, n) => n >= from && pattern.test(l));
      expect(i, `${shown}\n---\n${r.stdout}`).toBeGreaterThanOrEqual(0);
      from = i + 1;
    }
    expect(r.stdout.endsWith(r.status === 0 ? "the bump would go in cleanly\n" : "before it goes in cleanly\n")).toBe(true);
  });
});
