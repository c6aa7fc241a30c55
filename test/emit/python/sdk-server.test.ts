// The generated resources/subscribe and resources/unsubscribe normalizers against the official Python
// SDK's server (mcp 2.3.0, `mcp.server.lowlevel.Server`, in-process over its memory streams): for the
// same handler returns, in every locked version the SDK knows that has the pair, the result the SDK
// sends is the result the normalizer makes. Where the SDK sends something a strict peer would reject,
// or refuses a return, the difference is printed (a finding), and the generated result is checked
// against the spec's empty-result rule.
import { describe, expect, it } from "vitest";
import { readLock } from "../../../generator/source/lock.js";
import { lockFile } from "../../support.js";
import { pythonJson } from "./support.js";

type Answer = { result: Record<string, unknown> } | { error: { code: number; message: string } };
interface Row {
  version: string;
  method: string;
  case: string;
  sdk: Answer;
  generated: Answer;
}

/** Handler returns that are results as the spec defines them: a model or a dict holding at most an object `_meta`. */
const SPEC_SHAPED = ["None", "EmptyResult()", "EmptyResult(_meta=...)", "{}", "{'_meta': ...}"];

const labels = Object.keys((await readLock(lockFile)).versions).sort();
const catalogues = pythonJson<Array<{ requests: string[] }>>("batch.py", labels.map((version) => ({ version, catalogue: true })));
const known = pythonJson<{ known: string[] }>("sdk_catalogue.py", null).known;
const versions = labels.filter((l, i) => known.includes(l) && catalogues[i].requests.includes("resources/subscribe") && catalogues[i].requests.includes("resources/unsubscribe"));
const rows = pythonJson<Row[]>("sdk_server.py", { versions });

describe("resources/subscribe and resources/unsubscribe normalizers vs the Python SDK's server (mcp 2.3.0)", () => {
  it("ran for every locked version the SDK knows that has the pair", () => {
    expect(versions.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => r.version))).toEqual(new Set(versions));
    expect(rows.length).toBeGreaterThan(versions.length * 2 * SPEC_SHAPED.length - 1);
  });

  it("send what the SDK server sends for every spec-shaped handler return", () => {
    const compared = rows.filter((r) => SPEC_SHAPED.includes(r.case));
    expect(compared.length).toBe(versions.length * 2 * SPEC_SHAPED.length);
    for (const r of compared) expect(r.generated, `${r.version} ${r.method} ${r.case}`).toEqual(r.sdk);
    // Both outcomes of the rule were exercised: `{}` and `{ _meta }`.
    expect(compared.some((r) => "result" in r.sdk && "_meta" in r.sdk.result)).toBe(true);
    expect(compared.some((r) => "result" in r.sdk && Object.keys(r.sdk.result).length === 0)).toBe(true);
  });

  it("lists where the SDK answers otherwise (findings, printed); the normalizer's answer is an empty result either way", () => {
    const others = rows.filter((r) => !SPEC_SHAPED.includes(r.case));
    const lines: string[] = [];
    for (const r of others) {
      // The spec's empty result: nothing but an object `_meta` (a strict peer rejects other members).
      expect("result" in r.generated, `${r.version} ${r.method} ${r.case}`).toBe(true);
      const result = (r.generated as { result: Record<string, unknown> }).result;
      expect(Object.keys(result).filter((k) => k !== "_meta"), `${r.version} ${r.method} ${r.case}`).toEqual([]);
      if (result._meta !== undefined) expect(typeof result._meta === "object" && result._meta !== null && !Array.isArray(result._meta)).toBe(true);
      if (JSON.stringify(r.sdk) !== JSON.stringify(r.generated)) lines.push(`${r.version} ${r.method} ${r.case}: the SDK answers ${JSON.stringify(r.sdk)}, the normalizer ${JSON.stringify(r.generated)}`);
    }
    console.log(["mcp 2.3.0 server vs the generated subscribe/unsubscribe normalizers, handler returns beyond the spec's shape:", ...(lines.length === 0 ? ["none differ"] : lines).map((l) => `  - ${l}`)].join("\n"));
    expect(others.length).toBeGreaterThan(0);
  });
});
