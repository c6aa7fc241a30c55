// The Ruby tree's extension modules (McpCodegen::EXTENSIONS) against the model: one per extension
// version × core version it is layered onto, named `<core>+<name>`, whose constants name the extension
// and the methods it adds, and whose catalogue is the merged model's (every request's sender, results,
// result shape and `resultType` values, every notification's sender). Read from real Ruby.
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { extensionLabel } from "../../../generator/model/extensions.js";
import type { ExtensionModel } from "../../../generator/model/types.js";
import { buildModel } from "../../../generator/pipeline.js";
import { readLock } from "../../../generator/source/lock.js";
import { ensureSchemas, lockFile, modelOptions } from "../../support.js";
import { ruby, rubyTestDir } from "./support.js";

interface Layered {
  extensions: string[];
  protocol_version: string;
  extension: string;
  extension_version: string;
  extension_requests: string[];
  extension_notifications: string[];
  requests: Record<string, { sender: string; results: string[]; result_shape: string; result_types: string[] | null }>;
  notifications: Record<string, { sender: string }>;
}

let extensions: ExtensionModel[] = [];
let answers: Layered[] = [];

beforeAll(async () => {
  await ensureSchemas();
  const model = buildModel({ ...modelOptions, lock: await readLock(lockFile) });
  extensions = [...(model.extensions ?? [])];
  const r = ruby([path.join(rubyTestDir, "normalize_batch.rb")], { input: JSON.stringify(extensions.map((x) => ({ version: extensionLabel(x), layered: true }))) });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  answers = JSON.parse(r.stdout) as Layered[];
});

describe("Ruby extension modules", () => {
  it("are the model's extension modules, one per extension version × core version", () => {
    expect(extensions.length).toBeGreaterThan(0);
    for (const a of answers) expect(a.extensions.sort()).toEqual(extensions.map(extensionLabel).sort());
  });

  it("name the extension, its version, its core version and the methods it adds", () => {
    extensions.forEach((x, i) => {
      const a = answers[i];
      expect(a.protocol_version, extensionLabel(x)).toBe(x.core);
      expect(a.extension).toBe(x.identifier);
      expect(a.extension_version).toBe(x.label);
      expect(a.extension_requests).toEqual([...x.requests].sort());
      expect(a.extension_notifications).toEqual([...x.notifications].sort());
    });
  });

  it("catalogue the merged model's requests (sender, results, shape, resultType values) and notifications", () => {
    let widened = 0;
    extensions.forEach((x, i) => {
      const a = answers[i];
      const label = extensionLabel(x);
      expect(Object.keys(a.requests).sort(), label).toEqual(x.model.requests.map((r) => r.method).sort());
      expect(Object.keys(a.notifications).sort(), label).toEqual(x.model.notifications.map((n) => n.method).sort());
      for (const r of x.model.requests) {
        expect(a.requests[r.method], `${label} ${r.method}`).toEqual({ sender: r.sender, results: [...r.results], result_shape: r.resultShape, result_types: r.resultTypes === null ? null : [...r.resultTypes] });
      }
      for (const n of x.model.notifications) expect(a.notifications[n.method].sender, `${label} ${n.method}`).toBe(n.sender);
      // A core request whose results the extension widens (the lock's `results`) carries them.
      for (const [method, names] of Object.entries(x.results)) {
        for (const n of names) expect(a.requests[method].results, `${label} ${method}`).toContain(n);
        widened++;
      }
    });
    expect(widened).toBeGreaterThan(0);
  });
});
