// The run's caches (generator/run.ts): the schema.ts facts and the errata, content-addressed in the
// cache folder. A hit answers what is stored; other bytes or an unreadable entry are a miss.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findErrata, type Erratum } from "../generator/model/errata.js";
import { parseSpecSource, readSpecTypeFacts } from "../generator/model/spec-typescript.js";
import { Run } from "../generator/run.js";
import { readSchemaDocument } from "../generator/source/load.js";
import { root, tempDir } from "./support.js";

const fixture = path.join(root, "test", "fixtures", "errata");
const tsFile = path.join(fixture, "schema.ts");

describe("the schema.ts facts cache", () => {
  it("a second read of the same bytes is the cached entry, other bytes are parsed", () => {
    const source = readFileSync(tsFile);
    const facts = readSpecTypeFacts(tsFile, source.toString("utf8"));
    const run = new Run(tempDir());
    const first = run.specTypes(run.schemaTs({ file: tsFile, bytes: source }));
    expect(first.definitions).toEqual(facts.definitions);
    const entries = readdirSync(path.join(run.cacheDir!, "spec-typescript"));
    expect(entries).toHaveLength(1);
    // Tamper with the entry: a hit returns it as stored (a new run reads the same folder).
    const entry = path.join(run.cacheDir!, "spec-typescript", entries[0]);
    const stored = JSON.parse(readFileSync(entry, "utf8")) as { definitions: Record<string, { objects: Record<string, string> }> };
    expect(stored.definitions.ClosedKind.objects[""]).toBe("closed");
    stored.definitions.ClosedKind.objects[""] = "open";
    writeFileSync(entry, JSON.stringify(stored));
    const again = new Run(run.cacheDir);
    expect(again.specTypes(again.schemaTs({ file: tsFile, bytes: source })).definitions.ClosedKind.objects[""]).toBe("open");
    const other = Buffer.from(source.toString("utf8") + "\nexport interface Added { z: string }\n");
    expect(again.specTypes(again.schemaTs({ file: tsFile, bytes: other })).definitions.ClosedKind.objects[""]).toBe("closed");
    writeFileSync(entry, "{");
    expect(again.specTypes(again.schemaTs({ file: tsFile, bytes: source })).definitions).toEqual(facts.definitions);
  });
});

describe("the errata cache", () => {
  it("answers from an entry for the same bytes, patches and comparison code, and a changed input or an unreadable entry is a miss", () => {
    const bytes = readFileSync(path.join(fixture, "schema.json"));
    const docs = { bytes, published: () => readSchemaDocument(bytes, "schema.json").root, patched: () => null, patches: [] };
    const tsBytes = readFileSync(tsFile);
    const fresh = findErrata(docs.published(), parseSpecSource(tsFile, tsBytes.toString("utf8")));
    expect(fresh.length).toBe(13);
    expect(new Run().errata(new Run().schemaTs({ file: tsFile, bytes: tsBytes }), docs)).toEqual({ published: fresh, patched: fresh });
    const run = new Run(tempDir());
    const errata = () => run.errata(run.schemaTs({ file: tsFile, bytes: tsBytes }), docs);
    expect(errata()).toEqual({ published: fresh, patched: fresh });
    const entries = readdirSync(path.join(run.cacheDir!, "errata"));
    expect(entries).toHaveLength(1);
    // A stored entry is what is answered: edit it, and the edit comes back.
    const entry = path.join(run.cacheDir!, "errata", entries[0]);
    const stored = JSON.parse(readFileSync(entry, "utf8")) as { published: Erratum[]; patched: Erratum[] };
    writeFileSync(entry, JSON.stringify({ ...stored, published: stored.published.slice(1) }));
    expect(errata().published).toEqual(fresh.slice(1));
    writeFileSync(entry, "{");
    expect(errata()).toEqual({ published: fresh, patched: fresh });
    // Other schema.ts bytes: another entry.
    run.errata(run.schemaTs({ file: tsFile, bytes: Buffer.from(tsBytes.toString("utf8") + "\n") }), docs);
    expect(readdirSync(path.join(run.cacheDir!, "errata"))).toHaveLength(2);
  });
});
