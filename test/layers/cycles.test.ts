// Layering: source → model → diff data → emit → writer → pipeline/bump/commands → index (the library) → CLI, with no import cycle
// between files or between folders of generator/. The graph comes from madge (type-only and dynamic
// imports included), not from a parser of our own.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import madge from "madge";
import { describe, expect, it } from "vitest";
import { root, tempDir } from "../support.js";

type Graph = Record<string, string[]>;

/** The target folders under generator/emit/ (each a target: see generator/emit/targets.ts). */
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
    // The graph is real: the library's commands reach the spec layer.
    expect(graph["commands.ts"]).toContain("source/lock.ts");
    expect(circular).toEqual([]);
  });

  it("have no cycle between folders", async () => {
    const { graph } = await graphOf(path.join(root, "generator"));
    const folders = folderGraph(graph);
    expect(folders["reports/"]).toContain("diff/");
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
    expect(intoTargets.filter(({ from }) => from !== "emit/targets.ts").map(({ from, to }) => `${from} → ${to}`)).toEqual([]);
    expect(intoTargets.every(({ to }) => to.endsWith("/index.ts"))).toBe(true);
    expect([...new Set(intoTargets.map(({ to }) => targetOf(to)))].sort()).toEqual(targetFolders);
  });

  it("the reports stage (reports/) imports no target, the shared printing (print/) neither targets nor reports, and no target imports reports/", async () => {
    const { graph } = await graphOf(path.join(root, "generator"));
    const edges = Object.entries(graph).flatMap(([from, tos]) => tos.map((to) => `${from} → ${to}`));
    expect(edges.filter((e) => /^reports\/.* → emit\//.test(e))).toEqual([]);
    expect(edges.filter((e) => /^print\/.* → (emit|reports)\//.test(e))).toEqual([]);
    expect(edges.filter((e) => /^emit\/[^/]+\/.* → reports\//.test(e))).toEqual([]);
    // The stage is real: the output stage runs it, and it prints with print/.
    expect(graph["emit/index.ts"]).toContain("reports/index.ts");
    expect(edges.some((e) => /^reports\/.* → print\//.test(e))).toBe(true);
  });

  it("model/ reads no file and calls no reader of source/: only the loaded form's vocabulary (refName, the keyword sets) and types", async () => {
    for (const file of readdirSync(path.join(root, "generator", "model")).filter((f) => f.endsWith(".ts"))) {
      const text = readFileSync(path.join(root, "generator", "model", file), "utf8");
      expect(text, file).not.toMatch(/from "node:fs(\/promises)?"/);
      // Besides types, what model/ takes from source/ is refName (source/load.ts, no loader) and the keyword sets.
      for (const m of text.matchAll(/^(?:import|export) (type )?\{([^}]*)\} from "\.\.\/source\/([^"]+)\.js";/gm)) {
        if (m[1] !== undefined) continue;
        const names = m[2].split(",").map((x) => x.trim()).filter((x) => x !== "" && !x.startsWith("type "));
        expect(names.every((n) => (m[3] === "load" && n === "refName") || (m[3] === "keywords" && /_KEYWORDS$/.test(n))), `${file}: ${m[0]}`).toBe(true);
      }
    }
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
