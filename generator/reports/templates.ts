// The reports' templates, uncached: for one-off printing outside a generation run (`mcp-codegen diff`,
// `errata`, the review reports of `bump`, tests). A generation run passes its own Templates (index.ts).
import { Templates, type Template } from "../print/templates.js";
import { reportTemplatesDir } from "./paths.js";

export function reportTemplates(cacheDir?: string): Templates {
  return new Templates({ dir: reportTemplatesDir, cacheDir });
}

export function template(name: string): Template {
  return reportTemplates().get(name);
}
