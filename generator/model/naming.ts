// The naming pass: every identifier the printers emit is decided here, once. Definition type names,
// their `XSchema` and `isX`, result normalizers and version modules: valid TypeScript identifiers,
// collision-free after sanitising (a deterministic `_2`, `_3` … on a clash, in sorted order of the
// original names) and stable across runs. Printers never invent a name; where a derived name differs
// from the spec's, they put the original in a doc comment, and catalogues and diffs show the original.
import { byCodeUnit } from "../order.js";
import type { IrDefinition } from "./ir.js";

/** Reserved words of TypeScript and JavaScript modules, and names with a meaning in every scope. */
const RESERVED_WORDS: ReadonlySet<string> = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for function if " +
    "import in instanceof new null return super switch this throw true try typeof var void while with implements interface let " +
    "package private protected public static yield await arguments eval as async from of type declare module namespace " +
    "undefined unknown never any object string number boolean symbol bigint infer keyof readonly unique is asserts satisfies accessor"
  ).split(" "),
);

/**
 * Names a version's modules export besides the per-definition ones (its index.ts re-exports types,
 * schemas, guards, methods, handlers, normalizers and dispatcher together, so all share one scope),
 * and names a module imports: a definition's names never take them.
 */
const VERSION_MODULE_NAMES: ReadonlySet<string> = new Set([
  // schemas.ts, guards.ts and their runtime imports
  "z", "T", "integer", "codePoints", "OP", "acceptAny", "issuePaths", "formatIssues",
  "requestParamsSchemas", "resultSchemas", "notificationParamsSchemas", "requestParamsGuards", "resultGuards", "notificationParamsGuards",
  // methods.ts, handlers.ts, normalizers.ts, dispatcher.ts, and what index.ts re-exports from the runtime
  "protocolVersion", "era", "requests", "notifications", "RequestMethod", "NotificationMethod", "RequestTypes", "NotificationTypes",
  "MaybePromise", "RequestContext", "NotificationContext", "HandlerResult", "ServerHandlers", "ClientHandlers", "resultNormalizers",
  "createServerDispatcher", "createClientDispatcher", "ErrorCode", "isPlainObject", "JsonRpcError", "Dispatcher", "DispatcherOptions",
  "JsonRpcErrorResponse", "JsonRpcResponse", "JsonRpcResultResponse", "MethodValidator",
]);

/** Names the tree's index.ts declares beside the version modules. */
const TREE_INDEX_NAMES: ReadonlySet<string> = new Set(["versions", "latestVersion", "modules", "isProtocolVersion", "forVersion", "VersionModule", "ProtocolVersion"]);

/** Identifier characters the names we derive may use (no `$`: printers keep `$` for their own helpers). */
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Whether `name` can be used verbatim as a definition's type name. */
function isPlainIdentifier(name: string): boolean {
  return IDENT.test(name) && !RESERVED_WORDS.has(name);
}

/**
 * A name made an identifier: kept when it is one; else its runs of letters and digits joined with
 * each run's first letter upper-cased (`Record<string,string>` → `RecordStringString`), `_` before
 * a leading digit or a reserved word.
 */
function sanitize(name: string): string {
  if (isPlainIdentifier(name)) return name;
  const words = name.split(/[^A-Za-z0-9_]+/).filter((w) => w.length > 0);
  let out = words.map((w, i) => (i === 0 ? w : w[0].toUpperCase() + w.slice(1))).join("");
  if (out === "") out = "Definition";
  if (/^[0-9]/.test(out) || RESERVED_WORDS.has(out)) out = `_${out}`;
  return out;
}

/** Give each key a unique identifier: `candidate(key)`, then `_2`, `_3` … when taken (keys in code-unit order). */
function unique(keys: string[], candidate: (key: string) => string, taken: ReadonlySet<string> = new Set()): Map<string, string> {
  const used = new Set(taken);
  const out = new Map<string, string>();
  // Keys whose candidate is the key itself go first: a spec name never loses its own name to a derived one.
  const sorted = [...keys].sort((a, b) => Number(candidate(b) === b) - Number(candidate(a) === a) || byCodeUnit(a, b));
  for (const key of sorted) {
    const base = candidate(key);
    let name = base;
    for (let n = 2; used.has(name); n++) name = `${base}_${n}`;
    used.add(name);
    out.set(key, name);
  }
  return out;
}

/**
 * Fill `names` of every definition of a version (type, `XSchema`, `isX`). The three share one scope
 * (the version's index.ts exports them all), so each avoids the others and the modules' own names.
 */
export function assignDefinitionNames(definitions: Iterable<IrDefinition>): void {
  const defs = [...definitions];
  const types = unique(defs.map((d) => d.name), sanitize, VERSION_MODULE_NAMES);
  const taken = new Set([...VERSION_MODULE_NAMES, ...types.values()]);
  const typeNames = [...types.values()];
  const schemas = unique(typeNames, (t) => `${t}Schema`, taken);
  for (const n of schemas.values()) taken.add(n);
  const guards = unique(typeNames, (t) => `is${t}`, taken);
  for (const d of defs) {
    const type = types.get(d.name)!;
    d.names = { type, schema: schemas.get(type)!, guard: guards.get(type)! };
  }
}

/**
 * The result normalizer of each request, by method: `normalize<Base>Result`, where `<Base>` is the
 * request's type name without `Request` (`SubscribeRequest` → `normalizeSubscribeResult`); never a
 * name a definition or a module already takes.
 */
export function normalizerNames(requests: ReadonlyArray<{ method: string; typeName: string }>, definitions: Iterable<IrDefinition>): Map<string, string> {
  const taken = new Set(VERSION_MODULE_NAMES);
  for (const d of definitions) for (const n of Object.values(d.names)) taken.add(n);
  const base = new Map(requests.map((r) => [r.method, r.typeName.endsWith("Request") ? r.typeName.slice(0, -"Request".length) : r.typeName]));
  return unique([...base.keys()], (method) => `normalize${base.get(method)}Result`, taken);
}

/**
 * The module identifier of each version label (`2025-11-25` → `v2025_11_25`, `draft` → `draft`,
 * `default` → `v_default`), unique across the labels of one tree.
 */
export function versionIdents(labels: readonly string[]): Map<string, string> {
  const candidate = (label: string) => {
    const safe = label.replace(/[^A-Za-z0-9_]/g, "_");
    if (/^[0-9]/.test(safe)) return `v${safe}`;
    return RESERVED_WORDS.has(safe) || TREE_INDEX_NAMES.has(safe) ? `v_${safe}` : safe;
  };
  return unique([...labels], candidate);
}

/** The name a derived definition gets: `preferred` when free, else `preferred2`, `preferred3` … */
export function freeName(preferred: string, taken: (name: string) => boolean): string {
  let name = preferred;
  for (let n = 2; taken(name); n++) name = `${preferred}${n}`;
  return name;
}

/**
 * A doc comment for a printed declaration whose name does not show the spec's definition: a derived
 * definition (where its schema is and why it got a name) or a sanitised name (the original). Else null.
 */
export function definitionDoc(d: IrDefinition): string | null {
  const note = definitionNote(d);
  // Spec strings may hold anything, a comment's end included.
  return note === null ? null : `/** ${note.replace(/\*\//g, "*\\/")} */`;
}

/** The text of `definitionDoc` without the comment around it (for a printer that adds it to a longer doc comment). */
export function definitionNote(d: IrDefinition): string | null {
  if (d.derived !== null) return `${d.derived.reason} (${d.derived.from.pointer}), named ${d.names.type}.`;
  if (d.names.type !== d.name) return `The definition ${JSON.stringify(d.name)} of the schema, named ${d.names.type} here.`;
  return null;
}
