// Questions every target's printer asks of the IR's object nodes, answered once: whether an object has
// rules on its keys (which no class or struct can say), and which objects an intersection is made of.
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
