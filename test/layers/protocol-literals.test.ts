// No runtime spells a protocol constant (issue 36, item 2): the error codes, `_meta` keys, extension
// identifiers, the batch date, the header annotation and the log levels are the generated protocol
// module's (protocol.ts / protocol.py / protocol.rb / protocol/protocol.go, printed from the model), and every runtime file under
// runtimes/ imports them. The values searched for are read from the model the generator builds from the
// pinned schemas and schemas/protocol-facts.json, never from a hand list; a hit names file:line.
// Comments and docstrings may name a code (they explain it); code may not.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { unknownMethodVerdict, VERDICT_SLOTS } from "../../generator/model/table.js";
import { buildModel } from "../../generator/pipeline.js";
import { readLock } from "../../generator/source/lock.js";
import { lockFile, modelOptions, root } from "../support.js";

const model = buildModel({ ...modelOptions, lock: await readLock(lockFile) });
const facts = model.protocol;

/** Every file under `dir` (recursively) whose name `accept` takes, absolute, sorted. */
function filesUnder(dir: string, accept: (name: string) => boolean): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && accept(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

type Language = "typescript" | "python" | "ruby" | "go";

/** The text with comments (and Python's docstrings) blanked, line breaks kept so that line numbers hold. */
export function codeOnly(text: string, language: Language): string {
  const blank = (m: string) => m.replace(/[^\n]/g, " ");
  if (language === "typescript" || language === "go") return text.replace(/\/\*[\s\S]*?\*\//g, blank).replace(/(^|[ \t])\/\/.*$/gm, (m, lead: string) => lead + blank(m.slice(lead.length)));
  if (language === "python") return text.replace(/^([ \t]*)("""[\s\S]*?""")/gm, (m, lead: string, doc: string) => lead + blank(doc)).replace(/(^|[ \t])#.*$/gm, (m, lead: string) => lead + blank(m.slice(lead.length)));
  return text.replace(/(^|[ \t])#(?!\{).*$/gm, (m, lead: string) => lead + blank(m.slice(lead.length)));
}

/** The literal spellings of the protocol values in code: a code as -32601 (Ruby also -32_601), a string quoted either way. */
function spellings(): { what: string; pattern: RegExp }[] {
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const out: { what: string; pattern: RegExp }[] = [];
  for (const e of facts.errors) {
    const digits = String(-e.code);
    out.push({ what: `${e.name} (${e.code})`, pattern: new RegExp(`-\\s*(?:${digits}|${digits.slice(0, 2)}_${digits.slice(2)})(?![0-9_])`) });
  }
  const strings = [
    ...facts.meta.map((m) => ({ what: `META_${m.name}`, value: m.key })),
    ...facts.extensions.map((e) => ({ what: `EXTENSION_${e.name}`, value: e.identifier })),
    { what: "the first version without batches (a model bound; no runtime compares dates)", value: facts.firstVersionWithoutBatches },
    { what: "HEADER_ANNOTATION", value: facts.reviewed.headerAnnotation.keyword },
  ];
  // A string is spelled when it opens a string literal (`"progressToken"`, `'io.modelcontextprotocol/tasks#owner'`).
  for (const s of strings) out.push({ what: `${s.what} (${JSON.stringify(s.value)})`, pattern: new RegExp(`["'\`]${escape(s.value)}(?![A-Za-z0-9_/.-])`) });
  // The log levels' order, spelled as a list of them.
  const levels = facts.reviewed.logLevels.order;
  out.push({ what: "LOG_LEVELS", pattern: new RegExp(levels.slice(0, 3).map((l) => `["']${escape(l)}["']`).join("\\s*,\\s*")) });
  return out;
}

const runtimes = path.join(root, "runtimes");
const sources: { file: string; language: Language }[] = [
  ...filesUnder(path.join(runtimes, "typescript", "src"), (n) => n.endsWith(".ts")).map((file) => ({ file, language: "typescript" as const })),
  ...filesUnder(path.join(runtimes, "python", "src"), (n) => n.endsWith(".py")).map((file) => ({ file, language: "python" as const })),
  ...filesUnder(path.join(runtimes, "ruby"), (n) => n.endsWith(".rb")).map((file) => ({ file, language: "ruby" as const })),
  ...filesUnder(path.join(runtimes, "go"), (n) => n.endsWith(".go")).map((file) => ({ file, language: "go" as const })),
];

/** Every spelled protocol value in `text` (code only), as `file:line: what`. */
function hits(text: string, language: Language, file: string): string[] {
  const out: string[] = [];
  const lines = codeOnly(text, language).split("\n");
  for (const { what, pattern } of spellings()) {
    lines.forEach((line, i) => {
      if (pattern.test(line)) out.push(`${file}:${i + 1}: ${what}`);
    });
  }
  return out;
}

describe("no runtime spells a protocol constant: each imports the generated protocol module", () => {
  it("the model has the facts the search looks for (the search is not vacuous)", () => {
    const names = facts.errors.map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(["PARSE_ERROR", "INVALID_REQUEST", "METHOD_NOT_FOUND", "INVALID_PARAMS", "INTERNAL_ERROR", "SERVER_ERROR"]));
    expect(facts.meta.length).toBeGreaterThan(0);
    expect(sources.filter((s) => s.language === "typescript").length).toBeGreaterThan(10);
    expect(sources.filter((s) => s.language === "python").length).toBeGreaterThan(5);
    expect(sources.filter((s) => s.language === "ruby").length).toBeGreaterThan(1);
    expect(sources.filter((s) => s.language === "go").length).toBeGreaterThan(1);
  });

  it("the search finds each kind of spelling in code, and none in comments or docstrings", () => {
    const code = facts.errors.find((e) => e.name === "METHOD_NOT_FOUND")!.code;
    const meta = facts.meta[0].key;
    expect(hits(`const a = ${code};\nconst b = "${meta}";`, "typescript", "x.ts")).toEqual([`x.ts:1: METHOD_NOT_FOUND (${code})`, `x.ts:2: META_${facts.meta[0].name} (${JSON.stringify(meta)})`]);
    expect(hits(`X = ${String(code).replace(/^-(\d\d)/, "-$1_")}\n`, "ruby", "x.rb")).toEqual([`x.rb:1: METHOD_NOT_FOUND (${code})`]);
    expect(hits(`// answered ${code}\n/** ${code} */\n`, "typescript", "x.ts")).toEqual([]);
    expect(hits(`def f():\n    """Answered ${code}\n    "${meta}"."""\n    return 1  # not ${code}\n`, "python", "x.py")).toEqual([]);
    expect(hits(`# ${code}\nx = "#{y}"\n`, "ruby", "x.rb")).toEqual([]);
    expect(hits(`func (e *E) Code() int { return ${code} }\nvar k = \`${meta}\`\n// ${code}\n`, "go", "x.go")).toEqual([`x.go:1: METHOD_NOT_FOUND (${code})`, `x.go:2: META_${facts.meta[0].name} (${JSON.stringify(meta)})`]);
  });

  it("every runtime file under runtimes/ is free of them", () => {
    const found = sources.flatMap(({ file, language }) => hits(readFileSync(file, "utf8"), language, path.relative(root, file)));
    expect(found).toEqual([]);
  });
});

/** The text every gate message opens with, before the method (`Method not found:`), read from the model. */
const gateOpening = (() => {
  const unknown = unknownMethodVerdict(facts).message;
  return unknown.slice(0, unknown.indexOf(VERDICT_SLOTS.method)).trim();
})();

/**
 * The gate's wording, read from the model: each refusal message of every table (and UNKNOWN_METHOD's template)
 * without its method and its version, the text between them (`is sent by the client only in protocol version`).
 * A file spells a gate message when its code holds the opening and one of these (Ruby's params_errors may say
 * a method "is not a method of protocol version …" to its caller, without the opening: that is no answer to a peer).
 */
function gateWording(): string[] {
  const out = new Set<string>();
  const unknown = unknownMethodVerdict(facts).message;
  const between = (message: string, method: string, version: string) => message.slice(message.indexOf(method) + method.length, message.indexOf(version, message.indexOf(method) + method.length)).trim();
  out.add(between(unknown, VERDICT_SLOTS.method, VERDICT_SLOTS.protocolVersion));
  for (const [label, table] of model.tables) {
    const version = label.split("+")[0];
    for (const [method, row] of Object.entries(table)) for (const v of Object.values(row.verdicts)) if (!v.accepted) out.add(between(v.message, method, version));
  }
  return [...out].sort();
}

describe("no runtime writes a gate message: each looks the verdict up in its METHOD_TABLE (or UNKNOWN_METHOD)", () => {
  it("the model's refusals have wording to look for", () => {
    const wording = gateWording();
    expect(wording.length).toBeGreaterThanOrEqual(2);
    for (const w of wording) expect(w.length, w).toBeGreaterThan(10);
    expect(gateOpening.length).toBeGreaterThan(5);
  });

  /** What of the gate's wording a file's code spells beside the opening, as `file: wording`. */
  const spelled = (text: string, language: Language, file: string): string[] => {
    const code = codeOnly(text, language);
    return code.includes(gateOpening) ? gateWording().filter((w) => code.includes(w)).map((w) => `${file}: ${w}`) : [];
  };

  it("the search finds a gate message written in code, its opening and wording apart, and none in comments", () => {
    const [wording] = gateWording();
    expect(spelled(`const m = \`${gateOpening} \${method} \${why}\`;\nrefused("${wording} \${v}");\n`, "typescript", "x.ts")).toEqual([`x.ts: ${wording}`]);
    expect(spelled(`# ${gateOpening} x ${wording}\n`, "ruby", "x.rb")).toEqual([]);
    expect(spelled(`raise Error, "x ${wording} y"\n`, "ruby", "x.rb")).toEqual([]);
  });

  it("no runtime file spells it in code (the Go runtime's included)", () => {
    expect(sources.some((s) => s.language === "go")).toBe(true);
    const found = sources.flatMap(({ file, language }) => spelled(readFileSync(file, "utf8"), language, path.relative(root, file)));
    expect(found).toEqual([]);
  });
});
