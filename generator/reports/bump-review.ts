// The part of a bump review report that is the bump's own, not the version diff's: what became of the
// reviewed patches of the old bytes (carried to the new bytes, or reopened with the pointer whose
// expected value moved) and a proposed capability entry per method the reviewed data has no entry
// for. Data here (`BumpReview`, the `review` member of the JSON report); layout in
// templates/bump-review.md.hbs.
import type { ProposedCapabilityEntry } from "../model/capabilities.js";
import type { PatchCarry } from "../source/patch.js";
import { cell, code } from "../print/markdown.js";
import type { Templates } from "../print/templates.js";
import { template } from "./templates.js";

export interface BumpReview {
  patches: {
    /** The reviewed patch file of the old bytes (its name in schemas/patches/), or null when they had none. */
    from: string | null;
    /** The patch file of the new bytes the carried patches are written to, or null when none is carried. */
    to: string | null;
    /** Each patch of `from`, in order. */
    outcomes: PatchCarry[];
  };
  /** Methods the reviewed capability data has no entry for, each with a proposed entry. */
  capabilities: ProposedCapabilityEntry[];
}

/** Whether the review holds anything a person must act on: a reopened patch or a capability entry to add. */
export function needsReview(review: BumpReview): boolean {
  return review.patches.outcomes.some((o) => o.status === "reopened") || review.capabilities.length > 0;
}

/** Why a patch was not carried, in one line. */
export function reopenedReason(o: Extract<PatchCarry, { status: "reopened" }>): string {
  if (o.reason === "no test") return "it has no `test` operation to carry it by (review it against the new bytes, and start it with a test of what it corrects)";
  if (o.reason === "does not apply") return `its tests hold but it does not apply: nothing at ${o.pointer}`;
  const found = Object.hasOwn(o, "found") ? JSON.stringify(o.found) : "nothing";
  return `its test at ${o.pointer} expected ${JSON.stringify(o.expected)}, the new bytes have ${found}`;
}

export function bumpReviewMarkdown(review: BumpReview, templates?: Templates): string {
  const context = {
    from: review.patches.from,
    to: review.patches.to,
    patches: review.patches.outcomes.map((o) => ({
      name: code(o.name),
      status: o.status,
      pointer: code(o.status === "reopened" ? o.pointer : null),
      detail: cell(o.status === "carried" ? "its tests hold on the new bytes" : reopenedReason(o)),
    })),
    capabilities: review.capabilities.map((p) => ({
      method: p.method,
      kind: p.kind,
      definitions: p.definitions.join(", "),
      added: p.added.length === 0 ? "none" : p.added.map((a) => `\`${a}\``).join(", "),
      entry: JSON.stringify({ [p.method]: p.entry }, null, 2),
    })),
  };
  const text = (templates?.get("bump-review.md.hbs") ?? template("bump-review.md.hbs"))(context);
  return text.replace(/[ \t]+$/gm, "").replace(/\n{3,}/g, "\n\n").replace(/\n*$/, "\n");
}
