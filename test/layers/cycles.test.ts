// Layering: source → model → diff data → emit → writer → pipeline/bump → CLI, with no import cycle
// between files or between folders of generator/. The graph comes from madge (type-only and dynamic
// imports included), not from a parser of our own.
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import madge from "madge";
import { describe, expect, it } from "vitest";
import { root, tempDir } from "../support.js";

type Graph = Record<string, string[]>;

/** The target folders under generator/emit/ (each a target: see generator/emit/registry.ts). */
const targetFolders = readdirSync(path.join(root, "generator", "emit"), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

async function graphOf(dir: string): Promise<{ graph: Graph; circular: string[][] }> {
  const result = await madge(dir, { fileExtensions: ["ts"], tsConfig: path.join(root, "tsconfig.json") });
  return { graph: result.obj(), circular: result.circular() };
}

/**
 * Each first-level folder one unit (`source/`), each top-level file its own. The emitters' folder is a
 * layer of its own: each target folder (`emit/typescript/`) is a unit, each of its shared files its own.
 */
function unit(f: string): string {
  const parts = f.split("/");
  if (parts.length === 1) return f;
  if (parts[0] === "emit") return parts.length === 2 ? f : `emit/${parts[1]}/`;
  return `${parts[0]}/`;
}

function folderGraph(graph: Graph): Graph {
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
    expect(graph["cli.ts"]).toContain("source/lock.ts");
    expect(circular).toEqual([]);
  });

  it("have no cycle between folders", async () => {
    const { graph } = await graphOf(path.join(root, "generator"));
    const folders = folderGraph(graph);
    // The graph is read (a target folder imports the model it prints).
    expect(folders["emit/typescript/"]).toContain("model/");
    // Every target folder is a unit of the graph.
    expect(targetFolders.length).toBeGreaterThan(1);
    for (const target of targetFolders) expect(Object.keys(folders)).toContain(`emit/${target}/`);
    expect(cycles(folders)).toEqual([]);
  });

  it("a target's folder is imported by the registry alone, and imports no other target", async () => {
    const { graph } = await graphOf(path.join(root, "generator"));
    const targetOf = (f: string) => (/^emit\/[^/]+\//.test(f) ? f.split("/")[1] : null);
    const edges = Object.entries(graph).flatMap(([from, tos]) => tos.map((to) => ({ from, to })));
    const intoTargets = edges.filter(({ from, to }) => targetOf(to) !== null && targetOf(from) !== targetOf(to));
    // The registry imports each target's index.ts; nothing else crosses into a target's folder.
    expect(intoTargets.filter(({ from }) => from !== "emit/registry.ts").map(({ from, to }) => `${from} → ${to}`)).toEqual([]);
    expect(intoTargets.every(({ to }) => to.endsWith("/index.ts"))).toBe(true);
    expect([...new Set(intoTargets.map(({ to }) => targetOf(to)))].sort()).toEqual(targetFolders);
  });

  it("source/ imports nothing above it", async () => {
    const { graph } = await graphOf(path.join(root, "generator"));
    const above = Object.entries(graph)
      .filter(([from]) => from.startsWith("source/"))
      .flatMap(([from, tos]) => tos.filter((t) => !t.startsWith("source/") && !["errors.ts", "files.ts", "order.ts"].includes(t)).map((t) => `${from} → ${t}`));
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
