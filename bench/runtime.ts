// In-process benchmarks of generated code: normalizers, and dispatch through the SDK client.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, SubscribeRequestSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import * as v20251125 from "../generated/2025-11-25/index.js";

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

let sink: unknown;

/** Operations per second of `fn` over `inputs`, median of `rounds` batches after a warm-up batch. */
export function opsPerSecond(fn: (x: unknown) => unknown, inputs: unknown[], iterations: number, rounds: number): number {
  const batch = () => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) sink = fn(inputs[i % inputs.length]);
    return iterations / (Number(process.hrtime.bigint() - start) / 1e9);
  };
  batch();
  return median(Array.from({ length: rounds }, batch));
}

/** Interleave several ops/s measurements so that machine noise hits all of them alike. */
export function opsSideBySide(cases: Record<string, { fn: (x: unknown) => unknown; inputs: unknown[] }>, iterations: number, rounds: number) {
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  for (const c of Object.values(cases)) opsPerSecond(c.fn, c.inputs, iterations, 1);
  for (let r = 0; r < rounds; r++) for (const [k, c] of Object.entries(cases)) samples[k].push(opsPerSecond(c.fn, c.inputs, iterations, 1));
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
}

export const emptyInputs: unknown[] = [
  undefined,
  { _meta: { "example.com/k": "v" } },
  { _meta: { "example.com/k": "v" }, subscriptionId: "sub-1" },
  { subscriptionId: "sub-1" },
  null,
  "text",
];

export const callToolResults: unknown[] = [
  { content: [{ type: "text", text: "hello" }] },
  { content: [{ type: "text", text: "a" }, { type: "image", data: "aGVsbG8=", mimeType: "image/png" }], isError: false },
  { content: [], structuredContent: { n: 1 }, _meta: { "example.com/k": 1 } },
];

export const invalidCallToolResults: unknown[] = [
  { content: "not an array" },
  { content: [{ type: "text" }] },
  { content: [{ type: "image", data: 1, mimeType: "image/png" }], isError: "no" },
];

const toolResult = { content: [{ type: "text", text: "hello" }] };
const subscribeMeta = { _meta: { "example.com/k": "v" }, subscriptionId: "sub-1" };

async function sdkServerPair(): Promise<Client> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const server = new Server({ name: "sdk-server", version: "1.0.0" }, { capabilities: { tools: {}, resources: { subscribe: true } } });
  server.setRequestHandler(CallToolRequestSchema, async () => toolResult);
  server.setRequestHandler(SubscribeRequestSchema, async () => ({}));
  await server.connect(serverTransport);
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(clientTransport);
  return client;
}

async function generatedPair(): Promise<Client> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const dispatcher = v20251125.createServerDispatcher({
    initialize: () => ({
      protocolVersion: "2025-11-25",
      capabilities: { tools: {}, resources: { subscribe: true } },
      serverInfo: { name: "generated", version: "1.0.0" },
    }),
    "tools/call": () => toolResult,
    "resources/subscribe": () => subscribeMeta,
  });
  serverTransport.onmessage = (message) => {
    const answer = dispatcher.handle(message);
    if (answer instanceof Promise) void answer.then((r) => r !== undefined && serverTransport.send(r as JSONRPCMessage));
    else if (answer !== undefined) void serverTransport.send(answer as JSONRPCMessage);
  };
  await serverTransport.start();
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(clientTransport);
  return client;
}

/** Requests per second through the SDK client, one at a time, for SDK Server vs generated dispatcher. */
export async function dispatchSideBySide(requests: number, rounds: number) {
  const clients = { sdk: await sdkServerPair(), generated: await generatedPair() };
  const calls = {
    "tools/call": (c: Client) => c.callTool({ name: "echo", arguments: {} }),
    "resources/subscribe": (c: Client) => c.subscribeResource({ uri: "file:///x" }),
  };
  const result: Record<string, { sdk: number; generated: number }> = {};
  for (const [method, call] of Object.entries(calls)) {
    const samples = { sdk: [] as number[], generated: [] as number[] };
    const once = async (c: Client) => {
      const start = process.hrtime.bigint();
      for (let i = 0; i < requests; i++) await call(c);
      return requests / (Number(process.hrtime.bigint() - start) / 1e9);
    };
    await once(clients.sdk);
    await once(clients.generated);
    for (let r = 0; r < rounds; r++) {
      samples.sdk.push(await once(clients.sdk));
      samples.generated.push(await once(clients.generated));
    }
    result[method] = { sdk: median(samples.sdk), generated: median(samples.generated) };
  }
  await Promise.all(Object.values(clients).map((c) => c.close()));
  return result;
}

export { sink };
