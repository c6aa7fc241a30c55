// Reviewed request → result overrides (schemas/overrides.json): for a method whose result the
// naming rules cannot find. Each entry says why, and is reviewed like code.
import { InputError, pointer } from "../errors.js";
import { readJsonFile } from "../files.js";

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
