// The protocol's rules as the model decides them, once, for every target: which
// `resultType` values a result may carry, which side receives a message, which methods a version
// dropped. Targets print these decisions; none restates them.
import { byCodeUnit } from "../order.js";
import type { Era, Method, Sender, VersionModel } from "./types.js";

/** The `resultType` a modern result may carry besides `complete`, where its result union allows it. */
export const INPUT_REQUIRED_RESULT = "InputRequiredResult";

/** The `resultType` values of the modern era, the default first: `complete`, and `input_required` where the results allow it; null in the legacy era. */
export function resultTypesOf(results: readonly string[], era: Era): string[] | null {
  if (era !== "modern") return null;
  return results.includes(INPUT_REQUIRED_RESULT) ? ["complete", "input_required"] : ["complete"];
}

/** Whether `side` receives (handles) a message its `sender` sends. */
export function receivedBy(sender: Sender, side: "server" | "client"): boolean {
  return sender === "both" || sender !== side;
}

/** The methods (requests and notifications) of `previous` that `version` does not have, sorted. */
export function removedMethods(previous: VersionModel, version: VersionModel): string[] {
  const methods = (v: VersionModel): Method[] => [...v.requests, ...v.notifications];
  const here = new Set(methods(version).map((m) => m.method));
  return methods(previous).map((m) => m.method).filter((m) => !here.has(m)).sort(byCodeUnit);
}
