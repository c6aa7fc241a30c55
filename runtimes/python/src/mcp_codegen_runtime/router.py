"""The version router of a server (asyncio): which served version's dispatcher answers a message.

Hand-written Python, the mirror of TypeScript's router (runtimes/typescript/src/router*.ts);
the generator copies it as ``router.py`` of the Python tree. The version modules are found through the
package's ``version(label)`` and ``VERSION_MODULES`` (never imported statically), and extension modules
through the package's ``EXTENSION_MODULES`` (label → identifier → module name), when it has one. Building
the router imports none of them (the eras come from the package's ``VERSION_ERAS``): a version's module,
its extension modules and its dispatchers are made on first use, when a connection negotiates the version
or a modern request names it.

- Legacy era: a connection (``connect(send)``) chooses its version at ``initialize`` (the client's if
  served, else the newest served legacy version; nothing is committed until the answer is a result) and
  keeps that version's dispatcher until it closes. The router answers ``initialize`` itself; before it
  only ``ping`` is answered, anything else is -32600. ``logging/setLevel`` sets the connection's log
  level; ``resources/subscribe``/``unsubscribe`` and the version's ``listChanged`` capabilities decide
  what ``publish`` sends it. Handlers reach the client through ``context.notify``/``context.request``
  (sampling, elicitation), carried by ``send`` with the id of the request they are about when ``send``
  takes ``related_request_id`` (``RelatedSend``); the client's answers come back through ``handle``.
- Modern era (``handle(message, exchange)``): every request names its version in
  ``params._meta["io.modelcontextprotocol/protocolVersion"]`` (with its client capabilities) and is
  answered by that version's dispatcher, made once; an unserved version gets -32022 with the served ones.
  The router answers ``server/discover`` and ``subscriptions/listen`` itself. A request that negotiates a
  served extension is answered by the extension module's dispatcher; an extension's method on a request
  that does not negotiate it gets -32021.
- Which methods a version serves is its METHOD_TABLE's verdict, given by the dispatcher the router hands
  the message to (``runtime.gate``); the router decides no verdict of its own.
- ``notifications/message`` goes out only at or above the client's log level: the level set with
  ``logging/setLevel`` (legacy; everything before that) or ``_meta["io.modelcontextprotocol/logLevel"]``
  of the request (modern; nothing when absent).
- ``handle`` never raises; a transport gives a request up by cancelling the task awaiting it (nothing is
  answered). ``notifications/cancelled`` cancels by request id within the same ``scope``.
"""

from __future__ import annotations

import asyncio
import importlib
import inspect
import json
import sys
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal, Protocol, cast, runtime_checkable

from pydantic import BaseModel

from . import protocol, runtime
from .dispatcher import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    CustomMethods,
    Dispatcher,
    Failure,
    Handler,
    JsonRpcError,
    MethodValidator,
    OnError,
    PeerError,
    RequestContext,
    RequestId,
    check_custom_methods,
    error_response,
    read_envelope,
    with_custom_methods,
    with_validators,
)

Era = Literal["legacy", "modern"]

Send = Callable[[dict[str, Any]], Awaitable[None]]
"""Carries server→client messages (notifications, requests) to the client: ``send(message)``."""


class RelatedSend(Protocol):
    """A ``Send`` that is also told which request a message belongs to (TypeScript's ``Send``'s second argument):
    ``related_request_id`` is the id of the client's request being handled when a handler sends the message
    (``context.notify``/``context.request``), None for the server's own (``publish``). A transport puts a message
    about a request on that request's stream (the HTTP transport: its POST's), the others on its own. ``connect``
    passes it to a callable that takes a ``related_request_id`` keyword (or ``**kwargs``); a plain ``Send`` is
    called with the message alone, as before."""

    def __call__(self, message: dict[str, Any], *, related_request_id: RequestId | None = None) -> Awaitable[None]: ...


class Fanout(Protocol):
    """How ``publish`` reaches other processes serving the same clients (several instances behind a load balancer,
    e.g. ``redis.create_redis_fanout``): each publishes what its router publishes and delivers what the others do."""

    async def publish(self, method: str, params: Mapping[str, Any] | None) -> None:
        """Hand a notification to the other processes; raise when it cannot (the local delivery is done already)."""
        ...

    def subscribe(self, receive: Callable[[str, Mapping[str, Any] | None], None]) -> Callable[[], None]:
        """Receive the other processes' notifications (never this process's own) until the returned function is called."""
        ...


def takes_related(send: object) -> bool:
    """Whether ``send`` takes the ``related_request_id`` keyword (by name, or through ``**kwargs``)."""
    try:
        parameters = inspect.signature(cast(Callable[..., object], send)).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(
        p.kind is inspect.Parameter.VAR_KEYWORD
        or (p.name == "related_request_id" and p.kind in (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD))
        for p in parameters
    )


def related_send(send: Send | RelatedSend) -> RelatedSend:
    """``send`` as a RelatedSend: itself when it takes ``related_request_id``, else a wrapper that drops it."""
    if takes_related(send):
        return cast(RelatedSend, send)
    plain = cast(Send, send)

    async def dropping(message: dict[str, Any], *, related_request_id: RequestId | None = None) -> None:
        await plain(message)

    return dropping

META_PROTOCOL_VERSION: Final = protocol.META_PROTOCOL_VERSION
META_CLIENT_CAPABILITIES: Final = protocol.META_CLIENT_CAPABILITIES
META_LOG_LEVEL: Final = protocol.META_LOG_LEVEL
META_SERVER_INFO: Final = protocol.META_SERVER_INFO
META_SUBSCRIPTION_ID: Final = protocol.META_SUBSCRIPTION_ID

HEADER_MISMATCH: Final = protocol.HEADER_MISMATCH
MISSING_REQUIRED_CLIENT_CAPABILITY: Final = protocol.MISSING_REQUIRED_CLIENT_CAPABILITY
UNSUPPORTED_PROTOCOL_VERSION: Final = protocol.UNSUPPORTED_PROTOCOL_VERSION
LIMIT_REACHED: Final = protocol.SERVER_ERROR
"""The code a bound answers with (as the Tasks extension's bounds: an implementation-defined server error)."""

MAX_LISTEN_STREAMS_PER_PRINCIPAL: Final = 16
MAX_LISTEN_STREAMS: Final = 10_000

LIST_CHANGED_METHODS: Final = (
    "notifications/tools/list_changed",
    "notifications/prompts/list_changed",
    "notifications/resources/list_changed",
)
_FILTER_KEYS: Final = {
    "notifications/tools/list_changed": "toolsListChanged",
    "notifications/prompts/list_changed": "promptsListChanged",
    "notifications/resources/list_changed": "resourcesListChanged",
}
LOG_LEVELS: Final = protocol.LOG_LEVELS
"""LoggingLevel, least severe first: the protocol module's order (reviewed prose)."""


class ConnectionInfo:
    """What a legacy connection knows about itself; handed to handler factories.

    The factory's ConnectionInfo reads its connection as it is now (as TypeScript's getters): a handler that
    keeps it sees the version once the connection is initialized."""

    def __init__(
        self, protocol_version: str | None = None, initialize_params: Mapping[str, Any] | None = None, *, live: LegacyConnection | None = None
    ) -> None:
        self._protocol_version = protocol_version
        self._initialize_params = initialize_params
        self._live = live

    @property
    def protocol_version(self) -> str | None:
        """The version chosen at ``initialize``, None before."""
        return self._live.protocol_version if self._live is not None else self._protocol_version

    @property
    def initialize_params(self) -> Mapping[str, Any] | None:
        """The ``params`` of the client's ``initialize`` request, None before."""
        return self._live.initialize_params if self._live is not None else self._initialize_params


Handlers = Mapping[str, Handler]
HandlerFactory = Callable[[ConnectionInfo], Mapping[str, Handler]]


class ServedExtension(Protocol):
    """One extension a modern version serves (Tasks), as TypeScript's ServedExtension (router-extensions.ts).

    - ``identifier``: the extension's (``io.modelcontextprotocol/tasks``).
    - ``handlers``: of the methods the extension adds (``tasks/get``, ...), and of core methods it changes
      (these answer the method for every request of the version, negotiated or not).
    - ``capabilities``: advertised by ``server/discover`` under ``capabilities.extensions[identifier]``.
    - ``resolve``: what a handler's return value means (Tasks: a task handle becomes a stored task and its
      CreateTaskResult); called for every handler of ``handlers`` with the method, the value, the context,
      whether the request negotiates the extension, and the method's ``resultTypes`` of the extension
      module's METHOD_TABLE (None when it has none). May be async.

    Optionally (see ``ListeningExtension``) ``listen``: its part of a ``subscriptions/listen`` filter.
    """

    @property
    def identifier(self) -> str: ...
    @property
    def handlers(self) -> Mapping[str, Handler]: ...
    @property
    def capabilities(self) -> Mapping[str, Any]: ...
    def resolve(
        self, method: str, value: object, context: RequestContext, negotiated: bool, result_types: tuple[str, ...] | None
    ) -> Awaitable[object] | object: ...


Deliver = Callable[[str, Mapping[str, Any] | None], Awaitable[None]]


@dataclass(frozen=True)
class ListenPart:
    """An extension's part of a listen stream: what it honors (merged into the acknowledged filter) and ``stop``."""

    honored: Mapping[str, Any]
    stop: Callable[[], None]


@runtime_checkable
class ListeningExtension(Protocol):
    """A ServedExtension that takes part in ``subscriptions/listen`` (Tasks: ``taskIds``, ``notifications/tasks``).

    ``listen`` gets the requested SubscriptionFilter, ``deliver`` (sends a notification on the stream),
    whether the request negotiates the extension, and the context; it returns its part, or None."""

    async def listen(
        self, notifications: Mapping[str, Any], deliver: Deliver, negotiated: bool, context: RequestContext
    ) -> ListenPart | None: ...


class ExtensionModule(Protocol):
    """What an extension module of a version gives the router (as TypeScript's RoutedExtension)."""

    @property
    def METHOD_TABLE(self) -> Mapping[str, Mapping[str, object]]: ...  # noqa: N802 - the module's constant
    def create_server_dispatcher(
        self, handlers: Mapping[str, Handler], *, on_error: OnError | None = None, validate_results: bool = True
    ) -> Dispatcher: ...


class _VersionModule(Protocol):
    @property
    def ERA(self) -> str: ...  # noqa: N802
    @property
    def DISCOVER_SERVER_INFO(self) -> str | None: ...  # noqa: N802
    @property
    def METHOD_TABLE(self) -> Mapping[str, Mapping[str, object]]: ...  # noqa: N802
    @property
    def CUSTOM_RESULT_TYPES(self) -> tuple[str, ...] | None: ...  # noqa: N802
    def create_server_dispatcher(
        self, handlers: Mapping[str, Handler], *, on_error: OnError | None = None, validate_results: bool = True
    ) -> Dispatcher: ...


@dataclass(frozen=True)
class Served:
    """One served version: its handlers (or a factory, called once per legacy connection), capabilities, options."""

    handlers: Mapping[str, Handler] | Callable[[ConnectionInfo], Mapping[str, Handler]]
    """Method → ``handler(params, context)``, sync or async; the router's own methods are left out."""
    capabilities: Mapping[str, Any]
    """The ServerCapabilities of this version (``initialize``'s result, ``server/discover``'s)."""
    extensions: Mapping[str, ServedExtension] = field(default_factory=lambda: {})
    """Modern versions: the extensions served, by identifier."""
    on_error: OnError | None = None
    """This version's dispatcher's error hook; default: the router's."""
    validate_results: bool = True
    custom: CustomMethods = field(default_factory=lambda: {})
    """Custom methods of this version (``dispatcher.CustomRequest``/``CustomNotification`` by method name), served
    beside its own (and its extension modules') with the same rules; one whose name the version's METHOD_TABLE
    has is a ValueError when the router is built (which imports that version's module)."""
    validators: Mapping[str, MethodValidator] = field(default_factory=lambda: {})
    """Validation hooks by method (``dispatcher.MethodValidator``), custom methods' too: a method's hook replaces its
    schema validation, in the version's dispatcher and its extension modules'."""


@dataclass(frozen=True)
class Exchange:
    """What a transport passes with one message (both eras)."""

    send: Send | None = None
    """Carries notifications about this request (progress, logs, the listen stream); modern era."""
    scope: object | None = None
    """The peer (one object per stdio connection / HTTP session): ``notifications/cancelled`` reaches
    only requests of the same scope."""
    auth: Mapping[str, Any] | None = None
    """The verified caller, if any (``context.auth``)."""
    principal: str | None = None
    """Whom the request is for (``context.principal``; tasks are bound to it). Default: from ``auth``."""


_NO_EXCHANGE: Final = Exchange()


def principal_of(auth: Mapping[str, Any] | None) -> str | None:
    """The principal a task or session is bound to: the token's subject, else its client (as TypeScript's)."""
    if auth is None:
        return None
    subject = auth.get("subject")
    if subject is not None:
        return f"sub:{subject}"
    return f"client:{auth.get('clientId')}"


def _principal(exchange: Exchange) -> str | None:
    return exchange.principal if exchange.principal is not None else principal_of(exchange.auth)


def _own(value: object, key: str) -> object:
    """A member of a dict, else None."""
    if isinstance(value, dict):
        return cast(dict[str, object], value).get(key)
    return None


def _params_of(message: object) -> dict[str, Any] | None:
    params = _own(message, "params")
    return cast(dict[str, Any], params) if isinstance(params, dict) else None


def _meta_of(params: object) -> dict[str, Any] | None:
    meta = _own(params, "_meta")
    return cast(dict[str, Any], meta) if isinstance(meta, dict) else None


def _plain(params: object) -> dict[str, Any]:
    """Params as a dict: a params model dumped with its wire names (only what was given), a dict as it is."""
    if isinstance(params, BaseModel):
        return params.model_dump(mode="json", by_alias=True, exclude_unset=True)
    if isinstance(params, dict):
        return cast(dict[str, Any], params)
    return {}


def notification_message(method: str, params: Mapping[str, Any] | None) -> dict[str, Any]:
    """A notification to send: ``params`` left out when there are none."""
    if params is None:
        return {"jsonrpc": "2.0", "method": method}
    return {"jsonrpc": "2.0", "method": method, "params": dict(params)}


def _shown(value: object) -> str:
    """A value from a message, as text for an error's data."""
    if isinstance(value, str):
        return value
    return runtime.as_json(value)


def _level_index(level: object) -> int:
    return LOG_LEVELS.index(level) if isinstance(level, str) and level in LOG_LEVELS else -1


def batches_served(version: str | None) -> bool:
    """Whether a connection at ``version`` (None: before ``initialize``) is served a JSON-RPC batch: the version's
    schema defines batches (the protocol module's per-version ``batches`` fact). One rule for stdio and HTTP
    (test/scenarios/ states it)."""
    if version is None:
        return False
    facts = cast(Mapping[str, Mapping[str, object]], protocol.VERSIONS).get(version)
    return facts is not None and facts.get("batches") is True


# --- The outgoing channels ---


class PeerChannel:
    """An outgoing channel over a ``send`` function: numbers the requests it sends (``s0``, ``s1``, ...)
    and matches the responses handed to ``receive``. Requests pending at ``close`` fail with -32603. Each
    message goes with the id of the request it is about (``related_request_id``) when ``send`` takes it."""

    def __init__(self, send: Send | RelatedSend) -> None:
        self._send = related_send(send)
        self._next = 0
        self._pending: dict[RequestId, asyncio.Future[object]] = {}

    @property
    def pending(self) -> int:
        return len(self._pending)

    async def notify(self, method: str, params: Mapping[str, Any] | None, related_request_id: RequestId) -> None:
        await self._send(notification_message(method, params), related_request_id=related_request_id)

    async def request(self, method: str, params: Mapping[str, Any] | None, related_request_id: RequestId) -> object:
        rid = f"s{self._next}"
        self._next += 1
        future: asyncio.Future[object] = asyncio.get_running_loop().create_future()
        self._pending[rid] = future
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            message["params"] = dict(params)
        try:
            await self._send(message, related_request_id=related_request_id)
            return await future
        finally:
            self._pending.pop(rid, None)

    def receive(self, message: object) -> bool:
        """Take a response to one of our requests: True when it was one (matched or not)."""
        envelope = read_envelope(message)
        if envelope.kind != "response":
            return False
        future = None if envelope.id is None else self._pending.get(envelope.id)
        if future is None or future.done():
            return True
        m = cast(dict[str, Any], message)
        if "error" in m:
            error = m["error"]
            code = _own(error, "code")
            text = _own(error, "message")
            if isinstance(code, int) and not isinstance(code, bool) and isinstance(text, str):
                future.set_exception(JsonRpcError(code, text, _own(error, "data")))
            else:
                future.set_exception(JsonRpcError(INTERNAL_ERROR, "Internal error"))
        else:
            future.set_result(m.get("result"))
        return True

    def close(self, reason: BaseException | None = None) -> None:
        for future in list(self._pending.values()):
            if not future.done():
                future.set_exception(reason if reason is not None else JsonRpcError(INTERNAL_ERROR, "Connection closed"))
        self._pending.clear()


class _NotifyOnly:
    """The modern era's peer: notifications on the request's stream; no server→client request."""

    def __init__(self, send: Send, version: str) -> None:
        self._send = send
        self._version = version

    async def notify(self, method: str, params: Mapping[str, Any] | None, related_request_id: RequestId) -> None:
        await self._send(notification_message(method, params))

    async def request(self, method: str, params: Mapping[str, Any] | None, related_request_id: RequestId) -> object:
        raise JsonRpcError(
            INTERNAL_ERROR,
            f"Internal error: {method} cannot be sent to the client in {self._version}; return an input_required result instead",
        )


class _Peer(Protocol):
    async def notify(self, method: str, params: Mapping[str, Any] | None, related_request_id: RequestId) -> None: ...
    async def request(self, method: str, params: Mapping[str, Any] | None, related_request_id: RequestId) -> object: ...


class _LevelFiltered:
    """A peer that drops ``notifications/message`` below ``threshold()`` (None: drop all; "*": send all)."""

    def __init__(self, peer: _Peer, threshold: Callable[[], str | None]) -> None:
        self._peer = peer
        self._threshold = threshold

    async def notify(self, method: str, params: Mapping[str, Any] | None, related_request_id: RequestId) -> None:
        if method == "notifications/message":
            least = self._threshold()
            if least is None:
                return
            level = None if params is None else params.get("level")
            if least != "*" and (not isinstance(level, str) or _level_index(level) < _level_index(least)):
                return
        await self._peer.notify(method, params, related_request_id)

    async def request(self, method: str, params: Mapping[str, Any] | None, related_request_id: RequestId) -> object:
        return await self._peer.request(method, params, related_request_id)


def modern_threshold(meta: Mapping[str, Any] | None) -> str | None:
    """A modern request's log threshold: its ``_meta`` log level when it is a LoggingLevel, else None (nothing is sent)."""
    level = None if meta is None else meta.get(META_LOG_LEVEL)
    return level if isinstance(level, str) and level in LOG_LEVELS else None


# --- Who takes what publish sends ---


def honored_filter(requested: Mapping[str, Any], capabilities: Mapping[str, Any]) -> dict[str, Any]:
    """The SubscriptionFilter the server honors: the requested types its capabilities support."""

    def flag(name: str, key: str) -> bool:
        c = capabilities.get(name)
        return isinstance(c, dict) and cast(dict[str, object], c).get(key) is True

    honored: dict[str, Any] = {}
    if requested.get("toolsListChanged") is True and flag("tools", "listChanged"):
        honored["toolsListChanged"] = True
    if requested.get("promptsListChanged") is True and flag("prompts", "listChanged"):
        honored["promptsListChanged"] = True
    if requested.get("resourcesListChanged") is True and flag("resources", "listChanged"):
        honored["resourcesListChanged"] = True
    uris = requested.get("resourceSubscriptions")
    if isinstance(uris, list) and flag("resources", "subscribe"):
        honored["resourceSubscriptions"] = [u for u in cast(list[object], uris) if isinstance(u, str)]
    return honored


def wants(filter_: Mapping[str, Any], method: str, params: Mapping[str, Any] | None) -> bool:
    """Whether a subscription of ``filter_`` takes ``method`` with ``params``."""
    if method == "notifications/resources/updated":
        uris = filter_.get("resourceSubscriptions")
        uri = None if params is None else params.get("uri")
        return isinstance(uris, list) and uri in cast(list[object], uris)
    key = _FILTER_KEYS.get(method)
    return key is not None and filter_.get(key) is True


class _Member(Protocol):
    async def deliver(self, method: str, params: Mapping[str, Any] | None) -> None: ...


class _Listener:
    def __init__(self, audience: Audience, filter_: Mapping[str, Any], deliver: Deliver, ended: Callable[[], None]) -> None:
        self.audience = audience
        self.filter = filter_
        self.deliver = deliver
        self._ended = ended

    def end(self) -> None:
        if self not in self.audience.listeners:
            return
        self.audience.listeners.remove(self)
        self._ended()


class Audience:
    """The subscriptions and legacy connections of one router, indexed by what they take."""

    def __init__(self, max_per_principal: int, max_listens: int) -> None:
        self.listeners: list[_Listener] = []
        self._max_per_principal = max_per_principal
        self._max_listens = max_listens
        self._listening = 0
        self._listening_of: dict[str, int] = {}
        self._list_changed: dict[str, list[_Member]] = {}
        self._subscribers: dict[str, list[_Member]] = {}

    def reserve(self, principal: str | None) -> Callable[[], None]:
        """Take a listen stream's place under the bounds, or raise -32000 naming the bound; returns the release."""
        if self._listening >= self._max_listens:
            raise JsonRpcError(LIMIT_REACHED, f"Too many listen streams: {self._max_listens} are open (maxListenStreams)")
        mine = 0 if principal is None else self._listening_of.get(principal, 0)
        if principal is not None and mine >= self._max_per_principal:
            raise JsonRpcError(
                LIMIT_REACHED,
                f"Too many listen streams: {self._max_per_principal} are open for this principal (maxListenStreamsPerPrincipal)",
            )
        self._listening += 1
        if principal is not None:
            self._listening_of[principal] = mine + 1
        released = False

        def release() -> None:
            nonlocal released
            if released:
                return
            released = True
            self._listening -= 1
            if principal is None:
                return
            left = self._listening_of.get(principal, 1) - 1
            if left == 0:
                self._listening_of.pop(principal, None)
            else:
                self._listening_of[principal] = left

        return release

    @staticmethod
    def _join(index: dict[str, list[_Member]], key: str, member: _Member) -> None:
        members = index.setdefault(key, [])
        if member not in members:
            members.append(member)

    @staticmethod
    def _leave(index: dict[str, list[_Member]], key: str, member: _Member) -> None:
        members = index.get(key)
        if members is None:
            return
        if member in members:
            members.remove(member)
        if not members:
            del index[key]

    def join_list_changed(self, member: _Member, capabilities: Mapping[str, Any]) -> None:
        """A legacy connection takes the list_changed notifications its version's capabilities declare."""
        for method in LIST_CHANGED_METHODS:
            c = capabilities.get(method.split("/")[1])
            if isinstance(c, dict) and cast(dict[str, object], c).get("listChanged") is True:
                self._join(self._list_changed, method, member)

    def subscribe(self, member: _Member, uri: str) -> None:
        self._join(self._subscribers, uri, member)

    def unsubscribe(self, member: _Member, uri: str) -> None:
        self._leave(self._subscribers, uri, member)

    def remove(self, member: _Member, uris: Iterable[str]) -> None:
        for method in LIST_CHANGED_METHODS:
            self._leave(self._list_changed, method, member)
        for uri in list(uris):
            self._leave(self._subscribers, uri, member)

    def listen(self, filter_: Mapping[str, Any], deliver: Deliver, ended: Callable[[], None]) -> _Listener:
        listener = _Listener(self, filter_, deliver, ended)
        self.listeners.append(listener)
        return listener

    def end_all(self) -> None:
        for listener in list(self.listeners):
            listener.end()

    async def deliver(self, method: str, params: Mapping[str, Any] | None) -> None:
        """Deliver a notification to the subscriptions and connections that take it; a failing delivery does not stop the others."""
        deliveries: list[Awaitable[None]] = []
        for listener in self.listeners:
            if wants(listener.filter, method, params):
                deliveries.append(listener.deliver(method, params))
        if method == "notifications/resources/updated":
            uri = None if params is None else params.get("uri")
            reached = self._subscribers.get(uri, []) if isinstance(uri, str) else []
        else:
            reached = self._list_changed.get(method, [])
        for member in list(reached):
            deliveries.append(member.deliver(method, params))
        await asyncio.gather(*deliveries, return_exceptions=True)


# --- The served versions ---


class _Package(Protocol):
    @property
    def VERSION_MODULES(self) -> Mapping[str, str]: ...  # noqa: N802


def _package() -> _Package:
    return cast(_Package, importlib.import_module(__package__ or __name__.rpartition(".")[0]))


def _version_module(label: str) -> _VersionModule:
    return cast(_VersionModule, importlib.import_module(_package().VERSION_MODULES[label]))


def _era(label: str) -> str:
    """The era of generated version ``label``, from the package's ``VERSION_ERAS`` (the module is not imported),
    or the module's ``ERA`` for a package printed without that map."""
    eras = cast(Mapping[str, str] | None, getattr(_package(), "VERSION_ERAS", None))
    return eras[label] if eras is not None and label in eras else _version_module(label).ERA


def _extension_module_name(label: str, identifier: str) -> str | None:
    modules = cast(Mapping[str, Mapping[str, str]], getattr(_package(), "EXTENSION_MODULES", {}))
    return modules.get(label, {}).get(identifier)


def _extension_module(label: str, identifier: str) -> ExtensionModule:
    name = _extension_module_name(label, identifier)
    if name is None:
        raise ValueError(f"protocol version {label} has no extension {identifier} in the generated tree")
    return cast(ExtensionModule, importlib.import_module(name))


def _write_failure_to_stderr(failure: Failure) -> None:
    at = "" if failure["id"] is None else f" (id {json.dumps(failure['id'])})"
    sys.stderr.write(f"mcp {failure['kind']} failure in {failure['method']}{at}: {failure['error']!r}\n")


@dataclass
class _ExtensionRoute:
    id: str
    served: ServedExtension
    module: ExtensionModule
    methods: tuple[str, ...]
    dispatcher: Dispatcher | None = None


def _resolving(
    handlers: Mapping[str, Handler], extension: ServedExtension, negotiated: bool, table: Mapping[str, Mapping[str, object]]
) -> dict[str, Handler]:
    """``handlers`` with each one's return value passed through the extension's ``resolve``."""
    out: dict[str, Handler] = {}
    for method, handler in handlers.items():
        row = table.get(method)
        result_types = None if row is None else cast(tuple[str, ...] | None, row.get("resultTypes"))
        out[method] = _resolving_handler(method, handler, extension, negotiated, result_types)
    return out


def _resolving_handler(
    method: str, handler: Handler, extension: ServedExtension, negotiated: bool, result_types: tuple[str, ...] | None
) -> Handler:
    async def resolved(params: Any, context: Any) -> object:
        value = handler(params, context)
        if inspect.isawaitable(value):
            value = await cast(Awaitable[object], value)
        out = extension.resolve(method, value, cast(RequestContext, context), negotiated, result_types)
        if inspect.isawaitable(out):
            out = await cast(Awaitable[object], out)
        return out

    return resolved


def negotiated(meta: Mapping[str, Any] | None, served: Iterable[str]) -> set[str]:
    """The identifiers among ``served`` that the request's client capabilities (``_meta[...clientCapabilities].extensions``) declare."""
    extensions = _own(_own(meta, META_CLIENT_CAPABILITIES), "extensions")
    if not isinstance(extensions, dict):
        return set()
    declared = cast(dict[str, object], extensions)
    return {i for i in served if i in declared}


def missing_extension(identifier: str) -> JsonRpcError:
    """The error of a request that needs the extension ``identifier`` its client did not declare: the peer's
    own mistake, answered and not told to ``on_error`` (a PeerError)."""
    return PeerError(
        MISSING_REQUIRED_CLIENT_CAPABILITY,
        "Missing required client capability",
        {"requiredCapabilities": {"extensions": {identifier: {}}}},
    )


# --- Legacy connections ---


class LegacyConnection:
    """One legacy connection (a session): its version, chosen at ``initialize``, and its dispatcher."""

    def __init__(self, router: Router, send: Send | RelatedSend) -> None:
        self._router = router
        self._send = related_send(send)
        self._channel = PeerChannel(self._send)
        self._protocol_version: str | None = None
        self._initialize_params: dict[str, Any] | None = None
        self._dispatcher: Dispatcher | None = None
        self._live: list[Dispatcher] = []
        self._log_level = "*"
        self._closed = False
        self._subscribed: list[str] = []
        self._peer = _LevelFiltered(self._channel, lambda: self._log_level)

    @property
    def protocol_version(self) -> str | None:
        """The version chosen at ``initialize``, None before."""
        return self._protocol_version

    @property
    def initialize_params(self) -> Mapping[str, Any] | None:
        """The ``params`` of the client's ``initialize`` request, None before."""
        return self._initialize_params

    @property
    def in_flight(self) -> int:
        """How many of this connection's requests are being handled now."""
        return sum(d.in_flight for d in self._live)

    async def deliver(self, method: str, params: Mapping[str, Any] | None) -> None:
        # What publish sends belongs to no request: the transport's own stream (HTTP: the session's GET stream).
        await self._send(notification_message(method, params), related_request_id=None)

    def close(self) -> None:
        """The connection is gone: pending server→client requests fail, published notifications stop."""
        if self._closed:
            return
        self._closed = True
        self._router._connections.discard(self)  # pyright: ignore[reportPrivateUsage]
        self._router._audience.remove(self, self._subscribed)  # pyright: ignore[reportPrivateUsage]
        self._channel.close(JsonRpcError(INTERNAL_ERROR, "Connection closed"))

    def _initialize(self, params: object, rid: RequestId) -> tuple[str, Dispatcher] | dict[str, Any]:
        router = self._router
        if self._dispatcher is not None:
            return error_response(rid, INVALID_REQUEST, "Invalid Request: the connection is already initialized")
        legacy = router.legacy_versions
        if not legacy:
            return error_response(
                rid, METHOD_NOT_FOUND, f"Method not found: initialize is not available; this server serves {', '.join(router.versions)}"
            )
        asked = _own(params, "protocolVersion")
        chosen = next((v for v in legacy if v == asked), legacy[-1])
        entry = router._served[chosen]  # pyright: ignore[reportPrivateUsage]

        def initialize(p: object, context: object) -> object:
            result: dict[str, Any] = {
                "protocolVersion": chosen,
                "capabilities": dict(entry.capabilities),
                "serverInfo": dict(router.server_info),
            }
            if router.instructions is not None:
                result["instructions"] = router.instructions
            return result

        info = ConnectionInfo(live=self)
        handlers = {**router._handlers_for(chosen, info), "initialize": initialize}  # pyright: ignore[reportPrivateUsage]
        return chosen, router._dispatcher(chosen, handlers)  # pyright: ignore[reportPrivateUsage]

    async def handle(self, message: object, exchange: Exchange | None = None) -> dict[str, Any] | None:
        """Answer one message of this connection: a request → its response; a notification or a response
        to our request → None. Never raises (but CancelledError when the awaiting task is cancelled)."""
        ex = exchange if exchange is not None else _NO_EXCHANGE
        envelope = read_envelope(message)
        try:
            if envelope.kind == "response":
                self._channel.receive(message)
                return None
            if envelope.kind == "invalid":
                return error_response(None, INVALID_REQUEST, f"Invalid Request: {envelope.reason}")
            method = envelope.method
            rid = envelope.id if envelope.kind == "request" else None
            principal = _principal(ex)
            if method == "initialize":
                # Only a request initializes; the connection takes its version once the answer is a result.
                if rid is None:
                    return None
                chosen = self._initialize(envelope.params, rid)
                if isinstance(chosen, dict):
                    return chosen
                version, dispatcher = chosen
                self._live.append(dispatcher)
                response: dict[str, Any] | None = None
                try:
                    response = await dispatcher.handle(message, ex.scope, peer=self._peer, auth=ex.auth, principal=principal)
                finally:
                    if response is not None and "result" in response and self._dispatcher is None:
                        self._protocol_version = version
                        self._initialize_params = _params_of(message)
                        self._dispatcher = dispatcher
                        if not self._closed:
                            caps = self._router._served[version].capabilities  # pyright: ignore[reportPrivateUsage]
                            self._router._audience.join_list_changed(self, caps)  # pyright: ignore[reportPrivateUsage]
                    elif self._dispatcher is not dispatcher and dispatcher in self._live:
                        self._live.remove(dispatcher)
                return response
            target = self._dispatcher
            if target is None or self._protocol_version is None:
                # Before initialize only ping is answered (the lifecycle section of every legacy version).
                if rid is None:
                    return None
                if method == "ping":
                    return {"jsonrpc": "2.0", "id": rid, "result": {}}
                return error_response(rid, INVALID_REQUEST, f"Invalid Request: send initialize before {method}")
            response = await target.handle(message, ex.scope, peer=self._peer, auth=ex.auth, principal=principal)
            if response is not None and "result" in response:
                params = _params_of(message)
                level = None if params is None else params.get("level")
                uri = None if params is None else params.get("uri")
                if method == "logging/setLevel" and isinstance(level, str):
                    self._log_level = level
                if method == "resources/subscribe" and not self._closed and isinstance(uri, str):
                    if uri not in self._subscribed:
                        self._subscribed.append(uri)
                    self._router._audience.subscribe(self, uri)  # pyright: ignore[reportPrivateUsage]
                if method == "resources/unsubscribe" and isinstance(uri, str):
                    if uri in self._subscribed:
                        self._subscribed.remove(uri)
                    self._router._audience.unsubscribe(self, uri)  # pyright: ignore[reportPrivateUsage]
            return response
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - only a hostile message gets here: answer without detail
            return error_response(envelope.id, INTERNAL_ERROR, "Internal error") if envelope.kind == "request" else None


# --- The router ---


def era_of(message: object) -> Era:
    """"modern" when the message names its version in ``params._meta`` (the modern envelope), else "legacy"."""
    meta = _meta_of(_params_of(message))
    return "modern" if meta is not None and META_PROTOCOL_VERSION in meta else "legacy"


@dataclass
class _ModernRoutes:
    dispatcher: Dispatcher
    extensions: list[_ExtensionRoute]
    owner: dict[str, str]


class Router:
    """A server router over the generated versions and the versions served (see the module docstring)."""

    def __init__(
        self,
        *,
        server_info: Mapping[str, Any],
        versions: Mapping[str, Served],
        instructions: str | None = None,
        on_error: OnError | None = None,
        discover_cache: Mapping[str, Any] | None = None,
        max_listen_streams_per_principal: int = MAX_LISTEN_STREAMS_PER_PRINCIPAL,
        max_listen_streams: int = MAX_LISTEN_STREAMS,
        fanout: Fanout | None = None,
    ) -> None:
        self.server_info: Mapping[str, Any] = server_info
        self.instructions = instructions
        self._on_error = on_error
        self._discover_cache: Mapping[str, Any] = discover_cache if discover_cache is not None else {"ttlMs": 0, "cacheScope": "public"}
        generated = _package().VERSION_MODULES
        for label in versions:
            if label not in generated:
                raise ValueError(f"protocol version {label} is not in the generated tree")
        labels = [label for label in generated if label in versions]
        eras = {label: _era(label) for label in labels}
        # A version module (and its extension modules) is imported on first use: when a connection negotiates
        # the version, or a modern request names it; building the router imports none.
        self._modules: dict[str, _VersionModule] = {}
        self._served: dict[str, Served] = {label: versions[label] for label in labels}
        self.versions: tuple[str, ...] = tuple(labels)
        self.legacy_versions: tuple[str, ...] = tuple(v for v in labels if eras[v] == "legacy")
        self.modern_versions: tuple[str, ...] = tuple(v for v in labels if eras[v] == "modern")
        for label in self.modern_versions:
            for identifier in self._served[label].extensions:
                if _extension_module_name(label, identifier) is None:
                    raise ValueError(f"protocol version {label} has no extension {identifier} in the generated tree")
        for label in labels:
            custom = self._served[label].custom
            if custom:
                # Refused now, as TypeScript does: a version serving custom methods is imported when the router is built.
                tables = [self._module(label).METHOD_TABLE]
                tables += [_extension_module(label, i).METHOD_TABLE for i in self._served[label].extensions]
                for table in tables:
                    check_custom_methods(custom, table, label)
        self._audience = Audience(max_listen_streams_per_principal, max_listen_streams)
        self._fanout = fanout
        self._remote: set[asyncio.Task[None]] = set()
        self._unsubscribe = None if fanout is None else fanout.subscribe(self._received)
        self._connections: set[LegacyConnection] = set()
        self._modern: dict[str, _ModernRoutes] = {}
        # A modern version's handler factory is called once, here as before (it imports nothing).
        self._modern_core: dict[str, Mapping[str, Handler]] = {
            v: self._handlers_for(v, ConnectionInfo(None, None)) for v in self.modern_versions
        }

    # The served versions and their dispatchers, made on first use.

    def _module(self, label: str) -> _VersionModule:
        module = self._modules.get(label)
        if module is None:
            module = self._modules[label] = _version_module(label)
        return module

    def _routes(self, label: str) -> _ModernRoutes:
        routes = self._modern.get(label)
        if routes is None:
            routes = self._modern[label] = self._modern_routes(label)
        return routes

    def _handlers_for(self, label: str, info: ConnectionInfo) -> Mapping[str, Handler]:
        handlers = self._served[label].handlers
        if callable(handlers):
            return handlers(info)
        return handlers

    def _error_hook(self, label: str) -> OnError:
        entry = self._served[label]
        if entry.on_error is not None:
            return entry.on_error
        return self._on_error if self._on_error is not None else _write_failure_to_stderr

    def _dispatcher(self, label: str, handlers: Mapping[str, Handler]) -> Dispatcher:
        entry = self._served[label]
        module = self._module(label)
        dispatcher = module.create_server_dispatcher(handlers, on_error=self._error_hook(label), validate_results=entry.validate_results)
        return self._with_custom(label, dispatcher, module.METHOD_TABLE)

    def _with_custom(self, label: str, dispatcher: Dispatcher, table: Mapping[str, Mapping[str, object]]) -> Dispatcher:
        """``dispatcher`` (the version's or an extension module's) with the version's custom methods beside its own and
    its validators."""
        entry = self._served[label]
        if entry.custom:
            result_types = self._module(label).CUSTOM_RESULT_TYPES
            dispatcher = with_custom_methods(dispatcher, entry.custom, result_types, table, validate_results=entry.validate_results)
        return with_validators(dispatcher, entry.validators)

    def _modern_routes(self, label: str) -> _ModernRoutes:
        entry = self._served[label]
        core_table = self._module(label).METHOD_TABLE
        extensions: list[_ExtensionRoute] = []
        for identifier in sorted(entry.extensions):
            served = entry.extensions[identifier]
            module = _extension_module(label, identifier)
            methods = tuple(m for m, row in core_table.items() if identifier in cast(tuple[str, ...], row.get("extensions", ())))
            extensions.append(_ExtensionRoute(identifier, served, module, methods))
        capabilities: dict[str, Any] = dict(entry.capabilities)
        if extensions:
            advertised = dict(cast(Mapping[str, Any], capabilities.get("extensions") or {}))
            for e in extensions:
                advertised[e.id] = dict(e.served.capabilities)
            capabilities["extensions"] = advertised

        def discover(params: object, context: object) -> object:
            result: dict[str, Any] = {"supportedVersions": list(self.modern_versions), "capabilities": capabilities}
            if self.instructions is not None:
                result["instructions"] = self.instructions
            result["ttlMs"] = self._discover_cache.get("ttlMs", 0)
            result["cacheScope"] = self._discover_cache.get("cacheScope", "public")
            # Where the version's DiscoverResult puts the server's info (the model's DISCOVER_SERVER_INFO).
            if self._module(label).DISCOVER_SERVER_INFO == "member":
                result["serverInfo"] = dict(self.server_info)
            else:
                result["_meta"] = {META_SERVER_INFO: dict(self.server_info)}
            return result

        owned: dict[str, Handler] = {"server/discover": discover, "subscriptions/listen": self._listen_handler(capabilities, extensions)}
        core = self._modern_core[label]
        overrides: dict[str, Handler] = {}
        for e in extensions:
            changed = {m: h for m, h in e.served.handlers.items() if m not in e.methods}
            overrides.update(_resolving(changed, e.served, False, e.module.METHOD_TABLE))
        dispatcher = self._dispatcher(label, {**core, **overrides, **owned})
        owner: dict[str, str] = {}
        for e in extensions:
            own = _resolving(e.served.handlers, e.served, True, e.module.METHOD_TABLE)
            e.dispatcher = self._with_custom(
                label,
                e.module.create_server_dispatcher(
                    {**core, **overrides, **own, **owned}, on_error=self._error_hook(label), validate_results=entry.validate_results
                ),
                e.module.METHOD_TABLE,
            )
            for method in e.methods:
                owner[method] = e.id
        return _ModernRoutes(dispatcher, extensions, owner)

    def _listen_handler(self, capabilities: Mapping[str, Any], extensions: list[_ExtensionRoute]) -> Handler:
        audience = self._audience
        ids = [e.id for e in extensions]

        async def listen(params: object, context: RequestContext) -> object:
            notifications = _plain(params).get("notifications")
            if not isinstance(notifications, dict):
                raise JsonRpcError(INVALID_PARAMS, "Invalid params: subscriptions/listen requires notifications (a SubscriptionFilter)")
            release = audience.reserve(context.principal)
            try:
                return await stream(cast(dict[str, Any], notifications), context)
            finally:
                release()

        async def stream(notifications: dict[str, Any], context: RequestContext) -> object:
            tag = {META_SUBSCRIPTION_ID: context.request_id}
            filter_ = honored_filter(notifications, capabilities)

            async def deliver(method: str, params: Mapping[str, Any] | None) -> None:
                own_meta = None if params is None else params.get("_meta")
                meta = {**(cast(dict[str, Any], own_meta) if isinstance(own_meta, dict) else {}), **tag}
                await context.notify(method, {**(params or {}), "_meta": meta})

            agreed = negotiated(context.meta, ids)
            parts: list[ListenPart] = []
            try:
                for e in extensions:
                    if isinstance(e.served, ListeningExtension):
                        part = await e.served.listen(notifications, deliver, e.id in agreed, context)
                        if part is not None:
                            parts.append(part)
            except BaseException:
                for part in parts:
                    part.stop()
                raise
            for part in parts:
                filter_.update(part.honored)
            ended = asyncio.Event()

            def on_end() -> None:
                for part in parts:
                    part.stop()
                ended.set()

            listener: _Listener | None = None
            try:
                # The acknowledgement is the first message carrying the subscription id (the schema says so).
                await context.notify("notifications/subscriptions/acknowledged", {"notifications": filter_, "_meta": tag})
                listener = audience.listen(filter_, deliver, on_end)
                await ended.wait()
            finally:
                if listener is not None:
                    listener.end()
                else:
                    for part in parts:
                        part.stop()
            return {"_meta": tag}

        return cast(Handler, listen)

    # The public interface.

    def era_of(self, message: object) -> Era:
        """"modern" when the message names its version in ``params._meta`` (the modern envelope), else "legacy"."""
        return era_of(message)

    def connect(self, send: Send | RelatedSend) -> LegacyConnection:
        """Open a legacy connection; ``send`` carries the server's requests and notifications to its client,
        each with the request it is about when ``send`` takes ``related_request_id`` (``RelatedSend``)."""
        connection = LegacyConnection(self, send)
        self._connections.add(connection)
        return connection

    async def handle(self, message: object, exchange: Exchange | None = None) -> dict[str, Any] | None:
        """Answer one modern-era message; ``exchange.send`` carries notifications about it (progress, logs, a
        subscription's stream). Never raises (but CancelledError when the awaiting task is cancelled)."""
        ex = exchange if exchange is not None else _NO_EXCHANGE
        envelope = read_envelope(message)
        try:
            if envelope.kind == "response":
                return None
            if envelope.kind == "invalid":
                return error_response(None, INVALID_REQUEST, f"Invalid Request: {envelope.reason}")
            rid = envelope.id if envelope.kind == "request" else None
            meta = _meta_of(envelope.params)
            if rid is not None:
                missing = [k for k in (META_PROTOCOL_VERSION, META_CLIENT_CAPABILITIES) if meta is None or k not in meta]
                if missing:
                    return error_response(rid, INVALID_PARAMS, f"Invalid params: missing _meta keys: {', '.join(missing)}")
            requested = None if meta is None else meta.get(META_PROTOCOL_VERSION)
            version = next((v for v in self.modern_versions if v == requested), None)
            if version is None:
                if rid is None:
                    return None
                return error_response(
                    rid,
                    UNSUPPORTED_PROTOCOL_VERSION,
                    "Unsupported protocol version",
                    {"supported": list(self.modern_versions), "requested": _shown(requested)},
                )
            routes = self._routes(version)
            dispatcher = routes.dispatcher
            if routes.extensions:
                # A served extension's method is its extension's (before the other era's method of the same name).
                owner = routes.owner.get(envelope.method)
                agreed = negotiated(meta, [e.id for e in routes.extensions])
                if owner is not None and owner not in agreed:
                    missing_error = missing_extension(owner)
                    if rid is None:
                        return None
                    return error_response(rid, missing_error.code, missing_error.message, missing_error.data)
                chosen = owner if owner is not None else next((e.id for e in routes.extensions if e.id in agreed), None)
                if chosen is not None:
                    found = next(e.dispatcher for e in routes.extensions if e.id == chosen)
                    if found is not None:
                        dispatcher = found
            peer = None
            if ex.send is not None:
                threshold = modern_threshold(meta)
                peer = _LevelFiltered(_NotifyOnly(ex.send, version), lambda: threshold)
            return await dispatcher.handle(message, ex.scope, peer=peer, auth=ex.auth, principal=_principal(ex))
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - only a hostile message or exchange gets here: answer without detail
            return error_response(envelope.id, INTERNAL_ERROR, "Internal error") if envelope.kind == "request" else None

    async def publish(self, method: str, params: Mapping[str, Any] | None = None) -> None:
        """Tell clients about a change: ``notifications/{tools,prompts,resources}/list_changed`` go to every
        legacy connection whose version's capabilities declare that ``listChanged`` and to the modern
        subscriptions that asked for them; ``notifications/resources/updated`` to those subscribed to its ``uri``.
        With ``fanout``, the other processes' clients get it too; raises when the fanout cannot carry it (after the
        local delivery)."""
        remote = None if self._fanout is None else asyncio.ensure_future(self._fanout.publish(method, params))
        if remote is not None:
            # Retrieved here so a failure is never reported as unretrieved while the local delivery runs.
            remote.add_done_callback(lambda t: None if t.cancelled() else t.exception())
        await self._audience.deliver(method, params)
        if remote is not None:
            await remote

    def _received(self, method: str, params: Mapping[str, Any] | None) -> None:
        """Another process's publish (from the fanout): delivered here as a local one."""
        delivery = asyncio.ensure_future(self._audience.deliver(method, params))
        self._remote.add(delivery)
        delivery.add_done_callback(self._remote.discard)

    def close(self) -> None:
        """End every modern subscription gracefully (their ``subscriptions/listen`` results are sent) and close legacy connections."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self._audience.end_all()
        for connection in list(self._connections):
            connection.close()

    @property
    def in_flight(self) -> int:
        """How many requests are being handled now, modern and legacy (cancelled ones no longer count)."""
        n = sum(c.in_flight for c in self._connections)
        for routes in self._modern.values():
            n += routes.dispatcher.in_flight
            n += sum(e.dispatcher.in_flight for e in routes.extensions if e.dispatcher is not None)
        return n

    def name_param(self, method: str, protocol_version: str) -> str | None:
        """The param a request of ``protocol_version`` names itself by for routing (``Mcp-Name``): its METHOD_TABLE
        row's ``nameParam`` (``name`` of tools/call), else a served extension module's (``taskId`` of ``tasks/get``)."""
        if protocol_version not in _package().VERSION_MODULES:
            return None
        module = self._module(protocol_version) if protocol_version in self._served else _version_module(protocol_version)
        row = module.METHOD_TABLE.get(method)
        own = None if row is None else row.get("nameParam")
        if isinstance(own, str):
            return own
        routes = self._routes(protocol_version) if protocol_version in self.modern_versions else None
        for e in [] if routes is None else routes.extensions:
            row = e.module.METHOD_TABLE.get(method)
            param = None if row is None else row.get("nameParam")
            if isinstance(param, str):
                return param
        return None


def create_router(
    *,
    server_info: Mapping[str, Any],
    versions: Mapping[str, Served] | Sequence[str],
    handlers: Mapping[str, Handler] | Callable[[ConnectionInfo], Mapping[str, Handler]] | None = None,
    capabilities: Mapping[str, Any] | None = None,
    cache_hints: Mapping[str, Any] | None = None,
    extensions: Mapping[str, ServedExtension] | None = None,
    instructions: str | None = None,
    on_error: OnError | None = None,
    discover_cache: Mapping[str, Any] | None = None,
    max_listen_streams_per_principal: int = MAX_LISTEN_STREAMS_PER_PRINCIPAL,
    max_listen_streams: int = MAX_LISTEN_STREAMS,
    fanout: Fanout | None = None,
) -> Router:
    """A server router over the generated versions: ``versions`` maps each served label to its ``Served``.

    ``discover_cache``: the cache hints of ``server/discover`` (default ``{"ttlMs": 0, "cacheScope": "public"}``).
    ``on_error``: every served version's dispatcher's error hook where its ``Served.on_error`` is not set
    (default: one line on stderr). At most ``max_listen_streams_per_principal`` ``subscriptions/listen``
    streams are open per principal and ``max_listen_streams`` in all; one more is refused -32000 naming the
    limit (and reported to ``on_error``). ``fanout`` carries ``publish`` to the other processes serving the same
    clients (``redis.create_redis_fanout``; default none: this process only). Raises ValueError for a label the tree lacks, or a served extension
    the tree has no module of.

    One handler set for every version (``router_projected.py``): ``versions`` a list of labels, ``handlers``
    written for the newest of them, ``capabilities``, ``cache_hints`` and ``extensions`` given once; results are
    projected onto each negotiated version."""
    if not isinstance(versions, Mapping):
        from .router_projected import served_from_one_set  # noqa: PLC0415 (it imports this module)

        labels = list(versions)
        versions = served_from_one_set(labels, {label: _era(label) for label in labels}, handlers if handlers is not None else {}, capabilities or {}, cache_hints, extensions)
    return Router(
        server_info=server_info,
        versions=versions,
        instructions=instructions,
        on_error=on_error,
        discover_cache=discover_cache,
        max_listen_streams_per_principal=max_listen_streams_per_principal,
        max_listen_streams=max_listen_streams,
        fanout=fanout,
    )


__all__ = [
    "batches_served",
    "HEADER_MISMATCH",
    "LIMIT_REACHED",
    "LOG_LEVELS",
    "MAX_LISTEN_STREAMS",
    "MAX_LISTEN_STREAMS_PER_PRINCIPAL",
    "META_CLIENT_CAPABILITIES",
    "META_LOG_LEVEL",
    "META_PROTOCOL_VERSION",
    "META_SERVER_INFO",
    "META_SUBSCRIPTION_ID",
    "MISSING_REQUIRED_CLIENT_CAPABILITY",
    "UNSUPPORTED_PROTOCOL_VERSION",
    "Audience",
    "ConnectionInfo",
    "Deliver",
    "Era",
    "Exchange",
    "ExtensionModule",
    "Fanout",
    "LegacyConnection",
    "ListenPart",
    "ListeningExtension",
    "PeerChannel",
    "RelatedSend",
    "Router",
    "Send",
    "Served",
    "ServedExtension",
    "create_router",
    "era_of",
    "honored_filter",
    "missing_extension",
    "modern_threshold",
    "negotiated",
    "notification_message",
    "principal_of",
    "related_send",
    "takes_related",
    "wants",
]
