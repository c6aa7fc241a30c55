// The capability a method requires, decided once for every target: the reviewed entry of
// schemas/method-capabilities.json (generator/source/method-capabilities.ts), checked against the
// version's ServerCapabilities / ClientCapabilities definitions: every path a property of that
// version's capabilities. A method without an entry requires nothing (see `unreviewedMethods`: the tests
// hold every locked version's methods to an entry), and a version outside the lock requires only the
// paths its capabilities declare.
import { InputError, pointer } from "../errors.js";
import type { MethodCapabilityData } from "../source/method-capabilities.js";
import type { JsonSchema, Method, VersionModel } from "./types.js";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Follow `#/$defs/Name` references to the definition they name. */
function resolve(version: VersionModel, node: unknown): JsonSchema | null {
  let at = node;
  for (let hops = 0; isObject(at) && typeof at.$ref === "string" && hops < 16; hops++) {
    const m = /^#\/\$defs\/(.+)$/.exec(at.$ref);
    if (m === null) return null;
    at = version.definitions[decodeURIComponent(m[1])];
  }
  return isObject(at) ? (at as JsonSchema) : null;
}

/** Whether `capabilityPath` (`resources.subscribe`) is a declared property path of `definition`. */
function declares(version: VersionModel, definition: string, capabilityPath: string): boolean {
  let node: JsonSchema | null = resolve(version, { $ref: `#/$defs/${definition}` });
  for (const key of capabilityPath.split(".")) {
    const properties = node?.properties;
    if (!isObject(properties) || !Object.hasOwn(properties, key)) return false;
    node = resolve(version, properties[key]) ?? {};
  }
  return true;
}

/**
 * Which side's capabilities a method's requirement reads: the receiver's for a request (a client
 * request needs the server's, a server request the client's), the sender's for a notification; both
 * for a method both sides send (a path is declared when either declares it).
 */
function declaringDefinitions(m: Method): string[] {
  const server = "ServerCapabilities";
  const client = "ClientCapabilities";
  if (m.sender === "both") return [server, client];
  if (m.kind === "request") return [m.sender === "client" ? server : client];
  return [m.sender === "client" ? client : server];
}

/** Per version: method → the capability paths it requires (checked), for every method of the version. */
export function methodCapabilities(versions: readonly VersionModel[], data: MethodCapabilityData): Map<string, Map<string, string[]>> {
  const out = new Map<string, Map<string, string[]>>();
  for (const version of versions) {
    const byMethod = new Map<string, string[]>();
    for (const m of [...version.requests, ...version.notifications]) {
      const entry = Object.hasOwn(data.methods, m.method) ? data.methods[m.method] : undefined;
      // Not reviewed yet (a schema outside the lock, a bump's new method): no requirement until it is;
      // test/model/capabilities.test.ts holds every locked version's methods to an entry.
      if (entry === undefined) {
        byMethod.set(m.method, []);
        continue;
      }
      const own = entry.byVersion !== undefined && Object.hasOwn(entry.byVersion, version.label);
      const requires = own ? entry.byVersion![version.label] : entry.requires;
      // A method both sides send reads either side's capabilities: a path one of them declares is required
      // (roots/list, which a 2024 revision lists as a client request too, still requires the client's roots).
      const declared = requires.filter((capability) => declaringDefinitions(m).some((definition) => declares(version, definition, capability)));
      // The data is reviewed against the locked versions: there every path must be declared. A schema
      // outside the lock (another label, an older spec) requires only the paths its capabilities declare.
      const undeclared = requires.find((c) => !declared.includes(c) && !(entry.ifDeclared ?? []).includes(c));
      if (undeclared !== undefined && version.specCommit !== null) {
        const definition = declaringDefinitions(m).find((d) => !declares(version, d, undeclared))!;
        const at = own ? pointer("methods", m.method, "byVersion", version.label) : pointer("methods", m.method, "requires");
        throw new InputError(`${m.method} requires ${undeclared}, which ${definition} of protocol version ${version.label} does not declare`, data.file, at);
      }
      byMethod.set(m.method, declared);
    }
    out.set(version.label, byMethod);
  }
  return out;
}

/** `label method` of every method of these versions the data has no entry for, sorted. */
export function unreviewedMethods(versions: readonly VersionModel[], data: MethodCapabilityData): string[] {
  return versions
    .flatMap((v) => [...v.requests, ...v.notifications].filter((m) => !Object.hasOwn(data.methods, m.method)).map((m) => `${v.label} ${m.method}`))
    .sort();
}
