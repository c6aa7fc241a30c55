"""The client's streamable HTTP transport (asyncio, httpx2 imported when the transport is built, so the
server side needs pydantic alone). The mirror of TypeScript's client-http.ts; the generator copies it as
``client_http.py`` of the Python tree.

- legacy: the ``Mcp-Session-Id`` the server assigns at ``initialize`` goes on every later request, with
  ``MCP-Protocol-Version``; once the session is established a GET opens the server's stream (a 405 means
  the server offers none); ``close`` sends DELETE;
- 2026-07-28: every POST stands alone, with ``MCP-Protocol-Version``, ``Mcp-Method``, ``Mcp-Name`` (the
  METHOD_TABLE row's ``nameParam``) and the ``Mcp-Param-*`` headers of the tool's ``x-mcp-header`` arguments;
- a POST is answered by one JSON body, 202, or an SSE stream (read with httpx2's event source); a stream
  that ends before its request's answer is resumed with a GET carrying ``Last-Event-ID`` after the server's
  ``retry:`` delay, at most ``max_reconnects`` times;
- a body over ``max_body_bytes`` is refused; a 401/403 is an ``HttpStatusError`` naming the status and the
  ``WWW-Authenticate`` challenge. ``auth``: a ``client_oauth.OAuth`` (or any ``httpx2.Auth``); ``client``: an
  ``httpx2.AsyncClient`` of one's own (its auth, headers) instead.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import re
from collections.abc import Mapping
from typing import Any, Final, cast

from .client import (
    HEADER_DESIGNATION,
    HEADER_METHOD,
    HEADER_NAME,
    HEADER_PARAM_PREFIX,
    HEADER_PROTOCOL_VERSION,
    HEADER_SESSION_ID,
    Era,
    OutgoingInfo,
    Receiver,
    RequestId,
)
from .dispatcher import parse_json, read_envelope

DEFAULT_MAX_BODY_BYTES: Final = 4 * 1024 * 1024
DEFAULT_RETRY: Final = 1.0
DEFAULT_MAX_RECONNECTS: Final = 5


class HttpStatusError(Exception):
    """An HTTP answer that carries no JSON-RPC answer: its status, and for 401/403 the ``WWW-Authenticate`` challenge."""

    def __init__(self, status: int, message: str, www_authenticate: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.www_authenticate = www_authenticate


def _object(value: object) -> dict[str, object]:
    return cast(dict[str, object], value) if isinstance(value, dict) else {}


def encode_header_value(value: str) -> str:
    """A header value as the spec encodes it: plain when visible ASCII with no outer whitespace, else ``=?base64?…?=``."""
    if re.fullmatch(r"[\x20-\x7e]*", value) and value.strip() == value:
        return value
    return f"=?base64?{base64.b64encode(value.encode('utf-8')).decode('ascii')}?="


def modern_headers(message: Mapping[str, Any], name_param: str | None, input_schema: object) -> dict[str, str]:
    """The 2026-07-28 headers of one POST: ``Mcp-Method``, ``Mcp-Name`` when the method names something, and
    for tools/call each designated argument present (a string, number or boolean) as ``Mcp-Param-<name>``."""
    method = message.get("method")
    if not isinstance(method, str):
        return {}
    headers = {HEADER_METHOD: method}
    params = _object(message.get("params"))
    name = params.get(name_param) if name_param is not None else None
    if isinstance(name, str):
        headers[HEADER_NAME] = encode_header_value(name)
    if method == "tools/call":
        arguments = _object(params.get("arguments"))
        for key, prop in _object(_object(input_schema).get("properties")).items():
            header = _object(prop).get(HEADER_DESIGNATION)
            value = arguments.get(key)
            if not isinstance(header, str) or value is None or not isinstance(value, (str, int, float, bool)):
                continue
            text = ("true" if value else "false") if isinstance(value, bool) else str(value)
            headers[HEADER_PARAM_PREFIX + header.lower()] = encode_header_value(text)
    return headers


class HttpClientTransport:
    """A client transport over streamable HTTP at ``url``."""

    def __init__(
        self,
        url: str,
        *,
        headers: Mapping[str, str] | None = None,
        client: Any = None,
        auth: Any = None,
        max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
        max_reconnects: int = DEFAULT_MAX_RECONNECTS,
        retry: float = DEFAULT_RETRY,
        open_stream: bool = True,
    ) -> None:
        import httpx2  # the `client` extra, imported when a transport is made

        self._httpx: Any = httpx2
        self.url = url
        self._headers = dict(headers or {})
        self._own_client = client is None
        httpx_auth = auth.httpx_auth() if auth is not None and hasattr(auth, "httpx_auth") else auth
        self._client: Any = client if client is not None else httpx2.AsyncClient(auth=httpx_auth, timeout=httpx2.Timeout(30.0, read=None))
        self.max_body_bytes = max_body_bytes
        self.max_reconnects = max_reconnects
        self.retry = retry
        self.open_stream = open_stream
        self.session_id: str | None = None
        self._protocol_version: str | None = None
        self._era: Era | None = None
        self._receiver: Receiver | None = None
        self._closed = False
        self._streams: dict[RequestId, asyncio.Task[None]] = {}
        self._background: set[asyncio.Task[None]] = set()

    def _base_headers(self) -> dict[str, str]:
        headers = dict(self._headers)
        if self._protocol_version is not None:
            headers[HEADER_PROTOCOL_VERSION] = self._protocol_version
        if self.session_id is not None and self._era != "modern":
            headers[HEADER_SESSION_ID] = self.session_id
        return headers

    async def start(self, receiver: Receiver) -> None:
        self._receiver = receiver

    def _deliver(self, value: object, awaited: RequestId | None) -> bool:
        answered = False
        for message in cast(list[object], value) if isinstance(value, list) else [value]:
            envelope = read_envelope(message)
            if envelope.kind == "response" and awaited is not None and envelope.id == awaited:
                answered = True
            if self._receiver is not None:
                self._receiver.message(message, awaited)
        return answered

    def _problem(self, error: BaseException) -> None:
        if self._receiver is not None:
            self._receiver.problem(error)

    async def _refusal(self, response: Any) -> HttpStatusError:
        try:
            text = (await response.aread()).decode("utf-8", "replace")
        except Exception:  # noqa: BLE001 - the body is only detail
            text = ""
        challenge = response.headers.get("www-authenticate")
        detail = f": {text.strip()}" if 0 < len(text) < 500 else ""
        shown = "" if challenge is None else f" (WWW-Authenticate: {challenge})"
        return HttpStatusError(response.status_code, f"HTTP {response.status_code} {response.reason_phrase}{shown}{detail}", challenge)

    async def _read_body(self, response: Any) -> str:
        chunks: list[bytes] = []
        size = 0
        async for chunk in response.aiter_bytes():
            size += len(chunk)
            if size > self.max_body_bytes:
                raise ValueError(f"the response body exceeds {self.max_body_bytes} bytes (max_body_bytes)")
            chunks.append(chunk)
        return b"".join(chunks).decode("utf-8")

    async def _consume(self, response: Any, awaited: RequestId | None) -> None:
        """Read one SSE response, resuming it with ``Last-Event-ID`` while ``awaited`` has no answer."""
        last_event_id: str | None = None
        retry = self.retry
        answered = False
        current: Any = response
        attempt = 0
        try:
            while True:
                received = False
                try:
                    source = self._httpx.EventSource(current, max_event_size=self.max_body_bytes)
                    async for event in source:
                        received = True
                        if event.id:
                            last_event_id = event.id
                        if event.retry is not None:
                            retry = event.retry / 1000
                        if event.event not in ("", "message") or event.data.strip() == "":
                            continue
                        try:
                            parsed = parse_json(event.data)
                        except Exception:  # noqa: BLE001 - told, reading goes on
                            self._problem(ValueError("the server sent an SSE event that is not JSON"))
                            continue
                        if self._deliver(parsed, awaited):
                            answered = True
                except asyncio.CancelledError:
                    raise
                except Exception as error:  # noqa: BLE001 - the stream broke: resume below
                    if self._closed:
                        return
                    self._problem(error)
                finally:
                    with contextlib.suppress(Exception):
                        await current.aclose()
                if self._closed or answered:
                    return
                if awaited is None and not received and attempt > 0:
                    return
                if last_event_id is None or attempt >= self.max_reconnects:
                    if awaited is not None and self._receiver is not None:
                        why = " (no event id to resume from)" if last_event_id is None else f" ({self.max_reconnects} resumptions tried)"
                        self._receiver.request_failed(awaited, ConnectionError(f"the response stream ended before the answer{why}"))
                    return
                attempt += 1
                await asyncio.sleep(retry)
                if self._closed:
                    return
                headers = {**self._base_headers(), "accept": "text/event-stream", "last-event-id": last_event_id}
                try:
                    resumed = await self._client.send(self._client.build_request("GET", self.url, headers=headers), stream=True)
                except Exception as error:  # noqa: BLE001 - told; the request fails below
                    self._problem(error)
                    resumed = None
                if resumed is None or resumed.status_code != 200 or "text/event-stream" not in resumed.headers.get("content-type", ""):
                    if resumed is not None:
                        await resumed.aclose()
                    if awaited is not None and self._receiver is not None:
                        self._receiver.request_failed(awaited, ConnectionError("the response stream ended and could not be resumed"))
                    return
                current = resumed
        finally:
            if awaited is not None and self._streams.get(awaited) is asyncio.current_task():
                self._streams.pop(awaited, None)

    def _background_task(self, work: Any, awaited: RequestId | None = None) -> None:
        task: asyncio.Task[None] = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        if awaited is not None:
            self._streams[awaited] = task

    async def send(self, message: Mapping[str, Any], info: OutgoingInfo) -> None:
        if self._closed:
            raise ConnectionError("the HTTP transport is closed")
        if info.protocol_version is not None:
            self._protocol_version = info.protocol_version
        if info.era is not None:
            self._era = info.era
        body = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        if len(body) > self.max_body_bytes:
            raise ValueError(f"the message exceeds {self.max_body_bytes} bytes (max_body_bytes)")
        headers = {**self._base_headers(), "content-type": "application/json", "accept": "application/json, text/event-stream"}
        if self._era == "modern":
            headers.update(modern_headers(message, info.name_param, info.input_schema))
        envelope = read_envelope(message)
        awaited = envelope.id if envelope.kind == "request" else None
        request = self._client.build_request("POST", self.url, headers=headers, content=body)
        response: Any = await self._client.send(request, stream=True)
        assigned = response.headers.get(HEADER_SESSION_ID)
        if assigned is not None and self._era != "modern" and envelope.kind == "request" and envelope.method == "initialize":
            self.session_id = assigned
        status: int = response.status_code
        if status in (401, 403):
            raise await self._refusal(response)
        if status == 202:
            await response.aclose()
            if awaited is not None:
                raise HttpStatusError(202, f"HTTP 202: no answer to request {awaited!r}")
            return
        kind = response.headers.get("content-type", "").lower()
        if "text/event-stream" in kind and 200 <= status < 300:
            self._background_task(self._consume(response, awaited), awaited)
            return
        if "application/json" in kind:
            try:
                text = await self._read_body(response)
            finally:
                await response.aclose()
            try:
                parsed = parse_json(text)
            except Exception:  # noqa: BLE001 - not JSON
                raise HttpStatusError(status, f"HTTP {status}: the body is not JSON") from None
            if not self._deliver(parsed, awaited) and awaited is not None:
                raise HttpStatusError(status, f"HTTP {status}: no answer to request {awaited!r}: {text[:300]}")
            return
        if not 200 <= status < 300:
            raise await self._refusal(response)
        await response.aclose()
        if awaited is not None:
            raise HttpStatusError(status, f"HTTP {status}: no answer to request {awaited!r}")

    async def session_started(self, protocol_version: str) -> None:
        """Legacy: open the server's GET stream, returning once the server has answered it (so what the server
        sends on it from then on is heard); it is read in the background. A 405 means the server offers none."""
        if not self.open_stream or self._closed:
            return
        try:
            request = self._client.build_request("GET", self.url, headers={**self._base_headers(), "accept": "text/event-stream"})
            response: Any = await self._client.send(request, stream=True)
        except Exception as error:  # noqa: BLE001 - told; the session goes on without the stream
            self._problem(error)
            return
        if response.status_code != 200 or "text/event-stream" not in response.headers.get("content-type", ""):
            await response.aclose()
            return
        self._background_task(self._consume(response, None))

    def abandon(self, request_id: RequestId) -> None:
        """The client gave ``request_id`` up: stop reading its stream."""
        task = self._streams.pop(request_id, None)
        if task is not None:
            task.cancel()

    async def close(self) -> None:
        """Stop every stream; legacy: DELETE the session. Idempotent."""
        if self._closed:
            return
        self._closed = True
        for task in list(self._background):
            task.cancel()
        for task in list(self._background):
            with contextlib.suppress(BaseException):
                await task
        if self.session_id is not None and self._era != "modern":
            headers = {**self._headers, HEADER_SESSION_ID: self.session_id}
            if self._protocol_version is not None:
                headers[HEADER_PROTOCOL_VERSION] = self._protocol_version
            with contextlib.suppress(Exception):
                await self._client.delete(self.url, headers=headers)
        if self._own_client:
            with contextlib.suppress(Exception):
                await self._client.aclose()
        if self._receiver is not None:
            self._receiver.closed()
