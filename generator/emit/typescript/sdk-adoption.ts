// The TypeScript SDK adoption (issue 37): the typescript-sdk/ folder of the TypeScript tree, which replaces
// the official TypeScript SDK's hand-written method registries and capability switches. It holds
// wireTables.ts, printed here from the method table (per era the SDK validates with, the rows with status
// `present`: definition, sender, result definitions and shape, capability paths); the hand-written policy
// module that reads those tables (runtimes/typescript/sdk/sdk-policy.ts, copied by the one runtime copier);
// and, from adopting/ beside this file, the recipe (ADOPTING.md) and the patch against the SDK.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { MethodRow, ProtocolModel } from "../../model/types.js";
import { provenanceLines } from "../../print/provenance.js";
import { finish } from "../../print/text.js";
import { tableOf } from "../../print/table.js";
import { generatorSourceDir, runtimesDir } from "../../paths.js";
import { copyRuntime, filesIn } from "../runtime-copy.js";
import type { TargetRuntime } from "../target.js";
import { byCodeUnit } from "../../order.js";
import { zodModule } from "./zod.js";

/** The folder of the tree the adoption's files go in. */
export const SDK_FOLDER = "typescript-sdk";

/**
 * The protocol versions the SDK (2.0.0) validates with, one per era: every legacy version it negotiates is
 * served with the 2025-11-25 schemas, 2026-07-28 with its own (its `codecForVersion`). A version absent from
 * the run is left out of wireTables.ts.
 */
export const SDK_ERA_VERSIONS = ["2025-11-25", "2026-07-28"] as const;

/** The recipe's files copied into the folder, from generator/emit/typescript/adopting/. */
export const SDK_ADOPTING_FILES = ["ADOPTING.md", "typescript-sdk-2.0.0.patch"] as const;

/** The adoption's hand-written code: runtimes/typescript/sdk/<name>.ts → typescript-sdk/<name>.ts, behind the runtime copy header. */
export const sdkPolicyRuntime: TargetRuntime = {
  dir: path.join(runtimesDir, "typescript", "sdk"),
  files: () => filesIn(sdkPolicyRuntime.dir, (n) => n.endsWith(".ts")),
  destination: (file) => `${SDK_FOLDER}/${file}`,
  wrap: (source, header) => header.map((line) => `// ${line}\n`).join("") + source,
};

const adoptingDir = path.join(generatorSourceDir, "emit", "typescript", "adopting");

/** `2025-11-25` → `REV2025_11_25`. */
export function eraConstant(label: string): string {
  return `REV${label.replace(/-/g, "_")}`;
}

function rowText(row: MethodRow, definition: string): string {
  const fields = [`definition: ${JSON.stringify(definition)}`, `sender: ${JSON.stringify(row.sender)}`];
  if (row.kind === "request") fields.push(`results: ${JSON.stringify(row.results ?? [])}`, `shape: ${JSON.stringify(row.normalizer?.shape ?? "object")}`);
  fields.push(`capabilities: ${JSON.stringify(row.capabilities)}`);
  return `{ ${fields.join(", ")} }`;
}

/** wireTables.ts: one `WireEra` constant per SDK era version the run has, and `WIRE_ERAS` by label. */
export function wireTablesFile(model: ProtocolModel): string {
  const versions = eraVersions(model);
  const lines = provenanceLines(versions).map((l) => `// ${l}`);
  lines.push(
    "// The method table's `present` rows of each era the TypeScript SDK validates with (see ADOPTING.md): what",
    "// its hand registries listed and its capability switches checked, read through sdk-policy.ts.",
    'import type { WireEra } from "./sdk-policy.js";',
    "",
  );
  for (const v of versions) {
    const table = tableOf(model.tables, v.label);
    const definitions = new Map([...v.requests, ...v.notifications].map((m) => [m.method, m.definition]));
    const section = (kind: MethodRow["kind"]) =>
      Object.entries(table)
        .filter(([method, row]) => row.kind === kind && row.status === "present" && definitions.has(method))
        .sort(([a], [b]) => byCodeUnit(a, b))
        .map(([method, row]) => `    ${JSON.stringify(method)}: ${rowText(row, definitions.get(method)!)},`);
    lines.push(
      `/** Protocol version ${v.label}: its requests and notifications. */`,
      `export const ${eraConstant(v.label)} = {`,
      "  requests: {",
      ...section("request"),
      "  },",
      "  notifications: {",
      ...section("notification"),
      "  },",
      "} as const satisfies WireEra;",
      "",
    );
  }
  lines.push(
    "/** The eras by protocol version. */",
    "export const WIRE_ERAS: Readonly<Record<string, WireEra>> = {",
    ...versions.map((v) => `  ${JSON.stringify(v.label)}: ${eraConstant(v.label)},`),
    "};",
  );
  return finish(lines.join("\n"));
}

/**
 * The definitions wireSchemas.ts leaves out: the JSON-RPC envelope (`JSONRPCMessage`, `JSONRPCRequest`, …),
 * which the SDK validates with its version-free layer before the era's codec sees a message (its client
 * package pins that no bundled module defines `JSONRPCMessageSchema`: test/client/coreBoundary.test.ts).
 */
export const SDK_ENVELOPE_PREFIX = "JSONRPC";

/** `2025-11-25` → `schemas2025_11_25`. */
export function eraSchemasFunction(label: string): string {
  return `schemas${label.replace(/-/g, "_")}`;
}

/**
 * wireSchemas.ts: per SDK era version of the run, a function answering every definition's generated zod schema
 * (but the JSON-RPC envelope's, SDK_ENVELOPE_PREFIX)
 * under the name the SDK's `buildSchemas` gave it (`<Definition>Schema`), through a validation policy
 * (sdk-validation.ts; `EXACT` leaves every schema as generated). It imports the version's schemas.ts of the tree.
 */
export function wireSchemasFile(model: ProtocolModel): string {
  const versions = eraVersions(model);
  const lines = provenanceLines(versions).map((l) => `// ${l}`);
  lines.push(
    "// Each era's generated zod schemas under the names the TypeScript SDK's buildSchemas gave them (see",
    "// ADOPTING.md), through a validation policy: the SDK's choices are sdk-validation.ts's options.",
    ...versions.map((v) => `import * as ${eraConstant(v.label)}_SCHEMAS from "../${v.label}/schemas.js";`),
    'import { applyValidationPolicy, type ValidationPolicy } from "./sdk-validation.js";',
    `import { ${versions.map((v) => eraConstant(v.label)).join(", ")} } from "./wireTables.js";`,
    "",
  );
  for (const v of versions) {
    const declarations = [...zodModule(v).declarations]
      .filter((d) => !d.definition.startsWith(SDK_ENVELOPE_PREFIX))
      .sort((a, b) => byCodeUnit(a.definition, b.definition));
    lines.push(
      `/** Every definition of ${v.label} as its generated zod schema, named <Definition>Schema, under the policy. */`,
      `export function ${eraSchemasFunction(v.label)}(policy: ValidationPolicy) {`,
      "  return applyValidationPolicy({",
      ...declarations.map((d) => `    ${d.definition}Schema: ${eraConstant(v.label)}_SCHEMAS.${d.name},`),
      `  }, ${eraConstant(v.label)}, policy);`,
      "}",
      "",
    );
  }
  return finish(lines.join("\n"));
}

/** The SDK era versions of the run, in its order. */
function eraVersions(model: ProtocolModel) {
  return model.versions.filter((v) => (SDK_ERA_VERSIONS as readonly string[]).includes(v.label));
}

/**
 * The folder's files, paths relative to the tree. The hand-written ones behind the provenance header: `//`
 * lines in TypeScript, an HTML comment in Markdown, text before the patch's first diff (git apply skips it).
 */
export function emitSdkAdoption(model: ProtocolModel): Map<string, string> {
  const files = new Map<string, string>();
  const lines = provenanceLines(eraVersions(model));
  for (const f of SDK_ADOPTING_FILES) {
    const text = readFileSync(path.join(adoptingDir, f), "utf8");
    const header = [...lines, `A copy of generator/emit/typescript/adopting/${f}.`];
    const copy = f.endsWith(".md") ? `<!-- ${header.join("\n")} -->\n\n${text}` : `${header.join("\n")}\n\n${text}`;
    files.set(`${SDK_FOLDER}/${f}`, copy);
  }
  for (const [file, text] of copyRuntime(sdkPolicyRuntime)) files.set(file, text);
  files.set(`${SDK_FOLDER}/wireTables.ts`, wireTablesFile(model));
  files.set(`${SDK_FOLDER}/wireSchemas.ts`, wireSchemasFile(model));
  return files;
}
