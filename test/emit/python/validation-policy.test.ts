// The Python runtime's validation policy (runtime.ValidationPolicy, validate, dump, result_type), on the
// committed tree's models: strict by default (the schema's behaviour), and each option's effect, one
// example it lets through or changes and one it still refuses or leaves alone. The official SDK's patch
// (generated/python/python-sdk-2.3.0.patch) selects these options; sdk-suite.test.ts runs it.
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { lockedLabels, root } from "../../support.js";
import { pythonJson, pythonTree, run } from "./support.js";

interface Case {
  era: "legacy" | "modern";
  results: string[];
  /** A [definition, wire member] the chosen version must declare (the case is about that member). */
  declares?: [string, string];
  data: unknown;
  /** null: no policy argument at all (the defaults); {}: ValidationPolicy() spelled out. */
  policy: Record<string, unknown> | null;
  /** The version to answer at, where the case needs one the schema files single out. */
  at?: string;
}
type Answer =
  | { version: string; arms: string[]; ok: true; type: string; dump: unknown; waived: Array<Array<string | number>> }
  | { version: string; arms: string[]; ok: false; errors: Array<[Array<string | number>, string]> };

const refusedAt = (a: Answer) => (a.ok ? [] : a.errors.map(([loc]) => loc.join(".")));

const elicit = { action: "accept", content: { name: "x", age: null } };
const lenient = { lenient_paths: { ElicitResult: [["content", "*"]] } };
const listTools = (ttlMs: unknown) => ({ tools: [], resultType: "complete", cacheScope: "public", ttlMs });
const lax = { lax_integers: { ListToolsResult: [["ttlMs"]] } };
const call = (params: unknown) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params });
const tools = {
  tools: [{ name: "t", inputSchema: { type: "object", "x-extra": 1 }, "x-tool": 2 }],
  resultType: "complete",
  cacheScope: "public",
  ttlMs: 0,
  "x-result": 3,
  _meta: { k: { deep: 1 } },
};

type RawSchema = { type?: string | string[]; anyOf?: RawSchema[]; oneOf?: RawSchema[]; $ref?: string; properties?: Record<string, RawSchema>; additionalProperties?: RawSchema | boolean };
/** A version's schema file: its definitions, and whether it is of the legacy era (it defines InitializeRequest). */
function schemaOf(version: string): { defs: Record<string, RawSchema>; legacy: boolean } {
  const doc = JSON.parse(readFileSync(path.join(root, "schemas", version, "schema.json"), "utf8")) as { $defs?: Record<string, RawSchema>; definitions?: Record<string, RawSchema> };
  const defs = doc.$defs ?? doc.definitions ?? {};
  return { defs, legacy: Object.hasOwn(defs, "InitializeRequest") };
}
/** ElicitResult's form value schema at a version (`content`'s `additionalProperties`), its `$ref`s followed. */
function formValue(version: string): RawSchema | boolean | undefined {
  const { defs } = schemaOf(version);
  const resolve = (x: RawSchema): RawSchema => (x.$ref === undefined ? x : resolve(defs[x.$ref.replace(/^#\/(\$defs|definitions)\//, "")]));
  const content = defs.ElicitResult === undefined ? undefined : resolve(defs.ElicitResult).properties?.content;
  return content === undefined ? undefined : resolve(content).additionalProperties;
}
/** Whether a schema admits JSON null: no type said, `null` among its types, or a branch that does. */
function admitsNull(schema: RawSchema | boolean | undefined, defs: Record<string, RawSchema>): boolean {
  if (schema === undefined || typeof schema === "boolean") return schema !== false;
  if (schema.$ref !== undefined) return admitsNull(defs[schema.$ref.replace(/^#\/(\$defs|definitions)\//, "")], defs);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches !== undefined) return branches.some((b) => admitsNull(b, defs));
  return schema.type === undefined || schema.type === "null" || (Array.isArray(schema.type) && schema.type.includes("null"));
}
/**
 * The legacy version the ElicitResult cases run at: the latest (by label, as the driver's rule) whose form value
 * refuses null, read from the schema files (an early draft a bump brings leaves the form value open).
 */
const elicitAt = lockedLabels()
  .reverse()
  .find((v) => schemaOf(v).legacy && formValue(v) !== undefined && !admitsNull(formValue(v), schemaOf(v).defs));

const CASES = {
  strictElicit: { era: "legacy", results: ["ElicitResult"], data: elicit, policy: null, at: elicitAt },
  strictLax: { era: "modern", results: ["ListToolsResult"], data: listTools(true), policy: {} },
  strictNull: { era: "legacy", results: ["CallToolRequest"], declares: ["CallToolRequestParams", "_meta"], data: call({ name: "echo", _meta: null }), policy: null },
  strictArms: { era: "modern", results: ["InputRequiredResult", "CallToolResult"], data: { content: [], resultType: "complete" }, policy: null },
  strictSieve: { era: "modern", results: ["ListToolsResult"], data: tools, policy: null },
  lenient: { era: "legacy", results: ["ElicitResult"], data: elicit, policy: lenient, at: elicitAt },
  lenientElsewhere: { era: "legacy", results: ["ElicitResult"], data: { action: "maybe", content: { age: null } }, policy: lenient, at: elicitAt },
  laxTrue: { era: "modern", results: ["ListToolsResult"], data: listTools(true), policy: lax },
  laxFalse: { era: "modern", results: ["ListToolsResult"], data: listTools(false), policy: lax },
  laxString: { era: "modern", results: ["ListToolsResult"], data: listTools("1"), policy: lax },
  nullOptional: { era: "legacy", results: ["CallToolRequest"], declares: ["CallToolRequestParams", "_meta"], data: call({ name: "echo", _meta: null }), policy: { null_as_absent: true } },
  nullRequired: { era: "legacy", results: ["CallToolRequest"], declares: ["CallToolRequestParams", "_meta"], data: call({ name: null }), policy: { null_as_absent: true } },
  lastArms: { era: "modern", results: ["InputRequiredResult", "CallToolResult"], data: { content: [], resultType: "complete" }, policy: { last_arms: ["InputRequiredResult"] } },
  lastArmsOther: { era: "modern", results: ["InputRequiredResult", "CallToolResult"], data: { content: [], resultType: "complete" }, policy: { last_arms: ["ListToolsResult"] } },
  sieve: { era: "modern", results: ["ListToolsResult"], data: tools, policy: { sieve: true } },
} satisfies Record<string, Case>;
let answers: Answer[] = [];
// One Python process answers every case.
beforeAll(() => {
  // Some legacy version's form value refuses null (the dated revisions since elicitation was added do).
  expect(elicitAt).toBeDefined();
  answers = pythonJson<Answer[]>("validation_policy.py", Object.values(CASES));
  expect(answers).toHaveLength(Object.keys(CASES).length);
});
const a = (name: keyof typeof CASES): Answer => answers[Object.keys(CASES).indexOf(name)];
/** An answer as the test states it: the version is the era's latest that defines the names, whichever label it has. */
const stated = (answer: Record<string, unknown>) => ({ version: expect.any(String), ...answer });

/**
 * The arms of ElicitResult's form value at a version, read from its schema: one per type of each branch
 * (`{type: [string, integer, boolean]}` is three; 2025-11-25 adds a string[] branch), so an earlier
 * revision a bump brings is judged by its own union.
 */
function formValueArms(version: string): number {
  const { defs } = schemaOf(version);
  const resolve = (x: RawSchema): RawSchema => (x.$ref === undefined ? x : resolve(defs[x.$ref.replace(/^#\/(\$defs|definitions)\//, "")]));
  const count = (x: RawSchema): number => {
    const r = resolve(x);
    const branches = r.anyOf ?? r.oneOf;
    if (branches !== undefined) return branches.reduce((n, b) => n + count(b), 0);
    return Array.isArray(r.type) ? r.type.length : 1;
  };
  return count(formValue(version) as RawSchema);
}

describe("runtime.ValidationPolicy: strict by default", () => {
  it("without a policy (and with ValidationPolicy()), validate is the models' own validation and dump sends every member the value holds", () => {
    // A null form value, a boolean integer, a null optional member: each refused where it is.
    // Refused at content.age only, once per arm of the form value's union (string, number, boolean, string[]).
    const elicitRefusals = refusedAt(a("strictElicit"));
    expect(elicitRefusals.length).toBeGreaterThanOrEqual(formValueArms(a("strictElicit").version));
    expect(elicitRefusals.filter((loc) => !loc.startsWith("content.age."))).toEqual([]);
    expect(a("strictLax")).toEqual(stated({ arms: ["ListToolsResult"], ok: false, errors: [[["ttlMs"], "Input should be a valid integer"]] }));
    expect(a("strictNull")).toEqual(
      stated({ arms: ["CallToolRequest"], ok: false, errors: [[["params", "_meta"], "Value error, null is not allowed here: leave the member out instead"]] }),
    );
    // The result union in the table's order; members no definition declares sent.
    expect(a("strictArms").arms).toEqual(["InputRequiredResult", "CallToolResult"]);
    expect(a("strictSieve")).toEqual(stated({ arms: ["ListToolsResult"], ok: true, type: "ListToolsResult", dump: tools, waived: [] }));
  });
});

describe("runtime.ValidationPolicy: each option", () => {
  it("lenient_paths: a refusal located at a listed path is waived and the value sent back as it came; one elsewhere is still refused", () => {
    expect(a("lenient")).toEqual(stated({ arms: ["ElicitResult"], ok: true, type: "ElicitResult", dump: elicit, waived: [["content", "age"]] }));
    const elsewhere = a("lenientElsewhere");
    expect(elsewhere.ok).toBe(false);
    expect(refusedAt(elsewhere)).toContain("action");
  });

  it("lax_integers: a boolean at a listed path reads as 0 or 1; a string there is still refused", () => {
    expect(a("laxTrue")).toEqual(stated({ arms: ["ListToolsResult"], ok: true, type: "ListToolsResult", dump: listTools(1), waived: [] }));
    expect(a("laxFalse")).toEqual(stated({ arms: ["ListToolsResult"], ok: true, type: "ListToolsResult", dump: listTools(0), waived: [] }));
    expect(a("laxString")).toEqual(stated({ arms: ["ListToolsResult"], ok: false, errors: [[["ttlMs"], "Input should be a valid integer"]] }));
  });

  it("null_as_absent: an explicit null for an optional member reads as the member left out; a null for a required one is still refused", () => {
    expect(a("nullOptional")).toEqual(stated({ arms: ["CallToolRequest"], ok: true, type: "CallToolRequest", dump: call({ name: "echo" }), waived: [] }));
    expect(a("nullRequired")).toEqual(stated({ arms: ["CallToolRequest"], ok: false, errors: [[["params", "name"], "Input should be a valid string"]] }));
  });

  it("last_arms: the named result definitions go last in the union; a union without them keeps its order", () => {
    expect(a("lastArms")).toEqual(
      stated({ arms: ["CallToolResult", "InputRequiredResult"], ok: true, type: "CallToolResult", dump: { content: [], resultType: "complete" }, waived: [] }),
    );
    expect(a("lastArmsOther").arms).toEqual(["InputRequiredResult", "CallToolResult"]);
  });

  it("sieve: dump drops the members a named definition does not declare, and keeps _meta and an inline object's members whole", () => {
    expect(a("sieve")).toEqual(
      stated({
        arms: ["ListToolsResult"],
        ok: true,
        type: "ListToolsResult",
        dump: { tools: [{ name: "t", inputSchema: { type: "object", "x-extra": 1 } }], resultType: "complete", cacheScope: "public", ttlMs: 0, _meta: { k: { deep: 1 } } },
        waived: [],
      }),
    );
  });
});

describe("the package README's Validation policies section", () => {
  it("names every option of runtime.ValidationPolicy, with its default, and no other", () => {
    const r = run("python", ["-c", "import dataclasses, json\nfrom mcp_codegen import runtime\nprint(json.dumps([f.name for f in dataclasses.fields(runtime.ValidationPolicy)]))"]);
    expect(r.stderr).toBe("");
    const options = JSON.parse(r.stdout) as string[];
    const readme = readFileSync(path.join(pythonTree, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## Validation policies"));
    const rows = [...section.matchAll(/^\| `(\w+)` \| ([^|]+) \|/gm)].map((m) => [m[1], m[2].trim()]);
    expect(rows).toEqual([
      ["lenient_paths", "none"],
      ["lax_integers", "none"],
      ["null_as_absent", "`False`"],
      ["last_arms", "`()`"],
      ["sieve", "`False`"],
    ]);
    expect(rows.map(([name]) => name)).toEqual(options);
  });
});
