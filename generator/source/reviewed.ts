// The reviewed inputs of the model, read here once and handed to the model as data:
// schemas/overrides.json (request → result overrides the naming rules cannot find),
// schemas/errata-reviewed.json (schema.json/schema.ts findings judged no defect) and
// schemas/method-capabilities.json (which capabilities each method needs; see method-capabilities.ts) and
// schemas/protocol-facts.json (what only the spec's prose says; see protocol-facts.ts).
// Each is shape-checked here: bad input is an InputError naming the file and the JSON pointer.
import { InputError, pointer } from "../errors.js";
import { readJsonFile } from "../files.js";
import { readMethodCapabilities, type MethodCapabilityData } from "./method-capabilities.js";
import { readProtocolFacts, type ProtocolFactsData } from "./protocol-facts.js";

export interface ResultOverride {
  /** Version labels the entry applies to, or "*" for all. */
  versions: string[] | "*";
  method: string;
  /** Result definitions; more than one makes a union. Absent: found by the naming rules. */
  results?: string[];
  /** The result shape, where the schema's structure cannot tell it. Absent: derived. */
  resultShape?: "empty" | "object";
  why: string;
  /** Where the entry was read from, for error messages. */
  source?: { file: string; pointer: string };
}

/** The entries of an overrides file (none when there is no file), checked. */
export function readOverrides(file: string): ResultOverride[] {
  const data = readJsonFile(file);
  if (data === undefined) return [];
  const list = (data as { overrides?: unknown })?.overrides;
  if (!Array.isArray(list)) throw new InputError("expected { overrides: [...] }", file, pointer("overrides"));
  list.forEach((o, i) => {
    const ok =
      typeof o?.method === "string" &&
      typeof o?.why === "string" &&
      (o?.results !== undefined || o?.resultShape !== undefined) &&
      (o?.results === undefined || (Array.isArray(o.results) && o.results.length > 0 && o.results.every((r: unknown) => typeof r === "string"))) &&
      (o?.resultShape === undefined || o.resultShape === "empty" || o.resultShape === "object") &&
      (o.versions === "*" || (Array.isArray(o.versions) && o.versions.every((v: unknown) => typeof v === "string")));
    if (!ok) throw new InputError('expected { versions: [...] | "*", method, results?: [...], resultShape?: "empty" | "object", why } with results or resultShape', file, pointer("overrides", i));
  });
  return (list as ResultOverride[]).map((o, i) => ({ ...o, source: { file, pointer: pointer("overrides", i) } }));
}

/** The kinds of disagreement between a version's schema.json and its schema.ts (see model/errata.ts). */
export type ErratumKind = "integer" | "null" | "type" | "literal" | "required" | "property" | "open";

/** Reviewed findings judged not to be defects: each names its kind, the pointers it covers and why. */
export interface ReviewedErratum {
  kind: ErratumKind;
  pointers: string[];
  why: string;
}

const KINDS: readonly ErratumKind[] = ["integer", "null", "type", "literal", "required", "property", "open"];
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The entries of schemas/errata-reviewed.json (`data`: its parsed content, undefined when there is no file), checked. */
export function reviewedErrata(data: unknown, file: string): ReviewedErratum[] {
  if (data === undefined) return [];
  const list = isObject(data) ? data.reviewed : undefined;
  if (!Array.isArray(list)) throw new InputError("expected { reviewed: [{ kind, pointers, why }] }", file, pointer("reviewed"));
  list.forEach((entry: unknown, i) => {
    if (!isObject(entry)) throw new InputError("expected { kind, pointers, why }", file, pointer("reviewed", i));
    if (!KINDS.includes(entry.kind as ErratumKind)) throw new InputError(`expected a kind of finding: ${KINDS.join(", ")}`, file, pointer("reviewed", i, "kind"));
    if (!Array.isArray(entry.pointers) || entry.pointers.length === 0) throw new InputError("expected the JSON pointers (into schema.json) it covers", file, pointer("reviewed", i, "pointers"));
    entry.pointers.forEach((p: unknown, j: number) => {
      if (typeof p !== "string" || !(p === "" || p.startsWith("/"))) throw new InputError("expected a JSON pointer", file, pointer("reviewed", i, "pointers", j));
    });
    if (typeof entry.why !== "string" || entry.why.trim() === "") throw new InputError("expected why it is not a defect, a non-empty string", file, pointer("reviewed", i, "why"));
  });
  return list as ReviewedErratum[];
}

/** Where the reviewed inputs are (absent overrides or errata file: none reviewed). */
export interface ReviewedFiles {
  overridesFile?: string;
  errataReviewedFile?: string;
  /** Required: every model's method table needs the reviewed capability requirements. */
  methodCapabilitiesFile: string;
  /** Required: every tree prints the protocol facts (schemas/protocol-facts.json). */
  protocolFactsFile: string;
}

/** Every reviewed input of the model, read and checked. */
export interface ReviewedInputs {
  overrides: ResultOverride[];
  errataReviewed: ReviewedErratum[];
  capabilities: MethodCapabilityData;
  protocolFacts: ProtocolFactsData;
}

export function readReviewedInputs(files: ReviewedFiles): ReviewedInputs {
  return {
    overrides: files.overridesFile ? readOverrides(files.overridesFile) : [],
    errataReviewed: files.errataReviewedFile ? reviewedErrata(readJsonFile(files.errataReviewedFile), files.errataReviewedFile) : [],
    capabilities: readMethodCapabilities(files.methodCapabilitiesFile),
    protocolFacts: readProtocolFacts(files.protocolFactsFile),
  };
}
