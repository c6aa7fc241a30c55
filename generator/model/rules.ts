// The protocol's rules as the model decides them, once, for every target: which
// `resultType` values a result may carry and which side receives a message. Targets print these
// decisions; none restates them (which methods a version dropped is the method table's `status`).
import type { IrNode, SchemaIR } from "./ir.js";
import type { Era, Sender, VersionModel } from "./types.js";

/** The `resultType` a modern result may carry besides `complete`, where its result union allows it. */
export const INPUT_REQUIRED_RESULT = "InputRequiredResult";

/** The `resultType` a modern result carries when its handler gives none (the first of every method's `resultTypes`). */
const DEFAULT_RESULT_TYPE = "complete";

/**
 * The `resultType` values of the modern era, the default first: `complete`, `input_required` where
 * the results allow it, and any value a result definition fixes with a const (an extension's
 * `CreateTaskResult` fixes `"task"`); null in the legacy era.
 */
export function resultTypesOf(results: readonly string[], era: Era, ir: SchemaIR): string[] | null {
  if (era !== "modern") return null;
  return [...new Set([DEFAULT_RESULT_TYPE, ...results.flatMap((d) => resultTypesOfDefinition(ir, d))])];
}

/**
 * The `resultType` values one result definition of the modern era answers: those it fixes with a const
 * (`CreateTaskResult`'s `"task"`), `input_required` for the InputRequiredResult, else the default
 * `complete`. A union of results is told apart by them (a legacy value, which has no `resultType`, is
 * the default's), never by which branch happens to accept a value.
 */
export function resultTypesOfDefinition(ir: SchemaIR, definition: string): string[] {
  const fixed = fixedResultTypes(ir, definition);
  if (fixed.length > 0) return fixed;
  return [definition === INPUT_REQUIRED_RESULT ? "input_required" : DEFAULT_RESULT_TYPE];
}

/**
 * The `resultType` values of a custom request (a method no table has, so no result definition) at a
 * version of `era`, the default first; null in the legacy era. The trees export it as data (the
 * TypeScript `customResultTypes` of <label>/methods.ts) for their custom-method runtimes.
 */
export function customResultTypes(era: Era): string[] | null {
  return era === "modern" ? [DEFAULT_RESULT_TYPE] : null;
}

/**
 * Where a server's own `Implementation` goes in its `server/discover` result at this version: `member`
 * where the version's result declares a `serverInfo` property (the 2026 drafts before 2026-07-28 require
 * one), else `meta` (`_meta["io.modelcontextprotocol/serverInfo"]`, as 2026-07-28 has it); null where the
 * version has no server/discover. The trees export it as data (`discoverServerInfo` of <label>/methods.ts,
 * `DISCOVER_SERVER_INFO` of the Python version module) for their routers.
 */
export function discoverServerInfo(version: Pick<VersionModel, "requests" | "ir">): "member" | "meta" | null {
  const discover = version.requests.find((r) => r.method === "server/discover");
  if (discover === undefined) return null;
  const seen = new Set<string>();
  const declares = (node: IrNode): boolean => {
    if (node.kind === "ref") {
      if (seen.has(node.name)) return false;
      seen.add(node.name);
      return declares(node.target.node);
    }
    if (node.kind === "intersection") return node.parts.some(declares);
    if (node.kind === "object") return node.properties.some((p) => p.name === "serverInfo");
    return false;
  };
  return discover.results.some((r) => declares(version.ir.definitions.get(r)!.node)) ? "member" : "meta";
}

/** The `resultType` a result definition fixes with a const, following references and `allOf`; none when it leaves it open. */
function fixedResultTypes(ir: SchemaIR, definition: string): string[] {
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
  const def = ir.definitions.get(definition);
  if (def !== undefined) walk(def.node);
  return found;
}

/** Whether `side` receives (handles) a message its `sender` sends. */
export function receivedBy(sender: Sender, side: "server" | "client"): boolean {
  return sender === "both" || sender !== side;
}

