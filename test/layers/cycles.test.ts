// Layering: spec → model → diff data → emit → writer → pipeline/bump → CLI, with no import cycle
// between files or between folders of generator/. The graph comes from madge (type-only and dynamic
// imports included), not from a parser of our own.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import madge from "madge";
import { describe, expect, it } from "vitest";
import { root, tempDir } from "../support.js";

type Graph = Record<string, string[]>;

async function graphOf(dir: string): Promise<{ graph: Graph; circular: string[][] }> {
  const result = await madge(dir, { fileExtensions: ["ts"], tsConfig: path.join(root, "tsconfig.json") });
  return { graph: result.obj(), circular: result.circular() };
}

/** Each first-level folder one unit (`spec/`), each top-level file its own. */
function folderGraph(graph: Graph): Graph {
  const unit = (f: string) => (f.includes("/") ? f.slice(0, f.indexOf("/") + 1) : f);
  const out: Graph = {};
  for (const [from, tos] of Object.entries(graph)) {
    const edges = (out[unit(from)] ??= []);
    for (const to of tos) if (unit(to) !== unit(from) && !edges.includes(unit(to))) edges.push(unit(to));
  }
  return out;
}

/** Every cycle found by depth-first search, each as the path that closes it. */
function cycles(graph: Graph): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (n: string) => {
    state.set(n, "open");
    stack.push(n);
    for (const m of graph[n] ?? []) {
      if (state.get(m) === "open") found.push([...stack.slice(stack.indexOf(m)), m]);
      else if (!state.has(m)) visit(m);
    }
    stack.pop();
    state.set(n, "done");
  };
  for (const n of Object.keys(graph).sort()) if (!state.has(n)) visit(n);
  return found;
}

describe("generator/ imports", () => {
  it("have no cycle between files", async () => {
    const { graph, circular } = await graphOf(path.join(root, "generator"));
    // The graph is real: the CLI reaches the spec layer.
    expect(graph["cli.ts"]).toContain("spec/lock.ts");
    expect(circular).toEqual([]);
  });

  it("have no cycle between folders", async () => {
    const { graph } = await graphOf(path.join(root, "generator"));
    const folders = folderGraph(graph);
    expect(folders["emit/"]).toContain("diff/");
    expect(cycles(folders)).toEqual([]);
  });

  it("spec/ imports nothing above it", async () => {
    const { graph } = await graphOf(path.join(root, "generator"));
    const above = Object.entries(graph)
      .filter(([from]) => from.startsWith("spec/"))
      .flatMap(([from, tos]) => tos.filter((t) => !t.startsWith("spec/") && !["errors.ts", "files.ts", "order.ts"].includes(t)).map((t) => `${from} → ${t}`));
    expect(above).toEqual([]);
  });

  it("the checks see a cycle when there is one (files and folders)", async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, "a"));
    mkdirSync(path.join(dir, "b"));
    writeFileSync(path.join(dir, "a", "x.ts"), 'import { y } from "../b/y.js";\nexport const x = () => y;\n');
    writeFileSync(path.join(dir, "b", "y.ts"), 'import type { Z } from "../a/z.js";\nexport const y: Z = 1;\n');
    writeFileSync(path.join(dir, "a", "z.ts"), "export type Z = number;\n");
    const { graph, circular } = await graphOf(dir);
    expect(circular).toEqual([]);
    expect(cycles(folderGraph(graph))).toEqual([["a/", "b/", "a/"]]);
    writeFileSync(path.join(dir, "a", "z.ts"), 'import { x } from "./x.js";\nexport type Z = ReturnType<typeof x>;\n');
    expect((await graphOf(dir)).circular.length).toBe(1);
  });
});
