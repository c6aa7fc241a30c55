// The tools, resources and prompts the conformance suites' server scenarios call, as plain data and
// functions shared by both eras. Names and contents are the suites' own (conformance 0.1.13 and
// 0.2.0-alpha.12, server scenarios); nothing here is protocol logic: that is the generated router's.
import { createHash, createHmac, randomBytes } from "node:crypto";
import { JsonRpcError } from "../../generated/runtime.js";

/** A 1×1 PNG and a silent 8-bit mono WAV: the smallest valid files of their types. */
export const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
export const WAV = "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=";

/** Fixture data: the same objects serve every version, each with its own types, so they are typed loosely here. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
const text = (t: string) => ({ type: "text" as const, text: t });
const noArgs = { type: "object" as const, properties: {} };

/** Tools of both eras: name, description, inputSchema. */
export const commonTools: Json[] = [
  { name: "test_simple_text", description: "Returns a simple text response", inputSchema: noArgs },
  { name: "test_image_content", description: "Returns an image", inputSchema: noArgs },
  { name: "test_audio_content", description: "Returns audio", inputSchema: noArgs },
  { name: "test_embedded_resource", description: "Returns an embedded resource", inputSchema: noArgs },
  { name: "test_multiple_content_types", description: "Returns text, an image and a resource", inputSchema: noArgs },
  { name: "test_error_handling", description: "Always returns a tool error", inputSchema: noArgs },
  { name: "test_tool_with_progress", description: "Reports progress 0, 50, 100", inputSchema: noArgs },
  {
    name: "json_schema_2020_12_tool",
    description: "Has a JSON Schema 2020-12 input schema",
    inputSchema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      $defs: {
        address: {
          $anchor: "addressDef",
          type: "object",
          properties: { street: { type: "string" }, city: { type: "string" } },
        },
      },
      properties: {
        name: { type: "string" },
        address: { $ref: "#/$defs/address" },
        contactMethod: { type: "string", enum: ["phone", "email"] },
        phone: { type: "string" },
        email: { type: "string" },
      },
      allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
      if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
      then: { required: ["phone"] },
      else: { required: ["email"] },
      additionalProperties: false,
    },
  },
];

/** Tools only a legacy connection has: they need server→client requests or logging/setLevel. */
export const legacyTools: Json[] = [
  { name: "test_tool_with_logging", description: "Sends three log messages", inputSchema: noArgs },
  {
    name: "test_sampling",
    description: "Asks the client's LLM",
    inputSchema: { type: "object", properties: { prompt: { type: "string" } }, required: ["prompt"] },
  },
  {
    name: "test_elicitation",
    description: "Asks the user",
    inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
  },
  { name: "test_elicitation_sep1034_defaults", description: "Elicits with defaults", inputSchema: noArgs },
  { name: "test_elicitation_sep1330_enums", description: "Elicits with every enum form", inputSchema: noArgs },
];

/** Tools only the modern era has (2026-07-28 scenarios). */
export const modernTools: Json[] = [
  { name: "test_missing_capability", description: "Needs the client's sampling capability", inputSchema: noArgs },
  { name: "test_streaming_elicitation", description: "Asks the user through an input_required result", inputSchema: noArgs },
  { name: "test_logging_tool", description: "Logs at info", inputSchema: noArgs },
  { name: "test_trigger_tool_change", description: "Announces a tool list change", inputSchema: noArgs },
  { name: "test_trigger_prompt_change", description: "Announces a prompt list change", inputSchema: noArgs },
  {
    name: "test_custom_header",
    description: "Mirrors its region argument into the Mcp-Param-Region header (x-mcp-header)",
    inputSchema: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } }, required: ["region"] },
  },
  ...[
    "elicitation",
    "sampling",
    "list_roots",
    "request_state",
    "multiple_inputs",
    "multi_round",
    "tampered_state",
    "capabilities",
  ].map((n) => ({ name: `test_input_required_result_${n}`, description: `input_required: ${n.replace(/_/g, " ")}`, inputSchema: noArgs })),
];

/**
 * Tools of the Tasks extension's scenarios (tasks-*, 0.2.0-alpha.12), listed at 2026-07-28: the names and
 * behaviour each scenario's description requires (`greet` is sync-only; the others run as tasks).
 */
export const taskTools: Json[] = [
  { name: "greet", description: "Sync-only: returns Hello, {name}!", inputSchema: { type: "object", properties: { name: { type: "string" } } } },
  {
    name: "slow_compute",
    description: "Task-supporting: sleeps `seconds` seconds, then returns a result; settles cancelled when cancelled",
    inputSchema: { type: "object", properties: { seconds: { type: "number" } } },
  },
  { name: "failing_job", description: "Task required: returns a tool execution error (isError) after about 1 s", inputSchema: noArgs },
  { name: "protocol_error_job", description: "Task-supporting: fails with a JSON-RPC protocol error", inputSchema: noArgs },
  { name: "confirm_delete", description: "Task-supporting: asks for confirmation (elicitation/create), then completes", inputSchema: noArgs },
  { name: "multi_input", description: "Task-supporting: asks two elicitation/create questions at once", inputSchema: noArgs },
  { name: "test_tool_with_task", description: "Task required: asks user_name through input_required, then continues as a task", inputSchema: noArgs },
];

// ---------------------------------------------------------------------------------------------
// The Skills extension (io.modelcontextprotocol/skills, SEP-2640) of the sep-2640-* scenarios: one skill,
// `pdf-processing`, its SKILL.md and one reference file under a subdirectory, served through resources/read,
// skills/list, skills/get and resources/directory/read (custom methods: the extension publishes no schema
// in ../shared/mcp-extensions).

export const SKILLS_EXTENSION = "io.modelcontextprotocol/skills";
const skillRoot = "skill://pdf-processing";
const skillFiles: Record<string, { text: string; mimeType: string }> = {
  [`${skillRoot}/SKILL.md`]: {
    mimeType: "text/markdown",
    text: "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\n---\n\n# PDF processing\n\nSee references/FORMS.md for form filling.\n",
  },
  [`${skillRoot}/references/FORMS.md`]: { mimeType: "text/markdown", text: "# Forms\n\nFill each field, then flatten the form.\n" },
};
const digest = (text: string) => `sha256:${createHash("sha256").update(text, "utf8").digest("hex")}`;

/** The skill's entry, as skills/list and skills/get send it. */
export const skillEntry: Json = {
  uri: `${skillRoot}/SKILL.md`,
  frontmatter: { name: "pdf-processing", description: "Extract, fill, and assemble PDF documents" },
  resources: Object.entries(skillFiles).map(([uri, f]) => ({ uri, digest: digest(f.text), size: Buffer.byteLength(f.text, "utf8") })),
};

/** The skill's files as listed resources (SKILL.md named and described by its frontmatter). */
export const skillResources: Json[] = [
  { uri: `${skillRoot}/SKILL.md`, name: "pdf-processing", description: "Extract, fill, and assemble PDF documents", mimeType: "text/markdown" },
  { uri: `${skillRoot}/references/FORMS.md`, name: "FORMS.md", mimeType: "text/markdown" },
];

/** A skill file's contents, or undefined for a URI that is not one. */
export function readSkillFile(uri: string): Json[] | undefined {
  const f = skillFiles[uri];
  return f === undefined ? undefined : [{ uri, mimeType: f.mimeType, text: f.text }];
}

/** The direct children of a skill directory (`inode/directory` for a subdirectory), or undefined when `uri` is not a directory. */
export function skillDirectory(uri: string): Json[] | undefined {
  const dir = uri.replace(/\/$/, "");
  const prefix = `${dir}/`;
  const below = Object.keys(skillFiles).filter((f) => f.startsWith(prefix));
  if (below.length === 0) return undefined;
  const children = new Map<string, Json>();
  for (const file of below) {
    const rest = file.slice(prefix.length);
    const slash = rest.indexOf("/");
    if (slash < 0) children.set(file, { uri: file, name: rest, mimeType: skillFiles[file].mimeType });
    else children.set(prefix + rest.slice(0, slash), { uri: prefix + rest.slice(0, slash), name: rest.slice(0, slash), mimeType: "inode/directory" });
  }
  return [...children.values()];
}

export const resources: Json[] = [
  { uri: "test://static-text", name: "static-text", description: "A static text resource", mimeType: "text/plain" },
  { uri: "test://static-binary", name: "static-binary", description: "A static PNG", mimeType: "image/png" },
  { uri: "test://watched-resource", name: "watched-resource", description: "A resource to subscribe to", mimeType: "text/plain" },
];

export const resourceTemplates: Json[] = [
  { uriTemplate: "test://template/{id}/data", name: "template-data", description: "Data by id", mimeType: "application/json" },
];

export const RESOURCE_NOT_FOUND_CODE = -32602;

/** resources/read contents; an unknown URI is -32602 with the URI in data (SEP-2164). */
export function readResource(uri: string): Json[] {
  if (uri === "test://static-text") return [{ uri, mimeType: "text/plain", text: "This is the content of the static text resource." }];
  if (uri === "test://static-binary") return [{ uri, mimeType: "image/png", blob: PNG }];
  if (uri === "test://watched-resource") return [{ uri, mimeType: "text/plain", text: "Watched resource content." }];
  const m = /^test:\/\/template\/([^/]+)\/data$/.exec(uri);
  if (m) return [{ uri, mimeType: "application/json", text: JSON.stringify({ id: m[1], templateTest: true, data: `Data for ID: ${m[1]}` }) }];
  throw new JsonRpcError(RESOURCE_NOT_FOUND_CODE, `Resource not found: ${uri}`, { uri });
}

export const prompts: Json[] = [
  { name: "test_simple_prompt", description: "A prompt without arguments" },
  {
    name: "test_prompt_with_arguments",
    description: "A prompt with two arguments",
    arguments: [
      { name: "arg1", description: "First argument", required: true },
      { name: "arg2", description: "Second argument", required: true },
    ],
  },
  {
    name: "test_prompt_with_embedded_resource",
    description: "A prompt embedding a resource",
    arguments: [{ name: "resourceUri", description: "The resource to embed", required: true }],
  },
  { name: "test_prompt_with_image", description: "A prompt with an image" },
];

export const modernPrompts: Json[] = [{ name: "test_input_required_result_prompt", description: "A prompt that asks the user first" }];

/** prompts/get messages of the prompts both eras have. */
export function promptMessages(name: string, args: Record<string, string> | undefined): Json[] {
  switch (name) {
    case "test_simple_prompt":
      return [{ role: "user", content: text("This is a simple prompt for testing.") }];
    case "test_prompt_with_arguments":
      return [{ role: "user", content: text(`Prompt with arguments: arg1='${args?.arg1 ?? ""}', arg2='${args?.arg2 ?? ""}'`) }];
    case "test_prompt_with_embedded_resource":
      return [
        {
          role: "user",
          content: { type: "resource", resource: { uri: args?.resourceUri ?? "test://example-resource", mimeType: "text/plain", text: "Embedded resource content for testing." } },
        },
        { role: "user", content: text("Please process the embedded resource above.") },
      ];
    case "test_prompt_with_image":
      return [
        { role: "user", content: { type: "image", data: PNG, mimeType: "image/png" } },
        { role: "user", content: text("Please analyze the image above.") },
      ];
    default:
      throw new JsonRpcError(-32602, `Unknown prompt: ${name}`);
  }
}

/** tools/call content of the tools that need nothing from the client. */
export function simpleToolResult(name: string): Json | undefined {
  switch (name) {
    case "test_simple_text":
      return { content: [text("This is a simple text response for testing.")] };
    case "test_image_content":
      return { content: [{ type: "image", data: PNG, mimeType: "image/png" }] };
    case "test_audio_content":
      return { content: [{ type: "audio", data: WAV, mimeType: "audio/wav" }] };
    case "test_embedded_resource":
      return { content: [{ type: "resource", resource: { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." } }] };
    case "test_multiple_content_types":
      return {
        content: [
          text("Multiple content types test:"),
          { type: "image", data: PNG, mimeType: "image/png" },
          { type: "resource", resource: { uri: "test://mixed-content-resource", mimeType: "application/json", text: JSON.stringify({ test: "data", value: 123 }) } },
        ],
      };
    case "test_error_handling":
      return { isError: true, content: [text("This tool intentionally returns an error for testing")] };
    case "json_schema_2020_12_tool":
    case "test_custom_header":
      return { content: [text("Received the arguments.")] };
    default:
      return undefined;
  }
}

export const elicitationDefaultsSchema = {
  type: "object",
  properties: {
    name: { type: "string", default: "John Doe" },
    age: { type: "integer", default: 30 },
    score: { type: "number", default: 95.5 },
    status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
    verified: { type: "boolean", default: true },
  },
};

export const elicitationEnumsSchema = {
  type: "object",
  properties: {
    untitledSingle: { type: "string", enum: ["option1", "option2", "option3"] },
    titledSingle: {
      type: "string",
      oneOf: [
        { const: "value1", title: "First Option" },
        { const: "value2", title: "Second Option" },
        { const: "value3", title: "Third Option" },
      ],
    },
    legacyEnum: { type: "string", enum: ["opt1", "opt2", "opt3"], enumNames: ["Option One", "Option Two", "Option Three"] },
    untitledMulti: { type: "array", items: { type: "string", enum: ["option1", "option2", "option3"] } },
    titledMulti: {
      type: "array",
      items: {
        anyOf: [
          { const: "value1", title: "First Choice" },
          { const: "value2", title: "Second Choice" },
          { const: "value3", title: "Third Choice" },
        ],
      },
    },
  },
};

/** requestState that the client cannot forge: JSON payload, base64url, HMAC-SHA256 signed with a per-process key. */
const stateKey = randomBytes(32);
export function sealState(payload: Json): string {
  const body = Buffer.from(JSON.stringify(payload)).toString("base64url");
  return `${body}.${createHmac("sha256", stateKey).update(body).digest("base64url")}`;
}
/** The payload of a sealed state, or a -32602 error when it was altered. */
export function openState(state: unknown): Json {
  if (typeof state !== "string") throw new JsonRpcError(-32602, "Invalid params: requestState is missing");
  const [body, mac, ...rest] = state.split(".");
  const expected = createHmac("sha256", stateKey).update(body ?? "").digest("base64url");
  if (rest.length > 0 || mac !== expected) throw new JsonRpcError(-32602, "Invalid params: requestState was altered");
  return JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Json;
}
