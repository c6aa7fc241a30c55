import { beforeAll, describe, expect, it } from "vitest";
import { typeSummary as summaryOfNode, type VersionDiff } from "../../generator/diff/index.js";
import { versionDiffMarkdown } from "../../generator/reports/diff-markdown.js";
import { buildSchemaIR } from "../../generator/model/ir-build.js";
import { diffLabels } from "../../generator/pipeline.js";
import { loadSpecBytes } from "../../generator/source/load.js";
import { readLock } from "../../generator/source/lock.js";
import { ensureSchemas, lockFile, modelOptions } from "./helpers.js";

let diff: VersionDiff;
beforeAll(async () => {
  await ensureSchemas();
  diff = diffLabels("2025-11-25", "2026-07-28", modelOptions);
});

describe("diff 2025-11-25 → 2026-07-28", () => {
  it("lists exactly these method changes, entry by entry", () => {
    const entries = diff.methods.map((m) => [m.kind, m.method, m.change, m.sender, m.from, m.to, m.breaking]);
    expect(entries).toEqual([
      ["request", "elicitation/create", "removed", "server", "server", null, true],
      ["request", "initialize", "removed", "client", "client", null, true],
      ["request", "logging/setLevel", "removed", "client", "client", null, true],
      ["request", "ping", "removed", "both", "both", null, true],
      ["request", "prompts/get", "result-changed", "client", "GetPromptResult", "InputRequiredResult | GetPromptResult", true],
      ["request", "prompts/list", "params-changed", "client", "PaginatedRequestParams (optional)", "PaginatedRequestParams", true],
      ["request", "resources/list", "params-changed", "client", "PaginatedRequestParams (optional)", "PaginatedRequestParams", true],
      ["request", "resources/read", "result-changed", "client", "ReadResourceResult", "InputRequiredResult | ReadResourceResult", true],
      ["request", "resources/subscribe", "removed", "client", "client", null, true],
      ["request", "resources/templates/list", "params-changed", "client", "PaginatedRequestParams (optional)", "PaginatedRequestParams", true],
      ["request", "resources/unsubscribe", "removed", "client", "client", null, true],
      ["request", "roots/list", "removed", "server", "server", null, true],
      ["request", "sampling/createMessage", "removed", "server", "server", null, true],
      ["request", "server/discover", "added", "client", null, "client", false],
      ["request", "subscriptions/listen", "added", "client", null, "client", false],
      ["request", "tasks/cancel", "removed", "both", "both", null, true],
      ["request", "tasks/get", "removed", "both", "both", null, true],
      ["request", "tasks/list", "removed", "both", "both", null, true],
      ["request", "tasks/result", "removed", "both", "both", null, true],
      ["request", "tools/call", "result-changed", "client", "CallToolResult", "InputRequiredResult | CallToolResult", true],
      ["request", "tools/list", "params-changed", "client", "PaginatedRequestParams (optional)", "PaginatedRequestParams", true],
      ["notification", "notifications/elicitation/complete", "removed", "server", "server", null, true],
      ["notification", "notifications/initialized", "removed", "client", "client", null, true],
      ["notification", "notifications/progress", "sender-changed", "server", "both", "server", true],
      ["notification", "notifications/roots/list_changed", "removed", "client", "client", null, true],
      ["notification", "notifications/subscriptions/acknowledged", "added", "server", null, "server", false],
      ["notification", "notifications/tasks/status", "removed", "both", "both", null, true],
    ]);
    expect(diff.summary.methods).toEqual({ added: 3, removed: 16, changed: 8 });
    for (const m of diff.methods) expect(m.reason).toMatch(/^[^\n]+$/);
  });

  it("reports each normalizer change, a removed request reading `<kind> → removed`", () => {
    const byMethod = Object.fromEntries(diff.normalizers.map((n) => [n.method, [n.from, n.to]]));
    expect(byMethod["resources/subscribe"]).toEqual(["empty", null]);
    expect(byMethod["ping"]).toEqual(["empty", null]);
    expect(byMethod["initialize"]).toEqual(["object", null]);
    expect(byMethod["tools/call"]).toEqual(["object", "object+resultType"]);
    expect(byMethod["server/discover"]).toEqual([null, "object+resultType"]);
    expect(byMethod["subscriptions/listen"]).toEqual([null, "empty+resultType"]);
    expect(Object.keys(byMethod)).toHaveLength(22);
    expect(versionDiffMarkdown(diff)).toContain("| `resources/subscribe` | empty → removed | **yes** |");
  });

  it("reports Result gaining the required resultType", () => {
    const result = diff.definitions.find((d) => d.definition === "Result");
    expect(result).toMatchObject({ change: "changed", breaking: true });
    expect(result!.properties.map((p) => [p.property, p.change, p.from, p.to, p.breaking])).toEqual([
      ["_meta", "type-changed", "object", "ResultMetaObject", true],
      ["resultType", "added", null, "string", true],
    ]);
    expect(result!.properties[1].reason).toBe("added and required: producers must now send it");
  });

  it("reports definitions added and removed", () => {
    const change = (name: string) => diff.definitions.find((d) => d.definition === name)?.change;
    expect(change("InitializeRequest")).toBe("removed");
    expect(change("DiscoverResult")).toBe("added");
    expect(change("Tool")).toBe("changed");
  });

  it("opens the Markdown with the summary table", () => {
    const md = versionDiffMarkdown(diff);
    const lines = md.split("\n");
    const table = lines.findIndex((l) => l.startsWith("| | added"));
    expect(lines.slice(0, table).every((l) => !l.startsWith("## "))).toBe(true);
    expect(lines[table + 2]).toBe(`| methods | 3 | 16 | 8 | 24 | 3 |`);
  });

  it("names the pair it compares", () => {
    expect([diff.from.label, diff.to.label]).toEqual(["2025-11-25", "2026-07-28"]);
  });
});

describe("identical versions", () => {
  it("every locked version compared with itself, and any two locked labels with the same bytes, have no entries", async () => {
    const lock = await readLock(lockFile);
    const labels = Object.keys(lock.versions).sort();
    // Pairs read from the lock, not assumed: each label with itself, plus labels that share a sha256.
    const pairs = [
      ...labels.map((l) => [l, l]),
      ...labels.flatMap((a) => labels.filter((b) => b > a && lock.versions[a].sha256 === lock.versions[b].sha256).map((b) => [a, b])),
    ];
    for (const [a, b] of pairs) {
      const same = diffLabels(a, b, modelOptions);
      expect([same.methods, same.normalizers, same.definitions], `${a} → ${b}`).toEqual([[], [], []]);
      expect(same.summary.breaking + same.summary.nonBreaking).toBe(0);
    }
  });
});

/** The summary of a schema written beside the definitions it references (typeSummary reads the IR). */
function typeSummary(schema: object): string {
  const doc = { $defs: { X: schema, A: {}, B: {}, Icon: {} } };
  return summaryOfNode(buildSchemaIR(loadSpecBytes(Buffer.from(JSON.stringify(doc)), "x.json", "x")).definitions.get("X")!.node);
}

describe("typeSummary", () => {
  it("normalizes refs, consts, enums, unions, arrays and inline objects", () => {
    expect(typeSummary({ $ref: "#/$defs/Icon", description: "x" })).toBe("Icon");
    expect(typeSummary({ const: "2.0", type: "string" })).toBe('"2.0"');
    expect(typeSummary({ enum: ["b", "a"] })).toBe('"a" | "b"');
    expect(typeSummary({ anyOf: [{ $ref: "#/$defs/B" }, { $ref: "#/$defs/A" }] })).toBe("A | B");
    expect(typeSummary({ type: "array", items: { $ref: "#/$defs/Icon" } })).toBe("Icon[]");
    expect(typeSummary({ type: ["string", "null"] })).toBe("null | string");
    expect(typeSummary({ type: "object", properties: { b: { type: "integer" }, a: { type: "string" } }, required: ["b"] })).toBe("{ a?: string; b: integer }");
    expect(typeSummary({ type: "string", format: "uri", minLength: 1 })).toBe("string");
  });
});
