// The Python target: per version one module of pydantic v2 models (one per definition, printed from
// the schema IR), the method catalogue, one result normalizer per request and the method gate; a
// shared runtime (runtimes/python/'s modules, copied by emit/runtime-copy.ts), a root module naming the versions, py.typed and a pyproject.toml.
// Reads only the language-neutral model (IR nodes, method, sender, params.required, results,
// resultShape, resultTypes, era, the method table of model/table.ts); the rules themselves live in runtime.py.
import { pythonProtocolModule } from "./protocol.js";
import { InputError } from "../../errors.js";
import type { IrDefinition, IrNode, IrProperty, ObjectNode } from "../../model/ir.js";
import { acceptsNull, hasKeyRules, intersectionObjects } from "../../model/ir-objects.js";
import type { ExtensionModel, ProtocolModel, RequestMethod, VersionModel, VersionTable } from "../../model/types.js";
import { extensionLabel } from "../../model/extensions.js";
import { translatePattern } from "../../model/pattern.js";
import { removedAt } from "../../model/table.js";
import { projectionsModule } from "./projections.js";
import { customResultTypes, discoverServerInfo } from "../../model/rules.js";
import { normalizerOf, tableOf, type RowNormalizer } from "../../print/table.js";
import { byCodeUnit } from "../../order.js";
import { toolVersion } from "../../paths.js";
import { extensionProvenanceLine, provenanceLines } from "../../print/provenance.js";
import { Templates } from "../../print/templates.js";
import { docstring, moduleName, pyComment, pyString } from "./language.js";
import { checkModuleNames, ModuleNaming } from "./naming.js";
import { DEFAULT_PYTHON_PACKAGE, packageNameError, pythonPackageOption } from "./options.js";
import { pythonAdoptingFiles } from "./adopting.js";
import { pythonRuntimeModules, pythonTemplatesDir } from "./paths.js";
import { pythonRuntime } from "./runtime.js";
import { copyRuntime } from "../runtime-copy.js";
import { regenerateCommand } from "./provenance.js";

/** A printed Python file as written: no trailing spaces, at most two empty lines in a row (PEP 8's between top-level definitions), one final newline. */
function finish(text: string): string {
  return text.replace(/[ \t]+$/gm, "").replace(/\n{3,}/g, "\n\n\n").trimEnd() + "\n";
}

/**
 * The provenance header (print/provenance.ts, the one wording) as `#` comments: templates/header.py.hbs,
 * its last line the exact command that regenerates the whole tree (provenance.ts).
 */
function header(templates: Templates, versions: VersionModel[], regenerate: string): string {
  return templates.get("header.py.hbs")({ versions, regenerate });
}

/** One class of a module: a definition's or an inline object's. */
interface ClassDecl {
  name: string;
  base: string;
  doc: string | undefined;
  fields: string[];
  extra: string | null;
}

/** The property set of an object node or of an intersection of objects, merged. */
interface Shape {
  properties: IrProperty[];
  /** `allow`, `forbid`, or a type expression every unknown member must match. */
  extra: { kind: "allow" } | { kind: "forbid" } | { kind: "typed"; node: IrNode };
}

/** Prints one version's definitions as Python: classes for objects, TypeAliasType for the rest. */
class ModelPrinter {
  readonly names: ReadonlyMap<string, string>;
  /** Definitions already printed (a reference to a later or recursive one is a forward reference). */
  private readonly defined = new Set<string>();
  private forward = false;
  /** The recursive alias being printed, and the aliases of its cycle spelled out inside it. */
  private current: string | null = null;
  private readonly inlining = new Set<string>();
  /** Set when spelling out met an alias already being spelled out (the cycle has another root). */
  private guardHit = false;
  private readonly out: string[] = [];
  /** The recursive TypeAliasTypes printed (Python name → its expression). */
  private readonly recursiveAliases = new Map<string, string>();

  constructor(
    private readonly version: VersionModel,
    private readonly naming: ModuleNaming,
  ) {
    this.names = naming.definitions;
  }

  /** The body of the module's definitions, in dependency order. */
  print(): string {
    for (const name of this.version.ir.order) {
      if (this.defined.has(name)) continue;
      const d = this.version.ir.definitions.get(name)!;
      // A recursive alias goes after the one of its cycle that can be spelled out alone.
      if (d.recursive && this.shape(d.node) === null && !this.selfContained(d)) {
        const root = [...this.version.ir.definitions.values()].find(
          (c) => c.recursive && c !== d && !this.defined.has(c.name) && this.shape(c.node) === null && this.selfContained(c),
        );
        if (root !== undefined) {
          this.definition(root);
          this.defined.add(root.name);
        }
      }
      this.definition(d);
      this.defined.add(name);
    }
    const rebuild = [...this.version.ir.definitions.values()].filter((d) => d.recursive && this.shape(d.node) !== null).map((d) => this.names.get(d.name)!);
    if (rebuild.length > 0) this.out.push(rebuild.map((n) => `${n}.model_rebuild()`).join("\n"));
    return this.out.join("\n\n\n");
  }

  /** The recursive aliases whose expression names no other recursive alias (each cycle's root), in code-unit order. */
  recursiveRoots(): string[] {
    const names = [...this.recursiveAliases.keys()];
    return names.filter((n) => !names.some((o) => o !== n && new RegExp(`\\b${o}\\b`).test(this.recursiveAliases.get(n)!))).sort(byCodeUnit);
  }

  /** Whether a recursive alias prints naming only itself among the aliases of its cycle not yet printed (a dry run). */
  private selfContained(d: IrDefinition): boolean {
    const out = this.out.length;
    const restore = this.naming.snapshot();
    this.current = d.name;
    this.guardHit = false;
    this.type(d.node, "_");
    const clean = !this.guardHit;
    this.current = null;
    this.out.length = out;
    restore();
    return clean;
  }

  private definition(d: IrDefinition): void {
    const py = this.names.get(d.name)!;
    const doc = d.node.annotations.description ?? d.node.annotations.title;
    const shape = this.shape(d.node);
    if (shape !== null) {
      this.classOf(py, shape, doc);
      return;
    }
    this.forward = false;
    this.current = d.recursive ? d.name : null;
    const expr = this.type(d.node, py);
    this.current = null;
    const value = this.forward || d.recursive ? pyString(expr) : expr;
    if (d.recursive) this.recursiveAliases.set(py, expr);
    this.out.push(`${py} = TypeAliasType(${pyString(py)}, ${value})` + (doc !== undefined ? `\n${docstring(doc, "")}` : ""));
  }

  private render(c: ClassDecl): string {
    const lines = [`class ${c.name}(${c.base}):`];
    if (c.doc !== undefined) lines.push(docstring(c.doc, "    "), "");
    if (c.extra !== null) lines.push(`    __pydantic_extra__: dict[str, ${c.extra}] = Field(init=False)  # pyright: ignore[reportIncompatibleVariableOverride]`);
    lines.push(...c.fields);
    if (lines.length === 1) lines.push("    pass");
    return lines.join("\n").trimEnd();
  }

  /** A node that prints as a class: a closed-world object or an intersection of them; else null. */
  private shape(node: IrNode): Shape | null {
    if (node.kind === "object") {
      if (node.impliedType) return null;
      if (node.properties.length === 0 && node.additional?.kind !== "never") return null;
      if (hasKeyRules(node)) return null;
      return { properties: node.properties, extra: this.extraOf(node) };
    }
    if (node.kind === "intersection") return this.merge(node.parts);
    return null;
  }

  private extraOf(node: ObjectNode): Shape["extra"] {
    const a = node.additional;
    if (a === null || a.kind === "any") return { kind: "allow" };
    if (a.kind === "never") return { kind: "forbid" };
    return { kind: "typed", node: a };
  }

  /** The parts of an intersection as one object, when every part is an object (through references) and the merge is exact. */
  private merge(parts: IrNode[]): Shape | null {
    const objects = intersectionObjects(parts);
    if (objects === null) return null;
    const byName = new Map<string, IrProperty>();
    for (const o of objects) {
      for (const p of o.properties) {
        const seen = byName.get(p.name);
        if (seen === undefined) {
          byName.set(p.name, p);
          continue;
        }
        const node = narrower(seen.node, p.node);
        if (node === null) return null;
        byName.set(p.name, { name: p.name, node, required: seen.required || p.required });
      }
    }
    return { properties: [...byName.values()], extra: { kind: "allow" } };
  }

  private classOf(name: string, shape: Shape, doc: string | undefined): void {
    const fieldNames = this.naming.fields(shape.properties.map((p) => p.name));
    const fields: string[] = [];
    const pending: ClassDecl = { name, base: shape.extra.kind === "forbid" ? "runtime.ClosedModel" : "runtime.OpenModel", doc, fields, extra: null };
    for (const [i, p] of shape.properties.entries()) {
      const field = fieldNames[i];
      const type = this.type(p.node, this.naming.propertyContext(name, p.name));
      const alias = field === p.name ? null : p.name;
      const nullable = acceptsNull(p.node);
      // The wire name validates and serializes; constructors take the field name (typed by it) as well.
      const aliases = alias === null ? "" : `validation_alias=${pyString(alias)}, serialization_alias=${pyString(alias)}`;
      let line: string;
      if (p.required) line = `    ${field}: ${type}` + (alias === null ? "" : ` = Field(${aliases})`);
      else {
        // Absent reads None; a type that admits null already says so.
        const optional = type === "Any" || nullable ? type : annotated(`${type} | None`, "runtime.NotNull");
        line = `    ${field}: ${optional} = ` + (alias === null ? "None" : `Field(default=None, ${aliases})`);
      }
      fields.push(line);
      const fieldDoc = p.node.annotations.description;
      if (fieldDoc !== undefined) fields.push(docstring(fieldDoc, "    "));
    }
    if (shape.extra.kind === "typed") pending.extra = this.type(shape.extra.node, `${name}Value`);
    // Inline classes the fields named were printed first; this one follows them.
    this.out.push(this.render(pending));
  }

  /** A constraint without `type`: values of its JSON type satisfy it, every other type passes. */
  private ifType(node: Extract<IrNode, { kind: "string" | "number" | "array" | "object" }>, context: string): string {
    return `Annotated[Any, runtime.if_type(${pyString(node.kind)}, ${this.type({ ...node, impliedType: false }, context)})]`;
  }

  /**
   * An object with rules on its keys (`propertyNames`, `minProperties`/`maxProperties`,
   * `patternProperties`): its properties printed as without them (with patterns, open: the rules
   * judge the keys no property declares), the rules a validator of the raw object.
   */
  private keyRules(node: ObjectNode, context: string): string {
    const patterned = node.patternProperties !== undefined;
    const plain: ObjectNode = { kind: "object", at: node.at, annotations: node.annotations, impliedType: false, properties: node.properties, additional: patterned ? null : node.additional };
    const base = this.type(plain, context);
    const args: string[] = [];
    if (node.propertyNames !== undefined) args.push(`names=${this.type(node.propertyNames, `${context}Name`)}`);
    if (node.minProperties !== undefined) args.push(`min_properties=${node.minProperties}`);
    if (node.maxProperties !== undefined) args.push(`max_properties=${node.maxProperties}`);
    if (patterned) {
      const patterns = node.patternProperties!.map((p, i) => `(${pyString(translatePattern(p.pattern, "python"))}, ${this.type(p.node, `${context}Pattern${i + 1}`)})`);
      args.push(`patterns=(${patterns.join(", ")}${patterns.length === 1 ? "," : ""})`);
      const known = [...new Set(node.properties.map((p) => p.name))];
      if (known.length > 0) args.push(`known=${pyTuple(known)}`);
      const a = node.additional;
      if (a?.kind === "never") args.push("closed=True");
      else if (a !== null && a.kind !== "any") args.push(`additional=${this.type(a, `${context}Value`)}`);
    }
    return annotated(base, `runtime.object_keys(${args.join(", ")})`);
  }

  /** A type expression for a node; inline objects become classes named from `context`. */
  private type(node: IrNode, context: string): string {
    switch (node.kind) {
      case "any":
        return "Any";
      case "never":
        return "runtime.Never";
      case "null":
        return "None";
      case "boolean":
        return "runtime.Bool";
      case "ref": {
        // Inside a recursive alias, another alias of its cycle is spelled out: pyright resolves a
        // TypeAliasType that refers to itself, not one reached through a second alias.
        const target = node.target;
        const spellOut = this.current !== null && target.recursive && target.name !== this.current && !this.defined.has(target.name) && this.shape(target.node) === null;
        if (spellOut && this.inlining.has(target.name)) this.guardHit = true;
        else if (spellOut) {
          this.inlining.add(target.name);
          try {
            return this.type(target.node, context);
          } finally {
            this.inlining.delete(target.name);
          }
        }
        if (!this.defined.has(node.name)) this.forward = true;
        return this.names.get(node.name)!;
      }
      case "literal": {
        // pydantic's Literal compares with ==: numbers and booleans are kept apart by a validator beside them.
        const plain = node.values.filter((v) => v === null || typeof v === "string").map((v) => (v === null ? "None" : pyString(v)));
        const numbers = node.values.filter((v) => typeof v === "number" && Number.isSafeInteger(v)).map(String);
        // Other numbers (1.5, 1e21): a Literal would compare floats as Python reads them; checked by value.
        const others = node.values.filter((v) => typeof v === "number" && !Number.isSafeInteger(v)).map((v) => JSON.stringify(v));
        const booleans = node.values.filter((v) => typeof v === "boolean").map((v) => (v ? "True" : "False"));
        const parts: string[] = [];
        if (plain.length > 0) parts.push(`Literal[${plain.join(", ")}]`);
        if (numbers.length > 0) parts.push(`Annotated[Literal[${numbers.join(", ")}], runtime.NoBool]`);
        if (booleans.length > 0) parts.push(`Annotated[Literal[${booleans.join(", ")}], runtime.OnlyBool]`);
        if (others.length > 0) parts.push(`Annotated[runtime.Number, runtime.number_in(${others.join(", ")})]`);
        return parts.join(" | ");
      }
      case "string": {
        if (node.impliedType) return this.ifType(node, context);
        const base = constrained("runtime.Str", { min_length: node.minLength, max_length: node.maxLength });
        return node.pattern === undefined ? base : annotated(base, `runtime.pattern(${pyString(translatePattern(node.pattern, "python"))})`);
      }
      case "number": {
        if (node.impliedType) return this.ifType(node, context);
        const base = constrained(node.integer ? "runtime.Int" : "runtime.Number", {
          ge: node.minimum,
          le: node.maximum,
          gt: node.exclusiveMinimum,
          lt: node.exclusiveMaximum,
        });
        return node.multipleOf === undefined ? base : annotated(base, `runtime.multiple_of(${node.multipleOf.digits}, ${node.multipleOf.scale})`);
      }
      case "array": {
        if (node.impliedType) return this.ifType(node, context);
        const metadata: string[] = [];
        if (node.contains !== undefined) {
          const { min, max } = node.contains;
          metadata.push(`runtime.contains(${this.type(node.contains.node, `${context}Contains`)}, ${min}${max === undefined ? "" : `, ${max}`})`);
        }
        if (node.uniqueItems === true) metadata.push("runtime.unique_items");
        if (node.prefixItems !== undefined) {
          const prefix = node.prefixItems.map((p, i) => this.type(p, `${context}Item${i + 1}`));
          metadata.unshift(`runtime.prefix_items((${prefix.join(", ")}${prefix.length === 1 ? "," : ""}), ${this.type(node.items, `${context}Item`)})`);
        }
        const items = node.prefixItems === undefined ? this.type(node.items, `${context}Item`) : "Any";
        const base = constrained(`list[${items}]`, { min_length: node.minItems, max_length: node.maxItems });
        return metadata.length === 0 ? base : annotated(base, ...metadata);
      }
      case "object": {
        if (node.impliedType) return this.ifType(node, context);
        if (hasKeyRules(node)) return this.keyRules(node, context);
        const shape = this.shape(node);
        if (shape !== null) {
          const name = this.naming.inlineClass(context);
          this.classOf(name, shape, node.annotations.description);
          return name;
        }
        const a = node.additional;
        return `dict[str, ${a === null || a.kind === "any" ? "Any" : this.type(a, `${context}Value`)}]`;
      }
      case "union": {
        const branches = node.branches.map((b, i) => this.type(b, node.branches.length > 1 ? `${context}${i + 1}` : context));
        // pydantic's unions are not exclusive: a oneOf counts the branches that accept, at run time.
        if (node.exclusive && branches.length > 1) return `Annotated[Any, runtime.one_of(${branches.join(", ")})]`;
        return [...new Set(branches)].join(" | ");
      }
      case "intersection": {
        const shape = this.merge(node.parts);
        if (shape !== null) {
          const name = this.naming.inlineClass(context);
          this.classOf(name, shape, node.annotations.description);
          return name;
        }
        // Not a merge of open objects: the value must satisfy every part as it is.
        return `Annotated[Any, runtime.all_of(${node.parts.map((p, i) => this.type(p, `${context}Part${i + 1}`)).join(", ")})]`;
      }
      case "not":
        return `Annotated[Any, runtime.not_(${this.type(node.node, `${context}Not`)})]`;
    }
  }
}


/**
 * The stricter of two property schemas of an intersection when one implies the other (the same
 * schema, `any`, or a literal of the other's type); null when the intersection is not one of them.
 */
function narrower(a: IrNode, b: IrNode): IrNode | null {
  if (a.kind === "any") return b;
  if (b.kind === "any") return a;
  if (a.kind === "ref" && b.kind === "ref" && a.name === b.name) return a;
  const literalOf = (l: IrNode, t: IrNode): boolean => {
    if (l.kind !== "literal") return false;
    if (t.kind === "string") return t.minLength === undefined && t.maxLength === undefined && t.pattern === undefined && l.values.every((v) => typeof v === "string");
    if (t.kind === "number") {
      const bare = [t.minimum, t.maximum, t.exclusiveMinimum, t.exclusiveMaximum, t.multipleOf].every((x) => x === undefined);
      return bare && l.values.every((v) => typeof v === "number" && (!t.integer || Number.isInteger(v)));
    }
    return false;
  };
  if (literalOf(a, b)) return a;
  if (literalOf(b, a)) return b;
  if (a.kind === b.kind && ["string", "boolean", "null"].includes(a.kind) && JSON.stringify({ ...a, at: 0, annotations: 0 }) === JSON.stringify({ ...b, at: 0, annotations: 0 })) return a;
  return null;
}

/** `Annotated[base, Field(...)]` with the constraints given, or `base` when there are none. */
function constrained(base: string, constraints: Record<string, number | undefined>): string {
  const args = Object.entries(constraints)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${v}`);
  return args.length === 0 ? base : annotated(base, `Field(${args.join(", ")})`);
}

/** The parts of `Annotated[type, m1, …]` when `text` is exactly one such expression (brackets balanced at its end), else null. */
function annotatedParts(text: string): { type: string; metadata: string[] } | null {
  if (!text.startsWith("Annotated[") || !text.endsWith("]")) return null;
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = "Annotated[".length;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (quote !== null) {
      if (c === "\\") i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === "[" || c === "(") depth++;
    else if (c === "]" || c === ")") {
      if (depth === 0) {
        if (i !== text.length - 1) return null;
        parts.push(text.slice(start, i).trim());
        return parts.length < 2 ? null : { type: parts[0], metadata: parts.slice(1) };
      }
      depth--;
    } else if (c === "," && depth === 0) {
      parts.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  return null;
}

/**
 * `Annotated[type, …metadata]`, flat: an `Annotated` type gets the metadata after its own, and
 * `Annotated[Annotated[T, m] | None, n]` is written `Annotated[T | None, m, n]` (pydantic applies a
 * constraint of an optional type to its non-null part).
 */
function annotated(type: string, ...metadata: string[]): string {
  const optional = type.endsWith(" | None") ? annotatedParts(type.slice(0, -" | None".length)) : null;
  if (optional !== null) return `Annotated[${optional.type} | None, ${[...optional.metadata, ...metadata].join(", ")}]`;
  const inner = annotatedParts(type);
  if (inner !== null) return `Annotated[${inner.type}, ${[...inner.metadata, ...metadata].join(", ")}]`;
  return `Annotated[${type}, ${metadata.join(", ")}]`;
}

function pyTuple(items: readonly string[]): string {
  return items.length === 1 ? `(${pyString(items[0])},)` : `(${items.map(pyString).join(", ")})`;
}

function normalizerDef(r: RequestMethod, row: RowNormalizer, name: string): string {
  const expected = r.results.join(" | ");
  // The row says how: its normalizer's shape and `resultType` values, the default first.
  const types = row.resultTypes;
  const resultTypes = types === null ? "None" : pyTuple(types);
  if (row.shape === "empty") {
    return [
      `def ${name}(value: object) -> runtime.Result:`,
      docstring(`\`${r.method}\` (${expected}, empty): \`{"_meta": meta}\` when the handler returned a dict whose \`_meta\` is a dict, else \`{}\`${types === null ? "" : `, with \`"resultType": ${JSON.stringify(types[0])}\``}.`, "    "),
      `    return runtime.empty_result(value, ${resultTypes})`,
    ].join("\n");
  }
  return [
    `def ${name}(value: object) -> runtime.Result:`,
    docstring(
      `\`${r.method}\` (${expected}): the handler's dict without a non-dict \`_meta\`${types === null ? "" : `, \`resultType\` defaulted to ${JSON.stringify(types[0])}`}.\n\nRaises runtime.ResultError (-32603) for anything but a dict.`,
      "    ",
    ),
    `    return runtime.object_result(value, ${pyString(r.method)}, ${pyString(expected)}, ${resultTypes})`,
  ].join("\n");
}

/** JSON data as a read-only Python literal: MappingProxyType for objects, tuples for arrays; `json.dumps` after thawing gives the same JSON. */
function pyData(value: unknown): string {
  if (value === null) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "string") return pyString(value);
  if (typeof value === "number") return JSON.stringify(value);
  if (Array.isArray(value)) return value.length === 1 ? `(${pyData(value[0])},)` : `(${value.map(pyData).join(", ")})`;
  return `MappingProxyType({${Object.entries(value as Record<string, unknown>).map(([k, v]) => `${pyString(k)}: ${pyData(v)}`).join(", ")}})`;
}

/** A method table as a read-only Mapping, one method a line. */
function pyTable(table: VersionTable): string {
  return [
    "METHOD_TABLE: Final[Mapping[str, Mapping[str, object]]] = MappingProxyType(",
    "    {",
    ...Object.entries(table).map(([m, row]) => `        ${pyString(m)}: ${pyData(row)},`),
    "    }",
    ")",
    '"""The method table at this version (the model\'s; `mcp-codegen table --help` says what each column means):',
    "every method any generated version or extension names, with its status here (present, removed, later,",
    "extension), sides, the gate's verdict at each side, params, results, normalizer (shape and `resultType`",
    "values), required capabilities, `Mcp-Name` param and task result. Read-only (mappings and tuples); as",
    'JSON, this version\'s entry of `mcp-codegen table --format json`."""',
  ].join("\n");
}

/** What a version module shares with another whose definitions and catalogue print the same. */
interface VersionParts {
  /** The definitions, normalizers, REQUESTS, NOTIFICATIONS and DEFINITIONS as printed: equal text, same module content. */
  shared: string;
  /** The names the shared part binds (classes, aliases, normalizers, the three catalogues). */
  names: string[];
  /** The roots of the recursive TypeAliasTypes among `names`. */
  recursive: string[];
  body: string;
}

function versionParts(version: VersionModel, table: VersionTable): VersionParts {
  const naming = new ModuleNaming(version);
  const models = new ModelPrinter(version, naming);
  const body = models.print();
  const normalizers = naming.normalizers;
  const requests = [...version.requests].sort((a, b) => byCodeUnit(a.method, b.method));
  const notifications = [...version.notifications].sort((a, b) => byCodeUnit(a.method, b.method));
  const entry = (r: RequestMethod) => {
    const types = normalizerOf(table, r.method).resultTypes;
    return [
      `        ${pyString(r.method)}: runtime.RequestEntry(`,
      `            sender=${pyString(r.sender)},`,
      `            params_required=${r.params?.required ? "True" : "False"},`,
      `            results=${pyTuple(r.results)},`,
      `            result_shape=${pyString(r.resultShape)},`,
      `            result_types=${types === null ? "None" : pyTuple(types)},`,
      `            normalizer=${normalizers.get(r.method)!},`,
      "        ),",
    ].join("\n");
  };
  const parts = [body];
  for (const r of requests) parts.push(normalizerDef(r, normalizerOf(table, r.method), normalizers.get(r.method)!));
  parts.push(
    [
      "REQUESTS: Final[Mapping[str, runtime.RequestEntry]] = MappingProxyType(",
      "    {",
      ...requests.map(entry),
      "    }",
      ")",
      '"""Requests by method: sender, whether `params` is required, result definitions, result shape, `resultType` values and normalizer."""',
      "",
      "NOTIFICATIONS: Final[Mapping[str, runtime.NotificationEntry]] = MappingProxyType(",
      "    {",
      ...notifications.map((n) => `        ${pyString(n.method)}: runtime.NotificationEntry(sender=${pyString(n.sender)}, params_required=${n.params?.required ? "True" : "False"}),`),
      "    }",
      ")",
      '"""Notifications by method: sender and whether `params` is required."""',
      "",
      "DEFINITIONS: Final[Mapping[str, runtime.Definition]] = MappingProxyType(",
      "    {",
      ...[...models.names].map(([name, py]) => `        ${pyString(name)}: ${py},`),
      "    }",
      ")",
      '"""Every definition of the schema by its name in the spec: a model class or a TypeAliasType."""',
    ].join("\n"),
  );
  const names = [...models.names.values(), ...requests.map((r) => normalizers.get(r.method)!), "REQUESTS", "NOTIFICATIONS", "DEFINITIONS"];
  return { shared: parts.join("\n\n\n"), names, recursive: models.recursiveRoots(), body };
}

/** isort's order of the names of one `from` import (ruff's default order-by-type): CONSTANTS, Classes, then the rest, each case-insensitively. */
function isortNames(names: string[]): string[] {
  const kind = (n: string) => (n.length > 1 && n === n.toUpperCase() ? 0 : /^[A-Z]/.test(n) ? 1 : 2);
  return [...names].sort((a, b) => kind(a) - kind(b) || byCodeUnit(a.toLowerCase(), b.toLowerCase()) || byCodeUnit(a, b));
}

/** The constants an extension module adds to a version module's (runtime.ExtensionModule), in the order printed. */
const EXTENSION_CONSTANTS = ["EXTENSION", "EXTENSION_VERSION", "EXTENSION_REQUESTS", "EXTENSION_NOTIFICATIONS"];

/** An extension module's own constants: the extension layered onto PROTOCOL_VERSION, and the methods it adds. */
function extensionConstants(ext: ExtensionModel): string {
  return [
    `EXTENSION: Final = ${pyString(ext.identifier)}`,
    '"""The extension layered onto PROTOCOL_VERSION: its identifier, negotiated under `capabilities.extensions`."""',
    `EXTENSION_VERSION: Final = ${pyString(ext.label)}`,
    '"""The extension\'s version."""',
    `EXTENSION_REQUESTS: Final[tuple[str, ...]] = ${pyTuple([...ext.requests])}`,
    `EXTENSION_NOTIFICATIONS: Final[tuple[str, ...]] = ${pyTuple([...ext.notifications])}`,
    '"""The methods the extension adds; the rest of REQUESTS and NOTIFICATIONS are the core version\'s (with the',
    'results the extension allows them)."""',
  ].join("\n");
}


/** The model's discoverServerInfo as a Python constant's value. */
function discoverServerInfoText(version: VersionModel): string {
  const where = discoverServerInfo(version);
  return where === null ? "None" : pyString(where);
}

/**
 * One version's module. `sameAs`: the module of an earlier version whose definitions and catalogue
 * print the same: this one re-exports them (`from .<module> import X as X`) instead of repeating them.
 */
function versionModule(
  version: VersionModel,
  previous: VersionModel | null,
  pkg: string,
  head: string,
  parts: VersionParts,
  sameAs: string | null,
  table: VersionTable = {},
  extension?: ExtensionModel,
): string {
  const removed = removedAt(table);
  const uses = (word: string) => new RegExp(`\\b${word}\\b`).test(parts.body);
  const own = [
    [
      `PROTOCOL_VERSION: Final = ${pyString(version.label)}`,
      `ERA: Final = ${pyString(version.era)}`,
      `DISCOVER_SERVER_INFO: Final[str | None] = ${discoverServerInfoText(version)}`,
      '"""Where server/discover\'s result carries the server\'s info: "member" (serverInfo), "meta" (_meta), or None (no server/discover)."""',
      `PREVIOUS_VERSION: Final[str | None] = ${previous === null ? "None" : pyString(previous.label)}`,
      '"""The version before this one among those generated, or None."""',
      `CUSTOM_RESULT_TYPES: Final[tuple[str, ...] | None] = ${customTypesText(customResultTypes(version.era))}`,
      '"""The `resultType` values a custom request\'s result may carry, the default first; None in the legacy era."""',
    ].join("\n"),
  ];
  if (extension !== undefined) own.push(extensionConstants(extension));
  let imports: string[];
  if (sameAs === null) {
    const typing = ["Annotated", "Any", "Final", "Literal"].filter((n) => n === "Final" || uses(n));
    imports = [
      "from __future__ import annotations",
      "",
      "from collections.abc import Mapping",
      "from types import MappingProxyType",
      `from typing import ${typing.join(", ")}`,
      "",
      ...(uses("Field") ? ["from pydantic import Field"] : []),
      ...(uses("TypeAliasType") ? ["from typing_extensions import TypeAliasType"] : []),
      ...(uses("Field") || uses("TypeAliasType") ? [""] : []),
      "from . import dispatcher, runtime",
    ];
    own.push(parts.shared);
  } else {
    imports = [
      "from __future__ import annotations",
      "",
      "from collections.abc import Mapping",
      "from types import MappingProxyType",
      "from typing import Final",
      "",
      // pyright takes a recursive alias reached first through another alias of its cycle for a
      // variable: the recursive ones are imported first, in a statement of their own (isort keeps
      // an absolute import apart from, and before, the relative one).
      ...(parts.recursive.length === 0 ? [] : [fromImport(`${pkg}.${sameAs}`, parts.recursive), ""]),
      "from . import dispatcher, runtime",
      [`from .${sameAs} import (`, ...isortNames(parts.names.filter((n) => !parts.recursive.includes(n))).map((n) => `    ${n},`), ")"].join("\n"),
    ];
  }
  own.push(
    [
      removed.length === 0 ? "REMOVED_METHODS: Final[tuple[str, ...]] = ()" : ["REMOVED_METHODS: Final[tuple[str, ...]] = (", ...removed.map((m) => `    ${pyString(m)},`), ")"].join("\n"),
      '"""Methods (requests and notifications) an earlier generated version has and this one has not (METHOD_TABLE\'s status "removed")."""',
    ].join("\n"),
  );
  // The method table is this version's own: its statuses are relative to the version.
  own.push(pyTable(table));
  own.push(
    [
      "def normalize_result(method: str, value: object) -> runtime.Result:",
      '    """The normalized result of `method`\'s request for a handler\'s return `value`.',
      "",
      "    Raises KeyError for a method that is not a request of this version.",
      '    """',
      "    return runtime.normalize(REQUESTS, method, value)",
      "",
      "",
      "def method_error(",
      "    method: str,",
      '    side: runtime.Side = "server",',
      "    policy: runtime.GatePolicy = runtime.DEFAULT_GATE_POLICY,",
      ") -> runtime.ErrorObject | None:",
      '    """The method gate: the JSON-RPC error (-32601) for `method` arriving at `side`, else None.',
      "",
      "    The verdict is METHOD_TABLE's (removed, sent by the other side only, only in later versions, not a",
      "    method of any version); `policy` says what a custom method and a later version's get.",
      '    """',
      "    return runtime.gate(METHOD_TABLE, method, PROTOCOL_VERSION, side, policy)",
      ...(["server", "client"] as const).flatMap((side) => [
        "",
        "",
        `def create_${side}_dispatcher(`,
        "    handlers: Mapping[str, dispatcher.Handler],",
        "    *,",
        "    on_error: dispatcher.OnError | None = None,",
        "    validate_results: bool = True,",
        ") -> dispatcher.Dispatcher:",
        `    """The ${side}'s dispatcher at this version: \`handlers\` by method (\`handler(params, context)\`, sync or async).`,
        "",
        "    Routes by METHOD_TABLE (what the " + side + " receives here); see " + pkg + ".dispatcher for its guarantees.",
        '    """',
        "    return dispatcher.create_dispatcher(",
        `        PROTOCOL_VERSION, METHOD_TABLE, REQUESTS, DEFINITIONS, "${side}", handlers, on_error=on_error, validate_results=validate_results`,
        "    )",
      ]),
    ].join("\n"),
  );
  if (sameAs !== null) {
    const constants = extension === undefined ? [] : EXTENSION_CONSTANTS;
    const exported = [...parts.names, "PROTOCOL_VERSION", "ERA", "PREVIOUS_VERSION", ...constants, "REMOVED_METHODS", "METHOD_TABLE", "normalize_result", "method_error", "create_server_dispatcher", "create_client_dispatcher"].sort(byCodeUnit);
    own.push(["__all__ = [", ...exported.map((n) => `    ${pyString(n)},`), "]", '"""The re-exported names are this module\'s own."""'].join("\n"));
  }
  const what =
    extension === undefined
      ? `Protocol version ${version.label} (${version.era} era): pydantic models for every definition, the method\ncatalogue, one result normalizer per request and the method gate. Rules in ${pkg}.runtime.`
      : `Protocol version ${version.label} (${version.era} era) with the extension ${extension.identifier} ${extension.label}\nlayered onto it: pydantic models for every definition (the core's and the extension's), the method\ncatalogue, one result normalizer per request and the method gate. Rules in ${pkg}.runtime.`;
  const doc = docstring(
    what +
      (sameAs === null ? "" : `\n\nIts definitions and catalogue are those of ${sameAs}, re-exported.`),
    "",
  );
  return finish(`${head}${doc}\n\n${imports.join("\n")}\n\n${own.join("\n\n\n")}\n`);
}

/** `from <module> import a, b` as isort writes it: on one line when it fits ruff's 88 columns, else one name a line. */
function fromImport(module: string, names: string[], indent = ""): string {
  const line = `${indent}from ${module} import ${names.join(", ")}`;
  if (line.length <= 88) return line;
  return [`${indent}from ${module} import (`, ...names.map((n) => `${indent}    ${n},`), `${indent})`].join("\n");
}

/** A tuple of strings as Python source, None for null. */
function customTypesText(types: readonly string[] | null): string {
  return types === null ? "None" : `(${types.map(pyString).join(", ")}${types.length === 1 ? "," : ""})`;
}

/** The root module's EXTENSION_MODULES: per core version label (those with an extension module), per identifier, its module. */
function extensionModulesMap(extensions: readonly ExtensionModel[], pkg: string): string {
  const head = "EXTENSION_MODULES: Final[Mapping[str, Mapping[str, str]]] = MappingProxyType(";
  if (extensions.length === 0) return `${head}{})`;
  const cores = [...new Set(extensions.map((x) => x.core))].sort(byCodeUnit);
  return [
    head,
    "    {",
    ...cores.map((core) => {
      const mine = extensions.filter((x) => x.core === core).sort((a, b) => byCodeUnit(a.identifier, b.identifier));
      return `        ${pyString(core)}: MappingProxyType({${mine.map((x) => `${pyString(x.identifier)}: ${pyString(`${pkg}.${moduleName(extensionLabel(x))}`)}`).join(", ")}}),`;
    }),
    "    }",
    ")",
  ].join("\n");
}

/** The Python tree: paths relative to its own folder. */
export function emitPythonTree(model: ProtocolModel, options: { package?: string; cacheDir?: string } = {}): Map<string, string> {
  const pkg = options.package ?? DEFAULT_PYTHON_PACKAGE;
  const invalid = packageNameError(pkg);
  if (invalid !== null) throw new InputError(`the Python package ${invalid}`);
  const templates = new Templates({ dir: pythonTemplatesDir, cacheDir: options.cacheDir });
  const root = pkg.split(".").join("/");
  const versions = [...model.versions].sort((a, b) => byCodeUnit(a.label, b.label));
  const extensions = [...(model.extensions ?? [])].sort((a, b) => byCodeUnit(extensionLabel(a), extensionLabel(b)));
  checkModuleNames([...versions.map((v) => v.label), ...extensions.map(extensionLabel)]);
  const files = new Map<string, string>();
  const regenerate = regenerateCommand(versions, pkg);
  const head = (vs: VersionModel[]) => header(templates, vs, regenerate);
  for (const [file, text] of copyRuntime(pythonRuntime, { [pythonPackageOption.flag]: pkg })) files.set(file, text);
  files.set(`${root}/protocol.py`, pythonProtocolModule(model, pkg));
  const tables = model.tables;
  const owners = new Map<string, string>();
  versions.forEach((v, i) => {
    const parts = versionParts(v, tableOf(tables, v.label));
    const owner = owners.get(parts.shared) ?? null;
    if (owner === null) owners.set(parts.shared, moduleName(v.label));
    files.set(`${root}/${moduleName(v.label)}.py`, versionModule(v, i === 0 ? null : versions[i - 1], pkg, head([v]), parts, owner, tableOf(tables, v.label)));
  });
  // Each extension module (`<core>+<name>`): the merged model printed as a version module is, with the
  // extension's constants; one whose definitions and catalogue print as an earlier one's re-exports them.
  for (const ext of extensions) {
    const label = extensionLabel(ext);
    const table = tableOf(tables, label);
    const parts = versionParts(ext.model, table);
    const owner = owners.get(parts.shared) ?? null;
    if (owner === null) owners.set(parts.shared, moduleName(label));
    const i = versions.findIndex((v) => v.label === ext.core);
    const header = head([ext.model]).replace(/^(# Protocol version [^\n]*\n)/m, `$1# ${extensionProvenanceLine(ext)}\n`);
    files.set(`${root}/${moduleName(label)}.py`, versionModule(ext.model, i <= 0 ? null : versions[i - 1], pkg, header, parts, owner, table, ext));
  }
  files.set(`${root}/projections.py`, finish(projectionsModule(model, head(versions), pkg)));
  // PEP 561's marker: comments only (a line "partial" would make it a partial package).
  files.set(`${root}/py.typed`, finish(`${head(versions)}# Marks ${pkg} as a typed package (PEP 561).`));
  const modules = versions.map((v) => moduleName(v.label));
  const extensionModules = extensions.map((x) => moduleName(extensionLabel(x)));
  const init = [
    head(versions) + docstring(
      `Generated MCP protocol code, one module per protocol version (${versions.map((v) => v.label).join(", ")})` +
        (extensions.length === 0 ? "." : ` and per extension module (${extensions.map(extensionLabel).join(", ")}).`),
      "",
    ),
    "",
    "from __future__ import annotations",
    "",
    "import importlib",
    "from collections.abc import Mapping",
    "from types import MappingProxyType",
    "from typing import TYPE_CHECKING, Final, cast",
    "",
    "from .runtime import ExtensionModule, VersionModule",
    "",
    "VERSION_MODULES: Final[Mapping[str, str]] = MappingProxyType(",
    "    {",
    ...versions.map((v) => `        ${pyString(v.label)}: ${pyString(`${pkg}.${moduleName(v.label)}`)},`),
    "    }",
    ")",
    '"""Every generated protocol version: label → module name, in label order (imported on demand)."""',
    "",
    "VERSION_ERAS: Final[Mapping[str, str]] = MappingProxyType(",
    "    {",
    ...versions.map((v) => `        ${pyString(v.label)}: ${pyString(v.era)},`),
    "    }",
    ")",
    '"""Every generated protocol version: label → its era ("legacy" or "modern"), the module\'s ERA, known',
    'without importing it (the router reads it when it is built and imports a version on first use)."""',
    "",
    extensionModulesMap(extensions, pkg),
    '"""Every generated extension module (an extension version layered onto a protocol version): protocol',
    "version label → extension identifier (negotiated under `capabilities.extensions`) → module name, in",
    'label order (imported on demand)."""',
    "",
    "",
    "def version(label: str) -> VersionModule:",
    '    """The module of protocol version `label`. Raises KeyError for a version that was not generated."""',
    "    return cast(VersionModule, importlib.import_module(VERSION_MODULES[label]))",
    "",
    "",
    "def extension(label: str, identifier: str) -> ExtensionModule:",
    '    """The module of extension `identifier` layered onto protocol version `label`.',
    "",
    "    Raises KeyError for one that was not generated.",
    '    """',
    "    return cast(ExtensionModule, importlib.import_module(EXTENSION_MODULES[label][identifier]))",
    "",
    "",
    `__all__ = ["EXTENSION_MODULES", "VERSION_ERAS", "VERSION_MODULES", "ExtensionModule", "VersionModule", "extension", "version"]`,
    "",
    "if TYPE_CHECKING:",
    "    # Every version module is a VersionModule, every extension module an ExtensionModule (checked by the",
    "    # type checker, never imported at run time).",
    fromImport(".", [...modules, ...extensionModules].sort(byCodeUnit), "    "),
    "",
    ...modules.map((m) => `    _${m}: VersionModule = ${m}`),
    ...extensionModules.map((m) => `    _${m}: ExtensionModule = ${m}`),
  ];
  files.set(`${root}/__init__.py`, finish(init.join("\n")));
  const pyproject = [
    head(versions).trimEnd(),
    "",
    "[project]",
    `name = ${pyString(distributionName(pkg))}`,
    `version = ${pyString(toolVersion)}`,
    `description = ${pyString(DESCRIPTION)}`,
    'readme = "README.md"',
    'requires-python = ">=3.11"',
    // Every import the tree makes outside the standard library.
    `dependencies = [${PYTHON_DEPENDENCIES.map(pyString).join(", ")}]`,
    "",
    "[project.optional-dependencies]",
    ...Object.entries(PYTHON_EXTRAS).map(([extra, requirements]) => `${extra} = [${requirements.map(pyString).join(", ")}]`),
    "",
    // flit_core builds from the tree without writing into it (no build/, no *.egg-info), so installing
    // or building a wheel from the committed tree leaves it as generated.
    "[build-system]",
    'requires = ["flit_core>=4,<5"]',
    'build-backend = "flit_core.buildapi"',
    "",
    "[tool.flit.module]",
    `name = ${pyString(pkg)}`,
  ];
  files.set("pyproject.toml", finish(pyproject.join("\n")));
  files.set("README.md", packageReadme(versions, extensions, pkg, regenerate));
  // The recipe adopting the tree in the Python SDK, behind the provenance header: an HTML comment in
  // Markdown, text before the patch's first diff (git apply and patch skip it).
  const lines = provenanceLines(versions, regenerate);
  for (const [file, text] of pythonAdoptingFiles()) {
    const note = `A copy of generator/emit/python/adopting/${file}.`;
    files.set(file, file.endsWith(".md") ? `<!-- ${lines.join("\n")}\n${note} -->\n\n${text}` : `${lines.join("\n")}\n${note}\n\n${text}`);
  }
  return new Map([...files].sort((a, b) => byCodeUnit(a[0], b[0])));
}

const DESCRIPTION = "MCP protocol models, method catalogue, result normalizers and method gate, one module per protocol version.";
/** What the tree imports beyond the standard library: pydantic 2, and typing_extensions' TypeAliasType. */
const PYTHON_DEPENDENCIES = ["pydantic>=2.11,<3", "typing_extensions>=4.12.2"];
/**
 * Extras, imported only when a function that needs them is called: the client's HTTP transport and OAuth
 * (client_http.py, client_oauth.py) use httpx2; http.py's `serve_http` runs its ASGI app under uvicorn;
 * auth_jwt.py's `jwt_verifier` checks tokens with PyJWT, and client_oauth.py's DPoP proofs are signed with PyJWT
 * over a `cryptography` key (imported by name, so declared by name); redis.py's fan-out and task store use redis-py.
 */
const PYTHON_EXTRAS: Readonly<Record<string, readonly string[]>> = { client: ["httpx2>=2.16"], http: ["uvicorn>=0.30"], jwt: ["pyjwt[crypto]>=2.8", "cryptography>=42"], redis: ["redis>=5.0.1"] };

/** The distribution's name: the package's, dots and underscores as dashes (`acme.mcp_protocol` → `acme-mcp-protocol`). */
function distributionName(pkg: string): string {
  return pkg.replace(/[._]/g, "-");
}

/** The package README's section on `runtime.ValidationPolicy` (runtime.py defines the options; test/emit/python/validation-policy.test.ts checks that the table names every one). */
const VALIDATION_POLICY_README = (pkg: string): string[] => [
  "## Validation policies",
  "",
  `\`${pkg}.runtime.validate(target, data, policy)\`, \`dump(validated, policy)\` and \`result_type(DEFINITIONS, results, policy)\``,
  "validate, send and type results as the models do under the default, `runtime.STRICT` (`ValidationPolicy()`): the",
  "schema's behaviour. A host that differs from the schema on purpose names each difference as an option of a",
  "`runtime.ValidationPolicy`; the models themselves stay strict.",
  "",
  "| option | default | effect |",
  "| --- | --- | --- |",
  "| `lenient_paths` | none | per definition, the member paths (`\"*\"`: any key or index) where a value the models refuse is let through unchanged, when the rest validates |",
  "| `lax_integers` | none | per definition, the member paths where a boolean reads as the integer 0 or 1 |",
  "| `null_as_absent` | `False` | an explicit `null` for an optional member whose schema has no null reads as the member left out |",
  "| `last_arms` | `()` | the result definitions put last in a result union (pydantic's smart union resolves a tie leftmost) |",
  "| `sieve` | `False` | `dump` sends only what a named definition declares (`_meta` and inline objects whole) and leaves out members that are `None` |",
  "",
  "`python-sdk-2.3.0.patch` (see `ADOPTING.md`) selects them for the official Python SDK, `mcp` 2.3.0.",
];

/** The package's own README (its PyPI description): what it holds, how to install and regenerate it, an example. */
function packageReadme(versions: readonly VersionModel[], extensions: readonly ExtensionModel[], pkg: string, regenerate: string): string {
  const labels = versions.map((v) => v.label);
  const first = labels[0];
  return finish(
    [
      // The header's first line opens the comment, so the file starts as every generated file does.
      ...provenanceLines(versions, regenerate).map((line, i) => (i === 0 ? `<!-- ${line}` : line)),
      "-->",
      "",
      `# ${distributionName(pkg)}`,
      "",
      `${DESCRIPTION} Generated by mcp-codegen from the Model Context Protocol's JSON Schemas; it depends on`,
      "pydantic 2 (and typing_extensions) alone.",
      "",
      "| module | what |",
      "| --- | --- |",
      `| \`${pkg}\` | \`VERSION_MODULES\` (label → module name) and \`version(label)\`; \`EXTENSION_MODULES\` (label → extension identifier → module name) and \`extension(label, identifier)\` |`,
      `| \`${pkg}.runtime\` | the rules and base models every version module shares |`,
      ...versions.map((v) => `| \`${pkg}.${moduleName(v.label)}\` | protocol version ${v.label} (${v.era}): a pydantic model per definition (\`DEFINITIONS\`), \`REQUESTS\`, \`NOTIFICATIONS\`, \`normalize_result\`, \`method_error\` |`),
      ...extensions.map(
        (x) =>
          `| \`${pkg}.${moduleName(extensionLabel(x))}\` | protocol version ${x.core} with the extension \`${x.identifier}\` ${x.label} layered onto it: the same, over the core's definitions and methods and the extension's (\`EXTENSION\`, \`EXTENSION_REQUESTS\`, \`EXTENSION_NOTIFICATIONS\`) |`,
      ),
      "",
      "```sh",
      "pip install DIR        # DIR: this folder, or a wheel built from it (pip wheel DIR)",
      "```",
      "",
      "```python",
      "from typing import Any, cast",
      "",
      "from pydantic import TypeAdapter",
      "",
      `import ${pkg}`,
      "",
      `for label in ${pkg}.VERSION_MODULES:`,
      `    module = ${pkg}.version(label)`,
      "    assert module.PROTOCOL_VERSION == label",
      "    # The gate (a server's side by default): None for a request a client may send at this version,",
      "    # the JSON-RPC error -32601 otherwise, its data saying why.",
      "    for method, entry in module.REQUESTS.items():",
      '        assert (module.method_error(method) is None) == (entry.sender != "server")',
      '    error = module.method_error("no/such-method")',
      '    assert error is not None and error["code"] == -32601',
      '    assert error["message"] == f"Method not found: no/such-method is not a method of protocol version {label}"',
      "",
      "# A request validated by the spec's own definition (strict: unknown members kept, no coercion).",
      `request = TypeAdapter(cast(Any, ${pkg}.version(${pyString(first)}).DEFINITIONS["CallToolRequest"]))`,
      'call = request.validate_json(\'{"method": "tools/call", "params": {"name": "echo", "arguments": {"text": "hi"}}}\')',
      'assert call.params.name == "echo"',
      "```",
      "",
      ...VALIDATION_POLICY_README(pkg),
      "",
      regenerate,
      "",
    ].join("\n"),
  );
}
