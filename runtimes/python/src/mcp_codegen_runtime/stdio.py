"""The stdio transport (asyncio): one client on a pair of streams (by default this process's stdin and
stdout), one JSON-RPC message per line (UTF-8, ``\\n``-delimited), both eras on the same stream.

Hand-written Python, the mirror of TypeScript's transport-stdio.ts; the generator copies it as
``stdio.py`` of the Python tree. Legacy messages go to one router connection (its version chosen at
``initialize``), modern ones (``_meta`` naming the version, ``Router.era_of``) to ``Router.handle`` within
this connection's scope.

- Requests run concurrently; each response is written when ready, one line per message.
- A line that is not JSON is answered -32700 (id null); an invalid envelope -32600 (id null); a line
  longer than ``max_line_bytes`` is skipped and answered -32600.
- Batches (a JSON array): served when the connection's version (chosen at ``initialize``) defines JSON-RPC
  batches in its schema (the protocol module's ``batches`` fact; the answers go out as one
  array, none when there are none), else refused with one -32600 (id null), as JSON-RPC answers what is
  not a valid request; an empty batch is -32600. TypeScript's transport-stdio.ts follows the same rule.
- At ``max_in_flight`` messages being handled, input is not read until one settles (``on_error`` told
  once per pause). Output goes through a queue: while the client is not reading (the writer waits for
  ``drain``), input is not read either; a client leaving more than ``max_buffered_bytes`` unread is
  disconnected (``on_error`` told), so stdout never holds more than that.
- The input ending: its last line is read even without a final newline; requests still running get
  ``end_grace`` seconds (default 5) to finish and be answered, then they are cancelled. The legacy
  connection then closes (its pending server→client requests fail).
- Nothing but protocol messages is written to the output; transport problems go to ``on_error`` (stderr).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Callable, Mapping
from typing import Any, Final, Protocol, cast

from . import protocol
from .dispatcher import (
    INTERNAL_ERROR,
    INVALID_REQUEST,
    PARSE_ERROR,
    error_response,
    parse_json,
    read_envelope,
)
from .router import Exchange, Router, batches_served

DEFAULT_MAX_IN_FLIGHT: Final = 64
DEFAULT_MAX_LINE_BYTES: Final = 4 * 1024 * 1024
DEFAULT_MAX_BUFFERED_BYTES: Final = 4 * 1024 * 1024
DEFAULT_END_GRACE: Final = protocol.STDIO_END_GRACE_MS / 1000
"""Seconds: the protocol module's grace, which it gives in milliseconds."""

TransportErrorHook = Callable[[BaseException], None]


class Reader(Protocol):
    """What the transport reads: an ``asyncio.StreamReader`` or the like (``b""`` at the end)."""

    async def read(self, n: int = -1) -> bytes: ...


class Writer(Protocol):
    """What the transport writes: an ``asyncio.StreamWriter`` or the like."""

    def write(self, data: bytes) -> None: ...
    async def drain(self) -> None: ...


def _log_transport_error(error: BaseException) -> None:
    sys.stderr.write(f"mcp stdio transport: {error}\n")


def serialize(message: Mapping[str, Any] | list[dict[str, Any]]) -> str:
    """A message as one line of JSON, as JavaScript's ``JSON.stringify`` writes it (no NaN, no spaces)."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


class _SyncWriter:
    """Standard output when it is not a pipe (a file): written at once."""

    def write(self, data: bytes) -> None:
        sys.stdout.buffer.write(data)

    async def drain(self) -> None:
        sys.stdout.buffer.flush()


class _ThreadReader:
    """Standard input when it is not a pipe (a file): read in a thread."""

    async def read(self, n: int = -1) -> bytes:
        return await asyncio.get_running_loop().run_in_executor(None, os.read, sys.stdin.fileno(), n if n > 0 else 65536)


async def _standard_streams() -> tuple[Reader, Writer]:
    loop = asyncio.get_running_loop()
    reader: Reader
    writer: Writer
    try:
        stream = asyncio.StreamReader()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stream), sys.stdin)
        reader = stream
    except (ValueError, OSError):
        reader = _ThreadReader()
    try:
        transport, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin, sys.stdout)
        writer = asyncio.StreamWriter(transport, protocol, None, loop)
    except (ValueError, OSError):
        writer = _SyncWriter()
    return reader, writer


class _Output:
    """The bounded output queue: one writer task, ``drain`` honoured, over ``max_bytes`` → disconnect."""

    def __init__(self, writer: Writer, max_bytes: int, overflow: Callable[[], None], on_error: TransportErrorHook) -> None:
        self._writer = writer
        self._max = max_bytes
        self._overflow = overflow
        self._on_error = on_error
        self._queue: list[bytes] = []
        self._queued = 0
        self._wake = asyncio.Event()
        self.idle = asyncio.Event()
        self.idle.set()
        self.over = False
        self.closed = False
        self._task = asyncio.ensure_future(self._run())

    def write(self, text: str) -> None:
        if self.over or self.closed:
            return
        data = (text + "\n").encode("utf-8")
        self._queue.append(data)
        self._queued += len(data)
        self.idle.clear()
        self._wake.set()
        if self._queued > self._max:
            self.over = True
            self._queue.clear()
            self._queued = 0
            self._overflow()

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._queue:
                data = self._queue.pop(0)
                try:
                    self._writer.write(data)
                    await self._writer.drain()
                except (ConnectionError, OSError, RuntimeError) as error:
                    self._on_error(error)
                    self.closed = True
                    self._queue.clear()
                finally:
                    self._queued -= len(data)
            self._queued = max(self._queued, 0)
            self.idle.set()
            if self.closed:
                return

    async def flush(self) -> None:
        """Wait until everything queued is written."""
        await self.idle.wait()

    def stop(self) -> None:
        self._task.cancel()


async def serve_stdio(
    router: Router,
    *,
    reader: Reader | None = None,
    writer: Writer | None = None,
    max_in_flight: int = DEFAULT_MAX_IN_FLIGHT,
    principal: str | None = None,
    auth: Mapping[str, Any] | None = None,
    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES,
    max_buffered_bytes: int = DEFAULT_MAX_BUFFERED_BYTES,
    end_grace: float = DEFAULT_END_GRACE,
    on_error: TransportErrorHook | None = None,
) -> None:
    """Serve ``router`` over a pair of streams (stdin and stdout by default), one message per line, until
    the input ends and every running request has settled (or was cancelled after ``end_grace`` seconds).

    ``auth``/``principal``: the caller of every message of this stream (stdio has no tokens: the host that
    spawned the server knows it); handlers see them in their context. Cancelling the task running this
    coroutine stops reading, cancels running requests and closes the legacy connection."""
    hook = on_error if on_error is not None else _log_transport_error
    if reader is None or writer is None:
        std_reader, std_writer = await _standard_streams()
        reader = reader if reader is not None else std_reader
        writer = writer if writer is not None else std_writer
    scope = object()
    running: set[asyncio.Task[None]] = set()
    settled = asyncio.Event()
    disconnected = asyncio.Event()

    def overflow() -> None:
        hook(RuntimeError(f"disconnected: the peer left more than {max_buffered_bytes} bytes of output unread (max_buffered_bytes)"))
        disconnected.set()

    output = _Output(writer, max_buffered_bytes, overflow, hook)

    def write(message: Mapping[str, Any] | list[dict[str, Any]]) -> None:
        try:
            text = serialize(message)
        except (TypeError, ValueError) as error:
            m: Mapping[str, Any] = message if isinstance(message, Mapping) else {}
            rid = m.get("id")
            what = f"the response to request {json.dumps(rid)}" if isinstance(rid, str | int) else f"a {m.get('method')} message"
            hook(ValueError(f"cannot send {what} as JSON: {error}"))
            if not isinstance(rid, str | int) or "method" in m:
                return
            text = serialize(error_response(rid, INTERNAL_ERROR, "Internal error: the result cannot be sent as JSON"))
        output.write(text)

    async def send(message: dict[str, Any]) -> None:
        write(message)

    caller = Exchange(auth=auth, principal=principal)
    modern_exchange = Exchange(send=send, scope=scope, auth=auth, principal=principal)
    connection = router.connect(send)

    async def answer(message: object) -> dict[str, Any] | None:
        envelope = read_envelope(message)
        if envelope.kind == "invalid":
            return error_response(None, INVALID_REQUEST, f"Invalid Request: {envelope.reason}")
        try:
            if router.era_of(message) == "modern" and envelope.kind != "response":
                response = await router.handle(message, modern_exchange)
            else:
                response = await connection.handle(message, caller)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # noqa: BLE001 - the router never raises; a transport answers anyway
            hook(error)
            response = error_response(envelope.id, INTERNAL_ERROR, "Internal error") if envelope.kind == "request" else None
        return response if envelope.kind == "request" else None

    async def one(message: object) -> None:
        response = await answer(message)
        if response is not None:
            write(response)

    async def batch(messages: list[object]) -> None:
        answers = await asyncio.gather(*(answer(m) for m in messages))
        responses = [a for a in answers if a is not None]
        if responses:
            write(responses)

    def start(work: Any) -> None:
        task: asyncio.Task[None] = asyncio.ensure_future(work)
        running.add(task)
        settled.clear()

        def done(t: asyncio.Task[None]) -> None:
            running.discard(t)
            if not t.cancelled() and t.exception() is not None:
                hook(cast(BaseException, t.exception()))
            settled.set()

        task.add_done_callback(done)

    def line(raw: bytes) -> None:
        text = raw.decode("utf-8", errors="replace")
        if text.strip() == "":
            return
        try:
            message: object = parse_json(text)
        except ValueError:
            write(error_response(None, PARSE_ERROR, "Parse error"))
            return
        if isinstance(message, list):
            version = connection.protocol_version
            items = cast(list[object], message)
            if not batches_served(version):
                why = "before initialize" if version is None else f"in protocol version {version}"
                write(error_response(None, INVALID_REQUEST, f"Invalid Request: JSON-RPC batches are not supported {why}"))
                return
            if not items:
                write(error_response(None, INVALID_REQUEST, "Invalid Request: an empty batch"))
                return
            start(batch(items))
            return
        start(one(message))

    too_long = f"Invalid Request: a message longer than {max_line_bytes} bytes"

    async def read_loop() -> None:
        pending = b""
        skipping = False
        paused = False
        while not disconnected.is_set():
            chunk = await reader.read(65536)
            if not chunk:
                break
            buffer = pending + chunk
            pending = b""
            while True:
                end = buffer.find(b"\n")
                if end < 0:
                    break
                while len(running) >= max_in_flight:
                    # The cap: no more lines are read until a request settles.
                    if not paused:
                        hook(RuntimeError(f"paused reading: {max_in_flight} requests are in flight (max_in_flight)"))
                        paused = True
                    await settled.wait()
                    settled.clear()
                paused = False
                piece, buffer = buffer[:end], buffer[end + 1 :]
                if skipping:
                    skipping = False
                elif len(piece) > max_line_bytes:
                    write(error_response(None, INVALID_REQUEST, too_long))
                else:
                    line(piece)
                if disconnected.is_set():
                    return
            if skipping:
                continue
            if len(buffer) > max_line_bytes:
                write(error_response(None, INVALID_REQUEST, too_long))
                skipping = True
                continue
            pending = buffer
            # Backpressure: read no more while the client is not reading the answers.
            await output.flush()
        if pending and not skipping:
            if len(pending) > max_line_bytes:
                write(error_response(None, INVALID_REQUEST, too_long))
            else:
                line(pending)

    try:
        reading = asyncio.ensure_future(read_loop())
        gone = asyncio.ensure_future(disconnected.wait())
        await asyncio.wait({reading, gone}, return_when=asyncio.FIRST_COMPLETED)
        gone.cancel()
        if not reading.done():
            reading.cancel()
        try:
            await reading
        except asyncio.CancelledError:
            pass
        except Exception as error:  # noqa: BLE001 - a failing input ends the connection, told to on_error
            hook(error)
            disconnected.set()
        if running and not disconnected.is_set():
            _, late = await asyncio.wait(set(running), timeout=end_grace)
            for task in late:
                task.cancel()
    finally:
        for task in list(running):
            task.cancel()
        if running:
            await asyncio.wait(set(running))
        connection.close()
        if not disconnected.is_set():
            await output.flush()
        output.stop()
