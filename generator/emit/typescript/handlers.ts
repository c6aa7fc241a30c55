// Emits, per version, the handler types (handlers.ts), the result normalizers (normalizers.ts) and
// the dispatchers (dispatcher.ts); and once, runtime.ts, the barrel of the runtime they share (generated/runtime/).
import type { RequestMethod, VersionModel, VersionTable } from "../../model/types.js";
import { normalizerOf, type RowNormalizer } from "../../print/table.js";
import { receivedBy } from "../../model/rules.js";
import type { Templates } from "../../print/templates.js";
import { SIDES, versionNaming, type VersionNaming } from "./naming.js";
import { resultTypeView } from "./result-type.js";

interface RequestView {
  method: string;
  key: string;
  normalizer: string;
  /** The normalizer's doc comment text, its type annotation (or ""), and its value. */
  normalizerDoc: string;
  normalizerType: string;
  normalizerValue: string;
  expected: string;
  paramsRequired: boolean;
  handlerParams: string;
  handlerReturn: string;
}

function requestView(names: VersionNaming, r: RequestMethod, row: RowNormalizer): RequestView {
  const key = JSON.stringify(r.method);
  // The row says how the result is normalized: its kind's shape (`empty`, `object`) and the `resultType` values, the default first.
  const empty = row.shape === "empty";
  const types = row.resultTypes;
  const carried = types !== null;
  const params = `RequestTypes[${key}]["params"]`;
  const result = `RequestTypes[${key}]["result"]`;
  const returned = carried ? `HandlerResult<${result}>` : result;
  const expected = names.resultType(r);
  const fixed = carried ? `; resultType: ${JSON.stringify(types[0])}` : "";
  return {
    method: r.method,
    key,
    normalizer: names.normalizer(r),
    normalizerDoc: empty
      ? `\`${r.method}\` (${expected}, empty): \`{ _meta }\` when the handler returned a plain \`_meta\`, else \`{}\`${carried ? `; with \`resultType: ${JSON.stringify(types[0])}\`` : ""}.`
      : `\`${r.method}\` (${expected}): the handler's plain object, undefined fields and a non-object \`_meta\` dropped${carried ? `, \`resultType\` defaulted to ${JSON.stringify(types[0])}` : ""}.`,
    normalizerType: empty ? `: ResultNormalizer<{ _meta?: Record<string, unknown>${fixed} }>` : "",
    normalizerValue: empty ? `emptyNormalizer(${JSON.stringify(types)})` : `objectNormalizer(${key}, ${JSON.stringify(expected)}, ${JSON.stringify(types)})`,
    expected,
    paramsRequired: r.params?.required ?? false,
    handlerParams: r.params === null ? "undefined" : r.params.required ? params : `${params} | undefined`,
    handlerReturn: empty ? `${returned} | void` : returned,
  };
}

function notificationView(n: VersionModel["notifications"][number]) {
  const key = JSON.stringify(n.method);
  const params = `NotificationTypes[${key}]["params"]`;
  return { method: n.method, key, handlerParams: n.params === null ? "undefined" : n.params.required ? params : `${params} | undefined` };
}

/** handlers.ts, normalizers.ts and dispatcher.ts of one version. */
export function emitHandlerFiles(version: VersionModel, table: VersionTable, templates: Templates, finish: (text: string) => string): Map<string, string> {
  const names = versionNaming(version);
  const header = { versions: [version] };
  const requests = version.requests.map((r) => ({ ...requestView(names, r, normalizerOf(table, r.method)), sender: r.sender }));
  const sides = SIDES.map(({ side, handlers, createDispatcher, tables }) => ({
    side,
    handlers,
    createDispatcher,
    tables,
    sender: side === "server" ? "client" : "server",
    requests: requests.filter((r) => receivedBy(r.sender, side)),
    notifications: version.notifications.filter((n) => receivedBy(n.sender, side)).map(notificationView),
  }));
  const carried = version.requests.some((r) => normalizerOf(table, r.method).resultTypes !== null);
  const context = { ...header, version, ...resultTypeView(carried), requests, sides };
  const files = new Map<string, string>();
  files.set(`${version.label}/handlers.ts`, finish(templates.get("handlers.ts.hbs")(context)));
  files.set(`${version.label}/normalizers.ts`, finish(templates.get("normalizers.ts.hbs")(context)));
  files.set(`${version.label}/dispatcher.ts`, finish(templates.get("dispatcher.ts.hbs")(context)));
  return files;
}

/** runtime.ts: one module re-exporting the runtime files (runtimes/typescript/src/, copied by emit/runtime-copy.ts). */
export function emitRuntime(versions: VersionModel[], templates: Templates, finish: (text: string) => string): string {
  return finish(templates.get("runtime.ts.hbs")({ versions }));
}
