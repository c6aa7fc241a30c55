// A throwaway fourth target built from the method table alone (test/emit/fixtures/gate-json: a gate as
// a JSON lookup, no rule code), generated and checked by the real CLI beside the shipped targets' registry,
// gives the verdicts the shipped gates give (the TypeScript gate here; test/emit/gate-verdicts.test.ts
// holds the Ruby and Python gates to it) for every version, method and side.
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { main } from "../../generator/cli.js";
import { targets } from "../../generator/emit/targets.js";
import { gateJsonTarget } from "./fixtures/gate-json/index.js";
import { ensureSchemas, generatedDir, root, specDir, tempDir } from "../support.js";

beforeAll(ensureSchemas);

async function run(args: string[]) {
  let stderr = "";
  const status = await main(args, { stdout: { write: () => true }, stderr: { write: (t: string) => (stderr += t) }, cwd: root, env: { ...process.env, MCP_SPEC_DIR: specDir } }, targets.with(gateJsonTarget()));
  return { status, stderr };
}

/** What a lookup entry means under the policy that refuses custom and later methods: the reason, or null to serve. */
const REASON: Record<string, string | null> = { serve: null, wrong_side: "wrong_side", removed: "removed", other_era: "other_era", unknown: "unknown" };

describe("a gate printed as a JSON lookup from the table alone", () => {
  it("is generated and checked by the CLI, and agrees with the TypeScript gate for every version, method and side", async () => {
    const out = path.join(tempDir(), "gate");
    const r = await run(["generate", "--target", "gate-json", "--out", out, "--no-cache"]);
    expect(r.status, r.stderr).toBe(0);
    expect((await run(["generate", "--target", "gate-json", "--out", out, "--no-cache", "--check"])).status).toBe(0);
    const { gates } = JSON.parse(readFileSync(path.join(out, "gate.json"), "utf8")) as { gates: Record<string, Record<"client" | "server", Record<string, string>>> };
    const gate = (await import(pathToFileURL(path.join(generatedDir, "runtime", "method-gate.ts")).href)) as typeof import("../../generated/runtime/method-gate.js");
    let compared = 0;
    for (const [label, sides] of Object.entries(gates)) {
      const { METHOD_TABLE, protocolVersion } = (await import(pathToFileURL(path.join(generatedDir, label, "methods.ts")).href)) as { METHOD_TABLE: Record<string, never>; protocolVersion: string };
      for (const side of ["client", "server"] as const) {
        expect(Object.keys(sides[side]).sort(), label).toEqual(Object.keys(METHOD_TABLE).sort());
        for (const [method, entry] of Object.entries(sides[side])) {
          expect(gate.methodRefusal(METHOD_TABLE, method, protocolVersion, side, { custom: "refuse", later: "refuse" })?.data.reason ?? null, `${label} ${method} ${side}`).toBe(REASON[entry]);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(0);
  });
});
