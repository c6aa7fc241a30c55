// The TypeScript tree's protocol module (protocol.ts at the tree's root): the constants of
// print/protocol.ts as `export const`, which the runtime (runtime/*.ts) imports as `../protocol.js`.
import type { ProtocolModel } from "../../model/types.js";
import { provenanceLines } from "../../print/provenance.js";
import { isProtocolMap, printValue, protocolConstants, type LiteralSyntax } from "../../print/protocol.js";
import { finish } from "../../print/text.js";

const syntax: LiteralSyntax = {
  scalar: (v) => JSON.stringify(v),
  key: (k) => JSON.stringify(String(k)),
  entry: (key, value) => `${key}: ${value}`,
  list: ["[", "]"],
  map: ["{ ", " }"],
  indent: "  ",
  suffix: "",
};

export function typescriptProtocolModule(model: ProtocolModel): string {
  const lines = provenanceLines(model.versions).map((l) => `// ${l}`);
  lines.push("// The protocol facts (generator/model/protocol.ts; prose facts reviewed in schemas/protocol-facts.json).", "");
  for (const c of protocolConstants(model.protocol)) {
    lines.push(`/** ${c.doc} */`);
    // A map keyed by error codes is looked up by number.
    const numberKeyed = isProtocolMap(c.value) && c.value.map.every(([k]) => typeof k === "number");
    const annotation = numberKeyed ? ": Readonly<Record<number, number>>" : c.value === null ? ": string | null" : "";
    lines.push(`export const ${c.name}${annotation} = ${printValue(c.value, syntax, "")}${numberKeyed || c.value === null ? "" : " as const"};`, "");
  }
  return finish(lines.join("\n"));
}
