// Every scored `auth/*` client scenario of both frozen requirement sets of the official conformance
// package (0.2.0-alpha.12, tools/conformance: requirements/<revision>.yaml, `client:`), each run at its
// revision's wire version exactly as `conformance client --requirements <revision>` runs it
// (`--spec-version <revision> --force`), with the client-auth driver over `conformanceFetch`: the
// generated runtime's OAuth. A scenario passes when the runner exits 0 with no failed and no warned check.
// Also the two not-scored extension scenarios this client implements (client credentials).
// Two runs at a time; 41 runs, about 3 minutes on the shared two-core machine (each run starts Node 22 and the driver).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { root, tempDir } from "../support.js";

const conformance = path.join(root, "tools/conformance/node_modules/@modelcontextprotocol/conformance");
const node22 = path.join(root, "tools/conformance/node_modules/node/bin/node");
const driver = path.join(root, "test/conformance/client-auth-driver.ts");

/** The `client:` list of a frozen requirement set (one `  - name` per line under the top-level key). */
function requiredClientScenarios(revision: string): string[] {
  const lines = readFileSync(path.join(conformance, "requirements", `${revision}.yaml`), "utf8").split("\n");
  const start = lines.indexOf("client:");
  if (start < 0) throw new Error(`requirements/${revision}.yaml has no client: list`);
  const names: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const m = /^ {2}- (\S+)\s*$/.exec(line);
    if (m === null) break;
    names.push(m[1]);
  }
  return names;
}

const revisions = ["2025-11-25", "2026-07-28"];
const runs = revisions.flatMap((revision) => requiredClientScenarios(revision).filter((s) => s.startsWith("auth/")).map((scenario) => ({ revision, scenario })));

/**
 * Not scored (extensions), run because this client implements them: the OAuth Client Credentials extension
 * (SEP-1046) with client_secret_basic and with private_key_jwt. The other not-scored auth extensions
 * (enterprise-managed-authorization, dpop, dpop-nonce, wif-jwt-bearer) are not implemented.
 */
const extensionRuns = ["auth/client-credentials-basic", "auth/client-credentials-jwt"].map((scenario) => ({ revision: "2026-07-28", scenario }));

let running = 0;
const waiting: (() => void)[] = [];
async function slot<T>(run: () => Promise<T>): Promise<T> {
  if (running >= 2) await new Promise<void>((r) => waiting.push(r));
  running++;
  try {
    return await run();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

function runScenario(scenario: string, revision: string): Promise<{ code: number | null; out: string }> {
  const command = `${process.execPath} --import tsx ${driver}`;
  const args = [path.join(conformance, "dist/index.js"), "client", "--command", command, "--scenario", scenario, "--spec-version", revision, "--force", "-o", tempDir("mcp-conformance-auth-")];
  return new Promise((resolve, reject) => {
    const child = spawn(node22, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (out += c.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out }));
  });
}

describe("conformance: the client's OAuth in every scored auth/* scenario", () => {
  it("finds the auth scenarios in both requirement sets", () => {
    // 2025-11-25 scores a subset of what 2026-07-28 scores; each is run once per set.
    const older = runs.filter((r) => r.revision === "2025-11-25").map((r) => r.scenario);
    const newer = runs.filter((r) => r.revision === "2026-07-28").map((r) => r.scenario);
    expect(older.length).toBeGreaterThan(0);
    expect(older.every((s) => newer.includes(s))).toBe(true);
  });

  it("lists the implemented extension scenarios as not scored at 2026-07-28", () => {
    const text = readFileSync(path.join(conformance, "requirements", "2026-07-28.yaml"), "utf8");
    for (const { scenario } of extensionRuns) expect(text).toMatch(new RegExp(`- scenario: ${scenario}\\n\\s+leg: client\\n\\s+reason: extension`));
  });

  it.concurrent.each([...runs, ...extensionRuns])("$scenario at $revision", async ({ scenario, revision }) => {
    const { code, out } = await slot(() => runScenario(scenario, revision));
    const plain = out.replace(/\x1b\[[0-9;]*m/g, "");
    expect(plain, plain).toMatch(/Passed: (\d+)\/\1, 0 failed, 0 warnings/);
    expect(plain).toContain("OVERALL: PASSED");
    expect(code, plain).toBe(0);
  }, 120_000);
});
