// The command line stands on the library alone: cli.ts and bin.ts import nothing of the tool but its
// public API (generator/index.ts), the errors and the build stamp; and the writer knows files, not
// targets (it imports nothing of emit/). The graph is madge's, type-only and dynamic imports included.
import path from "node:path";
import madge from "madge";
import { describe, expect, it } from "vitest";
import { root } from "../support.js";

type Graph = Record<string, string[]>;

async function graphOf(dir: string): Promise<Graph> {
  return (await madge(dir, { fileExtensions: ["ts"], tsConfig: path.join(root, "tsconfig.json") })).obj();
}

/** Every file `from` reaches without going through `through` (the files imported through it not followed). */
function reachedBefore(graph: Graph, from: string, through: string): string[] {
  const seen = new Set<string>();
  const visit = (f: string) => {
    for (const to of graph[f] ?? []) {
      if (seen.has(to)) continue;
      seen.add(to);
      if (to !== through) visit(to);
    }
  };
  visit(from);
  return [...seen].sort();
}

describe("the CLI and the library", () => {
  it("cli.ts imports only the library's API (index.ts)", async () => {
    const graph = await graphOf(path.join(root, "generator"));
    expect(graph["cli.ts"]).toEqual(["index.ts"]);
  });

  it("bin.ts imports only the build stamp and the CLI, and the stamp no layer of the tool", async () => {
    const graph = await graphOf(path.join(root, "generator"));
    expect([...graph["bin.ts"]].sort()).toEqual(["build-stamp.ts", "cli.ts"]);
    // The build stamp reaches only the file helpers: no layer of the tool.
    expect(reachedBefore(graph, "build-stamp.ts", "")).toEqual(["files.ts", ...graph["files.ts"]].sort());
  });

  it("the library's API holds the commands the CLI runs", async () => {
    const api = await import("../../generator/index.js");
    for (const name of ["generate", "check", "bump", "rehearseBump", "pinLock", "bumpExtensions", "syncSpec", "diffVersionsText", "diffTreesText", "errataText", "methodTableText"]) {
      expect(typeof (api as Record<string, unknown>)[name], name).toBe("function");
    }
  });

  it("the writer imports nothing of the targets (emit/)", async () => {
    const graph = await graphOf(path.join(root, "generator"));
    expect(graph["writer.ts"].filter((f) => f.startsWith("emit/"))).toEqual([]);
    expect(reachedBefore(graph, "writer.ts", "").filter((f) => f.startsWith("emit/"))).toEqual([]);
  });
});
