// A whole-tree fingerprint, so `generate --check` on an unchanged tree only hashes files.
//
// After a generation (or a check that found the tree up to date), the hash of every output file is
// recorded in the cache under a key that covers every input of the generation: the schemas' bytes,
// patches, overrides, the lock, the generator's own code, each generated target's other sources (its
// templates: `Target.sources`; its runtime's files: `Target.runtime`), the versions of the packages that shape the output, and the options. A later check with the same key
// compares the files on disk with the recorded hashes; with any input changed the key differs, the
// lookup misses, and the check generates in full. A cold or unwritable cache is never an error.
import { existsSync, readFileSync, statSync } from "node:fs";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { listFiles, sha256, siblingTemp } from "./files.js";
import type { Target } from "./emit/target.js";
import { generatorSourceDir, toolVersion } from "./paths.js";
import { reportTemplatesDir } from "./reports/paths.js";
import type { SpecLock } from "./source/lock.js";

export interface FingerprintInputs {
  schemasDir: string;
  /** Labels generated. */
  labels: string[];
  /** Version folders carried over from the tree as they were (`--versions` without `--out`). */
  kept: string[];
  lock?: SpecLock;
  /**
   * Labels whose pinned files were just verified on disk against the lock (`schemas sync`): their
   * digests are the lock's hashes, not a second read of the same bytes.
   */
  synced?: ReadonlySet<string>;
  patchesDir?: string;
  overridesFile?: string;
  errataReviewedFile?: string;
  cacheDir: string;
  /** Emit options that shape the output (targets, their options). */
  emit?: unknown;
  /** The targets generated: the files and folders their `sources` name, and their runtime's files, are hashed. */
  targets?: ReadonlyArray<Pick<Target, "name" | "sources" | "runtime">>;
}

interface Manifest {
  versions: number;
  /** Relative path → sha256 of every file the generation produced. */
  files: Record<string, string>;
}

/** `rel\0sha256` of every file under `dir` (recursively), sorted; empty when absent. */
function folderDigest(dir: string | undefined, accept: (name: string) => boolean = () => true): string {
  if (dir === undefined || !existsSync(dir)) return "";
  const files = listFiles(dir).filter((rel) => accept(path.posix.basename(rel)));
  return sha256(files.map((rel) => `${rel}\0${sha256(readFileSync(path.join(dir, rel)))}`).join("\n"));
}

function fileDigest(file: string | undefined): string {
  return file !== undefined && existsSync(file) && statSync(file).isFile() ? sha256(readFileSync(file)) : "";
}

function generatorDigest(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const stamp = path.join(here, ".source-sha256");
  if (existsSync(stamp)) return `built from ${readFileSync(stamp, "utf8").trim()}`;
  return folderDigest(here, (n) => /\.(ts|js|mjs)$/.test(n));
}

/** A file's or a folder's digest, by path (absolute, or relative to generator/'s source folder). */
function sourceDigest(source: string): string {
  const at = path.resolve(generatorSourceDir, source);
  return existsSync(at) && statSync(at).isDirectory() ? folderDigest(at) : fileDigest(at);
}

/** What does not depend on the project: the running generator and the versions of the packages that shape the output. */
function toolDigest(): string {
  const require = createRequire(import.meta.url);
  const version = (pkg: string) => {
    const main = require.resolve(pkg);
    let dir = path.dirname(main);
    while (!existsSync(path.join(dir, "package.json")) || JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")).name !== pkg) dir = path.dirname(dir);
    return JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")).version as string;
  };
  return sha256(
    JSON.stringify({
      tool: toolVersion,
      // The generator's own code as it runs: generator/**/*.ts from source; built, the hash of the sources
      // dist/ was built from (its stamp, which the bin checks against the sources before running).
      generator: generatorDigest(),
      // ts-morph bundles the TypeScript that reads each schema.ts.
      packages: ["ts-morph", "handlebars"].map((p) => [p, version(p)]),
    }),
  );
}

/** The digests of a version's schema.json and schema.ts (the same values whether read or taken from the lock). */
function schemaDigests(inputs: FingerprintInputs, label: string): [string, string] {
  const dir = path.join(inputs.schemasDir, label);
  const locked = inputs.synced?.has(label) ? inputs.lock?.versions[label] : undefined;
  return [locked?.sha256 ?? fileDigest(path.join(dir, "schema.json")), locked?.schemaTs?.sha256 ?? fileDigest(path.join(dir, "schema.ts"))];
}

function key(inputs: FingerprintInputs): string {
  return sha256(
    JSON.stringify({
      tool: toolDigest(),
      schemas: inputs.labels.map((l) => [l, ...schemaDigests(inputs, l)]),
      kept: inputs.kept,
      lock: inputs.lock ?? null,
      patches: folderDigest(inputs.patchesDir),
      // The extensions' synced schemas (schemas/extensions/<name>/<version>/): the merged modules read them.
      extensions: folderDigest(path.join(inputs.schemasDir, "extensions")),
      overrides: fileDigest(inputs.overridesFile),
      errataReviewed: fileDigest(inputs.errataReviewedFile),
      emit: inputs.emit ?? null,
      // The reports stage's templates (MATRIX.md, DIFFS/).
      reports: folderDigest(reportTemplatesDir),
      // What each target prints from besides the generator's TypeScript (templates, the runtime's files).
      targets: (inputs.targets ?? []).map((t) => [
        t.name,
        t.sources.map((s) => [s, sourceDigest(s)]),
        (t.runtime?.files() ?? []).map((f) => [f, fileDigest(path.join(t.runtime!.dir, f))]),
      ]),
    }),
  );
}

const manifestFile = (inputs: FingerprintInputs, outDir: string) =>
  path.join(inputs.cacheDir, "tree", `${sha256(key(inputs) + "\0" + path.resolve(outDir))}.json`);

/**
 * With unchanged inputs and a recorded generation, whether `outDir` holds exactly the recorded
 * files (review reports and kept folders aside). Null: unknown, generate to find out.
 */
export async function checkFingerprint(outDir: string, inputs: FingerprintInputs, ignore: (rel: string) => boolean): Promise<{ files: number; versions: number } | null> {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await readFile(manifestFile(inputs, outDir), "utf8")) as Manifest;
  } catch {
    return null;
  }
  if (!existsSync(outDir) || !statSync(outDir).isDirectory()) return null;
  const present = listFiles(outDir).filter((rel) => Object.hasOwn(manifest.files, rel) || !ignore(rel));
  const expected = Object.keys(manifest.files);
  if (present.length !== expected.length) return null;
  for (const rel of present) {
    if (!Object.hasOwn(manifest.files, rel)) return null;
    if (sha256(await readFile(path.join(outDir, rel))) !== manifest.files[rel]) return null;
  }
  return { files: expected.length, versions: manifest.versions };
}

/** Record the hashes of a generation's files under the key of its inputs (best effort). */
export async function recordFingerprint(outDir: string, inputs: FingerprintInputs, files: Map<string, string>, versions: number): Promise<void> {
  const manifest: Manifest = { versions, files: Object.fromEntries([...files].map(([rel, text]) => [rel, sha256(text)])) };
  const file = manifestFile(inputs, outDir);
  try {
    await mkdir(path.dirname(file), { recursive: true });
    const tmp = siblingTemp(file);
    await writeFile(tmp, JSON.stringify(manifest));
    await rename(tmp, file);
  } catch {
    // A cache that cannot be written is no error.
  }
}
