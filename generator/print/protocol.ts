// The protocol module's constants (issue 36, item 2), language-neutral: each target prints this list
// in its own syntax (emit/<target>/protocol.ts) as protocol.ts, protocol.py or protocol.rb, and its
// runtime imports them. Names and values come from the model's protocol facts (model/protocol.ts);
// nothing is decided here but the constants' order and names, the same in every language.
import type { ProtocolFacts } from "../model/protocol-types.js";
import { unknownMethodVerdict } from "../model/table.js";

/** A constant's value: a scalar, a list, or a map (keys a number or a string, in the order given). */
export type ProtocolValue = number | string | boolean | null | ProtocolValue[] | ProtocolMap;
export interface ProtocolMap {
  map: [number | string, ProtocolValue][];
}

/**
 * A constant's type, stated where its values alone may not show it (a map with no entries: TASK_STATUSES in a
 * model without the Tasks extension), for the languages that declare types.
 */
export type ProtocolType =
  | "string"
  | "int"
  | "bool"
  | { list: ProtocolType }
  | { map: "int" | "string"; of: ProtocolType }
  | { record: [string, ProtocolType][] };

export interface ProtocolConstant {
  /** SCREAMING_SNAKE, the same in every target. */
  name: string;
  /** One line saying what it is and where it comes from. */
  doc: string;
  value: ProtocolValue;
  /** The value's type, where the values may not show it. */
  type?: ProtocolType;
}

/** The module's constants, in print order; a name given twice throws (the model names each once). */
export function protocolConstants(facts: ProtocolFacts): ProtocolConstant[] {
  const out: ProtocolConstant[] = [];
  const reviewed = new Map(facts.reviewed.errors.map((e) => [e.code, e]));
  for (const e of facts.errors) {
    const r = reviewed.get(e.code);
    out.push({ name: e.name, doc: r ? `${r.meaning} (reviewed: ${r.section})` : `Error code (${e.source === "schema.ts" ? "a constant schema.ts exports" : "the code const of a schema.json error definition"}).`, value: e.code });
  }
  for (const m of facts.meta) out.push({ name: `META_${m.name}`, doc: `The _meta key ${m.key} (from the schemas' _meta objects).`, value: m.key });
  for (const e of facts.extensions) out.push({ name: `EXTENSION_${e.name}`, doc: `The identifier of the ${e.name} extension (schemas/lock.json).`, value: e.identifier });
  out.push({ name: "HTTP_STATUS", doc: `The HTTP status of an error code's answer (reviewed: schemas/protocol-facts.json#/httpStatus).`, value: { map: facts.reviewed.httpStatus.map((h) => [h.code, h.status]) } });
  out.push({ name: "LOG_LEVELS", doc: `The log levels, least severe first (reviewed: ${facts.reviewed.logLevels.section}).`, value: facts.reviewed.logLevels.order });
  for (const l of facts.reviewed.limits) {
    out.push({ name: l.name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase(), doc: `${l.meaning} In milliseconds (reviewed: ${l.section}).`, value: l.ms });
  }
  out.push({ name: "HEADER_ANNOTATION", doc: `The inputSchema property keyword that mirrors a tool argument into an HTTP header (reviewed: ${facts.reviewed.headerAnnotation.section}).`, value: facts.reviewed.headerAnnotation.keyword });
  out.push({
    name: "TASK_STATUSES",
    doc: "Each task status, the task definition whose status is that const, its members and its required members (from the Tasks extension's schemas).",
    value: { map: facts.taskStatuses.map((t) => [t.status, { map: [["definition", t.definition], ["members", t.members], ["required", t.required]] }]) },
    // Empty without the Tasks extension: the type says what an entry would be.
    type: { map: "string", of: { record: [["definition", "string"], ["members", { list: "string" }], ["required", { list: "string" }]] } },
  });
  const unknown = unknownMethodVerdict(facts);
  out.push({
    name: "UNKNOWN_METHOD",
    doc: "The gate's verdict on a method no row of a version's METHOD_TABLE names (a custom method): refused unless the gate's custom policy passes it; the message's {method} and {protocolVersion} are the refusal's data (the method table's verdicts, generator/model/table.ts).",
    value: { map: [["accepted", unknown.accepted], ["code", unknown.code], ["reason", unknown.reason], ["message", unknown.message], ["policy", unknown.policy]] },
  });
  out.push({
    name: "VERSIONS",
    doc: "Per version (and extension module): its error codes, its _meta keys of requests, notifications and results, and whether it batches.",
    value: {
      map: facts.versions.map((v) => [
        v.label,
        { map: [["errors", v.errors.map((e) => e.code)], ["meta", { map: [["request", v.meta.request], ["notification", v.meta.notification], ["result", v.meta.result]] }], ["batches", v.batches]] },
      ]),
    },
  });
  const seen = new Set<string>();
  for (const c of out) {
    if (seen.has(c.name)) throw new Error(`protocol module: the constant ${c.name} is named twice`);
    seen.add(c.name);
  }
  return out;
}

/** Is the value a map? */
export function isProtocolMap(v: ProtocolValue): v is ProtocolMap {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A language's literal syntax for protocol values. */
export interface LiteralSyntax {
  scalar(v: number | string | boolean | null): string;
  key(k: number | string): string;
  /** `key: value` / `key => value`. */
  entry(key: string, value: string): string;
  list: [open: string, close: string];
  map: [open: string, close: string];
  /** Appended to every list and map (Ruby's `.freeze`), else "". */
  suffix: string;
  /** One level of indentation. */
  indent: string;
}

/** The value's literal: on one line when it fits in `width` columns after `indent`, else one entry per line. */
export function printValue(v: ProtocolValue, syntax: LiteralSyntax, indent = "", width = 100): string {
  const inline = (x: ProtocolValue): string => {
    if (Array.isArray(x)) return `${syntax.list[0]}${x.map(inline).join(", ")}${syntax.list[1]}${syntax.suffix}`;
    if (isProtocolMap(x)) return `${syntax.map[0]}${x.map.map(([k, val]) => syntax.entry(syntax.key(k), inline(val))).join(", ")}${syntax.map[1]}${syntax.suffix}`;
    return syntax.scalar(x);
  };
  const one = inline(v);
  if (indent.length + one.length <= width || (!Array.isArray(v) && !isProtocolMap(v))) return one;
  const inner = indent + syntax.indent;
  const items = Array.isArray(v) ? v.map((x) => printValue(x, syntax, inner, width)) : v.map.map(([k, val]) => syntax.entry(syntax.key(k), printValue(val, syntax, inner, width)));
  const [open, close] = Array.isArray(v) ? syntax.list : syntax.map;
  return `${open.trim()}\n${items.map((i) => `${inner}${i},`).join("\n")}\n${indent}${close.trim()}${syntax.suffix}`;
}
