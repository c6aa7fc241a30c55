// JSON pointers (generator/errors.ts): escaped and unescaped in one place (RFC 6901), used by the loader,
// the errata, the schema.ts facts and every error message. The TypeScript runtime copied into generated
// trees keeps its own copy (runtimes/typescript/src/schema-support.ts): a generated package imports nothing of the generator.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { InputError, parsePointer, pointer, pointerToken, unescapePointerToken } from "../generator/errors.js";
import { root } from "./support.js";

describe("JSON pointers", () => {
  it("escape ~ before / and unescape / before ~ (RFC 6901's examples)", () => {
    expect(pointer("$defs", "a/b", "m~n", 0)).toBe("/$defs/a~1b/m~0n/0");
    expect(pointerToken("~1")).toBe("~01");
    expect(unescapePointerToken("~01")).toBe("~1");
    for (const token of ["", "a/b", "m~n", "~1", "~0/~", "plain"]) expect(parsePointer(pointer(token))).toEqual([token]);
    expect(parsePointer("")).toEqual([]);
  });

  it("an InputError names its file and pointer", () => {
    expect(new InputError("bad", "schema.json", pointer("$defs", "a/b")).message).toBe("schema.json#/$defs/a~1b: bad");
  });

  it("are escaped nowhere else in generator/, and in the self-contained TypeScript runtime only by its schema-support.ts", () => {
    const files = ["generator", path.join("runtimes", "typescript", "src")]
      .flatMap((dir) => readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile() && e.name.endsWith(".ts"))
      .map((e) => path.relative(root, path.join(e.parentPath, e.name)));
    const escaping = files.filter((f) => /replace\(\/~\/g, "~0"\)|replace\(\/~1\/g, "\/"\)/.test(readFileSync(path.join(root, f), "utf8")));
    expect(escaping.sort()).toEqual(["generator/errors.ts", "runtimes/typescript/src/schema-support.ts"]);
  });
});
