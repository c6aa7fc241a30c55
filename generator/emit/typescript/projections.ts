// The TypeScript tree's projections.ts: the model's projection data of every version (issue 41),
// printed as one JSON literal keyed by version label in protocol order (one line per definition and
// method, so a spec bump's diff reads per definition), with that order as `protocolOrder`; the runtime's
// projection.ts interprets it.
import { buildProjections, type VersionProjections } from "../../model/projections.js";
import type { ProtocolModel } from "../../model/types.js";
import type { Templates } from "../../print/templates.js";

const entries = (o: Record<string, unknown>, indent: string) => Object.entries(o).map(([k, v]) => `${indent}${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(",\n");

/** One version's data as a JSON object literal, one line per entry of its maps. */
export function projectionLiteral(v: VersionProjections, indent = "  "): string {
  const i2 = indent + "  ";
  return [
    "{",
    `${i2}"label": ${JSON.stringify(v.label)},`,
    `${i2}"definitions": {\n${entries(v.definitions, i2 + "  ")}\n${i2}},`,
    `${i2}"results": {\n${entries(v.results as Record<string, unknown>, i2 + "  ")}\n${i2}},`,
    `${i2}"params": {\n${entries(v.params, i2 + "  ")}\n${i2}},`,
    `${i2}"serverCapabilities": ${JSON.stringify(v.serverCapabilities)}`,
    `${indent}}`,
  ].join("\n");
}

export function projectionsFile(model: ProtocolModel, templates: Templates, finish: (text: string) => string): string {
  const { versions } = buildProjections(model);
  const data = `{\n${versions.map((v) => `  ${JSON.stringify(v.label)}: ${projectionLiteral(v)}`).join(",\n")}\n}`;
  return finish(templates.get("projections.ts.hbs")({ versions: model.versions, order: versions.map((v) => v.label), data }));
}
