// The one intermediate model of mcp-codegen. Every emitter reads these types and nothing else:
// never the raw schema file. Loading (generator/spec/) produces `LoadedSpec`; the model pass
// (generator/model/build.ts) turns it into `VersionModel`. The loaded form's types belong to the spec
// layer (generator/spec/types.ts) and are re-exported here for the emitters.
import type { Dialect, JsonSchema } from "../spec/types.js";

export type { Dialect, JsonSchema, LoadedSpec } from "../spec/types.js";

/**
 * `legacy`: the schema has an `initialize` request (stateful sessions, 2024-11-05 … 2025-11-25).
 * `modern`: no `initialize` (stateless, `resultType` on every result; 2026-07-28 and later).
 */
export type Era = "legacy" | "modern";

/** Which side sends a message. `both` when it appears in the client's and the server's union. */
export type Sender = "client" | "server" | "both";

/**
 * `empty`: the result's properties are only `_meta` (plus `resultType` in the modern era);
 * a handler's return is normalized to `{ _meta }` or `{}`. `object`: anything else.
 */
export type ResultShape = "empty" | "object";

/** A reference to a TypeScript type of the version's `types.ts`. */
export interface TypeRef {
  /** TypeScript type text, valid inside the version's types module (`CallToolRequest["params"]`). */
  ts: string;
  /** The definition name when the type is exactly one definition, else null. */
  definition: string | null;
  /** Every definition the text names, sorted: what a module using `ts` must import. */
  refs: string[];
}

export interface MethodParams {
  type: TypeRef;
  /** `params` is in the message's `required` list. */
  required: boolean;
  /** The params schema (a `$ref` node or an inline object schema), for validators and dispatch. */
  schema: JsonSchema;
}

export interface RequestMethod {
  kind: "request";
  /** The JSON-RPC method, from the definition's `method` const. */
  method: string;
  sender: Sender;
  /** The request definition (`SubscribeRequest`). */
  definition: string;
  params: MethodParams | null;
  /** Result definitions in order; more than one means a union (`InputRequiredResult | CallToolResult`). */
  results: string[];
  /** TypeScript type of the result (`EmptyResult`, `InputRequiredResult | CallToolResult`). */
  resultType: TypeRef;
  resultShape: ResultShape;
  /** Where the result mapping came from. */
  resultSource: "result-response" | "name" | "empty-result" | "override";
}

export interface NotificationMethod {
  kind: "notification";
  method: string;
  sender: Sender;
  /** The notification definition, or the union's own name when the union is an inline schema. */
  definition: string;
  params: MethodParams | null;
}

export type Method = RequestMethod | NotificationMethod;

export interface VersionModel {
  label: string;
  era: Era;
  dialect: Dialect;
  sha256: string;
  /** Spec repository commit the schema was pinned at, or null for schemas outside the lock. */
  specCommit: string | null;
  /** Names of patches applied at load. */
  patches: string[];
  /** Definitions by name, sorted by name. */
  definitions: Readonly<Record<string, JsonSchema>>;
  /** Requests sorted by method. */
  requests: RequestMethod[];
  /** Notifications sorted by method. */
  notifications: NotificationMethod[];
}

/** The model of a whole generation run: versions sorted by label. */
export interface ProtocolModel {
  versions: VersionModel[];
}
