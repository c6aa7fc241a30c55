// Markdown table cells, shared by every emitter that writes tables for people.

/** Text inside a table cell: a `|` must be escaped even within a code span; no line breaks. */
export function cell(text: string): string {
  return text.replace(/\r?\n/g, " ").replaceAll("|", "\\|");
}

/** A code span in a table cell (`null` renders as an em dash). */
export function code(text: string | null): string {
  if (text === null || text === "") return "—";
  const t = text.replace(/\r?\n/g, " ");
  const fence = t.includes("`") ? "``" : "`";
  const pad = t.startsWith("`") || t.endsWith("`") ? " " : "";
  return cell(`${fence}${pad}${t}${pad}${fence}`);
}
