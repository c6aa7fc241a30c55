"""The client (asyncio): connects over a transport (``client_stdio``, ``client_http``), negotiates a protocol
version and sends requests whose results it normalizes and validates with the negotiated version's
generated module. The mirror of TypeScript's ``ClientCore`` (runtimes/typescript/src/client.ts), in
Python names.

Hand-written Python; the generator copies it as ``client.py`` of the Python tree. The rules are the
version modules' (``METHOD_TABLE``, ``REQUESTS``, ``DEFINITIONS``, ``create_client_dispatcher``):

- ``connect`` tries the modern era first (``server/discover`` with the ``_meta`` envelope; a -32022 answer
  naming supported versions is retried once at the newest common one), then falls back to the legacy
  ``initialize`` offering the newest legacy version (its answer must be one the client offers), then
  ``notifications/initialized``. ``versions`` chooses what is offered (default: every dated version).
- ``request`` refuses a method the negotiated version does not have or a client does not send, and one the
  server's capabilities do not offer (``ClientError`` ``unknown-method``/``capability``); params are checked
  by the version's params model (``invalid-params`` with JSON pointers); a result is normalized by the
  version's normalizer, then validated by its result models (``invalid-result`` with pointers). The result
  is returned as the JSON object it came as (a ``dict``).
- 2026-07-28 ``input_required`` results are answered by the client's handlers (each answer validated as an
  ``InputResponse``) and the request is retried with ``inputResponses`` and the server's ``requestState``,
  at most ``max_input_rounds`` times.
- Cancellation: cancelling the task awaiting ``request`` (or its ``timeout`` passing) sends
  ``notifications/cancelled`` and raises (``asyncio.CancelledError``; ``ClientError`` ``timeout``). The
  server's requests are answered by the version's client dispatcher with the client's current handlers
  (``set_request_handler``); the server's ``notifications/cancelled`` cancels that handler; a handler nested
  in one of the client's requests (HTTP: the request whose POST stream brought it) is cancelled when that
  request ends unanswered; ``close()`` cancels every running handler and handles nothing after it.
- ``on_progress`` receives the ``notifications/progress`` params of that request (a progress token is added).
- ``pages`` walks a paginated list (the table's ``paginated`` column), stopping on a repeated cursor.
- At 2026-07-28 a tool whose ``x-mcp-header`` designations are invalid is left out of ``tools/list`` (told to
  ``on_error``); a ``tools/call`` result's ``structuredContent`` is checked against the tool's
  ``outputSchema`` from the last ``tools/list`` naming it (``jsonschema``, imported when first needed; a
  schema it cannot check is told to ``on_error`` and the result passed on).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import inspect
import re
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal, Protocol, cast

from pydantic import TypeAdapter, ValidationError

from . import dispatcher as dispatch
from . import protocol, runtime

# --- Protocol constants: the generated protocol module's (the HTTP header names are the transport's own) ---
META_PROTOCOL_VERSION: Final = protocol.META_PROTOCOL_VERSION
META_CLIENT_CAPABILITIES: Final = protocol.META_CLIENT_CAPABILITIES
META_CLIENT_INFO: Final = protocol.META_CLIENT_INFO
META_SERVER_INFO: Final = protocol.META_SERVER_INFO
META_PROGRESS_TOKEN: Final = protocol.META_PROGRESS_TOKEN
UNSUPPORTED_PROTOCOL_VERSION: Final = protocol.UNSUPPORTED_PROTOCOL_VERSION
"""The 2026-07-28 error a server answers a protocol version it does not support with."""
INPUT_REQUIRED: Final = "input_required"
"""The 2026-07-28 ``resultType`` of a result asking the client for input."""
HEADER_PROTOCOL_VERSION: Final = "mcp-protocol-version"
HEADER_SESSION_ID: Final = "mcp-session-id"
HEADER_METHOD: Final = "mcp-method"
HEADER_NAME: Final = "mcp-name"
HEADER_PARAM_PREFIX: Final = "mcp-param-"
HEADER_DESIGNATION: Final = protocol.HEADER_ANNOTATION
"""The inputSchema keyword designating a tool argument mirrored into an ``Mcp-Param-*`` header."""
# --- end of the protocol constants ---

DEFAULT_TIMEOUT: Final = 60.0
DEFAULT_DISCOVER_TIMEOUT: Final = 10.0
DEFAULT_MAX_INPUT_ROUNDS: Final = 8

Era = Literal["legacy", "modern"]
ErrorKind = Literal[
    "not-connected", "negotiation", "unknown-method", "capability", "invalid-params", "invalid-result", "input-required", "timeout", "closed"
]
RequestId = str | int
JsonObject = dict[str, Any]
Handler = Callable[[Any, Any], object]


class ClientError(Exception):
    """A failure the client detects itself (a server's error answer is a ``dispatcher.JsonRpcError`` instead)."""

    def __init__(self, kind: ErrorKind, message: str, pointers: list[str] | None = None) -> None:
        super().__init__(message)
        self.kind: ErrorKind = kind
        self.pointers: list[str] = pointers if pointers is not None else []
        """For invalid params or results: the JSON pointers (RFC 6901, "" the whole value) that failed."""


@dataclass(frozen=True)
class Negotiated:
    """What ``connect`` settled on."""

    protocol_version: str
    era: Era
    server_capabilities: JsonObject
    server_info: JsonObject | None
    instructions: str | None
    fell_back: str | None
    """When modern negotiation was tried and the client fell back to legacy: why."""


@dataclass(frozen=True)
class OutgoingInfo:
    """What the client says about one outgoing message (the transport frames it: HTTP headers)."""

    protocol_version: str | None = None
    era: Era | None = None
    name_param: str | None = None
    """For a request: its METHOD_TABLE row's ``nameParam`` (HTTP sends its value as ``Mcp-Name``)."""
    input_schema: object = None
    """For a 2026-07-28 tools/call: the tool's inputSchema (HTTP mirrors its designated arguments)."""


class Receiver(Protocol):
    """Where a transport hands what it receives."""

    def message(self, message: object, related: RequestId | None = None) -> None: ...
    def closed(self, error: BaseException | None = None) -> None: ...
    def problem(self, error: BaseException) -> None: ...
    def request_failed(self, request_id: RequestId, error: BaseException) -> None: ...


class ClientTransport(Protocol):
    """What the client needs of a transport (``client_stdio.StdioClientTransport``, ``client_http.HttpClientTransport``)."""

    async def start(self, receiver: Receiver) -> None: ...
    async def send(self, message: Mapping[str, Any], info: OutgoingInfo) -> None: ...
    async def session_started(self, protocol_version: str) -> None: ...
    def abandon(self, request_id: RequestId) -> None: ...
    async def close(self) -> None: ...


class _Version(Protocol):
    @property
    def PROTOCOL_VERSION(self) -> str: ...  # noqa: N802 - the module's constant
    @property
    def ERA(self) -> str: ...  # noqa: N802
    @property
    def METHOD_TABLE(self) -> Mapping[str, Mapping[str, object]]: ...  # noqa: N802
    @property
    def DEFINITIONS(self) -> Mapping[str, runtime.Definition]: ...  # noqa: N802
    def normalize_result(self, method: str, value: object) -> runtime.Result: ...
    def create_client_dispatcher(
        self, handlers: Mapping[str, dispatch.Handler], *, on_error: dispatch.OnError | None = None, validate_results: bool = True
    ) -> dispatch.Dispatcher: ...


class _Package(Protocol):
    @property
    def VERSION_MODULES(self) -> Mapping[str, str]: ...  # noqa: N802
    @property
    def VERSION_ERAS(self) -> Mapping[str, str]: ...  # noqa: N802


def _package() -> _Package:
    return cast(_Package, importlib.import_module(__package__ or __name__.rpartition(".")[0]))


def _module(label: str) -> _Version:
    return cast(_Version, importlib.import_module(_package().VERSION_MODULES[label]))


def _is_object(value: object) -> bool:
    return isinstance(value, dict)


def _object(value: object) -> dict[str, object]:
    """``value`` when it is a JSON object, else an empty one."""
    return cast(dict[str, object], value) if isinstance(value, dict) else {}


def declares(capabilities: object, path: tuple[str, ...]) -> bool:
    """Whether ``capabilities`` declares the path (a present value that is not false or null)."""
    at: object = capabilities
    for key in path:
        if not isinstance(at, dict) or key not in at:
            return False
        at = cast(dict[str, object], at)[key]
    return at is not None and at is not False


_TOKEN = re.compile(r"^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$")
_PRIMITIVE = frozenset({"string", "integer", "boolean"})


def invalid_header_designation(tool: object) -> str | None:
    """Why a 2026-07-28 tool's ``x-mcp-header`` designations are invalid (the tool must not be used), else None:
    each a non-empty header token, on a string, integer or boolean property, unique case-insensitively."""
    properties = _object(_object(_object(tool).get("inputSchema")).get("properties"))
    seen: set[str] = set()
    for key, prop in properties.items():
        if not isinstance(prop, dict) or HEADER_DESIGNATION not in prop:
            continue
        p = cast(dict[str, object], prop)
        name = p[HEADER_DESIGNATION]
        if not isinstance(name, str) or name == "":
            return f"{HEADER_DESIGNATION} of {key} is empty or not a string"
        if not _TOKEN.match(name):
            return f"{HEADER_DESIGNATION} {name!r} of {key} is not a header name token"
        if p.get("type") not in _PRIMITIVE:
            return f"{HEADER_DESIGNATION} of {key} is on a {p.get('type')!r} property (string, integer or boolean only)"
        if name.lower() in seen:
            return f"{HEADER_DESIGNATION} {name!r} is used twice"
        seen.add(name.lower())
    return None


def _pointers(error: ValidationError, prefix: str = "") -> list[str]:
    return dispatch.issue_paths(error, prefix)


def _describe(error: BaseException) -> str:
    return str(error) or type(error).__name__


def _default_on_error(error: BaseException) -> None:
    sys.stderr.write(f"mcp-codegen client: {_describe(error)}\n")


@dataclass
class _Pending:
    future: asyncio.Future[object]
    on_progress: Callable[[JsonObject], object] | None


@dataclass(frozen=True)
class InputContext:
    """What a handler answering a 2026-07-28 input request is given besides its params."""

    request_id: str
    """The input request's key in ``inputRequests``."""
    meta: JsonObject | None
    protocol_version: str


class Client:
    """A client over the generated versions of this package: ``connect`` it to a transport, then send requests.

    ``handlers`` answer the server's requests and notifications by method (``handler(params, context)``, sync
    or async; params as the version's model); ``on_error`` hears what the client drops or cannot deliver
    (default: a line on stderr). Timeouts are in seconds (``None``: none)."""

    def __init__(
        self,
        client_info: Mapping[str, Any],
        *,
        capabilities: Mapping[str, Any] | None = None,
        versions: list[str] | None = None,
        handlers: Mapping[str, Handler] | None = None,
        on_error: Callable[[BaseException], None] | None = None,
        timeout: float | None = DEFAULT_TIMEOUT,
        discover_timeout: float = DEFAULT_DISCOVER_TIMEOUT,
        max_input_rounds: int = DEFAULT_MAX_INPUT_ROUNDS,
        validate_structured_content: bool = True,
    ) -> None:
        known = _package().VERSION_MODULES
        for v in versions or []:
            if v not in known:
                raise ValueError(f"unknown protocol version {v!r}; known: {', '.join(known)}")
        self._client_info = dict(client_info)
        self._capabilities = dict(capabilities or {})
        self._versions = list(versions) if versions is not None else [v for v in known if re.fullmatch(r"\d{4}-\d{2}-\d{2}", v)]
        self._handlers: dict[str, Handler] = dict(handlers or {})
        self._on_error = on_error or _default_on_error
        self._timeout = timeout
        self._discover_timeout = discover_timeout
        self._max_input_rounds = max_input_rounds
        self._validate_structured = validate_structured_content
        self._transport: ClientTransport | None = None
        self._module: _Version | None = None
        self._negotiated: Negotiated | None = None
        self._dispatcher: dispatch.Dispatcher | None = None
        self._pending: dict[RequestId, _Pending] = {}
        self._next_id = 1
        self._closed = False
        self._catch_all: Callable[[str, JsonObject | None], object] | None = None
        self._tool_schemas: dict[str, object] = {}
        self._output_schemas: dict[str, object] = {}
        self._adapters: dict[tuple[str, str, str], TypeAdapter[Any] | None] = {}
        self._handling: dict[asyncio.Task[object], RequestId | None] = {}
        self._scope = object()

    # --- handlers ---

    def set_request_handler(self, method: str, handler: Handler | None) -> None:
        """Answer the server's ``method`` requests with ``handler`` (None removes it); takes effect at once."""
        self._set_handler(method, "request", handler)

    def set_notification_handler(self, method: str, handler: Handler | None) -> None:
        """Hear the server's ``method`` notifications with ``handler`` (None removes it); takes effect at once."""
        self._set_handler(method, "notification", handler)

    def on_notification(self, handler: Callable[[str, JsonObject | None], object] | None) -> None:
        """Hear ``(method, params)`` of every notification no handler of its method took (not progress a request took)."""
        self._catch_all = handler

    def _set_handler(self, method: str, kind: str, handler: Handler | None) -> None:
        known = False
        for label in _package().VERSION_MODULES:
            row = _module(label).METHOD_TABLE.get(method)
            if row is not None and row.get("kind") == kind and "client" in cast(tuple[str, ...], row.get("receivers", ())):
                known = True
                break
        if not known:
            raise ClientError("unknown-method", f"{method} is not a {kind} a server sends to clients at any version of this client")
        if handler is None:
            self._handlers.pop(method, None)
        else:
            self._handlers[method] = handler

    # --- negotiation ---

    @property
    def connection(self) -> Negotiated | None:
        """The negotiated version and what the server said about itself; None before ``connect``."""
        return self._negotiated

    @property
    def protocol_version(self) -> str | None:
        return None if self._negotiated is None else self._negotiated.protocol_version

    def _offered(self, era: Era) -> list[str]:
        eras = _package().VERSION_ERAS
        labels = [v for v in self._versions if eras[v] == era]
        # Newest first: dated labels by date, "draft" before them all.
        return sorted(labels, key=lambda v: "9999" if v == "draft" else v, reverse=True)

    async def connect(self, transport: ClientTransport) -> Negotiated:
        """Start the transport and negotiate; returns the version that won. On failure the transport is closed."""
        if self._transport is not None:
            raise ClientError("negotiation", "this client is connected already; create another for a second connection")
        self._transport = transport
        await transport.start(_ReceiverOf(self))
        try:
            modern, legacy = self._offered("modern"), self._offered("legacy")
            if not modern and not legacy:
                raise ClientError("negotiation", "no protocol version offered")
            fell_back: str | None = None
            if modern:
                negotiated, error = await self._discover(modern, legacy)
                if negotiated is not None:
                    self._negotiated = negotiated
                    return negotiated
                assert error is not None
                if not legacy:
                    raise error
                fell_back = _describe(error)
            self._negotiated = await self._initialize(legacy, fell_back)
            return self._negotiated
        except BaseException:
            await self.close()
            raise

    def _attach(self, label: str) -> None:
        module = _module(label)
        self._module = module
        calls: dict[str, dispatch.Handler] = {}
        for method, row in module.METHOD_TABLE.items():
            if row.get("status") != "present":
                continue
            calls[method] = self._request_call(method, label) if row.get("kind") == "request" else self._notification_call(method)
        self._dispatcher = module.create_client_dispatcher(calls, on_error=lambda failure: self._on_error(failure["error"]))

    def _request_call(self, method: str, label: str) -> dispatch.Handler:
        def call(params: object, context: object) -> object:
            handler = self._handlers.get(method)
            if handler is None:
                raise dispatch.PeerError(dispatch.METHOD_NOT_FOUND, f"Method not found: no handler for {method} (protocol version {label})")
            return handler(params, context)

        return call

    def _notification_call(self, method: str) -> dispatch.Handler:
        def call(params: object, context: object) -> object:
            handler = self._handlers.get(method)
            return None if handler is None else handler(params, context)

        return call

    async def _discover(self, modern: list[str], legacy: list[str]) -> tuple[Negotiated | None, BaseException | None]:
        version = modern[0]
        for attempt in range(2):
            try:
                raw = await self._wire(version, "server/discover", self._envelope(version, {}), self._discover_timeout if legacy else self._timeout)
            except dispatch.JsonRpcError as error:
                supported = _object(error.data).get("supported")
                common = [v for v in modern if isinstance(supported, list) and v in supported]
                if error.code == UNSUPPORTED_PROTOCOL_VERSION and common and attempt == 0:
                    version = common[0]
                    continue
                return None, ClientError("negotiation", f"server/discover failed: {_describe(error)}")
            except ClientError as error:
                return None, ClientError("negotiation", f"server/discover failed: {_describe(error)}")
            except Exception as error:  # noqa: BLE001 - a transport failure: fall back, or raise an auth refusal
                if getattr(error, "status", None) in (401, 403):
                    raise
                return None, ClientError("negotiation", f"server/discover failed: {_describe(error)}")
            try:
                result = self._check_result(version, "server/discover", raw)
            except ClientError as error:
                return None, error
            supported = result.get("supportedVersions")
            chosen = next((v for v in modern if isinstance(supported, list) and v in supported), None)
            if chosen is None:
                shown = ", ".join(str(v) for v in cast(list[object], supported)) if isinstance(supported, list) else "no version"
                return None, ClientError("negotiation", f"the server supports {shown or 'no version'}; this client offers {', '.join(modern)} (modern)")
            self._attach(chosen)
            meta = result.get("_meta")
            info = result.get("serverInfo")
            if not _is_object(info) and isinstance(meta, dict):
                info = cast(dict[str, object], meta).get(META_SERVER_INFO)
            capabilities = result.get("capabilities")
            instructions = result.get("instructions")
            return (
                Negotiated(
                    protocol_version=chosen,
                    era="modern",
                    server_capabilities=cast(JsonObject, capabilities) if _is_object(capabilities) else {},
                    server_info=cast(JsonObject, info) if _is_object(info) else None,
                    instructions=instructions if isinstance(instructions, str) else None,
                    fell_back=None,
                ),
                None,
            )
        return None, ClientError("negotiation", "server/discover: no common version")

    async def _initialize(self, legacy: list[str], fell_back: str | None) -> Negotiated:
        offered = legacy[0]
        params = {"protocolVersion": offered, "capabilities": self._capabilities, "clientInfo": self._client_info}
        raw = await self._wire(offered, "initialize", params, self._timeout)
        answered = _object(raw).get("protocolVersion")
        if not isinstance(answered, str) or answered not in legacy:
            raise ClientError(
                "negotiation",
                f"the server answered initialize with protocol version {answered!r}, which this client does not offer (offered: {', '.join(legacy)})",
            )
        result = self._check_result(answered, "initialize", raw)
        self._attach(answered)
        assert self._transport is not None
        await self._transport.send({"jsonrpc": "2.0", "method": "notifications/initialized"}, OutgoingInfo(answered, "legacy"))
        await self._transport.session_started(answered)
        capabilities, info, instructions = result.get("capabilities"), result.get("serverInfo"), result.get("instructions")
        return Negotiated(
            protocol_version=answered,
            era="legacy",
            server_capabilities=cast(JsonObject, capabilities) if _is_object(capabilities) else {},
            server_info=cast(JsonObject, info) if _is_object(info) else None,
            instructions=instructions if isinstance(instructions, str) else None,
            fell_back=fell_back,
        )

    def _envelope(self, label: str, params: JsonObject) -> JsonObject:
        """Params with the 2026-07-28 ``_meta`` envelope (the caller's own ``_meta`` keys kept)."""
        given = params.get("_meta")
        meta = dict(cast(JsonObject, given)) if isinstance(given, dict) else {}
        meta.update({META_PROTOCOL_VERSION: label, META_CLIENT_CAPABILITIES: self._capabilities, META_CLIENT_INFO: self._client_info})
        return {**params, "_meta": meta}

    # --- requests ---

    def _connected(self) -> _Version:
        if self._closed:
            raise ClientError("closed", "the client is closed")
        if self._module is None or self._negotiated is None:
            raise ClientError("not-connected", "connect the client first")
        return self._module

    def _row(self, module: _Version, method: str, kind: str) -> Mapping[str, object]:
        label = module.PROTOCOL_VERSION
        row = module.METHOD_TABLE.get(method)
        if row is None or row.get("kind") != kind:
            raise ClientError("unknown-method", f"{method} is not a {kind} of protocol version {label}")
        if row.get("status") != "present":
            nearest = row.get("nearest")
            raise ClientError("unknown-method", f"{method} is {row.get('status')} at {label}" + ("" if nearest is None else f" (nearest version that has it: {nearest})"))
        if row.get("sender") == "server":
            raise ClientError("unknown-method", f"{method} is sent by servers, not clients, at {label}")
        return row

    async def request(
        self,
        method: str,
        params: Mapping[str, Any] | None = None,
        *,
        timeout: float | None | Literal["default"] = "default",
        on_progress: Callable[[JsonObject], object] | None = None,
    ) -> JsonObject:
        """Send a request at the negotiated version: checked (method, capability, params), its result normalized
        and validated; 2026-07-28 input-required rounds answered and retried. ``timeout`` in seconds (None: none)."""
        module = self._connected()
        label = module.PROTOCOL_VERSION
        row = self._row(module, method, "request")
        assert self._negotiated is not None
        for keys in cast(tuple[tuple[str, ...], ...], row.get("capabilities", ())):
            if not declares(self._negotiated.server_capabilities, keys):
                raise ClientError("capability", f"the server does not offer {method} at {label}: its capabilities do not declare {'.'.join(keys)}")
        base: JsonObject = dict(params or {})
        current = base
        for round_ in range(self._max_input_rounds + 1):
            raw = await self._send(module, method, current, timeout, on_progress)
            result = self._check_result(label, method, raw)
            if module.ERA == "modern" and result.get("resultType") == INPUT_REQUIRED:
                if round_ >= self._max_input_rounds:
                    break
                answers = await self._answer_inputs(label, result.get("inputRequests"))
                current = {**base, "inputResponses": answers}
                if "requestState" in result:
                    current["requestState"] = result["requestState"]
                continue
            if method == "tools/list":
                return self._keep_tools(module, result)
            if method == "tools/call" and isinstance(base.get("name"), str):
                self._check_structured(cast(str, base["name"]), result)
            return result
        raise ClientError("input-required", f"{method}: the server still asks for input after {self._max_input_rounds} rounds (max_input_rounds)")

    async def notify(self, method: str, params: Mapping[str, Any] | None = None) -> None:
        """Send a notification a client sends at the negotiated version."""
        module = self._connected()
        self._row(module, method, "notification")
        message: JsonObject = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = dict(params)
        assert self._transport is not None
        await self._transport.send(message, OutgoingInfo(module.PROTOCOL_VERSION, cast(Era, module.ERA)))

    async def pages(self, method: str, params: Mapping[str, Any] | None = None, *, timeout: float | None | Literal["default"] = "default") -> AsyncIterator[JsonObject]:
        """Every page of a paginated list (the table's ``paginated`` column), following ``nextCursor``."""
        module = self._connected()
        row = self._row(module, method, "request")
        if row.get("paginated") is not True:
            raise ClientError("unknown-method", f"{method} is not a paginated list at {module.PROTOCOL_VERSION}")
        seen: set[str] = set()
        given = dict(params or {})
        while True:
            page = await self.request(method, given, timeout=timeout)
            yield page
            cursor = page.get("nextCursor")
            if not isinstance(cursor, str):
                return
            if cursor in seen:
                raise ClientError("invalid-result", f"{method}: the server sent the cursor {cursor!r} twice; stopped paging", ["/nextCursor"])
            seen.add(cursor)
            given = {**given, "cursor": cursor}

    def _params_adapter(self, label: str, method: str) -> TypeAdapter[Any] | None:
        key = (label, method, "params")
        if key not in self._adapters:
            module = _module(label)
            # A version whose schema inlines its params (the table names no definition) is checked too.
            self._adapters[key] = dispatch.params_adapter(module.DEFINITIONS, module.METHOD_TABLE[method], method)
        return self._adapters[key]

    def _result_adapter(self, label: str, method: str) -> TypeAdapter[Any] | None:
        key = (label, method, "result")
        if key not in self._adapters:
            module = _module(label)
            names = cast(tuple[str, ...], module.METHOD_TABLE[method].get("results") or ())
            types = [module.DEFINITIONS[n] for n in names if n in module.DEFINITIONS]
            union: Any = None
            for t in types:
                union = t if union is None else union | t
            self._adapters[key] = None if union is None else TypeAdapter(union)
        return self._adapters[key]

    async def _send(
        self, module: _Version, method: str, params: JsonObject, timeout: float | None | Literal["default"], on_progress: Callable[[JsonObject], object] | None
    ) -> object:
        label = module.PROTOCOL_VERSION
        rid = self._next_id
        self._next_id += 1
        sent = params
        if on_progress is not None:
            given = sent.get("_meta")
            sent = {**sent, "_meta": {**(cast(JsonObject, given) if isinstance(given, dict) else {}), META_PROGRESS_TOKEN: rid}}
        if module.ERA == "modern":
            sent = self._envelope(label, sent)
        adapter = self._params_adapter(label, method)
        if adapter is not None:
            try:
                adapter.validate_python(sent)
            except ValidationError as error:
                raise ClientError("invalid-params", f"invalid params for {method} at {label}: {dispatch.issue_paths(error)}", _pointers(error, "/params")) from None
        return await self._wire(label, method, sent, self._timeout if timeout == "default" else timeout, on_progress, rid)

    async def _wire(
        self,
        label: str,
        method: str,
        params: JsonObject,
        timeout: float | None,
        on_progress: Callable[[JsonObject], object] | None = None,
        rid: RequestId | None = None,
    ) -> object:
        """One request on the wire: its raw result; the error answer as a JsonRpcError; cancelled as the caller is."""
        transport = self._transport
        if transport is None or self._closed:
            raise ClientError("closed", "the client is closed")
        if rid is None:
            rid = self._next_id
            self._next_id += 1
        module = _module(label)
        row = module.METHOD_TABLE.get(method, {})
        era = cast(Era, module.ERA)
        future: asyncio.Future[object] = asyncio.get_running_loop().create_future()
        self._pending[rid] = _Pending(future, on_progress)
        name = params.get("name")
        info = OutgoingInfo(
            protocol_version=label,
            era=era,
            name_param=cast(str | None, row.get("nameParam")),
            input_schema=self._tool_schemas.get(name) if era == "modern" and method == "tools/call" and isinstance(name, str) else None,
        )
        reason = "cancelled"
        try:
            try:
                await transport.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params}, info)
            except Exception:
                # Not sent (or refused at once, an HTTP status): nothing to cancel.
                self._pending.pop(rid, None)
                raise
            if timeout is None:
                return await asyncio.shield(future)
            try:
                async with asyncio.timeout(timeout):
                    return await asyncio.shield(future)
            except TimeoutError:
                reason = f"{method} timed out after {timeout} s"
                raise ClientError("timeout", reason) from None
        finally:
            pending = self._pending.pop(rid, None)
            if pending is not None and not future.done():
                future.cancel()
                self._end_nested(rid)
                transport.abandon(rid)
                if not self._closed:
                    cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": rid, "reason": reason}}
                    with contextlib.suppress(Exception):
                        await asyncio.shield(transport.send(cancel, OutgoingInfo(label, era)))
            elif future.done() and future.exception() is not None:
                self._end_nested(rid)

    def _check_result(self, label: str, method: str, raw: object) -> JsonObject:
        """A raw result normalized, then validated, with the version's code; a ClientError naming the failing pointers."""
        try:
            result = _module(label).normalize_result(method, raw)
        except Exception as error:  # noqa: BLE001 - the normalizer's refusal: not an object
            raise ClientError("invalid-result", f"the {method} result is not an object: {_describe(error)}", [""]) from None
        adapter = self._result_adapter(label, method)
        if adapter is not None:
            try:
                adapter.validate_python(result)
            except ValidationError as error:
                raise ClientError("invalid-result", f"the {method} result is not valid at {label}: {dispatch.issue_paths(error)}", _pointers(error)) from None
        return result

    def _keep_tools(self, module: _Version, result: JsonObject) -> JsonObject:
        tools = result.get("tools")
        listed = cast(list[object], tools) if isinstance(tools, list) else []
        kept: list[object] = listed
        if module.ERA == "modern":
            kept = []
            for tool in listed:
                problem = invalid_header_designation(tool)
                if problem is None:
                    kept.append(tool)
                else:
                    name = cast(dict[str, object], tool).get("name") if isinstance(tool, dict) else None
                    self._on_error(ClientError("invalid-result", f"left out tool {name!r}: {problem}"))
        for tool in kept:
            if not isinstance(tool, dict):
                continue
            t = cast(dict[str, object], tool)
            name = t.get("name")
            if not isinstance(name, str):
                continue
            self._tool_schemas[name] = t.get("inputSchema")
            if isinstance(t.get("outputSchema"), dict):
                self._output_schemas[name] = t["outputSchema"]
            else:
                self._output_schemas.pop(name, None)
        return result if len(kept) == len(listed) else {**result, "tools": kept}

    def _check_structured(self, name: str, result: JsonObject) -> None:
        """A tools/call result's structuredContent against the tool's outputSchema (jsonschema, imported on first use)."""
        schema = self._output_schemas.get(name)
        if not self._validate_structured or result.get("isError") is True or schema is None:
            return
        if "structuredContent" not in result:
            raise ClientError("invalid-result", f"tool {name!r} declares an outputSchema but its result has no structuredContent", ["/structuredContent"])
        try:
            jsonschema: Any = importlib.import_module("jsonschema")
            validator: Any = jsonschema.validators.validator_for(schema)(schema)
            errors: list[Any] = sorted(validator.iter_errors(result["structuredContent"]), key=lambda e: list(e.absolute_path))
        except Exception as error:  # noqa: BLE001 - no jsonschema, or a schema it cannot read: passed on unchecked
            self._on_error(ClientError("invalid-result", f"tool {name!r}: its outputSchema cannot be checked here ({_describe(error)}); structuredContent passed on unchecked"))
            return
        if errors:
            pointers = ["/structuredContent" + "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in e.absolute_path) for e in errors]
            raise ClientError("invalid-result", f"tool {name!r}: structuredContent does not match its outputSchema: {errors[0].message}", pointers)

    async def _answer_inputs(self, label: str, requests: object) -> JsonObject:
        """The answers to a 2026-07-28 result's inputRequests, from the client's handlers, each validated as an InputResponse."""
        module = _module(label)
        out: JsonObject = {}
        for key, request in _object(requests).items():
            r = _object(request)
            method = r.get("method")
            handler = self._handlers.get(method) if isinstance(method, str) else None
            if not isinstance(method, str) or handler is None:
                raise ClientError("input-required", f"the server asks for {method if isinstance(method, str) else '(no method)'} ({key}), which this client has no handler for")
            params = r.get("params")
            model: object = params
            row = module.METHOD_TABLE.get(method)
            if row is not None and row.get("status") == "present":
                adapter = self._params_adapter(label, method)
                if adapter is not None:
                    try:
                        model = adapter.validate_python(params)
                    except ValidationError as error:
                        raise ClientError("input-required", f"the server's {method} input request {key} has invalid params", _pointers(error, "/params")) from None
            meta = _object(params).get("_meta")
            answer = await dispatch.call_handler(handler, model, InputContext(key, cast(JsonObject, meta) if isinstance(meta, dict) else None, label))
            try:
                dumped = runtime.object_result(answer, method, "InputResponse", None)
            except Exception as error:  # noqa: BLE001 - a handler's answer that is no object
                raise ClientError("invalid-result", f"the {method} handler's answer to {key} is not an object: {_describe(error)}", [""]) from None
            schema = module.DEFINITIONS.get("InputResponse")
            if schema is not None:
                try:
                    TypeAdapter(cast(Any, schema)).validate_python(dumped)
                except ValidationError as error:
                    raise ClientError("invalid-result", f"the {method} handler's answer to {key} is not a valid InputResponse", _pointers(error)) from None
            out[key] = dumped
        return out

    # --- what arrives ---

    def _receive(self, message: object, related: RequestId | None) -> None:
        if self._closed:
            return
        envelope = dispatch.read_envelope(message)
        if envelope.kind == "response":
            pending = None if envelope.id is None else self._pending.get(envelope.id)
            if pending is None or pending.future.done():
                return
            m = cast(dict[str, object], message)
            if "error" in m:
                e = cast(dict[str, object], m["error"]) if isinstance(m["error"], dict) else {}
                code = e.get("code")
                text = e.get("message")
                pending.future.set_exception(
                    dispatch.JsonRpcError(code if isinstance(code, int) else dispatch.INTERNAL_ERROR, text if isinstance(text, str) else "Error", e.get("data"))
                )
            else:
                pending.future.set_result(m.get("result"))
            return
        if envelope.kind == "invalid":
            self._on_error(ClientError("invalid-result", f"the server sent an invalid message: {envelope.reason}"))
            return
        taken = False
        params: JsonObject | None = cast(JsonObject, envelope.params) if _is_object(envelope.params) else None
        if envelope.kind == "notification" and envelope.method == "notifications/progress" and params is not None:
            token = params.get(META_PROGRESS_TOKEN)
            pending = self._pending.get(token) if isinstance(token, (str, int)) else None
            if pending is not None and pending.on_progress is not None:
                taken = True
                try:
                    pending.on_progress(params)
                except Exception as error:  # noqa: BLE001 - the caller's callback
                    self._on_error(error)
        if envelope.kind == "notification" and not taken and self._catch_all is not None and envelope.method not in self._handlers:
            try:
                value = self._catch_all(envelope.method, params)
                if inspect.isawaitable(value):
                    self._spawn(cast(Awaitable[object], value), None)
            except Exception as error:  # noqa: BLE001 - the caller's callback
                self._on_error(error)
        dispatcher, module = self._dispatcher, self._module
        if dispatcher is None or module is None:
            if envelope.kind == "request":
                self._spawn(self._reply(dispatch.error_response(envelope.id, dispatch.INVALID_REQUEST, "the client is not connected yet")), None)
            return
        if envelope.kind == "notification":
            self._spawn(dispatcher.handle(message, self._scope, peer=_PeerOf(self, module.PROTOCOL_VERSION)), None)
            return
        nested = related if related is not None and related in self._pending else None

        async def answer() -> None:
            response = await dispatcher.handle(message, self._scope, peer=_PeerOf(self, module.PROTOCOL_VERSION))
            if response is not None and not self._closed:
                await self._reply(response)

        self._spawn(answer(), nested)

    def _spawn(self, work: Awaitable[object], nested: RequestId | None) -> None:
        task: asyncio.Task[object] = asyncio.ensure_future(work)
        self._handling[task] = nested

        def done(t: asyncio.Task[object]) -> None:
            self._handling.pop(t, None)
            if not t.cancelled() and t.exception() is not None:
                self._on_error(cast(BaseException, t.exception()))

        task.add_done_callback(done)

    def _end_nested(self, rid: RequestId) -> None:
        """The client's request ``rid`` ended unanswered: the server's requests nested in it stop."""
        for task, nested in list(self._handling.items()):
            if nested == rid:
                task.cancel()

    async def _reply(self, response: Mapping[str, Any]) -> None:
        transport, module = self._transport, self._module
        if transport is None:
            return
        try:
            await transport.send(response, OutgoingInfo(None if module is None else module.PROTOCOL_VERSION, None if module is None else cast(Era, module.ERA)))
        except Exception as error:  # noqa: BLE001 - told, not raised: nothing awaits a reply
            self._on_error(error)

    def _lost(self, error: BaseException | None) -> None:
        """The transport is gone: every pending request fails, every running handler is cancelled."""
        self._closed = True
        reason = ClientError("closed", "the connection closed" + ("" if error is None else f": {_describe(error)}"))
        for pending in list(self._pending.values()):
            if not pending.future.done():
                pending.future.set_exception(reason)
        for task in list(self._handling):
            task.cancel()

    async def close(self) -> None:
        """Close the transport; pending requests fail, running handlers are cancelled, nothing more is handled."""
        transport = self._transport
        if transport is None:
            return
        self._lost(None)
        await transport.close()

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


class _ReceiverOf:
    """The client as its transport's receiver."""

    def __init__(self, client: Client) -> None:
        self._client = client

    def message(self, message: object, related: RequestId | None = None) -> None:
        self._client._receive(message, related)  # pyright: ignore[reportPrivateUsage]

    def closed(self, error: BaseException | None = None) -> None:
        self._client._lost(error)  # pyright: ignore[reportPrivateUsage]

    def problem(self, error: BaseException) -> None:
        self._client._on_error(error)  # pyright: ignore[reportPrivateUsage]

    def request_failed(self, request_id: RequestId, error: BaseException) -> None:
        pending = self._client._pending.get(request_id)  # pyright: ignore[reportPrivateUsage]
        if pending is not None and not pending.future.done():
            pending.future.set_exception(error)


class _PeerOf:
    """A handler's way back to the server: its nested requests and notifications."""

    def __init__(self, client: Client, label: str) -> None:
        self._client = client
        self._label = label

    async def notify(self, method: str, params: Mapping[str, Any] | None, related_request_id: RequestId) -> None:
        transport = self._client._transport  # pyright: ignore[reportPrivateUsage]
        if transport is None:
            return
        message: JsonObject = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = dict(params)
        era = cast(Era, _module(self._label).ERA)
        await transport.send(message, OutgoingInfo(self._label, era))

    async def request(self, method: str, params: Mapping[str, Any] | None, related_request_id: RequestId) -> object:
        return await self._client._wire(self._label, method, dict(params or {}), self._client._timeout)  # pyright: ignore[reportPrivateUsage]
