// Faithful models (issue 29): what a round trip writes, what constructors take, and how the tree is
// printed: integers stay integers, a plain dump is the wire (unset members left out, its own model
// accepts it), field names and wire names both construct, identical versions re-export, docstrings
// carry no `\"` escapes and no Annotated is nested in another. The corpus-wide round trip is the
// differential test's (batch.py: every accepted instance dumps back to the same JSON text). Each extension
// module accepts its extension's own examples (the whole JSON-RPC messages of its specification text,
// tasks.md, pinned by the lock and committed under schemas/extensions/) by the definitions they are, and
// dumps each back unchanged.
import { readFileSync } from "node:fs";
import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { pointerToken } from "../../../generator/errors.js";
import { defaultPatchesDir } from "../../../generator/paths.js";
import { extensionModuleDocument } from "../typescript/corpus.js";
import { buildModel } from "../../../generator/pipeline.js";
import type { ExtensionModel } from "../../../generator/model/types.js";
import { readLock } from "../../../generator/source/lock.js";
import { extensionTextFile } from "../../../generator/source/extensions.js";
import { ensureSchemas, lockFile, modelOptions, readTree, root, schemasDir } from "../../support.js";
import { pythonJson, pythonTree } from "./support.js";

const tree = readTree(pythonTree);
// The lock is the oracle of which versions are identical: the first label (in label order) whose schema.json
// has the bytes of an earlier label's, and that label.
const lock = JSON.parse(readFileSync(path.join(root, "schemas", "lock.json"), "utf8")) as { versions: Record<string, { sha256: string }> };
const labels = Object.keys(lock.versions).sort();
const moduleOf = (label: string) => (/^\d/.test(label) ? `v${label.replace(/-/g, "_")}` : label.replace(/-/g, "_"));
const identical = ((): { label: string; owner: string } | null => {
  for (const [i, label] of labels.entries()) {
    const owner = labels.slice(0, i).find((l) => lock.versions[l].sha256 === lock.versions[label].sha256);
    if (owner !== undefined) return { label, owner };
  }
  return null;
})();

describe("faithful Python models", () => {
  const facts = pythonJson<Record<string, unknown>>("models.py", identical === null ? { module: null, owner: null } : { module: moduleOf(identical.label), owner: moduleOf(identical.owner) });

  it("keeps a JSON integer in a number member an integer, and a float a float", () => {
    expect(facts.progress).toBe('{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":50,"total":100.5}}');
  });

  it("dumps by wire name, in the wire's member order, leaving unset members out; the model accepts its own dump", () => {
    expect(facts.dump).toEqual({ protocolVersion: "2025-11-25", clientInfo: { version: "1", name: "c" }, capabilities: {} });
    expect(JSON.stringify(facts.dump)).toBe('{"protocolVersion":"2025-11-25","clientInfo":{"version":"1","name":"c"},"capabilities":{}}');
    expect(facts.dump_again).toEqual(facts.dump);
  });

  it("constructs from field names as from wire names; meta= sets _meta, never an extra member", () => {
    expect(facts.by_name).toEqual({ name: "n", version: "1", websiteUrl: "https://x.example" });
    expect(facts.by_name_equals_wire).toBe(true);
    expect(facts.result_meta).toEqual({ _meta: { k: 1 } });
    expect(facts.result_meta_extra).toEqual({});
    // Validation reads wire names only: {"meta": …} is an unknown member.
    expect(facts.wire_meta).toEqual([null, { meta: { k: 1 } }]);
  });

  it("re-exports the definitions of a version whose schema the lock pins with the same bytes as an earlier one's, its own constants and gate kept (none such: every module defines its own)", () => {
    if (identical === null) {
      for (const label of labels) expect(tree.get(`mcp_codegen/${moduleOf(label)}.py`), label).toMatch(/^class /m);
      return;
    }
    const { label, owner } = identical;
    expect([facts.reexported, facts.reexported_definitions]).toEqual([true, true]);
    const previous = labels[labels.indexOf(label) - 1] ?? null;
    expect(facts.own_version).toEqual([label, previous, { code: -32601, message: `Method not found: nope is not a method of protocol version ${label}`, data: { method: "nope", protocolVersion: label, reason: "unknown" } }]);
    const mine = tree.get(`mcp_codegen/${moduleOf(label)}.py`)!;
    expect(mine).not.toMatch(/^class /m);
    expect(mine.split("\n").length).toBeLessThan(tree.get(`mcp_codegen/${moduleOf(owner)}.py`)!.split("\n").length / 5);
  });

  it("prints docstrings without \\\" escapes and no Annotated nested in an Annotated", () => {
    for (const [file, text] of tree) {
      if (!file.endsWith(".py")) continue;
      // Docstrings only: code may well need a backslash before a quote (http.py's `"\\"`).
      const docstrings = text.match(/"""[\s\S]*?"""/g) ?? [];
      expect(docstrings.filter((d) => d.includes('\\"')), file).toEqual([]);
      expect(text.includes("Annotated[Annotated["), file).toBe(false);
    }
  });
});

/** `jsonc` text (the examples of a specification: `//` comments, trailing commas) as JSON text. */
function jsonc(text: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      out += c;
      if (c === "\\") out += text[++i];
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else out += c;
  }
  return out.replace(/,(\s*[}\]])/g, "$1");
}

/**
 * The whole JSON-RPC messages among an extension's examples (tasks.md's json code blocks), each with the
 * definitions that may be it: a request's or notification's own by its method, a result by the results of
 * the request of that id before it, an error by the module's JSON-RPC error response.
 */
function examples(file: string, model: ExtensionModel["model"]): Array<{ text: string; definitions: string[] }> {
  const blocks = [...readFileSync(file, "utf8").matchAll(/```jsonc?\n([\s\S]*?)```/g)].map((m) => JSON.parse(jsonc(m[1])) as Record<string, unknown>);
  const methods = new Map<unknown, string>();
  const out: Array<{ text: string; definitions: string[] }> = [];
  // The JSON-RPC error response's definition as the module names it (JSONRPCError before 2025-11-25's JSONRPCErrorResponse).
  const errorResponse = ["JSONRPCErrorResponse", "JSONRPCError"].find((name) => model.ir.definitions.has(name));
  expect(errorResponse, "the module's JSON-RPC error response definition (JSONRPCErrorResponse or JSONRPCError)").toBeDefined();
  for (const message of blocks.filter((b) => b.jsonrpc === "2.0")) {
    const text = JSON.stringify(message);
    if (typeof message.method === "string") {
      const own = [...model.requests, ...model.notifications].find((m) => m.method === message.method);
      expect(own, `the method of ${text}`).toBeDefined();
      if ("id" in message) methods.set(message.id, message.method);
      out.push({ text, definitions: [own!.definition] });
    } else if ("error" in message) out.push({ text, definitions: [errorResponse!] });
    else {
      const method = methods.get(message.id);
      expect(method, `the request of ${text}`).toBeDefined();
      out.push({ text: JSON.stringify(message.result), definitions: model.requests.find((r) => r.method === method)!.results });
    }
  }
  return out;
}

/** Ajv on the definitions an extension module has: its own by the extension's schema.json, the rest by the core's (the module's rule). */
function moduleOracle(ext: ExtensionModel): (definition: string, instance: unknown) => boolean {
  const options = { strict: false, validateFormats: false, allErrors: false } as const;
  const root = extensionModuleDocument(schemasDir, defaultPatchesDir, ext);
  const container = Object.hasOwn(root, "$defs") ? "$defs" : "definitions";
  const ajv = root.$schema === "https://json-schema.org/draft/2020-12/schema" ? new Ajv2020(options) : new Ajv(options);
  ajv.addSchema(root, "doc");
  return (definition, instance) => (ajv.getSchema(`doc#/${container}/${pointerToken(definition)}`) as ValidateFunction)(instance) as boolean;
}

describe("extension modules' models and their extension's own examples", async () => {
  await ensureSchemas();
  const locked = await readLock(lockFile);
  const extensions: ExtensionModel[] = [...(buildModel({ ...modelOptions, lock: locked }).extensions ?? [])];

  it.each(extensions.map((x) => [`${x.core}+${x.name}`, x] as const))("%s: every whole message of the extension's examples is judged as Ajv judges it (the extension's schema for its own definitions, the core's for the rest), and one it accepts dumps back unchanged", (label, ext) => {
    const module = { version: ext.core, extension: ext.identifier };
    // The specification text the lock pins beside the extension's schema (synced and hash-checked by ensureSchemas).
    const text = extensionTextFile(schemasDir, ext.name, ext.label, locked.extensions![ext.name].versions[ext.label]);
    expect(text, `schemas/lock.json pins the specification text of ${ext.name} ${ext.label} ("text": { path, sha256 })`).toBeDefined();
    const found = examples(text!, ext.model);
    // Requests, results (tasks/get's and tools/call's task), notifications/tasks and errors.
    expect(found.length).toBeGreaterThan(10);
    const pairs = found.flatMap((e) => e.definitions.map((definition) => ({ definition, text: e.text })));
    const answers = pythonJson<Array<{ valid: boolean[]; changed: number[] }>>("batch.py", pairs.map((p) => ({ ...module, definition: p.definition, instances: [p.text] })));
    const oracle = moduleOracle(ext);
    const disagreements: string[] = [];
    const refused: string[] = [];
    pairs.forEach((p, i) => {
      const ajv = oracle(p.definition, JSON.parse(p.text));
      if (answers[i].valid[0] !== ajv) disagreements.push(`${p.definition}: Ajv ${ajv ? "accepts" : "refuses"}, pydantic ${ajv ? "refuses" : "accepts"} ${p.text}`);
      if (answers[i].changed.length > 0) disagreements.push(`${p.definition}: dumps ${p.text} differently`);
    });
    for (const e of found) {
      const accepted = pairs.some((p, i) => p.text === e.text && answers[i].valid[0]);
      if (!accepted) refused.push(`${e.definitions.join(" | ")}: ${e.text.slice(0, 140)}`);
    }
    console.log(`${label}: ${found.length} whole messages among the extension's examples; ${found.length - refused.length} valid; refused by the schema (Ajv and pydantic alike):\n  ${refused.join("\n  ") || "none"}`);
    expect(found.length - refused.length).toBeGreaterThan(found.length / 2);
    expect(disagreements).toEqual([]);
  });
});
