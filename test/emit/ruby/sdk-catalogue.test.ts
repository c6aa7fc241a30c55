// The generated Ruby catalogue against the Ruby SDK's hand-written one (gem `mcp` 1.3.0):
// `MCP::Methods`' method constants and `MODERN_REMOVED_METHODS`. Where both speak (a constant name
// or a method both define) they must agree; where they differ, the test prints the listing: each
// difference is a finding about one side, reported, not hidden.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readLock } from "../../../generator/source/lock.js";
import { lockedProtocolOrder, lockFile } from "../../support.js";
import { ruby, rubyTestDir } from "./support.js";

interface GeneratedVersion {
  era: "legacy" | "modern";
  previous: string | null;
  constants: Record<string, string>;
  requests: Record<string, "client" | "server" | "both">;
  notifications: string[];
  /** The methods of the previous version this one lacks. */
  removed: string[];
  /** The generated gate's removed requests (what MODERN_REMOVED_METHODS is with the recipe). */
  removed_requests: string[];
}
interface ErrorObject {
  code: number;
  message: string;
}
interface Dump {
  sdk: Record<string, string>;
  modern_removed_methods: string[];
  generated: Record<string, GeneratedVersion>;
  /** A modern request per method through the SDK's MCP::Server (its -32601 or null) beside the generated gate's refusal. */
  gates: Array<{ version: string; method: string; sdk: ErrorObject | null; generated: ErrorObject | null }>;
}

function dump(): Dump {
  const r = ruby([path.join(rubyTestDir, "sdk_catalogue.rb")]);
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Dump;
}

describe("generated catalogue vs the Ruby SDK's MCP::Methods", () => {
  const data = dump();
  const labels = Object.keys(data.generated).sort();
  const ordered = lockedProtocolOrder();
  const methodsOf = (v: GeneratedVersion) => [...Object.keys(v.requests), ...v.notifications];

  it("covers every version of the lock", async () => {
    expect(labels).toEqual(Object.keys((await readLock(lockFile)).versions).sort());
  });

  it("agrees wherever both speak: same constant name ⇔ same method, in every version", () => {
    const conflicts: string[] = [];
    for (const [name, method] of Object.entries(data.sdk)) {
      for (const label of labels) {
        const v = data.generated[label];
        if (name in v.constants && v.constants[name] !== method) conflicts.push(`${label}: ${name} is "${v.constants[name]}", the SDK's is "${method}"`);
        const ours = Object.entries(v.constants).find(([, m]) => m === method)?.[0];
        if (ours !== undefined && ours !== name) conflicts.push(`${label}: "${method}" is ${ours}, the SDK's constant is ${name}`);
      }
    }
    expect(conflicts).toEqual([]);
    // Both speak somewhere: the comparison above was not vacuous.
    expect(Object.values(data.sdk).filter((m) => labels.some((l) => methodsOf(data.generated[l]).includes(m))).length).toBeGreaterThan(10);
  });

  it("lists where they differ (findings, printed)", () => {
    const sdkMethods = new Set(Object.values(data.sdk));
    const lines: string[] = [];
    const inNoVersion = [...sdkMethods].filter((m) => !labels.some((l) => methodsOf(data.generated[l]).includes(m))).sort();
    lines.push(`SDK methods no generated version has: ${inNoVersion.length === 0 ? "none" : inNoVersion.join(", ")}`);
    const generatedOnly = new Map<string, string[]>();
    for (const l of labels) for (const m of methodsOf(data.generated[l])) if (!sdkMethods.has(m)) generatedOnly.set(m, [...(generatedOnly.get(m) ?? []), l]);
    lines.push(
      `Spec methods MCP::Methods has no constant for: ${generatedOnly.size === 0 ? "none" : [...generatedOnly].sort(([a], [b]) => (a < b ? -1 : 1)).map(([m, ls]) => `${m} (${ls.join(", ")})`).join(", ")}`,
    );
    // MODERN_REMOVED_METHODS against each legacy → modern step of the generated versions.
    const sdkRemoved = new Set(data.modern_removed_methods);
    let steps = 0;
    for (const l of labels) {
      const v = data.generated[l];
      if (v.era !== "modern" || v.previous === null || data.generated[v.previous].era !== "legacy") continue;
      steps++;
      // Who sent each request in the legacy versions that had it: every legacy label, not only the
      // previous one (label order is not protocol order: a bump may add an older legacy revision).
      const legacySenders = (m: string) => labels.filter((x) => data.generated[x].era === "legacy" && m in data.generated[x].requests).map((x) => data.generated[x].requests[m]);
      const removedRequests = v.removed.filter((m) => legacySenders(m).length > 0);
      const serverReceives = removedRequests.filter((m) => legacySenders(m).some((sender) => sender !== "server"));
      const sdkNotRemoved = [...sdkRemoved].filter((m) => !v.removed.includes(m)).sort();
      const specOnly = serverReceives.filter((m) => !sdkRemoved.has(m));
      const other = v.removed.filter((m) => !serverReceives.includes(m));
      lines.push(
        `${v.previous} → ${l}: MODERN_REMOVED_METHODS entries the spec did not remove: ${sdkNotRemoved.length === 0 ? "none" : sdkNotRemoved.join(", ")}`,
        `${v.previous} → ${l}: requests a server receives that the spec removed and MODERN_REMOVED_METHODS lacks: ${specOnly.length === 0 ? "none" : specOnly.join(", ")}`,
        `${v.previous} → ${l}: other methods the spec removed (server-sent requests, notifications): ${other.length === 0 ? "none" : other.join(", ")}`,
      );
      // Where both speak: every method the SDK gates was a request of a legacy version, and is
      // among the generated gate's removed requests (which add the ones MODERN_REMOVED_METHODS lacks).
      for (const m of sdkRemoved) expect(legacySenders(m).length, `${m}: a request of a legacy version`).toBeGreaterThan(0);
      // The gate's removed requests are its table's `removed` rows a server receives: a request of a label before
      // this one, received by a server at the nearest such label (the latest, in protocol order: the table's `nearest`).
      // One only a later label has (a bump may pin an older revision as draft) is a `later` row, refused too; one the
      // nearest earlier label has a server send only (a bump's legacy draft may have a client send it too) is not.
      const nearestSender = (m: string) => ordered.slice(0, ordered.indexOf(l)).filter((x) => m in data.generated[x].requests).map((x) => data.generated[x].requests[m]).at(-1);
      const removedBefore = specOnly.filter((m) => ![undefined, "server"].includes(nearestSender(m)));
      expect(v.removed_requests.filter((m) => !sdkRemoved.has(m)).sort()).toEqual(removedBefore.sort());
      expect(v.removed_requests.filter((m) => sdkRemoved.has(m)).sort()).toEqual([...sdkRemoved].sort());
    }
    expect(steps).toBeGreaterThan(0);
    // The gates in action, for each generated modern version the SDK serves.
    const served = [...new Set(data.gates.map((g) => g.version))];
    for (const version of served) {
      const gates = data.gates.filter((g) => g.version === version);
      const sdkOnly = gates.filter((g) => g.sdk !== null && g.generated === null).map((g) => g.method);
      const oursOnly = gates.filter((g) => g.sdk === null && g.generated !== null).map((g) => g.method);
      const wordings = [...new Set(gates.filter((g) => g.sdk !== null && g.generated !== null).map((g) => g.sdk!.message.replace(g.method, "<method>")))].sort();
      lines.push(
        `${version} gate: the SDK server answers -32601 where the generated gate lets the method through: ${sdkOnly.length === 0 ? "none" : sdkOnly.join(", ")}`,
        `${version} gate: the generated gate refuses where the SDK server does not answer -32601: ${oursOnly.length === 0 ? "none" : oursOnly.join(", ")}`,
        `${version} gate: the SDK's -32601 messages where both answer it: ${wordings.map((w) => JSON.stringify(w)).join(", ")}; ours: ${[...new Set(gates.filter((g) => g.sdk !== null && g.generated !== null).map((g) => g.generated!.message.replace(g.method, "<method>")))].sort().map((w) => JSON.stringify(w)).join(", ")}`,
      );
      // Where both speak: every method the SDK gates as removed, neither side serves in that version.
      for (const m of sdkRemoved) {
        const g = gates.find((x) => x.method === m)!;
        expect(g.sdk?.code, m).toBe(-32601);
        expect(g.generated?.code, m).toBe(-32601);
      }
    }
    if (served.length === 0) lines.push("gate: the SDK serves none of the generated modern versions");
    console.log(["Ruby SDK 1.3.0 MCP::Methods vs the generated catalogue:", ...lines.map((s) => `  - ${s}`)].join("\n"));
  });
});
