// The value encoding of the 2026-07-28 routing headers (`Mcp-Name`, `Mcp-Param-*`), one pair for both
// sides: a value that is a safe plain-ASCII HTTP field value (RFC 9110 section 5.5: only 0x20-0x7E and
// tab, no leading or trailing whitespace, not already of the sentinel form) is sent as it is; any other is
// sent as `=?base64?<base64 of its UTF-8>?=`. The server decodes what a client encoded (the official
// TypeScript and Ruby clients encode `café` and `☃` this way), so a header is compared decoded.
// No dependency: a client (issue 27) imports the same file.

const PREFIX = "=?base64?";
const SUFFIX = "?=";
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Whether `value` must be sent in the `=?base64?…?=` form. */
export function needsHeaderEncoding(value: string): boolean {
  if (value.length === 0) return true;
  if (value.startsWith(PREFIX) && value.endsWith(SUFFIX)) return true;
  if (value !== value.trim()) return true;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c !== 9 && (c < 32 || c > 126)) return true;
  }
  return false;
}

/** The header value for `value`: as it is when safe, else `=?base64?…?=`. */
export function encodeHeaderValue(value: string): string {
  return needsHeaderEncoding(value) ? `${PREFIX}${Buffer.from(value, "utf8").toString("base64")}${SUFFIX}` : value;
}

/**
 * A received header value decoded: `=?base64?…?=` (strict alphabet and padding, valid UTF-8) to its text,
 * a plain value trimmed as it is; undefined when the base64 form is malformed.
 */
export function decodeHeaderValue(raw: string): string | undefined {
  const value = raw.trim();
  if (!(value.startsWith(PREFIX) && value.endsWith(SUFFIX) && value.length >= PREFIX.length + SUFFIX.length)) return value;
  const encoded = value.slice(PREFIX.length, value.length - SUFFIX.length);
  if (!BASE64.test(encoded)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(encoded, "base64"));
  } catch {
    return undefined;
  }
}
