// A server made only of generated code: the generated router picks the version and its generated
// dispatcher answers, with the conformance fixtures as handlers, served by the generated tree's own
// streamable HTTP transport (generated/runtime/transport-http.ts), as a user would serve theirs.
// Run: `tsx test/conformance/server.ts [port]` prints `listening http://127.0.0.1:<port>/mcp`.
import { pathToFileURL } from "node:url";
import { createServerRouter, type ServerRouter, type ServedVersions } from "../../generated/router.js";
import { isPlainObject, JsonRpcError } from "../../generated/runtime.js";
import { serveHttp, toolParameterHeaders } from "../../generated/runtime/transport-http.js";
import type * as v2025_11_25 from "../../generated/2025-11-25/index.js";
import type * as v2026_07_28 from "../../generated/2026-07-28/index.js";
import type * as v2026_07_28_tasks from "../../generated/2026-07-28+tasks/index.js";
import { task, tasksExtension, TASKS_EXTENSION, type TaskControl } from "../../generated/runtime/tasks.js";
import { customRequest, type CustomMethods } from "../../generated/runtime/custom-methods.js";
import * as z from "zod";
import * as f from "./fixtures.js";

type Json = Record<string, unknown>;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const text = (t: string) => ({ type: "text" as const, text: t });

// ---------------------------------------------------------------------------------------------
// Handlers, legacy era (typed at 2025-11-25, the version the suites' SDK client negotiates).

type LegacyHandlers = Omit<v2025_11_25.ServerHandlers, "initialize">;

const legacyHandlers: LegacyHandlers = {
  ping: () => ({}),
  "logging/setLevel": () => ({}),
  "completion/complete": () => ({ completion: { values: [], total: 0, hasMore: false } }),
  "tools/list": () => ({ tools: [...f.commonTools, ...f.legacyTools] as v2025_11_25.Tool[] }),
  "tools/call": async ({ name, arguments: args }, context) => {
    const simple = f.simpleToolResult(name);
    if (simple !== undefined) return simple as v2025_11_25.CallToolResult;
    switch (name) {
      case "test_tool_with_logging":
        for (const [i, data] of ["Tool execution started", "Tool processing data", "Tool execution completed"].entries()) {
          if (i > 0) await sleep(50);
          await context.notify("notifications/message", { level: "info", logger: "conformance", data });
        }
        return { content: [text("Logging completed")] };
      case "test_tool_with_progress":
        return { content: [text(await progress(context))] };
      case "test_sampling": {
        const result = (await context.request("sampling/createMessage", {
          messages: [{ role: "user", content: text(String(args?.prompt ?? "")) }],
          maxTokens: 100,
        })) as { content?: { text?: string } };
        return { content: [text(`LLM response: ${result.content?.text ?? JSON.stringify(result)}`)] };
      }
      case "test_elicitation": {
        const result = await context.request("elicitation/create", {
          message: String(args?.message ?? ""),
          requestedSchema: {
            type: "object",
            properties: { username: { type: "string", description: "User's response" }, email: { type: "string", description: "User's email address" } },
            required: ["username", "email"],
          },
        });
        return { content: [text(`User response: ${JSON.stringify(result)}`)] };
      }
      case "test_elicitation_sep1034_defaults":
      case "test_elicitation_sep1330_enums": {
        const schema = name === "test_elicitation_sep1034_defaults" ? f.elicitationDefaultsSchema : f.elicitationEnumsSchema;
        const result = (await context.request("elicitation/create", { message: "Please fill in the form", requestedSchema: schema })) as Json;
        return { content: [text(`Elicitation completed: action=${String(result.action)}, content=${JSON.stringify(result.content ?? {})}`)] };
      }
      default:
        throw new JsonRpcError(-32602, `Unknown tool: ${name}`);
    }
  },
  "resources/list": () => ({ resources: f.resources as v2025_11_25.Resource[] }),
  "resources/templates/list": () => ({ resourceTemplates: f.resourceTemplates as v2025_11_25.ResourceTemplate[] }),
  "resources/read": ({ uri }) => ({ contents: f.readResource(uri) as v2025_11_25.ReadResourceResult["contents"] }),
  "resources/subscribe": () => f.subscribeResult,
  "resources/unsubscribe": () => ({}),
  "prompts/list": () => ({ prompts: f.prompts as v2025_11_25.Prompt[] }),
  "prompts/get": ({ name, arguments: args }) => ({ messages: f.promptMessages(name, args) as v2025_11_25.PromptMessage[] }),
};

/** notifications/progress 0, 50, 100 of 100 when the request asked for progress; what happened, as text. */
async function progress(context: { _meta: Json | undefined; notify: (method: string, params?: Json) => Promise<void> }): Promise<string> {
  const token = context._meta?.progressToken;
  if (typeof token !== "string" && typeof token !== "number") return "No progress token given";
  for (const [i, value] of [0, 50, 100].entries()) {
    if (i > 0) await sleep(50);
    await context.notify("notifications/progress", { progressToken: token, progress: value, total: 100, message: `Progress ${value}%` });
  }
  return "Progress completed";
}

// ---------------------------------------------------------------------------------------------
// Handlers, modern era (2026-07-28): no server→client requests; input_required results instead.

type ModernHandlers = Omit<v2026_07_28.ServerHandlers, "server/discover" | "subscriptions/listen">;
const cache = { ttlMs: 0, cacheScope: "public" as const };

function inputResponse(params: Json, key: string): unknown {
  const responses = params.inputResponses;
  return isPlainObject(responses) && Object.hasOwn(responses, key) ? responses[key] : undefined;
}
/** The content of an accepted elicitation answer, else undefined. */
function accepted(value: unknown): Json | undefined {
  return isPlainObject(value) && value.action === "accept" && isPlainObject(value.content) ? value.content : undefined;
}
function sampled(value: unknown): boolean {
  return isPlainObject(value) && isPlainObject(value.content);
}
function rooted(value: unknown): boolean {
  return isPlainObject(value) && Array.isArray(value.roots);
}
const elicit = (message: string, properties: Json, required: string[]) => ({
  method: "elicitation/create",
  params: { mode: "form", message, requestedSchema: { type: "object", properties, required } },
});
const sample = (question: string) => ({
  method: "sampling/createMessage",
  params: { messages: [{ role: "user", content: text(question) }], maxTokens: 100 },
});
const roots = { method: "roots/list", params: {} };
const inputRequired = (inputRequests: Json, requestState?: string) =>
  ({ resultType: "input_required", inputRequests, ...(requestState === undefined ? {} : { requestState }) }) as v2026_07_28.InputRequiredResult;
const done = (t: string) => ({ content: [text(t)] });

function modernHandlers(router: () => ServerRouter): ModernHandlers {
  return {
    "completion/complete": () => ({ completion: { values: [], total: 0, hasMore: false } }),
    "tools/list": () => ({ tools: [...f.commonTools, ...f.modernTools, ...f.taskTools] as v2026_07_28.Tool[], ...cache }),
    "tools/call": async (params, context) => {
      const { name } = params;
      const simple = f.simpleToolResult(name);
      if (simple !== undefined) return simple as v2026_07_28.CallToolResult;
      const capabilities = context._meta?.["io.modelcontextprotocol/clientCapabilities"];
      const has = (c: string) => isPlainObject(capabilities) && isPlainObject(capabilities[c]);
      const p = params as unknown as Json;
      switch (name) {
        case "test_tool_with_progress":
          return done(await progress(context));
        case "test_missing_capability":
          if (!has("sampling")) {
            throw new JsonRpcError(-32021, "Missing required client capability: sampling", { requiredCapabilities: { sampling: {} } });
          }
          return done("The client can sample.");
        case "test_logging_tool":
          await context.notify("notifications/message", { level: "info", logger: "conformance", data: "test_logging_tool ran" });
          return done("Logged at info.");
        case "test_trigger_tool_change":
          await router().publish("notifications/tools/list_changed");
          return done("Tool list change announced.");
        case "test_trigger_prompt_change":
          await router().publish("notifications/prompts/list_changed");
          return done("Prompt list change announced.");
        case "test_streaming_elicitation":
        case "test_input_required_result_elicitation": {
          const answer = accepted(inputResponse(p, "user_name"));
          if (typeof answer?.name === "string") return done(`Hello, ${answer.name}!`);
          return inputRequired({ user_name: elicit("What is your name?", { name: { type: "string" } }, ["name"]) });
        }
        case "test_input_required_result_sampling":
          if (sampled(inputResponse(p, "capital_question"))) return done("Sampling answered.");
          return inputRequired({ capital_question: sample("What is the capital of France?") });
        case "test_input_required_result_list_roots":
          if (rooted(inputResponse(p, "client_roots"))) return done("Roots received.");
          return inputRequired({ client_roots: roots });
        case "test_input_required_result_request_state":
        case "test_input_required_result_tampered_state": {
          if (p.requestState !== undefined) {
            const state = f.openState(p.requestState);
            if (state.tool === name && accepted(inputResponse(p, "confirm")) !== undefined) return done("Confirmed: state-ok");
          }
          return inputRequired({ confirm: elicit("Please confirm", { ok: { type: "boolean" } }, ["ok"]) }, f.sealState({ tool: name }));
        }
        case "test_input_required_result_multiple_inputs": {
          if (p.requestState !== undefined) {
            const state = f.openState(p.requestState);
            const all = accepted(inputResponse(p, "user_name")) !== undefined && sampled(inputResponse(p, "greeting")) && rooted(inputResponse(p, "client_roots"));
            if (state.tool === name && all) return done("All three answers received.");
          }
          return inputRequired(
            {
              user_name: elicit("What is your name?", { name: { type: "string" } }, ["name"]),
              greeting: sample("Write a greeting."),
              client_roots: roots,
            },
            f.sealState({ tool: name }),
          );
        }
        case "test_input_required_result_multi_round": {
          const round = p.requestState === undefined ? 0 : Number(f.openState(p.requestState).round);
          if (round === 1 && accepted(inputResponse(p, "step1")) !== undefined) {
            return inputRequired({ step2: elicit("Step 2: your city?", { city: { type: "string" } }, ["city"]) }, f.sealState({ tool: name, round: 2 }));
          }
          if (round === 2 && accepted(inputResponse(p, "step2")) !== undefined) return done("Both rounds answered.");
          return inputRequired({ step1: elicit("Step 1: your name?", { name: { type: "string" } }, ["name"]) }, f.sealState({ tool: name, round: 1 }));
        }
        case "test_input_required_result_capabilities": {
          // Ask only for what the client declared in this request's clientCapabilities.
          const wanted: Json = {};
          if (has("elicitation")) wanted.user_name = elicit("What is your name?", { name: { type: "string" } }, ["name"]);
          if (has("sampling")) wanted.greeting = sample("Write a greeting.");
          if (has("roots")) wanted.client_roots = roots;
          const answered = Object.keys(wanted).every((key) => inputResponse(p, key) !== undefined);
          if (answered) return done("Asked only for declared capabilities.");
          return inputRequired(wanted);
        }
        default:
          throw new JsonRpcError(-32602, `Unknown tool: ${name}`);
      }
    },
    "resources/list": () => ({ resources: [...f.resources, ...f.skillResources] as v2026_07_28.Resource[], ...cache }),
    "resources/templates/list": () => ({ resourceTemplates: f.resourceTemplates as v2026_07_28.ResourceTemplate[], ...cache }),
    "resources/read": ({ uri }) => ({ contents: (f.readSkillFile(uri) ?? f.readResource(uri)) as v2026_07_28.ReadResourceResult["contents"], ...cache }),
    "prompts/list": () => ({ prompts: [...f.prompts, ...f.modernPrompts] as v2026_07_28.Prompt[], ...cache }),
    "prompts/get": (params) => {
      if (params.name === "test_input_required_result_prompt") {
        const answer = accepted(inputResponse(params as unknown as Json, "user_context"));
        if (typeof answer?.context === "string") return { messages: [{ role: "user", content: text(`Use this context: ${answer.context}`) }] };
        return inputRequired({ user_context: elicit("What context should the prompt use?", { context: { type: "string" } }, ["context"]) });
      }
      return { messages: f.promptMessages(params.name, params.arguments) as v2026_07_28.PromptMessage[] };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The Tasks extension at 2026-07-28: its tools/call answers every modern tools/call (task tools return
// a task handle; the runtime stores the task, answers tasks/*, or refuses with -32021 without the
// extension); the other tools are the modern handlers'.

/** A pause that ends early when `signal` aborts (a cancelled task). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
  });
}

type TaskHandlers = Omit<v2026_07_28_tasks.ServerHandlers, "server/discover" | "subscriptions/listen">;

function taskToolCall(modern: ModernHandlers): NonNullable<TaskHandlers["tools/call"]> {
  return (params, context) => {
    const args = (params.arguments ?? {}) as Json;
    const p = params as unknown as Json;
    switch (params.name) {
      case "greet":
        return done(`Hello, ${String(args.name ?? "world")}!`);
      case "slow_compute": {
        const seconds = Number(args.seconds ?? 0);
        return task(
          async (t: TaskControl) => {
            await pause(seconds * 1000, t.signal);
            return done(`Computed after ${seconds} s`);
          },
          { support: "optional", pollIntervalMs: 100, ttlMs: 60_000 },
        ) as never;
      }
      case "failing_job":
        return task(async (t: TaskControl) => {
          await pause(1000, t.signal);
          return { content: [text("The job failed")], isError: true };
        }, { pollIntervalMs: 100 }) as never;
      case "protocol_error_job":
        return task(() => {
          throw new JsonRpcError(-32603, "The job broke at the protocol level");
        }, { support: "optional", pollIntervalMs: 100 }) as never;
      case "confirm_delete":
        return task(async (t: TaskControl) => {
          const answers = await t.input({ confirm: elicit("Delete the file?", { confirm: { type: "boolean" } }, ["confirm"]) });
          return done(`Deletion ${accepted(answers.confirm) ? "confirmed" : "declined"}`);
        }, { support: "optional", pollIntervalMs: 100 }) as never;
      case "multi_input":
        return task(async (t: TaskControl) => {
          const answers = await t.input({
            first_name: elicit("Your first name?", { name: { type: "string" } }, ["name"]),
            last_name: elicit("Your last name?", { name: { type: "string" } }, ["name"]),
          });
          return done(`Hello, ${String(accepted(answers.first_name)?.name)} ${String(accepted(answers.last_name)?.name)}!`);
        }, { support: "optional", pollIntervalMs: 100 }) as never;
      case "test_tool_with_task": {
        const answer = accepted(inputResponse(p, "user_name"));
        if (typeof answer?.name !== "string") return inputRequired({ user_name: elicit("What is your name?", { name: { type: "string" } }, ["name"]) });
        const userName = answer.name;
        return task(async () => done(`Hello, ${userName}! (from the task)`), { pollIntervalMs: 100 }) as never;
      }
      default:
        return modern["tools/call"]!(params, context as never) as never;
    }
  };
}

/**
 * The Skills extension's methods at 2026-07-28, as custom methods (the extension publishes no schema we
 * lock): skills/list (one page), skills/get (-32602 for a URI that is not a served skill) and
 * resources/directory/read (-32602 for a URI that is not a directory).
 */
const skillsMethods: CustomMethods = {
  "skills/list": customRequest({ params: z.object({ cursor: z.string().optional() }).loose(), handler: () => ({ skills: [f.skillEntry], ...cache }) }),
  "skills/get": customRequest({
    params: z.object({ uri: z.string() }).loose(),
    handler: ({ uri }) => {
      if (uri !== f.skillEntry.uri) throw new JsonRpcError(-32602, `Invalid params: no skill at ${uri}`);
      return { skill: f.skillEntry, ...cache };
    },
  }),
  "resources/directory/read": customRequest({
    params: z.object({ uri: z.string(), cursor: z.string().optional() }).loose(),
    handler: ({ uri }) => {
      const children = f.skillDirectory(uri);
      if (children === undefined) throw new JsonRpcError(-32602, `Invalid params: ${uri} is not a directory`);
      return { resources: children, ...cache };
    },
  }),
};

const capabilities = {
  tools: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
  logging: {},
  completions: {},
};

export function createConformanceRouter(): ServerRouter {
  // The fixtures are written once against 2025-11-25; older versions serve the same handlers. The
  // cast is needed because each version's types differ (its RequestContext names its own version;
  // 2024-11-05 has no audio content); the suites' client negotiates 2025-11-25.
  const older = { handlers: legacyHandlers as never, capabilities };
  const modern = modernHandlers(() => router);
  const versions: ServedVersions = {
    "2024-11-05": older,
    "2025-03-26": older,
    "2025-06-18": older,
    "2025-11-25": { handlers: legacyHandlers, capabilities },
    "2026-07-28": {
      handlers: modern,
      // Skills is declared inline under capabilities.extensions (its settings: directoryRead) and served by custom methods.
      capabilities: { ...capabilities, extensions: { [f.SKILLS_EXTENSION]: { directoryRead: true } } },
      custom: skillsMethods,
      extensions: { [TASKS_EXTENSION]: tasksExtension<TaskHandlers>({ handlers: { "tools/call": taskToolCall(modern) } }) },
    },
  };
  const router = createServerRouter({ serverInfo: { name: "mcp-codegen-conformance", version: "0.1.0" }, versions });
  return router;
}

// ---------------------------------------------------------------------------------------------
// HTTP: the shipped streamable HTTP transport, both eras on one endpoint.

export interface RunningServer {
  url: string;
  router: ServerRouter;
  close(): Promise<void>;
}

export async function startServer(port = 0): Promise<RunningServer> {
  const router = createConformanceRouter();
  const parameterHeaders = (name: string) => {
    const tool = f.modernTools.find((t) => t.name === name);
    return tool === undefined ? undefined : toolParameterHeaders(tool);
  };
  const http = await serveHttp(router, { port, parameterHeaders });
  return {
    url: http.url,
    router,
    async close() {
      router.close();
      await http.close();
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const running = await startServer(Number(process.argv[2] ?? 0));
  console.log(`listening ${running.url}`);
  const stop = () => void running.close().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
