// The Go types of one version's definitions, printed from the schema IR: structs for objects (required
// members as values, optional ones as pointers, unknown members kept in Extra), sealed interfaces for
// unions (a holder struct whose UnmarshalJSON takes the first arm that decodes, in the schema's order),
// named constants for enums, the runtime's Integer (any size, as its text) for integers and float64 for other numbers. Every struct and union
// has its own (Un)MarshalJSON over the runtime's helpers, so a decoded value encodes as the same JSON.
// What Go's types cannot say (string patterns and lengths, numeric bounds, multipleOf, array sizes, `not`, key
// rules, intersections that are no merge of objects, `oneOf`) is checked against the schema (schema.ts, the
// runtime's Schema) by the UnmarshalJSON of each definition's struct or union that needs it, before it decodes.
import type { IrDefinition, IrNode, IrProperty, ObjectNode } from "../../model/ir.js";
import { acceptsNull, intersectionObjects } from "../../model/ir-objects.js";
import type { VersionModel } from "../../model/types.js";
import { unique } from "../../model/naming.js";
import { byCodeUnit } from "../../order.js";
import { exported, goComment, goString, GO_KEYWORDS } from "./language.js";
import { GO_RUNTIME_PACKAGE } from "./paths.js";
import { needsCheck } from "./schema.js";

const RT = GO_RUNTIME_PACKAGE;

/** The package variable holding the schema the types check (schema.go, the runtime's Schema). */
export const SCHEMA_VAR = "schemaChecks";

/** The lines that refuse `data` when the definition's schema does, before a type decodes it. */
function checkLines(definition: string | undefined): string[] {
  return definition === undefined ? [] : [`	if err := ${SCHEMA_VAR}.Check(${goString(definition)}, data); err != nil {`, "		return err", "	}"];
}

/** The names a version package declares besides its types (methods.go). */
export const PACKAGE_NAMES: ReadonlySet<string> = new Set(["ProtocolVersion", "Era", "PreviousVersion", "MethodTable", "Refusal", "Normalizers", "NormalizeResult", "Extension", "ExtensionVersion", "Projection"]);

interface GoType {
  expr: string;
  /** The type decodes JSON null (the node accepts null). */
  nullable: boolean;
}

interface Shape {
  properties: IrProperty[];
  extra: { kind: "allow" } | { kind: "forbid" } | { kind: "typed"; node: IrNode };
}

/** Prints one version's definitions as Go declarations. */
export class GoTypes {
  readonly names: ReadonlyMap<string, string>;
  private readonly taken = new Set<string>([...PACKAGE_NAMES, ...GO_KEYWORDS]);
  private readonly out: string[] = [];
  /** Go types that may take methods (defined in this package, not aliases): union arms get a marker method. */
  private readonly local = new Set<string>();
  /** Marker methods each arm type gets, by type. */
  private readonly markers = new Map<string, string[]>();
  private nullType: string | null = null;
  /** The definitions whose type checks the schema when it decodes (what the Go types cannot say). */
  readonly checked = new Set<string>();

  constructor(
    private readonly version: VersionModel,
    reserved: ReadonlySet<string>,
  ) {
    const defs = [...version.ir.definitions.keys()];
    for (const r of reserved) this.taken.add(r);
    this.names = unique(defs, (d) => exported(d), this.taken);
    for (const n of this.names.values()) this.taken.add(n);
  }

  private fresh(base: string): string {
    let name = base;
    for (let i = 2; this.taken.has(name); i++) name = `${base}${i}`;
    this.taken.add(name);
    return name;
  }

  /** Every declaration of the package's types file, definitions in name order. */
  print(): string {
    const defs = [...this.version.ir.definitions.values()].sort((a, b) => byCodeUnit(a.name, b.name));
    for (const d of defs) this.definition(d);
    for (const [type, methods] of [...this.markers].sort((a, b) => byCodeUnit(a[0], b[0]))) {
      for (const m of [...new Set(methods)].sort(byCodeUnit)) this.out.push(`func (${type}) ${m}() {}`);
    }
    return this.out.join("\n\n");
  }

  private doc(name: string, node: IrNode, fallback: string): string {
    const text = node.annotations.description ?? node.annotations.title;
    return goComment(`${name} ${fallback}${text === undefined ? "" : `\n\n${text}`}`);
  }

  private definition(d: IrDefinition): void {
    const name = this.names.get(d.name)!;
    this.declare(name, d.node, `is the definition ${goString(d.name)} of the schema.`, needsCheck(d.node) ? d.name : undefined);
  }

  /** Declares `name` as the Go type of `node`. */
  private declare(name: string, node: IrNode, what: string, check?: string): void {
    const doc = this.doc(name, node, what);
    const shape = this.shape(node);
    if (shape !== null) return this.struct(name, shape, doc, check);
    switch (node.kind) {
      case "union": {
        const branches = node.branches.filter((b) => b.kind !== "never");
        if (branches.length === 1) break;
        return this.union(name, branches, doc, check);
      }
      case "literal":
        return this.literal(name, node.values, doc);
    }
    const t = this.type(node, name);
    if (t.expr === "json.RawMessage") {
      this.out.push(`${doc}\ntype ${name} = json.RawMessage`);
      return;
    }
    // Another named type of the package keeps its methods only through an alias.
    const alias = this.local.has(t.expr) || [...this.names.values()].includes(t.expr);
    this.out.push(`${doc}\ntype ${name} ${alias ? "= " : ""}${t.expr}`);
    this.local.add(name);
  }

  /** A node that prints as a struct: a closed-world object or an intersection of objects; else null. */
  private shape(node: IrNode): Shape | null {
    if (node.kind === "object") {
      if (node.impliedType) return null;
      if (node.properties.length === 0 && node.additional?.kind !== "never") return null;
      return { properties: node.properties, extra: extraOf(node) };
    }
    if (node.kind === "intersection") return this.merge(node.parts);
    return null;
  }

  private merge(parts: IrNode[]): Shape | null {
    return mergeable(parts);
  }

  private struct(name: string, shape: Shape, doc: string, check?: string): void {
    this.local.add(name);
    if (check !== undefined) this.checked.add(check);
    const fieldNames = new Set<string>(["MarshalJSON", "UnmarshalJSON"]);
    const fields: Array<{ name: string; prop: IrProperty; type: GoType; tag: string; note: string | null }> = [];
    for (const p of shape.properties) {
      let field = exported(p.name);
      while (fieldNames.has(field)) field = `${field}_`;
      fieldNames.add(field);
      const t = this.type(p.node, name + exported(p.name));
      const plain = /^[^",`\\\x00-\x1f\x7f]*$/.test(p.name) && p.name !== "-";
      const tag = plain ? `\`json:"${p.name}${p.required ? "" : ",omitempty"}"\`` : '`json:"-"`';
      fields.push({ name: field, prop: p, type: t, tag, note: plain ? null : `The member ${goString(p.name)} (its name is no struct tag).` });
    }
    let extra: { name: string; type: GoType } | null = null;
    if (shape.extra.kind !== "forbid") {
      let field = "Extra";
      while (fieldNames.has(field)) field = `${field}_`;
      extra = { name: field, type: shape.extra.kind === "typed" ? this.type(shape.extra.node, `${name}Value`) : { expr: "json.RawMessage", nullable: true } };
    }
    const lines: string[] = [];
    // gofmt aligns consecutive field lines; a comment line ends the run.
    const rows: string[][] = [];
    const flush = () => {
      if (rows.length === 0) return;
      const w0 = Math.max(...rows.map((r) => r[0].length));
      const w1 = Math.max(...rows.map((r) => r[1].length));
      for (const r of rows) lines.push(`\t${r[0].padEnd(w0)} ${r[1].padEnd(w1)} ${r[2]}`);
      rows.length = 0;
    };
    for (const f of fields) {
      const text = f.note ?? f.prop.node.annotations.description;
      if (text !== undefined) {
        flush();
        lines.push(goComment(text, "\t"));
      }
      rows.push([f.name, f.prop.required ? f.type.expr : `*${f.type.expr}`, f.tag]);
    }
    if (extra !== null) {
      flush();
      lines.push("\t// The members the schema does not declare, kept as they are.");
      rows.push([extra.name, `map[string]${extra.type.expr}`, '`json:"-"`']);
    }
    flush();
    const known = `[]string{${fields.map((f) => goString(f.prop.name)).join(", ")}}`;
    const decode: string[] = [
      `// UnmarshalJSON decodes a JSON object into ${name}, refusing a value the type cannot hold.`,
      `func (x *${name}) UnmarshalJSON(data []byte) error {`,
      ...checkLines(check),
      `\tm, err := ${RT}.DecodeObject(data, ${goString(name)})`,
      "\tif err != nil {",
      "\t\treturn err",
      "\t}",
      `\t*x = ${name}{}`,
    ];
    for (const f of fields) {
      const fn = f.prop.required ? "Required" : "Optional";
      decode.push(`\tif err := ${RT}.${fn}(m, ${goString(f.prop.name)}, &x.${f.name}, ${f.type.nullable}, ${goString(name)}); err != nil {`, "\t\treturn err", "\t}");
    }
    if (extra === null) decode.push(`\treturn ${RT}.Closed(m, ${known}, ${goString(name)})`);
    else decode.push(`\tx.${extra.name}, err = ${RT}.Rest[${extra.type.expr}](m, ${known}, ${extra.type.nullable}, ${goString(name)})`, "\treturn err");
    decode.push("}");
    const encode: string[] = [`// MarshalJSON encodes ${name} as a JSON object.`, `func (x ${name}) MarshalJSON() ([]byte, error) {`, `\to := ${RT}.NewObject()`];
    for (const f of fields) encode.push(f.prop.required ? `\to.Set(${goString(f.prop.name)}, x.${f.name})` : `\t${RT}.SetOptional(o, ${goString(f.prop.name)}, x.${f.name})`);
    if (extra !== null) encode.push(`\t${RT}.SetRest(o, x.${extra.name})`);
    encode.push("\treturn o.Bytes()", "}");
    this.out.push([`${doc}\ntype ${name} struct {`, ...lines, "}"].join("\n"), decode.join("\n"), encode.join("\n"));
  }

  private union(name: string, branches: IrNode[], doc: string, check?: string): void {
    this.local.add(name);
    if (check !== undefined) this.checked.add(check);
    const iface = this.fresh(`${name}Value`);
    const marker = `is${name}`;
    const arms: GoType[] = branches.map((b, i) => {
      const t = b.kind === "null" ? { expr: this.null(), nullable: true } : this.type(b, `${name}${i + 1}`);
      if (b.kind === "ref" ? !isRaw(b) : this.local.has(t.expr)) {
        this.mark(t.expr, marker);
        return t;
      }
      // A type that cannot take the marker (a builtin, json.RawMessage) is wrapped in a named one.
      const wrapper = this.fresh(`${name}${i + 1}`);
      this.wrap(wrapper, t);
      this.mark(wrapper, marker);
      return { expr: wrapper, nullable: t.nullable };
    });
    const listed = arms.map((a) => a.expr).join(", ");
    this.out.push(
      [`${doc}\ntype ${name} struct {`, `\t// Value is one of ${listed}.`, `\tValue ${iface}`, "}"].join("\n"),
      [`// ${iface} is an arm of ${name}: ${listed}.`, `type ${iface} interface {`, `\t${marker}()`, "}"].join("\n"),
      [
        `// UnmarshalJSON decodes the first arm of ${name} that accepts the value, in the schema's order.`,
        `func (u *${name}) UnmarshalJSON(data []byte) error {`,
        ...checkLines(check),
        `\tv, err := ${RT}.DecodeUnion(data, ${goString(name)},`,
        ...arms.map((a) => `\t\tfunc(d []byte) (${iface}, error) {\n\t\t\treturn ${RT}.As[${a.expr}](d, ${a.nullable}, ${goString(name)})\n\t\t},`),
        "\t)",
        "\tif err != nil {",
        "\t\treturn err",
        "\t}",
        "\tu.Value = v",
        "\treturn nil",
        "}",
      ].join("\n"),
      [
        `// MarshalJSON encodes the arm ${name} holds.`,
        `func (u ${name}) MarshalJSON() ([]byte, error) {`,
        "\tif u.Value == nil {",
        `\t\treturn nil, errors.New(${goString(`${name}: no value`)})`,
        "\t}",
        "\treturn json.Marshal(u.Value)",
        "}",
      ].join("\n"),
    );
  }

  private mark(type: string, marker: string): void {
    const list = this.markers.get(type) ?? [];
    list.push(marker);
    this.markers.set(type, list);
  }

  /** A named struct holding a value of `t` that encodes as it. */
  private wrap(name: string, t: GoType): void {
    this.local.add(name);
    this.out.push(
      [`// ${name} holds a ${t.expr} as an arm of a union.`, `type ${name} struct {`, `\tValue ${t.expr}`, "}"].join("\n"),
      [
        `// UnmarshalJSON decodes the value.`,
        `func (w *${name}) UnmarshalJSON(data []byte) error {`,
        `\tv, err := ${RT}.As[${t.expr}](data, ${t.nullable}, ${goString(name)})`,
        "\tw.Value = v",
        "\treturn err",
        "}",
      ].join("\n"),
      [`// MarshalJSON encodes the value.`, `func (w ${name}) MarshalJSON() ([]byte, error) {`, "\treturn json.Marshal(w.Value)", "}"].join("\n"),
    );
  }

  /** The package's null type (a union's null arm). */
  private null(): string {
    if (this.nullType !== null) return this.nullType;
    const name = this.fresh("Null");
    this.nullType = name;
    this.local.add(name);
    this.out.push(
      [`// ${name} is the JSON null.`, `type ${name} struct{}`].join("\n"),
      [`// UnmarshalJSON accepts only null.`, `func (*${name}) UnmarshalJSON(data []byte) error {`, `\treturn ${RT}.DecodeNull(data, ${goString(name)})`, "}"].join("\n"),
      [`// MarshalJSON encodes null.`, `func (${name}) MarshalJSON() ([]byte, error) {`, '\treturn []byte("null"), nil', "}"].join("\n"),
    );
    return name;
  }

  private literal(name: string, values: (string | number | boolean | null)[], doc: string): void {
    this.local.add(name);
    const kinds = new Set(values.map((v) => (v === null ? "null" : typeof v === "number" ? (Number.isSafeInteger(v) ? "integer" : "number") : typeof v)));
    const base = kinds.size === 1 ? ({ string: "string", integer: "int64", boolean: "bool" } as Record<string, string>)[[...kinds][0]] : undefined;
    if (base === undefined) {
      const allowed = values.map((v) => goString(JSON.stringify(v)));
      this.out.push(
        `${doc}\ntype ${name} json.RawMessage`,
        [
          `// UnmarshalJSON accepts only ${values.map((v) => JSON.stringify(v)).join(", ")}.`,
          `func (x *${name}) UnmarshalJSON(data []byte) error {`,
          `\treturn ${RT}.DecodeRawIn(data, (*json.RawMessage)(x), []string{${allowed.join(", ")}}, ${goString(name)})`,
          "}",
        ].join("\n"),
        [`// MarshalJSON encodes the value as it is.`, `func (x ${name}) MarshalJSON() ([]byte, error) {`, "\treturn []byte(x), nil", "}"].join("\n"),
      );
      return;
    }
    const literal = (v: string | number | boolean | null) => (typeof v === "string" ? goString(v) : String(v));
    const constants = values.map((v) => `const ${this.fresh(name + exported(String(v)))} ${name} = ${literal(v)}`);
    this.out.push(
      `${doc}\ntype ${name} ${base}`,
      constants.join("\n"),
      [
        `// UnmarshalJSON accepts only ${values.map((v) => JSON.stringify(v)).join(", ")}.`,
        `func (x *${name}) UnmarshalJSON(data []byte) error {`,
        `\tvar v ${base}`,
        `\terr := ${RT}.DecodeIn(data, &v, []${base}{${values.map(literal).join(", ")}}, ${goString(name)})`,
        `\t*x = ${name}(v)`,
        "\treturn err",
        "}",
      ].join("\n"),
    );
  }

  /** The Go type of a node; inline objects, unions and literals become named types from `context`. */
  type(node: IrNode, context: string): GoType {
    switch (node.kind) {
      case "any":
      case "never":
      case "not":
        return { expr: "json.RawMessage", nullable: true };
      case "null":
        return { expr: this.null(), nullable: true };
      case "boolean":
        return { expr: "bool", nullable: false };
      case "ref":
        return isRaw(node) ? { expr: "json.RawMessage", nullable: true } : { expr: this.names.get(node.name)!, nullable: acceptsNull(node) };
      case "string":
        return node.impliedType ? { expr: "json.RawMessage", nullable: true } : { expr: "string", nullable: false };
      case "number":
        return node.impliedType ? { expr: "json.RawMessage", nullable: true } : { expr: node.integer ? `${RT}.Integer` : "float64", nullable: false };
      case "array": {
        if (node.impliedType) return { expr: "json.RawMessage", nullable: true };
        const items = node.prefixItems === undefined ? this.type(node.items, `${context}Item`).expr : "json.RawMessage";
        return { expr: `[]${items}`, nullable: false };
      }
      case "literal": {
        const name = this.fresh(context);
        this.literal(name, node.values, goComment(`${name} is a value the schema allows at ${node.at.pointer}.`));
        return { expr: name, nullable: node.values.includes(null) };
      }
      case "object": {
        if (node.impliedType) return { expr: "json.RawMessage", nullable: true };
        const shape = this.shape(node);
        if (shape !== null) {
          const name = this.fresh(context);
          this.struct(name, shape, this.doc(name, node, `is the object at ${node.at.pointer}.`));
          return { expr: name, nullable: false };
        }
        const a = node.additional;
        const value = a === null || a.kind === "any" || node.patternProperties !== undefined ? "json.RawMessage" : this.type(a, `${context}Value`).expr;
        return { expr: `map[string]${value}`, nullable: false };
      }
      case "union": {
        const branches = node.branches.filter((b) => b.kind !== "never");
        if (branches.length === 1) return this.type(branches[0], context);
        const name = this.fresh(context);
        this.union(name, branches, this.doc(name, node, `is the union at ${node.at.pointer}.`));
        return { expr: name, nullable: acceptsNull(node) };
      }
      case "intersection": {
        const shape = this.merge(node.parts);
        if (shape === null) return { expr: "json.RawMessage", nullable: true };
        const name = this.fresh(context);
        this.struct(name, shape, this.doc(name, node, `is the object at ${node.at.pointer}.`));
        return { expr: name, nullable: false };
      }
    }
    return { expr: "json.RawMessage", nullable: true };
  }
}

function extraOf(node: ObjectNode): Shape["extra"] {
  // Which members are additional depends on patternProperties, which Go's types cannot say: kept as they are
  // (the schema check decides).
  if (node.patternProperties !== undefined) return { kind: "allow" };
  const a = node.additional;
  if (a === null || a.kind === "any") return { kind: "allow" };
  if (a.kind === "never") return { kind: "forbid" };
  return { kind: "typed", node: a };
}

/** Whether a node's Go type is json.RawMessage (every JSON value, or constraints the types cannot say). */
function isRaw(node: IrNode, seen = new Set<string>()): boolean {
  switch (node.kind) {
    case "any":
    case "never":
    case "not":
      return true;
    case "string":
    case "number":
    case "array":
    case "object":
      return node.impliedType;
    case "intersection":
      return mergeable(node.parts) === null;
    case "union": {
      const branches = node.branches.filter((b) => b.kind !== "never");
      return branches.length === 1 && isRaw(branches[0], seen);
    }
    case "ref":
      if (seen.has(node.name)) return false;
      seen.add(node.name);
      return isRaw(node.target.node, seen);
    default:
      return false;
  }
}

/** The parts of an intersection as one object, when every part is an object (through references), else null. */
function mergeable(parts: IrNode[]): Shape | null {
  const objects = intersectionObjects(parts);
  if (objects === null) return null;
  const byName = new Map<string, IrProperty>();
  for (const o of objects) {
    for (const p of o.properties) {
      const seen = byName.get(p.name);
      // A name two parts declare takes the later part's schema (an allOf's refinement follows its base:
      // `method: {const: "tasks/cancel"}` after JSONRPCRequest's `method: string`); the types cannot intersect two schemas.
      byName.set(p.name, seen === undefined ? p : { ...p, required: seen.required || p.required });
    }
  }
  return { properties: [...byName.values()], extra: { kind: "allow" } };
}
