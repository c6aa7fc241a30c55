// Loading both dialects into one form; $ref siblings; reviewed patches.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sha256 } from "../../generator/source/lock.js";
import { loadSpecBytes } from "../../generator/source/load.js";
import { stalePatchFiles } from "../../generator/source/patch.js";
import { jsonErrorOffset } from "../../generator/source/json-position.js";
import { buildModel } from "../../generator/pipeline.js";
import { minimalLegacySchema, tempDir } from "../support.js";

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

describe("loadSpecBytes", () => {
  it("reads draft-07 `definitions` into $defs form with #/$defs refs, dropping $ref siblings (ignored by draft-07)", () => {
    const schema = minimalLegacySchema();
    schema.definitions.Holder = { type: "object", properties: { r: { $ref: "#/definitions/Result", description: "why" } } };
    const spec = loadSpecBytes(bytes(schema), "x.json", "x");
    expect(spec.dialect).toBe("draft-07");
    expect(spec.container).toBe("definitions");
    expect(spec.defs.EmptyResult).toEqual({ $ref: "#/$defs/Result" });
    expect(spec.defs.Holder).toEqual({ type: "object", properties: { r: { $ref: "#/$defs/Result" } } });
  });

  it("keeps annotation siblings in 2020-12 and turns validating siblings into an allOf branch", () => {
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $defs: {
        A: { type: "string" },
        B: { $ref: "#/$defs/A", description: "annotated" },
        C: { $ref: "#/$defs/A", description: "constrained", maxLength: 3 },
      },
    };
    const spec = loadSpecBytes(bytes(schema), "x.json", "x");
    expect(spec.dialect).toBe("2020-12");
    expect(spec.defs.B).toEqual({ $ref: "#/$defs/A", description: "annotated" });
    expect(spec.defs.C).toEqual({ description: "constrained", allOf: [{ $ref: "#/$defs/A" }, { maxLength: 3 }] });
  });

  it("records the sha256 of the bytes as read and deep-freezes the definitions", () => {
    const b = bytes(minimalLegacySchema());
    const spec = loadSpecBytes(b, "x.json", "x");
    expect(spec.sha256).toBe(sha256(b));
    expect(Object.isFrozen(spec.defs.InitializeRequest.properties)).toBe(true);
  });

  it("reads properties named like keywords (default, const, $ref) as names, not keywords", () => {
    const schema = minimalLegacySchema();
    schema.definitions.Named = {
      type: "object",
      properties: { default: { $ref: "#/definitions/Result" }, const: { type: "string" }, $ref: { $ref: "#/definitions/Result" } },
    };
    const spec = loadSpecBytes(bytes(schema), "x.json", "x");
    expect(spec.defs.Named.properties).toEqual({ default: { $ref: "#/$defs/Result" }, const: { type: "string" }, $ref: { $ref: "#/$defs/Result" } });
    schema.definitions.Named = { type: "object", properties: { default: { $ref: "#/definitions/Missing" } } };
    expect(() => loadSpecBytes(bytes(schema), "x.json", "x")).toThrow('x.json#/definitions/Named/properties/default/$ref: dangling $ref "#/definitions/Missing"');
  });

  it("rejects a reference outside the definitions with the pointer of the $ref", () => {
    const schema = minimalLegacySchema();
    schema.definitions.Bad = { $ref: "other.json#/definitions/X" };
    expect(() => loadSpecBytes(bytes(schema), "x.json", "x")).toThrow('x.json#/definitions/Bad/$ref: expected a local reference to #/definitions/<Name>, got "other.json#/definitions/X"');
  });
});

describe("patches", () => {
  /** A patches folder with one file, named for `named` (sha256 hex), reviewed against `sha`. */
  function patchDir(sha: string, ops: unknown[], named = sha): string {
    const dir = tempDir();
    mkdirSync(path.join(dir, "patches"));
    writeFileSync(path.join(dir, "patches", `${named.slice(0, 12)}.json`), JSON.stringify({ sha256: sha, patches: [{ name: "fix-ping", why: "test", ops }] }));
    return path.join(dir, "patches");
  }

  it("applies a reviewed patch to the bytes it was reviewed against, whatever the label, and names it", () => {
    const b = bytes(minimalLegacySchema());
    const dir = patchDir(sha256(b), [
      { op: "test", path: "/definitions/PingRequest/properties/method/const", value: "ping" },
      { op: "add", path: "/definitions/PingRequest/description", value: "patched" },
    ]);
    for (const label of ["x", "y"]) {
      const spec = loadSpecBytes(b, "x.json", label, { patchesDir: dir });
      expect(spec.patches).toEqual(["fix-ping"]);
      expect(spec.defs.PingRequest.description).toBe("patched");
      expect(spec.sha256).toBe(sha256(b));
    }
  });

  it("applies no patch to other bytes", () => {
    const b = bytes(minimalLegacySchema());
    const dir = patchDir(sha256("other"), [{ op: "add", path: "/definitions/PingRequest/description", value: "patched" }]);
    const spec = loadSpecBytes(b, "x.json", "x", { patchesDir: dir });
    expect(spec.patches).toEqual([]);
    expect(spec.defs.PingRequest.description).toBeUndefined();
  });

  it("refuses a patch file named for these bytes but reviewed against others", () => {
    const b = bytes(minimalLegacySchema());
    const dir = patchDir(sha256("other"), [], sha256(b));
    expect(() => loadSpecBytes(b, "x.json", "x", { patchesDir: dir })).toThrow(
      `${path.join(dir, `${sha256(b).slice(0, 12)}.json`)}#/sha256: a patch file is named by the first 12 hex digits of the sha256 it was reviewed against: this one is for ${sha256("other")}, not ${sha256(b)}`,
    );
  });

  it("fails a patch whose test no longer holds, naming the patch file and operation", () => {
    const b = bytes(minimalLegacySchema());
    const dir = patchDir(sha256(b), [{ op: "test", path: "/definitions/PingRequest/properties/method/const", value: "pong" }]);
    expect(() => loadSpecBytes(b, "x.json", "x", { patchesDir: dir })).toThrow(`${path.join(dir, `${sha256(b).slice(0, 12)}.json`)}#/patches/0/ops/0: patch "fix-ping": test failed`);
  });

  it("names the patch files that apply to none of the given bytes", () => {
    const dir = patchDir(sha256("a"), []);
    writeFileSync(path.join(dir, "README.md"), "not a patch");
    expect(stalePatchFiles(dir, [sha256("a")])).toEqual([]);
    expect(stalePatchFiles(dir, [sha256("b")])).toEqual([path.join(dir, `${sha256("a").slice(0, 12)}.json`)]);
    expect(stalePatchFiles(path.join(dir, "absent"), [])).toEqual([]);
  });
});

describe("overrides", () => {
  it("an override naming a missing definition is reported at its place in the overrides file", () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, "x"));
    writeFileSync(path.join(dir, "x", "schema.json"), JSON.stringify(minimalLegacySchema()));
    const overrides = path.join(dir, "overrides.json");
    writeFileSync(overrides, JSON.stringify({ overrides: [{ versions: "*", method: "ping", results: ["EmptyResult", "PongResult"], why: "test" }] }));
    expect(() => buildModel({ schemasDir: dir, overridesFile: overrides })).toThrow(
      `${overrides}#/overrides/0/results/1: override for "ping" names "PongResult", which is not a definition of x`,
    );
  });
});

describe("jsonErrorOffset", () => {
  it("finds the first offending character", () => {
    expect(jsonErrorOffset('{"a": 1}')).toBe(-1);
    expect(jsonErrorOffset('{"a": ,}')).toBe(6);
    expect(jsonErrorOffset('[1, 2')).toBe(5);
    expect(jsonErrorOffset('{"a": 1} x')).toBe(9);
  });
});
