// Markdown views of the diffs, for people. Layout is in templates/*.md.hbs; this file only turns
// entries into table cells.
import type { VersionModel } from "../model/types.js";
import { cell, code } from "../print/markdown.js";
import type { Templates } from "../print/templates.js";
import { template } from "./templates.js";
import type { ApiDiff } from "../diff/api.js";
import type { VersionDiff } from "../diff/version.js";

const yesNo = (b: boolean) => (b ? "**yes**" : "no");

function tidy(text: string): string {
  return text.replace(/[ \t]+$/gm, "").replace(/\n{3,}/g, "\n\n").replace(/\n*$/, "\n");
}

export interface MarkdownOptions {
  /** Open with the provenance header of generated files (for the committed generated/DIFFS reports). */
  generated?: { versions: VersionModel[] };
  /** The templates of the run printing the report (default: the shared templates, uncached). */
  templates?: Templates;
}

export function versionDiffMarkdown(diff: VersionDiff, options: MarkdownOptions = {}): string {
  const s = diff.summary;
  const leaves = {
    methods: diff.methods,
    normalizers: diff.normalizers,
    definitions: diff.definitions.flatMap((d): Array<{ breaking: boolean }> => (d.change === "changed" ? d.properties : [d])),
  };
  const row = (name: string, counts: { added: number; removed: number; changed: number }, entries: Array<{ breaking: boolean }>) => ({
    name,
    ...counts,
    breaking: entries.filter((e) => e.breaking).length,
    nonBreaking: entries.filter((e) => !e.breaking).length,
  });
  const summary = [
    row("methods", s.methods, leaves.methods),
    { ...row("normalizers", { added: 0, removed: 0, changed: s.normalizers.changed }, leaves.normalizers), added: "—", removed: "—" },
    row("definitions", s.definitions, leaves.definitions),
    { name: "**all entries**", added: "", removed: "", changed: "", breaking: `**${s.breaking}**`, nonBreaking: `**${s.nonBreaking}**` },
  ];
  const context = {
    generated: options.generated !== undefined,
    versions: options.generated?.versions ?? [],
    from: diff.from,
    to: diff.to,
    summary,
    methods: diff.methods.map((m) => ({
      method: code(m.method),
      kind: m.kind,
      change: m.change,
      from: code(m.from),
      to: code(m.to),
      breaking: yesNo(m.breaking),
      reason: cell(m.reason),
    })),
    normalizers: diff.normalizers.map((n) => ({
      method: code(n.method),
      change: cell(`${n.from ?? "added"} → ${n.to ?? "removed"}`),
      breaking: yesNo(n.breaking),
      reason: cell(n.reason),
    })),
    definitions: diff.definitions.map((d) => ({ definition: code(d.definition), change: d.change, breaking: yesNo(d.breaking), reason: cell(d.reason) })),
    properties: diff.definitions.flatMap((d) =>
      d.properties.map((p) => ({
        definition: code(d.definition),
        property: p.property === null ? "(definition)" : code(p.property),
        change: p.change,
        from: code(p.from),
        to: code(p.to),
        breaking: yesNo(p.breaking),
        reason: cell(p.reason),
      })),
    ),
    errata: {
      compared: diff.errata.compared,
      changes: diff.errata.changes.map((e) => ({
        change: { brought: "brought", gone: "gone", status: "status changed" }[e.change],
        kind: e.kind,
        pointer: code(e.pointer),
        schemaJson: code(e.schemaJson),
        schemaTs: `${code(e.schemaTs)} (line ${e.line})`,
        status: cell(`${e.from ?? "—"} → ${e.to ?? "—"}`),
      })),
    },
  };
  return tidy((options.templates?.get("version-diff.md.hbs") ?? template("version-diff.md.hbs"))(context));
}

export function apiDiffMarkdown(diff: ApiDiff): string {
  const context = {
    old: diff.old,
    new: diff.new,
    summary: diff.versions.map((v) => ({
      version: code(v.version),
      change: v.change,
      added: v.summary.added,
      removed: v.summary.removed,
      changed: v.summary.changed,
      breaking: v.summary.breaking,
    })),
    versions: diff.versions
      .filter((v) => v.symbols.length > 0)
      .map((v) => ({
        version: v.version,
        symbols: v.symbols.map((x) => ({
          name: code(x.name),
          change: x.change,
          kind: cell(x.from?.kind === x.to?.kind || x.from === null || x.to === null ? (x.to ?? x.from)!.kind : `${x.from.kind} → ${x.to.kind}`),
          from: code(x.from?.type ?? null),
          to: code(x.to?.type ?? null),
          breaking: yesNo(x.breaking),
          reason: cell(x.reason),
        })),
      })),
  };
  return tidy(template("api-diff.md.hbs")(context));
}
