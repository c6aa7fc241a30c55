// The tools, resources and prompts the conformance suites' server scenarios call, as plain data and
// functions shared by both eras. Names and contents are the suites' own (conformance 0.1.13 and
// 0.2.0-alpha.12, server scenarios); nothing here is protocol logic: that is the generated router's.
import { createHash, createHmac, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { JsonRpcError } from "../../generated/runtime.js";

/** Fixture data: the same objects serve every version, each with its own types, so they are typed loosely here. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;
const text = (t: string) => ({ type: "text" as const, text: t });

/** The pure data, read by both conformance servers (this one and server.py): fixtures.json. */
const data = JSON.parse(readFileSync(new URL("./fixtures.json", import.meta.url), "utf8")) as Json;

/** A 1×1 PNG and a silent 8-bit mono WAV: the smallest valid files of their types. */
export const PNG: string = data.png;
export const WAV: string = data.wav;

/** Tools of both eras: name, description, inputSchema. */
export const commonTools: Json[] = data.tools.common;
/** Tools only a legacy connection has: they need server→client requests or logging/setLevel. */
export const legacyTools: Json[] = data.tools.legacy;
/** Tools only the modern era has (2026-07-28 scenarios). */
export const modernTools: Json[] = data.tools.modern;
/**
 * Tools of the Tasks extension's scenarios (tasks-*, 0.2.0-alpha.12), listed at 2026-07-28: the names and
 * behaviour each scenario's description requires (`greet` is sync-only; the others run as tasks).
 */
export const taskTools: Json[] = data.tools.tasks;

// ---------------------------------------------------------------------------------------------
// The Skills extension (io.modelcontextprotocol/skills, SEP-2640) of the sep-2640-* scenarios: one skill,
// `pdf-processing`, its SKILL.md and one reference file under a subdirectory, served through resources/read,
// skills/list, skills/get and resources/directory/read (custom methods: the extension publishes no schema
// in ../shared/mcp-extensions).

export const SKILLS_EXTENSION: string = data.skills.extension;
const skillFiles: Record<string, { text: string; mimeType: string }> = data.skills.files;
const digest = (text: string) => `sha256:${createHash("sha256").update(text, "utf8").digest("hex")}`;

/** The skill's entry, as skills/list and skills/get send it: its SKILL.md, frontmatter, and every file's digest and size. */
export const skillEntry: Json = {
  uri: Object.keys(skillFiles)[0],
  frontmatter: data.skills.frontmatter,
  resources: Object.entries(skillFiles).map(([uri, f]) => ({ uri, digest: digest(f.text), size: Buffer.byteLength(f.text, "utf8") })),
};

/** The skill's files as listed resources (SKILL.md named and described by its frontmatter). */
export const skillResources: Json[] = data.skills.resources;

/** A skill file's contents, or undefined for a URI that is not one. */
export function readSkillFile(uri: string): Json[] | undefined {
  const f = Object.hasOwn(skillFiles, uri) ? skillFiles[uri] : undefined;
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

export const resources: Json[] = data.resources;
export const resourceTemplates: Json[] = data.resourceTemplates;
const resourceContents: Record<string, Json[]> = data.resourceContents;
/**
 * What resources/subscribe's handler returns: a seed `_meta` beside members an empty result does not have
 * (the empty-result normalizer sends the `_meta` alone; the real-client tests check that).
 */
export const subscribeResult: Json = data.subscribeResult;

export const RESOURCE_NOT_FOUND_CODE = -32602;

/** resources/read contents; an unknown URI is -32602 with the URI in data (SEP-2164). */
export function readResource(uri: string): Json[] {
  if (Object.hasOwn(resourceContents, uri)) return resourceContents[uri];
  const m = /^test:\/\/template\/([^/]+)\/data$/.exec(uri);
  if (m) return [{ uri, mimeType: "application/json", text: JSON.stringify({ id: m[1], templateTest: true, data: `Data for ID: ${m[1]}` }) }];
  throw new JsonRpcError(RESOURCE_NOT_FOUND_CODE, `Resource not found: ${uri}`, { uri });
}

export const prompts: Json[] = data.prompts;
export const modernPrompts: Json[] = data.modernPrompts;

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

const simpleToolResults: Record<string, Json> = data.simpleToolResults;
/** tools/call content of the tools that need nothing from the client. */
export function simpleToolResult(name: string): Json | undefined {
  return Object.hasOwn(simpleToolResults, name) ? simpleToolResults[name] : undefined;
}

export const elicitationDefaultsSchema: Json = data.elicitation.defaults;
export const elicitationEnumsSchema: Json = data.elicitation.enums;

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
