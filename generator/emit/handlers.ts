// Emits, per version, the handler types (handlers.ts), the result normalizers (normalizers.ts) and
// the dispatchers (dispatcher.ts); and once, runtime.ts, the barrel of the runtime they share (generated/runtime/).
import { InputError } from "../errors.js";
import type { IrNode } from "../model/ir.js";
import type { RequestMethod, Sender, VersionModel } from "../model/types.js";
import { template } from "./templates.js";

/** The `resultType` values of the modern era: `complete`, and `input_required` where the union allows it. */
export const INPUT_REQUIRED_RESULT = "InputRequiredResult";

/** The side that receives a message its `sender` sends. */
function receivedBy(sender: Sender, side: "server" | "client"): boolean {
  return sender === "both" || sender !== side;
}

interface RequestView {
  method: string;
  key: string;
  normalizer: string;
  empty: boolean;
  expected: string;
  resultTypes: string | null;
  paramsRequired: boolean;
  handlerParams: string;
  handlerReturn: string;
}

function requestView(version: VersionModel, r: RequestMethod): RequestView {
  const key = JSON.stringify(r.method);
  const modern = version.era === "modern";
  const resultTypes = modern ? [...new Set(["complete", ...(r.results.includes(INPUT_REQUIRED_RESULT) ? ["input_required"] : []), ...r.results.flatMap((d) => fixedResultType(version, d))])] : null;
  const params = `RequestTypes[${key}]["params"]`;
  const result = `RequestTypes[${key}]["result"]`;
  const returned = modern ? `HandlerResult<${result}>` : result;
  return {
    method: r.method,
    key,
    normalizer: r.normalizer,
    empty: r.resultShape === "empty",
    expected: r.resultType.ts,
    resultTypes: resultTypes === null ? null : JSON.stringify(resultTypes),
    paramsRequired: r.params?.required ?? false,
    handlerParams: r.params === null ? "undefined" : r.params.required ? params : `${params} | undefined`,
    handlerReturn: r.resultShape === "empty" ? `${returned} | void` : returned,
  };
}

/**
 * The `resultType` a result definition fixes with a const (an extension's `CreateTaskResult` fixes
 * `"task"`), following references and `allOf`; none when it leaves it open.
 */
function fixedResultType(version: VersionModel, definition: string): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const walk = (node: IrNode): void => {
    if (node.kind === "ref") {
      if (!seen.has(node.name)) {
        seen.add(node.name);
        walk(node.target.node);
      }
    } else if (node.kind === "intersection") node.parts.forEach(walk);
    else if (node.kind === "object") {
      const p = node.properties.find((q) => q.name === "resultType");
      if (p?.node.kind === "literal" && p.node.values.length === 1 && typeof p.node.values[0] === "string") found.push(p.node.values[0]);
    }
  };
  const def = version.ir.definitions.get(definition);
  if (def !== undefined) walk(def.node);
  return found;
}

function notificationView(n: VersionModel["notifications"][number]) {
  const key = JSON.stringify(n.method);
  const params = `NotificationTypes[${key}]["params"]`;
  return { method: n.method, key, handlerParams: n.params === null ? "undefined" : n.params.required ? params : `${params} | undefined` };
}

function checkNames(version: VersionModel): void {
  const seen = new Map<string, string>();
  for (const r of version.requests) {
    const name = r.normalizer;
    const clash = seen.get(name);
    if (clash !== undefined) throw new InputError(`requests ${clash} and ${r.method} would both have the normalizer ${name}`, `${version.label}/schema.json`);
    seen.set(name, r.method);
  }
}

/** handlers.ts, normalizers.ts and dispatcher.ts of one version. */
export function emitHandlerFiles(version: VersionModel, finish: (text: string) => string): Map<string, string> {
  checkNames(version);
  const header = { versions: [version] };
  const requests = version.requests.map((r) => ({ ...requestView(version, r), sender: r.sender }));
  const sides = (["server", "client"] as const).map((side) => ({
    side,
    Side: side === "server" ? "Server" : "Client",
    sender: side === "server" ? "client" : "server",
    requests: requests.filter((r) => receivedBy(r.sender, side)),
    notifications: version.notifications.filter((n) => receivedBy(n.sender, side)).map(notificationView),
  }));
  const context = { ...header, version, modern: version.era === "modern", requests, sides };
  const files = new Map<string, string>();
  files.set(`${version.label}/handlers.ts`, finish(template("handlers.ts.hbs")(context)));
  files.set(`${version.label}/normalizers.ts`, finish(template("normalizers.ts.hbs")(context)));
  files.set(`${version.label}/dispatcher.ts`, finish(template("dispatcher.ts.hbs")(context)));
  return files;
}

/** runtime.ts: one module re-exporting the runtime files (generator/runtime/, copied by runtime-source.ts). */
export function emitRuntime(versions: VersionModel[], finish: (text: string) => string): string {
  return finish(template("runtime.ts.hbs")({ versions }));
}
