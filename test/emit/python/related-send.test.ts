// The related-request id on the Python router's `send` (runtimes/python/src/mcp_codegen_runtime/router.py, `RelatedSend`),
// driven through related_send.py: a `send` that takes a `related_request_id` keyword is told the id of the request
// a handler's notification or server→client request is about, and None for what `publish` sends (as TypeScript's
// `Send` gets its second argument); a `send(message)` of the original signature, or one that cannot take the
// keyword, is called with the message alone and its connection serves as before. The HTTP transport's routing
// by that id is in http.test.ts.
import { describe, expect, it } from "vitest";
import { readLock } from "../../../generator/source/lock.js";
import { lockFile } from "../../support.js";
import { pythonJson, servingLegacy } from "./support.js";

const labels = Object.keys((await readLock(lockFile)).versions).sort();
const LEGACY = await servingLegacy(labels);

interface Out {
  sent: Record<string, [string, unknown][]>;
  responses: Record<string, unknown>;
}
const out = pythonJson<Out>("related_send.py", { version: LEGACY });
const sampled = { role: "assistant", content: { type: "text", text: "ok" }, model: "m" };

describe(`a legacy connection's send (${LEGACY})`, () => {
  it.each(["keyword", "positional", "kwargs"])("a send taking related_request_id (%s) is given the handled request's id for context.notify and context.request, None for publish", (shape) => {
    expect(out.sent[shape]).toEqual([
      ["notifications/message", "r-7"],
      ["sampling/createMessage", "r-7"],
      ["notifications/tools/list_changed", null],
    ]);
  });

  it.each(["plain", "positional_only"])("a send that cannot take the keyword (%s) is called with the message alone, and sends the same messages", (shape) => {
    expect(out.sent[shape]).toEqual([
      ["notifications/message", "not given"],
      ["sampling/createMessage", "not given"],
      ["notifications/tools/list_changed", "not given"],
    ]);
  });

  it.each(["plain", "keyword", "positional", "kwargs", "positional_only"])("the call is answered with the client's sampling answer whatever the shape (%s)", (shape) => {
    expect(out.responses[shape]).toEqual({ jsonrpc: "2.0", id: "r-7", result: { content: [{ type: "text", text: JSON.stringify(sampled) }] } });
  });
});
