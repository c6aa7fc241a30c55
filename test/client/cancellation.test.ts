// Nothing the client runs outlives what owns it, against servers nobody here wrote, over stdio and streamable
// HTTP: @modelcontextprotocol/server-everything (its `trigger-sampling-request` tool) and the official Python
// SDK's (test/client/fixtures/python-server.py, its `ask` tool) send sampling/createMessage to the client while
// a tools/call runs, and the client's handler holds until its signal aborts.
// - close() aborts the handler within 100 ms, on every transport; after it nothing is answered or reported.
// - Cancelling the tools/call aborts it: over HTTP by the nesting (the request came on that call's POST stream,
//   which the client stops reading, so the server's own notifications/cancelled could never arrive); over stdio
//   by the server's notifications/cancelled for its nested request, which the Python SDK sends. Over stdio
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

/** How long a held handler may take to see its signal abort. */
const WITHIN_MS = 100;

interface Peer {
  open(): Promise<ClientTransport>;
  /** The tools/call that makes the server ask the client for sampling. */
  call: { name: string; arguments: Record<string, unknown> };
  /** Whether cancelling the call reaches the held handler (see above). */
  cancelReaches: boolean;
}

const everythingCall = { name: "trigger-sampling-request", arguments: { prompt: "hold" } };
const pythonCall = { name: "ask", arguments: {} };
const peers: Array<[string, Peer]> = [
  ["server-everything over stdio", { open: async () => stdioClientTransport({ command: process.execPath, args: [everything, "stdio"], stderr: "ignore" }), call: everythingCall, cancelReaches: false }],
  ["server-everything over streamable HTTP", { open: async () => httpClientTransport(await startEverything()), call: everythingCall, cancelReaches: true }],
  ["the Python SDK over stdio", { open: async () => stdioClientTransport({ command: python, args: [path.join(fixtures, "python-server.py")], stderr: "ignore" }), call: pythonCall, cancelReaches: true }],
  ["the Python SDK over streamable HTTP", { open: async () => httpClientTransport(await startHttp(python, [path.join(fixtures, "python-server.py"), "http"], listening, (m) => m[1])), call: pythonCall, cancelReaches: true }],
];

/** A client whose sampling handler holds until aborted: `started` resolves when it runs, `aborted` with the ms from the trigger to its abort. */
function holdingClient() {
  const errors: unknown[] = [];
  let trigger = 0;
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  let abortedAt!: (ms: number) => void;
  const aborted = new Promise<number>((resolve) => (abortedAt = resolve));
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
            abortedAt(performance.now() - trigger);
            reject(context.signal.reason);
          });
        })) as never,
    },
  });
  return { client, errors, running, aborted, mark: () => (trigger = performance.now()) };
}

describe.each(peers.filter(([, p]) => p.cancelReaches))("the client against %s, its sampling handler held by a server request", (_name, peer) => {
  it(`cancelling the tools/call it is nested in aborts the handler within ${WITHIN_MS} ms`, async () => {
    const { client, running, aborted, mark } = holdingClient();
    await client.connect(await peer.open());
    try {
      const cancel = new AbortController();
      const call = client.request("tools/call", peer.call, { signal: cancel.signal });
      call.catch(() => undefined);
      await running;
      mark();
      cancel.abort(new Error("the user gave up"));
      await expect(call).rejects.toThrow("the user gave up");
      expect(await aborted).toBeLessThan(WITHIN_MS);
    } finally {
      await client.close();
    }
  });

});

describe.each(peers)("the client against %s, its sampling handler held by a server request", (_name, peer) => {
  it(`close() aborts the handler within ${WITHIN_MS} ms, and nothing is answered or reported after it`, async () => {
    const { client, errors, running, aborted, mark } = holdingClient();
    await client.connect(await peer.open());
    const call = client.request("tools/call", peer.call);
    call.catch(() => undefined);
    await running;
    mark();
    const closing = client.close();
    expect(await aborted).toBeLessThan(WITHIN_MS);
    await closing;
    await expect(call).rejects.toThrow(/closed/);
    // A handler settling after close sends no answer, so no failed send reaches onError.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(errors).toEqual([]);
  });
});
