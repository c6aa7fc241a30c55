// Nothing the client runs outlives what owns it, against servers nobody here wrote, over stdio and streamable
// HTTP: @modelcontextprotocol/server-everything (its `trigger-sampling-request` tool) and the official Python
// SDK's (test/client/fixtures/python-server.py, its `ask` tool) send sampling/createMessage to the client while
// a tools/call runs, and the client's handler holds until its signal aborts.
// - close() aborts the handler before it returns (at once, not after some delay), on every transport; after it
//   nothing is answered or reported.
// - Cancelling the tools/call aborts it: over HTTP by the nesting, before cancelling returns (the request came on
//   that call's POST stream, which the client stops reading, so the server's own notifications/cancelled could
//   never arrive); over stdio when the server's notifications/cancelled for its nested request arrives, which the
//   Python SDK sends. How soon that is depends on the server, so the test waits for it (bounded by the test's
//   timeout) and asserts no duration: speed is the benchmarks' to measure. Over stdio
//   nothing on the wire relates a server request to a call, so against a server that does not cancel its
//   nested request (server-everything, on SDK 1.x) the handler runs until the server answers or the client closes.
import { SUPPORTED_PROTOCOL_VERSIONS as SDK1_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { createClient, httpClientTransport, stdioClientTransport, type ClientTransport, type ClientVersion } from "../../generated/client.js";
import { eras } from "../../generated/router.js";
import path from "node:path";
import { everything, fixtures, listening, python, startEverything, startHttp, stopChildren } from "./servers.js";

afterEach(stopChildren);

/** The newest legacy version of the generated tree that the SDK 1.32.2 (server-everything's) speaks. */
const VERSION = Object.keys(eras)
  .filter((v) => eras[v as keyof typeof eras] === "legacy" && (SDK1_VERSIONS as string[]).includes(v))
  .sort()
  .pop() as ClientVersion;

interface Peer {
  open(): Promise<ClientTransport>;
  /** The tools/call that makes the server ask the client for sampling. */
  call: { name: string; arguments: Record<string, unknown> };
  /** How cancelling the call reaches the held handler (see above): at once, by the server's notice, or not at all. */
  cancelReaches: "at once" | "by the server's notice" | false;
}

const everythingCall = { name: "trigger-sampling-request", arguments: { prompt: "hold" } };
const pythonCall = { name: "ask", arguments: {} };
const peers: Array<[string, Peer]> = [
  ["server-everything over stdio", { open: async () => stdioClientTransport({ command: process.execPath, args: [everything, "stdio"], stderr: "ignore" }), call: everythingCall, cancelReaches: false }],
  ["server-everything over streamable HTTP", { open: async () => httpClientTransport(await startEverything()), call: everythingCall, cancelReaches: "at once" }],
  ["the Python SDK over stdio", { open: async () => stdioClientTransport({ command: python, args: [path.join(fixtures, "python-server.py")], stderr: "ignore" }), call: pythonCall, cancelReaches: "by the server's notice" }],
  ["the Python SDK over streamable HTTP", { open: async () => httpClientTransport(await startHttp(python, [path.join(fixtures, "python-server.py"), "http"], listening, (m) => m[1])), call: pythonCall, cancelReaches: "at once" }],
];

/** A client whose sampling handler holds until aborted: `running` resolves when it runs, `aborted` when its signal aborts; `isAborted()` says whether it has yet. */
function holdingClient() {
  const errors: unknown[] = [];
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  let seen = false;
  let sawAbort!: () => void;
  const aborted = new Promise<void>((resolve) => (sawAbort = resolve));
  const client = createClient({
    clientInfo: { name: "cancellation-test", version: "1.0.0" },
    capabilities: { sampling: {} },
    versions: [VERSION],
    onError: (error) => errors.push(error),
    handlers: {
      "sampling/createMessage": ((_params: unknown, context: { signal: AbortSignal }) =>
        new Promise((_resolve, reject) => {
          started();
          context.signal.addEventListener("abort", () => {
            seen = true;
            sawAbort();
            reject(context.signal.reason);
          });
        })) as never,
    },
  });
  return { client, errors, running, aborted, isAborted: () => seen };
}

describe.each(peers.filter(([, p]) => p.cancelReaches !== false))("the client against %s, its sampling handler held by a server request", (_name, peer) => {
  const how = peer.cancelReaches === "at once" ? "before cancelling returns" : "when the server's notifications/cancelled for it arrives";
  it(`cancelling the tools/call it is nested in aborts the handler ${how}`, async () => {
    const { client, running, aborted, isAborted } = holdingClient();
    await client.connect(await peer.open());
    try {
      const cancel = new AbortController();
      const call = client.request("tools/call", peer.call, { signal: cancel.signal });
      call.catch(() => undefined);
      await running;
      expect(isAborted()).toBe(false);
      cancel.abort(new Error("the user gave up"));
      if (peer.cancelReaches === "at once") expect(isAborted()).toBe(true);
      await expect(call).rejects.toThrow("the user gave up");
      await aborted;
      expect(isAborted()).toBe(true);
    } finally {
      await client.close();
    }
  });
});

describe.each(peers)("the client against %s, its sampling handler held by a server request", (_name, peer) => {
  it("close() aborts the handler before it returns, and nothing is answered or reported after it", async () => {
    const { client, errors, running, isAborted } = holdingClient();
    await client.connect(await peer.open());
    const call = client.request("tools/call", peer.call);
    call.catch(() => undefined);
    await running;
    expect(isAborted()).toBe(false);
    const closing = client.close();
    expect(isAborted()).toBe(true);
    await closing;
    await expect(call).rejects.toThrow(/closed/);
    // A handler settling after close sends no answer, so no failed send reaches onError.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(errors).toEqual([]);
  });
});
