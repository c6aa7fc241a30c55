// The client's types follow the versions it was built for (checked by tsc: test/handlers/typecheck.test.ts
// compiles this file with every @ts-expect-error). `createClient({ versions })` types the client by exactly
// those versions: `at()` takes only one of them, `view()` is their union told apart by `protocolVersion`, and
// `anyVersion()` types each call by the union of their params and results. The two dated labels named here are
// versions a bump keeps (it re-pins `draft` and adds a label).
import { describe, expect, expectTypeOf, it } from "vitest";
import { createClient } from "../../generated/client.js";
import type * as legacy from "../../generated/2025-11-25/index.js";
import type * as modern from "../../generated/2026-07-28/index.js";

const clientInfo = { name: "types", version: "1.0.0" };

/** Never called: its body is what tsc checks. */
function typing(): void {
  const client = createClient({ clientInfo, versions: ["2025-11-25", "2026-07-28"] });
  // @ts-expect-error the client does not offer 2024-11-05
  client.at("2024-11-05");
  expectTypeOf(client.at("2025-11-25").request("tools/call", { name: "t" })).resolves.toEqualTypeOf<legacy.CallToolResult>();

  // One call typed by both versions: its params are either version's, its result either result.
  expectTypeOf(client.anyVersion().request("tools/call", { name: "t" })).resolves.toEqualTypeOf<legacy.CallToolResult | modern.InputRequiredResult | modern.CallToolResult>();
  // resources/subscribe is a request of 2025-11-25 only: the union view has it, typed by that version alone.
  expectTypeOf(client.anyVersion().request("resources/subscribe", { uri: "file:///x" })).resolves.toEqualTypeOf<legacy.EmptyResult>();
  // @ts-expect-error no offered version has this method
  void client.anyVersion().request("no/such-method");

  // The negotiated view narrows by its protocolVersion.
  const view = client.view();
  if (view.protocolVersion === "2026-07-28") {
    expectTypeOf(view.request("tools/list")).resolves.toEqualTypeOf<modern.ListToolsResult>();
    // @ts-expect-error 2026-07-28 has no resources/subscribe request
    void view.request("resources/subscribe", { uri: "file:///x" });
  } else {
    expectTypeOf(view.protocolVersion).toEqualTypeOf<"2025-11-25">();
    expectTypeOf(view.request("resources/subscribe", { uri: "file:///x" })).resolves.toEqualTypeOf<legacy.EmptyResult>();
  }

  // A client built for one version is typed by it alone.
  const only = createClient({ clientInfo, versions: ["2026-07-28"] });
  // @ts-expect-error only 2026-07-28 is offered
  only.at("2025-11-25");
  expectTypeOf(only.view().protocolVersion).toEqualTypeOf<"2026-07-28">();
  // The Tasks extension's notification is handled at the version it is layered onto, typed by its module.
  only.setNotificationHandler("notifications/tasks", (params) => {
    expectTypeOf(params.taskId).toEqualTypeOf<string>();
  });
  // @ts-expect-error 2025-11-25 has no notifications/tasks (its status notification is notifications/tasks/status)
  createClient({ clientInfo, versions: ["2025-11-25"] }).setNotificationHandler("notifications/tasks", () => undefined);
}

describe("the client's types (tsc checks this file through test/handlers/typecheck.test.ts)", () => {
  it("view() and anyVersion() refuse before a version is negotiated", () => {
    const client = createClient({ clientInfo, versions: ["2025-11-25"] });
    expect(() => client.view()).toThrow(/no version yet/);
    expect(() => client.anyVersion()).toThrow(/no version yet/);
    expect(typing).toBeTypeOf("function");
  });
});
