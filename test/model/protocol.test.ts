// The protocol facts (generator/model/protocol.ts) against the pinned schemas read directly here (JSON,
// and schema.ts's text by a regular expression, independent of the model's TypeScript parse), and the
// reviewed prose facts' checks (schemas/protocol-facts.json: bad input names the file and the pointer).
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
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

  it("a version batches exactly when its schema.json defines JSONRPCBatchRequest; the first without after one with is printed", () => {
    const batches = labels().map((label) => "JSONRPCBatchRequest" in definitionsOf(label));
    expect(model.protocol.versions.slice(0, labels().length).map((v) => v.batches)).toEqual(batches);
    const i = batches.findIndex((b, k) => k > 0 && batches[k - 1] && !b);
    expect(model.protocol.firstVersionWithoutBatches).toBe(i < 0 ? null : labels()[i]);
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

  it("log levels that are not the schema's LoggingLevel values", () => {
    const file = withChange((d) => ((d.logLevels as Json).order = ["debug", "info"]));
    const e = failure(() => buildProtocolFacts(model, readProtocolFacts(file)));
    expect([e.file, e.pointer]).toEqual([file, "/logLevels/order"]);
  });

  it("a reviewed code named differently from a schema's name for it", () => {
    const file = withChange((d) => (d.errors as Json[]).push({ code: -32601, name: "NO_SUCH_METHOD", meaning: "m", section: "s" }));
    const e = failure(() => buildProtocolFacts(model, readProtocolFacts(file)));
    expect(e.message).toMatch(/-32601 is NO_SUCH_METHOD .* but METHOD_NOT_FOUND/);
  });

  it("the committed file reads", () => {
    expect(readdirSync(path.dirname(protocolFactsFile))).toContain("protocol-facts.json");
    expect(() => buildProtocolFacts(model, readProtocolFacts(protocolFactsFile))).not.toThrow();
  });
});
