// The reviewed per-method capability requirements as the Ruby target reads them: the model's decision
// (generator/model/capabilities.ts) over the tool's own schemas/method-capabilities.json.
import { methodCapabilities as decided, unreviewedMethods as unreviewed } from "../../model/capabilities.js";
import type { VersionModel } from "../../model/types.js";
import { readMethodCapabilities } from "../../source/method-capabilities.js";
import { methodCapabilitiesFile } from "./paths.js";

/** Per version: method → the capability paths it requires (checked), for every method of the version. */
export function methodCapabilities(versions: readonly VersionModel[], file = methodCapabilitiesFile): Map<string, Map<string, string[]>> {
  return decided(versions, readMethodCapabilities(file));
}

/** `label method` of every method of these versions the file has no entry for, sorted. */
export function unreviewedMethods(versions: readonly VersionModel[], file = methodCapabilitiesFile): string[] {
  return unreviewed(versions, readMethodCapabilities(file));
}
