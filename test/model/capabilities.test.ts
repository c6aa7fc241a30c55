// The reviewed capability data (schemas/method-capabilities.json) as the model decides it: every
// method of every locked version has an entry (a method without one, as in a schema outside the lock,
// requires nothing), each path checked against that version's ServerCapabilities / ClientCapabilities;
// an undeclared capability or a malformed file is bad input (InputError, which the CLI answers with
// exit 2) naming the file and the JSON pointer.
//
// The capability entry proposed for a method the reviewed data has no entry for
// (proposeCapabilityEntries), on synthetic schemas: drawn from the capability members the new version
// adds on the side the method's requirement reads. Expected entries are written out by hand.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { methodCapabilities as decided, proposeCapabilityEntries, unreviewedMethods as unreviewed } from "../../generator/model/capabilities.js";
import { InputError } from "../../generator/errors.js";
import type { JsonSchema, VersionModel } from "../../generator/model/types.js";
import { methodCapabilitiesFile } from "../../generator/paths.js";
import { readMethodCapabilities } from "../../generator/source/method-capabilities.js";
import { buildModel, buildModelFromSpecs } from "../../generator/pipeline.js";
import { readLock } from "../../generator/source/lock.js";
import { ensureSchemas, lockFile, minimalLegacySchema, modelOptions, tempDir } from "../support.js";

/** The model's decision over a capability file as the pipeline reads it (the lock's by default). */
const methodCapabilities = (versions: readonly VersionModel[], file = methodCapabilitiesFile) => decided(versions, readMethodCapabilities(file));
const unreviewedMethods = (versions: readonly VersionModel[], file = methodCapabilitiesFile) => unreviewed(versions, readMethodCapabilities(file));

let versions: VersionModel[] = [];
const reviewed = JSON.parse(readFileSync(methodCapabilitiesFile, "utf8")) as { methods: Record<string, { requires: string[]; ifDeclared?: string[]; byVersion?: Record<string, string[]>; reason: string }> };

beforeAll(async () => {
  await ensureSchemas();
  versions = buildModel({ ...modelOptions, lock: await readLock(lockFile) }).versions;
});

function withFile(data: unknown): string {
  const file = path.join(tempDir(), "method-capabilities.json");
  writeFileSync(file, typeof data === "string" ? data : JSON.stringify(data));
  return file;
}

function inputError(run: () => unknown): InputError {
  try {
    run();
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error("no InputError");
}

describe("schemas/method-capabilities.json", () => {
  it("covers every method of every locked version with its reviewed requirement", () => {
    const table = methodCapabilities(versions);
    expect([...table.keys()].sort()).toEqual(versions.map((v) => v.label).sort());
    for (const v of versions) {
      for (const m of [...v.requests, ...v.notifications]) {
        const entry = Object.hasOwn(reviewed.methods, m.method) ? reviewed.methods[m.method] : undefined;
        // A method a bump brings has no entry yet: say which and where, rather than crash.
        if (entry === undefined) throw new Error(`${v.label} ${m.method} has no reviewed entry: add { "requires": [...], "reason": "..." } for "${m.method}" to schemas/method-capabilities.json (the bump's review report proposes one)`);
        // An ifDeclared path is required where the version's capabilities (the schema's own definitions, as written) declare it.
        const declaredHere = (p: string) =>
          ["ServerCapabilities", "ClientCapabilities"].some((d) => {
            let node: JsonSchema | undefined = v.definitions[d];
            for (const key of p.split(".")) {
              const next: JsonSchema | undefined = (node?.properties as Record<string, JsonSchema> | undefined)?.[key];
              if (next === undefined) return false;
              node = typeof next.$ref === "string" ? v.definitions[next.$ref.split("/").pop()!] : next;
            }
            return true;
          });
        const expected = (entry.byVersion?.[v.label] ?? entry.requires).filter((p) => !(entry.ifDeclared ?? []).includes(p) || declaredHere(p));
        expect(table.get(v.label)!.get(m.method), `${v.label} ${m.method}`).toEqual(expected);
      }
    }
  });

  it("has an entry for every method of every locked version; a method without one requires nothing", () => {
    // A method a bump brings fails here until reviewed: the message names each method and the file to edit.
    const missing = unreviewedMethods(versions);
    expect(missing, `no reviewed capability entry for ${missing.map((m) => `"${m.split(" ")[1]}" (${m.split(" ")[0]})`).join(", ")}: add { "requires": [...], "reason": "..." } for each to schemas/method-capabilities.json (the bump's review report proposes one)`).toEqual([]);
    const { ["tools/call"]: _dropped, ...rest } = reviewed.methods;
    const file = withFile({ methods: rest });
    const labels = versions.filter((v) => v.requests.some((r) => r.method === "tools/call")).map((v) => v.label);
    expect(labels.length).toBeGreaterThan(0);
    expect(unreviewedMethods(versions, file)).toEqual(labels.map((l) => `${l} tools/call`).sort());
    const table = methodCapabilities(versions, file);
    for (const l of labels) expect(table.get(l)!.get("tools/call")).toEqual([]);
  });

  it("refuses a capability a version's capabilities do not declare, naming the definition and version", () => {
    const file = withFile({ methods: { ...reviewed.methods, "tools/list": { requires: ["tools", "tools.paginated"], reason: "r" } } });
    const e = inputError(() => methodCapabilities(versions, file));
    expect(e.pointer).toBe("/methods/tools~1list/requires");
    expect(e.message).toMatch(/tools\/list requires tools\.paginated, which ServerCapabilities of protocol version \S+ does not declare$/);
    // byVersion is checked against its own version, and points there.
    const label = versions.find((v) => v.requests.some((r) => r.method === "tools/list"))!.label;
    const byVersion = withFile({ methods: { ...reviewed.methods, "tools/list": { requires: ["tools"], byVersion: { [label]: ["sampling"] }, reason: "r" } } });
    const e2 = inputError(() => methodCapabilities(versions, byVersion));
    expect(e2.pointer).toBe(`/methods/tools~1list/byVersion/${label}`);
    expect(e2.message.endsWith(`tools/list requires sampling, which ServerCapabilities of protocol version ${label} does not declare`)).toBe(true);
  });

  it("a method both sides send requires a path either side's capabilities declare (a 2024 revision lists roots/list as a client request too)", () => {
    const v = versions.find((x) => x.specCommit !== null && x.requests.some((r) => r.method === "roots/list" && r.sender === "server"))!;
    expect(v, "a locked version where the server sends roots/list").toBeDefined();
    const both = { ...v, requests: v.requests.map((r) => (r.method === "roots/list" ? { ...r, sender: "both" as const } : r)) };
    // roots is the client's capability only; tools the server's only: each is required.
    const file = withFile({ methods: { ...reviewed.methods, "roots/list": { requires: ["roots", "tools"], reason: "r" } } });
    expect(methodCapabilities([both], file).get(v.label)!.get("roots/list")).toEqual(["roots", "tools"]);
    // A path neither declares is still refused, naming the first side's definition.
    const neither = withFile({ methods: { ...reviewed.methods, "roots/list": { requires: ["roots", "nonesuch"], reason: "r" } } });
    const e = inputError(() => methodCapabilities([both], neither));
    expect(e.message.endsWith(`roots/list requires nonesuch, which ServerCapabilities of protocol version ${v.label} does not declare`), e.message).toBe(true);
  });

  it("requires of a version outside the lock only the paths its capabilities declare (the data is reviewed against the locked ones)", () => {
    const v = versions.find((x) => x.requests.some((r) => r.method === "tools/list"))!;
    const file = withFile({ methods: { ...reviewed.methods, "tools/list": { requires: ["tools", "tools.paginated"], reason: "r" } } });
    const unlocked = { ...v, specCommit: null };
    expect(methodCapabilities([unlocked], file).get(v.label)!.get("tools/list")).toEqual(["tools"]);
    expect(() => methodCapabilities([v], file)).toThrow(InputError);
  });

  it("ifDeclared: a locked version whose capabilities lack the path requires nothing of it (no label to review after a bump); without ifDeclared it is refused", () => {
    const v = versions.find((x) => x.requests.some((r) => r.method === "tools/list"))!;
    const lacking = withFile({ methods: { ...reviewed.methods, "tools/list": { requires: ["tools", "tools.paginated"], ifDeclared: ["tools.paginated"], reason: "r" } } });
    expect(methodCapabilities([v], lacking).get(v.label)!.get("tools/list")).toEqual(["tools"]);
    const strict = withFile({ methods: { ...reviewed.methods, "tools/list": { requires: ["tools", "tools.paginated"], reason: "r" } } });
    expect(inputError(() => methodCapabilities([v], strict)).pointer).toBe("/methods/tools~1list/requires");
  });

  it.each([
    ["not JSON", "{", ""],
    ["no methods object", { methods: [] }, ""],
    ["an entry without a reason", { methods: { ping: { requires: [] } } }, "/methods/ping"],
    ["a path that is not dotted keys", { methods: { ping: { requires: ["a..b"], reason: "r" } } }, "/methods/ping"],
    ["byVersion not lists", { methods: { ping: { requires: [], byVersion: { x: "tools" }, reason: "r" } } }, "/methods/ping/byVersion"],
    ["ifDeclared not paths of requires", { methods: { ping: { requires: ["tools"], ifDeclared: ["prompts"], reason: "r" } } }, "/methods/ping/ifDeclared"],
  ])("refuses a malformed file: %s", (_name, data, pointer) => {
    const file = withFile(data);
    const e = inputError(() => methodCapabilities(versions, file));
    expect(e.file).toBe(file);
    expect(e.pointer).toBe(pointer);
  });
});

type Schema = Record<string, unknown>;
const ref = (name: string) => ({ $ref: `#/definitions/${name}` });
const request = (method: string) => ({ type: "object", properties: { method: { const: method, type: "string" } }, required: ["method"] });

function model(edit: (defs: Record<string, Schema>) => void): VersionModel {
  const schema = minimalLegacySchema();
  const defs = schema.definitions;
  defs.ServerCapabilities = { type: "object", properties: { tools: { type: "object", properties: { listChanged: { type: "boolean" } } }, logging: { type: "object" } } };
  defs.ClientCapabilities = { type: "object", properties: { roots: { type: "object" } } };
  edit(defs);
  const bytes = new TextEncoder().encode(JSON.stringify(schema));
  return buildModelFromSpecs([{ label: "x", file: "x/schema.json", bytes, schemaTs: null }], {}).versions[0];
}

const data = (methods: string[]) => ({ file: "method-capabilities.json", methods: Object.fromEntries(methods.map((m) => [m, { requires: [], reason: "r" }])) });
const reviewedFew = data(["initialize", "ping", "notifications/initialized"]);
const addRequest = (defs: Record<string, Schema>, name: string, method: string) => {
  defs[name] = request(method);
  (defs.ClientRequest.anyOf as Schema[]).push(ref(name));
};

describe("proposeCapabilityEntries", () => {
  const before = model(() => {});

  it("a new request beside a new member of its namespace's capability: that member and its ancestors", () => {
    const after = model((defs) => {
      addRequest(defs, "StreamToolRequest", "tools/stream");
      ((defs.ServerCapabilities.properties as Record<string, Schema>).tools.properties as Record<string, Schema>).streaming = { type: "boolean" };
    });
    expect(proposeCapabilityEntries(before, after, reviewedFew)).toEqual([
      {
        method: "tools/stream",
        kind: "request",
        definitions: ["ServerCapabilities"],
        added: ["tools.streaming"],
        entry: { requires: ["tools", "tools.streaming"], reason: "PROPOSED by bump, to review: the same bump adds tools.streaming to ServerCapabilities, under the capability named like the method's namespace" },
      },
    ]);
  });

  it("a new request whose namespace's capability exists and gains nothing: that capability alone", () => {
    const after = model((defs) => addRequest(defs, "TailLogRequest", "logging/tail"));
    expect(proposeCapabilityEntries(before, after, reviewedFew).map((p) => [p.method, p.added, p.entry.requires])).toEqual([["logging/tail", [], ["logging"]]]);
  });

  it("a capability added elsewhere is not taken for a method of another namespace: nothing required, the addition named", () => {
    const after = model((defs) => {
      addRequest(defs, "FooRequest", "foo/bar");
      (defs.ServerCapabilities.properties as Record<string, Schema>).widgets = { type: "object" };
    });
    expect(proposeCapabilityEntries(before, after, reviewedFew)).toEqual([
      {
        method: "foo/bar",
        kind: "request",
        definitions: ["ServerCapabilities"],
        added: ["widgets"],
        entry: { requires: [], reason: "PROPOSED by bump, to review: no capability of ServerCapabilities is named like the method's namespace (the bump adds widgets)" },
      },
    ]);
  });

  it("reads the receiver's capabilities for a server request (the client's), and proposes nothing for a method already reviewed", () => {
    const after = model((defs) => {
      defs.RootsWatchRequest = request("roots/watch");
      (defs.ServerRequest.anyOf as Schema[]).push(ref("RootsWatchRequest"));
      ((defs.ClientCapabilities.properties as Record<string, Schema>).roots as Schema).properties = { watch: { type: "boolean" } };
    });
    expect(proposeCapabilityEntries(before, after, reviewedFew).map((p) => [p.method, p.definitions, p.entry.requires])).toEqual([["roots/watch", ["ClientCapabilities"], ["roots", "roots.watch"]]]);
    expect(proposeCapabilityEntries(before, after, data([...Object.keys(reviewedFew.methods), "roots/watch"]))).toEqual([]);
  });
});
