// The reports' projections section (issue 41): per method, what a handler written for the newest version
// (in protocol order, model/projections.ts) sends to each older version — the members dropped, the defaults added, what is refused — so a spec
// bump shows what it does to old clients. Printed from the model's projection data (model/projections.ts).
import { buildProjections, projectionSummary } from "../model/projections.js";
import type { ProtocolModel } from "../model/types.js";

const code = (items: readonly string[]) => (items.length === 0 ? "—" : items.map((i) => `\`${i}\``).join(", "));

/** The section as markdown (empty when the run has fewer than two versions). */
export function projectionsMarkdown(model: Pick<ProtocolModel, "versions">): string {
  const { versions } = buildProjections(model);
  if (versions.length < 2) return "";
  const newest = versions[versions.length - 1];
  const lines = [
    "## Projections",
    "",
    `What a handler written for the newest version (${newest.label}) sends to each older version when one handler set serves them all`,
    "(`createServerRouter({ handlers, versions: [...] })`): members of its result the older version does not declare are dropped,",
    "members it requires are supplied where the spec gives a default, and a value with no faithful counterpart is refused (an error",
    "naming the JSON pointer). Members are named by the definition declaring them; a method without a row sends its results unchanged.",
    "",
  ];
  for (const method of Object.keys(newest.results)) {
    const rows = versions
      .slice(0, -1)
      .reverse()
      .flatMap((v) => {
        const s = projectionSummary(newest, v, method);
        if (s === null || s.dropped.length + s.defaults.length + s.refusals.length === 0) return [];
        return [`| ${v.label} | ${code(s.dropped)} | ${code(s.defaults)} | ${code(s.refusals)} |`];
      });
    if (rows.length === 0) continue;
    lines.push(`### ${method}`, "", "| To | Dropped | Defaults added | Refused |", "|---|---|---|---|", ...rows, "");
  }
  return lines.join("\n");
}
