// The capability entry proposed for a method the reviewed data has no entry for
// (proposeCapabilityEntries), on synthetic schemas: drawn from the capability members the new version
// adds on the side the method's requirement reads. Expected entries are written out by hand.
import { describe, expect, it } from "vitest";
import { proposeCapabilityEntries } from "../../generator/model/capabilities.js";
import type { VersionModel } from "../../generator/model/types.js";
import { buildModelFromSpecs } from "../../generator/pipeline.js";
import { minimalLegacySchema } from "../support.js";

type Schema = Record<string, unknown>;
const ref = (name: string) => ({ $ref: `#/definitions/${name}` });
const request = (method: string) => ({ type: "object", properties: { method: { const: method, type: "string" } }, required: ["method"] });

function model(edit: (defs: Record<string, Schema>) => void): VersionModel {
  const schema = minimalLegacySchema();
  const defs = schema.definitions;
  defs.ServerCapabilities = { type: "object", properties: { tools: { type: "object", properties: { listChanged: { type: "boolean" } } }, logging: { type: "object" } } };
  defs.ClientCapabilities = { type: "object", properties: { roots: { type: "object" } } };
  edit(defs);
  const bytes = new TextEncoder().encode(JSON.stringify(schema));
  return buildModelFromSpecs([{ label: "x", file: "x/schema.json", bytes, schemaTs: null }], {}).versions[0];
}

const data = (methods: string[]) => ({ file: "method-capabilities.json", methods: Object.fromEntries(methods.map((m) => [m, { requires: [], reason: "r" }])) });
const reviewed = data(["initialize", "ping", "notifications/initialized"]);
const addRequest = (defs: Record<string, Schema>, name: string, method: string) => {
  defs[name] = request(method);
  (defs.ClientRequest.anyOf as Schema[]).push(ref(name));
};

describe("proposeCapabilityEntries", () => {
  const before = model(() => {});

  it("a new request beside a new member of its namespace's capability: that member and its ancestors", () => {
    const after = model((defs) => {
      addRequest(defs, "StreamToolRequest", "tools/stream");
      ((defs.ServerCapabilities.properties as Record<string, Schema>).tools.properties as Record<string, Schema>).streaming = { type: "boolean" };
    });
    expect(proposeCapabilityEntries(before, after, reviewed)).toEqual([
      {
        method: "tools/stream",
        kind: "request",
        definitions: ["ServerCapabilities"],
        added: ["tools.streaming"],
        entry: { requires: ["tools", "tools.streaming"], reason: "PROPOSED by bump, to review: the same bump adds tools.streaming to ServerCapabilities, under the capability named like the method's namespace" },
      },
    ]);
  });

  it("a new request whose namespace's capability exists and gains nothing: that capability alone", () => {
    const after = model((defs) => addRequest(defs, "TailLogRequest", "logging/tail"));
    expect(proposeCapabilityEntries(before, after, reviewed).map((p) => [p.method, p.added, p.entry.requires])).toEqual([["logging/tail", [], ["logging"]]]);
  });

  it("a capability added elsewhere is not taken for a method of another namespace: nothing required, the addition named", () => {
    const after = model((defs) => {
      addRequest(defs, "FooRequest", "foo/bar");
      (defs.ServerCapabilities.properties as Record<string, Schema>).widgets = { type: "object" };
    });
    expect(proposeCapabilityEntries(before, after, reviewed)).toEqual([
      {
        method: "foo/bar",
        kind: "request",
        definitions: ["ServerCapabilities"],
        added: ["widgets"],
        entry: { requires: [], reason: "PROPOSED by bump, to review: no capability of ServerCapabilities is named like the method's namespace (the bump adds widgets)" },
      },
    ]);
  });

  it("reads the receiver's capabilities for a server request (the client's), and proposes nothing for a method already reviewed", () => {
    const after = model((defs) => {
      defs.RootsWatchRequest = request("roots/watch");
      (defs.ServerRequest.anyOf as Schema[]).push(ref("RootsWatchRequest"));
      ((defs.ClientCapabilities.properties as Record<string, Schema>).roots as Schema).properties = { watch: { type: "boolean" } };
    });
    expect(proposeCapabilityEntries(before, after, reviewed).map((p) => [p.method, p.definitions, p.entry.requires])).toEqual([["roots/watch", ["ClientCapabilities"], ["roots", "roots.watch"]]]);
    expect(proposeCapabilityEntries(before, after, data([...Object.keys(reviewed.methods), "roots/watch"]))).toEqual([]);
  });
});
