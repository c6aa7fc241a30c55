// The transports' cancellation channel (runtimes/typescript/src/cancellation.ts): listeners told
// once with the reason, at once when subscribing late, not after unsubscribing; the AbortSignal made on
// demand aborts with it; and a dispatcher given one cancels the request as it does for a signal.
import { describe, expect, it } from "vitest";
import { CancellationSource } from "../src/cancellation.js";
import * as modern from "../../../generated/2026-07-28/index.js";

describe("CancellationSource", () => {
  it("tells each listener once, with the reason; a late listener at once; an unsubscribed one never", () => {
    const source = new CancellationSource();
    const heard: string[] = [];
    source.onCancel((reason) => heard.push(`a ${String(reason)}`));
    const off = source.onCancel((reason) => heard.push(`b ${String(reason)}`));
    off();
    expect(source.cancelled).toBe(false);
    source.cancel("gone");
    source.cancel("again");
    expect(heard).toEqual(["a gone"]);
    expect({ cancelled: source.cancelled, reason: source.reason }).toEqual({ cancelled: true, reason: "gone" });
    source.onCancel((reason) => heard.push(`late ${String(reason)}`));
    expect(heard).toEqual(["a gone", "late gone"]);
  });

  it("its signal, made on first read, aborts with it (before or after the read)", () => {
    const before = new CancellationSource();
    const signal = before.signal;
    expect(signal.aborted).toBe(false);
    before.cancel("x");
    expect({ aborted: signal.aborted, reason: signal.reason }).toEqual({ aborted: true, reason: "x" });
    const after = new CancellationSource();
    after.cancel("y");
    expect({ aborted: after.signal.aborted, reason: after.signal.reason }).toEqual({ aborted: true, reason: "y" });
  });

  it("a dispatcher's request given one is cancelled by it: the handler's signal aborts, nothing is answered, in-flight drops", async () => {
    const source = new CancellationSource();
    let handlerSignal: AbortSignal | undefined;
    const d = modern.createServerDispatcher({
      "tools/call": (_params, context) => {
        handlerSignal = context.signal;
        return new Promise<never>(() => undefined);
      },
    });
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
    const answer = d.handle({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", _meta: meta } }, { cancellation: source });
    await Promise.resolve();
    expect(d.inFlight).toBe(1);
    source.cancel(new Error("the client closed the connection"));
    expect(await answer).toBeUndefined();
    expect(handlerSignal?.aborted).toBe(true);
    expect(d.inFlight).toBe(0);
  });
});
