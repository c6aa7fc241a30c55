// The library's commands (generator/commands.ts): the targets of a run and their options are resolved
// once, with the misuse of an option named by the spelling given; emitTree takes resolved options as
// they are. (The commands' end-to-end behaviour is held by the CLI tests, which run them through main.)
import { describe, expect, it } from "vitest";
import { emitTree, InputError, resolveTargets, targets, UsageError, type ProjectPaths, type Target } from "../generator/index.js";
import { buildProtocolFacts } from "../generator/model/protocol.js";
import type { ProtocolModel } from "../generator/model/types.js";
import { protocolFactsFile } from "../generator/paths.js";
import { readProtocolFacts } from "../generator/source/protocol-facts.js";
import { tempDir } from "./support.js";

/** A model of no versions (the counting target reads none of it). */
function emptyModel(): ProtocolModel {
  return { versions: [], tables: new Map(), protocol: buildProtocolFacts({ versions: [] }, readProtocolFacts(protocolFactsFile)) };
}

/** A throwaway target with one option whose validator records every value it is asked about. */
function countingTarget(seen: string[]): Target {
  return {
    name: "counting",
    folder: "counting",
    options: [{ flag: "counting-name", aliases: ["count-as"], default: "plain", description: "a name", validate: (v) => (seen.push(v), v === "bad" ? 'must not be "bad"' : null) }],
    async emit(_model, context) {
      return new Map([["options.json", JSON.stringify(context.options) + "\n"]]);
    },
    recognizes: (paths) => paths.includes("options.json"),
    sources: [],
  };
}

/** A project folder without a package.json target list: the first target of a registry is the default. */
function project(): ProjectPaths {
  const root = tempDir();
  return { root } as ProjectPaths;
}

describe("resolveTargets", () => {
  it("validates each given value once, applies the defaults, and emitTree does not validate them again", async () => {
    const seen: string[] = [];
    const registry = targets.with(countingTarget(seen));
    const run = resolveTargets(project(), ["counting"], { "count-as": "mine" }, registry);
    expect(run.targets.map((t) => t.name)).toEqual(["counting"]);
    expect(run.options.byFlag).toEqual({ "counting-name": "mine" });
    expect(seen).toEqual(["mine"]);
    const files = await emitTree(emptyModel(), { targets: ["counting"], options: run.options, registry });
    expect(files.get("options.json")).toBe('{"counting-name":"mine"}\n');
    expect(seen).toEqual(["mine"]);
    // A plain record given to emitTree is resolved there, once: its default is checked like a given value.
    await emitTree(emptyModel(), { targets: ["counting"], options: {}, registry });
    expect(seen).toEqual(["mine", "plain"]);
  });

  it("names the spelling given when a value is refused, and refuses an option of a target not run", () => {
    const registry = targets.with(countingTarget([]));
    const refused = (() => {
      try {
        resolveTargets(project(), ["counting"], { "count-as": "bad" }, registry);
      } catch (e) {
        return e;
      }
    })();
    expect(refused).toBeInstanceOf(UsageError);
    expect(refused).toBeInstanceOf(InputError);
    expect((refused as Error).message).toBe('--count-as must not be "bad"');
    expect(() => resolveTargets(project(), ["typescript"], { "counting-name": "x" }, registry)).toThrow("--counting-name applies to the counting target");
    expect(() => resolveTargets(project(), ["counting"], { "counting-name": "x", "count-as": "y" }, registry)).toThrow("--counting-name is given twice (--counting-name, --count-as)");
    expect(() => resolveTargets(project(), ["nope"], {}, registry)).toThrow(/unknown --target "nope"; expected: .*counting/);
  });
});
