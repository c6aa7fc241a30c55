// What the Go types cannot say, checked at decode time: which definitions need it (`needsCheck`), and the
// schema IR of those definitions (and every definition they reference) printed as the JSON the runtime's
// Schema reads (runtimes/go/validate.go). The IR decided each keyword's meaning; this only prints it, with
// patterns in Go's RE2 syntax (model/pattern.ts), one RE2 cannot say refused.
import { InputError, pointerToken } from "../../errors.js";
import type { IrDefinition, IrNode, SourceRef } from "../../model/ir.js";
import { parsePattern, PatternError, printPattern } from "../../model/pattern.js";
import { byCodeUnit } from "../../order.js";

/**
 * Whether a node holds a constraint its Go type does not check (string lengths and patterns, numeric bounds and
 * multipleOf, array sizes, tuples, contains, uniqueItems, key rules, `not`, `false`, `oneOf`, intersections, a
 * type keyword without `type`), here or in a definition it references.
 */
export function needsCheck(node: IrNode, seen = new Set<string>()): boolean {
  const any = (nodes: Array<IrNode | null | undefined>) => nodes.some((n) => n !== null && n !== undefined && needsCheck(n, seen));
  switch (node.kind) {
    case "any":
    case "null":
    case "boolean":
    case "literal":
      return false;
    case "never":
    case "not":
    case "intersection":
      return true;
    case "ref":
      if (seen.has(node.name)) return false;
      seen.add(node.name);
      return needsCheck(node.target.node, seen);
    case "string":
      return node.impliedType || node.minLength !== undefined || node.maxLength !== undefined || node.pattern !== undefined;
    case "number":
      return node.impliedType || [node.minimum, node.maximum, node.exclusiveMinimum, node.exclusiveMaximum, node.multipleOf].some((x) => x !== undefined);
    case "array":
      return node.impliedType || node.prefixItems !== undefined || node.minItems !== undefined || node.maxItems !== undefined || node.contains !== undefined || node.uniqueItems === true || any([node.items]);
    case "object":
      return (
        node.impliedType ||
        node.patternProperties !== undefined ||
        node.propertyNames !== undefined ||
        node.minProperties !== undefined ||
        node.maxProperties !== undefined ||
        any(node.properties.map((p) => p.node)) ||
        (node.additional !== null && node.additional.kind !== "never" && any([node.additional]))
      );
    case "union":
      return node.exclusive || any(node.branches);
  }
}

/**
 * A pattern in Go's RE2 syntax. One RE2 cannot say with the same meaning (a lookahead, `\b`/`\B`, a count
 * above 1000) is refused, naming the construct, the file and the JSON pointer of the keyword (`at`): the Go
 * target checks every pattern it prints or none of the version.
 */
export function goPattern(source: string, at: SourceRef, keyword: readonly string[]): string {
  try {
    return printPattern(parsePattern(source), "go");
  } catch (e) {
    if (e instanceof PatternError) throw new InputError(`the Go target cannot check the pattern ${JSON.stringify(source)}: ${e.message}`, at.file, `${at.pointer.replace(/^#/, "")}/${keyword.map(pointerToken).join("/")}`);
    throw e;
  }
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A node as the runtime's Node reads it. */
function printNode(node: IrNode): Json {
  switch (node.kind) {
    case "any":
    case "never":
    case "null":
    case "boolean":
      return { kind: node.kind };
    case "ref":
      return { kind: "ref", ref: node.name };
    case "literal":
      return { kind: "literal", values: node.values };
    case "not":
      return { kind: "not", node: printNode(node.node) };
    case "union":
      return { kind: "union", branches: node.branches.map(printNode), ...(node.exclusive ? { exclusive: true } : {}) };
    case "intersection":
      return { kind: "intersection", parts: node.parts.map(printNode) };
    case "string": {
      const pattern = node.pattern === undefined ? null : goPattern(node.pattern, node.at, ["pattern"]);
      return { kind: "string", ...implied(node.impliedType), ...optional({ minLength: node.minLength, maxLength: node.maxLength }), ...(pattern === null ? {} : { pattern }) };
    }
    case "number":
      return {
        kind: "number",
        ...implied(node.impliedType),
        ...(node.integer ? { integer: true } : {}),
        ...optional({ minimum: node.minimum, maximum: node.maximum, exclusiveMinimum: node.exclusiveMinimum, exclusiveMaximum: node.exclusiveMaximum }),
        ...(node.multipleOf === undefined ? {} : { multipleOf: { digits: node.multipleOf.digits, scale: node.multipleOf.scale } }),
      };
    case "array":
      return {
        kind: "array",
        ...implied(node.impliedType),
        ...(node.prefixItems === undefined ? {} : { prefixItems: node.prefixItems.map(printNode) }),
        items: printNode(node.items),
        ...optional({ minItems: node.minItems, maxItems: node.maxItems }),
        ...(node.contains === undefined ? {} : { contains: { node: printNode(node.contains.node), min: node.contains.min, ...optional({ max: node.contains.max }) } }),
        ...(node.uniqueItems === true ? { uniqueItems: true } : {}),
      };
    case "object": {
      const patterns = (node.patternProperties ?? []).map((p) => ({ pattern: goPattern(p.pattern, node.at, ["patternProperties", p.pattern]), node: printNode(p.node) }));
      return {
        kind: "object",
        ...implied(node.impliedType),
        properties: node.properties.map((p) => ({ name: p.name, node: printNode(p.node), ...(p.required ? { required: true } : {}) })),
        ...(node.additional === null ? {} : { additional: printNode(node.additional) }),
        ...(patterns.length === 0 ? {} : { patternProperties: patterns as Json[] }),
        ...(node.propertyNames === undefined ? {} : { propertyNames: printNode(node.propertyNames) }),
        ...optional({ minProperties: node.minProperties, maxProperties: node.maxProperties }),
      };
    }
  }
}

function implied(yes: boolean): { implied?: true } {
  return yes ? { implied: true } : {};
}

function optional(values: Record<string, number | undefined>): Record<string, number> {
  return Object.fromEntries(Object.entries(values).filter((e): e is [string, number] => e[1] !== undefined));
}

/** The JSON text of the checked definitions and every definition they reference, by name (code-unit order). */
export function schemaText(definitions: ReadonlyMap<string, IrDefinition>, checked: Iterable<string>): string {
  const names = new Set<string>();
  const visit = (node: IrNode): void => {
    switch (node.kind) {
      case "ref":
        if (!names.has(node.name)) {
          names.add(node.name);
          visit(node.target.node);
        }
        return;
      case "not":
        return visit(node.node);
      case "union":
        return node.branches.forEach(visit);
      case "intersection":
        return node.parts.forEach(visit);
      case "array":
        node.prefixItems?.forEach(visit);
        visit(node.items);
        if (node.contains !== undefined) visit(node.contains.node);
        return;
      case "object":
        node.properties.forEach((p) => visit(p.node));
        if (node.additional !== null) visit(node.additional);
        node.patternProperties?.forEach((p) => visit(p.node));
        if (node.propertyNames !== undefined) visit(node.propertyNames);
        return;
      default:
        return;
    }
  };
  for (const name of checked) {
    names.add(name);
    visit(definitions.get(name)!.node);
  }
  const out: Record<string, Json> = {};
  for (const name of [...names].sort(byCodeUnit)) out[name] = printNode(definitions.get(name)!.node);
  return JSON.stringify(out);
}
