// The 2026-07-28 HTTP request headers a client derives from a message (SEP-2243): `Mcp-Method`,
// `Mcp-Name`, and the `Mcp-Param-*` headers mirrored from the tool arguments its `inputSchema`
// designates with `x-mcp-header`; and which tools a client must exclude for an invalid designation.
import { HEADER_ANNOTATION } from "../protocol.js";
import { isPlainObject } from "./jsonrpc.js";

/** RFC 9110 token characters: what a header field name may hold. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** The JSON Schema types a header may mirror (a number's text form is not canonical: excluded). */
const PRIMITIVE = new Set(["string", "integer", "boolean"]);

/**
 * Why a tool's `x-mcp-header` designations are invalid (the tool must not be used), or undefined:
 * each must be a non-empty token, on a property of type string, integer or boolean, and unique
 * case-insensitively.
 */
export function invalidHeaderDesignation(tool: unknown): string | undefined {
  const schema = isPlainObject(tool) ? tool.inputSchema : undefined;
  const properties = isPlainObject(schema) && isPlainObject(schema.properties) ? schema.properties : {};
  const seen = new Set<string>();
  for (const [key, property] of Object.entries(properties)) {
    if (!isPlainObject(property) || !Object.hasOwn(property, HEADER_ANNOTATION)) continue;
    const name = property[HEADER_ANNOTATION];
    if (typeof name !== "string" || name === "") return `${HEADER_ANNOTATION} of ${key} is empty or not a string`;
    if (!TOKEN.test(name)) return `${HEADER_ANNOTATION} ${JSON.stringify(name)} of ${key} is not a header name token`;
    if (typeof property.type !== "string" || !PRIMITIVE.has(property.type)) return `${HEADER_ANNOTATION} of ${key} is on a ${JSON.stringify(property.type)} property (string, integer or boolean only)`;
    const folded = name.toLowerCase();
    if (seen.has(folded)) return `${HEADER_ANNOTATION} ${JSON.stringify(name)} is used twice`;
    seen.add(folded);
  }
  return undefined;
}

/** The argument → header name designations of a tool's `inputSchema`. */
export function headerDesignations(inputSchema: unknown): Array<[argument: string, header: string]> {
  const properties = isPlainObject(inputSchema) && isPlainObject(inputSchema.properties) ? inputSchema.properties : {};
  const out: Array<[string, string]> = [];
  for (const [key, property] of Object.entries(properties)) {
    if (isPlainObject(property) && typeof property[HEADER_ANNOTATION] === "string") out.push([key, property[HEADER_ANNOTATION]]);
  }
  return out;
}

/** A header value as the spec encodes it: plain when visible ASCII (inner spaces allowed) with no outer whitespace, else `=?base64?…?=` of its UTF-8. */
export function encodeHeaderValue(value: string): string {
  const plain = /^[\x20-\x7e]*$/.test(value) && value.trim() === value;
  return plain ? value : `=?base64?${Buffer.from(value, "utf8").toString("base64")}?=`;
}

/** What names a request in `Mcp-Name`: the value of its `nameParam` (its METHOD_TABLE row's: `name` of tools/call, `uri` of resources/read), when a string. */
export function nameOf(nameParam: string | null | undefined, params: unknown): string | undefined {
  const value = nameParam !== null && nameParam !== undefined && isPlainObject(params) && Object.hasOwn(params, nameParam) ? params[nameParam] : undefined;
  return typeof value === "string" ? value : undefined;
}

/**
 * The SEP-2243 headers of one 2026-07-28 POST: `Mcp-Method`, `Mcp-Name` when the method names
 * something (`nameParam`, its METHOD_TABLE row's), and for tools/call each designated argument present
 * and not null as `Mcp-Param-<name>`.
 */
export function modernHeaders(message: { method?: unknown; params?: unknown }, nameParam?: string | null, inputSchema?: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  if (typeof message.method !== "string") return headers;
  headers["mcp-method"] = message.method;
  const name = nameOf(nameParam, message.params);
  if (name !== undefined) headers["mcp-name"] = encodeHeaderValue(name);
  if (message.method === "tools/call" && inputSchema !== undefined) {
    const args = isPlainObject(message.params) && isPlainObject(message.params.arguments) ? message.params.arguments : {};
    for (const [argument, header] of headerDesignations(inputSchema)) {
      const value = Object.hasOwn(args, argument) ? args[argument] : undefined;
      if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") continue;
      headers[`mcp-param-${header.toLowerCase()}`] = encodeHeaderValue(String(value));
    }
  }
  return headers;
}
