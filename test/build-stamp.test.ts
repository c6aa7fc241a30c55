// dist/ is rebuilt when the sources it was built from change: the stamp is a hash of every generator
// source and the compiler settings, and nothing else.
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sourceHash } from "../generator/build-stamp.js";
import { tempDir } from "./support.js";

function checkout(): string {
  const root = tempDir();
  mkdirSync(path.join(root, "generator", "spec"), { recursive: true });
  writeFileSync(path.join(root, "generator", "cli.ts"), "export {};\n");
  writeFileSync(path.join(root, "generator", "spec", "lock.ts"), "export const a = 1;\n");
  writeFileSync(path.join(root, "tsconfig.json"), "{}\n");
  writeFileSync(path.join(root, "tsconfig.build.json"), "{}\n");
  return root;
}

describe("sourceHash", () => {
  it("changes with any generator source or compiler setting, and only with them", () => {
    const root = checkout();
    const base = sourceHash(root);
    expect(sourceHash(root)).toBe(base);
    // Not a source: a README or a built file beside them.
    writeFileSync(path.join(root, "generator", "NOTES.md"), "x\n");
    expect(sourceHash(root)).toBe(base);
    const changes: Array<[string, string]> = [
      ["generator/spec/lock.ts", "export const a = 2;\n"],
      ["generator/new.ts", "export {};\n"],
      ["tsconfig.build.json", '{ "compilerOptions": {} }\n'],
    ];
    const seen = new Set([base]);
    for (const [rel, text] of changes) {
      writeFileSync(path.join(root, rel), text);
      const next = sourceHash(root);
      expect(seen.has(next), rel).toBe(false);
      seen.add(next);
    }
    // A file moved to another folder is another source.
    const moved = checkout();
    mkdirSync(path.join(moved, "generator", "emit"));
    renameSync(path.join(moved, "generator", "spec", "lock.ts"), path.join(moved, "generator", "emit", "lock.ts"));
    const original = checkout();
    expect(sourceHash(moved)).not.toBe(sourceHash(original));
  });
});
