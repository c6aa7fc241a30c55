// Pages other branches add (issue 36's docs layout): the README's "Read on" list and docs/README.md link to
// them already. A link to one of these may not resolve yet; remove each entry once its page exists
// (test/docs/docs.test.ts then fails on any entry whose page is there, so the list cannot go stale).
export const PENDING_PAGES: readonly string[] = [];
