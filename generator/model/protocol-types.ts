// The protocol facts' types (model/protocol.ts computes them; ProtocolModel.protocol carries them).
import type { ProtocolFactsData } from "../source/protocol-facts.js";

export interface ErrorCodeFact {
  /** SCREAMING_SNAKE name (`PARSE_ERROR`, `HEADER_MISMATCH`). */
  name: string;
  code: number;
  /** Where it was read: a schema.json definition, a schema.ts constant, or the reviewed facts. */
  source: "schema.json" | "schema.ts" | "reviewed";
}

export interface MetaKeys {
  request: string[];
  notification: string[];
  result: string[];
}

export interface TaskStatusFact {
  status: string;
  /** The definition whose `status` is this const (`WorkingTask`). */
  definition: string;
  members: string[];
  required: string[];
}

export interface VersionProtocolFacts {
  label: string;
  errors: ErrorCodeFact[];
  meta: MetaKeys;
  batches: boolean;
  taskStatuses: TaskStatusFact[];
}

export interface ProtocolFacts {
  /** Every core version, then every extension module (`2026-07-28+tasks`), each with its own facts. */
  versions: VersionProtocolFacts[];
  /** Every error code of any version or of the reviewed facts, by code (descending magnitude order: -32700 first). */
  errors: ErrorCodeFact[];
  /** Every `_meta` key of any version, with its constant name (`io.modelcontextprotocol/protocolVersion` → `PROTOCOL_VERSION`). */
  meta: { name: string; key: string }[];
  /** The first version that does not batch (reviewed prose, checked against the schemas' batch definitions). */
  firstVersionWithoutBatches: string;
  /** The extensions layered on some version: constant name → identifier (`TASKS` → `io.modelcontextprotocol/tasks`). */
  extensions: { name: string; identifier: string }[];
  /** Task statuses, merged over the extension modules (the latest module's members win), in schema order. */
  taskStatuses: TaskStatusFact[];
  /** The reviewed prose facts, as read. */
  reviewed: ProtocolFactsData;
}
