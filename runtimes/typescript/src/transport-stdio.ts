// The stdio transport: one client on a pair of streams (by default this process's stdin and stdout),
// one JSON-RPC message per line (UTF-8, `\n`-delimited, no embedded newlines), both eras on the same
// stream: legacy messages go to one router connection (its version chosen at `initialize`), modern
// (2026-07-28) messages to `router.handle` within this connection's scope.
//
// Hand-written rather than the SDK's StdioServerTransport: that one validates each line against its own
// schema and drops what fails (reporting to `onerror`), where MCP wants -32700 for a line that is not JSON
// and -32600 (id null) for an invalid envelope; framing lines is all that is left, and needs no dependency.
//
// - Requests run concurrently; each response is written when ready. Writes keep message order per call.
// - Backpressure: output goes through a bounded writer that honours `drain`; while it waits, input is not
//   read. A peer leaving more than `maxBufferedBytes` unread is disconnected (as `close()`, `onError` told once).
// - The input ending: its last line is read even without a final newline; requests still running get
//   `endGraceMs` (default 5 s) to finish and be answered, then their `signal` aborts. `close()` aborts at
//   once. Either way the legacy connection closes (its pending server→client requests reject).
// - Request ids beyond 2^53 come back as the client wrote them.
// - A JSON array is a JSON-RPC batch: served (its answers as one array) when the connection's version
//   defines batches in its schema, else refused with one -32600 (id null), as is an empty batch.
// - Nothing but protocol messages is written to `output`; transport problems go to `onError` (stderr).
import { STDIO_END_GRACE_MS } from "../protocol.js";
import type { Readable, Writable } from "node:stream";
import type { AuthInfo } from "./auth.js";
import { CancellationSource } from "./cancellation.js";
import { invalidRequest, readEnvelope } from "./jsonrpc.js";
import {
  batchesServed,
  boundedWriter,
  errorMessage,
  type ExactIds,
  exactIds,
  INTERNAL_ERROR,
  INVALID_REQUEST,
  logTransportError,
  type OutgoingMessage,
  PARSE_ERROR,
  type RoutedServer,
  serialize,
  type TransportErrorHook,
} from "./transport-jsonrpc.js";

export interface StdioTransportOptions {
  /** Default: `process.stdin`. */
  input?: Readable;
  /** Default: `process.stdout`. */
  output?: Writable;
  /** Longest line accepted, in bytes (default 4 MiB); a longer one is skipped and answered -32600 (id null). */
  maxLineBytes?: number;
  /** Most bytes of output the peer may leave unread before it is disconnected (default 4 MiB). */
  maxBufferedBytes?: number;
  /** After the input ends, how long running requests may take to finish before they are aborted (default 5,000 ms). */
  endGraceMs?: number;
  /** Transport failures (unsendable messages, write errors) and the in-flight limit reached. Default: one line on stderr. */
  onError?: TransportErrorHook;
  /** Most requests running at once (default 64): at the cap, input is not read until one settles. */
  maxRequestsInFlight?: number;
  /** The caller of every message of this stream (stdio has no tokens: the host that spawned the server knows it); handlers see it as `context.auth`. */
  auth?: AuthInfo;
  /** Whom every message is for (tasks are bound to it). Default: from `auth`, else none. */
  principal?: string;
}

export interface StdioServer {
  /** Settles when the input has ended and every running request has settled (or was aborted after `endGraceMs`). */
  readonly closed: Promise<void>;
  /** Stop reading, abort running requests at once, close the legacy connection. */
  close(): void;
}

const DEFAULT_MAX_LINE = 4 * 1024 * 1024;
const DEFAULT_MAX_BUFFERED = 4 * 1024 * 1024;
export const DEFAULT_END_GRACE_MS = STDIO_END_GRACE_MS;
export const DEFAULT_STDIO_MAX_IN_FLIGHT = 64;


/** Serve `router` over a pair of streams, one message per line. */
export function serveStdio(router: RoutedServer, options: StdioTransportOptions = {}): StdioServer {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const maxLine = options.maxLineBytes ?? DEFAULT_MAX_LINE;
  const onError = options.onError ?? logTransportError;
  const graceMs = options.endGraceMs ?? DEFAULT_END_GRACE_MS;
  const gone = new AbortController();
  const scope = {};
  const running = new Set<Promise<void>>();
  const inFlight = new Set<CancellationSource>();
  const maxInFlight = options.maxRequestsInFlight ?? DEFAULT_STDIO_MAX_IN_FLIGHT;
  const caller = { ...(options.auth === undefined ? {} : { auth: options.auth }), ...(options.principal === undefined ? {} : { principal: options.principal }) };
  let capped = false;

  let overflowed = false;
  const writer = boundedWriter(
    output,
    options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED,
    () => {
      overflowed = true;
      onError(new Error(`disconnected: the peer left more than ${options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED} bytes of output unread (maxBufferedBytes)`));
      close();
    },
    () => {
      if (!ended && !capped) input.resume();
    },
  );
  const write = (message: OutgoingMessage, exact?: ExactIds): void => {
    if (output.writableEnded || output.destroyed || overflowed) return;
    const text = serialize(message, onError, exact);
    if (text === undefined) return;
    writer.write(text + "\n");
    // Backpressure: read no more requests while the peer is not reading answers.
    if (writer.waiting && !ended) input.pause();
  };
  const send = (message: OutgoingMessage) => write(message);
  const connection = router.connect(send);

  /** One message's answer (undefined: none: a notification, a response), its signal aborted with the connection. */
  function answer(message: unknown, envelope: Exclude<ReturnType<typeof readEnvelope>, { kind: "invalid" }>): Promise<OutgoingMessage | undefined> {
    const kind = envelope.kind;
    // One signal per message, aborted with the connection: the connection's own signal would collect a
    // listener per request for as long as the connection lives.
    const own = new CancellationSource();
    if (gone.signal.aborted) own.cancel(gone.signal.reason);
    else inFlight.add(own);
    const handled = router.eraOf(message) === "modern" && kind !== "response"
      ? router.handle(message, { send, cancellation: own, scope, ...caller })
      : connection.handle(message, { cancellation: own, ...caller });
    return handled
      .then(
        (response) => (response !== undefined && kind === "request" ? response : undefined),
        (error: unknown) => {
          onError(error);
          return envelope.kind === "request" ? errorMessage(envelope.id, INTERNAL_ERROR, "Internal error") : undefined;
        },
      )
      .finally(() => inFlight.delete(own));
  }

  /** Count `task` among the running ones (the in-flight cap) until it settles. */
  function track(task: Promise<void>): void {
    running.add(task);
    void task.finally(() => {
      running.delete(task);
      if (capped && running.size < maxInFlight) {
        capped = false;
        if (!ended) {
          onData(Buffer.alloc(0));
          if (inputDone && held === undefined) endOfInput();
          else if (!capped && !writer.waiting) input.resume();
        }
      }
    });
  }

  function dispatch(message: unknown, exact: ExactIds): void {
    // The envelope is read once here; the router and dispatcher apply the same rule to what gets through.
    const envelope = readEnvelope(message);
    if (envelope.kind === "invalid") return write(invalidRequest(envelope));
    track(answer(message, envelope).then((response) => {
      if (response !== undefined) write(response, exact);
    }));
  }

  /**
   * A JSON array: a JSON-RPC batch, served when the version in force (the legacy connection's, chosen at
   * `initialize`) defines batches in its schema, its answers written as one array (none when there are none:
   * a batch of notifications); refused otherwise, and an empty one always, with one -32600 (id null).
   */
  function batch(messages: unknown[], exact: ExactIds): void {
    const version = connection.protocolVersion;
    if (!batchesServed(version)) {
      const why = version === undefined ? "before initialize" : `in protocol version ${version}`;
      return write(errorMessage(null, INVALID_REQUEST, `Invalid Request: JSON-RPC batches are not supported ${why}`));
    }
    if (messages.length === 0) return write(errorMessage(null, INVALID_REQUEST, "Invalid Request: an empty batch"));
    const answers = messages.map((message) => {
      const envelope = readEnvelope(message);
      return envelope.kind === "invalid" ? Promise.resolve(invalidRequest(envelope)) : answer(message, envelope);
    });
    track(Promise.all(answers).then((all) => {
      const responses = all.filter((a) => a !== undefined);
      if (responses.length > 0) write(responses, exact);
    }));
  }

  function line(text: string): void {
    if (text.trim() === "") return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return write(errorMessage(null, PARSE_ERROR, "Parse error"));
    }
    if (Array.isArray(message)) batch(message, exactIds(text, message));
    else dispatch(message, exactIds(text, message));
  }

  // Framing: bytes up to each "\n" (a trailing "\r" is dropped by JSON.parse as whitespace).
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let skipping = false;
  /** Input read but not yet framed, kept while `maxRequestsInFlight` requests run. */
  let held: Buffer | undefined;
  let inputDone = false;
  const onData = (chunk: Buffer | string): void => {
    let buffer = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    if (held !== undefined) {
      buffer = buffer.length === 0 ? held : Buffer.concat([held, buffer]);
      held = undefined;
    }
    for (let end = buffer.indexOf(10); end >= 0; end = buffer.indexOf(10)) {
      if (running.size >= maxInFlight) {
        // The cap: no more lines are read until a request settles (the rest waits here, the stream is paused).
        if (!capped) onError(new Error(`paused reading: ${maxInFlight} requests are in flight (maxRequestsInFlight)`));
        capped = true;
        held = buffer;
        input.pause();
        return;
      }
      const piece = buffer.subarray(0, end);
      buffer = buffer.subarray(end + 1);
      if (skipping) {
        skipping = false;
      } else {
        const whole = pending.length === 0 ? piece : Buffer.concat([...pending, piece]);
        if (whole.length > maxLine) write(errorMessage(null, INVALID_REQUEST, `Invalid Request: a message longer than ${maxLine} bytes`));
        else line(whole.toString("utf8"));
      }
      pending = [];
      pendingBytes = 0;
    }
    if (buffer.length === 0 || skipping) return;
    pending.push(buffer);
    pendingBytes += buffer.length;
    if (pendingBytes > maxLine) {
      write(errorMessage(null, INVALID_REQUEST, `Invalid Request: a message longer than ${maxLine} bytes`));
      pending = [];
      pendingBytes = 0;
      skipping = true;
    }
  };

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let ended = false;
  let finished = false;
  /** Stop reading; the legacy connection closes once running requests settle or are aborted. */
  function stopReading(): void {
    ended = true;
    input.off("data", onData);
    input.off("end", endOfInput);
    input.off("close", endOfInput);
  }
  function finish(): void {
    if (finished) return;
    finished = true;
    gone.abort(new Error("the stdio connection closed"));
    for (const own of inFlight) own.cancel(gone.signal.reason);
    connection.close();
    void Promise.allSettled([...running]).then(() => resolveClosed());
  }
  /** The input ended: its last line (without a final newline) is read, running requests get `endGraceMs`. */
  function endOfInput(): void {
    if (ended) return;
    // Lines held at the in-flight cap are read first, as requests settle.
    if (held !== undefined) return void (inputDone = true);
    stopReading();
    if (!skipping && pending.length > 0) {
      const whole = Buffer.concat(pending);
      pending = [];
      if (whole.length > maxLine) write(errorMessage(null, INVALID_REQUEST, `Invalid Request: a message longer than ${maxLine} bytes`));
      else line(whole.toString("utf8"));
    }
    if (running.size === 0) return finish();
    const timer = setTimeout(finish, graceMs);
    void Promise.allSettled([...running]).then(() => {
      clearTimeout(timer);
      finish();
    });
  }
  function close(): void {
    if (!ended) stopReading();
    finish();
  }
  const onOutputError = (error: unknown) => {
    onError(error);
    close();
  };
  output.on("error", onOutputError);
  void closed.then(() => output.off("error", onOutputError));
  input.on("data", onData);
  input.on("end", endOfInput);
  input.on("close", endOfInput);
  input.on("error", (error: unknown) => {
    onError(error);
    close();
  });

  return { closed, close };
}
