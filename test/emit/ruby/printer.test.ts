// The Ruby runtime (runtimes/ruby/*.rb: the runtime, the gate, the Methods helpers) is real source,
// checked by Ruby itself, and the generated tree carries it as written.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { rubyGateSource, rubyMethodsSource, rubyRuntimeDir } from "../../../generator/emit/ruby/paths.js";
import { ruby, rubyTree } from "./support.js";

const sources = readdirSync(rubyRuntimeDir).filter((f) => f.endsWith(".rb")).sort();
const indented = (lines: string[], by: string) => lines.map((l) => (l === "" ? "" : by + l));

describe("the Ruby runtime (runtimes/ruby/)", () => {
  it("is runtime.rb, gate.rb and methods.rb", () => {
    expect(sources).toEqual(["gate.rb", "methods.rb", "runtime.rb"]);
  });

  it.each(sources)("%s: `ruby -wc` says Syntax OK, with no warning", (file) => {
    const r = ruby(["-wc", path.join(rubyRuntimeDir, file)], { loadPath: [] });
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe("Syntax OK\n");
    expect(r.status).toBe(0);
  });

  it("gate.rb of the generated tree is the source's requires, then the rest of the source inside the namespace, nothing replaced", () => {
    const source = readFileSync(rubyGateSource, "utf8").split("\n");
    const requires = ['require_relative "runtime"', 'require_relative "methods"'];
    expect(source.slice(0, 5)).toEqual(["# frozen_string_literal: true", "", ...requires, ""]);
    const body = source.slice(5, source.lastIndexOf("end") + 1);
    const generated = readFileSync(path.join(rubyTree, "mcp_codegen", "gate.rb"), "utf8");
    expect(generated).toContain(`# frozen_string_literal: true\n\n${requires.join("\n")}\n\nmodule McpCodegen\n${indented(body, "  ").join("\n")}\nend\n`);
    // The example reads the latest generated version from the tree (VERSIONS), so the copy names no version.
    expect(generated).toContain('gate.check!("ping", VERSIONS.keys.last)');
  });

  it("methods.rb of the generated tree holds the source's helpers after the method constants", () => {
    const source = readFileSync(rubyMethodsSource, "utf8").replace(/\n$/, "").split("\n");
    const helpers = source.slice(source.indexOf("module Methods") + 1, -1);
    const generated = readFileSync(path.join(rubyTree, "mcp_codegen", "methods.rb"), "utf8");
    expect(generated).toContain(`\n\n${indented(helpers, "  ").join("\n")}\n  end\nend\n`);
    expect(generated).toMatch(/^ {4}PING +=\s"ping"$/m);
  });
});
