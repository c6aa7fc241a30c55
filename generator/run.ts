// One run of the pipeline, and the caches that belong to it (no module of generator/ keeps state of its
// own: test/layers/module-state.test.ts). The model's readers of schema.ts (model/spec-typescript.ts,
// model/errata.ts) are pure functions of the bytes the pipeline loaded; the run parses each schema.ts
// once for both, and keeps their results in the content-addressed cache folder when it has one (a warm
// cache needs no parse, and no TypeScript).
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cachedText, sha256 } from "./files.js";
import { compareVersion, type Erratum } from "./model/errata.js";
import { parseSpecSource, specTypeFacts, type SpecSource, type SpecTypeFacts } from "./model/spec-typescript.js";
import type { NamedPatch } from "./source/patch.js";

/** A version's schema.ts as the pipeline loaded it. */
export interface SchemaTsInput {
  file: string;
  bytes: Uint8Array;
}

/** What the errata comparison of one version is given: schema.json as published and as patched. */
export interface ErrataDocuments {
  /** The schema.json's bytes (their digest keys the cache). */
  bytes: Uint8Array;
  published: () => Record<string, unknown>;
  patched: () => Record<string, unknown> | null;
  patches: readonly NamedPatch[];
}

/** The parse of one schema.ts, made on first use and shared by its facts and its errata. */
class ParsedSchemaTs {
  #parsed: SpecSource | undefined;
  readonly sha256: string;
  constructor(readonly input: SchemaTsInput) {
    this.sha256 = sha256(input.bytes);
  }
  get parsed(): SpecSource {
    this.#parsed ??= parseSpecSource(this.input.file, Buffer.from(this.input.bytes).toString("utf8"));
    return this.#parsed;
  }
}

export class Run {
  /** The digest of each reader's own code, by reader: a cache entry depends on the code that made it. */
  readonly #readers = new Map<string, string>();

  /** `cacheDir`: the content-addressed cache folder (facts, errata), or undefined for none. */
  constructor(readonly cacheDir?: string) {}

  /** A schema.ts loaded by the pipeline, to read facts and errata from (parsed at most once). */
  schemaTs(input: SchemaTsInput): ParsedSchemaTs {
    return new ParsedSchemaTs(input);
  }

  /** The object facts of a schema.ts (model/spec-typescript.ts), from the cache when it holds them. */
  specTypes(ts: ParsedSchemaTs): SpecTypeFacts {
    if (this.cacheDir === undefined) return specTypeFacts(ts.parsed);
    const key = sha256(JSON.stringify({ reader: this.#reader(["spec-typescript"]), sha256: ts.sha256 }));
    let facts: SpecTypeFacts | undefined;
    const stored = cachedText(path.join(this.cacheDir, "spec-typescript", `${key}.json`), () => {
      facts = specTypeFacts(ts.parsed);
      return JSON.stringify({ sha256: facts.sha256, definitions: facts.definitions, constants: facts.constants });
    });
    if (facts !== undefined) return facts;
    try {
      return { ...(JSON.parse(stored) as Omit<SpecTypeFacts, "file">), file: ts.input.file };
    } catch {
      return specTypeFacts(ts.parsed); // an unreadable entry is a miss
    }
  }

  /** The errata of a version (model/errata.ts), from the cache when an entry exists for the same bytes, patches and code. */
  errata(ts: ParsedSchemaTs, docs: ErrataDocuments): { published: Erratum[]; patched: Erratum[] } {
    const make = () => compareVersion({ published: docs.published(), patched: docs.patched(), patches: docs.patches, schemaTs: ts.parsed });
    if (this.cacheDir === undefined) return make();
    const key = sha256(JSON.stringify({ reader: this.#reader(["errata", "spec-typescript"]), schema: sha256(docs.bytes), patches: docs.patches, schemaTs: ts.sha256 }));
    let made: ReturnType<typeof make> | undefined;
    const stored = cachedText(path.join(this.cacheDir, "errata", `${key}.json`), () => JSON.stringify((made = make())));
    if (made !== undefined) return made;
    try {
      return JSON.parse(stored) as ReturnType<typeof make>;
    } catch {
      return make(); // an unreadable entry is a miss
    }
  }

  /** The digest of the named model modules' code (source or built, whichever runs). */
  #reader(modules: readonly string[]): string {
    const name = modules.join(",");
    let digest = this.#readers.get(name);
    if (digest === undefined) {
      const self = fileURLToPath(import.meta.url);
      const file = (m: string) => path.join(path.dirname(self), "model", `${m}${path.extname(self)}`);
      digest = sha256(modules.map((m) => sha256(readFileSync(file(m)))).join(""));
      this.#readers.set(name, digest);
    }
    return digest;
  }
}
