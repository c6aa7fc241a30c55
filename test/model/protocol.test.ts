// The protocol facts (generator/model/protocol.ts) against the pinned schemas read directly here (JSON,
// and schema.ts's text by a regular expression, independent of the model's TypeScript parse), and the
// reviewed prose facts' checks (schemas/protocol-facts.json: bad input names the file and the pointer).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { InputError } from "../../generator/errors.js";
import { buildProtocolFacts } from "../../generator/model/protocol.js";
import type { ProtocolModel } from "../../generator/model/types.js";
import { protocolFactsFile } from "../../generator/paths.js";
import { buildModel } from "../../generator/pipeline.js";
import { readLock } from "../../generator/source/lock.js";
import { readProtocolFacts } from "../../generator/source/protocol-facts.js";
import { lockFile, modelOptions, schemasDir, tempDir } from "../support.js";

let model: ProtocolModel;
beforeAll(async () => {
  model = buildModel({ ...modelOptions, lock: await readLock(lockFile) });
});

type Json = Record<string, unknown>;
const labels = () => model.versions.map((v) => v.label);
const definitionsOf = (label: string): Record<string, Json> => {
  const doc = JSON.parse(readFileSync(path.join(schemasDir, label, "schema.json"), "utf8")) as Json;
  return (doc.$defs ?? doc.definitions) as Record<string, Json>;
};

describe("protocol facts from the schemas", () => {
  it("every numeric constant schema.ts exports is an error code of its version, under its name", () => {
    let seen = 0;
    for (const label of labels()) {
      const ts = path.join(schemasDir, label, "schema.ts");
      if (!existsSync(ts)) continue;
      const consts = [...readFileSync(ts, "utf8").matchAll(/^export const ([A-Z_]+) = (-\d+);/gm)].map((m) => ({ name: m[1], code: Number(m[2]) }));
      const facts = model.protocol.versions.find((v) => v.label === label)!;
      for (const c of consts) expect(facts.errors, `${label} ${c.name}`).toContainEqual({ ...c, source: "schema.ts" });
      seen += consts.length;
    }
    expect(seen).toBeGreaterThan(0);
  });

  it("a version's batches fact is whether its schema.json defines JSONRPCBatchRequest, and every such dated version precedes the reviewed first version without", () => {
    const batches = labels().map((label) => "JSONRPCBatchRequest" in definitionsOf(label));
    expect(model.protocol.versions.slice(0, labels().length).map((v) => v.batches)).toEqual(batches);
    expect(batches).toContain(true);
    const first = model.protocol.firstVersionWithoutBatches;
    expect(first).toBe(JSON.parse(readFileSync(protocolFactsFile, "utf8")).batches.firstVersionWithout);
    labels().forEach((label, i) => {
      if (batches[i] && /^\d{4}-\d{2}-\d{2}$/.test(label)) expect(label < first, label).toBe(true);
    });
  });

  it("a tree of one legacy version still has every reviewed code, _meta key and extension its runtime names", () => {
    const reviewed = readProtocolFacts(protocolFactsFile);
    const oldest = buildModel({ ...modelOptions, versions: [labels()[0]] }).protocol;
    expect(oldest.versions.map((v) => v.label)).toEqual([labels()[0]]);
    for (const e of reviewed.errors) expect(oldest.errors).toContainEqual({ name: e.name, code: e.code, source: "reviewed" });
    for (const m of reviewed.meta) expect(oldest.meta.map((x) => x.key)).toContain(m.key);
    for (const x of reviewed.extensions) expect(oldest.extensions.map((y) => y.identifier)).toContain(x.identifier);
  });

  it("the request _meta keys of a version with RequestMetaObject are its properties", () => {
    let seen = 0;
    for (const label of labels()) {
      const meta = definitionsOf(label).RequestMetaObject;
      if (meta === undefined) continue;
      const keys = Object.keys(meta.properties as Json);
      expect(model.protocol.versions.find((v) => v.label === label)!.meta.request).toEqual(expect.arrayContaining(keys));
      for (const key of keys) expect(model.protocol.meta.map((m) => m.key)).toContain(key);
      seen++;
    }
    expect(seen).toBeGreaterThan(0);
  });

  it("a draft that renumbers a code in schema.json and lists fewer log levels still builds: the merged view keeps the reviewed code, the version's facts the draft's", () => {
    // The newest modern version whose schema defines the header-mismatch error and the log levels (a bump may
    // pin an earlier draft that has neither as a label).
    const schemaOf = (label: string) => JSON.parse(readFileSync(path.join(schemasDir, label, "schema.json"), "utf8")) as Json;
    const defsOf = (doc: Json) => (doc.$defs ?? doc.definitions) as Record<string, Json>;
    const modern = model.versions
      .filter((v) => v.era === "modern")
      .map((v) => v.label)
      .reverse()
      .find((label) => defsOf(schemaOf(label)).HeaderMismatchError !== undefined && defsOf(schemaOf(label)).LoggingLevel !== undefined);
    expect(modern, "a modern version whose schema defines HeaderMismatchError and LoggingLevel").toBeDefined();
    const doc = schemaOf(modern!);
    const defs = defsOf(doc);
    const mismatch = defs.HeaderMismatchError as { properties: { error: { allOf: Json[] } } };
    const part = mismatch.properties.error.allOf.find((x) => (x.properties as Json | undefined)?.code !== undefined) as { properties: { code: { const: number } } };
    part.properties.code.const = -32001;
    (defs.LoggingLevel as Json).enum = ["debug", "error", "info", "warning"];
    const dir = tempDir();
    mkdirSync(path.join(dir, "rev.draft-x"));
    writeFileSync(path.join(dir, "rev.draft-x", "schema.json"), JSON.stringify(doc));
    const facts = buildModel({ schemasDir: dir }).protocol;
    expect(facts.errors).toContainEqual({ name: "HEADER_MISMATCH", code: -32020, source: "reviewed" });
    expect(facts.errors.filter((e) => e.code === -32001).map((e) => e.name)).toEqual(["SESSION_NOT_FOUND"]);
    expect(facts.versions[0].errors.map((e) => e.code)).toContain(-32001);
  });

  it("every code the reviewed facts give an HTTP status is an error code of the merged view", () => {
    const codes = model.protocol.errors.map((e) => e.code);
    for (const h of model.protocol.reviewed.httpStatus) expect(codes).toContain(h.code);
  });
});

describe("schemas/protocol-facts.json is checked (InputError naming the file and the pointer)", () => {
  const withChange = (change: (data: Json) => void): string => {
    const data = JSON.parse(readFileSync(protocolFactsFile, "utf8")) as Json;
    change(data);
    const file = path.join(tempDir(), "protocol-facts.json");
    writeFileSync(file, JSON.stringify(data));
    return file;
  };
  const failure = (run: () => unknown): InputError => {
    try {
      run();
    } catch (e) {
      if (e instanceof InputError) return e;
      throw e;
    }
    throw new Error("expected an InputError");
  };

  it("an HTTP status entry without a section", () => {
    const file = withChange((d) => delete ((d.httpStatus as Json[])[0] as Json).section);
    const e = failure(() => readProtocolFacts(file));
    expect([e.file, e.pointer]).toEqual([file, "/httpStatus/0"]);
  });

  it("an HTTP status for a code nobody declares", () => {
    const file = withChange((d) => (d.httpStatus as Json[]).push({ code: -32999, status: 400, section: "nowhere" }));
    const e = failure(() => buildProtocolFacts(model, readProtocolFacts(file)));
    expect(e.pointer).toBe(`/httpStatus/${(JSON.parse(readFileSync(file, "utf8")).httpStatus as unknown[]).length - 1}/code`);
  });

  it("log levels that lack one of a schema's LoggingLevel values", () => {
    const file = withChange((d) => ((d.logLevels as Json).order = ["debug", "info"]));
    const e = failure(() => buildProtocolFacts(model, readProtocolFacts(file)));
    expect([e.file, e.pointer]).toEqual([file, "/logLevels/order"]);
  });

  it("a reviewed code named differently from a schema's name for it", () => {
    const file = withChange((d) => {
      const entry = (d.errors as Json[]).find((x) => x.code === -32601)!;
      entry.name = "NO_SUCH_METHOD";
    });
    const e = failure(() => buildProtocolFacts(model, readProtocolFacts(file)));
    expect(e.message).toMatch(/-32601 is NO_SUCH_METHOD .* but METHOD_NOT_FOUND/);
  });

  it("a first version without batches at or before a version whose schema defines them", () => {
    const batching = labels().find((label) => "JSONRPCBatchRequest" in definitionsOf(label))!;
    const file = withChange((d) => ((d.batches as Json).firstVersionWithout = batching));
    const e = failure(() => buildProtocolFacts(model, readProtocolFacts(file)));
    expect([e.file, e.pointer]).toEqual([file, "/batches/firstVersionWithout"]);
  });

  it("a reviewed code whose schema-given code differs under the same name", () => {
    const file = withChange((d) => {
      const entry = (d.errors as Json[]).find((x) => x.name === "METHOD_NOT_FOUND")!;
      entry.code = -32611;
    });
    const e = failure(() => buildProtocolFacts(model, readProtocolFacts(file)));
    expect(e.message).toMatch(/METHOD_NOT_FOUND is -32611 .* but -32601/);
  });

  it("the committed file reads", () => {
    expect(readdirSync(path.dirname(protocolFactsFile))).toContain("protocol-facts.json");
    expect(() => buildProtocolFacts(model, readProtocolFacts(protocolFactsFile))).not.toThrow();
  });
});
