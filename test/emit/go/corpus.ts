// The Go tests' corpus of one module (a version or an extension module): per definition, instances drawn from
// the schema and mutations of them (the other targets' differential generator, seeded by label and definition),
// labelled by Ajv so that both kinds are present. types.test.ts and sdk-types.test.ts judge the same instances.
import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { pointerToken } from "../../../generator/errors.js";
import type { VersionModel } from "../../../generator/model/types.js";
import { type Json, labelledCorpus, seedOf } from "../typescript/corpus.js";

const WANTED = 30;
const MAX_ATTEMPTS = 400;

export interface Module {
  label: string;
  version: VersionModel;
  definitions: string[];
  document: Record<string, unknown>;
  instances: Map<string, Json[]>;
}

/** A module's corpus: per definition, instances drawn from `defs` and labelled (to get both kinds) by Ajv on `document`. */
export function moduleCorpus(label: string, version: VersionModel, document: Record<string, unknown>, defs: Record<string, never>, definitions: string[]): Module {
  const container = Object.hasOwn(document, "$defs") ? "$defs" : "definitions";
  const options = { strict: false, validateFormats: false, allErrors: false } as const;
  const ajv = document.$schema === "https://json-schema.org/draft/2020-12/schema" ? new Ajv2020(options) : new Ajv(options);
  ajv.addSchema(document, "doc");
  const instances = new Map<string, Json[]>();
  for (const name of definitions) {
    const validate = ajv.getSchema(`doc#/${container}/${pointerToken(name)}`) as ValidateFunction;
    const c = labelledCorpus(defs, name, seedOf(`${label}/${name}`), (i) => validate(i) as boolean, WANTED, MAX_ATTEMPTS);
    instances.set(name, [...c.valid, ...c.invalid]);
  }
  return { label, version, definitions, document, instances };
}
