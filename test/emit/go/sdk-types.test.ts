// The official Go SDK's public types (its own structs in ../shared/go-sdk/…/mcp, kept as they are) against the
// generated Go types (issue 38, item 4), definition by definition, on the corpus of types.test.ts at each dated
// version the SDK names (its protocolVersionYYYYMMDD constants) that the lock pins. An SDK type pairs with the
// spec's definition of the same name. Each instance is judged by jsonschema-go against the version's schema and
// decoded and encoded again by both types, in one run of the proof harness (main.go); the SDK module is required
// through a replace to the shared copy (read only; nothing is written there). A difference is:
//   - refuses: the schema accepts the instance and the SDK's type does not decode it;
//   - panics: the SDK's type panics decoding or encoding the instance (whatever the schema says);
//   - changes: the schema accepts it and the SDK's type encodes it as another JSON value;
//   - accepts: the schema refuses it, the generated type refuses it too, and the SDK's type decodes it.
// The outcome, with the unpaired names on each side, is held exactly to the reviewed list
// sdk-types-differences.json, so a change on either side shows up. To review a new outcome, rerun with
// UPDATE_SDK_TYPES=1 (it rewrites the list) and read the diff.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { pointerToken } from "../../../generator/errors.js";
import { definitionTypeNames } from "../../../generator/emit/go/printer.js";
import { versionPackage } from "../../../generator/emit/go/language.js";
import { defaultPatchesDir, defaultSchemasDir, toolRoot } from "../../../generator/paths.js";
import { buildModel } from "../../../generator/pipeline.js";
import { loadSpec } from "../../../generator/source/load.js";
import { readLock } from "../../../generator/source/lock.js";
import { ensureSchemas, lockFile, modelOptions, tempDir } from "../../support.js";
import { type Json, oracleDocument, sameJson } from "../typescript/corpus.js";
import { type Module, moduleCorpus } from "./corpus.js";
import { go, type Verdict, writeGoTree, writeHarness } from "./support.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const SDK_NAME = "go-sdk-1.7.0-27-g3d6450f";
const sdkDir = path.resolve(process.env.GO_SDK_DIR || path.join(toolRoot, "..", "shared", "go-sdk", SDK_NAME));
const SDK_MODULE = "github.com/modelcontextprotocol/go-sdk";
const listFile = path.join(here, "sdk-types-differences.json");
const SDK = "go-sdk ";

type Kind = "refuses" | "panics" | "changes" | "accepts";
const KINDS: readonly Kind[] = ["refuses", "panics", "changes", "accepts"];

/** One kind of difference on one definition: how many instances at each version, and the shortest (with what the SDK made of it). */
interface Difference {
  counts: Record<string, number>;
  shortest: { label: string; instance: Json; sdk: string; schema?: string };
}

interface Outcome {
  sdk: string;
  versions: string[];
  /** Definitions paired with an SDK type: the versions compared, and each kind of difference found. */
  paired: Record<string, { versions: string[] } & Partial<Record<Kind, Difference>>>;
  /** Definitions no SDK type is named after, with the versions that have them. */
  unpairedDefinitions: Record<string, string[]>;
  /** SDK types of the wire (structs with json tags, string and map types) named after no definition of any compared version. */
  unpairedSdkTypes: string[];
  /** SDK types named after a definition that are interfaces: no value decodes into them. */
  interfaces: string[];
}

/** The SDK's exported type declarations in its mcp package (test files aside): name → kind. */
function sdkTypes(): Map<string, string> {
  const dir = path.join(sdkDir, "mcp");
  const out = new Map<string, string>();
  for (const f of readdirSync(dir).filter((f) => f.endsWith(".go") && !f.endsWith("_test.go")).sort()) {
    const text = readFileSync(path.join(dir, f), "utf8");
    for (const m of text.matchAll(/^type ([A-Z]\w*) (struct\b|string\b|map\[|interface\b|func\b)/gm)) {
      const kind = m[2].replace("[", "");
      // A struct of the wire has json tags; the SDK's other structs (Client, transports, options) are no protocol types.
      const body = kind === "struct" ? text.slice(m.index, text.indexOf("\n}", m.index)) : "";
      out.set(m[1], kind === "struct" && !body.includes('json:"') ? "struct (no json tags)" : kind);
    }
  }
  return out;
}

/** The protocol versions the SDK names (its protocolVersionYYYYMMDD constants), among those the lock pins. */
function sdkVersions(labels: string[]): string[] {
  const shared = readFileSync(path.join(sdkDir, "mcp", "shared.go"), "utf8");
  const named = [...shared.matchAll(/\bprotocolVersion\d{8}\s*=\s*"([^"]+)"/g)].map((m) => m[1]);
  return named.filter((v) => labels.includes(v)).sort();
}

await ensureSchemas();
const lock = await readLock(lockFile);
const model = buildModel({ ...modelOptions, lock });
const types = existsSync(sdkDir) ? sdkTypes() : new Map<string, string>();
const labels = existsSync(sdkDir) ? sdkVersions(Object.keys(lock.versions)) : [];
/** A type a value decodes into: a struct (the SDK's content types keep their tags on private wire structs), a string or map type. */
const decodable = (name: string) => /^(struct|string|map)/.test(types.get(name) ?? "");

const modules: Module[] = [];
const allDefinitions = new Map<string, string[]>();
for (const label of labels) {
  const spec = loadSpec(path.join(defaultSchemasDir, label, "schema.json"), label, { patchesDir: defaultPatchesDir });
  const version = model.versions.find((v) => v.label === label)!;
  const definitions = Object.keys(spec.defs).sort();
  allDefinitions.set(label, definitions);
  modules.push(moduleCorpus(label, version, oracleDocument(defaultSchemasDir, defaultPatchesDir, label), spec.defs as Record<string, never>, definitions.filter(decodable)));
}

let verdicts: Verdict[] = [];

beforeAll(() => {
  expect(existsSync(sdkDir), sdkDir).toBe(true);
  expect(labels.length, "dated versions the SDK names that the lock pins").toBeGreaterThan(0);
  const dir = tempDir("mcp-codegen-go-sdk-types-");
  writeGoTree(model, path.join(dir, "tree"));
  const harness = writeHarness(dir, modules);
  // The SDK's module beside the tree: its go directive is the harness's floor, its types registered as "go-sdk <label>".
  const sdkGo = readFileSync(path.join(sdkDir, "go.mod"), "utf8").match(/^go (\S+)$/m)![1];
  const mod = readFileSync(path.join(harness, "go.mod"), "utf8").replace(/^go \S+$/m, `go ${sdkGo}`);
  writeFileSync(path.join(harness, "go.mod"), `${mod}\nrequire ${SDK_MODULE} v0.0.0\n\nreplace ${SDK_MODULE} => ${sdkDir}\n`);
  const inits = modules.map((m) => [`\tregistry[${JSON.stringify(SDK + m.label)}] = map[string]Codec{`, ...m.definitions.map((d) => `\t\t${JSON.stringify(d)}: RoundTrip[mcp.${d}],`), "\t}"].join("\n"));
  writeFileSync(path.join(harness, "sdk_registry.go"), `package main\n\nimport "${SDK_MODULE}/mcp"\n\nfunc init() {\n${inits.join("\n")}\n}\n`);
  const cases = modules.flatMap((m) => {
    const file = path.join(dir, `${m.label}.schema.json`);
    writeFileSync(file, JSON.stringify(m.document));
    const container = Object.hasOwn(m.document, "$defs") ? "$defs" : "definitions";
    return m.definitions.flatMap((definition) =>
      [m.label, SDK + m.label].map((label) => ({ label, schema: file, definition, pointer: `#/${container}/${pointerToken(definition)}`, instances: m.instances.get(definition)! })),
    );
  });
  writeFileSync(path.join(dir, "cases.json"), JSON.stringify(cases));
  const build = go(["build", "-o", path.join(dir, "compare"), "."], harness);
  expect(build.status, build.stderr).toBe(0);
  const run = spawnSync(path.join(dir, "compare"), ["proof", path.join(dir, "cases.json")], { encoding: "utf8", maxBuffer: 1 << 30 });
  expect(run.status, run.stderr).toBe(0);
  verdicts = run.stdout.trim().split("\n").map((line) => JSON.parse(line) as Verdict);
}, 900_000);

/** The outcome of the run, in the reviewed list's shape. */
function outcome(): Outcome {
  const byKey = new Map(verdicts.map((v) => [`${v.label}\u0000${v.definition}\u0000${v.index}`, v]));
  const paired: Outcome["paired"] = {};
  for (const m of modules) {
    for (const d of m.definitions) {
      const entry = (paired[d] ??= { versions: [] });
      entry.versions.push(m.label);
      const note = (kind: Kind, instance: Json, sdk: string, schema?: string) => {
        const shortest = { label: m.label, instance, sdk, ...(schema === undefined ? {} : { schema }) };
        const f = (entry[kind] ??= { counts: {}, shortest });
        f.counts[m.label] = (f.counts[m.label] ?? 0) + 1;
        if (JSON.stringify(instance).length < JSON.stringify(f.shortest.instance).length) f.shortest = shortest;
      };
      m.instances.get(d)!.forEach((instance, i) => {
        const gen = byKey.get(`${m.label}\u0000${d}\u0000${i}`)!;
        const sdk = byKey.get(`${SDK}${m.label}\u0000${d}\u0000${i}`)!;
        expect(sdk.schema, `${m.label} ${d} #${i}: the same instance judged twice`).toBe(gen.schema);
        if (!sdk.decoded && sdk.decodeError!.startsWith("panic: ")) note("panics", instance, sdk.decodeError!, sdk.schemaError);
        else if (gen.schema) {
          if (!sdk.decoded) note("refuses", instance, `refused: ${sdk.decodeError}`);
          else if (!sameJson(JSON.parse(sdk.encoded!), instance)) note("changes", instance, `encoded as ${sdk.encoded}`);
        } else if (!gen.decoded && sdk.decoded) note("accepts", instance, `encoded as ${sdk.encoded}`, sdk.schemaError);
      });
    }
  }
  const unpairedDefinitions: Outcome["unpairedDefinitions"] = {};
  for (const [label, defs] of allDefinitions) for (const d of defs.filter((x) => !types.has(x))) (unpairedDefinitions[d] ??= []).push(label);
  const named = new Set([...allDefinitions.values()].flat());
  const sorted = <T>(o: Record<string, T>) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));
  return {
    sdk: SDK_NAME,
    versions: labels,
    paired: sorted(paired),
    unpairedDefinitions: sorted(unpairedDefinitions),
    unpairedSdkTypes: [...types].filter(([n, k]) => ["struct", "string", "map"].includes(k) && !named.has(n)).map(([n]) => n).sort(),
    interfaces: [...types].filter(([n, k]) => k === "interface" && named.has(n)).map(([n]) => n).sort(),
  };
}

describe(`the Go SDK's public types (${SDK_NAME}) against the generated Go types`, () => {
  it("judge every instance of every paired definition with both types", () => {
    const expected = modules.reduce((n, m) => n + [...m.instances.values()].reduce((k, xs) => k + xs.length, 0), 0);
    expect(verdicts.filter((v) => v.label.startsWith(SDK)).length).toBe(expected);
    expect(verdicts.filter((v) => !v.label.startsWith(SDK)).length).toBe(expected);
  });

  it("differ exactly as the reviewed list says (sdk-types-differences.json)", () => {
    const actual = outcome();
    if (process.env.UPDATE_SDK_TYPES === "1") writeFileSync(listFile, `${JSON.stringify(actual, null, 2)}\n`);
    for (const label of actual.versions) {
      const here = Object.values(actual.paired).filter((p) => p.versions.includes(label));
      const kinds = KINDS.map((k) => `${k} ${here.filter((p) => p[k]?.counts[label]).length}`);
      const unpaired = Object.values(actual.unpairedDefinitions).filter((ls) => ls.includes(label)).length;
      console.log(`${label}: ${here.length} definitions paired, ${here.filter((p) => KINDS.some((k) => p[k]?.counts[label])).length} differ (${kinds.join(", ")}); ${unpaired} unpaired`);
    }
    expect(actual).toEqual(JSON.parse(readFileSync(listFile, "utf8")));
  });

  it("are summed up in docs/go.md as the reviewed list says", () => {
    const list = JSON.parse(readFileSync(listFile, "utf8")) as Outcome;
    const rows = list.versions.map((label) => {
      const here = Object.values(list.paired).filter((p) => p.versions.includes(label));
      const cell = (k: Kind) => {
        const defs = here.filter((p) => p[k]?.counts[label]);
        return defs.length === 0 ? "0" : `${defs.length} (${defs.reduce((n, p) => n + p[k]!.counts[label], 0)})`;
      };
      const unpaired = Object.values(list.unpairedDefinitions).filter((ls) => ls.includes(label)).length;
      return `| ${label} | ${here.length} | ${unpaired} | ${KINDS.map(cell).join(" | ")} |`;
    });
    const docs = readFileSync(path.join(toolRoot, "docs", "go.md"), "utf8");
    const table = docs.split("\n").filter((line) => list.versions.some((l) => line.startsWith(`| ${l} |`)));
    expect(table).toEqual(rows);
  });
});
