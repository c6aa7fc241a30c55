// Baseline for the generation benchmark: json-schema-to-typescript alone, default options plus
// unreachableDefinitions (so every definition is emitted), over the same schema files.
// Usage: node bench/baseline-jsstt.mjs <schemasDir> <outDir> <label>...
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { compile } from "json-schema-to-typescript";

const [schemasDir, outDir, ...labels] = process.argv.slice(2);
mkdirSync(outDir, { recursive: true });
for (const label of labels) {
  const schema = JSON.parse(readFileSync(path.join(schemasDir, label, "schema.json"), "utf8"));
  const ts = await compile(schema, "MCP", { unreachableDefinitions: true });
  writeFileSync(path.join(outDir, `${label}.ts`), ts);
}
