// Errors the library throws. It never prints or exits: the CLI maps these to messages and exit codes.

/** Bad input: a schema, lock, patch, override or argument that is not what was expected (CLI exit 2). */
export class InputError extends Error {
  override name = "InputError";
  constructor(
    message: string,
    /** The file the problem is in, when there is one. */
    readonly file?: string,
    /** JSON pointer into that file (RFC 6901), when the problem has a place. */
    readonly pointer?: string,
  ) {
    super(InputError.format(message, file, pointer));
  }

  static format(message: string, file?: string, pointer?: string): string {
    if (file === undefined) return message;
    return pointer === undefined ? `${file}: ${message}` : `${file}#${pointer}: ${message}`;
  }
}

/**
 * Bad input in how the tool was asked rather than in a file: an option that does not apply, a value an
 * option cannot take, an unknown target (CLI exit 2, with a pointer to the help).
 */
export class UsageError extends InputError {
  override name = "UsageError";
}

/** Escape one JSON pointer reference token (RFC 6901). */
export function pointerToken(token: string | number): string {
  return String(token).replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Unescape one JSON pointer reference token (RFC 6901: `~1` is `/`, then `~0` is `~`). */
export function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** Join reference tokens into a JSON pointer (`["$defs", "a/b"]` → `/$defs/a~1b`). */
export function pointer(...tokens: Array<string | number>): string {
  return tokens.map((t) => "/" + pointerToken(t)).join("");
}

/** Split a JSON pointer into unescaped tokens. */
export function parsePointer(ptr: string): string[] {
  if (ptr === "") return [];
  if (!ptr.startsWith("/")) throw new Error(`not a JSON pointer: ${ptr}`);
  return ptr
    .slice(1)
    .split("/")
    .map(unescapePointerToken);
}
