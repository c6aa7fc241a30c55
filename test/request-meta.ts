// What a modern request's `params._meta` must carry at one locked version: the required keys of the
// `_meta` its schema's RequestParams declares (RequestMetaObject), read from schemas/<label>/schema.json,
// never assumed from today's revision (an earlier modern draft a bump brings also requires
// `io.modelcontextprotocol/clientInfo`). Tests that drive every modern label build their envelopes here.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { schemasDir } from "./support.js";

export const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
export const META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
export const META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo";

/** The client the tests' envelopes name where a version requires one. */
export const TEST_CLIENT_INFO = { name: "test-client", version: "1.0.0" };

type Schema = { $ref?: string; required?: string[]; properties?: Record<string, Schema> };

/** The required `_meta` keys of a request at `label` (the two routing keys for a label the lock does not have, e.g. an unserved version). */
export function requiredRequestMetaKeys(label: string): string[] {
  const file = path.join(schemasDir, label, "schema.json");
  if (!existsSync(file)) return [META_PROTOCOL_VERSION, META_CLIENT_CAPABILITIES];
  const doc = JSON.parse(readFileSync(file, "utf8")) as { $defs?: Record<string, Schema>; definitions?: Record<string, Schema> };
  const defs = doc.$defs ?? doc.definitions ?? {};
  const resolve = (s: Schema | undefined): Schema | undefined => (s?.$ref === undefined ? s : defs[s.$ref.replace(/^#\/(\$defs|definitions)\//, "")]);
  const meta = resolve(resolve(defs.RequestParams)?.properties?._meta);
  return [...(meta?.required ?? [])];
}

/**
 * `params._meta` of a modern request at `label`: every key its schema requires (the protocol version, the
 * given capabilities, a client info where required), then `extra`. A required key the tests cannot fill
 * fails naming it and this file, so a bump that adds one says where to teach the tests.
 */
export function requestMeta(label: string, capabilities: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const known: Record<string, unknown> = { [META_PROTOCOL_VERSION]: label, [META_CLIENT_CAPABILITIES]: capabilities, [META_CLIENT_INFO]: TEST_CLIENT_INFO };
  const meta: Record<string, unknown> = { [META_PROTOCOL_VERSION]: label, [META_CLIENT_CAPABILITIES]: capabilities };
  for (const key of requiredRequestMetaKeys(label)) {
    if (!Object.hasOwn(known, key)) throw new Error(`${label}: a request's _meta requires "${key}", which test/request-meta.ts cannot fill: add a value for it there`);
    meta[key] = known[key];
  }
  return { ...meta, ...extra };
}

/** Whether a definition of the version's schema declares a top-level property, through `$ref` and `allOf` (read from schemas/<label>/schema.json). */
export function declaresProperty(label: string, definition: string, property: string): boolean {
  const doc = JSON.parse(readFileSync(path.join(schemasDir, label, "schema.json"), "utf8")) as { $defs?: Record<string, Schema>; definitions?: Record<string, Schema> };
  const defs = doc.$defs ?? doc.definitions ?? {};
  const seen = new Set<string>();
  const declares = (s: (Schema & { allOf?: Schema[] }) | undefined): boolean => {
    if (s === undefined) return false;
    if (s.$ref !== undefined) {
      const name = s.$ref.replace(/^#\/(\$defs|definitions)\//, "");
      if (seen.has(name)) return false;
      seen.add(name);
      return declares(defs[name]);
    }
    return Object.hasOwn(s.properties ?? {}, property) || (s.allOf ?? []).some(declares);
  };
  return declares(defs[definition]);
}
