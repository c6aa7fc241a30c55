// schemas/protocol-facts.json: the protocol facts the runtimes rely on in every tree (whatever versions it
// holds: a legacy-only tree's runtime still names the modern codes and `_meta` keys) and those only the
// spec's prose states (no schema carries them), reviewed by hand, each entry naming the section it restates. Read and shape-checked here once;
// the model (model/protocol.ts) merges them with what the schemas say. Bad input is an InputError naming
// the file and the JSON pointer.
import { InputError, pointer } from "../errors.js";
import { readJsonFile } from "../files.js";

export interface ReviewedErrorCode {
  code: number;
  /** SCREAMING_SNAKE constant name. */
  name: string;
  meaning: string;
  section: string;
}

export interface ReviewedHttpStatus {
  code: number;
  status: number;
  section: string;
}

export interface ReviewedLimit {
  /** camelCase name, in milliseconds (`stdioEndGraceMs`). */
  name: string;
  ms: number;
  meaning: string;
  section: string;
}

export interface ProtocolFactsData {
  /** The file read, for error messages (and named in the printed modules). */
  file: string;
  errors: ReviewedErrorCode[];
  /** `_meta` keys the runtimes use. */
  meta: { key: string; section: string }[];
  /** Extensions the runtimes serve: name (as in the lock) → identifier. */
  extensions: { name: string; identifier: string; section: string }[];
  /** The first version that does not batch (versions are dates: those before it do). */
  batches: { firstVersionWithout: string; section: string };
  httpStatus: ReviewedHttpStatus[];
  /** Least to most severe. */
  logLevels: { order: string[]; section: string };
  limits: ReviewedLimit[];
  /** The JSON Schema keyword of a tool's inputSchema property that mirrors the argument into an HTTP header. */
  headerAnnotation: { keyword: string; section: string };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown): v is string => typeof v === "string" && v.trim() !== "";

/** The reviewed protocol facts of `file`, checked (a missing file is an error: every tree prints them). */
export function readProtocolFacts(file: string): ProtocolFactsData {
  const data = readJsonFile(file);
  if (!isObject(data)) throw new InputError("expected { errors, meta, extensions, batches, httpStatus, logLevels, limits, headerAnnotation }", file, "");
  const list = (key: string): unknown[] => {
    const v = data[key];
    if (!Array.isArray(v)) throw new InputError("expected an array", file, pointer(key));
    return v;
  };
  const errors = list("errors").map((e, i) => {
    if (!isObject(e) || !Number.isInteger(e.code) || !(typeof e.name === "string" && /^[A-Z][A-Z0-9_]*$/.test(e.name)) || !text(e.meaning) || !text(e.section)) {
      throw new InputError("expected { code: integer, name: SCREAMING_SNAKE, meaning, section }", file, pointer("errors", i));
    }
    return { code: e.code as number, name: e.name, meaning: e.meaning, section: e.section };
  });
  const httpStatus = list("httpStatus").map((e, i) => {
    if (!isObject(e) || !Number.isInteger(e.code) || !(Number.isInteger(e.status) && (e.status as number) >= 100 && (e.status as number) <= 599) || !text(e.section)) {
      throw new InputError("expected { code: integer, status: an HTTP status, section }", file, pointer("httpStatus", i));
    }
    return { code: e.code as number, status: e.status as number, section: e.section };
  });
  const seen = new Set<number>();
  httpStatus.forEach((e, i) => {
    if (seen.has(e.code)) throw new InputError(`${e.code} is given twice`, file, pointer("httpStatus", i, "code"));
    seen.add(e.code);
  });
  const levels = data.logLevels;
  if (!isObject(levels) || !Array.isArray(levels.order) || levels.order.length === 0 || !levels.order.every(text) || new Set(levels.order).size !== levels.order.length || !text(levels.section)) {
    throw new InputError("expected { order: [distinct level names, least severe first], section }", file, pointer("logLevels"));
  }
  const limits = list("limits").map((e, i) => {
    if (!isObject(e) || !(typeof e.name === "string" && /^[a-z][A-Za-z0-9]*Ms$/.test(e.name)) || !(Number.isInteger(e.ms) && (e.ms as number) >= 0) || !text(e.meaning) || !text(e.section)) {
      throw new InputError("expected { name: camelCase ending in Ms, ms: a non-negative integer, meaning, section }", file, pointer("limits", i));
    }
    return { name: e.name, ms: e.ms as number, meaning: e.meaning, section: e.section };
  });
  const meta = list("meta").map((e, i) => {
    if (!isObject(e) || !text(e.key) || !text(e.section)) throw new InputError("expected { key, section }", file, pointer("meta", i));
    return { key: e.key, section: e.section };
  });
  const extensions = list("extensions").map((e, i) => {
    if (!isObject(e) || !(typeof e.name === "string" && /^[a-z][a-z0-9-]*$/.test(e.name)) || !text(e.identifier) || !text(e.section)) {
      throw new InputError("expected { name: the lock's extension name, identifier, section }", file, pointer("extensions", i));
    }
    return { name: e.name, identifier: e.identifier, section: e.section };
  });
  const batches = data.batches;
  if (!isObject(batches) || !(typeof batches.firstVersionWithout === "string" && /^\d{4}-\d{2}-\d{2}$/.test(batches.firstVersionWithout)) || !text(batches.section)) {
    throw new InputError("expected { firstVersionWithout: a version date, section }", file, pointer("batches"));
  }
  const header = data.headerAnnotation;
  if (!isObject(header) || !text(header.keyword) || !text(header.section)) throw new InputError("expected { keyword, section }", file, pointer("headerAnnotation"));
  return { file, errors, meta, extensions, batches: { firstVersionWithout: batches.firstVersionWithout, section: batches.section }, httpStatus, logLevels: { order: levels.order as string[], section: levels.section }, limits, headerAnnotation: { keyword: header.keyword, section: header.section } };
}
