// The recipe that adopts the Ruby tree in the Ruby SDK (gem `mcp` 1.3.0): ADOPTING.md and the
// patch against the SDK, hand-written beside this file and copied into every Ruby tree as they are.
import { readFileSync } from "node:fs";
import path from "node:path";
import { adoptingSourceDir } from "./paths.js";

/** The recipe's files: name in the tree → text. */
export const ADOPTING_FILES = ["ADOPTING.md", "ruby-sdk-1.3.0.patch"] as const;

export function adoptingFiles(): Map<string, string> {
  return new Map(ADOPTING_FILES.map((f) => [f, readFileSync(path.join(adoptingSourceDir, f), "utf8")]));
}
