// The Go tree: go.mod (the module the --go-package option names; none with --go-module enclosing), the runtime package (mcpruntime/, a
// copy of runtimes/go/), the protocol module (protocol/: the model's protocol facts, which the runtime
// imports), per version and extension module a package (types.go: a type for every
// definition; schema.go: what the types check beyond themselves; methods.go: method-name constants, the method table, the gate and one result normalizer
// per request), and a root package listing every table. Every protocol fact is the model's, printed.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { InputError } from "../../errors.js";
import { extensionLabel } from "../../model/extensions.js";
import type { ExtensionModel, ProtocolModel, VersionModel, VersionTable } from "../../model/types.js";
import { inProtocolOrder } from "../../model/protocol-order.js";
import { byCodeUnit } from "../../order.js";
import { buildProjections } from "../../model/projections.js";
import { extensionProvenanceLine, provenanceLines } from "../../print/provenance.js";
import { normalizerOf, tableOf } from "../../print/table.js";
import { Templates } from "../../print/templates.js";
import { finish } from "../../print/text.js";
import { copyRuntime } from "../runtime-copy.js";
import { exported, goComment, goString, packageName, versionPackage } from "./language.js";
import { DEFAULT_GO_PACKAGE, goModuleOption, goPackageOption, type GoModuleKind } from "./options.js";
import { GO_PROTOCOL_PACKAGE, GO_RUNTIME_PACKAGE, goAdoptingDir, goTemplatesDir } from "./paths.js";
import { regenerateCommand } from "./provenance.js";
import { goRuntime } from "./runtime.js";
import { goProtocolModule } from "./protocol.js";
import { projectionBody } from "./projections.js";
import { GoTypes, PACKAGE_NAMES, SCHEMA_VAR } from "./types.js";
import { schemaText } from "./schema.js";

const RT = GO_RUNTIME_PACKAGE;

/** The method-name constants of a version: `tools/call` → `MethodToolsCall`; two methods sharing one are an InputError. */
export function methodConstants(version: VersionModel): Map<string, string> {
  return goNames(version, (m) => `Method${exported(m)}`, "constant", [...version.requests, ...version.notifications].map((m) => m.method));
}

/** The normalizer functions of a version's requests: `tools/call` → `NormalizeToolsCall`. */
export function normalizerNames(version: VersionModel): Map<string, string> {
  return goNames(version, (m) => `Normalize${exported(m)}`, "normalizer", version.requests.map((r) => r.method));
}

function goNames(version: VersionModel, name: (method: string) => string, what: string, methods: string[]): Map<string, string> {
  const out = new Map<string, string>();
  const seen = new Map<string, string>();
  for (const m of [...methods].sort(byCodeUnit)) {
    const n = name(m);
    const clash = seen.get(n);
    if (clash !== undefined) throw new InputError(`methods "${clash}" and "${m}" would both be the Go ${what} ${n}`, `${version.label}/schema.json`);
    seen.set(n, m);
    out.set(m, n);
  }
  return out;
}

/** The Go type of each definition of a version's package: definition name → Go identifier. */
export function definitionTypeNames(version: VersionModel): ReadonlyMap<string, string> {
  const reserved = new Set([...PACKAGE_NAMES, ...methodConstants(version).values(), ...normalizerNames(version).values()]);
  return new GoTypes(version, reserved).names;
}

/** A Go file: the provenance header, the package clause, the imports the body uses, the body. */
function goFile(header: string, pkg: string, body: string, module: string): string {
  const std = ["encoding/json", "errors", "fmt"].filter((i) => body.includes(`${i.split("/").pop()}.`));
  const own = body.includes(`${RT}.`) ? [`${module}/${RT}`] : [];
  const imports = [...std.map(goString), ...(std.length > 0 && own.length > 0 ? [""] : []), ...own.map(goString)];
  const importBlock = imports.length === 0 ? "" : imports.length === 1 ? `import ${imports[0]}\n\n` : `import (\n${imports.map((i) => (i === "" ? "" : `\t${i}`)).join("\n")}\n)\n\n`;
  return finish(`${header}\n\npackage ${pkg}\n\n${importBlock}${body}`);
}

/** A Go raw string literal of `text`, or an interpreted one when it holds a backquote. */
function goRaw(text: string): string {
  return text.includes("`") || text.includes("\r") ? goString(text) : `\`${text}\``;
}

function methodsBody(version: VersionModel, previous: VersionModel | null, table: VersionTable, constants: Map<string, string>, normalizers: Map<string, string>, extension?: ExtensionModel): string {
  const parts: string[] = [];
  parts.push(`// ProtocolVersion is the protocol version of this package.\nconst ProtocolVersion = ${goString(version.label)}`);
  parts.push(`// Era is "legacy" (the initialize handshake) or "modern" (the per-request _meta envelope).\nconst Era = ${goString(version.era)}`);
  parts.push(`// PreviousVersion is the version before this one among those generated (in protocol order), or "".\nconst PreviousVersion = ${goString(previous?.label ?? "")}`);
  if (extension !== undefined) {
    parts.push(`// Extension is the extension layered onto ProtocolVersion (negotiated under capabilities.extensions).\nconst Extension = ${goString(extension.identifier)}`);
    parts.push(`// ExtensionVersion is the extension's version.\nconst ExtensionVersion = ${goString(extension.label)}`);
  }
  parts.push([...constants].map(([m, c]) => `// ${c} is the method ${goString(m)}.\nconst ${c} = ${goString(m)}`).join("\n\n"));
  parts.push(
    [
      goComment(
        "MethodTable is the method table at this version (the model's; `mcp-codegen table --help` says what each\ncolumn means): every method any generated version or extension names, with its status here. As JSON, this\nversion's entry of `mcp-codegen table --format json`.",
      ),
      `var MethodTable = ${RT}.MustTable(${goRaw(JSON.stringify(table, null, 1).replace(/\n\s*/g, " "))})`,
    ].join("\n"),
  );
  parts.push(
    [
      goComment(
        "Refusal is the gate's answer for method arriving at policy.Side over a connection of this version: the\nverdict of its MethodTable row under the policy (nil lets the method through).",
      ),
      `func Refusal(method string, policy ${RT}.Policy) *${RT}.MethodNotFound {`,
      `\treturn ${RT}.Refusal(MethodTable, ProtocolVersion, method, policy)`,
      "}",
    ].join("\n"),
  );
  const requests = [...version.requests].sort((a, b) => byCodeUnit(a.method, b.method));
  for (const r of requests) {
    const row = normalizerOf(table, r.method);
    const types = row.resultTypes === null ? "nil" : `[]string{${row.resultTypes.map(goString).join(", ")}}`;
    const name = normalizers.get(r.method)!;
    const expected = r.results.join(" | ");
    const doc =
      row.shape === "empty"
        ? `${name} is the ${goString(r.method)} result (${expected}, empty shape): {"_meta": meta} when the handler\nreturned an object whose _meta is an object, else {}${row.resultTypes === null ? "" : `; with resultType ${JSON.stringify(row.resultTypes[0])}`}.`
        : `${name} is the ${goString(r.method)} result (${expected}): the handler's object without null members and a\n_meta that is no object${row.resultTypes === null ? "" : `, resultType defaulted to ${JSON.stringify(row.resultTypes[0])}`}.`;
    const call = row.shape === "empty" ? `${RT}.EmptyResult(value, ${types})` : `${RT}.ObjectResult(value, ${goString(r.method)}, ${goString(expected)}, ${types})`;
    parts.push([goComment(doc), `func ${name}(value json.RawMessage) (json.RawMessage, error) {`, `\treturn ${call}`, "}"].join("\n"));
  }
  parts.push(
    [
      "// NormalizeResult is the normalized result of method's request for a handler's return value.",
      "func NormalizeResult(method string, value json.RawMessage) (json.RawMessage, error) {",
      "\tswitch method {",
      ...requests.flatMap((r) => [`\tcase ${constants.get(r.method)!}:`, `\t\treturn ${normalizers.get(r.method)!}(value)`]),
      "\t}",
      `\treturn nil, ${RT}.UnknownRequest(method, ProtocolVersion)`,
      "}",
    ].join("\n"),
  );
  return parts.join("\n\n");
}

/** The Go tree: paths relative to its own folder. */
export function emitGoTree(model: ProtocolModel, options: { module?: string; moduleKind?: GoModuleKind; cacheDir?: string } = {}): Map<string, string> {
  const module = options.module ?? DEFAULT_GO_PACKAGE;
  const moduleKind = options.moduleKind ?? "own";
  for (const [option, value] of [[goPackageOption, module], [goModuleOption, moduleKind]] as const) {
    const problem = option.validate!(value);
    if (problem !== null) throw new InputError(`--${option.flag} ${problem}`);
  }
  const versions = [...model.versions].sort((a, b) => byCodeUnit(a.label, b.label));
  const extensions = [...(model.extensions ?? [])].sort((a, b) => byCodeUnit(extensionLabel(a), extensionLabel(b)));
  const regenerate = regenerateCommand(versions, module, moduleKind);
  const templates = new Templates({ dir: goTemplatesDir, cacheDir: options.cacheDir });
  // The provenance header as Go comments (its first line is Go's generated-code marker).
  const head = (lines: string[]) => templates.get("header.go.hbs")({ lines }).trimEnd();
  const files = new Map<string, string>();
  for (const [file, text] of copyRuntime(goRuntime, { [goPackageOption.flag]: module })) files.set(file, text);
  const packages = new Map<string, string>();
  const projections = buildProjections(model);
  const emitPackage = (label: string, version: VersionModel, previous: VersionModel | null, extension?: ExtensionModel) => {
    const pkg = versionPackage(label);
    const clash = packages.get(pkg);
    // The root package (tables.go) imports every version package beside mcpruntime and encoding/json.
    if (clash !== undefined || pkg === GO_RUNTIME_PACKAGE || pkg === GO_PROTOCOL_PACKAGE || pkg === "json") throw new InputError(`version label "${label}" maps to the Go package ${pkg}, which ${clash !== undefined ? `"${clash}" also maps to` : "the Go tree uses itself"}; rename one folder`);
    packages.set(pkg, label);
    const header = provenanceLines([version], regenerate);
    if (extension !== undefined) header.splice(2, 0, extensionProvenanceLine(extension));
    const constants = methodConstants(version);
    const normalizers = normalizerNames(version);
    const types = new GoTypes(version, new Set([...PACKAGE_NAMES, ...constants.values(), ...normalizers.values()]));
    const doc = goComment(
      `Package ${pkg} is protocol version ${version.label} (${version.era} era)${extension === undefined ? "" : ` with the extension ${extension.identifier} ${extension.label} layered onto it`}: a type for every definition\nof its schema, the method table, the method names, the gate and one result normalizer per request.`,
    );
    files.set(`${pkg}/types.go`, goFile(head(header), pkg, types.print(), module).replace(/\npackage /, `\n${doc}\npackage `));
    if (types.checked.size > 0) {
      const schema = [
        goComment(
          `${SCHEMA_VAR} is what the types cannot say (string lengths and patterns, numeric bounds, multipleOf, array\nsizes, key rules, not, oneOf, ...): the schema of the definitions that need it, as the generator's model reads\nit. Their UnmarshalJSON checks it before decoding.`,
        ),
        `var ${SCHEMA_VAR} = ${RT}.MustSchema(${goRaw(schemaText(version.ir.definitions, types.checked))})`,
      ].join("\n");
      files.set(`${pkg}/schema.go`, goFile(head(header), pkg, schema, module));
    }
    files.set(`${pkg}/methods.go`, goFile(head(header), pkg, methodsBody(version, previous, tableOf(model.tables, label), constants, normalizers, extension), module));
    // The model projects between the protocol versions (an extension module has no data of its own).
    const data = extension === undefined ? projections.versions.find((p) => p.label === label) : undefined;
    if (data !== undefined) files.set(`${pkg}/projection.go`, goFile(head(header), pkg, projectionBody(data, goRaw), module));
  };
  // PreviousVersion: the version before in protocol order (model/protocol-order.ts); packages are emitted by label.
  const ordered = inProtocolOrder(versions);
  const previousOf = (label: string) => ordered[ordered.findIndex((v) => v.label === label) - 1] ?? null;
  for (const v of versions) emitPackage(v.label, v, previousOf(v.label));
  for (const ext of extensions) emitPackage(extensionLabel(ext), ext.model, previousOf(ext.core), ext);
  const header = provenanceLines(versions, regenerate);
  files.set(`${GO_PROTOCOL_PACKAGE}/protocol.go`, goProtocolModule(model, head(header)));
  // The recipe that adopts the tree in the official Go SDK (hand-written beside the printer), behind the header.
  for (const file of readdirSync(goAdoptingDir).sort(byCodeUnit)) {
    const text = readFileSync(path.join(goAdoptingDir, file), "utf8");
    const note = [...header, `A copy of generator/emit/go/adopting/${file}.`].join("\n");
    files.set(file, file.endsWith(".md") ? `<!-- ${note} -->\n\n${text}` : `${note}\n\n${text}`);
  }
  // A folder of an enclosing module has no go.mod: its packages are that module's.
  if (moduleKind === "own") files.set("go.mod", `${head(header)}\n\nmodule ${module}\n\ngo 1.22\n`);
  const root = packageName(module);
  const labels = [...versions.map((v) => v.label), ...extensions.map(extensionLabel)];
  const imports = [`"${module}/${RT}"`, ...labels.map((l) => `"${module}/${versionPackage(l)}"`)].sort(byCodeUnit);
  const body = [
    "// Tables is every generated version's and extension module's method table, by label.",
    `func Tables() map[string]${RT}.MethodTable {`,
    `\tt := map[string]${RT}.MethodTable{}`,
    ...labels.map((l) => `\tt[${goString(l)}] = ${versionPackage(l)}.MethodTable`),
    "\treturn t",
    "}",
    "",
    "// Version is a generated version's (or extension module's) package as values: what a host that picks the",
    "// version at run time (by the negotiated protocol version) reads.",
    "type Version struct {",
    "\tProtocolVersion string",
    "\tEra             string",
    `\tTable           ${RT}.MethodTable`,
    `\tRefusal         func(method string, policy ${RT}.Policy) *${RT}.MethodNotFound`,
    "\tNormalizeResult func(method string, value json.RawMessage) (json.RawMessage, error)",
    "}",
    "",
    "// ProtocolOrder is the generated versions in protocol order, the newest last: legacy before modern, dated labels",
    "// by date within an era, labels that are no date (draft) after them (mcp-codegen's generator/model/projections.ts).",
    `var ProtocolOrder = []string{${projections.versions.map((p) => goString(p.label)).join(", ")}}`,
    "",
    "// Projections is every generated version's projection data, by label (extension modules have none of their own).",
    `func Projections() map[string]*${RT}.Projection {`,
    `\tp := map[string]*${RT}.Projection{}`,
    ...projections.versions.map((p) => `\tp[${goString(p.label)}] = ${versionPackage(p.label)}.Projection`),
    "\treturn p",
    "}",
    "",
    "// Versions is every generated version and extension module, by label.",
    "func Versions() map[string]Version {",
    "\tv := map[string]Version{}",
    ...labels.map((l) => {
      const p = versionPackage(l);
      return `\tv[${goString(l)}] = Version{ProtocolVersion: ${p}.ProtocolVersion, Era: ${p}.Era, Table: ${p}.MethodTable, Refusal: ${p}.Refusal, NormalizeResult: ${p}.NormalizeResult}`;
    }),
    "\treturn v",
    "}",
  ].join("\n");
  files.set(
    "tables.go",
    finish(`${head(header)}\n\n// Package ${root} lists the generated protocol versions; each is a package of its own.\npackage ${root}\n\nimport (\n\t"encoding/json"\n\n${imports.map((i) => `\t${i}`).join("\n")}\n)\n\n${body}`),
  );
  return new Map([...files].sort((a, b) => byCodeUnit(a[0], b[0])));
}
