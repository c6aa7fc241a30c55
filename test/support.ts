// Shared test helpers: where the spec's files are, running the CLI as a user would, fixture schemas.
import { type ChildProcess, spawnSync } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { main } from "../generator/cli.js";
import { readLock, syncSchemas } from "../generator/source/lock.js";
import { syncExtensions } from "../generator/source/extensions.js";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const generatedDir = path.join(root, "generated");
export const schemasDir = path.join(root, "schemas");
export const lockFile = path.join(root, "schemas", "lock.json");
// The spec's files are committed in schemas/ (`npm test` checks them against the lock first, the
// `pretest` script); $MCP_SPEC_DIR, when set, is where a missing or edited one is restored from.
export const specDir: string | undefined = process.env.MCP_SPEC_DIR ? path.resolve(process.env.MCP_SPEC_DIR) : undefined;
/** Model options as `generate` uses them: the project's patches and overrides. */
export const modelOptions = {
  schemasDir,
  patchesDir: path.join(schemasDir, "patches"),
  overridesFile: path.join(schemasDir, "overrides.json"),
  errataReviewedFile: path.join(schemasDir, "errata-reviewed.json"),
};

/** Where the locked extensions' files are: $MCP_EXTENSIONS_DIR, else `mcp-extensions` beside the spec folder (as the CLI finds them). */
export const extensionsDir: string | undefined = process.env.MCP_EXTENSIONS_DIR
  ? path.resolve(process.env.MCP_EXTENSIONS_DIR)
  : specDir === undefined
    ? undefined
    : path.join(path.dirname(specDir), "mcp-extensions");

/** Check schemas/<version>/ against the lock (restoring from MCP_SPEC_DIR where set), as `generate` does. */
export async function ensureSchemas(): Promise<void> {
  const lock = await readLock(lockFile);
  await syncSchemas({ lock, schemasDir, specDir });
  await syncExtensions({ lock, schemasDir, extensionsDir });
}

export function tempDir(prefix = "mcp-codegen-test-"): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Run `mcp-codegen <args>` in this process (`main` from generator/cli.ts), from `cwd` (default: the project). */
export async function runCli(args: string[], env: Record<string, string | undefined> = {}, cwd = root): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const status = await main(args, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    cwd,
    env: { ...process.env, MCP_SPEC_DIR: specDir, ...env },
  });
  return { status, stdout, stderr };
}

/** Run the `mcp-codegen` executable (generator/bin.ts, from source) as a separate process. */
export function runBin(args: string[], env: Record<string, string | undefined> = {}, cwd = root): CliResult {
  const r = spawnSync(process.execPath, ["--import", "tsx", path.join(root, "generator", "bin.ts"), ...args], {
    cwd,
    encoding: "utf8",
    // --check against an empty folder prints every generated file as a diff: well over the 1 MB default.
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, MCP_SPEC_DIR: specDir, ...env },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Every file of a folder, relative path → content. */
export function readTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const full = path.join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.set(path.relative(dir, full).split(path.sep).join("/"), readFileSync(full, "utf8"));
    }
  };
  walk(dir);
  return out;
}

/**
 * A copy of this project in a temp folder, as a maintainer's checkout would be for the CLI: its
 * package.json, schemas/ (lock, overrides, patches and the synced spec files) and generated/, with
 * node_modules linked to this one's (so the copied tree type-checks against the same zod).
 */
export function projectCopy(): string {
  const dir = path.join(tempDir("mcp-codegen-project-"), "project");
  mkdirSync(dir);
  copyFileSync(path.join(root, "package.json"), path.join(dir, "package.json"));
  cpSync(schemasDir, path.join(dir, "schemas"), { recursive: true });
  cpSync(generatedDir, path.join(dir, "generated"), { recursive: true });
  symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"), "dir");
  return dir;
}

/** Every file of a project copy's generated/ and schemas/: what a refused command must leave as it was. */
export function projectSnapshot(project: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const [rel, text] of readTree(path.join(project, "generated"))) files.set(`generated/${rel}`, text);
  for (const [rel, text] of readTree(path.join(project, "schemas"))) files.set(`schemas/${rel}`, text);
  return files;
}

/** A copy of the committed generated/ tree in a temp folder, to point `--out` at. */
export function copyOfGenerated(): string {
  const dir = path.join(tempDir(), "generated");
  cpSync(generatedDir, dir, { recursive: true });
  return dir;
}

type Schema = Record<string, unknown>;

/** A small but complete legacy-era schema (draft-07), to break in one place per test. */
export function minimalLegacySchema(): { $schema: string; definitions: Record<string, Schema> } {
  const meta = { type: "object", additionalProperties: {} };
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    definitions: {
      Result: { type: "object", properties: { _meta: meta }, additionalProperties: {} },
      EmptyResult: { $ref: "#/definitions/Result" },
      InitializeRequest: {
        type: "object",
        properties: {
          method: { const: "initialize", type: "string" },
          params: { type: "object", properties: { protocolVersion: { type: "string" } }, required: ["protocolVersion"] },
        },
        required: ["method", "params"],
      },
      InitializeResult: {
        type: "object",
        properties: { _meta: meta, protocolVersion: { type: "string" } },
        required: ["protocolVersion"],
      },
      PingRequest: { type: "object", properties: { method: { const: "ping", type: "string" } }, required: ["method"] },
      InitializedNotification: {
        type: "object",
        properties: { method: { const: "notifications/initialized", type: "string" } },
        required: ["method"],
      },
      ClientRequest: { anyOf: [{ $ref: "#/definitions/InitializeRequest" }, { $ref: "#/definitions/PingRequest" }] },
      ServerRequest: { anyOf: [{ $ref: "#/definitions/PingRequest" }] },
      ClientNotification: { anyOf: [{ $ref: "#/definitions/InitializedNotification" }] },
    },
  };
}

/** The labels the lock pins, in code-unit order (the order the model reads versions in), read from the lock. */
export function lockedLabels(): string[] {
  return Object.keys((JSON.parse(readFileSync(lockFile, "utf8")) as { versions: Record<string, unknown> }).versions).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The locked labels in protocol order, the newest last, by the rule generator/model/protocol-order.ts states,
 * applied to the schema files (not through the model): every label whose schema defines InitializeRequest
 * (legacy) before every other (modern); within each, labels that are dates by date, then the others by label.
 */
export function lockedProtocolOrder(): string[] {
  const legacy = (label: string) => {
    const doc = JSON.parse(readFileSync(path.join(schemasDir, label, "schema.json"), "utf8")) as { $defs?: object; definitions?: object };
    return Object.hasOwn(doc.$defs ?? doc.definitions ?? {}, "InitializeRequest");
  };
  const rank = (l: string) => (legacy(l) ? 0 : 2) + (/^\d{4}-\d{2}-\d{2}$/.test(l) ? 0 : 1);
  return lockedLabels().sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The methods a locked version's schema has as messages: the `method` constants of the members of its
 * ClientRequest, ServerRequest, ClientNotification and ServerNotification (read from
 * schemas/<label>/schema.json, not through the model).
 */
export function schemaMethods(label: string): Set<string> {
  type Node = { $ref?: string; anyOf?: Node[]; oneOf?: Node[]; properties?: { method?: { const?: string } } };
  const doc = JSON.parse(readFileSync(path.join(schemasDir, label, "schema.json"), "utf8")) as { $defs?: Record<string, Node>; definitions?: Record<string, Node> };
  const defs = doc.$defs ?? doc.definitions ?? {};
  const deref = (n: Node | undefined): Node | undefined => (n?.$ref === undefined ? n : deref(defs[n.$ref.replace(/^#\/(\$defs|definitions)\//, "")]));
  const out = new Set<string>();
  for (const union of ["ClientRequest", "ServerRequest", "ClientNotification", "ServerNotification"]) {
    const node = deref(defs[union]);
    for (const member of node?.anyOf ?? node?.oneOf ?? (node === undefined ? [] : [node])) {
      const method = deref(member)?.properties?.method?.const;
      if (typeof method === "string") out.add(method);
    }
  }
  return out;
}

/**
 * Why a locked version lacks a method, as its -32601 refusal says it, read from the lock and the schemas:
 * `removed after <the latest earlier label that has it>`, else `first in <the first later label that has it>`
 * (earlier and later in protocol order, `lockedProtocolOrder`).
 */
export function missingMethodWhy(label: string, method: string): { reason: "removed" | "other_era"; text: string } {
  const labels = lockedProtocolOrder();
  const at = labels.indexOf(label);
  if (at < 0) throw new Error(`${label} is not a label of ${lockFile}`);
  if (schemaMethods(label).has(method)) throw new Error(`${label} has ${method}`);
  const earlier = labels.slice(0, at).filter((l) => schemaMethods(l).has(method));
  if (earlier.length > 0) return { reason: "removed", text: `(removed after ${earlier[earlier.length - 1]})` };
  const later = labels.slice(at + 1).find((l) => schemaMethods(l).has(method));
  if (later === undefined) throw new Error(`no locked version has ${method}`);
  return { reason: "other_era", text: `(first in ${later})` };
}

/** Stops a child process by its pid (SIGTERM) and resolves once it has exited (at once when it already has). */
export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    process.kill(child.pid!, "SIGTERM");
  });
}
