// The reviewed capability data (schemas/method-capabilities.json) as the model decides it: every
// method of every locked version has an entry (a method without one, as in a schema outside the lock,
// requires nothing), each path checked against that version's ServerCapabilities / ClientCapabilities;
// an undeclared capability or a malformed file is bad input (InputError, which the CLI answers with
// exit 2) naming the file and the JSON pointer.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { methodCapabilities as decided, unreviewedMethods as unreviewed } from "../../generator/model/capabilities.js";
import { InputError } from "../../generator/errors.js";
import type { JsonSchema, VersionModel } from "../../generator/model/types.js";
import { methodCapabilitiesFile } from "../../generator/paths.js";
import { readMethodCapabilities } from "../../generator/source/method-capabilities.js";
import { buildModel } from "../../generator/pipeline.js";
import { readLock } from "../../generator/source/lock.js";
import { ensureSchemas, lockFile, modelOptions, tempDir } from "../support.js";

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
        if (entry === undefined) throw new Error(`${v.label} ${m.method} has no reviewed entry: add { "requires": [...], "reason": "..." } for "${m.method}" to schemas/method-capabilities.json`);
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
    expect(unreviewedMethods(versions), "methods without a reviewed entry: add each to schemas/method-capabilities.json").toEqual([]);
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
