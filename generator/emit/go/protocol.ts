// The Go tree's protocol module (protocol/protocol.go, package protocol): the constants of print/protocol.ts,
// which the runtime (mcpruntime) imports instead of spelling them. Go names are the shared names in Go's
// case (METHOD_NOT_FOUND → MethodNotFound, META_PROGRESS_TOKEN → MetaProgressToken). A scalar is a const;
// a list a slice; a constant's map a Go map (int or string keys); a map inside one a struct, named after the
// constant in the singular with `Facts` (VERSIONS → VersionFacts; its `meta` → VersionFactsMeta), its
// field types read from every entry (an empty list takes its siblings' element type, else string), or from
// the constant's stated type where it has one (TASK_STATUSES: empty in a model without Tasks).
import { InputError } from "../../errors.js";
import type { ProtocolModel } from "../../model/types.js";
import { isProtocolMap, protocolConstants, type ProtocolType, type ProtocolValue } from "../../print/protocol.js";
import { finish } from "../../print/text.js";
import { exported, goComment, goString } from "./language.js";
import { GO_PROTOCOL_PACKAGE } from "./paths.js";

/** A shared constant's Go name: `METHOD_NOT_FOUND` → `MethodNotFound`. */
export function goProtocolName(name: string): string {
  return exported(name.toLowerCase());
}

type GoType =
  | { kind: "scalar"; go: "int" | "float64" | "string" | "bool" }
  | { kind: "slice"; of: GoType }
  | { kind: "map"; key: "int" | "string"; of: GoType }
  | { kind: "struct"; name: string; fields: { key: string; field: string; type: GoType }[] };

const STRING: GoType = { kind: "scalar", go: "string" };

/** The type that holds every one of `values` (siblings: the entries of one map, the items of one list). */
function typeOf(values: ProtocolValue[], name: string, depth: number, structs: GoType[]): GoType {
  const present = values.filter((v) => v !== null);
  if (present.length === 0) return STRING;
  if (present.every((v) => typeof v === "string")) return STRING;
  if (present.every((v) => typeof v === "boolean")) return { kind: "scalar", go: "bool" };
  if (present.every((v) => typeof v === "number")) return { kind: "scalar", go: present.every((v) => Number.isInteger(v)) ? "int" : "float64" };
  if (present.every(Array.isArray)) return { kind: "slice", of: typeOf(present.flat(), name, depth + 1, structs) };
  if (present.every(isProtocolMap)) {
    const entries = present.flatMap((m) => m.map);
    // A constant's map is a Go map when its values share one kind; a record of mixed kinds (UNKNOWN_METHOD's
    // verdict: a bool, a code, strings) is a struct, as a map inside a map is.
    if (depth === 0 && sameKind(entries.map(([, v]) => v))) {
      const keys = entries.map(([k]) => typeof k);
      if (!keys.every((k) => k === keys[0])) throw new InputError(`protocol module: ${name} mixes number and string keys`);
      return { kind: "map", key: keys[0] === "number" ? "int" : "string", of: typeOf(entries.map(([, v]) => v), singular(name), depth + 1, structs) };
    }
    const keys = [...new Set(entries.map(([k]) => String(k)))];
    const type: GoType = { kind: "struct", name: depth === 0 ? singular(name) : name, fields: [] };
    structs.push(type);
    for (const key of keys) {
      const field = exported(key);
      type.fields.push({ key, field, type: typeOf(entries.filter(([k]) => String(k) === key).map(([, v]) => v), `${name}${field}`, depth + 1, structs) });
    }
    return type;
  }
  throw new InputError(`protocol module: ${name} mixes kinds of values`);
}

/** The Go type of a constant's stated type (named as typeOf names its structs). */
function declaredType(t: ProtocolType, name: string, depth: number, structs: GoType[]): GoType {
  if (typeof t === "string") return { kind: "scalar", go: t === "bool" ? "bool" : t };
  if ("list" in t) return { kind: "slice", of: declaredType(t.list, name, depth + 1, structs) };
  if ("map" in t) return { kind: "map", key: t.map, of: declaredType(t.of, singular(name), depth + 1, structs) };
  const type: GoType = { kind: "struct", name: depth === 0 ? singular(name) : name, fields: [] };
  structs.push(type);
  for (const [key, of] of t.record) type.fields.push({ key, field: exported(key), type: declaredType(of, `${name}${exported(key)}`, depth + 1, structs) });
  return type;
}

/** Whether `values` (nulls aside) are all strings, all booleans, all numbers, all lists or all maps. */
function sameKind(values: ProtocolValue[]): boolean {
  const kind = (v: ProtocolValue) => (Array.isArray(v) ? "list" : isProtocolMap(v) ? "map" : typeof v);
  return new Set(values.filter((v) => v !== null).map(kind)).size <= 1;
}

/** `Versions` → `VersionFacts`, `TaskStatuses` → `TaskStatusFacts`. */
function singular(name: string): string {
  const one = /(ss|us)es$/.test(name) ? name.slice(0, -2) : name.replace(/s$/, "");
  return `${one}Facts`;
}

function typeName(t: GoType): string {
  switch (t.kind) {
    case "scalar":
      return t.go;
    case "slice":
      return `[]${typeName(t.of)}`;
    case "map":
      return `map[${t.key}]${typeName(t.of)}`;
    case "struct":
      return t.name;
  }
}

/** The literal of `v` as a `t` on one line; `elided` drops the type of a composite (a map value or slice item). */
function literal(v: ProtocolValue, t: GoType, elided = false): string {
  const type = elided ? "" : typeName(t);
  if (t.kind === "scalar") return v === null ? (t.go === "string" ? '""' : t.go === "bool" ? "false" : "0") : typeof v === "string" ? goString(v) : String(v);
  if (t.kind === "slice") return `${type}{${(v as ProtocolValue[]).map((x) => literal(x, t.of, true)).join(", ")}}`;
  const map = v as { map: [number | string, ProtocolValue][] };
  if (t.kind === "map") return `${type}{${map.map.map(([k, x]) => `${typeof k === "string" ? goString(k) : k}: ${literal(x, t.of, true)}`).join(", ")}}`;
  const given = new Map(map.map.map(([k, x]) => [String(k), x]));
  return `${type}{${t.fields.filter((f) => given.has(f.key)).map((f) => `${f.field}: ${literal(given.get(f.key)!, f.type)}`).join(", ")}}`;
}

/** A constant's declaration: a const for a scalar, else a var (a map: one entry per line, aligned as gofmt does). */
function declaration(name: string, v: ProtocolValue, t: GoType): string {
  if (t.kind === "scalar") return `const ${name} = ${literal(v, t)}`;
  if (t.kind !== "map") return `var ${name} = ${literal(v, t)}`;
  const keys = (v as { map: [number | string, ProtocolValue][] }).map.map(([k, x]) => [`${typeof k === "string" ? goString(k) : k}:`, literal(x, t.of, true)] as const);
  if (keys.length === 0) return `var ${name} = ${typeName(t)}{}`;
  // gofmt aligns the values of consecutive key-value lines (keys this short are one section).
  const width = Math.max(0, ...keys.map(([k]) => k.length));
  return [`var ${name} = ${typeName(t)}{`, ...keys.map(([k, x]) => `\t${k.padEnd(width)} ${x},`), "}"].join("\n");
}

/** A struct type's declaration, its fields aligned as gofmt does. */
function structDeclaration(t: Extract<GoType, { kind: "struct" }>, of: string): string {
  const w = Math.max(...t.fields.map((f) => f.field.length));
  return [`// ${t.name} is (part of) the type of ${of}'s entries.`, `type ${t.name} struct {`, ...t.fields.map((f) => `\t${f.field.padEnd(w)} ${typeName(f.type)}`), "}"].join("\n");
}

/** protocol/protocol.go: behind `header` (comment lines), the package's doc, types and constants. */
export function goProtocolModule(model: ProtocolModel, header: string): string {
  const parts: string[] = [];
  const types: string[] = [];
  const seen = new Set<string>();
  for (const c of protocolConstants(model.protocol)) {
    const name = goProtocolName(c.name);
    if (seen.has(name)) throw new InputError(`protocol module: ${c.name} would be the Go constant ${name} twice`);
    seen.add(name);
    const structs: GoType[] = [];
    // A stated type holds also when the values cannot show it (an empty map); else the values decide.
    const t = c.type !== undefined ? declaredType(c.type, name, 0, structs) : typeOf([c.value], name, 0, structs);
    for (const s of structs) types.push(structDeclaration(s as Extract<GoType, { kind: "struct" }>, name));
    parts.push(`${goComment(`${name} (${c.name}): ${c.doc}`)}\n${declaration(name, c.value, t)}`);
  }
  const doc = `// Package ${GO_PROTOCOL_PACKAGE} is the protocol facts (mcp-codegen's model; prose facts reviewed in its\n// schemas/protocol-facts.json), which the runtime reads instead of spelling them.`;
  return finish(`${header}\n\n${doc}\npackage ${GO_PROTOCOL_PACKAGE}\n\n${[...types, ...parts].join("\n\n")}`);
}
