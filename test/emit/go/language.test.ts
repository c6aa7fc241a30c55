// The Go printer's language rules (generator/emit/go/language.ts): module paths, package names, exported
// identifiers, string literals and comments.
import { describe, expect, it } from "vitest";
import { exported, goComment, goString, isModulePath, packageName, versionPackage } from "../../../generator/emit/go/language.js";

describe("Go names", () => {
  it.each(["mcpcodegen", "example.com/mcp/protocol", "github.com/acme/mcp-go", "a/b_c/d~e"])("%s is a module path", (p) => expect(isModulePath(p)).toBe(true));
  it.each(["", "Bad", "a//b", "/a", "a/", "a/./b", "func", "a b", "é"])("%j is no module path", (p) => expect(isModulePath(p)).toBe(false));

  it("a package is named by the path's last element, in identifier characters", () => {
    expect(packageName("example.com/mcp-proto")).toBe("mcp_proto");
    expect(packageName("mcpcodegen")).toBe("mcpcodegen");
    expect(packageName("example.com/9lives")).toBe("p9lives");
  });

  it("a version's package: v and the label's identifier characters; extension modules joined by _", () => {
    expect(versionPackage("2025-11-25")).toBe("v2025_11_25");
    expect(versionPackage("2026-07-28+tasks")).toBe("v2026_07_28_tasks");
    expect(versionPackage("draft")).toBe("draft");
    expect(versionPackage("My-Next")).toBe("my_next");
  });

  it("exported identifiers from any name", () => {
    expect(exported("logging/setLevel")).toBe("LoggingSetLevel");
    expect(exported("_meta")).toBe("Meta");
    expect(exported("JSONRPCMessage")).toBe("JSONRPCMessage");
    expect(exported("Record<string,string>")).toBe("RecordStringString");
    expect(exported("2x")).toBe("X2x");
    expect(exported("$")).toBe("X");
  });
});

describe("Go text", () => {
  it("a string literal holds exactly its text", () => {
    expect(goString('a"b\\c\n')).toBe('"a\\"b\\\\c\\n"');
    expect(goString("\u0000\u2028")).toBe('"\\u0000\\u2028"');
  });

  it("comments: every line behind //, empty lines as //, no trailing space", () => {
    expect(goComment("one\n\ntwo  \r\nthree", "\t")).toBe("\t// one\n\t//\n\t// two\n\t// three");
  });
});
