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

/**
 * The capability a receiver declares to accept a task-augmented `m` (2025-11-25: `tasks.requests.tools.call`,
 * `tasks.requests.sampling.createMessage`): `tasks.requests` then the method's segments, where the receiver's
 * capabilities definition declares that path; else null.
 */
export function taskCapability(version: VersionModel, m: Method): string[] | null {
  const path = ["tasks", "requests", ...m.method.split("/")];
  return declaringDefinitions(m).some((d) => declares(version, d, path.join("."))) ? path : null;
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

// ---- proposed entries for the methods a bump brings ----

/** A capability entry proposed for a method the reviewed data has no entry for, for a person to review. */
export interface ProposedCapabilityEntry {
  method: string;
  kind: "request" | "notification";
  /** The capability definitions the method's requirement reads (see `declaringDefinitions`). */
  definitions: string[];
  /** Capability members (dotted paths) the new version's definitions add to the old one's: what the proposal is drawn from. */
  added: string[];
  /** The entry to review into schemas/method-capabilities.json under `methods`. */
  entry: { requires: string[]; reason: string };
}

/** Every dotted property path of a capabilities definition (nested objects followed a few levels down). */
function capabilityPaths(version: VersionModel, definition: string): string[] {
  const out: string[] = [];
  const walk = (node: JsonSchema | null, prefix: string, depth: number) => {
    const properties = node?.properties;
    if (!isObject(properties) || depth > 4) return;
    for (const key of Object.keys(properties).sort()) {
      const at = prefix === "" ? key : `${prefix}.${key}`;
      out.push(at);
      walk(resolve(version, properties[key]), at, depth + 1);
    }
  };
  walk(resolve(version, { $ref: `#/$defs/${definition}` }), "", 0);
  return out;
}

/** `tools` and `tool` name the same capability area (the spec's method namespaces are not always plural). */
const stem = (word: string) => word.replace(/s$/, "");

/**
 * For each method of `after` that `data` has no entry for: a proposed entry, drawn from the capability
 * members `after` adds to `before` (its old bytes, or the version it is compared with) on the side the
 * method's requirement reads: the added members under the capability named like the method's namespace
 * (`notifications/tool/progress` with a new `tools.streaming` → `["tools", "tools.streaming"]`, every
 * ancestor path listed, as the reviewed entries are); else that capability alone when it exists; else
 * nothing required. Always a proposal: the report shows it, a person decides.
 */
export function proposeCapabilityEntries(before: VersionModel | null, after: VersionModel, data: MethodCapabilityData): ProposedCapabilityEntry[] {
  const proposals: ProposedCapabilityEntry[] = [];
  const methods = [...after.requests, ...after.notifications].filter((m) => !Object.hasOwn(data.methods, m.method));
  for (const m of [...methods].sort((a, b) => (a.method < b.method ? -1 : a.method > b.method ? 1 : 0))) {
    const definitions = declaringDefinitions(m);
    const now = [...new Set(definitions.flatMap((d) => capabilityPaths(after, d)))].sort();
    const then = new Set(before === null ? [] : definitions.flatMap((d) => capabilityPaths(before, d)));
    const added = now.filter((p) => !then.has(p));
    const namespace = stem(m.method.replace(/^notifications\//, "").split("/")[0]);
    const under = (p: string) => stem(p.split(".")[0]) === namespace;
    // The topmost added members under the namespace's capability, with every ancestor path.
    const chosen = added.filter((p) => under(p) && !added.includes(p.split(".").slice(0, -1).join(".")));
    const withAncestors = (paths: string[]) => [...new Set(paths.flatMap((p) => p.split(".").map((_, i, keys) => keys.slice(0, i + 1).join("."))))].sort();
    const top = now.find((p) => !p.includes(".") && under(p));
    const side = definitions.join(" or ");
    let requires: string[];
    let basis: string;
    if (chosen.length > 0) {
      requires = withAncestors(chosen);
      basis = `the same bump adds ${chosen.map((p) => `${p}`).join(", ")} to ${side}, under the capability named like the method's namespace`;
    } else if (top !== undefined) {
      requires = [top];
      basis = `${top} is the capability of ${side} named like the method's namespace; the bump adds no member under it`;
    } else {
      requires = [];
      basis = `no capability of ${side} is named like the method's namespace${added.length > 0 ? ` (the bump adds ${added.join(", ")})` : ""}`;
    }
    proposals.push({ method: m.method, kind: m.kind, definitions, added, entry: { requires, reason: `PROPOSED by bump, to review: ${basis}` } });
  }
  return proposals;
}
