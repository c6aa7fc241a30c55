// The served versions of a router: each one's entry (handlers, capabilities, dispatcher options,
// extensions, custom methods) over its generated table entry, and the dispatchers made from them,
// with the version's custom methods in front (./custom-methods.ts) and the router's `onError` where
// the version has none of its own.
import { principalOf, type AuthInfo } from "./auth.js";
import { withCustomMethods, type CustomMethods } from "./custom-methods.js";
import type { Dispatcher, DispatcherOptions } from "./dispatcher.js";
import type { ConnectionInfo, Era, RoutedVersion, RouterOptions, RouterTable, ServedMap } from "./router-api.js";
import type { RoutedExtension, ServedExtension } from "./router-extensions.js";

/** One served version as the router reads it. */
export interface ServedEntry {
  handlers: object | ((connection: ConnectionInfo) => object);
  capabilities: object;
  dispatcher?: DispatcherOptions;
  extensions?: Readonly<Record<string, ServedExtension | undefined>>;
  custom?: CustomMethods;
}

/** A served extension of a version: its identifier, what the author serves, and its generated table entry. */
export interface ServedExtensionRoute {
  readonly id: string;
  readonly served: ServedExtension;
  readonly routed: RoutedExtension;
}

/** A served version's extensions the tree has, in identifier order, with their table entries; one the tree lacks is an error. */
export function servedExtensions(entry: ServedEntry, routed: RoutedVersion<string, Era>): ServedExtensionRoute[] {
  const out: ServedExtensionRoute[] = [];
  for (const id of Object.keys(entry.extensions ?? {}).sort()) {
    const served = entry.extensions![id];
    if (served === undefined) continue;
    const table = routed.extensions?.[id];
    if (table === undefined) throw new Error(`protocol version ${routed.label} has no extension ${id} in the generated tree`);
    out.push({ id, served, routed: table });
  }
  return out;
}

/** The caller members of a dispatcher exchange: `auth` as given, `principal` as given or derived from `auth`. */
export function caller(exchange: { auth?: AuthInfo; principal?: string }): { auth?: AuthInfo; principal?: string } {
  const principal = exchange.principal ?? principalOf(exchange.auth);
  if (exchange.auth === undefined && principal === undefined) return {};
  return { ...(exchange.auth === undefined ? {} : { auth: exchange.auth }), ...(principal === undefined ? {} : { principal }) };
}

/** The served versions of one router, over the generated table. */
export class ServedVersions<L extends string, M extends string> {
  /** The served versions, oldest first; the legacy and the modern ones. */
  readonly versions: Array<L | M>;
  readonly legacyVersions: L[];
  readonly modernVersions: M[];
  private readonly served = new Map<L | M, ServedEntry>();
  private readonly generated: Map<L | M, RoutedVersion<L | M, Era>>;
  private readonly options: RouterOptions<ServedMap<L, M>>;

  constructor(table: RouterTable<L, M>, options: RouterOptions<ServedMap<L, M>>) {
    this.options = options;
    for (const v of table.versions) {
      const entry = (options.versions as Readonly<Record<string, ServedEntry | undefined>>)[v.label];
      if (entry !== undefined) this.served.set(v.label, entry);
    }
    this.generated = new Map<L | M, RoutedVersion<L | M, Era>>(table.versions.map((v) => [v.label, v]));
    this.versions = [...this.served.keys()];
    this.legacyVersions = table.versions.filter((v): v is RoutedVersion<L, "legacy"> => v.era === "legacy" && this.served.has(v.label)).map((v) => v.label);
    this.modernVersions = table.versions.filter((v): v is RoutedVersion<M, "modern"> => v.era === "modern" && this.served.has(v.label)).map((v) => v.label);
  }

  /** A served version's entry. */
  entry(version: L | M): ServedEntry {
    return this.served.get(version)!;
  }

  /** A generated version's table entry, undefined for a label the tree does not have. */
  routed(version: string): RoutedVersion<L | M, Era> | undefined {
    return this.generated.get(version as L | M);
  }

  /** The handlers of a served version, its factory called for `connection` when it is one. */
  handlersFor(version: L | M, connection: ConnectionInfo<L>): object {
    const handlers = this.entry(version).handlers;
    return typeof handlers === "function" ? handlers(connection) : handlers;
  }

  /** A served version's dispatcher options, with the router's `onError` where it sets none. */
  dispatcherOptions(version: L | M): DispatcherOptions | undefined {
    const entry = this.entry(version);
    return this.options.onError === undefined || entry.dispatcher?.onError !== undefined ? entry.dispatcher : { ...entry.dispatcher, onError: this.options.onError };
  }

  /** A served version's dispatcher over `handlers`, its custom methods in front. */
  dispatcher(version: L | M, handlers: object): Dispatcher {
    return this.withCustom(version, this.generated.get(version)!.createDispatcher(handlers, this.dispatcherOptions(version)));
  }

  /** A version's dispatcher (its own or an extension module's) with its custom methods in front (none: as it is); a custom method may take no name its table has. */
  withCustom(version: L | M, dispatcher: Dispatcher): Dispatcher {
    const custom = this.entry(version).custom;
    if (custom === undefined) return dispatcher;
    const routed = this.generated.get(version)!;
    return withCustomMethods(dispatcher, custom, { protocolVersion: version, customResultTypes: routed.customResultTypes, taken: Object.keys(routed.methodTable) }, this.dispatcherOptions(version));
  }
}
