// The method catalogue comes from the ClientRequest / ServerRequest / …Notification unions, exactly.
import { copyFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildModel } from "../../generator/pipeline.js";
import type { VersionModel } from "../../generator/model/types.js";
import { versionNaming } from "../../generator/emit/typescript/naming.js";
import { readLock } from "../../generator/source/lock.js";
import { ensureSchemas, lockFile, root, schemasDir, tempDir } from "../support.js";

let versions: Map<string, VersionModel>;

beforeAll(async () => {
  await ensureSchemas();
  const model = buildModel({
    schemasDir,
    versions: ["2024-11-05", "2025-11-25", "2026-07-28"],
    lock: await readLock(lockFile),
    overridesFile: path.join(root, "schemas", "overrides.json"),
  });
  versions = new Map(model.versions.map((v) => [v.label, v]));
});

/** `method sender result shape` per request, sorted by method. */
const requestRows = (v: VersionModel) => v.requests.map((r) => `${r.method} ${r.sender} ${versionNaming(v).resultType(r)} ${r.resultShape}`);
const notificationRows = (v: VersionModel) => v.notifications.map((n) => `${n.method} ${n.sender} ${n.definition}`);

describe("2024-11-05", () => {
  it("is legacy and has exactly these requests", () => {
    const v = versions.get("2024-11-05")!;
    expect(v.era).toBe("legacy");
    expect(v.dialect).toBe("draft-07");
    expect(requestRows(v)).toEqual([
      "completion/complete client CompleteResult object",
      "initialize client InitializeResult object",
      "logging/setLevel client EmptyResult empty",
      "ping both EmptyResult empty",
      "prompts/get client GetPromptResult object",
      "prompts/list client ListPromptsResult object",
      "resources/list client ListResourcesResult object",
      "resources/read client ReadResourceResult object",
      "resources/subscribe client EmptyResult empty",
      "resources/templates/list client ListResourceTemplatesResult object",
      "resources/unsubscribe client EmptyResult empty",
      "roots/list server ListRootsResult object",
      "sampling/createMessage server CreateMessageResult object",
      "tools/call client CallToolResult object",
      "tools/list client ListToolsResult object",
    ]);
  });

  it("has exactly these notifications", () => {
    expect(notificationRows(versions.get("2024-11-05")!)).toEqual([
      "notifications/cancelled both CancelledNotification",
      "notifications/initialized client InitializedNotification",
      "notifications/message server LoggingMessageNotification",
      "notifications/progress both ProgressNotification",
      "notifications/prompts/list_changed server PromptListChangedNotification",
      "notifications/resources/list_changed server ResourceListChangedNotification",
      "notifications/resources/updated server ResourceUpdatedNotification",
      "notifications/roots/list_changed client RootsListChangedNotification",
      "notifications/tools/list_changed server ToolListChangedNotification",
    ]);
  });

  it("types inline params by indexing the request definition", () => {
    const subscribe = versions.get("2024-11-05")!.requests.find((r) => r.method === "resources/subscribe")!;
    expect(versionNaming(versions.get("2024-11-05")!).paramsType(subscribe)).toBe('NonNullable<SubscribeRequest["params"]>');
    expect(subscribe.params?.required).toBe(true);
    expect(subscribe.resultSource).toBe("empty-result");
  });
});

describe("2025-11-25", () => {
  it("is legacy and has exactly these requests", () => {
    const v = versions.get("2025-11-25")!;
    expect(v.era).toBe("legacy");
    expect(v.dialect).toBe("2020-12");
    expect(requestRows(v)).toEqual([
      "completion/complete client CompleteResult object",
      "elicitation/create server ElicitResult object",
      "initialize client InitializeResult object",
      "logging/setLevel client EmptyResult empty",
      "ping both EmptyResult empty",
      "prompts/get client GetPromptResult object",
      "prompts/list client ListPromptsResult object",
      "resources/list client ListResourcesResult object",
      "resources/read client ReadResourceResult object",
      "resources/subscribe client EmptyResult empty",
      "resources/templates/list client ListResourceTemplatesResult object",
      "resources/unsubscribe client EmptyResult empty",
      "roots/list server ListRootsResult object",
      "sampling/createMessage server CreateMessageResult object",
      "tasks/cancel both CancelTaskResult object",
      "tasks/get both GetTaskResult object",
      "tasks/list both ListTasksResult object",
      // GetTaskPayloadResult declares only _meta but carries a payload: schemas/overrides.json.
      "tasks/result both GetTaskPayloadResult object",
      "tools/call client CallToolResult object",
      "tools/list client ListToolsResult object",
    ]);
    expect(v.requests.find((r) => r.method === "tasks/result")!.resultSource).toBe("name");
  });

  it("has exactly these notifications", () => {
    expect(notificationRows(versions.get("2025-11-25")!)).toEqual([
      "notifications/cancelled both CancelledNotification",
      "notifications/elicitation/complete server ElicitationCompleteNotification",
      "notifications/initialized client InitializedNotification",
      "notifications/message server LoggingMessageNotification",
      "notifications/progress both ProgressNotification",
      "notifications/prompts/list_changed server PromptListChangedNotification",
      "notifications/resources/list_changed server ResourceListChangedNotification",
      "notifications/resources/updated server ResourceUpdatedNotification",
      "notifications/roots/list_changed client RootsListChangedNotification",
      "notifications/tasks/status both TaskStatusNotification",
      "notifications/tools/list_changed server ToolListChangedNotification",
    ]);
  });

  it("has resources/subscribe as a client request with result EmptyResult, shape empty", () => {
    const subscribe = versions.get("2025-11-25")!.requests.find((r) => r.method === "resources/subscribe")!;
    expect(subscribe).toMatchObject({
      sender: "client",
      definition: "SubscribeRequest",
      results: ["EmptyResult"],
      resultShape: "empty",
      params: { definition: "SubscribeRequestParams", required: true },
    });
    expect(versionNaming(versions.get("2025-11-25")!).paramsType(subscribe)).toBe("SubscribeRequestParams");
  });
});

describe("2026-07-28", () => {
  it("is modern and has exactly these requests", () => {
    const v = versions.get("2026-07-28")!;
    expect(v.era).toBe("modern");
    expect(requestRows(v)).toEqual([
      "completion/complete client CompleteResult object",
      "prompts/get client InputRequiredResult | GetPromptResult object",
      "prompts/list client ListPromptsResult object",
      "resources/list client ListResourcesResult object",
      "resources/read client InputRequiredResult | ReadResourceResult object",
      "resources/templates/list client ListResourceTemplatesResult object",
      "server/discover client DiscoverResult object",
      "subscriptions/listen client SubscriptionsListenResult empty",
      "tools/call client InputRequiredResult | CallToolResult object",
      "tools/list client ListToolsResult object",
    ]);
    expect(v.requests.every((r) => r.resultSource === "result-response")).toBe(true);
  });

  it("has exactly these notifications, the client's union being one inline schema", () => {
    expect(notificationRows(versions.get("2026-07-28")!)).toEqual([
      "notifications/cancelled both CancelledNotification",
      "notifications/message server LoggingMessageNotification",
      "notifications/progress server ProgressNotification",
      "notifications/prompts/list_changed server PromptListChangedNotification",
      "notifications/resources/list_changed server ResourceListChangedNotification",
      "notifications/resources/updated server ResourceUpdatedNotification",
      "notifications/subscriptions/acknowledged server SubscriptionsAcknowledgedNotification",
      "notifications/tools/list_changed server ToolListChangedNotification",
    ]);
  });

  it("maps tools/call to InputRequiredResult | CallToolResult from CallToolResultResponse", () => {
    const call = versions.get("2026-07-28")!.requests.find((r) => r.method === "tools/call")!;
    expect(call.results).toEqual(["InputRequiredResult", "CallToolResult"]);
    const names = versionNaming(versions.get("2026-07-28")!);
    expect([names.resultType(call), names.typeImports(call).filter((t) => t.endsWith("Result")).sort()]).toEqual(["InputRequiredResult | CallToolResult", ["CallToolResult", "InputRequiredResult"]]);
  });

  it("does not count method literals outside the unions: sampling/createMessage is an in-band payload", () => {
    const v = versions.get("2026-07-28")!;
    expect(JSON.stringify(v.definitions.CreateMessageRequest)).toContain('"sampling/createMessage"');
    expect(v.requests.map((r) => r.method)).not.toContain("sampling/createMessage");
    expect(v.notifications.map((n) => n.method)).not.toContain("sampling/createMessage");
  });
});

describe("across eras", () => {
  it("resources/subscribe is in 2025-11-25 and absent in 2026-07-28; subscriptions/listen only in 2026-07-28", () => {
    const has = (label: string, method: string) => versions.get(label)!.requests.some((r) => r.method === method);
    expect(has("2025-11-25", "resources/subscribe")).toBe(true);
    expect(has("2026-07-28", "resources/subscribe")).toBe(false);
    expect(has("2026-07-28", "subscriptions/listen")).toBe(true);
    expect(has("2025-11-25", "subscriptions/listen")).toBe(false);
    expect(has("2024-11-05", "subscriptions/listen")).toBe(false);
  });

  it("ping is sent by both sides in legacy versions", () => {
    for (const label of ["2024-11-05", "2025-11-25"]) {
      expect(versions.get(label)!.requests.find((r) => r.method === "ping")!.sender).toBe("both");
    }
  });

  it("derives the era from the schema, not the folder name (and pins only bytes the lock names)", async () => {
    const dir = tempDir();
    // Swap the labels: a modern schema in a folder named like a legacy version, and the reverse.
    mkdirSync(path.join(dir, "2024-11-05"));
    copyFileSync(path.join(schemasDir, "2026-07-28", "schema.json"), path.join(dir, "2024-11-05", "schema.json"));
    mkdirSync(path.join(dir, "next"));
    copyFileSync(path.join(schemasDir, "2025-06-18", "schema.json"), path.join(dir, "next", "schema.json"));
    const swapped = buildModel({ schemasDir: dir, lock: await readLock(lockFile) });
    expect(swapped.versions.map((v) => [v.label, v.era, v.specCommit])).toEqual([
      ["2024-11-05", "modern", null],
      ["next", "legacy", null],
    ]);
  });
});
