// The reviewed per-method capability requirements (schemas/method-capabilities.json), read and
// shape-checked: which capabilities a method needs, which the schema cannot say. The model checks each
// path against the versions' capability definitions (generator/model/capabilities.ts).
import { readFileSync } from "node:fs";
import { InputError, pointer } from "../errors.js";

export interface MethodCapabilityEntry {
  requires: string[];
  /**
   * Paths of `requires` a version requires only where its capabilities declare them (`completions`:
   * 2024-11-05 had no such capability). Keyed by the schema's own facts, not by labels, so that a bump
   * re-pinning or adding a label needs no new review.
   */
  ifDeclared?: string[];
  /** Overrides `requires` for one protocol version label (prefer `ifDeclared`: a label moves with bumps). */
  byVersion?: Record<string, string[]>;
  reason: string;
}

/** The reviewed entries by method, and the file they came from (errors name it). */
export interface MethodCapabilityData {
  file: string;
  methods: Readonly<Record<string, MethodCapabilityEntry>>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isPathList = (v: unknown): v is string[] => Array.isArray(v) && v.every((p) => typeof p === "string" && /^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/.test(p));

/** The entries of a method-capabilities file (bytes when already loaded). Throws InputError naming the file and pointer. */
export function readMethodCapabilities(file: string, bytes?: Uint8Array): MethodCapabilityData {
  let data: unknown;
  try {
    data = JSON.parse(bytes === undefined ? readFileSync(file, "utf8") : new TextDecoder().decode(bytes));
  } catch (e) {
    throw new InputError(`cannot read the method capabilities: ${(e as Error).message}`, file, "");
  }
  if (!isObject(data) || !isObject(data.methods)) throw new InputError('expected an object with a "methods" object', file, "");
  const methods: Record<string, MethodCapabilityEntry> = {};
  for (const [method, entry] of Object.entries(data.methods)) {
    if (!isObject(entry) || !isPathList(entry.requires) || typeof entry.reason !== "string" || entry.reason.trim() === "") {
      throw new InputError(`expected { requires: ["capability.path", ...], reason: "..." } for ${method}`, file, pointer("methods", method));
    }
    if (entry.byVersion !== undefined && (!isObject(entry.byVersion) || !Object.values(entry.byVersion).every(isPathList))) {
      throw new InputError(`expected byVersion to map version labels to capability path lists`, file, pointer("methods", method, "byVersion"));
    }
    if (entry.ifDeclared !== undefined && (!isPathList(entry.ifDeclared) || !entry.ifDeclared.every((p) => (entry.requires as string[]).includes(p)))) {
      throw new InputError(`expected ifDeclared to list paths of requires`, file, pointer("methods", method, "ifDeclared"));
    }
    methods[method] = entry as unknown as MethodCapabilityEntry;
  }
  return { file, methods };
}
