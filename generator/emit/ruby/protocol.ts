// The Ruby tree's protocol module (<namespace path>/protocol.rb): the constants of print/protocol.ts in
// `ProtocolFacts` inside the tree's namespace, frozen, which the runtime reads as `ProtocolFacts::…`.
import type { ProtocolModel } from "../../model/types.js";
import { provenanceLines } from "../../print/provenance.js";
import { printValue, protocolConstants, type LiteralSyntax } from "../../print/protocol.js";
import { finish } from "../../print/text.js";
import { inNamespace } from "./language.js";
import { TREE_CONSTANTS } from "./naming.js";
import { regenerateCommand } from "./provenance.js";

const syntax: LiteralSyntax = {
  scalar: (v) => (v === null ? "nil" : typeof v === "string" ? JSON.stringify(v) : String(v)),
  key: (k) => JSON.stringify(k),
  entry: (key, value) => `${key} => ${value}`,
  list: ["[", "]"],
  map: ["{", "}"],
  indent: "  ",
  suffix: ".freeze",
};

/**
 * A protocol constant's Ruby name: its own, unless the tree's namespace binds that constant (VERSIONS), which
 * it would hide inside ProtocolFacts; then with `_FACTS` (VERSION_FACTS) so the namespace's stays reachable.
 */
export function rubyProtocolConstant(name: string): string {
  return TREE_CONSTANTS.has(name) ? `${name.replace(/S$/, "")}_FACTS` : name;
}

export function rubyProtocolModule(model: ProtocolModel, namespace: string[], root: string): string {
  const header = provenanceLines(model.versions, regenerateCommand(model.versions, namespace.join("::"), root)).map((l) => `# ${l}`);
  const body = ["# The protocol facts (mcp-codegen's model; prose facts reviewed in its schemas/protocol-facts.json).", "module ProtocolFacts"];
  for (const c of protocolConstants(model.protocol)) body.push(`  # ${c.doc}`, `  ${rubyProtocolConstant(c.name)} = ${printValue(c.value, syntax, "  ")}`, "");
  body[body.length - 1] = "end";
  return finish(["# frozen_string_literal: true", ...header, "", inNamespace(namespace, body.join("\n"))].join("\n"));
}
