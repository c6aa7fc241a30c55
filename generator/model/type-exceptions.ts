// Reviewed exceptions to type fidelity (schemas/type-fidelity-exceptions.json): per version, the
// definitions whose generated type and the spec's own schema.ts type are not mutually assignable,
// each with its reason. test/emit/typescript/fidelity.test.ts proves every other definition equal; MATRIX.md
// reports both counts.
import { existsSync, readFileSync } from "node:fs";
import { InputError, pointer } from "../errors.js";

/** Version label → definition name → reason. */
export type TypeExceptions = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** The exceptions of `file`, or none when it does not exist. */
export function readTypeExceptions(file: string): TypeExceptions {
  if (!existsSync(file)) return {};
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new InputError(`invalid JSON: ${(e as Error).message}`, file, "");
  }
  const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
  const versions = isRecord(data) ? data.versions : undefined;
  if (!isRecord(versions)) throw new InputError("expected { versions: { <version>: { <definition>: <reason> } } }", file, pointer("versions"));
  for (const [label, entries] of Object.entries(versions)) {
    if (!isRecord(entries)) throw new InputError("expected { <definition>: <reason> }", file, pointer("versions", label));
    for (const [name, reason] of Object.entries(entries)) {
      if (typeof reason !== "string" || reason.trim() === "") throw new InputError("expected the reason, a non-empty string", file, pointer("versions", label, name));
    }
  }
  return versions as TypeExceptions;
}
