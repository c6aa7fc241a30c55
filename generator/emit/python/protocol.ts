// The Python tree's protocol module (<package>/protocol.py): the constants of print/protocol.ts as
// `Final` module constants, which the runtime modules import as `from .protocol import …`.
import type { ProtocolModel } from "../../model/types.js";
import { provenanceLines } from "../../print/provenance.js";
import { printValue, protocolConstants, type LiteralSyntax } from "../../print/protocol.js";
import { finish } from "../../print/text.js";
import { regenerateCommand } from "./provenance.js";

const syntax: LiteralSyntax = {
  scalar: (v) => (v === null ? "None" : v === true ? "True" : v === false ? "False" : JSON.stringify(v)),
  key: (k) => JSON.stringify(k),
  entry: (key, value) => `${key}: ${value}`,
  list: ["(", ")"],
  map: ["{", "}"],
  indent: "    ",
  suffix: "",
};

export function pythonProtocolModule(model: ProtocolModel, pkg: string): string {
  const lines = provenanceLines(model.versions, regenerateCommand(model.versions, pkg)).map((l) => `# ${l}`);
  lines.push('"""The protocol facts (mcp-codegen\'s model; prose facts reviewed in its schemas/protocol-facts.json)."""', "", "from typing import Final", "");
  for (const c of protocolConstants(model.protocol)) {
    lines.push(`# ${c.doc}`, `${c.name}: Final = ${printValue(c.value, syntax, "").replace(/\(([^(),]+)\)/g, "($1,)")}`, "");
  }
  return finish(lines.join("\n"));
}
