// The outgoing channel the dispatchers gained for server→client messages: createPeerChannel numbers
// requests and matches answers; a dispatcher's Exchange gives handlers context.notify/request and
// cancels the request when the transport gives it up.
import { describe, expect, it, vi } from "vitest";
import { createServerDispatcher } from "../../generated/2025-11-25/index.js";
import { createPeerChannel, JsonRpcError, type JsonRpcMessage, type RequestId } from "../../generated/runtime.js";

function channel() {
  const sent: { message: JsonRpcMessage; related: RequestId | undefined }[] = [];
  const peer = createPeerChannel((message, related) => void sent.push({ message, related }));
  return { sent, peer };
}

describe("createPeerChannel", () => {
  it("sends a request tied to the request being handled and resolves with the matching result", async () => {
    const { sent, peer } = channel();
    const answer = peer.request("roots/list", undefined, 4, new AbortController().signal);
    expect(sent).toEqual([{ message: { jsonrpc: "2.0", id: "s0", method: "roots/list" }, related: 4 }]);
    expect(peer.receive({ jsonrpc: "2.0", id: "s0", result: { roots: [] } })).toBe(true);
    expect(await answer).toEqual({ roots: [] });
  });

  it("rejects with a JsonRpcError carrying the peer's code, message and data", async () => {
    const { peer } = channel();
    const answer = peer.request("elicitation/create", {}, 1, new AbortController().signal);
    peer.receive({ jsonrpc: "2.0", id: "s0", error: { code: -1, message: "User rejected", data: { why: "no" } } });
    await expect(answer).rejects.toEqual(new JsonRpcError(-1, "User rejected", { why: "no" }));
    await expect(answer).rejects.toMatchObject({ code: -1, data: { why: "no" } });
  });

  it("does not take requests or notifications for responses, and rejects what is pending on close", async () => {
    const { peer } = channel();
    expect(peer.receive({ jsonrpc: "2.0", id: 1, method: "ping" })).toBe(false);
    expect(peer.receive({ jsonrpc: "2.0", method: "notifications/initialized" })).toBe(false);
    const answer = peer.request("ping", undefined, 1, new AbortController().signal);
    peer.close(new Error("gone"));
    await expect(answer).rejects.toThrow("gone");
  });
});

describe("a dispatcher's exchange", () => {
  it("gives handlers notify tied to their request, and -32603 from notify without a channel", async () => {
    const { sent, peer } = channel();
    const dispatcher = createServerDispatcher({
      ping: async (_params, context) => {
        await context.notify("notifications/progress", { progressToken: 1, progress: 1 });
        return {};
      },
    });
    expect(await dispatcher.handle({ jsonrpc: "2.0", id: 9, method: "ping" }, { peer })).toEqual({ jsonrpc: "2.0", id: 9, result: {} });
    expect(sent).toEqual([{ message: { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } }, related: 9 }]);
    expect(await dispatcher.handle({ jsonrpc: "2.0", id: 10, method: "ping" })).toEqual({
      jsonrpc: "2.0",
      id: 10,
      error: { code: -32603, message: "Internal error: no outgoing channel to send notifications/progress" },
    });
  });

  it("cancels the request when the transport's signal aborts: the handler's signal aborts, nothing is answered, at once", async () => {
    const gone = new AbortController();
    let seen: AbortSignal | undefined;
    const dispatcher = createServerDispatcher({
      // A handler that never settles: the request must settle anyway.
      ping: (_params, context) => {
        seen = context.signal;
        return new Promise<never>(() => {});
      },
    });
    const answer = dispatcher.handle({ jsonrpc: "2.0", id: 1, method: "ping" }, { signal: gone.signal });
    expect(dispatcher.inFlight).toBe(1);
    gone.abort("closed");
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toBe("closed");
    expect(await answer).toBeUndefined();
    expect(dispatcher.inFlight).toBe(0);
  });

  it("a signal already aborted: the handler is not called", async () => {
    const gone = new AbortController();
    gone.abort("closed");
    let called = false;
    const dispatcher = createServerDispatcher({ ping: () => void (called = true) });
    expect(await dispatcher.handle({ jsonrpc: "2.0", id: 1, method: "ping" }, { signal: gone.signal })).toBeUndefined();
    expect(called).toBe(false);
  });

  it("a cancelled request waiting on a server→client request leaves nothing pending in the channel", async () => {
    const { sent, peer } = channel();
    const gone = new AbortController();
    const dispatcher = createServerDispatcher({ ping: async (_params, context) => (await context.request("roots/list"), {}) });
    const answer = dispatcher.handle({ jsonrpc: "2.0", id: 2, method: "ping" }, { peer, signal: gone.signal });
    await expect.poll(() => sent.length).toBe(1);
    expect(peer.pending).toBe(1);
    gone.abort("closed");
    expect(await answer).toBeUndefined();
    expect(peer.pending).toBe(0);
    // The late answer is taken (it is a response) and goes nowhere.
    expect(peer.receive({ jsonrpc: "2.0", id: "s0", result: { roots: [] } })).toBe(true);
  });

  it("the transport's signal listener is removed once the request is answered", async () => {
    const signal = new AbortController().signal;
    const add = vi.spyOn(signal, "addEventListener");
    const remove = vi.spyOn(signal, "removeEventListener");
    const dispatcher = createServerDispatcher({ ping: () => ({}) });
    for (const id of [1, 2, 3]) expect(await dispatcher.handle({ jsonrpc: "2.0", id, method: "ping" }, { signal })).toEqual({ jsonrpc: "2.0", id, result: {} });
    const added = add.mock.calls.map((call) => call[1]);
    expect(added).toHaveLength(3);
    expect(remove.mock.calls.map((call) => call[1])).toEqual(added);
  });
});
