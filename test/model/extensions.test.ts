// The extension layering rule (generator/model/extensions.ts, docs/extensions.md), on the lock's first
// extension version over its core version: its own definitions are what its schema.ts declares and what
// the core lacks; where the core defines one of them too, the extension's wins in `<core>+<name>` and the
// core module keeps its own (a revision bumped in under the core's label may define Tasks itself); a
// method left with two definitions is bad input naming both.
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { InputError } from "../../generator/errors.js";
import { extensionLabel } from "../../generator/model/extensions.js";
import type { JsonSchema, ProtocolModel } from "../../generator/model/types.js";
import { buildModelFromSpecs } from "../../generator/pipeline.js";
import { extensionSchemasDir } from "../../generator/source/extensions.js";
import { readLock, type SpecLock } from "../../generator/source/lock.js";
import { ensureSchemas, lockFile, modelOptions, schemasDir } from "../support.js";

type Schema = { $defs: Record<string, JsonSchema> };

let lock: SpecLock;
let name: string;
let label: string;
let core: string;
let coreSchema: Schema;
let extSchema: Schema;
let extFile: string;
let extTs: string;

beforeAll(async () => {
  await ensureSchemas();
  lock = await readLock(lockFile);
  const first = Object.entries(lock.extensions ?? {})[0];
  expect(first, "the lock pins an extension").toBeDefined();
  name = first[0];
  label = Object.keys(first[1].versions)[0];
  core = first[1].versions[label].core[0];
  coreSchema = JSON.parse(readFileSync(path.join(schemasDir, core, "schema.json"), "utf8")) as Schema;
  extFile = path.join(extensionSchemasDir(schemasDir, name), label, "schema.json");
  extSchema = JSON.parse(readFileSync(extFile, "utf8")) as Schema;
  extTs = path.join(extensionSchemasDir(schemasDir, name), label, "schema.ts");
  // The names these tests redefine in the core: the extension's Task and its status notification.
  for (const n of ["Task", "TaskStatusNotification"]) expect(extSchema.$defs[n], `${extFile} defines ${n}`).toBeDefined();
  expect(coreSchema.$defs.Task, `${core} does not define Task`).toBeUndefined();
});

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

/** The extension's notification's method (its `method` const, wherever its allOf puts it). */
function methodOf(def: JsonSchema): string {
  const parts = [def, ...((def.allOf as JsonSchema[] | undefined) ?? [])];
  const m = parts.map((p) => (p.properties as Record<string, JsonSchema> | undefined)?.method?.const).find((c) => typeof c === "string");
  expect(m, "the notification fixes its method").toBeTypeOf("string");
  return m as string;
}

/** A notification definition as a core writes it, fixing `method`. */
const notification = (method: string): JsonSchema => ({
  type: "object",
  properties: { jsonrpc: { const: "2.0", type: "string" }, method: { const: method, type: "string" }, params: { type: "object" } },
  required: ["jsonrpc", "method"],
});

/** The core with `defs` added and `members` added to its ServerNotification union. */
function coreWith(defs: Record<string, JsonSchema>, members: string[]): Schema {
  const s = structuredClone(coreSchema);
  Object.assign(s.$defs, defs);
  const u = s.$defs.ServerNotification as { anyOf?: JsonSchema[]; oneOf?: JsonSchema[] };
  expect(u.anyOf ?? u.oneOf, `${core}'s ServerNotification is a union`).toBeDefined();
  (u.anyOf ?? u.oneOf)!.push(...members.map((m) => ({ $ref: `#/$defs/${m}` })));
  return s;
}

function build(coreDoc: Schema, withSchemaTs: boolean): ProtocolModel {
  return buildModelFromSpecs([{ label: core, file: path.join(schemasDir, core, "schema.json"), bytes: bytes(coreDoc), schemaTs: null }], {
    patchesDir: modelOptions.patchesDir,
    overridesFile: modelOptions.overridesFile,
    lock,
    extensionSources: [{ name, label, core, file: extFile, schemaTs: withSchemaTs ? { file: extTs } : null }],
  });
}

const legacyTask: JsonSchema = { type: "object", properties: { legacyOnly: { type: "string" } }, required: ["legacyOnly"] };

describe("a core version that defines the extension's names itself", () => {
  it("the extension's definitions win in <core>+<name>; the core module keeps its own", () => {
    const model = build(coreWith({ Task: legacyTask, TaskStatusNotification: notification("notifications/tasks/status") }, ["TaskStatusNotification"]), true);
    const ext = model.extensions!.find((e) => e.name === name)!;
    const version = model.versions[0];
    expect(ext.replaced).toEqual(["Task", "TaskStatusNotification"]);
    expect(ext.definitions).toContain("Task");
    // As the extension's schema.json has them (its per-definition `$schema` dialect marker aside).
    const asRead = (d: JsonSchema) => Object.fromEntries(Object.entries(d).filter(([k]) => k !== "$schema"));
    expect(ext.model.definitions.Task).toEqual(asRead(extSchema.$defs.Task));
    expect(ext.model.definitions.TaskStatusNotification).toEqual(asRead(extSchema.$defs.TaskStatusNotification));
    expect(version.definitions.Task).toEqual(legacyTask);

    // The replaced core notification left the core's unions: the module has the extension's, sent by the server.
    const extMethod = methodOf(extSchema.$defs.TaskStatusNotification);
    expect(extMethod).not.toBe("notifications/tasks/status");
    const sent = (ms: { method: string; sender: string }[]) => Object.fromEntries(ms.map((m) => [m.method, m.sender]));
    expect(sent(ext.model.notifications)[extMethod]).toBe("server");
    expect(sent(ext.model.notifications)["notifications/tasks/status"]).toBeUndefined();
    expect(sent(version.notifications)["notifications/tasks/status"]).toBe("server");
    expect(sent(version.notifications)[extMethod]).toBeUndefined();
    expect(ext.notifications).toContain(extMethod);

    // The method table says the same: present in the extension module, the extension's own; absent from the core.
    const table = model.tables!.get(extensionLabel(ext))!;
    expect(table[extMethod]).toMatchObject({ status: "present", sender: "server", extensions: [ext.identifier] });
    expect(model.tables!.get(core)![extMethod].status).toBe("extension");
    expect(model.tables!.get(core)!["notifications/tasks/status"].status).toBe("present");
  });

  it("without the extension's schema.ts its own definitions are only those the core lacks: the core's of the same name stand", () => {
    const model = build(coreWith({ Task: legacyTask }, []), false);
    const ext = model.extensions!.find((e) => e.name === name)!;
    expect(ext.replaced).toEqual([]);
    expect(ext.definitions).not.toContain("Task");
    expect(ext.model.definitions.Task).toEqual(legacyTask);
  });

  it("a method the core has under another definition than the extension's is refused, naming both and the extension's pointer", () => {
    const extMethod = methodOf(extSchema.$defs.TaskStatusNotification);
    let error: unknown;
    try {
      build(coreWith({ CoreTaskStatus: notification(extMethod) }, ["CoreTaskStatus"]), true);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    const e = error as InputError;
    expect(e.file).toBe(extFile);
    expect(e.pointer).toMatch(/^\/\$defs\/TaskStatusNotification\/.*\/properties\/method\/const$/);
    expect(e.message.endsWith(`TaskStatusNotification adds the method "${extMethod}", which core version ${core} has already (as CoreTaskStatus)`), e.message).toBe(true);
  });
});
