// Compiled, not run (test/emit/typescript/usability.test.ts type-checks it, and so does `npm run typecheck`):
// the generated types accept what the spec's own TypeScript accepts in object literals, and refuse
// what it refuses. Issue 13, point 4.
import type * as Legacy from "../../../generated/2025-11-25/types.js";
import type * as Modern from "../../../generated/2026-07-28/types.js";

// The example: a W3C trace context key beside the protocol's own keys in a request's `_meta`.
export const modernParams: Modern.CallToolRequestParams = {
  name: "echo",
  _meta: {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
  },
};

// The same in a legacy request, and in a result's `_meta` of both eras.
export const legacyRequest: Legacy.CallToolRequest = {
  jsonrpc: "2.0",
  id: 1,
  method: "tools/call",
  params: { name: "echo", _meta: { progressToken: "p1", traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" } },
};
export const legacyResult: Legacy.CallToolResult = {
  content: [],
  _meta: { "example.com/trace": "t1", traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" },
};
export const modernResult: Modern.CallToolResult = {
  resultType: "complete",
  content: [],
  _meta: { traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" },
};

// Results are open in the spec's TypeScript (Result has an index signature): so are ours.
export const legacyResultExtra: Legacy.CallToolResult = { content: [], "example.com/extra": true };

// A closed type stays closed where the spec's TypeScript makes it one: an unknown top-level key of
// params, of a tool, of content is an error.
export const modernUnknownKey: Modern.CallToolRequestParams = {
  name: "echo",
  _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} },
  // @ts-expect-error `argumentz` is not a key of CallToolRequestParams
  argumentz: {},
};
export const legacyUnknownKey: Legacy.Tool = {
  name: "t",
  inputSchema: { type: "object" },
  // @ts-expect-error `inputschema` is not a key of Tool
  inputschema: {},
};
export const textUnknownKey: Modern.TextContent = {
  type: "text",
  text: "hi",
  // @ts-expect-error `txt` is not a key of TextContent
  txt: "hi",
};
// The protocol's required `_meta` keys stay required in an open `_meta`.
export const missingRequired: Modern.CallToolRequestParams = {
  name: "echo",
  // @ts-expect-error `io.modelcontextprotocol/clientCapabilities` is required
  _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", traceparent: "x" },
};
