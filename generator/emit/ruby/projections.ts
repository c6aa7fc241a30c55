// The Ruby tree's projections.rb: the model's projection data of every version (issue 41), printed as one
// frozen hash keyed by version label in protocol order (one line per definition and method), with that order
// as ORDER, inside the tree's namespace; the runtime's projection.rb (runtimes/ruby/) interprets it.
import { buildProjections, type VersionProjections } from "../../model/projections.js";
import type { ProtocolModel } from "../../model/types.js";
import { provenanceLines } from "../../print/provenance.js";
import { finish } from "../../print/text.js";
import { inNamespace } from "./language.js";
import { regenerateCommand } from "./provenance.js";

/** A JSON value as a Ruby literal (a JSON string literal is a Ruby one: `"\u0000"`, `"\n"`; string keys). */
export function rubyLiteral(value: unknown): string {
  if (value === null || value === undefined) return "nil";
  if (typeof value === "boolean" || typeof value === "number") return String(value);
  if (typeof value === "string") return JSON.stringify(value).replace(/#(?=[{$@])/g, "\\#");
  if (Array.isArray(value)) return `[${value.map(rubyLiteral).join(", ")}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  return entries.length === 0 ? "{}" : `{ ${entries.map(([k, v]) => `${rubyLiteral(k)} => ${rubyLiteral(v)}`).join(", ")} }`;
}

function versionLiteral(v: VersionProjections): string {
  const map = (o: Record<string, unknown>) => `{\n${Object.entries(o).map(([k, x]) => `        ${rubyLiteral(k)} => ${rubyLiteral(x)},`).join("\n")}\n      }`;
  return [
    "{",
    `      "label" => ${rubyLiteral(v.label)},`,
    `      "definitions" => ${map(v.definitions)},`,
    `      "results" => ${map(v.results as Record<string, unknown>)},`,
    `      "params" => ${map(v.params)},`,
    `      "serverCapabilities" => ${rubyLiteral(v.serverCapabilities)},`,
    "    }",
  ].join("\n");
}

export function rubyProjectionsModule(model: ProtocolModel, namespace: string[], root: string): string {
  const header = provenanceLines(model.versions, regenerateCommand(model.versions, namespace.join("::"), root)).map((l) => `# ${l}`);
  const { versions } = buildProjections(model);
  const body = [
    "# Every version's projection shapes (issue 41): what a result or params value of another version becomes at",
    "# that version, decided from the schemas by the generator. Projection (projection.rb) interprets them:",
    '# `Projection.project_result(Projections::BY_VERSION["<version>"], method, value)`.',
    "module Projections",
    "  # The generated versions in protocol order, the newest last: legacy before modern, dated labels by date",
    "  # within an era, labels that are no date (`draft`) after them by label (generator/model/projections.ts).",
    `  ORDER = ${rubyLiteral(versions.map((v) => v.label))}.freeze`,
    "",
    "  # label => the version's shapes (definitions, results with their defaults, params, server capabilities).",
    "  BY_VERSION = {",
    ...versions.map((v) => `    ${rubyLiteral(v.label)} => ${versionLiteral(v)},`),
    "  }.freeze",
    "end",
  ].join("\n");
  return finish(["# frozen_string_literal: true", ...header, "", inNamespace(namespace, body)].join("\n"));
}
