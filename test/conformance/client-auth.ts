// The conformance client's OAuth seam (issue 27, part B writes the real one): the ClientFetch an
// `auth/*` scenario's HTTP transport sends through, or undefined when the scenario needs no auth.
// This placeholder authorizes nothing, so every `auth/*` scenario fails until part B lands.
import type { ClientFetch } from "../../generated/runtime/client-fetch.js";

export function conformanceFetch(scenario: string, context: Record<string, unknown> | undefined): ClientFetch | undefined {
  void scenario;
  void context;
  return undefined;
}
