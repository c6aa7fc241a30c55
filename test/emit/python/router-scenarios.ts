// Router steps for the Python router's own tests (router.test.ts): what router_driver.py runs against the
// Python router (answers, what each peer was sent, on_error's failures, what handlers saw, requests in flight
// at the end), each test asserting its answers. Agreement with the TypeScript router is the scenario suite's
// (test/scenarios/, docs/scenarios.md): expected answers as data, run by both runtimes' drivers.
import { requestMeta } from "../../request-meta.js";
import { pythonJson } from "./support.js";

export type Step =
  | { do: "connect"; as: string }
  | { do: "send"; to: string; message: unknown; key?: string; auth?: Record<string, unknown>; principal?: string; scope?: string; stream?: string }
  | { do: "await"; key: string }
  | { do: "cancel"; key: string }
  | { do: "answer"; to: string; result: unknown }
  | { do: "publish"; method: string; params?: Record<string, unknown> }
  | { do: "nameParam"; method: string; version: string }
  | { do: "settle" }
  | { do: "close" };

export interface Config {
  served: Record<string, { capabilities: Record<string, unknown>; factory?: boolean; extension?: boolean; custom?: boolean | "collide"; validators?: boolean }>;
  /** Python only: create_router is expected to raise ValueError; its message is the outcome's `error`. */
  expectError?: boolean;
  instructions?: string;
  discoverCache?: { ttlMs: number; cacheScope: "public" | "private" };
  maxListenStreamsPerPrincipal?: number;
  maxListenStreams?: number;
}

export interface Scenario {
  config: Config;
  steps: Step[];
}

export interface Outcome {
  answers: unknown[];
  sent: Record<string, unknown[]>;
  failures: string[];
  /** Python only: each failure's `auth` and `principal`, as on_error was told them. */
  callers?: Array<Record<string, unknown>>;
  events: string[];
  inFlight: number;
}

/** The scenario run by the Python router (router_driver.py). */
export function runPython(scenario: Scenario): Outcome {
  return pythonJson<Outcome>("router_driver.py", scenario);
}


/** A request (or, with id undefined, a notification). */
export function msg(id: number | string | undefined, method: string, params?: unknown): Record<string, unknown> {
  const m: Record<string, unknown> = { jsonrpc: "2.0" };
  if (id !== undefined) m.id = id;
  m.method = method;
  if (params !== undefined) m.params = params;
  return m;
}

/** Params of a modern request at `version`: the `_meta` keys its schema requires (test/request-meta.ts), then extra `_meta` members. */
export function modern(version: string, params: Record<string, unknown> = {}, meta: Record<string, unknown> = {}, capabilities: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...params, _meta: requestMeta(version, capabilities, meta) };
}

export function initialize(id: number, version: string): Record<string, unknown> {
  return msg(id, "initialize", { protocolVersion: version, capabilities: {}, clientInfo: { name: "client", version: "1" } });
}
