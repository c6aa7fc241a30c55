// types.ts: one export per definition, named as the definition, via json-schema-to-typescript.
// Every `$ref` becomes a `tsType` naming its definition before compiling, so the compiler never
// dereferences: no inlined copies, no `Annotations1` duplicates, aliases stay aliases
// (`export type EmptyResult = Result`).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { refName } from "../spec/load.js";
import { sha256 } from "../spec/lock.js";
import type { JsonSchema, VersionModel } from "../model/types.js";
import { byCodeUnit } from "../order.js";

const ROOT = "McpCodegenRoot";
/** Keywords whose values are data, not schemas. */
const DATA = new Set(["const", "enum", "default", "examples", "required"]);
/** Keywords that never constrain a value. */
const ANNOTATIONS = new Set(["description", "title", "$comment", "format", "default", "examples", "deprecated", "readOnly", "writeOnly"]);

/** Rewrite a loaded schema node into what json-schema-to-typescript should see. */
function prepare(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(prepare);
  if (typeof node !== "object" || node === null) return node;
  const src = node as JsonSchema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(src)) {
    if (key === "$ref") continue;
    // A nested `title` would make the compiler invent a named type; keep only definition names.
    if (key === "title") continue;
    if (DATA.has(key)) out[key] = value;
    else if (key === "properties" || key === "patternProperties" || key === "$defs" || key === "definitions") {
      out[key] = Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, prepare(v)]));
    } else out[key] = prepare(value);
  }
  if (typeof src.$ref === "string") out.tsType = refName(src.$ref);
  // `{}` accepts every JSON value; the compiler would make it an object type.
  else if (Object.keys(src).every((k) => ANNOTATIONS.has(k))) out.tsType = "unknown";
  // Like the spec's own TypeScript: an index signature only where additionalProperties is given,
  // or where an object declares no properties at all (MetaObject).
  const isObject = src.type === "object" || (src.type === undefined && src.properties !== undefined);
  if (isObject && src.properties === undefined && src.additionalProperties === undefined && src.patternProperties === undefined) {
    out.additionalProperties = true;
  }
  return out;
}

const COMPILE_OPTIONS = {
  additionalProperties: false,
  unreachableDefinitions: true,
  bannerComment: "",
  // Formatting is ours (indent below): prettier would be three quarters of the compile time.
  format: false,
  declareExternallyReferenced: true,
  strictIndexSignatures: false,
} as const;

export interface TypeEmitOptions {
  /**
   * Folder for a content-addressed cache of the compiler's output, keyed by the compiler's version,
   * its options and the exact schema it is given. Absent: no cache.
   */
  cacheDir?: string;
}

let compilerVersion: string | undefined;
function getCompilerVersion(): string {
  if (compilerVersion === undefined) {
    const main = createRequire(import.meta.url).resolve("json-schema-to-typescript");
    const pkg = path.join(main.slice(0, main.lastIndexOf(`${path.sep}dist${path.sep}`)), "package.json");
    compilerVersion = JSON.parse(readFileSync(pkg, "utf8")).version as string;
  }
  return compilerVersion;
}

async function compileSchema(root: JsonSchema): Promise<string> {
  // Loaded on demand: with a warm cache, `generate --check` never pays for the compiler (and prettier).
  const { compile } = await import("json-schema-to-typescript");
  return compile(root as never, ROOT, COMPILE_OPTIONS);
}

let ownSource: string | undefined;
/** This module's own code: the post-processing below is part of what a cache entry depends on. */
function ownSourceHash(): string {
  ownSource ??= sha256(readFileSync(fileURLToPath(import.meta.url)));
  return ownSource;
}

/**
 * The finished declarations for `root`, from the cache when an entry exists for the same compiler
 * version, options, input and post-processing code; otherwise compiled, finished and stored.
 */
async function declarationsCached(root: JsonSchema, cacheDir: string | undefined, finishDeclarations: (source: string) => string): Promise<string> {
  if (cacheDir === undefined) return finishDeclarations(await compileSchema(root));
  const key = sha256(JSON.stringify({ compiler: getCompilerVersion(), options: COMPILE_OPTIONS, emitter: ownSourceHash(), root }));
  const file = path.join(cacheDir, "json-schema-to-typescript", `${key}.ts`);
  try {
    return readFileSync(file, "utf8");
  } catch {
    // A miss: compile, then store best-effort (a cache that cannot be written is no error).
  }
  const declarations = finishDeclarations(await compileSchema(root));
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, declarations);
    renameSync(tmp, file);
  } catch {
    // ignore
  }
  return declarations;
}

/** The declarations of types.ts, sorted by name, without header. */
export async function emitTypeDeclarations(version: VersionModel, options: TypeEmitOptions = {}): Promise<string> {
  const defs: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(version.definitions)) {
    defs[name] = { ...(prepare(def) as JsonSchema), title: name };
  }
  const root = { title: ROOT, type: "object", properties: {}, additionalProperties: false, $defs: defs };
  return declarationsCached(root, options.cacheDir, (source) => {
    const declarations = splitDeclarations(indent(source)).filter((d) => d.name !== ROOT);
    const names = declarations.map((d) => d.name).sort();
    const expected = Object.keys(version.definitions).sort();
    if (names.join("\n") !== expected.join("\n")) {
      const extra = names.filter((n) => !expected.includes(n));
      const missing = expected.filter((n) => !names.includes(n));
      throw new Error(`types.ts for ${version.label}: expected one export per definition; extra: [${extra.join(", ")}], missing: [${missing.join(", ")}]`);
    }
    return declarations
      .sort((a, b) => byCodeUnit(a.name, b.name))
      .map((d) => d.text)
      .join("\n\n");
  });
}

const isComment = (line: string) => /^\s*(\/\*\*|\*|\*\/)/.test(line);

/** Indent the compiler's flat output by bracket depth (comments and string literals ignored). */
function indent(source: string): string {
  let depth = 0;
  const out: string[] = [];
  for (const raw of source.split("\n")) {
    const line = raw.trim();
    if (line === "") continue;
    if (isComment(raw)) {
      out.push("  ".repeat(depth) + (line.startsWith("*") ? " " + line : line));
      continue;
    }
    const code = line.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""');
    const opens = (code.match(/[{([]/g) ?? []).length;
    const closes = (code.match(/[})\]]/g) ?? []).length;
    const leadingCloses = /^[})\]]+/.exec(code)?.[0].length ?? 0;
    out.push("  ".repeat(Math.max(0, depth - leadingCloses)) + line);
    depth += opens - closes;
  }
  return out.join("\n");
}

/** Split indented output into top-level declarations, each with its JSDoc, minus compiler boilerplate. */
function splitDeclarations(source: string): Array<{ name: string; text: string }> {
  const result: Array<{ name: string; text: string }> = [];
  let pending: string[] = [];
  let current: { name: string; lines: string[] } | null = null;
  const flush = () => {
    if (current) result.push({ name: current.name, text: current.lines.join("\n") });
    current = null;
  };
  for (const line of source.split("\n")) {
    const top = /^export (?:interface|type|declare const enum|const enum|enum) (\w+)/.exec(line);
    if (top) {
      flush();
      current = { name: top[1], lines: [...cleanDoc(pending), line] };
      pending = [];
    } else if (/^(\/\*\*| \*)/.test(line) && !/^\s/.test(line.replace(/^ \*/, "x"))) {
      // A JSDoc block at column 0 starts the next declaration's comment.
      if (line.startsWith("/**")) flush();
      if (current === null || line.startsWith("/**") || pending.length > 0) pending.push(line);
      else current.lines.push(line);
    } else if (current) {
      current.lines.push(line);
    }
  }
  flush();
  return result;
}

/** Drop the compiler's "This interface was referenced by …" lines from a JSDoc block. */
function cleanDoc(lines: string[]): string[] {
  if (lines.length === 0) return lines;
  const body = lines.slice(1, -1).filter((l) => !/^ \* (This interface was referenced by|via the `definition`)/.test(l));
  while (body.length > 0 && body[body.length - 1].trim() === "*") body.pop();
  return body.length === 0 ? [] : ["/**", ...body, " */"];
}
