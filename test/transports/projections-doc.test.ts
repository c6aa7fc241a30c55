// docs/projections.md's example is test/transports/fixtures/one-handler-set-example.ts, verbatim, and does
// what the page says: a 2025-11-25 session of a router whose one handler set is written for 2026-07-28
// gets its tools/list result without the members 2025-11-25 does not declare, the handler told its version.
import { docExample } from "../docs/blocks.js";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { root } from "../support.js";
import { legacyToolsList, router } from "./fixtures/one-handler-set-example.js";

afterAll(() => router.close());

describe("docs/projections.md", () => {
  it("shows the example file verbatim", () => {
    const block = docExample("docs/projections.md", "one-handler-set-example.ts");
    expect(block).toBe(readFileSync(path.join(root, "test", "transports", "fixtures", "one-handler-set-example.ts"), "utf8"));
  });

  it("answers the 2025-11-25 session as the example's comment says", async () => {
    expect(await legacyToolsList()).toEqual({ jsonrpc: "2.0", id: 2, result: { tools: [{ name: "echo", title: "Echo (2025-11-25)", inputSchema: { type: "object" } }] } });
  });
});
