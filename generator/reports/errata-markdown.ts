// Errata as text for people: the table of a version's findings (MATRIX.md and `mcp-codegen errata`),
// its counts, and the JSON `mcp-codegen errata --format json` prints. Findings come from the model
// (VersionModel.errata, generator/model/errata.ts); this file only lays them out.
import type { VersionErratum } from "../model/errata.js";
import type { ProtocolModel, VersionModel } from "../model/types.js";
import { cell, code } from "../print/markdown.js";
import { template } from "./templates.js";

/** `2 fixed · 21 reviewed · 1 open`, `none`, or that the version has no schema.ts to compare with. */
export function errataCounts(v: VersionModel): string {
  if (!v.errata) return "no schema.ts";
  if (v.errata.length === 0) return "none";
  const n = (status: VersionErratum["status"]) => v.errata!.filter((e) => e.status === status).length;
  return `${n("fixed")} fixed · ${n("reviewed")} reviewed · ${n("open")} open`;
}

/**
 * Per version: its label, counts and table rows (status with the patch or the number of the reason,
 * kind, pointer, what each file says); and the reviewed reasons, once each, numbered.
 */
export function errataSections(model: ProtocolModel) {
  const reasons: string[] = [];
  const reasonNumber = (why: string) => (reasons.includes(why) ? reasons.indexOf(why) : reasons.push(why) - 1) + 1;
  const versions = model.versions.map((v) => ({
    label: v.label,
    counts: errataCounts(v),
    hasSchemaTs: !!v.errata,
    rows: (v.errata ?? []).map((e) => ({
      status: e.status === "fixed" ? `fixed by ${code(e.by)}` : e.status === "reviewed" ? `reviewed [${reasonNumber(e.by!)}]` : "**open**",
      kind: e.kind,
      pointer: code(e.pointer),
      schemaJson: code(e.schemaJson),
      schemaTs: `${code(e.schemaTs)} (line ${e.line})`,
    })),
  }));
  return { versions, reasons: reasons.map((text, i) => ({ number: i + 1, text: cell(text) })) };
}

/** Every version's findings as Markdown tables, with the reviewed reasons (MATRIX.md's Errata section). */
export function errataTables(model: ProtocolModel): string {
  return template("errata-table.md.hbs")(errataSections(model));
}

/** What `mcp-codegen errata` prints as Markdown: every version's findings, and patch files that apply to no version. */
export function errataMarkdown(model: ProtocolModel, stalePatches: readonly string[]): string {
  return template("errata.md.hbs")({ table: errataTables(model), stalePatches });
}

/** `mcp-codegen errata --format json`. */
export function errataJson(model: ProtocolModel, stalePatches: readonly string[]): string {
  const versions = model.versions.map((v) => ({ label: v.label, sha256: v.sha256, patches: v.patches, schemaTs: !!v.errata, findings: v.errata ?? [] }));
  return JSON.stringify({ format: "mcp-codegen/errata", formatVersion: 1, versions, stalePatches }, null, 2) + "\n";
}
