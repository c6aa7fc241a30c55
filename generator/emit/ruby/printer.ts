// The Ruby target: per version a module of frozen data and plain functions (the method catalogue,
// one result normalizer per request, the method gate), a shared runtime, and a root file that
// requires them. Reads only the language-neutral catalogue of the model (method, sender,
// params.required, results, resultShape, era); the rules themselves live in runtime.rb.
import { readFileSync } from "node:fs";
import path from "node:path";
import { InputError } from "../../errors.js";
import type { ProtocolModel, RequestMethod, VersionModel } from "../../model/types.js";
import { byCodeUnit } from "../../order.js";
import { Templates } from "../templates.js";
import { finish } from "../text.js";
import { removedMethods } from "../../model/rules.js";
import { DEFAULT_RUBY_MODULE, rubyModuleOption } from "./options.js";
import { rubyRuntimeSource, rubyTemplatesDir } from "./paths.js";
import { moduleConstant, modulePath, rubyComment, rubyString, rubySymbol, fileName } from "./language.js";
import { assignedConstants, checkVersionModules, methodConstants, normalizerNames } from "./naming.js";

export interface RubyOptions {
  /** The namespace every generated module lives in (`McpCodegen`, `MCP::Protocol`). */
  module?: string;
  /** Folder of the template cache, or undefined for none. */
  cacheDir?: string;
}


/**
 * The constants a version module takes itself (what it assigns, printed for a version without
 * methods) and the modules the runtime declares: a method constant may not take them.
 */
let ownConstants: ReadonlySet<string> | undefined;
export function versionModuleConstants(): ReadonlySet<string> {
  if (ownConstants === undefined) {
    const empty = (era: VersionModel["era"]) => ({ label: "x", era, requests: [], notifications: [] }) as unknown as VersionModel;
    const printed = [versionBody(empty("legacy"), null, "X", new Set()), versionBody(empty("modern"), null, "X", new Set())].join("\n");
    ownConstants = new Set([...assignedConstants(printed), ...assignedConstants(readFileSync(rubyRuntimeSource, "utf8"))]);
  }
  return ownConstants;
}

/** The provenance header (emit/provenance.ts, the one wording) as Ruby comments, then the magic comment. */
function header(templates: Templates, versions: VersionModel[]): string {
  return templates.get("header.rb.hbs")({ versions });
}

/** `module A` / `module B` … around `body`, indented two spaces per level. */
function wrap(namespace: string[], body: string): string {
  const indent = (depth: number) => "  ".repeat(depth);
  const open = namespace.map((n, i) => `${indent(i)}module ${n}`).join("\n");
  const close = namespace.map((_, i) => `${indent(namespace.length - 1 - i)}end`).join("\n");
  const inner = body
    .split("\n")
    .map((line) => (line === "" ? "" : indent(namespace.length) + line))
    .join("\n");
  return `${open}\n${inner}\n${close}\n`;
}

/** The module constant holding these `resultType` values (see versionBody), or nil. */
function resultTypesConstant(types: readonly string[] | null): string {
  return types === null ? "nil" : types.length === 1 ? "RESULT_TYPES_COMPLETE" : "RESULT_TYPES_INPUT_REQUIRED";
}

function rubyList(items: string[]): string {
  return `[${items.map(rubyString).join(", ")}].freeze`;
}

function requestEntry(version: VersionModel, r: RequestMethod, constant: string, normalizer: string): string {
  const types = r.resultTypes;
  return [
    `${constant} => {`,
    `  sender: ${rubySymbol(r.sender)},`,
    `  params_required: ${r.params?.required ?? false},`,
    `  results: ${rubyList(r.results)},`,
    `  result_shape: ${rubySymbol(r.resultShape)},`,
    `  result_types: ${resultTypesConstant(types)},`,
    `  normalizer: ${rubySymbol(normalizer)},`,
    `}.freeze,`,
  ].join("\n");
}

function normalizerDef(version: VersionModel, r: RequestMethod, constant: string, normalizer: string): string {
  const expected = r.results.join(" | ");
  const types = r.resultTypes;
  const lines: string[] = [];
  if (r.resultShape === "empty") {
    lines.push(
      `# \`${r.method}\` (${expected}, empty): \`{ _meta: meta }\` when the handler returned a Hash whose \`_meta\``,
      `# (symbol key, else string key) is a Hash, else \`{}\`${types === null ? "" : `; with \`resultType: "complete"\``}.`,
      `def ${normalizer}(value)`,
      `  Runtime.${types === null ? "empty_result" : "empty_modern_result"}(value)`,
      "end",
    );
  } else {
    lines.push(
      `# \`${r.method}\` (${expected}): the handler's Hash without nil values and a non-Hash \`_meta\`${types === null ? "" : `, \`resultType\` defaulted to "complete"`}.`,
      "# Raises Runtime::ResultError (-32603) for anything but a Hash.",
      `def ${normalizer}(value)`,
      `  Runtime.object_result(value, ${constant}, ${rubyString(expected)}, ${resultTypesConstant(types)})`,
      "end",
    );
  }
  return lines.join("\n");
}

/** One version's module: catalogue, normalizers, gate. */
function versionBody(version: VersionModel, previous: VersionModel | null, namespace: string, reserved: ReadonlySet<string> = versionModuleConstants()): string {
  const constants = methodConstants(version, reserved);
  const normalizers = normalizerNames(version);
  const requests = [...version.requests].sort((a, b) => byCodeUnit(a.method, b.method));
  const notifications = [...version.notifications].sort((a, b) => byCodeUnit(a.method, b.method));
  const removed = previous === null ? [] : removedMethods(previous, version);
  const modern = version.era === "modern";
  const width = Math.max(...[...constants.values()].map((c) => c.length));
  const parts: string[] = [];
  parts.push(
    [
      `PROTOCOL_VERSION = ${rubyString(version.label)}`,
      `ERA = ${rubySymbol(version.era)}`,
      "# The version before this one among those generated (REMOVED_METHODS is relative to it), or nil.",
      `PREVIOUS_VERSION = ${previous === null ? "nil" : rubyString(previous.label)}`,
    ].join("\n"),
  );
  if (modern) {
    parts.push(
      [
        "# `resultType` values an `object` result may carry; the first is the default.",
        'RESULT_TYPES_COMPLETE = ["complete"].freeze',
        'RESULT_TYPES_INPUT_REQUIRED = ["complete", "input_required"].freeze',
      ].join("\n"),
    );
  }
  parts.push(
    ["# Method names.", ...[...constants].map(([m, c]) => `${c.padEnd(width)} = ${rubyString(m)}`)].join("\n"),
  );
  parts.push(
    [
      "# Requests by method: who sends them (:client, :server or :both), whether `params` is required, the",
      "# result definitions (more than one: a union), the result shape (:empty or :object), the `resultType`",
      "# values allowed (nil in the legacy era) and the normalizer.",
      "REQUESTS = {",
      ...requests.map((r) => requestEntry(version, r, constants.get(r.method)!, normalizers.get(r.method)!).replace(/^/gm, "  ")),
      "}.freeze",
    ].join("\n"),
  );
  parts.push(
    [
      "# Notifications by method: who sends them and whether `params` is required.",
      "NOTIFICATIONS = {",
      ...notifications.map((n) => `  ${constants.get(n.method)!} => { sender: ${rubySymbol(n.sender)}, params_required: ${n.params?.required ?? false} }.freeze,`),
      "}.freeze",
    ].join("\n"),
  );
  parts.push(
    [
      "# Methods (requests and notifications) of PREVIOUS_VERSION that this version does not have.",
      removed.length === 0 ? "REMOVED_METHODS = [].freeze" : ["REMOVED_METHODS = [", ...removed.map((m) => `  ${rubyString(m)},`), "].freeze"].join("\n"),
    ].join("\n"),
  );
  parts.push("module_function");
  for (const r of requests) parts.push(normalizerDef(version, r, constants.get(r.method)!, normalizers.get(r.method)!));
  parts.push(
    [
      "# The normalized result of `method`'s request for a handler's return `value`.",
      "# Raises KeyError for a method that is not a request of this version.",
      "def normalize_result(method, value)",
      "  public_send(REQUESTS.fetch(method)[:normalizer], value)",
      "end",
    ].join("\n"),
  );
  parts.push(
    [
      "# The method gate: the JSON-RPC error (-32601) to answer a request for `method` with when this",
      "# version has no such request, else nil.",
      "def method_error(method)",
      "  REQUESTS.key?(method) ? nil : Runtime.method_not_found(method, PROTOCOL_VERSION)",
      "end",
    ].join("\n"),
  );
  const doc = rubyComment(
    `Protocol version ${version.label} (${version.era} era): the method catalogue, one result normalizer\nper request and the method gate. Rules in ${namespace}::Runtime.`,
  );
  return `${doc}\nmodule ${moduleConstant(version.label)}\n${parts.join("\n\n").replace(/^(?=.)/gm, "  ")}\nend`;
}

/** runtime.rb: the hand-written source inside the namespace. */
function runtimeFile(templates: Templates, versions: VersionModel[], namespace: string[]): string {
  const source = readFileSync(rubyRuntimeSource, "utf8");
  const lines = source.split("\n");
  const requires = lines.filter((l) => /^require /.test(l));
  const body = lines.filter((l) => l !== "# frozen_string_literal: true" && !/^require /.test(l)).join("\n").trim();
  return finish(`${header(templates, versions)}# A copy of generator/emit/ruby/runtime.rb inside ${namespace.join("::")}.\n\n${requires.join("\n")}\n\n${wrap(namespace, body)}`);
}

/** The Ruby tree: paths relative to its own folder. */
export function emitRubyTree(model: ProtocolModel, options: RubyOptions = {}): Map<string, string> {
  const name = options.module ?? DEFAULT_RUBY_MODULE;
  const problem = rubyModuleOption.validate!(name);
  if (problem !== null) throw new InputError(`--${rubyModuleOption.flag} ${problem}`);
  const namespace = name.split("::");
  const root = modulePath(name);
  const versions = [...model.versions].sort((a, b) => byCodeUnit(a.label, b.label));
  checkVersionModules(versions.map((v) => v.label));
  const templates = new Templates({ dir: rubyTemplatesDir, cacheDir: options.cacheDir });
  const files = new Map<string, string>();
  files.set(`${root}/runtime.rb`, runtimeFile(templates, versions, namespace));
  versions.forEach((v, i) => {
    const body = versionBody(v, i === 0 ? null : versions[i - 1], name);
    files.set(`${root}/${fileName(moduleConstant(v.label))}.rb`, finish(`${header(templates, [v])}\nrequire_relative "runtime"\n\n${wrap(namespace, body)}`));
  });
  const base = path.posix.basename(root);
  const requires = ["runtime", ...versions.map((v) => fileName(moduleConstant(v.label)))].map((f) => `require_relative ${rubyString(`${base}/${f}`)}`);
  const table = [
    "# Every generated protocol version: label → module, in label order.",
    "VERSIONS = {",
    ...versions.map((v) => `  ${rubyString(v.label)} => ${moduleConstant(v.label)},`),
    "}.freeze",
  ].join("\n");
  files.set(`${root}.rb`, finish(`${header(templates, versions)}\n${requires.join("\n")}\n\n${wrap(namespace, table)}`));
  return new Map([...files].sort((a, b) => byCodeUnit(a[0], b[0])));
}
