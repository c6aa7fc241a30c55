// Issue 17: a JSONValue (capabilities' `experimental` and `extensions` settings, and every other
// JSONObject) holds fractions and null once the reviewed patch corrects schema.json. For every modern
// locked version, the generated dispatcher and the router accept exactly what Ajv accepts on the
// schema as generated (the published bytes with their reviewed patches), the accepted values reach
// the handler as sent, and values JSON cannot carry are refused. Where the JSONValue patch covers a
// version's bytes, Ajv, and so the dispatcher and router, accept the fraction and the null.
import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { forVersion, type ProtocolVersion } from "../../generated/index.js";
import { createServerRouter, type ServedVersions } from "../../generated/router.js";
import { buildModel } from "../../generator/pipeline.js";
import { readLock } from "../../generator/source/lock.js";
import { readSchemaDocument } from "../../generator/source/load.js";
import { patchesFor } from "../../generator/source/patch.js";
import { ensureSchemas, lockFile, modelOptions, schemasDir } from "../support.js";
import { declaresProperty, requestMeta } from "../request-meta.js";

await ensureSchemas();
const lock = await readLock(lockFile);
const model = buildModel({ ...modelOptions, lock });
const modern = model.versions.filter((v) => v.era === "modern");

/** Settings a client may send in `_meta["io.modelcontextprotocol/clientCapabilities"]`. */
const accepted = {
  "a fraction in an experimental setting": { experimental: { x: { ratio: 0.5 } } },
  "a null in an extension's settings": { extensions: { "io.example/x": { opt: null } } },
  "fractions and nulls nested in arrays": { experimental: { x: { list: [0.25, null, { deep: -1.5 }] } }, extensions: { "io.example/x": { opt: null, n: 2.5 } } },
};
/** Settings the schema refuses whatever JSONValue admits: an experimental setting must be an object. */
const refusedBySchema = {
  "an experimental setting that is a number": { experimental: { x: 0.5 } },
  "an extension setting that is null": { extensions: { "io.example/x": null } },
};
/** Values JSON cannot carry (a function, undefined in an array): refused by Ajv and by the dispatcher. */
const notJson = {
  "a function": { experimental: { x: { f: () => 1 } } },
  "undefined in an array": { extensions: { "io.example/x": { list: [1, undefined] } } },
};
/** Numbers JSON cannot carry; Ajv treats them as numbers, so the expectation is written directly. */
const notJsonNumbers = {
  NaN: { experimental: { x: { n: Number.NaN } } },
  Infinity: { extensions: { "io.example/x": { n: Number.POSITIVE_INFINITY } } },
};

function toolsList(label: string, capabilities: unknown, id = 1) {
  return {
    jsonrpc: "2.0",
    id,
    method: "tools/list",
    params: { _meta: requestMeta(label, capabilities as Record<string, unknown>) },
  };
}

/** Ajv on the version's schema as generated (the published bytes with the reviewed patches of those bytes), for one definition. */
function patchedValidator(label: string, definition: string): ValidateFunction {
  const file = path.join(schemasDir, label, "schema.json");
  const { root } = readSchemaDocument(readFileSync(file), file, { patchesDir: modelOptions.patchesDir });
  const version = model.versions.find((v) => v.label === label)!;
  const options = { strict: false, validateFormats: false } as const;
  const ajv = version.dialect === "2020-12" ? new Ajv2020(options) : new Ajv(options);
  ajv.addSchema(root, "mcp");
  return ajv.getSchema(`mcp#/${Object.hasOwn(root, "$defs") ? "$defs" : "definitions"}/${definition}`)!;
}

/** Whether a reviewed patch of the version's bytes corrects this definition. */
function patchCovers(label: string, definition: string): boolean {
  return patchesFor(modelOptions.patchesDir, lock.versions[label].sha256)?.patches.some((p) => p.ops.some((op) => op.path.includes(`/${definition}/`))) ?? false;
}

/** Ajv on the version's tools/list request definition, as generated. */
function oracle(label: string): ValidateFunction {
  const request = model.versions.find((v) => v.label === label)!.requests.find((r) => r.method === "tools/list")!;
  return patchedValidator(label, request.definition);
}

/** What the dispatcher and the router have in common here: `handle` answers a request. */
interface Server {
  handle(message: unknown, exchange?: object): Promise<{ result?: unknown; error?: { code: number } } | undefined>;
}

/** A server for one version: its dispatcher and a router serving it, both recording what tools/list receives. */
function servers(label: string): { received: unknown[]; both: Server[] } {
  const received: unknown[] = [];
  const handlers = {
    "tools/list": (params: unknown) => {
      received.push(params);
      return { tools: [], ttlMs: 0, cacheScope: "public" };
    },
  };
  // Results are not what this test is about: their validation is off, so any version's result shape will do.
  const dispatcher = (forVersion(label as ProtocolVersion) as unknown as { createServerDispatcher(h: object, o: object): Server }).createServerDispatcher(handlers, {
    validateResults: false,
    onError: () => {},
  });
  const router = createServerRouter({
    serverInfo: { name: "jsonvalue", version: "1" },
    versions: { [label]: { handlers, capabilities: { tools: {} }, dispatcher: { validateResults: false } } } as ServedVersions,
    onError: () => {},
  });
  return { received, both: [dispatcher, router as unknown as Server] };
}

it("has modern locked versions to check", () => {
  expect(modern.length).toBeGreaterThan(0);
});

describe.each(modern.map((v) => v.label))("tools/list at %s", (label) => {
  const validate = oracle(label);
  const patched = patchCovers(label, "JSONValue");

  it.each(Object.entries(accepted))("%s: accepted by the dispatcher and the router exactly when Ajv accepts it, reaching the handler as sent", async (_name, capabilities) => {
    const message = toolsList(label, capabilities);
    const valid = validate(message);
    if (patched) expect(valid, JSON.stringify(validate.errors)).toBe(true);
    const { received, both } = servers(label);
    for (const server of both) {
      const response = await server.handle(structuredClone(message), { send: () => {} });
      if (valid) {
        expect(response?.error).toBeUndefined();
        expect(response?.result).toMatchObject({ tools: [] });
      } else {
        expect(response?.error?.code).toBe(-32602);
      }
    }
    if (valid) {
      expect(received).toHaveLength(2);
      for (const params of received) expect((params as { _meta: Record<string, unknown> })._meta["io.modelcontextprotocol/clientCapabilities"]).toEqual(capabilities);
    } else {
      expect(received).toEqual([]);
    }
  });

  it.each(Object.entries({ ...refusedBySchema, ...notJson }))("%s: refused (-32602) as Ajv refuses it, never reaching the handler", async (_name, capabilities) => {
    const message = toolsList(label, capabilities);
    expect(validate(message)).toBe(false);
    const { received, both } = servers(label);
    for (const server of both) {
      const response = await server.handle(message, { send: () => {} });
      expect(response?.error?.code).toBe(-32602);
    }
    expect(received).toEqual([]);
  });

  it.each(Object.entries(notJsonNumbers))("%s: refused (-32602), never reaching the handler", async (_name, capabilities) => {
    const { received, both } = servers(label);
    for (const server of both) {
      const response = await server.handle(toolsList(label, capabilities), { send: () => {} });
      expect(response?.error?.code).toBe(-32602);
    }
    expect(received).toEqual([]);
  });
});

describe.each(model.versions.filter((v) => "JSONValue" in v.definitions).map((v) => v.label))("JSONValue's guard and zod schema at %s", (label) => {
  const values: unknown[] = [0.5, -1.25e-3, null, [0.5, null], { a: { b: [1.5, null, "x", true] } }, 7, "s", false];

  it("accept a value exactly when Ajv does; fractions and null where the JSONValue patch covers the bytes", async () => {
    const validate = patchedValidator(label, "JSONValue");
    const guards = (await import(`../../generated/${label}/guards.ts`)) as { isJSONValue(v: unknown): boolean };
    const schemas = (await import(`../../generated/${label}/schemas.ts`)) as { JSONValueSchema: { safeParse(v: unknown): { success: boolean } } };
    const patched = patchCovers(label, "JSONValue");
    for (const value of values) {
      const valid = validate(value) as boolean;
      if (patched) expect(valid, JSON.stringify(value)).toBe(true);
      expect([JSON.stringify(value), guards.isJSONValue(value), schemas.JSONValueSchema.safeParse(value).success]).toEqual([JSON.stringify(value), valid, valid]);
    }
    // JSON cannot carry these; Ajv counts NaN and Infinity as numbers, so they are written directly.
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, undefined, () => 1, [1, undefined]]) {
      expect([String(value), guards.isJSONValue(value), schemas.JSONValueSchema.safeParse(value).success]).toEqual([String(value), false, false]);
    }
  });
});


// The same class of erratum in ElicitResult: a client's answer to a form's `number` field is a number
// in schema.ts and an integer in schema.json. Where the reviewed patch covers a version's bytes, the
// generated client dispatcher sends a fractional answer (result validation accepts it); everywhere,
// the zod schema and the guard accept an answer exactly when Ajv does on the schema as generated.
describe.each(model.versions.filter((v) => "ElicitResult" in v.definitions).map((v) => v.label))("ElicitResult's content at %s", (label) => {
  const answers = [{ ratio: 0.5 }, { n: 3 }, { name: "x", ok: true }, { bad: { nested: 1 } }];
  const validate = patchedValidator(label, "ElicitResult");
  const patched = patchCovers(label, "ElicitResult");

  it("a fractional answer is valid where the patch covers the bytes; zod and the guard agree with Ajv on every answer", async () => {
    const guards = (await import(`../../generated/${label}/guards.ts`)) as { isElicitResult(v: unknown): boolean };
    const schemas = (await import(`../../generated/${label}/schemas.ts`)) as { ElicitResultSchema: { safeParse(v: unknown): { success: boolean } } };
    if (patched) expect(validate({ action: "accept", content: { ratio: 0.5 } })).toBe(true);
    // A nested object is refused where the schema constrains content's values (every published revision since
    // forms got typed fields); an early draft whose values are any JSON (`additionalProperties: {}`) accepts it.
    const values = (model.versions.find((v) => v.label === label)!.definitions.ElicitResult as { properties?: { content?: { additionalProperties?: unknown } } }).properties?.content?.additionalProperties;
    const anyValue = values === undefined || values === true || (typeof values === "object" && values !== null && Object.keys(values).length === 0);
    expect(validate({ action: "accept", content: { bad: { nested: 1 } } })).toBe(anyValue);
    for (const content of answers) {
      const result = { action: "accept", content };
      const valid = validate(result) as boolean;
      expect([JSON.stringify(content), guards.isElicitResult(result), schemas.ElicitResultSchema.safeParse(result).success]).toEqual([JSON.stringify(content), valid, valid]);
    }
  });

});

// Where elicitation/create is a request of the version (in the modern era it is an input request instead).
describe.each(model.versions.filter((v) => v.requests.some((r) => r.method === "elicitation/create")).map((v) => v.label))("elicitation/create answered at %s", (label) => {
  const validate = patchedValidator(label, "ElicitResult");

  it("the client dispatcher sends a fractional answer exactly when Ajv accepts it (else -32603, nothing invalid sent)", async () => {
    const result = { action: "accept", content: { ratio: 0.5 } };
    const valid = validate(result) as boolean;
    // A form elicitation, naming its mode where the version's form params declare one (a revision may require it).
    const mode = declaresProperty(label, "ElicitRequestFormParams", "mode") ? { mode: "form" } : {};
    const params = { ...mode, message: "How much?", requestedSchema: { type: "object", properties: { ratio: { type: "number" } } } };
    const dispatcher = (forVersion(label as ProtocolVersion) as unknown as { createClientDispatcher(h: object, o: object): Server }).createClientDispatcher(
      { "elicitation/create": () => result },
      { onError: () => {} },
    );
    const response = await dispatcher.handle({ jsonrpc: "2.0", id: 1, method: "elicitation/create", params });
    if (valid) expect(response?.result).toEqual(result);
    else expect(response?.error?.code).toBe(-32603);
  });
});
