// JSON Schema `pattern` (and `patternProperties` keys): ECMA-262 regular expressions, read with the
// `u` flag, unanchored (a match anywhere). Parsed once here into a small tree; each target prints the
// tree in its own dialect (`printPattern`), every construct spelled so that it means exactly what it
// means in ECMA-262:
// - `^`/`$` are the input's ends (Ruby's are line anchors, Python's `$` also matches before a final
//   newline): printed `\A` and `\z` (Ruby, Go) / `\Z` (Python);
// - `.` is any code point but a line terminator (\n \r \u2028 \u2029; Ruby and Python exclude \n only);
// - `\d \w \s` (and `\D \W \S`, `\b \B`) are ASCII digits, ASCII word characters and ECMA-262's
//   white space and line terminators: printed as explicit sets (Python's are Unicode sets);
// - every other character is printed as a code point escape, so no character is special in a
//   dialect where it is not in ECMA-262 (Ruby's `[` nesting and `&&` inside a class, say).
// Refused (a `PatternError` naming the construct) where the meaning differs and no spelling keeps it:
// lookbehind (Python and Ruby take fixed-width lookbehind only), backreferences (an ECMA-262
// reference to a group that did not take part matches the empty string; Python and Ruby fail),
// Unicode property escapes (`\p{…}`: Python's `re` has none, Ruby's property names differ), a
// negated set escape (`\D \W \S`) inside a class, a lone surrogate (not a code point in Ruby).
// Go's RE2 has no lookaround and counts to 1000: printing a lookahead, `\b`/`\B` or a larger count in Go's
// dialect is a `PatternError` (the Go target refuses such a pattern, naming it, the file and the pointer).

export type PatternDialect = "python" | "ruby" | "go";

export class PatternError extends Error {}

type Disjunction = Term[][];
type ClassItem = { t: "cp"; cp: number } | { t: "range"; from: number; to: number } | { t: "set"; c: "d" | "w" | "s" };
type Term =
  | { t: "cp"; cp: number }
  | { t: "dot" }
  | { t: "start" }
  | { t: "end" }
  | { t: "boundary"; negated: boolean }
  | { t: "set"; c: "d" | "D" | "w" | "W" | "s" | "S" }
  | { t: "class"; negated: boolean; items: ClassItem[] }
  | { t: "group"; kind: "capture" | "plain" | "named" | "ahead" | "not-ahead"; name?: string; body: Disjunction }
  | { t: "quantified"; atom: Term; min: number; max: number | null; lazy: boolean };

/** A parsed pattern: print it with `printPattern`. */
export interface ParsedPattern {
  source: string;
  body: Disjunction;
}

/** ECMA-262's WhiteSpace and LineTerminator code points (what `\s` matches). */
const WHITE_SPACE = [[0x09, 0x0d], [0x20, 0x20], [0xa0, 0xa0], [0x1680, 0x1680], [0x2000, 0x200a], [0x2028, 0x2029], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff]] as const;
const DIGITS = [[0x30, 0x39]] as const;
const WORD = [[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]] as const;
const LINE_TERMINATORS = [[0x0a, 0x0a], [0x0d, 0x0d], [0x2028, 0x2029]] as const;
const SETS = { d: DIGITS, w: WORD, s: WHITE_SPACE } as const;

class Parser {
  private i = 0;
  constructor(private readonly s: string) {}

  parse(): Disjunction {
    const d = this.disjunction();
    if (this.i < this.s.length) throw new PatternError(`unexpected "${this.s[this.i]}" at ${this.i}`);
    return d;
  }

  private peek(): string | undefined {
    return this.s[this.i];
  }

  private eat(text: string): boolean {
    if (!this.s.startsWith(text, this.i)) return false;
    this.i += text.length;
    return true;
  }

  private disjunction(): Disjunction {
    const alternatives: Term[][] = [this.alternative()];
    while (this.eat("|")) alternatives.push(this.alternative());
    return alternatives;
  }

  private alternative(): Term[] {
    const terms: Term[] = [];
    while (this.i < this.s.length && this.peek() !== "|" && this.peek() !== ")") {
      const atom = this.atom();
      terms.push(this.quantifier(atom));
    }
    return terms;
  }

  private quantifier(atom: Term): Term {
    let min: number;
    let max: number | null;
    const c = this.peek();
    if (c === "*") [min, max] = [0, null];
    else if (c === "+") [min, max] = [1, null];
    else if (c === "?") [min, max] = [0, 1];
    else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.s.slice(this.i));
      if (m === null) throw new PatternError(`a lone "{" at ${this.i}`);
      this.i += m[0].length - 1;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === "" ? null : Number(m[3]);
    } else return atom;
    this.i++;
    const lazy = this.eat("?");
    return { t: "quantified", atom, min, max, lazy };
  }

  private atom(): Term {
    const c = this.s.codePointAt(this.i)!;
    const ch = String.fromCodePoint(c);
    if (ch === "^") return this.i++, { t: "start" };
    if (ch === "$") return this.i++, { t: "end" };
    if (ch === ".") return this.i++, { t: "dot" };
    if (ch === "[") return this.characterClass();
    if (ch === "(") return this.group();
    if (ch === "\\") return this.escape();
    if ("*+?{}])|".includes(ch)) throw new PatternError(`unexpected "${ch}" at ${this.i}`);
    this.i += ch.length;
    return this.codePoint(c);
  }

  private codePoint(cp: number): Term {
    if (cp >= 0xd800 && cp <= 0xdfff) throw new PatternError("a lone surrogate code point (not a character in Ruby's UTF-8 strings)");
    return { t: "cp", cp };
  }

  private group(): Term {
    const at = this.i;
    this.i++;
    let kind: "capture" | "plain" | "named" | "ahead" | "not-ahead" = "capture";
    let name: string | undefined;
    if (this.eat("?:")) kind = "plain";
    else if (this.eat("?=")) kind = "ahead";
    else if (this.eat("?!")) kind = "not-ahead";
    else if (this.s.startsWith("?<=", this.i) || this.s.startsWith("?<!", this.i)) {
      throw new PatternError("a lookbehind `(?<=…)`/`(?<!…)` (Python and Ruby take fixed-width lookbehind only)");
    } else if (this.eat("?<")) {
      const end = this.s.indexOf(">", this.i);
      name = this.s.slice(this.i, end);
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new PatternError(`the group name "${name}" (only ASCII names read alike everywhere)`);
      this.i = end + 1;
      kind = "named";
    } else if (this.peek() === "?") throw new PatternError(`the group "(${this.s.slice(this.i, this.i + 3)}" at ${at}`);
    const body = this.disjunction();
    if (!this.eat(")")) throw new PatternError(`an unclosed group at ${at}`);
    return { t: "group", kind, ...(name === undefined ? {} : { name }), body };
  }

  /** An escape outside a class. */
  private escape(): Term {
    const at = this.i;
    this.i++;
    const c = this.peek();
    if (c === undefined) throw new PatternError("a trailing backslash");
    if (c === "b" || c === "B") return this.i++, { t: "boundary", negated: c === "B" };
    if ("dDwWsS".includes(c)) return this.i++, { t: "set", c: c as "d" };
    if (/[1-9]/.test(c) || c === "k") throw new PatternError(`the backreference "${this.s.slice(at, at + 2)}" (a reference to a group that did not match matches the empty string in ECMA-262 only)`);
    if (c === "p" || c === "P") throw new PatternError(`the Unicode property escape "${this.s.slice(at, this.s.indexOf("}", at) + 1)}" (Python's re has none; Ruby's property names differ)`);
    return this.codePoint(this.characterEscape());
  }

  /** The code point of a character escape (after the backslash), in or out of a class. */
  private characterEscape(): number {
    const c = this.peek()!;
    const simple: Record<string, number> = { f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09, v: 0x0b };
    if (Object.hasOwn(simple, c)) return this.i++, simple[c];
    if (c === "c") {
      const letter = this.s[this.i + 1];
      this.i += 2;
      return letter.charCodeAt(0) % 32;
    }
    if (c === "0") return this.i++, 0;
    if (c === "x") {
      const hex = this.s.slice(this.i + 1, this.i + 3);
      this.i += 3;
      return parseInt(hex, 16);
    }
    if (c === "u") {
      if (this.s[this.i + 1] === "{") {
        const end = this.s.indexOf("}", this.i);
        const cp = parseInt(this.s.slice(this.i + 2, end), 16);
        this.i = end + 1;
        return cp;
      }
      const hi = parseInt(this.s.slice(this.i + 1, this.i + 5), 16);
      this.i += 5;
      // A surrogate pair written as two escapes is one code point with the `u` flag.
      if (hi >= 0xd800 && hi <= 0xdbff && /^\\u[dD][c-fC-F][0-9a-fA-F]{2}/.test(this.s.slice(this.i))) {
        const lo = parseInt(this.s.slice(this.i + 2, this.i + 6), 16);
        this.i += 6;
        return (hi - 0xd800) * 0x400 + (lo - 0xdc00) + 0x10000;
      }
      return hi;
    }
    // An identity escape: with the `u` flag, a syntax character, `/` or (in a class) `-`.
    const cp = this.s.codePointAt(this.i)!;
    this.i += String.fromCodePoint(cp).length;
    return cp;
  }

  private characterClass(): Term {
    const at = this.i;
    this.i++;
    const negated = this.eat("^");
    const items: ClassItem[] = [];
    const single = (): ClassItem => {
      if (this.eat("\\")) {
        const c = this.peek();
        if (c === "d" || c === "w" || c === "s") return this.i++, { t: "set", c };
        if (c === "D" || c === "W" || c === "S") throw new PatternError(`the negated set "\\${c}" inside a class`);
        if (c === "b") return this.i++, { t: "cp", cp: 0x08 };
        if (c === "-") return this.i++, { t: "cp", cp: 0x2d };
        if (c === "p" || c === "P") throw new PatternError(`the Unicode property escape "\\${c}{…}" (Python's re has none; Ruby's property names differ)`);
        const cp = this.characterEscape();
        if (cp >= 0xd800 && cp <= 0xdfff) throw new PatternError("a lone surrogate code point (not a character in Ruby's UTF-8 strings)");
        return { t: "cp", cp };
      }
      const cp = this.s.codePointAt(this.i)!;
      this.i += String.fromCodePoint(cp).length;
      if (cp >= 0xd800 && cp <= 0xdfff) throw new PatternError("a lone surrogate code point (not a character in Ruby's UTF-8 strings)");
      return { t: "cp", cp };
    };
    while (this.peek() !== "]") {
      if (this.i >= this.s.length) throw new PatternError(`an unclosed class at ${at}`);
      const from = single();
      if (from.t === "cp" && this.peek() === "-" && this.s[this.i + 1] !== "]") {
        this.i++;
        const to = single();
        if (to.t !== "cp") throw new PatternError(`a range to a set escape at ${at}`);
        items.push({ t: "range", from: from.cp, to: to.cp });
      } else items.push(from);
    }
    this.i++;
    return { t: "class", negated, items };
  }
}

/** Parse an ECMA-262 pattern (valid with the `u` flag); a `PatternError` names a construct no target can say alike. */
export function parsePattern(source: string): ParsedPattern {
  new RegExp(source, "u");
  return { source, body: new Parser(source).parse() };
}

/** A code point as an escape of the dialect (letters, digits and `_` as themselves). */
function char(cp: number, dialect: PatternDialect): string {
  if (/^[A-Za-z0-9_]$/.test(String.fromCodePoint(cp))) return String.fromCodePoint(cp);
  const hex = cp.toString(16).toUpperCase();
  if (dialect === "ruby") return cp < 0x80 ? `\\x${hex.padStart(2, "0")}` : `\\u{${hex}}`;
  if (dialect === "go") return `\\x{${hex}}`;
  if (cp < 0x100) return `\\x${hex.padStart(2, "0")}`;
  return cp < 0x10000 ? `\\u${hex.padStart(4, "0")}` : `\\U${hex.padStart(8, "0")}`;
}

function ranges(list: readonly (readonly [number, number])[], dialect: PatternDialect): string {
  return list.map(([a, b]) => (a === b ? char(a, dialect) : `${char(a, dialect)}-${char(b, dialect)}`)).join("");
}

function printTerm(t: Term, d: PatternDialect): string {
  switch (t.t) {
    case "cp":
      return char(t.cp, d);
    case "dot":
      return `[^${ranges(LINE_TERMINATORS, d)}]`;
    case "start":
      return "\\A";
    case "end":
      return d === "python" ? "\\Z" : "\\z";
    case "boundary": {
      if (d === "go") throw new PatternError(`Go's RE2 has no lookaround, which \\${t.negated ? "B" : "b"} needs`);
      const w = `[${ranges(WORD, d)}]`;
      return t.negated ? `(?:(?<=${w})(?=${w})|(?<!${w})(?!${w}))` : `(?:(?<=${w})(?!${w})|(?<!${w})(?=${w}))`;
    }
    case "set":
      return `[${t.c === t.c.toUpperCase() ? "^" : ""}${ranges(SETS[t.c.toLowerCase() as "d"], d)}]`;
    case "class": {
      if (t.items.length === 0) return t.negated ? `[${char(0, d)}-${char(0x10ffff, d)}]` : d === "go" ? `[^${char(0, d)}-${char(0x10ffff, d)}]` : "(?!)";
      const items = t.items.map((i) => (i.t === "cp" ? char(i.cp, d) : i.t === "range" ? `${char(i.from, d)}-${char(i.to, d)}` : ranges(SETS[i.c], d)));
      return `[${t.negated ? "^" : ""}${items.join("")}]`;
    }
    case "group": {
      if (d === "go" && (t.kind === "ahead" || t.kind === "not-ahead")) throw new PatternError("Go's RE2 has no lookahead");
      const body = printDisjunction(t.body, d);
      const open = { capture: "(", plain: "(?:", named: d === "python" ? `(?P<${t.name}>` : `(?<${t.name}>`, ahead: "(?=", "not-ahead": "(?!" }[t.kind];
      return `${open}${body})`;
    }
    case "quantified": {
      if (d === "go" && Math.max(t.min, t.max ?? 0) > 1000) throw new PatternError("Go's RE2 counts repetitions to 1000");
      const q = t.max === null ? (t.min === 0 ? "*" : t.min === 1 ? "+" : `{${t.min},}`) : t.min === 0 && t.max === 1 ? "?" : t.min === t.max ? `{${t.min}}` : `{${t.min},${t.max}}`;
      return `${printTerm(t.atom, d)}${q}${t.lazy ? "?" : ""}`;
    }
  }
}

function printDisjunction(body: Disjunction, d: PatternDialect): string {
  return body.map((alt) => alt.map((t) => printTerm(t, d)).join("")).join("|");
}

/** The pattern in a target's dialect: Python's `re` (searched with `re.search`), Ruby's Regexp (`match?`) or Go's RE2 (`MatchString`). */
export function printPattern(pattern: ParsedPattern, dialect: PatternDialect): string {
  return printDisjunction(pattern.body, dialect);
}

/** `printPattern(parsePattern(source), dialect)`. */
export function translatePattern(source: string, dialect: PatternDialect): string {
  return printPattern(parsePattern(source), dialect);
}
