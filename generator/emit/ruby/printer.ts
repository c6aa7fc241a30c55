// The Ruby target: per version a module of frozen data and plain functions (the method catalogue,
// one result normalizer per request, params validators over the version's params schemas), the
// combined Methods module and the method Gate over them, a shared runtime, the recipe that adopts
// the tree in the Ruby SDK, and a root file that requires them. Reads the language-neutral catalogue
// of the model (method, sender, params, results, resultShape, era) and the reviewed capability data;
// the rules themselves live in runtime.rb.
import { rubyProjectionsModule } from "./projections.js";
import { rubyProtocolModule } from "./protocol.js";
import { readFileSync } from "node:fs";
import path from "node:path";
import { InputError } from "../../errors.js";
import { extensionLabel } from "../../model/extensions.js";
import { translatePattern } from "../../model/pattern.js";
import type { ExtensionModel, Method, ProtocolModel, RequestMethod, VersionModel, VersionTable } from "../../model/types.js";
import { byCodeUnit } from "../../order.js";
import { extensionProvenanceLine, provenanceLines } from "../../print/provenance.js";
import { Templates } from "../../print/templates.js";
import { finish } from "../../print/text.js";
import { adoptingFiles } from "./adopting.js";
import { normalizerOf, tableOf, type RowNormalizer } from "../../print/table.js";
import { DEFAULT_RUBY_MODULE, rubyModuleOption } from "./options.js";
import { rubyMethodsSource, rubyTemplatesDir } from "./paths.js";
import { rubyRuntime } from "./runtime.js";
import { copyRuntime } from "../runtime-copy.js";
import { regenerateCommand, rubyHeader } from "./provenance.js";
import { inNamespace, moduleConstant, modulePath, rubyComment, rubyString, rubySymbol, fileName } from "./language.js";
import { checkVersionModules, methodConstants, normalizerNames, resultTypesConstant as namedResultTypes, treeMethodConstants, versionModuleConstants } from "./naming.js";

export interface RubyOptions {
  /** The namespace every generated module lives in (`McpCodegen`, `MCP::Protocol`). */
  module?: string;
  /** Folder of the template cache, or undefined for none. */
  cacheDir?: string;
}


/** A file's header for the versions it covers. */
type Header = (versions: VersionModel[]) => string;

/** `module A` / `module B` … around `body`, indented two spaces per level. */
const wrap = inNamespace;

/** The `resultType` lists every modern module defines, by constant (the first value is the default). */
const STANDARD_RESULT_TYPES: ReadonlyMap<string, readonly string[]> = new Map([
  ["RESULT_TYPES_COMPLETE", ["complete"]],
  ["RESULT_TYPES_INPUT_REQUIRED", ["complete", "input_required"]],
]);

/** The module constant holding these `resultType` values, or nil (naming.ts). */
function resultTypesConstant(types: readonly string[] | null): string {
  return namedResultTypes(types, STANDARD_RESULT_TYPES);
}

function rubyList(items: string[]): string {
  return `[${items.map(rubyString).join(", ")}].freeze`;
}

/** JSON data as a deeply frozen Ruby literal: String keys, nil for null; serialized with JSON it is the same JSON. */
function rubyData(value: unknown): string {
  if (value === null) return "nil";
  if (typeof value === "string") return rubyString(value);
  if (typeof value === "boolean" || typeof value === "number") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(rubyData).join(", ")}].freeze`;
  const entries = Object.entries(value as Record<string, unknown>);
  return entries.length === 0 ? "{}.freeze" : `{ ${entries.map(([k, v]) => `${rubyString(k)} => ${rubyData(v)}`).join(", ")} }.freeze`;
}

/** A method table as a frozen Ruby Hash, one method a line. */
function rubyTable(table: VersionTable): string {
  const rows = Object.entries(table);
  if (rows.length === 0) return "METHOD_TABLE = {}.freeze";
  return ["METHOD_TABLE = {", ...rows.map(([m, row]) => `  ${rubyString(m)} => ${rubyData(row)},`), "}.freeze"].join("\n");
}

/** A capability requirement (key paths) as Ruby: `[[:resources], [:resources, :subscribe]].freeze`. */
function rubyCapabilities(paths: string[][]): string {
  return paths.length === 0 ? "NO_CAPABILITIES" : `[${paths.map((p) => `[${p.map(rubySymbol).join(", ")}].freeze`).join(", ")}].freeze`;
}

/** The capabilities each method the module has requires, as key paths: its method table's `capabilities` column. */
function tableCapabilities(table: VersionTable): Map<string, string[][]> {
  return new Map(Object.entries(table).filter(([, row]) => row.status === "present").map(([method, row]) => [method, row.capabilities.map((p) => [...p])]));
}

function requestEntry(r: RequestMethod, row: RowNormalizer, constant: string, normalizer: string, capabilities: string[][]): string {
  const types = row.resultTypes;
  return [
    `${constant} => {`,
    `  sender: ${rubySymbol(r.sender)},`,
    `  params_required: ${r.params?.required ?? false},`,
    `  capabilities: ${rubyCapabilities(capabilities)},`,
    `  results: ${rubyList(r.results)},`,
    `  result_shape: ${rubySymbol(r.resultShape)},`,
    `  result_types: ${resultTypesConstant(types)},`,
    `  normalizer: ${rubySymbol(normalizer)},`,
    `}.freeze,`,
  ].join("\n");
}

function normalizerDef(r: RequestMethod, row: RowNormalizer, constant: string, normalizer: string): string {
  const expected = r.results.join(" | ");
  // The row says how: its normalizer's shape and `resultType` values, the default first.
  const types = row.resultTypes;
  const lines: string[] = [];
  if (row.shape === "empty") {
    lines.push(
      `# The \`${r.method}\` result (${expected}, empty shape): \`{ _meta: meta }\` when the handler returned a`,
      `# Hash whose \`_meta\` (symbol key, else string key) is a Hash, else \`{}\`${types === null ? "" : `; with \`resultType: ${JSON.stringify(types[0])}\``}.`,
      "# @param value [Object] the handler's return",
      "# @return [Hash]",
      `def ${normalizer}(value)`,
      `  Runtime.empty_result(value, ${resultTypesConstant(types)})`,
      "end",
    );
  } else {
    lines.push(
      `# The \`${r.method}\` result (${expected}): the handler's Hash without nil values and a non-Hash \`_meta\`${types === null ? "" : `,\n# \`resultType\` defaulted to ${JSON.stringify(types[0])}`}.`,
      "# @param value [Object] the handler's return",
      "# @return [Hash]",
      "# @raise [Runtime::ResultError] (-32603) for anything but a Hash" + (types === null ? "" : ", or a `resultType` the method does not allow"),
      `def ${normalizer}(value)`,
      `  Runtime.object_result(value, ${constant}, ${rubyString(expected)}, ${resultTypesConstant(types)})`,
      "end",
    );
  }
  return lines.join("\n");
}

function methodsOf(version: VersionModel): Method[] {
  return [...version.requests, ...version.notifications];
}

/** The params document's file beside a version's module: `v2025_11_25.params.json`. */
function paramsFile(label: string): string {
  return `${fileName(moduleConstant(label))}.params.json`;
}

/**
 * One version's module: catalogue, normalizers, params validators. With `extension`, the module of that
 * extension layered onto the version (`version` is then the merged model, generator/model/extensions.ts):
 * the same catalogue over the core's methods and the extension's, and constants naming the extension.
 */
function versionBody(
  version: VersionModel,
  previous: VersionModel | null,
  namespace: string,
  capabilities: ReadonlyMap<string, string[][]>,
  reserved: ReadonlySet<string> = versionModuleConstants(),
  extension?: ExtensionModel,
  table: VersionTable = {},
): string {
  const constants = methodConstants(version, reserved);
  const normalizers = normalizerNames(version);
  const requests = [...version.requests].sort((a, b) => byCodeUnit(a.method, b.method));
  const notifications = [...version.notifications].sort((a, b) => byCodeUnit(a.method, b.method));
  // Results carry `resultType` where the table's rows say so (the modern era's).
  const carried = requests.some((r) => normalizerOf(table, r.method).resultTypes !== null);
  const label = extension === undefined ? version.label : extensionLabel(extension);
  const width = Math.max(...[...constants.values()].map((c) => c.length));
  const parts: string[] = [];
  parts.push(
    [
      `PROTOCOL_VERSION = ${rubyString(version.label)}`,
      "# :legacy (the initialize handshake) or :modern (the per-request `_meta` envelope).",
      `ERA = ${rubySymbol(version.era)}`,
      "# The version before this one among those generated, or nil.",
      `PREVIOUS_VERSION = ${previous === null ? "nil" : rubyString(previous.label)}`,
      "# A method that requires no capability.",
      "NO_CAPABILITIES = [].freeze",
    ].join("\n"),
  );
  if (extension !== undefined) {
    parts.push(
      [
        "# The extension layered onto PROTOCOL_VERSION: its identifier (negotiated under `capabilities.extensions`)",
        "# and version.",
        `EXTENSION = ${rubyString(extension.identifier)}`,
        `EXTENSION_VERSION = ${rubyString(extension.label)}`,
        "# The methods the extension adds; the rest of REQUESTS and NOTIFICATIONS are the core version's (with",
        "# the results the extension allows them).",
        `EXTENSION_REQUESTS = ${rubyList([...extension.requests])}`,
        `EXTENSION_NOTIFICATIONS = ${rubyList([...extension.notifications])}`,
      ].join("\n"),
    );
  }
  if (carried) {
    const standard = [...STANDARD_RESULT_TYPES].map(([c, list]) => `${c} = [${list.map(rubyString).join(", ")}].freeze`);
    const more = new Map<string, readonly string[]>();
    for (const r of requests) {
      const types = normalizerOf(table, r.method).resultTypes;
      const c = resultTypesConstant(types);
      if (types !== null && !STANDARD_RESULT_TYPES.has(c)) more.set(c, types);
    }
    const extra = [...more].sort((a, b) => byCodeUnit(a[0], b[0])).map(([c, list]) => `${c} = ${rubyList([...list])}`);
    parts.push(["# `resultType` values an `object` result may carry; the first is the default.", ...standard, ...extra].join("\n"));
  }
  parts.push(["# Method names.", ...[...constants].map(([m, c]) => `${c.padEnd(width)} = ${rubyString(m)}`)].join("\n"));
  parts.push(
    [
      "# Requests by method: who sends them (:client, :server or :both), whether `params` is required, the",
      "# capabilities the receiver must declare (key paths, reviewed in schemas/method-capabilities.json), the",
      "# result definitions (more than one: a union), the result shape (:empty or :object), the `resultType`",
      "# values allowed (nil in the legacy era) and the normalizer.",
      "REQUESTS = {",
      ...requests.map((r) => requestEntry(r, normalizerOf(table, r.method), constants.get(r.method)!, normalizers.get(r.method)!, capabilities.get(r.method)!).replace(/^/gm, "  ")),
      "}.freeze",
    ].join("\n"),
  );
  parts.push(
    [
      "# Notifications by method: who sends them, whether `params` is required and the capabilities the",
      "# sender must declare.",
      "NOTIFICATIONS = {",
      ...notifications.map(
        (n) =>
          `  ${constants.get(n.method)!} => { sender: ${rubySymbol(n.sender)}, params_required: ${n.params?.required ?? false}, capabilities: ${rubyCapabilities(capabilities.get(n.method)!)} }.freeze,`,
      ),
      "}.freeze",
    ].join("\n"),
  );
  parts.push(
    [
      "# The method table at this version (the model's; `mcp-codegen table --help` says what each column",
      "# means): every method any generated version or extension names, by method, with its status here",
      "# (present, removed, later, extension), sides, the gate's verdict at each side, params, results,",
      "# normalizer (shape and `resultType` values), required capabilities and `Mcp-Name` param. As JSON,",
      "# this version's entry of `mcp-codegen table --format json`.",
      rubyTable(table),
    ].join("\n"),
  );
  parts.push("module_function");
  for (const r of requests) parts.push(normalizerDef(r, normalizerOf(table, r.method), constants.get(r.method)!, normalizers.get(r.method)!));
  parts.push(
    [
      "# The normalized result of `method`'s request for a handler's return `value`: every request of",
      "# REQUESTS has one.",
      "# @param method [String]",
      "# @param value [Object] the handler's return",
      "# @return [Hash]",
      "# @raise [Runtime::UnknownMethodError] for a method that is not a request of this version",
      "# @raise [Runtime::ResultError] (-32603) for a return that cannot be the method's result",
      "def normalize_result(method, value)",
      "  Runtime.normalize(self, method, value)",
      "end",
    ].join("\n"),
  );
  parts.push(
    [
      "# The errors of `params` against `method`'s params schema (this version's JSON Schema), run with",
      "# json_schemer 2 when it can be loaded.",
      "# @param method [String] a request or notification of this version",
      "# @param params [Hash, nil] symbol or string keys; nil is an absent `params`",
      "# @return [Array<Hash>, nil] `{ pointer:, message: }` per error (empty when valid); nil without json_schemer 2",
      "# @raise [Runtime::UnknownMethodError] for a method this version does not have",
      "def params_errors(method, params)",
      "  Runtime.params_errors(self, method, params)",
      "end",
    ].join("\n"),
  );
  parts.push(
    [
      `# ${paramsFile(label)} (read once): the params schema of every method and the definitions they use.`,
      "# @return [Hash]",
      "def params_document",
      `  @params_document ||= Runtime.read_params_document(File.expand_path(${rubyString(paramsFile(label))}, __dir__))`,
      "end",
    ].join("\n"),
  );
  const doc = rubyComment(
    extension === undefined
      ? `Protocol version ${version.label} (${version.era} era): the method catalogue, one result normalizer\nper request and the params validators. Rules in ${namespace}::Runtime.`
      : `Protocol version ${version.label} (${version.era} era) with the extension ${extension.identifier} ${extension.label}\nlayered onto it: the method catalogue, one result normalizer per request and the params validators.\nRules in ${namespace}::Runtime.`,
  );
  return `${doc}\nmodule ${moduleConstant(label)}\n${parts.join("\n\n").replace(/^(?=.)/gm, "  ")}\nend`;
}

/** Every `$defs` name a schema node reaches (through `#/$defs/Name` references), transitively. */
function reachable(version: VersionModel, roots: unknown[]): string[] {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...node);
    else if (typeof node === "object" && node !== null) {
      for (const [key, value] of Object.entries(node)) {
        if (key === "$ref" && typeof value === "string") {
          const m = /^#\/\$defs\/(.+)$/.exec(value);
          const name = m === null ? null : decodeURIComponent(m[1]);
          if (name !== null && !seen.has(name) && Object.hasOwn(version.definitions, name)) {
            seen.add(name);
            stack.push(version.definitions[name]);
          }
        } else stack.push(value);
      }
    }
  }
  return [...seen].sort(byCodeUnit);
}

/**
 * Every ECMA-262 pattern of the schemas (`pattern` values, `patternProperties` keys) with its Ruby
 * Regexp source (model/pattern.ts: the same meaning), sorted: the runtime gives json_schemer these.
 */
function rubyPatterns(roots: unknown[]): Array<[string, string]> {
  const found = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...node);
    else if (typeof node === "object" && node !== null) {
      for (const [key, value] of Object.entries(node)) {
        if (key === "pattern" && typeof value === "string") found.add(value);
        else if (key === "patternProperties" && typeof value === "object" && value !== null) for (const p of Object.keys(value)) found.add(p);
        stack.push(value);
      }
    }
  }
  return [...found].sort(byCodeUnit).map((p) => [p, translatePattern(p, "ruby")]);
}

const DIALECT_URI = { "draft-07": "http://json-schema.org/draft-07/schema#", "2020-12": "https://json-schema.org/draft/2020-12/schema" } as const;

/** `<version>.params.json`: per method its params schema (`{}` when it has none), and the definitions they reach. */
function paramsDocument(version: VersionModel, regenerate: string, extension?: ExtensionModel): string {
  const methods = methodsOf(version).sort((a, b) => byCodeUnit(a.method, b.method));
  const schemas = Object.fromEntries(methods.map((m) => [m.method, m.params?.schema ?? {}]));
  const defs = Object.fromEntries(reachable(version, Object.values(schemas)).map((n) => [n, version.definitions[n]]));
  // The provenance header as the first member, on the first line (JSON has no comments).
  const lines = provenanceLines([version], regenerate);
  // An extension module's names the extension after the protocol version's line, as its .rb header does.
  if (extension !== undefined) lines.splice(lines.findIndex((l) => l.startsWith("Protocol version ")) + 1, 0, extensionProvenanceLine(extension));
  const comment = lines.join(" ");
  const patterns = rubyPatterns([schemas, defs]);
  const text = JSON.stringify({ $comment: comment, $schema: DIALECT_URI[version.dialect], methods: schemas, $defs: defs, ...(patterns.length === 0 ? {} : { patterns: Object.fromEntries(patterns) }) }, null, 2);
  return text.replace(/^\{\n {2}/, "{ ") + "\n";
}

/** The recipe's files behind the provenance header: an HTML comment in Markdown, text before the patch's first diff. */
function recipeFiles(versions: VersionModel[], regenerate: string): Map<string, string> {
  const lines = provenanceLines(versions, regenerate);
  const out = new Map<string, string>();
  for (const [file, text] of adoptingFiles()) {
    const head = file.endsWith(".md") ? `<!-- ${lines.join("\n")}\nA copy of generator/emit/ruby/adopting/${file}. -->\n\n` : `${lines.join("\n")}\nA copy of generator/emit/ruby/adopting/${file}.\n\n`;
    out.set(file, head + text);
  }
  return out;
}

/** methods.rb: every method's constant once, and the SDK-style helpers over the per-version catalogues. */
function methodsFile(versions: VersionModel[], extensions: readonly ExtensionModel[], namespace: string, head: Header): string {
  const sorted = [...treeMethodConstants([...versions, ...extensions.map((x) => x.model)])];
  const width = Math.max(...sorted.map(([, c]) => c.length));
  const body = [
    rubyComment(
      `Every method of every generated protocol version${extensions.length === 0 ? "" : " and extension module"}, once, named as the Ruby SDK's MCP::Methods names them,\nand the SDK's helpers (\`notification?\`, \`ensure_capability!\`) over the per-version catalogues\n(${versions.map((v) => moduleConstant(v.label)).join(", ")}). The capability each method requires is reviewed data\n(schemas/method-capabilities.json), checked against each version's capability definitions.`,
    ),
    "module Methods",
    ...sorted.map(([m, c]) => `  ${c.padEnd(width)} = ${rubyString(m)}`),
    "",
    ...methodsHelpers(),
    "end",
  ].join("\n");
  return finish(`${head(versions)}\nrequire_relative "runtime"\n\n${wrap(namespace.split("::"), body)}`);
}
/**
 * The body of the Methods helpers (runtimes/ruby/methods.rb): the lines inside its `module Methods` and
 * its closing `end`. Not a runtime copy: the printer prints the module's method constants (the spec's)
 * first, then these helpers, in methods.rb of the tree.
 */
function methodsHelpers(): string[] {
  const lines = readFileSync(rubyMethodsSource, "utf8").replace(/\n$/, "").split("\n");
  const start = lines.findIndex((l) => l === "module Methods");
  if (start < 0 || lines[lines.length - 1] !== "end") throw new Error(`${rubyMethodsSource}: expected a module opening and its closing end`);
  return lines.slice(start + 1, -1);
}

/** The Ruby tree: paths relative to its own folder. */
export function emitRubyTree(model: ProtocolModel, options: RubyOptions = {}): Map<string, string> {
  const name = options.module ?? DEFAULT_RUBY_MODULE;
  const problem = rubyModuleOption.validate!(name);
  if (problem !== null) throw new InputError(`--${rubyModuleOption.flag} ${problem}`);
  const namespace = name.split("::");
  const root = modulePath(name);
  const versions = [...model.versions].sort((a, b) => byCodeUnit(a.label, b.label));
  const extensions = [...(model.extensions ?? [])].sort((a, b) => byCodeUnit(extensionLabel(a), extensionLabel(b)));
  checkVersionModules([...versions.map((v) => v.label), ...extensions.map(extensionLabel)]);
  const tables = model.tables;
  const regenerate = regenerateCommand(versions, name, root);
  const templates = new Templates({ dir: rubyTemplatesDir, cacheDir: options.cacheDir });
  const head: Header = (vs) => rubyHeader(templates, vs, regenerate);
  const files = new Map<string, string>();
  for (const [file, text] of copyRuntime(rubyRuntime, { [rubyModuleOption.flag]: name })) files.set(file, text);
  files.set(`${root}/protocol.rb`, rubyProtocolModule(model, namespace, root));
  files.set(`${root}/projections.rb`, rubyProjectionsModule(model, namespace, root));
  files.set(`${root}/methods.rb`, methodsFile(versions, extensions, name, head));
  versions.forEach((v, i) => {
    const body = versionBody(v, i === 0 ? null : versions[i - 1], name, tableCapabilities(tableOf(tables, v.label)), versionModuleConstants(), undefined, tableOf(tables, v.label));
    files.set(`${root}/${fileName(moduleConstant(v.label))}.rb`, finish(`${head([v])}\nrequire_relative "runtime"\n\n${wrap(namespace, body)}`));
    files.set(`${root}/${paramsFile(v.label)}`, paramsDocument(v, regenerate));
  });
  for (const ext of extensions) {
    const label = extensionLabel(ext);
    const i = versions.findIndex((v) => v.label === ext.core);
    const body = versionBody(ext.model, i <= 0 ? null : versions[i - 1], name, tableCapabilities(tableOf(tables, label)), versionModuleConstants(), ext, tableOf(tables, label));
    const header = head([ext.model]).replace(/^(# Protocol version [^\n]*\n)/m, `$1# ${extensionProvenanceLine(ext)}\n`);
    files.set(`${root}/${fileName(moduleConstant(label))}.rb`, finish(`${header}\nrequire_relative "runtime"\n\n${wrap(namespace, body)}`));
    files.set(`${root}/${paramsFile(label)}`, paramsDocument(ext.model, regenerate, ext));
  }
  const base = path.posix.basename(root);
  const requires = ["runtime", ...[...versions.map((v) => v.label), ...extensions.map(extensionLabel)].map((l) => fileName(moduleConstant(l))), "methods", "gate", "projection"].map((f) => `require_relative ${rubyString(`${base}/${f}`)}`);
  const table = [
    "# Every generated protocol version: label → module, in label order.",
    "VERSIONS = {",
    ...versions.map((v) => `  ${rubyString(v.label)} => ${moduleConstant(v.label)},`),
    "}.freeze",
    "",
    "# Every generated extension module (an extension version layered onto a protocol version, its",
    "# PROTOCOL_VERSION): `<version>+<extension>` → module, in label order.",
    "EXTENSIONS = {",
    ...extensions.map((x) => `  ${rubyString(extensionLabel(x))} => ${moduleConstant(extensionLabel(x))},`),
    "}.freeze",
  ].join("\n");
  files.set(`${root}.rb`, finish(`${head(versions)}\n${requires.join("\n")}\n\n${wrap(namespace, table)}`));
  for (const [file, text] of recipeFiles(versions, regenerate)) files.set(file, text);
  return new Map([...files].sort((a, b) => byCodeUnit(a[0], b[0])));
}
