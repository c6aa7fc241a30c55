// The one intermediate model of mcp-codegen. Every emitter reads these types and nothing else:
// never the raw schema file. The model is language-neutral: it holds the spec's own names and the
// rules that decide each method (sender, result shape, allowed `resultType` values), never a target's
// identifiers or syntax; each target names and prints it (generator/emit/<target>/). Loading (generator/source/) produces `LoadedSpec`; the model pass
// (generator/model/build.ts) turns it into `VersionModel`, whose `ir` is the schema IR the printers read.
// The loaded form's types belong to the input layer (generator/source/types.ts) and are re-exported here.
import type { Dialect, JsonSchema } from "../source/types.js";
import type { IrNode, SchemaIR } from "./ir.js";
import type { VersionErratum } from "./errata.js";
import type { SpecTypeFacts } from "./spec-typescript.js";
import type { ProtocolFacts } from "./protocol-types.js";

export type { Dialect, JsonSchema, LoadedSpec } from "../source/types.js";

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

export interface MethodParams {
  /**
   * The params definition (its original name, a key of `ir.definitions`) when the params schema is a
   * `$ref`; null when it is inline, i.e. the `params` property of the message definition itself.
   */
  definition: string | null;
  /** `params` is in the message's `required` list. */
  required: boolean;
  /** The params schema as written (a `$ref` node or an inline object schema). */
  schema: JsonSchema;
  /** The params as an IR node (a `ref` node, or the inline schema's node): what validators print. */
  node: IrNode;
}

export interface RequestMethod {
  kind: "request";
  /** The JSON-RPC method, from the definition's `method` const. */
  method: string;
  sender: Sender;
  /** The request definition (`SubscribeRequest`). */
  definition: string;
  params: MethodParams | null;
  /**
   * Result definitions (original names, keys of `ir.definitions`) in order; more than one means a
   * union (`InputRequiredResult | CallToolResult`). An inline result is a derived definition.
   */
  results: string[];
  resultShape: ResultShape;
  /**
   * The `resultType` values a result may carry, the first the default (modern era: `complete`, and
   * `input_required` where the results include `InputRequiredResult`); null in the legacy era.
   */
  resultTypes: readonly string[] | null;
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
  /**
   * Definitions by name, sorted by name, as raw schemas (derived definitions included). No printer of
   * types, schemas or guards reads them (they read `ir`).
   */
  definitions: Readonly<Record<string, JsonSchema>>;
  /** The schema IR: every definition (derived ones included) as a typed tree. */
  ir: SchemaIR;
  /**
   * What the version's schema.ts (the spec's TypeScript, beside its schema.json) says that
   * schema.json cannot: open objects and `extends`. Absent or null when the version has no schema.ts.
   */
  specTypes?: SpecTypeFacts | null;
  /**
   * Where schema.json and schema.ts disagree (generator/model/errata.ts): every finding of the bytes
   * as published, with its status (fixed by a reviewed patch, reviewed as no defect, or open), and
   * any the patches bring. Absent or null when the version has no schema.ts.
   */
  errata?: readonly VersionErratum[] | null;
  /** Requests sorted by method. */
  requests: RequestMethod[];
  /** Notifications sorted by method. */
  notifications: NotificationMethod[];
}

/**
 * One extension version layered onto one core version (generator/model/extensions.ts): `model` is the
 * core version's model with the extension's definitions, methods and result variants added.
 */
export interface ExtensionModel {
  /** The extension's name in the lock (`tasks`): folders are named after it. */
  name: string;
  /** The identifier negotiated under `capabilities.extensions` (`io.modelcontextprotocol/tasks`). */
  identifier: string;
  /** The extension version's label (`2026-07-28`, `draft`). */
  label: string;
  /** The core version label it layers onto. */
  core: string;
  /** The extension's schema.json and its sha256, and the extension repository's commit (null outside the lock). */
  file: string;
  sha256: string;
  commit: string | null;
  /**
   * The extension's own definitions (those its schema.ts declares, and those the core version does not
   * have), sorted: in its module they are the extension's, whatever the core defines.
   */
  definitions: string[];
  /** Those of `definitions` the core version defines too, sorted: the extension's replace them in its module. */
  replaced: string[];
  /** The extension's requests and notifications (its own message definitions), by method, sorted. */
  requests: string[];
  notifications: string[];
  /** Core requests that may answer with the extension's results: method → the added result definitions. */
  results: Record<string, string[]>;
  /** The merged model: the core version's, plus the above. */
  model: VersionModel;
}

/** The versions and extension modules of a run, before their method table is computed. */
export interface ProtocolVersions {
  versions: VersionModel[];
  extensions?: ExtensionModel[];
}

/** The model of a whole generation run: versions sorted by label; extensions by core label, then name. */
export interface ProtocolModel extends ProtocolVersions {
  /**
   * The method table of every version and extension module (generator/model/table.ts), computed once
   * with the model, over the reviewed capability data the source stage read.
   */
  tables: MethodTables;
  /** The protocol facts of every version and the merged view the runtimes read (generator/model/protocol.ts). */
  protocol: ProtocolFacts;
}

// The method table (generator/model/table.ts builds it; its header says what each field means).
export type MethodStatus = "present" | "removed" | "later" | "extension";
export type Side = "client" | "server";

/** How a request's result is normalized: its result shape and the `resultType` values (the default first; null in the legacy era). */
export interface RowNormalizer {
  shape: "empty" | "object";
  resultTypes: string[] | null;
}

/** Why the gate refuses a method: removed, sent by the other side only, only in later versions, or not a method of the version. */
export type RefusalReason = "removed" | "wrong_side" | "other_era" | "unknown";

/** The gate policy that may let a refused method through (`custom`: a method no version of the tree has; `later`: one only later versions have). */
export type GatePolicyKey = "custom" | "later";

/** The gate's refusal of a method at one side: the JSON-RPC error's code and message, `data.reason`, and the policy that may lift it (null: none). */
export interface Refusal {
  accepted: false;
  code: number;
  reason: RefusalReason;
  message: string;
  policy: GatePolicyKey | null;
}

/** The gate's verdict on a method arriving at one side: accepted, or refused. */
export type Verdict = { accepted: true } | Refusal;

export interface MethodRow {
  kind: "request" | "notification";
  status: MethodStatus;
  /** The version the method's facts come from when this one lacks it (see the header), else null. */
  nearest: string | null;
  /** removed: the first version without it after `nearest`; later: the first version with it; else null. */
  since: string | null;
  /** `nearest` is of the other era. */
  otherEra: boolean;
  /** Identifiers of the extensions layered onto this version that add the method, sorted. */
  extensions: string[];
  sender: Sender;
  /** The sides that receive (handle) it, `client` before `server`. */
  receivers: Side[];
  /** The gate's verdict on the method arriving at each side (see model/table.ts). */
  verdicts: Record<Side, Verdict>;
  /** The params definition (null: inline or none) and whether `params` is required; null when absent here or without params. */
  params: { definition: string | null; required: boolean } | null;
  /** A request's result definitions here; null for a notification or a method absent here. */
  results: string[] | null;
  /** A request's normalizer here: its result shape and `resultType` values (the row's `resultTypes`), else null. */
  normalizer: RowNormalizer | null;
  /** The `resultType` values a modern result may carry, the default first; null in the legacy era or when absent. */
  resultTypes: string[] | null;
  /** Capability key paths required (`[["resources"], ["resources", "subscribe"]]`); empty when none or absent here. */
  capabilities: string[][];
  /** The param a modern request names itself by (`Mcp-Name`), or null. */
  nameParam: string | null;
  /** The result a task-augmented request (its params carry `task`) is answered with instead of `results` (`CreateTaskResult`), or null. */
  taskResult: string | null;
  /** With a taskResult: the capability key path the receiver declares to accept the request as a task (`["tasks", "requests", "tools", "call"]`), or null. */
  taskCapability: string[] | null;
  /** A request whose params declare `cursor` and whose every result declares `nextCursor` (a list a client pages through); false otherwise. */
  paginated: boolean;
}

/** One version's (or extension module's) table: method → row, methods sorted. */
export type VersionTable = Readonly<Record<string, MethodRow>>;

/** The tables of a run: label (version or `<core>+<name>`) → table, labels in generation order. */
export type MethodTables = ReadonlyMap<string, VersionTable>;


