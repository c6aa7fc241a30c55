// Text rules every target's files share.

/** A printed file as written: no trailing spaces, at most one empty line in a row, one final newline. */
export function finish(text: string): string {
  return text.replace(/[ \t]+$/gm, "").replace(/\n{3,}/g, "\n\n").trimEnd() + "\n";
}
