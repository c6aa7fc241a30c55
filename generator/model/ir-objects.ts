// Questions every target's printer asks of the IR's nodes, answered once: whether an object has rules on its
// keys (which no class or struct can say), which objects an intersection is made of, and whether a node admits
// JSON null (a printer's optional or nullable type).
import type { IrNode, ObjectNode } from "./ir.js";

/** Whether an object node has rules on its keys that a class or struct cannot say. */
export function hasKeyRules(node: ObjectNode): boolean {
  return node.patternProperties !== undefined || node.propertyNames !== undefined || node.minProperties !== undefined || node.maxProperties !== undefined;
}

/**
 * The objects an intersection's parts are (through references and nested intersections), in order, when every
 * part is a plain object (a declared type, no key rules) whose extra members are allowed or of any type; else
 * null. A printer merges them into one object by its own rule for a name two parts declare.
 */
export function intersectionObjects(parts: readonly IrNode[]): ObjectNode[] | null {
  const objects: ObjectNode[] = [];
  const flat = (n: IrNode): boolean => {
    if (n.kind === "ref") return flat(n.target.node);
    if (n.kind === "intersection") return n.parts.every(flat);
    if (n.kind !== "object" || n.impliedType || hasKeyRules(n)) return false;
    objects.push(n);
    return true;
  };
  if (!parts.every(flat)) return null;
  if (objects.some((o) => o.additional !== null && o.additional.kind !== "any")) return null;
  return objects;
}

/**
 * Whether a node admits JSON null: `any`, `null`, `not`, a literal listing null, a node whose type is only implied
 * by its keywords (they do not apply to null), a union with such a branch, an intersection of such parts; a
 * reference through its target (a cycle adds nothing).
 */
export function acceptsNull(node: IrNode, seen = new Set<string>()): boolean {
  switch (node.kind) {
    case "any":
    case "null":
    case "not":
      return true;
    case "literal":
      return node.values.includes(null);
    case "string":
    case "number":
    case "array":
    case "object":
      return node.impliedType;
    case "ref":
      if (seen.has(node.name)) return false;
      seen.add(node.name);
      return acceptsNull(node.target.node, seen);
    case "union":
      return node.branches.some((b) => acceptsNull(b, seen));
    case "intersection":
      return node.parts.every((p) => acceptsNull(p, seen));
    default:
      return false;
  }
}
