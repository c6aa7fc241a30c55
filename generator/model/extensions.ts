// The model of an extension version layered onto a core version. An extension's schema.json is
// self-contained: it repeats the core definitions it builds on (Result, JSONRPCRequest, and request
// shapes it only embeds, such as CreateMessageRequest inside InputRequests). One rule decides what
// the extension adds, and nothing scans method literals:
//
// 1. The extension's own definitions are the names its schema.ts declares (it imports the core's from
//    "./spec.types.js"), and those its schema.json defines that the core version's does not. Every
//    other definition is the core's: the extension's copy is not read (it may repeat an older core).
// 2. Clash rule: within the extension module (`<core>+<name>`) the extension's own definitions win. A
//    core that defines one of them too (a revision bumped in under the core's label, with Tasks in its
//    core) has it replaced there: the core's references to that name then mean the extension's, and a
//    core message of that name leaves the core's unions. The core module keeps its own. A method that
//    would then have two definitions (the core's under another name and the extension's) is bad input.
// 3. Its requests are its own definitions that are a `JSONRPCRequest` (an `allOf` with a `$ref` to the
//    core's `JSONRPCRequest`) and fix `method` with a const; its notifications likewise with
//    `JSONRPCNotification`. The client sends the requests and the server the notifications (the
//    schema has no ClientRequest/ServerNotification unions to say otherwise). A request's result is
//    found as the core's are (`<Base>Result`).
// 4. Core requests gain results only where the lock says so (`results`, from the extension's
//    specification text: Tasks lets `tools/call` answer `CreateTaskResult`); each must be one of its
//    own definitions, or a core definition of that name (a core it was not written for may define it
//    already, as a legacy revision with tasks does after a bump); one the request has is not repeated.
//
// The merged model is then built by the core's own model pass, over the core's definitions plus the
// extension's, with the extension's messages added to the core's unions.
import { InputError, pointer } from "../errors.js";
import type { LockedExtension } from "../source/extension-lock.js";
import { refName } from "../source/load.js";
import { byCodeUnit } from "../order.js";
import { buildVersionModel, messageBranch, type BuildOptions } from "./build.js";
import { IrBuilder } from "./ir-build.js";
import type { SpecTypeFacts } from "./spec-typescript.js";
import type { ExtensionModel, JsonSchema, LoadedSpec, VersionModel } from "./types.js";

export interface ExtensionInput {
  /** The extension's name in the lock. */
  name: string;
  locked: LockedExtension;
  /** The extension version's label. */
  label: string;
  spec: LoadedSpec;
  specTypes: SpecTypeFacts | null;
  /** The lock file, named by errors about its entry. */
  lockFile: string;
}

const ENVELOPES = { JSONRPCRequest: "request", JSONRPCNotification: "notification" } as const;

/** `request`/`notification` when the definition is an `allOf` naming that envelope, else null. */
function envelopeOf(def: JsonSchema): "request" | "notification" | null {
  if (!Array.isArray(def.allOf)) return null;
  for (const branch of def.allOf as JsonSchema[]) {
    if (typeof branch?.$ref === "string") {
      const kind = (ENVELOPES as Record<string, "request" | "notification" | undefined>)[refName(branch.$ref)];
      if (kind !== undefined) return kind;
    }
  }
  return null;
}

/** The string a message fixes its method to, or undefined. */
function methodOf(def: JsonSchema): { method: string | undefined; tokens: Array<string | number> } {
  const branch = messageBranch(def);
  const m = (branch.node.properties as Record<string, JsonSchema> | undefined)?.method;
  return { method: typeof m?.const === "string" ? m.const : undefined, tokens: [...branch.tokens, "properties", "method"] };
}

/** The methods of a core version, both kinds, but those whose definition is one of `replaced`. */
function coreMethods(model: VersionModel, replaced: readonly string[]): Set<string> {
  return new Set([...model.requests, ...model.notifications].filter((m) => !replaced.includes(m.definition)).map((m) => m.method));
}

/** A union definition (`anyOf`/`oneOf` of refs) without its `$ref`s to `names` (unchanged when it has none). */
function withoutMembers(def: JsonSchema | undefined, names: readonly string[]): JsonSchema | undefined {
  if (def === undefined || names.length === 0) return def;
  const key = Array.isArray(def.anyOf) ? "anyOf" : Array.isArray(def.oneOf) ? "oneOf" : null;
  if (key === null) return def;
  const members = def[key] as JsonSchema[];
  const kept = members.filter((m) => !(typeof m?.$ref === "string" && names.includes(refName(m.$ref))));
  return kept.length === members.length ? def : { ...def, [key]: kept };
}

/** Append `$ref`s to a union definition (`anyOf`/`oneOf` of refs). */
function withMembers(def: JsonSchema | undefined, union: string, names: string[], fail: (m: string) => never): JsonSchema | undefined {
  if (names.length === 0) return def;
  if (def === undefined) return { anyOf: names.map((n) => ({ $ref: `#/$defs/${n}` })) };
  const key = Array.isArray(def.anyOf) ? "anyOf" : Array.isArray(def.oneOf) ? "oneOf" : null;
  if (key === null) fail(`expected the core's ${union} to be an anyOf of its messages`);
  return { ...def, [key as string]: [...(def[key as string] as JsonSchema[]), ...names.map((n) => ({ $ref: `#/$defs/${n}` }))] };
}

/** The label of an extension's module for its core version, `<core>+<name>` (`2026-07-28+tasks`): its folder, its diff's name. */
export function extensionLabel(ext: Pick<ExtensionModel, "core" | "name">): string {
  return `${ext.core}+${ext.name}`;
}

export function buildExtensionModel(core: { spec: LoadedSpec; model: VersionModel }, input: ExtensionInput, options: BuildOptions): ExtensionModel {
  const ext = input.spec;
  const entry = input.locked.versions[input.label];
  const fail = (message: string, ...tokens: Array<string | number>): never => {
    throw new InputError(message, ext.file, pointer(ext.container, ...tokens));
  };
  const lockAt = (...tokens: Array<string | number>) => pointer("extensions", input.name, "versions", input.label, ...tokens);

  // The extension's schema on its own first, so that what no printer can express names its file.
  new IrBuilder(ext).finish();

  // A repeat of a core definition is not read: the core version's own is used (the copy may be of an
  // older core, as when the core label moves to a newer revision). What the extension's schema.ts
  // declares is its own, whatever the core defines (rule 2: the extension's wins in its module).
  const declared = input.specTypes === null ? {} : input.specTypes.definitions;
  const own = Object.keys(ext.defs).filter((name) => !Object.hasOwn(core.spec.defs, name) || Object.hasOwn(declared, name)).sort(byCodeUnit);
  const replaced = own.filter((name) => Object.hasOwn(core.spec.defs, name));

  const taken = coreMethods(core.model, replaced);
  const added = { request: [] as Array<{ name: string; method: string }>, notification: [] as Array<{ name: string; method: string }> };
  for (const name of own) {
    const kind = envelopeOf(ext.defs[name]);
    if (kind === null) continue;
    const { method, tokens } = methodOf(ext.defs[name]);
    if (method === undefined) fail(`expected ${name} (a ${kind} of the extension) to fix its method with a string "const"`, name, ...tokens);
    if (taken.has(method!)) {
      const theirs = [...core.model.requests, ...core.model.notifications].find((m) => m.method === method)?.definition;
      fail(`${name} adds the method "${method}", which core version ${core.model.label} has already${theirs === undefined ? "" : ` (as ${theirs})`}`, name, ...tokens, "const");
    }
    taken.add(method!);
    added[kind].push({ name, method: method! });
  }

  const results = entry.results ?? {};
  const overrides = Object.entries(results).map(([method, names]) => {
    const request = core.model.requests.find((r) => r.method === method);
    if (request === undefined) throw new InputError(`"${method}" is not a request of core version ${core.model.label}`, input.lockFile, lockAt("results", method));
    names.forEach((n, i) => {
      if (!own.includes(n) && !Object.hasOwn(core.spec.defs, n)) throw new InputError(`"${n}" is not a definition the extension adds or its core version has`, input.lockFile, lockAt("results", method, i));
    });
    return { versions: "*" as const, method, results: [...new Set([...request.results, ...names])], why: `extension ${input.name}@${input.label}`, source: { file: input.lockFile, pointer: lockAt("results", method) } };
  });

  const defs: Record<string, JsonSchema> = { ...core.spec.defs };
  for (const name of own) defs[name] = ext.defs[name];
  const coreFail = (m: string): never => {
    throw new InputError(m, core.spec.file, pointer(core.spec.container));
  };
  // A replaced core message leaves the core's unions; the extension's messages join them by rule 3.
  const unions = ["ClientRequest", "ServerRequest", "ClientNotification", "ServerNotification"] as const;
  const union = (name: (typeof unions)[number]) => withoutMembers(core.spec.defs[name], replaced);
  for (const name of unions) {
    const def = union(name);
    if (def !== undefined && def !== core.spec.defs[name]) defs[name] = def;
  }
  const clientRequest = withMembers(union("ClientRequest"), "ClientRequest", added.request.map((a) => a.name), coreFail);
  const serverNotification = withMembers(union("ServerNotification"), "ServerNotification", added.notification.map((a) => a.name), coreFail);
  if (clientRequest !== undefined) defs.ClientRequest = clientRequest;
  if (serverNotification !== undefined) defs.ServerNotification = serverNotification;
  const merged: LoadedSpec = { ...core.spec, defs };

  const specTypes: SpecTypeFacts | null =
    core.model.specTypes && input.specTypes
      ? { file: core.model.specTypes.file, sha256: core.model.specTypes.sha256, constants: core.model.specTypes.constants, definitions: { ...core.model.specTypes.definitions, ...Object.fromEntries(own.filter((n) => input.specTypes!.definitions[n]).map((n) => [n, input.specTypes!.definitions[n]])) } }
      : (core.model.specTypes ?? null);
  const model = buildVersionModel(merged, { ...options, overrides: [...overrides, ...(options.overrides ?? [])], specTypes });
  return {
    name: input.name,
    identifier: input.locked.identifier,
    label: input.label,
    core: core.model.label,
    file: ext.file,
    sha256: ext.sha256,
    commit: entry.sha256 === ext.sha256 ? entry.commit : null,
    definitions: own,
    replaced,
    requests: added.request.map((a) => a.method).sort(byCodeUnit),
    notifications: added.notification.map((a) => a.method).sort(byCodeUnit),
    results: Object.fromEntries(Object.entries(results).map(([m, names]) => [m, [...names]])),
    model,
  };
}
