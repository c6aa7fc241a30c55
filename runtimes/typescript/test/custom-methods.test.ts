// Custom methods through the generated router: typed, validated, normalized and gated like a version's
// own methods, declared with zod or with JSON Schema, refused when they take a core or extension method.
// Versions are picked from the generated table (`eras`), not assumed.
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { createServerRouter, eras, type ServedVersions } from "../../../generated/router.js";
import { customNotification, customRequest, fromJsonSchema, type CustomMethods } from "../../../generated/runtime/custom-methods.js";
import { TASKS_EXTENSION, tasksExtension } from "../../../generated/runtime/tasks.js";

type Label = keyof typeof eras;
const labels = Object.keys(eras) as Label[];
const modern = labels.filter((l) => eras[l] === "modern");
const legacy = labels.filter((l) => eras[l] === "legacy");
const serverInfo = { name: "custom", version: "1" };

const notes: unknown[] = [];
const custom: CustomMethods = {
  "acme/echo": customRequest({
    params: z.object({ text: z.string() }),
    result: z.object({ echo: z.string(), note: z.string().optional() }),
    // The handler is typed from the schemas: `text` is a string, the return must have `echo`.
    handler: ({ text }) => ({ echo: text.toUpperCase(), note: undefined }),
  }),
  "acme/broken": customRequest({ result: z.object({ echo: z.string() }), handler: () => ({ echo: 1 }) as never }),
  "acme/ping": customRequest({ shape: "empty", handler: () => ({ _meta: { "acme.example/seen": true }, dropped: 1 }) as never }),
  "acme/json": customRequest({
    params: fromJsonSchema({ type: "object", properties: { n: { type: "integer", minimum: 1 } }, required: ["n"] }),
    handler: (params) => ({ twice: (params as { n: number }).n * 2 }),
  }),
  "notifications/acme/note": customNotification({ params: z.object({ text: z.string() }), handler: ({ text }) => void notes.push(text) }),
};

function modernMeta(version: string) {
  return { "io.modelcontextprotocol/protocolVersion": version, "io.modelcontextprotocol/clientCapabilities": {} };
}

describe.each(modern.map((v) => [v]))("custom methods at %s (modern)", (version) => {
  const router = createServerRouter({ serverInfo, versions: { [version]: { handlers: {}, capabilities: {}, custom } } as ServedVersions });
  const call = (method: string, params: Record<string, unknown> = {}) => router.handle({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: modernMeta(version) } });

  it("answers a custom request with its normalized result (undefined dropped, resultType complete)", async () => {
    expect(await call("acme/echo", { text: "hi" })).toEqual({ jsonrpc: "2.0", id: 1, result: { echo: "HI", resultType: "complete" } });
  });

  it("refuses invalid params with -32602 and the failing pointer", async () => {
    const answer = (await call("acme/echo", { text: 3 })) as { error: { code: number; data: { paths: string[] } } };
    expect(answer.error.code).toBe(-32602);
    expect(answer.error.data.paths).toEqual(["/params/text"]);
  });

  it("never sends an invalid result: -32603", async () => {
    expect(await call("acme/broken")).toMatchObject({ error: { code: -32603 } });
  });

  it("normalizes an empty-shape result to its _meta and resultType", async () => {
    expect(await call("acme/ping")).toEqual({ jsonrpc: "2.0", id: 1, result: { _meta: { "acme.example/seen": true }, resultType: "complete" } });
  });

  it("validates with a JSON Schema given through fromJsonSchema", async () => {
    expect(await call("acme/json", { n: 4 })).toMatchObject({ result: { twice: 8, resultType: "complete" } });
    expect(await call("acme/json", { n: 0 })).toMatchObject({ error: { code: -32602 } });
  });

  it("delivers a custom notification after validating its params", async () => {
    notes.length = 0;
    await router.handle({ jsonrpc: "2.0", method: "notifications/acme/note", params: { text: "n1", _meta: modernMeta(version) } });
    expect(notes).toEqual(["n1"]);
  });

  it("still needs the modern envelope's _meta, as the version's own methods do", async () => {
    expect(await router.handle({ jsonrpc: "2.0", id: 2, method: "acme/echo", params: { text: "x" } })).toMatchObject({ error: { code: -32602 } });
  });

  it("refuses, at construction, a custom method the version has already", () => {
    expect(() => createServerRouter({ serverInfo, versions: { [version]: { handlers: {}, capabilities: {}, custom: { "tools/call": custom["acme/echo"] } } } as ServedVersions })).toThrow(
      /custom method tools\/call is a method of protocol version/,
    );
  });
});

describe.each(legacy.slice(-1).map((v) => [v]))("custom methods at %s (legacy, on a connection)", (version) => {
  it("answers after initialize, with the legacy normalizer (no resultType)", async () => {
    const router = createServerRouter({ serverInfo, versions: { [version]: { handlers: {}, capabilities: {}, custom } } as ServedVersions });
    const connection = router.connect(() => undefined);
    await connection.handle({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "c", version: "1" } } });
    expect(await connection.handle({ jsonrpc: "2.0", id: 1, method: "acme/echo", params: { text: "ok" } })).toEqual({ jsonrpc: "2.0", id: 1, result: { echo: "OK" } });
  });
});

describe("custom methods and extensions", () => {
  it("refuses a custom method that an extension of the version adds", () => {
    const served = modern.find((v) => {
      try {
        createServerRouter({ serverInfo, versions: { [v]: { handlers: {}, capabilities: {}, extensions: { [TASKS_EXTENSION]: tasksExtension() } } } as ServedVersions });
        return true;
      } catch {
        return false;
      }
    });
    expect(served, "a modern version with the Tasks extension").toBeDefined();
    expect(() =>
      createServerRouter({ serverInfo, versions: { [served!]: { handlers: {}, capabilities: {}, custom: { "tasks/get": custom["acme/echo"] } } } as ServedVersions }),
    ).toThrow(/custom method tasks\/get is a method of protocol version/);
  });
});

describe("a method of a version not declaring it", () => {
  it("stays -32601 where no custom method declares it", async () => {
    const [withCustom, without] = [modern[0], modern[1] ?? modern[0]];
    const router = createServerRouter({ serverInfo, versions: { [withCustom]: { handlers: {}, capabilities: {}, custom }, ...(without === withCustom ? {} : { [without]: { handlers: {}, capabilities: {} } }) } as ServedVersions });
    if (without !== withCustom) {
      expect(await router.handle({ jsonrpc: "2.0", id: 1, method: "acme/echo", params: { text: "x", _meta: modernMeta(without) } })).toMatchObject({ error: { code: -32601 } });
    }
    expect(await router.handle({ jsonrpc: "2.0", id: 1, method: "acme/unknown", params: { _meta: modernMeta(withCustom) } })).toMatchObject({ error: { code: -32601 } });
  });
});
