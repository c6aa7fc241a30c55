// The Ruby target's hand-written Ruby (generator/emit/ruby/*.rb: the runtime, the gate, the Methods
// helpers) is real source, checked by Ruby itself, and the generated tree carries it as written.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { rubyGateSource, rubyMethodsSource, rubySourceDir } from "../../../generator/emit/ruby/paths.js";
import { ruby, rubyTree } from "./support.js";

const sources = readdirSync(rubySourceDir).filter((f) => f.endsWith(".rb")).sort();
const indented = (lines: string[], by: string) => lines.map((l) => (l === "" ? "" : by + l));

describe("the Ruby target's own Ruby", () => {
  it("is runtime.rb, gate.rb and methods.rb", () => {
    expect(sources).toEqual(["gate.rb", "methods.rb", "runtime.rb"]);
  });

  it.each(sources)("%s: `ruby -wc` says Syntax OK, with no warning", (file) => {
    const r = ruby(["-wc", path.join(rubySourceDir, file)], { loadPath: [] });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("Syntax OK\n");
    expect(r.status).toBe(0);
  });

  it("gate.rb of the generated tree is the source's class, inside the namespace, its example naming the latest version", () => {
    const source = readFileSync(rubyGateSource, "utf8").split("\n");
    const body = source.slice(source.indexOf("", 2) + 1, source.lastIndexOf("end") + 1);
    const generated = readFileSync(path.join(rubyTree, "mcp_codegen", "gate.rb"), "utf8");
    const latest = [...generated.matchAll(/^# Protocol version (\S+) /gm)].map((m) => m[1]).pop()!;
    const expected = indented(body, "  ").join("\n").replace('"<latest version>"', JSON.stringify(latest));
    expect(generated).toContain(`module McpCodegen\n${expected}\nend\n`);
  });

  it("methods.rb of the generated tree holds the source's helpers after the method constants", () => {
    const source = readFileSync(rubyMethodsSource, "utf8").replace(/\n$/, "").split("\n");
    const helpers = source.slice(source.indexOf("module Methods") + 1, -1);
    const generated = readFileSync(path.join(rubyTree, "mcp_codegen", "methods.rb"), "utf8");
    expect(generated).toContain(`\n\n${indented(helpers, "  ").join("\n")}\n  end\nend\n`);
    expect(generated).toMatch(/^ {4}PING +=\s"ping"$/m);
  });
});
