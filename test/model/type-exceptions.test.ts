// The reviewed exceptions file is read like overrides.json: bad input is an InputError at its pointer.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { InputError } from "../../generator/errors.js";
import { readTypeExceptions } from "../../generator/model/type-exceptions.js";
import { tempDir } from "../support.js";

function read(content: unknown): unknown {
  const file = path.join(tempDir(), "exceptions.json");
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  try {
    return readTypeExceptions(file);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    // The message names the file it is about, then the pointer (what the CLI prints).
    expect(e.file).toBe(file);
    expect(e.message.startsWith(`${file}#${e.pointer}: `)).toBe(true);
    return { error: e.pointer, message: e.message };
  }
}

it("reads version → definition → reason, and nothing from a file that does not exist", () => {
  expect(read({ versions: { v1: { A: "because" } } })).toEqual({ v1: { A: "because" } });
  expect(readTypeExceptions(path.join(tempDir(), "absent.json"))).toEqual({});
});

it("names the pointer of what is wrong", () => {
  expect(read("{")).toMatchObject({ error: "" });
  expect(read({ version: {} })).toMatchObject({ error: "/versions" });
  expect(read({ versions: { v1: [] } })).toMatchObject({ error: "/versions/v1" });
  expect(read({ versions: { v1: { "a/b": " " } } })).toMatchObject({ error: "/versions/v1/a~1b" });
  expect(read({ versions: { v1: { A: 1 } } })).toMatchObject({ error: "/versions/v1/A" });
});
