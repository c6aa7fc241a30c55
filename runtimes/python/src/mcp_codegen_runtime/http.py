"""The streamable HTTP transport as a plain ASGI 3 application, both eras on one endpoint (no web framework).

Hand-written Python: the generator copies it as ``http.py`` of the Python tree. It answers as
TypeScript's ``runtime/transport-http.ts`` does, with the same defaults and limits:

- legacy sessions (2024-11-05 … 2025-11-25): a POST of ``initialize`` opens one (``Mcp-Session-Id``);
  later POSTs carry the session id and are answered as JSON, or as an SSE stream once the server sends
  something about their requests first (progress, logs, a sampling request); a GET opens the session's
  stream for the server's own messages; DELETE ends it. At most ``max_sessions`` are open: a new one
  evicts the least recently used idle session, else it is refused with 503 and ``Retry-After``. A session
  is bound to the principal that opened it; another principal's session id is answered as an unknown one.
- modern (2026-07-28) requests are stateless POSTs: errors map to 400/404 by code; the request's
  ``MCP-Protocol-Version``, ``Mcp-Method``, ``Mcp-Name`` (and ``Mcp-Param-*``) headers must match the body
  (else 400 with -32020). ``subscriptions/listen`` is a long-lived SSE response.

Before either, every POST passes the same checks: ``Content-Type`` application/json (else 415), no
``Content-Encoding`` but identity (else 415), ``Accept`` listing application/json and text/event-stream
(else 406), a body within ``max_body_bytes`` (else 413), JSON (else 400 with -32700), one JSON-RPC
envelope (else 400 with -32600, id null). A request target that is not a URL is 400; a header section
over ``max_header_bytes`` is 431.

Host/Origin: by default only the names of the address a request arrived on are accepted (for a loopback
address: 127.0.0.1, localhost, [::1] with its port), against DNS rebinding; others get 403.

A client that goes away (ASGI ``http.disconnect``) cancels the asyncio tasks of its requests: the router
sends no answer. Every stream writes through a bounded queue: a consumer leaving more than
``max_buffered_bytes`` unread is disconnected (its requests cancelled, a legacy session closed).

Which stream a legacy session's message goes on: the router's ``send`` carries only the message, so the
transport knows the request it is about from the task sending it (a context variable set for each POST's
request tasks): a handler's progress, logs and requests go on its POST's stream; messages sent from outside
any request (``publish`` from the host) on the session's GET stream, when one is open. A ``publish`` made
from inside a handler reaches that handler's own session on its POST's stream.

Where ASGI differs from node:http: a connection is known by its (client, server) addresses; a POST whose
session closes before it is answered gets 404 (node destroys the socket, which ASGI cannot); a consumer
disconnected for reading too slowly has its response left incomplete, which uvicorn logs ("ASGI callable
returned without completing response") as it closes the connection.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import json
import math
import re
import socket
import sys
import time
import uuid
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Iterable, Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, cast
from urllib.parse import quote, urljoin, urlsplit

from . import protocol
from .auth import AuthRefusal, ResourceServer, authenticate, resource_metadata_paths
from .auth import principal_of as auth_principal_of
from .dispatcher import (
    INTERNAL_ERROR,
    INVALID_REQUEST,
    PARSE_ERROR,
    RequestId,
    error_response,
    parse_json,
    read_envelope,
)
from .protocol import (
    HEADER_ANNOTATION,
    HTTP_STATUS,
    META_PROTOCOL_VERSION,
    SERVER_ERROR,
    SESSION_NOT_FOUND,
)
from .router import Exchange, RelatedSend, batches_served

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
AsgiSend = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ErrorHook = Callable[[BaseException], None]
"""Where the transport reports what it cannot answer on the wire, and limits reached."""

DEFAULT_PATH = "/mcp"
DEFAULT_MAX_BODY = 4 * 1024 * 1024
DEFAULT_MAX_HEADER_BYTES = 16 * 1024
"""node:http's default ``maxHeaderSize``: a larger header section is answered 431."""
DEFAULT_MAX_REQUESTS_IN_FLIGHT = 64
DEFAULT_MAX_SESSIONS_PER_PRINCIPAL = 16
DEFAULT_IDLE_MS = 30 * 60 * 1000
DEFAULT_MAX_SESSIONS = 1000
DEFAULT_MAX_BUFFERED = 4 * 1024 * 1024
SESSION_RETRY_AFTER_SECONDS = 5
"""Seconds a client refused for want of a session slot is told to wait (``Retry-After``)."""
HEADER_MISMATCH = protocol.HEADER_MISMATCH

MODERN_STATUS: Mapping[int, int] = HTTP_STATUS
"""HTTP status of a 2026-07-28 error response, by JSON-RPC code (others: 200): the protocol module's."""

_SSE_HEADERS: Mapping[str, str] = {"content-type": "text/event-stream", "cache-control": "no-cache", "connection": "keep-alive"}
_LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
# node:http keeps the first of these when a request repeats them (and joins the others with ", ").
_SINGLE_HEADERS = frozenset(
    {
        "age", "authorization", "content-length", "content-type", "etag", "expires", "from", "host",
        "if-modified-since", "if-unmodified-since", "last-modified", "location", "max-forwards",
        "proxy-authorization", "referer", "retry-after", "server", "user-agent",
    }
)  # fmt: skip


class LegacyConnection(Protocol):
    """What the transport needs of one legacy connection (``router.connect``)."""

    @property
    def protocol_version(self) -> str | None: ...
    async def handle(self, message: object, exchange: Exchange | None = None) -> dict[str, Any] | None: ...
    def close(self) -> None: ...


class RoutedServer(Protocol):
    """What the transport needs of a server: the router (``router.create_router``) has this shape."""

    @property
    def legacy_versions(self) -> tuple[str, ...]: ...
    def era_of(self, message: object) -> Literal["legacy", "modern"]: ...
    def connect(self, send: RelatedSend) -> LegacyConnection: ...
    async def handle(self, message: object, exchange: Exchange | None = None) -> dict[str, Any] | None: ...
    def name_param(self, method: str, protocol_version: str) -> str | None: ...


def write_transport_error(error: BaseException) -> None:
    """The default error hook: one line on stderr."""
    text = " ".join(str(error).split())
    sys.stderr.write(f"mcp transport: {text}\n")


# --- JSON as JavaScript writes and reads it ------------------------------------------------------------


def _js_floats(value: object) -> object:
    """``value`` with every integral float below 1e21 an int: JSON.stringify writes 1.0 as 1."""
    if isinstance(value, float):
        return int(value) if math.isfinite(value) and value.is_integer() and abs(value) < 1e21 else value
    if isinstance(value, dict):
        return {k: _js_floats(v) for k, v in cast(dict[str, object], value).items()}
    if isinstance(value, list):
        return [_js_floats(v) for v in cast(list[object], value)]
    return value


def _dumps(value: object) -> str:
    return json.dumps(_js_floats(value), ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def serialize(message: Mapping[str, Any], on_error: ErrorHook) -> str | None:
    """A message as JSON text. One JSON cannot carry is never sent as it is: a response becomes -32603 with its
    id, anything else is reported and dropped (None)."""
    try:
        return _dumps(message)
    except (TypeError, ValueError, RecursionError) as error:
        rid = message.get("id")
        method = message.get("method")
        about = f"the response to request {_dumps(rid)}" if isinstance(rid, str | int) else f"a {method} message"
        on_error(ValueError(f"cannot send {about} as JSON: {error}"))
        if not isinstance(rid, str | int) or isinstance(method, str):
            return None
        return _dumps(error_response(rid, INTERNAL_ERROR, "Internal error: the result cannot be sent as JSON"))


def js_string(value: object) -> str:
    """JavaScript's ``String(value)`` of a JSON value (what the TypeScript transport compares and names)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        if value.is_integer() and abs(value) < 1e21:
            return str(int(value))
        text = repr(value)
        return re.sub(r"e([+-])0*(\d)", r"e\1\2", text) if "e" in text else text
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return ",".join("" if v is None else js_string(v) for v in cast(list[object], value))
    return "[object Object]"


# --- header values --------------------------------------------------------------------------------------

_PREFIX = "=?base64?"
_SUFFIX = "?="
_BASE64 = re.compile(r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?")


def decode_header_value(raw: str) -> str | None:
    """A received ``Mcp-Name``/``Mcp-Param-*`` value decoded, as TypeScript's ``decodeHeaderValue``:
    ``=?base64?…?=`` (strict alphabet and padding, valid UTF-8) to its text, a plain value trimmed; None when the
    base64 form is malformed."""
    value = raw.strip(" \t")
    if not (value.startswith(_PREFIX) and value.endswith(_SUFFIX) and len(value) >= len(_PREFIX) + len(_SUFFIX)):
        return value
    encoded = value[len(_PREFIX) : len(value) - len(_SUFFIX)]
    if _BASE64.fullmatch(encoded) is None:
        return None
    try:
        return base64.b64decode(encoded, validate=True).decode("utf-8", errors="strict")
    except (binascii.Error, UnicodeDecodeError):
        return None


def tool_parameter_headers(tool: Mapping[str, Any]) -> dict[str, str]:
    """The ``x-mcp-header`` parameters of a tool's ``inputSchema``, argument name → header name (for ``parameter_headers``)."""
    schema = tool.get("inputSchema")
    properties = cast(dict[str, object], schema).get("properties") if isinstance(schema, dict) else None
    out: dict[str, str] = {}
    if not isinstance(properties, dict):
        return out
    for key, prop in cast(dict[str, object], properties).items():
        header = cast(dict[str, object], prop).get(HEADER_ANNOTATION) if isinstance(prop, dict) else None
        if isinstance(header, str):
            out[key] = header
    return out


def _headers_of(scope: Scope) -> dict[str, str]:
    """The request's headers as node:http reads them: names lower case; a repeated one joined with ", " (a
    cookie with "; "), except those node keeps only the first of."""
    out: dict[str, str] = {}
    for raw_name, raw_value in cast(Iterable[tuple[bytes, bytes]], scope.get("headers", ())):
        name = raw_name.decode("latin-1").lower()
        value = raw_value.decode("latin-1").strip(" \t")
        if name not in out:
            out[name] = value
        elif name not in _SINGLE_HEADERS:
            out[name] = out[name] + ("; " if name == "cookie" else ", ") + value
    return out


def _header_bytes(scope: Scope) -> int:
    """The size of the request's header section, as node:http counts it against ``maxHeaderSize``."""
    return sum(len(n) + len(v) + 4 for n, v in cast(Iterable[tuple[bytes, bytes]], scope.get("headers", ())))


def _is_json_content_type(value: str | None) -> bool:
    return value is not None and value.split(";")[0].strip().lower() == "application/json"


def _ranges(value: str | None) -> list[str]:
    return [r.split(";")[0].strip().lower() for r in (value or "").split(",")]


def _accepts_both(value: str | None) -> bool:
    ranges = _ranges(value)
    return "application/json" in ranges and "text/event-stream" in ranges


def _accepts_event_stream(value: str | None) -> bool:
    return "text/event-stream" in _ranges(value)


def _unsupported_coding(value: str | None) -> bool:
    """Content codings this transport decodes: none (RFC 9110 section 8.4: anything else is 415)."""
    return value is not None and any(c.strip() != "" and c.strip().lower() != "identity" for c in value.split(","))


_PLAIN_PATH = re.compile(r"[^\x21-\x7e]|%(?![0-9A-Fa-f]{2})")


def path_of(target: str) -> str | None:
    """The path of a request target: origin-form read directly, any other form as a URL parser reads it; None
    when it is not a URL."""
    if target.startswith("/") and not target.startswith("//"):
        end = re.search(r"[?#]", target)
        path = target if end is None else target[: end.start()]
        if _PLAIN_PATH.search(path) is None and "/." not in path:
            return path
    try:
        parts = urlsplit(urljoin("http://x/", target.replace("\\", "/")))
        if parts.scheme not in ("http", "https") or parts.hostname is None:
            return None
        _ = parts.port  # a port that is not a number is no URL
    except ValueError:
        return None
    return quote(parts.path or "/", safe="!$&'()*+,;=:@/%-._~")


def _hosts_of(address: str | None, port: int | None) -> list[str]:
    """The ``Host`` values a request arriving on ``address:port`` may carry by default."""
    if address is None or port is None:
        return []
    plain = address[7:] if address.startswith("::ffff:") else address
    if plain in _LOOPBACK or plain.startswith("127."):
        return [f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"]
    shown = f"[{plain}]" if ":" in plain else plain
    return [f"{shown}:{port}", shown] if port == 80 else [f"{shown}:{port}"]


def _own(value: object, key: str) -> object:
    return cast(dict[str, object], value).get(key) if isinstance(value, dict) else None


def _params_of(message: Mapping[str, object]) -> dict[str, object] | None:
    params = message.get("params")
    return cast(dict[str, object], params) if isinstance(params, dict) else None


def header_mismatch(
    headers: Mapping[str, str],
    message: Mapping[str, object],
    name_param: Callable[[str, str], str | None],
    parameter_headers: Callable[[str], Mapping[str, str] | None] | None = None,
) -> str | None:
    """Why a 2026-07-28 POST's headers disagree with its body (the transport's header rules), or None."""
    header = headers.get("mcp-protocol-version")
    if header is None:
        return "Missing MCP-Protocol-Version header"
    params = _params_of(message)
    raw_meta = _own(params, "_meta")
    meta = cast(dict[str, object], raw_meta) if isinstance(raw_meta, dict) else {}
    if META_PROTOCOL_VERSION in meta and meta[META_PROTOCOL_VERSION] != header:
        return f"Header mismatch: MCP-Protocol-Version {header} but _meta names {js_string(meta[META_PROTOCOL_VERSION])}"
    raw_method = message.get("method")
    method = raw_method if isinstance(raw_method, str) else None
    mcp_method = headers.get("mcp-method")
    if mcp_method is None or mcp_method.strip() != method:
        shown = "undefined" if method is None else method
        return f"Header mismatch: Mcp-Method {mcp_method if mcp_method is not None else '(missing)'} but the body's method is {shown}"
    # The version's METHOD_TABLE says which param names the request (tools/call: name; a served extension's
    # too, Tasks' tasks/*: taskId), through the router.
    name_key = None if method is None else name_param(method, header)
    named = None if name_key is None or params is None else params.get(name_key)
    if isinstance(named, str):
        mcp_name = headers.get("mcp-name")
        decoded = decode_header_value(mcp_name) if mcp_name is not None else None
        if mcp_name is not None and decoded is None:
            return "Header mismatch: Mcp-Name is not valid base64"
        if decoded != named:
            return f"Header mismatch: Mcp-Name {mcp_name if mcp_name is not None else '(missing)'} but the body names {named}"
    if method == "tools/call" and isinstance(named, str) and parameter_headers is not None:
        raw_args = None if params is None else params.get("arguments")
        args = cast(dict[str, object], raw_args) if isinstance(raw_args, dict) else {}
        for key, name in (parameter_headers(named) or {}).items():
            if key not in args:
                continue
            raw = headers.get(f"mcp-param-{name.lower()}")
            if raw is None:
                return f"Header mismatch: Mcp-Param-{name} is missing but arguments.{key} is given"
            value = decode_header_value(raw)
            if value is None:
                return f"Header mismatch: Mcp-Param-{name} is not valid base64"
            if value != js_string(args[key]):
                return f"Header mismatch: Mcp-Param-{name} does not match arguments.{key}"
    return None


# --- responses ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Refusal:
    status: int
    code: int
    message: str
    headers: Mapping[str, str] = field(default_factory=lambda: {})


def _encode_headers(headers: Mapping[str, str]) -> list[tuple[bytes, bytes]]:
    return [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]


async def _reply(send: AsgiSend, status: int, body: bytes = b"", headers: Mapping[str, str] | None = None) -> None:
    """A whole response, framed as node:http's ``writeHead(status, headers).end(body)`` is (chunked)."""
    await send({"type": "http.response.start", "status": status, "headers": _encode_headers(headers or {})})
    await send({"type": "http.response.body", "body": body, "more_body": False})


async def _refuse(send: AsgiSend, refusal: Refusal, rid: object = None) -> None:
    headers = {"connection": "close", **refusal.headers} if refusal.status == 413 else dict(refusal.headers)
    body = _dumps(error_response(cast(Any, rid), refusal.code, refusal.message)).encode()
    await _reply(send, refusal.status, body, {"content-type": "application/json", **headers})


class _Stream:
    """One HTTP response carrying the answers to the requests of one POST (or, for a GET, the session's own
    messages): a JSON body when nothing but the answers is sent, else an SSE stream written through a bounded
    queue. ``abort`` cancels the tasks it watches (its requests) when the client goes away or the server ends it."""

    def __init__(
        self, send: AsgiSend, max_buffered: int, on_error: ErrorHook, on_overflow: Callable[[], None], headers: Mapping[str, str] | None = None
    ) -> None:
        self._send = send
        self._max_buffered = max_buffered
        self._on_error = on_error
        self._on_overflow = on_overflow
        self.headers = dict(headers or {})
        self.aborted = False
        """The client went away, or the server ended the response: its requests are cancelled."""
        self.by_server = False
        self.ended = False
        self._ending = False
        self._overflowed = False
        self._tasks: set[asyncio.Task[Any]] = set()
        self._queue: deque[bytes] = deque()
        self._queued = 0
        self._wake = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None
        self._writing = False
        self.done = asyncio.Event()
        """Set once the response is over (sent, ended, or aborted)."""

    @property
    def open(self) -> bool:
        return not self.ended and not self._ending and not self.aborted

    @property
    def streaming(self) -> bool:
        return self._writer is not None

    def watch(self, task: asyncio.Task[Any]) -> None:
        """Cancel ``task`` when the response is aborted."""
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        if self.aborted:
            task.cancel()

    def stream(self) -> None:
        """Start the SSE stream (if not yet)."""
        if self._writer is not None or not self.open:
            return
        start = {"type": "http.response.start", "status": 200, "headers": _encode_headers({**_SSE_HEADERS, **self.headers})}
        self._writer = asyncio.ensure_future(self._write(start))

    async def _write(self, start: MutableMapping[str, Any]) -> None:
        try:
            await self._send(start)
            while True:
                while self._queue and not self.aborted:
                    chunk = self._queue.popleft()
                    self._queued -= len(chunk)
                    self._writing = True
                    await self._send({"type": "http.response.body", "body": chunk, "more_body": True})
                    self._writing = False
                if self._ending or self.aborted:
                    break
                self._wake.clear()
                await self._wake.wait()
            # Ended by the server (its session closed), the stream ends cleanly; a client gone or not reading is not
            # written to again.
            if not self.aborted or (self.by_server and not self._overflowed):
                await self._send({"type": "http.response.body", "body": b"", "more_body": False})
        except asyncio.CancelledError:
            raise
        except Exception as error:  # noqa: BLE001 - a broken stream is reported, its requests cancelled
            self._on_error(error)
            self.abort("the stream broke")
        finally:
            self.ended = True
            self.done.set()

    def push(self, message: Mapping[str, Any]) -> None:
        """Send one message as an SSE event (starting the stream)."""
        if not self.open:
            return
        text = serialize(message, self._on_error)
        if text is None:
            return
        self.stream()
        chunk = f"event: message\ndata: {text}\n\n".encode()
        # A single message is always taken while the stream drains; past the bound of what waits unread, the
        # consumer is disconnected.
        if (self._queue or self._writing) and self._queued + len(chunk) > self._max_buffered:
            self._overflow()
            return
        self._queue.append(chunk)
        self._queued += len(chunk)
        self._wake.set()

    async def finish(self, answer: Mapping[str, Any] | list[dict[str, Any]] | None, status: int = 200) -> None:
        """The answer: on the stream if one is open (then it ends), else a JSON body with ``status`` (202 and no
        body for none)."""
        if not self.open:
            return
        if self._writer is not None:
            for m in [] if answer is None else answer if isinstance(answer, list) else [answer]:
                self.push(m)
            self.end()
            return
        self.ended = True
        try:
            if answer is None or (isinstance(answer, list) and not answer):
                await _reply(self._send, 202, b"", self.headers)
                return
            text = "[" + ",".join(self._text(m) for m in answer) + "]" if isinstance(answer, list) else self._text(answer)
            await _reply(self._send, status, text.encode(), {"content-type": "application/json", **self.headers})
        finally:
            self.done.set()

    def _text(self, response: Mapping[str, Any]) -> str:
        rid = response.get("id")
        fallback = error_response(rid if isinstance(rid, str | int) else None, INTERNAL_ERROR, "Internal error")
        return serialize(response, self._on_error) or _dumps(fallback)

    def end(self) -> None:
        """End the stream once everything queued is written."""
        if self._writer is None or self._ending:
            return
        self._ending = True
        self._wake.set()

    def abort(self, reason: str, by_server: bool = False) -> None:
        """Give the response up: its requests are cancelled, nothing more is written."""
        if self.aborted:
            return
        self.aborted = True
        self.by_server = by_server
        self._queue.clear()
        self._queued = 0
        for task in list(self._tasks):
            task.cancel()
        self._wake.set()
        if self._writer is None or self._writing:
            # Nothing is being written that could end by itself (a stalled write waits for a reader that is gone).
            if self._writer is not None:
                self._writer.cancel()
            self.done.set()

    def _overflow(self) -> None:
        if self._overflowed:
            return
        self._overflowed = True
        self._on_error(RuntimeError(f"disconnected a client that left more than {self._max_buffered} bytes unread (maxBufferedBytes)"))
        self.abort("the client read too slowly (maxBufferedBytes)", by_server=True)
        self._on_overflow()


async def _wait_disconnect(receive: Receive, stream: _Stream) -> None:
    """Abort ``stream`` when the client goes away (its requests are cancelled)."""
    while True:
        message = await receive()
        if message.get("type") == "http.disconnect":
            stream.abort("the client closed the connection")
            return


# --- sessions -------------------------------------------------------------------------------------------


@dataclass(eq=False)
class _Session:
    id: str
    principal: str | None
    connection: LegacyConnection | None = None
    """Set right after the session is made (the router's connection sends through the session)."""
    routes: dict[object, _Stream] = field(default_factory=lambda: {})
    """The stream each request in flight answers on, by id."""
    streams: set[_Stream] = field(default_factory=lambda: set())
    """Open POST streams."""
    standalone: _Stream | None = None
    last_seen: float = field(default_factory=time.monotonic)
    closed: bool = False
    in_flight: int = 0


@dataclass(frozen=True)
class _Caller:
    auth: Mapping[str, Any] | None = None
    principal: str | None = None




@dataclass
class _Body:
    body: object
    text: str


class HttpApp:
    """The MCP endpoint as an ASGI 3 application (``create_asgi_app``); ``close()`` ends every legacy session."""

    def __init__(
        self,
        router: RoutedServer,
        *,
        path: str = DEFAULT_PATH,
        max_body_bytes: int = DEFAULT_MAX_BODY,
        max_header_bytes: int = DEFAULT_MAX_HEADER_BYTES,
        allowed_hosts: Iterable[str] | Literal["any"] | None = None,
        allowed_origins: Iterable[str] | Literal["any"] | None = None,
        session_idle_ms: float = DEFAULT_IDLE_MS,
        max_sessions: int = DEFAULT_MAX_SESSIONS,
        max_buffered_bytes: int = DEFAULT_MAX_BUFFERED,
        parameter_headers: Callable[[str], Mapping[str, str] | None] | None = None,
        on_error: ErrorHook | None = None,
        principal_of: Callable[[Scope], str | None] | None = None,
        auth_of: Callable[[Scope], Mapping[str, Any] | None] | None = None,
        auth: ResourceServer | None = None,
        max_requests_in_flight: int = DEFAULT_MAX_REQUESTS_IN_FLIGHT,
        max_sessions_per_principal: int = DEFAULT_MAX_SESSIONS_PER_PRINCIPAL,
    ) -> None:
        self._router = router
        self.path = path
        self._max_body = max_body_bytes
        self._max_header = max_header_bytes
        self._hosts: list[str] | Literal["any"] | None = None if allowed_hosts is None else "any" if allowed_hosts == "any" else list(allowed_hosts)
        origins: list[str] | Literal["any"] | None
        if allowed_origins is None:
            origins = None if self._hosts is None or self._hosts == "any" else [f"{s}://{h}" for h in self._hosts for s in ("http", "https")]
        elif allowed_origins == "any":
            origins = "any"
        else:
            origins = list(allowed_origins)
        self._origins = origins
        self._idle = session_idle_ms / 1000
        self.max_sessions = max_sessions
        self._max_buffered = max_buffered_bytes
        self._parameter_headers = parameter_headers
        self._on_error = on_error or write_transport_error
        if auth is not None and auth_of is not None:
            raise ValueError("give auth (the resource-server role) or auth_of (a caller of your own), not both")
        self._principal_of = principal_of
        self._auth_of = auth_of
        self._auth = auth
        self._metadata_paths = [] if auth is None else resource_metadata_paths(auth)
        self._metadata_body = b"" if auth is None else _dumps(dict(auth.resource_metadata)).encode()
        self._max_in_flight = max_requests_in_flight
        self._max_per_principal = max_sessions_per_principal
        self._sessions: OrderedDict[str, _Session] = OrderedDict()
        """Least recently used first: a session moves to the end when it is used."""
        self._per_connection: dict[object, int] = {}
        self._derived: dict[tuple[object, object], list[str]] = {}
        self._closing = False
        self._sweep: asyncio.Task[None] | None = None

    @property
    def sessions(self) -> int:
        """Open legacy sessions."""
        return len(self._sessions)

    async def close(self) -> None:
        """End every legacy session; later requests get 503."""
        self._closing = True
        if self._sweep is not None:
            self._sweep.cancel()
        for session in list(self._sessions.values()):
            self._close_session(session)

    # --- ASGI ---

    async def __call__(self, scope: Scope, receive: Receive, send: AsgiSend) -> None:
        kind = scope.get("type")
        if kind == "lifespan":
            await self._lifespan(receive, send)
            return
        if kind != "http":
            return
        self._start_sweep()
        try:
            await self._serve(scope, receive, send)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # noqa: BLE001 - answered 500, reported
            self._on_error(error)
            try:
                await _refuse(send, Refusal(500, INTERNAL_ERROR, "Internal error"))
            except Exception:  # noqa: BLE001 - the response had started: nothing more to say
                pass

    async def _lifespan(self, receive: Receive, send: AsgiSend) -> None:
        while True:
            message = await receive()
            if message.get("type") == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message.get("type") == "lifespan.shutdown":
                await self.close()
                await send({"type": "lifespan.shutdown.complete"})
                return

    def _start_sweep(self) -> None:
        if self._sweep is not None or self._closing:
            return

        async def sweep() -> None:
            interval = max(0.01, min(self._idle / 2, 60.0))
            while True:
                await asyncio.sleep(interval)
                now = time.monotonic()
                for session in list(self._sessions.values()):
                    if self._evictable(session, now):
                        self._close_session(session)

        self._sweep = asyncio.ensure_future(sweep())

    def _evictable(self, session: _Session, now: float, for_room: bool = False) -> bool:
        """A session that may be closed to make room: no request open, and either no GET stream or none used for
        ``session_idle_ms`` (an idle GET stream does not hold its slot forever). The sweep closes those idle that long."""
        if session.streams:
            return False
        if session.standalone is None:
            return for_room or now - session.last_seen > self._idle
        return now - session.last_seen > self._idle

    def _allowed(self, scope: Scope, headers: Mapping[str, str]) -> bool:
        host = headers.get("host")
        accepted = self._hosts
        if accepted is None:
            server = cast(tuple[str, int] | None, scope.get("server"))
            key = (None, None) if server is None else (server[0], server[1])
            accepted = self._derived.get(key)
            if accepted is None:
                accepted = self._derived[key] = _hosts_of(server[0], server[1]) if server is not None else []
        if accepted != "any" and (host is None or host not in accepted):
            return False
        origin = headers.get("origin")
        if origin is None or self._origins == "any":
            return True
        if self._origins is not None:
            return origin in self._origins
        if accepted == "any":
            return host is not None and origin in (f"http://{host}", f"https://{host}")
        return any(origin in (f"http://{h}", f"https://{h}") for h in accepted)

    async def _serve(self, scope: Scope, receive: Receive, send: AsgiSend) -> None:
        headers = _headers_of(scope)
        if _header_bytes(scope) > self._max_header:
            await _reply(send, 431, b"", {"connection": "close"})
            return
        if not self._allowed(scope, headers):
            await _refuse(send, Refusal(403, SERVER_ERROR, "Forbidden: Host or Origin not allowed"))
            return
        raw_path = cast(bytes | None, scope.get("raw_path"))
        target = raw_path.decode("latin-1") if raw_path is not None else quote(cast(str, scope.get("path", "/")))
        pathname = path_of(target)
        if pathname is None:
            await _refuse(send, Refusal(400, INVALID_REQUEST, "Bad Request: the request target is not a URL"))
            return
        if self._auth is not None and pathname in self._metadata_paths:
            # RFC 9728: the Protected Resource Metadata, public (a client reads it before it has a token).
            method = cast(str, scope.get("method", "GET"))
            if method not in ("GET", "HEAD"):
                await _reply(send, 405, b"", {"allow": "GET, HEAD"})
                return
            await _reply(send, 200, b"" if method == "HEAD" else self._metadata_body, {"content-type": "application/json", "cache-control": "max-age=3600"})
            return
        if pathname != self.path:
            await _reply(send, 404)
            return
        if self._closing:
            await _refuse(send, Refusal(503, SERVER_ERROR, "Service Unavailable: the server is closing"))
            return
        if self._auth is not None:
            outcome = await authenticate(headers.get("authorization"), scope, self._auth)
            if isinstance(outcome, AuthRefusal):
                await _reply(send, outcome.status, _dumps(dict(outcome.body)).encode(), {"content-type": "application/json", **outcome.headers})
                return
            auth = outcome.as_mapping()
            principal = self._principal_of(scope) if self._principal_of is not None else auth_principal_of(outcome)
        else:
            auth = self._auth_of(scope) if self._auth_of is not None else None
            principal = self._principal_of(scope) if self._principal_of is not None else None
        caller = _Caller(auth=auth, principal=principal)
        connection = (_address(scope.get("client")), _address(scope.get("server")))
        on_connection = self._per_connection.get(connection, 0)
        if on_connection >= self._max_in_flight:
            refusal = Refusal(429, SERVER_ERROR, f"Too Many Requests: {self._max_in_flight} requests are in flight on this connection (maxRequestsInFlight)")
            self._on_error(RuntimeError(f"refused: {refusal.message}"))
            await _refuse(send, refusal)
            return
        self._per_connection[connection] = on_connection + 1
        try:
            await self._route(scope, receive, send, headers, caller)
        finally:
            left = self._per_connection.get(connection, 1) - 1
            if left > 0:
                self._per_connection[connection] = left
            else:
                self._per_connection.pop(connection, None)

    async def _route(self, scope: Scope, receive: Receive, send: AsgiSend, headers: Mapping[str, str], caller: _Caller) -> None:
        method = cast(str, scope.get("method", "GET"))
        session_id = headers.get("mcp-session-id")
        if session_id is not None:
            await self._in_session_request(scope, receive, send, headers, session_id, caller)
            return
        if method != "POST":
            await _reply(send, 405, b"", {"allow": "POST"})
            return
        checked = await self._post_body(receive, headers, False)
        if isinstance(checked, Refusal):
            await _refuse(send, checked)
            return
        message = cast(dict[str, Any], checked.body)
        # A new legacy session starts with a legacy initialize request; everything else is a modern message.
        if message.get("method") == "initialize" and read_envelope(message).kind == "request" and self._router.era_of(message) == "legacy":
            await self._start_session(receive, send, message, caller)
            return
        await self._modern(receive, send, headers, message, caller)

    async def _post_body(self, receive: Receive, headers: Mapping[str, str], batch_allowed: bool) -> _Body | Refusal:
        """The checked body of a POST: one message (or, in a legacy session, a batch), else a Refusal."""
        if not _is_json_content_type(headers.get("content-type")):
            return Refusal(415, INVALID_REQUEST, "Unsupported Media Type: Content-Type must be application/json")
        coding = headers.get("content-encoding")
        if _unsupported_coding(coding):
            return Refusal(415, INVALID_REQUEST, f"Unsupported Media Type: Content-Encoding {coding} is not supported", {"accept-encoding": "identity"})
        if not _accepts_both(headers.get("accept")):
            return Refusal(406, INVALID_REQUEST, "Not Acceptable: Accept must list application/json and text/event-stream")
        too_large = Refusal(413, INVALID_REQUEST, f"Payload Too Large: the body exceeds {self._max_body} bytes")
        declared = headers.get("content-length")
        if declared is not None and declared.strip().isdigit() and int(declared) > self._max_body:
            return too_large
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message.get("type") != "http.request":
                break
            chunk = cast(bytes, message.get("body", b""))
            size += len(chunk)
            if size > self._max_body:
                return too_large
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        text = b"".join(chunks).decode("utf-8", errors="replace")
        try:
            body = parse_json(text)
        except ValueError:
            return Refusal(400, PARSE_ERROR, "Parse error")
        batch = _is_batch(body) and batch_allowed
        messages: list[object] = cast(list[object], body) if batch else [body]
        if not messages:
            return Refusal(400, INVALID_REQUEST, "Invalid Request: an empty batch")
        for m in messages:
            envelope = read_envelope(m)
            if envelope.kind == "invalid":
                return Refusal(400, INVALID_REQUEST, f"Invalid Request: {envelope.reason}")
        return _Body(body, text)

    # --- legacy sessions ---

    def _touch(self, session: _Session) -> None:
        session.last_seen = time.monotonic()
        if self._sessions.get(session.id) is session:
            self._sessions.move_to_end(session.id)

    def _close_session(self, session: _Session) -> None:
        """The session is over: its requests are cancelled, its streams close, its connection closes, its id is forgotten."""
        if session.closed:
            return
        session.closed = True
        if self._sessions.get(session.id) is session:
            del self._sessions[session.id]
        for stream in list(session.streams):
            stream.abort("the session closed", by_server=True)
        if session.standalone is not None:
            session.standalone.end()
        if session.connection is not None:
            session.connection.close()

    def _make_room(self) -> bool:
        """Room for one more session: the least recently used idle one is closed when full; False when none is idle."""
        if len(self._sessions) < self.max_sessions:
            return True
        now = time.monotonic()
        for session in self._sessions.values():
            if self._evictable(session, now, True):
                self._close_session(session)
                return True
        return False

    def _make_room_for(self, principal: str | None) -> bool:
        """Room for one more session of ``principal`` (max_sessions_per_principal): its least recently used session
        with no request open closes; False when none can."""
        if principal is None:
            return True
        own = [s for s in self._sessions.values() if s.principal == principal]
        if len(own) < self._max_per_principal:
            return True
        victim = next((s for s in own if not s.streams), None)
        if victim is None:
            return False
        self._close_session(victim)
        return True

    def _sender(self, session: _Session) -> RelatedSend:
        async def send(message: dict[str, Any], *, related_request_id: RequestId | None = None) -> None:
            # A message about a request goes on that request's stream while it is open (the router names the
            # request); the server's own (publish), and one about a request whose stream has ended, on the GET stream.
            stream = None if related_request_id is None else session.routes.get(related_request_id)
            if stream is not None and stream.open:
                stream.push(message)
            elif session.standalone is not None:
                session.standalone.push(message)

        return send

    async def _start_session(self, receive: Receive, send: AsgiSend, message: dict[str, Any], caller: _Caller) -> None:
        rid = message.get("id")
        if not self._make_room_for(caller.principal):
            refusal = Refusal(
                429,
                SERVER_ERROR,
                f"Too Many Requests: {self._max_per_principal} sessions are open for this principal (maxSessionsPerPrincipal)",
                {"retry-after": str(SESSION_RETRY_AFTER_SECONDS)},
            )
            self._on_error(RuntimeError(f"refused: {refusal.message}"))
            await _refuse(send, refusal, rid)
            return
        if not self._make_room():
            self._on_error(RuntimeError(f"refused: {self.max_sessions} sessions are open (maxSessions)"))
            refusal = Refusal(
                503, SERVER_ERROR, f"Service Unavailable: {self.max_sessions} sessions are open (maxSessions)", {"retry-after": str(SESSION_RETRY_AFTER_SECONDS)}
            )
            await _refuse(send, refusal, rid)
            return
        session = _Session(id=str(uuid.uuid4()), principal=caller.principal)
        connection = self._router.connect(self._sender(session))
        session.connection = connection
        self._sessions[session.id] = session
        await self._in_session(receive, send, session, message, caller, {"mcp-session-id": session.id})
        # An initialize the router refused leaves no session behind.
        if connection.protocol_version is None:
            self._close_session(session)

    async def _in_session(
        self, receive: Receive, send: AsgiSend, session: _Session, body: object, caller: _Caller, headers: Mapping[str, str] | None = None
    ) -> None:
        """Answer one POST of a session: its requests on one stream, its notifications and responses handed over."""
        connection = session.connection
        if connection is None:
            await _refuse(send, Refusal(404, SESSION_NOT_FOUND, "Session not found"))
            return
        self._touch(session)
        batch = _is_batch(body)
        messages = cast(list[object], body) if batch else [body]
        requests = [e.id for e in (read_envelope(m) for m in messages) if e.kind == "request"]
        count = len(requests)
        if count > 0 and session.in_flight + count > self._max_in_flight:
            refusal = Refusal(429, SERVER_ERROR, f"Too Many Requests: {self._max_in_flight} requests are in flight on this session (maxRequestsInFlight)")
            self._on_error(RuntimeError(f"refused: {refusal.message}"))
            await _refuse(send, refusal, None if batch else _id_of(body))
            return
        session.in_flight += count
        stream = _Stream(send, self._max_buffered, self._on_error, lambda: self._close_session(session), headers)
        session.streams.add(stream)
        for rid in requests:
            session.routes[rid] = stream
        # A batch of requests is answered on a stream; a single request as JSON unless something comes first.
        if batch and requests:
            stream.stream()
        watcher = asyncio.ensure_future(_wait_disconnect(receive, stream))
        exchange = Exchange(auth=caller.auth, principal=caller.principal)

        async def one(m: object) -> dict[str, Any] | None:
            response = await connection.handle(m, exchange)
            if response is not None and stream.streaming and not stream.aborted:
                stream.push(response)
            return response

        try:
            tasks = [asyncio.get_running_loop().create_task(one(m)) for m in messages]
            for task in tasks:
                stream.watch(task)
            answers = await asyncio.gather(*tasks, return_exceptions=True)
            for answer in answers:
                if isinstance(answer, BaseException) and not isinstance(answer, asyncio.CancelledError):
                    self._on_error(answer)
            if stream.aborted:
                if stream.by_server and not stream.streaming:
                    await _refuse(send, Refusal(404, SESSION_NOT_FOUND, "Session not found"), None if batch else _id_of(body))
                await stream.done.wait()
                return
            responses = [a for a in answers if isinstance(a, dict)]
            if not stream.streaming:
                await stream.finish(responses if batch else (responses[0] if responses else None))
            else:
                await stream.finish(None)
            await stream.done.wait()
        finally:
            watcher.cancel()
            session.in_flight -= count
            for rid in requests:
                if session.routes.get(rid) is stream:
                    del session.routes[rid]
            session.streams.discard(stream)
            self._touch(session)

    async def _open_standalone(self, receive: Receive, send: AsgiSend, session: _Session, headers: Mapping[str, str]) -> None:
        """The session's own stream (GET): the server's requests and notifications that belong to no request."""
        if not _accepts_event_stream(headers.get("accept")):
            await _refuse(send, Refusal(406, INVALID_REQUEST, "Not Acceptable: Accept must list text/event-stream"))
            return
        if session.standalone is not None and session.standalone.open:
            await _refuse(send, Refusal(409, SERVER_ERROR, "Conflict: this session's stream is open already"))
            return
        self._touch(session)
        stream = _Stream(send, self._max_buffered, self._on_error, lambda: self._close_session(session), {"mcp-session-id": session.id})
        session.standalone = stream
        stream.stream()
        watcher = asyncio.ensure_future(_wait_disconnect(receive, stream))
        try:
            await stream.done.wait()
        finally:
            watcher.cancel()
            if session.standalone is stream:
                session.standalone = None
            self._touch(session)

    def _unsupported_version(self, headers: Mapping[str, str]) -> Refusal | None:
        """A legacy request's ``MCP-Protocol-Version``, when given, must name a served legacy version (else 400)."""
        header = headers.get("mcp-protocol-version")
        served = self._router.legacy_versions
        if header is None or header in served:
            return None
        return Refusal(400, INVALID_REQUEST, f"Bad Request: unsupported MCP-Protocol-Version {header} (served: {', '.join(served)})")

    async def _in_session_request(
        self, scope: Scope, receive: Receive, send: AsgiSend, headers: Mapping[str, str], session_id: str, caller: _Caller
    ) -> None:
        found = self._sessions.get(session_id)
        # Another principal's session is answered as an unknown one: its existence is not revealed.
        if found is None or found.principal != caller.principal:
            await _refuse(send, Refusal(404, SESSION_NOT_FOUND, "Session not found"))
            return
        method = scope.get("method")
        if method == "DELETE":
            self._close_session(found)
            await _reply(send, 200)
            return
        if method == "GET":
            wrong = self._unsupported_version(headers)
            if wrong is not None:
                await _refuse(send, wrong)
                return
            await self._open_standalone(receive, send, found, headers)
            return
        if method != "POST":
            await _reply(send, 405, b"", {"allow": "GET, POST, DELETE"})
            return
        checked = await self._post_body(receive, headers, True)
        if isinstance(checked, Refusal):
            await _refuse(send, checked)
            return
        version = None if found.connection is None else found.connection.protocol_version
        body = checked.body
        batch = _is_batch(body)
        if batch and not batches_served(version):
            # 2025-06-18 removed JSON-RPC batching: a batch is not one valid request.
            shown = "undefined" if version is None else version
            await _refuse(send, Refusal(400, INVALID_REQUEST, f"Invalid Request: JSON-RPC batches are not supported in protocol version {shown}"))
            return
        wrong = self._unsupported_version(headers)
        if wrong is not None:
            await _refuse(send, wrong, None if batch else _id_of(body))
            return
        if found.closed:
            await _refuse(send, Refusal(404, SESSION_NOT_FOUND, "Session not found"))
            return
        await self._in_session(receive, send, found, body, caller)

    # --- the modern era ---

    async def _modern(self, receive: Receive, send: AsgiSend, headers: Mapping[str, str], message: dict[str, Any], caller: _Caller) -> None:
        rid = _id_of(message)
        mismatch = header_mismatch(headers, message, self._router.name_param, self._parameter_headers)
        if mismatch is not None:
            await _refuse(send, Refusal(400, HEADER_MISMATCH, mismatch), rid)
            return
        # One JSON body, unless the server sends something about the request first: then an SSE stream carrying
        # those messages and the response.
        stream = _Stream(send, self._max_buffered, self._on_error, lambda: None)

        async def push(m: dict[str, Any]) -> None:
            stream.push(m)

        # Stateless HTTP knows no peer: each POST is its own scope, so a posted notifications/cancelled cannot
        # reach another client's request that shares its id; closing the connection cancels.
        exchange = Exchange(send=push, scope=object(), auth=caller.auth, principal=caller.principal)
        watcher = asyncio.ensure_future(_wait_disconnect(receive, stream))
        task = asyncio.ensure_future(self._router.handle(message, exchange))
        stream.watch(task)
        try:
            try:
                response = await task
            except asyncio.CancelledError:
                if not stream.aborted:
                    raise
                response = None
            if stream.aborted:
                await stream.done.wait()
                return
            if response is None or rid is None:
                await stream.finish(None)
            else:
                error = response.get("error")
                code = cast(dict[str, object], error).get("code") if isinstance(error, dict) else None
                status = MODERN_STATUS.get(code, 200) if isinstance(code, int) and not isinstance(code, bool) else 200
                await stream.finish(response, status)
            await stream.done.wait()
        finally:
            watcher.cancel()


def _is_batch(body: object) -> bool:
    """A JSON array (a batch), without narrowing the caller's type."""
    return isinstance(body, list)


def _id_of(message: object) -> object:
    envelope = read_envelope(message)
    return envelope.id if envelope.kind == "request" else None


def _address(value: object) -> object:
    return tuple(cast(Iterable[object], value)) if isinstance(value, list | tuple) else value


def create_asgi_app(router: RoutedServer, **options: Any) -> HttpApp:
    """The streamable HTTP endpoint serving ``router`` as an ASGI 3 application (see the module docstring).

    Options (TypeScript's HttpTransportOptions in Python naming): ``path`` ("/mcp"), ``max_body_bytes`` (4 MiB),
    ``max_header_bytes`` (16 KiB), ``allowed_hosts`` / ``allowed_origins`` (default: the loopback names of the
    address a request arrived on; "any" turns a check off), ``session_idle_ms`` (30 minutes), ``max_sessions``
    (1,000), ``max_buffered_bytes`` (4 MiB), ``parameter_headers`` (tool name → argument → ``Mcp-Param-*`` header
    name), ``on_error`` (default: one line on stderr), ``principal_of(scope)`` (whom a request is for; default
    none; with ``auth``, the token's subject, else its client), ``auth_of(scope)`` (the verified caller handlers see
    as ``context.auth``; default none), ``auth`` (the resource-server role, an ``auth.ResourceServer``: every
    request needs a bearer token it accepts, the Protected Resource Metadata is served; handlers see the token's
    ``AuthInfo.as_mapping()`` as ``context.auth``), ``max_requests_in_flight`` (64), ``max_sessions_per_principal``
    (16).
    """
    return HttpApp(router, **options)


class _CoalescingTransport(asyncio.Transport):
    """A connection's transport whose writes of one turn of the event loop leave in one send.

    uvicorn writes a response's head, its body and (chunked) its last chunk apart, and on a loopback connection
    with Nagle off each write is a send that wakes the client, which takes the CPU from the server to read a part
    of the answer: under load that costs more than the request. Joined, a JSON answer is one send; an SSE event
    written alone is sent at the end of the turn it was written in."""

    def __init__(self, transport: asyncio.Transport) -> None:
        super().__init__()
        self._transport = transport
        self._pending: list[bytes] = []

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if not data:
            return
        if not self._pending:
            asyncio.get_running_loop().call_soon(self._flush)
        self._pending.append(bytes(data))

    def _flush(self) -> None:
        if not self._pending:
            return
        data = b"".join(self._pending)
        self._pending.clear()
        if not self._transport.is_closing():
            self._transport.write(data)

    def close(self) -> None:
        self._flush()
        self._transport.close()

    def abort(self) -> None:
        self._pending.clear()
        self._transport.abort()

    def write_eof(self) -> None:
        self._flush()
        self._transport.write_eof()

    def can_write_eof(self) -> bool:
        return self._transport.can_write_eof()

    def is_closing(self) -> bool:
        return self._transport.is_closing()

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self._transport.get_extra_info(name, default)

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self._transport.set_protocol(protocol)

    def get_protocol(self) -> asyncio.BaseProtocol:
        return self._transport.get_protocol()

    def is_reading(self) -> bool:
        return self._transport.is_reading()

    def pause_reading(self) -> None:
        self._transport.pause_reading()

    def resume_reading(self) -> None:
        self._transport.resume_reading()

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        self._transport.set_write_buffer_limits(high, low)

    def get_write_buffer_size(self) -> int:
        return self._transport.get_write_buffer_size() + sum(len(d) for d in self._pending)

    def get_write_buffer_limits(self) -> tuple[int, int]:
        return self._transport.get_write_buffer_limits()


def _coalescing(protocol: type[asyncio.Protocol]) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol class, its connections' writes coalesced (``_CoalescingTransport``)."""

    class Coalescing(protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(_CoalescingTransport(cast(asyncio.Transport, transport)))

    return Coalescing


@dataclass
class HttpServer:
    """A running ``serve_http``: its endpoint's URL, the app, ``close()``."""

    url: str
    host: str
    port: int
    app: HttpApp
    _server: Any
    _task: asyncio.Task[None]
    _socket: socket.socket

    async def close(self) -> None:
        """End the legacy sessions and open streams, then stop listening."""
        await self.app.close()
        self._server.should_exit = True
        try:
            await self._task
        finally:
            self._socket.close()

    async def wait_closed(self) -> None:
        """Until the server stops (a signal, or ``close``)."""
        await asyncio.shield(self._task)


async def serve_http(router: RoutedServer, host: str = "127.0.0.1", port: int = 0, **options: Any) -> HttpServer:
    """Serve ``router`` over streamable HTTP under uvicorn (an extra, not a runtime dependency: ``pip install
    uvicorn``) on ``host:port`` (0: a free port); options as ``create_asgi_app``'s."""
    try:
        import uvicorn
    except ImportError as error:
        raise RuntimeError("serve_http runs the ASGI app under uvicorn, which is not installed: pip install uvicorn (or serve create_asgi_app(router) with any ASGI server)") from error
    app = create_asgi_app(router, **options)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP named, not 0: asyncio turns Nagle's algorithm off (TCP_NODELAY) only on accepted sockets whose
    # protocol says TCP, and uvicorn writes a response's head and body separately, so with Nagle on the body waits
    # for the client's delayed ACK (~40 ms on Linux) on every request of a kept-alive connection.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    bound = cast(int, sock.getsockname()[1])
    max_header = cast(int, options.get("max_header_bytes", DEFAULT_MAX_HEADER_BYTES))
    config = uvicorn.Config(
        app,
        lifespan="off",
        log_level="warning",
        access_log=False,
        server_header=False,
        timeout_graceful_shutdown=1,
        h11_max_incomplete_event_size=max(64 * 1024, 2 * max_header),
    )
    config.load()
    config.http_protocol_class = _coalescing(config.http_protocol_class)
    server = uvicorn.Server(config)
    task = asyncio.ensure_future(server.serve(sockets=[sock]))
    while not server.started:
        if task.done():
            task.result()
            raise RuntimeError("uvicorn stopped before it started")
        await asyncio.sleep(0.01)
    shown = f"[{host}]" if ":" in host else host
    return HttpServer(f"http://{shown}:{bound}{app.path}", host, bound, app, server, task, sock)
