// The Go tree's projection data (issue 41): each version package's projection.go holds the model's
// projection data of that version as JSON (one definition, result and params shape per line), read once by
// the runtime's interpreter (mcpruntime.MustProjection); the root package lists the versions in protocol
// order. Nothing is decided here: the data is generator/model/projections.ts's.
import type { VersionProjections } from "../../model/projections.js";
import { GO_RUNTIME_PACKAGE } from "./paths.js";

/** The version's data as JSON text: one entry of each map per line, so a review reads what changed. */
export function projectionJson(v: VersionProjections): string {
  const map = (o: Record<string, unknown>) => {
    const entries = Object.entries(o).map(([k, x]) => `${JSON.stringify(k)}: ${JSON.stringify(x)}`);
    return entries.length === 0 ? "{}" : `{\n${entries.join(",\n")}\n}`;
  };
  return [
    "{",
    `"label": ${JSON.stringify(v.label)},`,
    `"definitions": ${map(v.definitions)},`,
    `"results": ${map(v.results as Record<string, unknown>)},`,
    `"params": ${map(v.params)},`,
    `"serverCapabilities": ${JSON.stringify(v.serverCapabilities)}`,
    "}",
  ].join("\n");
}

/** projection.go's body: the data and the Projection it reads into. */
export function projectionBody(v: VersionProjections, raw: (text: string) => string): string {
  return [
    "// Projection is this version's projection data (mcp-codegen's model, generator/model/projections.ts): what a",
    "// result or params value valid at another version becomes at this one. ProjectResult(method, value) gives the",
    "// value with the members this version does not declare dropped and the defaults it requires supplied, or a",
    "// refusal naming the JSON pointer at fault.",
    `var Projection = ${GO_RUNTIME_PACKAGE}.MustProjection(projectionData)`,
    "",
    `const projectionData = ${raw(projectionJson(v))}`,
  ].join("\n");
}
