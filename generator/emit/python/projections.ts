// The Python tree's projections.py: the model's projection data of every version (issue 41), printed as
// one dict literal keyed by version label in protocol order (one line per definition and method), with that
// order as ORDER; the runtime's projection.py interprets it.
import { buildProjections, type VersionProjections } from "../../model/projections.js";
import type { ProtocolModel } from "../../model/types.js";

/** A JSON value as a Python literal (JSON's string escapes are Python's). */
export function pyLiteral(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number" || typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pyLiteral).join(", ")}]`;
  return `{${Object.entries(value as Record<string, unknown>).map(([k, v]) => `${JSON.stringify(k)}: ${pyLiteral(v)}`).join(", ")}}`;
}

function versionLiteral(v: VersionProjections): string {
  const map = (o: Record<string, unknown>) => `{\n${Object.entries(o).map(([k, x]) => `            ${JSON.stringify(k)}: ${pyLiteral(x)},`).join("\n")}\n        }`;
  return [
    "{",
    `        "label": ${JSON.stringify(v.label)},`,
    `        "definitions": ${map(v.definitions)},`,
    `        "results": ${map(v.results as Record<string, unknown>)},`,
    `        "params": ${map(v.params)},`,
    `        "serverCapabilities": ${pyLiteral(v.serverCapabilities)},`,
    "    }",
  ].join("\n");
}

export function projectionsModule(model: ProtocolModel, header: string, pkg: string): string {
  const { versions } = buildProjections(model);
  const body = versions.map((v) => `    ${JSON.stringify(v.label)}: ${versionLiteral(v)},`).join("\n");
  return [
    `${header}"""Every version's projection shapes (issue 41): what a result or params value of another version becomes`,
    `at that version, decided from the schemas by the generator. ${pkg}.projection interprets them:`,
    "``project_result(PROJECTIONS[\"<version>\"], method, value)``.",
    '"""',
    "",
    "from typing import Any",
    "",
    `ORDER: tuple[str, ...] = (${versions.map((v) => JSON.stringify(v.label)).join(", ")}${versions.length === 1 ? "," : ""})`,
    '"""The generated versions in protocol order, the newest last: legacy before modern, dated labels by date',
    "within an era, labels that are no date (``draft``) after them by label (generator/model/projections.ts).",
    '"""',
    "",
    "PROJECTIONS: dict[str, dict[str, Any]] = {",
    body,
    "}",
    "",
  ].join("\n");
}
