// The TypeScript SDK adoption's policy (hand-written; the one copier puts it, as it is, in the TypeScript
// tree's typescript-sdk/ folder beside the generated wireTables.ts). It reads the generated per-era tables
// (`WireEra`: the METHOD_TABLE rows with status `present`) and answers the questions the SDK's hand
// registries and capability switches answered. Every SDK choice that differs from the schema is an option
// of `SdkPolicy`, off in `STRICT` (the schema's behaviour); the adoption's patch selects them.
// Self-contained: no import, so it compiles in the SDK's workspace and in this project alike.

/** Who sends a method: a side, or `both`. */
export type WireSender = "client" | "server" | "both";

/** One method of an era, as the generated table prints it. */
export interface WireRow {
  /** The request or notification definition (`SubscribeRequest`). */
  readonly definition: string;
  readonly sender: WireSender;
  /** A request's result definitions, in the schema's order (`["InputRequiredResult", "CallToolResult"]`). */
  readonly results?: readonly string[];
  /** A request's result shape (its normalizer's): `empty` when the result has no member but `_meta` (and `resultType`). */
  readonly shape?: "empty" | "object";
  /**
   * Capability key paths that must be declared (each a path into a capabilities object): the receiver's
   * for a request, the sender's for a notification. Empty when none.
   */
  readonly capabilities: readonly (readonly string[])[];
}

/** One era's methods: every request and notification its schema has (`present`), sorted by method. */
export interface WireEra {
  readonly requests: Readonly<Record<string, WireRow>>;
  readonly notifications: Readonly<Record<string, WireRow>>;
}

/** Where a capability is checked: before sending (`send`), or when a handler is registered (`handle`). */
export type CapabilitySite = "send" | "handle";

/** The SDK's choices where it differs from the schema, each off (absent) by default. */
export interface SdkPolicy {
  /**
   * Requests whose results the era's result map leaves out (a prefix ends with `/`): the SDK's typed
   * result map has no task family (`tasks/`), whose results callers validate with a schema they pass.
   */
  readonly resultsNotBuiltIn?: readonly string[];
  /**
   * Result definitions a request's result union is read without (`InputRequiredResult`, which the SDK's
   * multi-round-trip driver takes before its result map is asked): one definition left names the result.
   */
  readonly resultsLeftOut?: readonly string[];
  /** Result schema names replacing `<Result>Schema` for a method: the SDK's wire-seam wrappers. */
  readonly resultSchemaNames?: Readonly<Record<string, string>>;
  /**
   * `first`: a capability check requires the first path of a row only (the capability object, not its
   * sub-flags such as `listChanged`), except for the methods in `allPaths`. Absent: every path (the schema).
   */
  readonly capabilityPaths?: "first";
  /** With `capabilityPaths: "first"`: methods still checked on every path. */
  readonly allPaths?: readonly string[];
  /** Methods (a prefix ends with `/`) never checked at a site. */
  readonly unchecked?: Readonly<Partial<Record<CapabilitySite, readonly string[]>>>;
}

/** The schema's behaviour: no option selected. */
export const STRICT: SdkPolicy = {};

function listed(method: string, entries: readonly string[] | undefined): boolean {
  return (entries ?? []).some((e) => (e.endsWith("/") ? method.startsWith(e) : method === e));
}

/** The era's request methods, in the table's order. */
export function requestMethods(era: WireEra): string[] {
  return Object.keys(era.requests);
}

/** The era's notification methods, in the table's order. */
export function notificationMethods(era: WireEra): string[] {
  return Object.keys(era.notifications);
}

/** The schema name (`<Definition>Schema`) of a request the era has, else undefined. */
export function requestSchemaName(era: WireEra, method: string): string | undefined {
  const row = Object.prototype.hasOwnProperty.call(era.requests, method) ? era.requests[method] : undefined;
  return row === undefined ? undefined : `${row.definition}Schema`;
}

/** The schema name of a notification the era has, else undefined. */
export function notificationSchemaName(era: WireEra, method: string): string | undefined {
  const row = Object.prototype.hasOwnProperty.call(era.notifications, method) ? era.notifications[method] : undefined;
  return row === undefined ? undefined : `${row.definition}Schema`;
}

/**
 * The schema name of a request's result under the policy: its override, else `<Result>Schema` of its one
 * result definition (but those the policy's `resultsLeftOut` names); undefined when the era lacks the request,
 * the policy leaves its result out, or the result is a union.
 */
export function resultSchemaName(era: WireEra, method: string, policy: SdkPolicy = STRICT): string | undefined {
  const row = Object.prototype.hasOwnProperty.call(era.requests, method) ? era.requests[method] : undefined;
  if (row === undefined || listed(method, policy.resultsNotBuiltIn)) return undefined;
  const override = policy.resultSchemaNames?.[method];
  if (override !== undefined) return override;
  const results = (row.results ?? []).filter((r) => !(policy.resultsLeftOut ?? []).includes(r));
  return results.length === 1 ? `${results[0]}Schema` : undefined;
}

/** The methods of the era whose results the policy keeps, in the table's order. */
export function resultMethods(era: WireEra, policy: SdkPolicy = STRICT): string[] {
  return requestMethods(era).filter((m) => !listed(m, policy.resultsNotBuiltIn));
}

/** The row of a method in the first era that has it (requests or notifications), else undefined. */
export function rowOf(eras: readonly WireEra[], kind: "request" | "notification", method: string): WireRow | undefined {
  for (const era of eras) {
    const rows = kind === "request" ? era.requests : era.notifications;
    if (Object.prototype.hasOwnProperty.call(rows, method)) return rows[method];
  }
  return undefined;
}

/** The capability paths a check of `method` at `site` requires under the policy. */
export function requiredCapabilities(row: WireRow, method: string, site: CapabilitySite, policy: SdkPolicy = STRICT): (readonly string[])[] {
  if (listed(method, policy.unchecked?.[site])) return [];
  if (policy.capabilityPaths === "first" && !listed(method, policy.allPaths)) return row.capabilities.slice(0, 1);
  return [...row.capabilities];
}

/** The first of `paths` the capabilities object does not declare (a missing or falsy member), or null when all are declared. */
export function missingCapability(paths: readonly (readonly string[])[], capabilities: unknown): readonly string[] | null {
  for (const p of paths) {
    let at: unknown = capabilities;
    for (const key of p) at = at !== null && typeof at === "object" ? (at as Record<string, unknown>)[key] : undefined;
    if (!at) return p;
  }
  return null;
}

/**
 * The capability path a message lacks, or null: `method` of `kind` sent by `sender`, checked at `site` against
 * `capabilities` (the receiver's for a request, the sender's for a notification), by its row in the first of
 * `eras` that has it. A method no era has, or one `sender` does not send, needs nothing.
 */
export function missingCapabilityFor(
  eras: readonly WireEra[],
  kind: "request" | "notification",
  method: string,
  sender: "client" | "server",
  site: CapabilitySite,
  capabilities: unknown,
  policy: SdkPolicy = STRICT,
): readonly string[] | null {
  const row = rowOf(eras, kind, method);
  if (row === undefined || (row.sender !== sender && row.sender !== "both")) return null;
  return missingCapability(requiredCapabilities(row, method, site, policy), capabilities);
}

/**
 * The era's normalizer of an `empty`-shape result, as the generated code's: `{ _meta }` when `value` is a plain
 * object whose own `_meta` is a plain object, else `{}`; nothing else is sent. Undefined when the era has no
 * such request or its result is not `empty`-shaped (the value is then the caller's to keep). The modern era's
 * `resultType` is not added: the SDK's own encode seam stamps it.
 */
export function emptyResult(era: WireEra, method: string, value: unknown): { _meta?: Record<string, unknown> } | undefined {
  const row = Object.prototype.hasOwnProperty.call(era.requests, method) ? era.requests[method] : undefined;
  if (row?.shape !== "empty") return undefined;
  const meta = plain(value) && Object.prototype.hasOwnProperty.call(value, "_meta") ? (value as Record<string, unknown>)._meta : undefined;
  return plain(meta) ? { _meta: meta } : {};
}

function plain(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
