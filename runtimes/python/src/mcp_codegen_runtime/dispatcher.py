"""The dispatcher: one parsed JSON-RPC message in, the response to send out (asyncio).

Hand-written Python: the generator copies it as ``dispatcher.py`` of the Python tree; each version
module's ``create_server_dispatcher``/``create_client_dispatcher`` passes its method table (the model's
``METHOD_TABLE``: who receives each method, whether its params are required, its params and result
definitions) and the author's handlers. Nothing here decides a rule of the protocol: the verdicts are
the table's.

Guarantees, as the TypeScript dispatcher's (generator/runtime/dispatcher.ts), whatever a handler does:

- ``handle`` never raises; a message it cannot read is -32600 (the envelope rule of ``read_envelope``);
- a request with a valid id is answered exactly once, with that id, unless it is cancelled
  (``notifications/cancelled`` from the same scope): a cancelled request's handler task is cancelled and
  ``handle`` returns ``None``;
- notifications and responses are never answered;
- params are validated by the method's params model (-32602 with the failing JSON pointers in
  ``data.paths``), the handler gets the model; its return (a model or a mapping) is normalized and
  validated by the result models before it is sent (-32603 naming the method otherwise);
- what a handler raises is answered with its own ``code`` when it carries an integer one
  (``JsonRpcError``), else -32603 "Internal error", revealing nothing; ``on_error`` hears of every
  failure once, with the same kinds as TypeScript's (request, result, notification, invalid-params).
"""

from __future__ import annotations

import asyncio
import decimal
import inspect
import json
import math
import re
import sys
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import (
    Any,
    Final,
    Literal,
    NotRequired,
    Protocol,
    TypedDict,
    cast,
    get_args,
    get_origin,
)

from pydantic import TypeAdapter, ValidationError

from . import protocol, runtime

PARSE_ERROR: Final = protocol.PARSE_ERROR
INVALID_REQUEST: Final = protocol.INVALID_REQUEST
METHOD_NOT_FOUND: Final = protocol.METHOD_NOT_FOUND
INVALID_PARAMS: Final = protocol.INVALID_PARAMS
INTERNAL_ERROR: Final = protocol.INTERNAL_ERROR

RequestId = str | int
Side = Literal["server", "client"]
FailureKind = Literal["request", "result", "notification", "invalid-params"]


class JsonRpcError(Exception):
    """Raise this from a handler to answer with that code, message and data."""

    def __init__(self, code: int, message: str, data: object = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data


class PeerError(JsonRpcError):
    """A JsonRpcError for the peer's own mistake (an unknown task id, say): answered with its code, message
    and data like any JsonRpcError, but not told to ``on_error``, since nothing failed on this side (a client
    probing ids cannot fill the logs). As TypeScript's ``PeerError``."""


class Failure(TypedDict):
    """What ``on_error`` is told of one failure."""

    kind: FailureKind
    method: str
    id: RequestId | None
    protocol_version: str
    error: BaseException
    auth: NotRequired[Mapping[str, Any]]
    """A request's verified caller (``context.auth``) without its ``token``, when it has one (as TypeScript's)."""
    principal: NotRequired[str]
    """Whom a request is for (``context.principal``), when known."""


OnError = Callable[[Failure], None]


@dataclass(frozen=True)
class _Caller:
    peer: Peer | None
    auth: Mapping[str, Any] | None
    principal: str | None


def _write_failure_to_stderr(failure: Failure) -> None:
    at = "" if failure["id"] is None else f" (id {json.dumps(failure['id'])})"
    sys.stderr.write(f"mcp {failure['kind']} failure in {failure['method']}{at}: {failure['error']!r}\n")


class Peer(Protocol):
    """The outgoing channel a transport (or the router) gives a dispatcher, as TypeScript's ``Peer``.

    ``related_request_id`` is the request being handled, so a transport can put the message on that
    request's stream."""

    async def notify(self, method: str, params: Mapping[str, Any] | None, related_request_id: RequestId) -> None: ...

    async def request(self, method: str, params: Mapping[str, Any] | None, related_request_id: RequestId) -> object: ...


@dataclass(frozen=True)
class RequestContext:
    """What a request handler is given besides its params.

    Cancellation (``notifications/cancelled`` of the same scope, or the transport giving the request up)
    cancels the handler's task: a handler sees ``asyncio.CancelledError`` at its next ``await``."""

    request_id: RequestId
    meta: dict[str, Any] | None
    """The request's ``params._meta`` when it is an object, else None."""
    protocol_version: str
    peer: Peer | None = None
    """Where ``notify``/``request`` go; None when the transport gave no outgoing channel."""
    auth: Mapping[str, Any] | None = None
    """The caller the transport verified (``clientId``, ``subject``, ``scopes``, ...), else None."""
    principal: str | None = None
    """Whom the request is for (tasks are bound to it): the transport's, else from ``auth``."""

    async def notify(self, method: str, params: Mapping[str, Any] | None = None) -> None:
        """Send a notification to the peer about this request (progress, log messages).

        Raises a -32603 JsonRpcError when there is no outgoing channel."""
        if self.peer is None:
            raise JsonRpcError(INTERNAL_ERROR, f"Internal error: no outgoing channel to send {method}")
        await self.peer.notify(method, params, self.request_id)

    async def request(self, method: str, params: Mapping[str, Any] | None = None) -> object:
        """Send a request to the peer about this request (sampling, elicitation) and return its result.

        An error answer raises a JsonRpcError carrying its code; -32603 when there is no outgoing
        channel, or the channel cannot carry requests."""
        if self.peer is None:
            raise JsonRpcError(INTERNAL_ERROR, f"Internal error: no outgoing channel to send {method}")
        return await self.peer.request(method, params, self.request_id)

    async def progress(self, progress: float, total: float | None = None, message: str | None = None) -> None:
        """Send ``notifications/progress`` for this request when it asked for it (``_meta.progressToken``), else nothing."""
        token = None if self.meta is None else self.meta.get(protocol.META_PROGRESS_TOKEN)
        if token is None:
            return
        params: dict[str, Any] = {protocol.META_PROGRESS_TOKEN: token, "progress": progress}
        if total is not None:
            params["total"] = total
        if message is not None:
            params["message"] = message
        await self.notify("notifications/progress", params)


@dataclass(frozen=True)
class NotificationContext:
    """What a notification handler is given besides its params."""

    meta: dict[str, Any] | None
    protocol_version: str


Handler = Callable[[Any, Any], object]
"""``handler(params, context)``: params is the params model (or None without params); sync or async."""


def is_request_id(value: object) -> bool:
    """A string or an integer (MCP forbids null; JSON's 1.0 is an integer). An integer literal too large for a
    double is no id, as JSON.parse reads it (Infinity): its answer could not carry it back."""
    if isinstance(value, bool):
        return False
    if isinstance(value, str):
        return True
    if isinstance(value, int):
        try:
            float(value)  # rounds as JSON.parse does; past the largest double it overflows
        except OverflowError:
            return False
        return True
    return isinstance(value, float) and math.isfinite(value) and value.is_integer()


_WHITESPACE = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_STRING = re.compile(r'"(?:[^"\\\x00-\x1f]|\\.)*"')
_LITERALS: Final[tuple[tuple[str, object], ...]] = (("true", True), ("false", False), ("null", None))


def _not_json(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def parse_json(text: str) -> object:
    """One JSON text as JSON.parse reads it, whatever its depth or the length of its integers.

    ``json.loads`` first; a text it cannot read for the interpreter's own limits (nesting past the recursion
    limit, an integer literal past ``sys.get_int_max_str_digits()``) is read again iteratively, so that the
    interpreter's limits never turn valid JSON into a parse error. Integers are read exactly. Raises
    ``ValueError`` for text that is not JSON (NaN and Infinity included)."""
    try:
        return json.loads(text, parse_constant=_not_json)
    except RecursionError:
        pass
    except ValueError:
        pass  # invalid JSON, or an integer past the digit limit: the iterative reading tells them apart
    return _parse_iteratively(text)


def _skip(text: str, at: int) -> int:
    """The index of the first character at or after ``at`` that is not JSON white space."""
    space = _WHITESPACE.match(text, at)
    return at if space is None else space.end()


def _integer(literal: str) -> int:
    try:
        return int(literal)
    except ValueError:  # past the digit limit of str -> int; Decimal reads it without the limit
        return int(decimal.Decimal(literal))


def _parse_iteratively(text: str) -> object:
    """RFC 8259 JSON with an explicit stack instead of recursion."""
    stack: list[list[object] | dict[str, object]] = []
    keys: list[str | None] = []
    at = _skip(text, 0)
    while True:
        if at >= len(text):
            raise ValueError("unexpected end of JSON")
        char = text[at]
        # A value starts here (after '[', ',' or ':', or at the top).
        value: object
        if char == "{" or char == "[":
            container: list[object] | dict[str, object] = {} if char == "{" else []
            at = _skip(text, at + 1)
            closing = "}" if char == "{" else "]"
            if at < len(text) and text[at] == closing:
                value = container
                at += 1
            else:
                stack.append(container)
                keys.append(None)
                if char == "{":
                    at = _key(text, at, keys)
                continue
        elif char == '"':
            value, at = _string(text, at)
        else:
            number = _NUMBER.match(text, at)
            if number is not None and number.end() > at:
                literal = number.group()
                value = _integer(literal) if number.group(1) is None and number.group(2) is None else float(literal)
                at = number.end()
            else:
                for word, meaning in _LITERALS:
                    if text.startswith(word, at):
                        value = meaning
                        at += len(word)
                        break
                else:
                    raise ValueError(f"unexpected {text[at]!r} at {at}")
        # The value is complete: put it in its container, then close what it completes.
        while True:
            if not stack:
                if _skip(text, at) != len(text):
                    raise ValueError(f"extra data at {at}")
                return value
            top = stack[-1]
            if isinstance(top, dict):
                top[cast(str, keys[-1])] = value
            else:
                top.append(value)
            at = _skip(text, at)
            if at >= len(text):
                raise ValueError("unexpected end of JSON")
            if text[at] == ",":
                at = _skip(text, at + 1)
                if isinstance(top, dict):
                    at = _key(text, at, keys)
                break
            if text[at] != ("}" if isinstance(top, dict) else "]"):
                raise ValueError(f"unexpected {text[at]!r} at {at}")
            at += 1
            value = stack.pop()
            keys.pop()


def _string(text: str, at: int) -> tuple[str, int]:
    """The JSON string literal at ``at`` (json.loads checks its escapes; a flat literal never recurses)."""
    literal = _STRING.match(text, at)
    if literal is None:
        raise ValueError(f"unterminated string at {at}")
    return cast(str, json.loads(literal.group())), literal.end()


def _key(text: str, at: int, keys: list[str | None]) -> int:
    """Reads `"name" :` at ``at`` into the innermost object's pending key; the index of its value."""
    if at >= len(text) or text[at] != '"':
        raise ValueError(f"expected a member name at {at}")
    name, at = _string(text, at)
    at = _skip(text, at)
    if at >= len(text) or text[at] != ":":
        raise ValueError(f"expected ':' at {at}")
    keys[-1] = name
    return _skip(text, at + 1)


@dataclass(frozen=True)
class Envelope:
    """What one incoming message is, by the envelope rule (see ``read_envelope``)."""

    kind: Literal["request", "notification", "response", "invalid"]
    id: RequestId | None = None
    method: str = ""
    params: object = None
    has_params: bool = False
    reason: str = ""


def read_envelope(message: object) -> Envelope:
    """The envelope rule (JSON-RPC 2.0 sections 4 to 5), as TypeScript's ``readEnvelope``.

    An object with ``method`` is a request when it has an ``id``, else a notification; either needs
    ``jsonrpc: "2.0"`` and a string method, a request's id a string or an integer. An object with
    ``result`` or ``error`` but no ``method`` is a response, never answered. Anything else is invalid.
    """
    if not isinstance(message, dict):
        return Envelope("invalid", reason="expected a JSON-RPC message object")
    m = cast(dict[str, object], message)
    raw_id = m.get("id")
    rid: RequestId | None = cast(RequestId, raw_id) if is_request_id(raw_id) else None
    if "method" not in m:
        if "result" in m or "error" in m:
            return Envelope("response", id=rid)
        return Envelope("invalid", reason="expected a method, or a result or error")
    method = m["method"]
    if not isinstance(method, str) or m.get("jsonrpc") != "2.0":
        return Envelope("invalid", reason='expected jsonrpc "2.0" and a string method')
    has_params = "params" in m
    params = m.get("params")
    if "id" not in m:
        return Envelope("notification", method=method, params=params, has_params=has_params)
    if rid is None:
        return Envelope("invalid", reason="the id must be a string or an integer")
    return Envelope("request", id=rid, method=method, params=params, has_params=has_params)


def error_response(rid: RequestId | None, code: int, message: str, data: object = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": rid, "error": error}


def result_response(rid: RequestId, result: object) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": rid, "result": result}


def _pointer_token(token: object) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def issue_paths(error: ValidationError, prefix: str = "") -> list[str]:
    """The JSON pointers of the values a validation error rejects, each once (pydantic's branch tags left out)."""
    out: list[str] = []
    for issue in error.errors():
        tokens = [t for t in issue["loc"] if isinstance(t, int) or not _is_branch_tag(t)]
        pointer = prefix + "".join("/" + _pointer_token(t) for t in tokens)
        if pointer not in out:
            out.append(pointer)
    return out


def _is_branch_tag(token: str) -> bool:
    # pydantic names a union branch or a validator in the location ("int", "function-after[...]", a class name).
    return "[" in token or token in {"int", "float", "str", "bool", "list", "dict", "none"}


def _unsendable(value: object) -> str | None:
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError) as e:
        return str(e)
    return None


@dataclass(frozen=True)
class MethodValidator:
    """Validation hooks of one method (as TypeScript's MethodValidator); a method's hook replaces its schema validation.

    ``params`` runs before the handler (on the params as received, None when absent) and returns what the handler
    gets; ``result`` runs on the normalized result and returns the result to send. A hook's error carrying a
    JSON-RPC ``code`` is answered with that code; any other is -32602 for ``params`` and -32603 for ``result``."""

    params: Callable[[object], object] | None = None
    result: Callable[[dict[str, Any]], object] | None = None


@dataclass
class _Route:
    handler: Handler
    params_required: bool
    params: TypeAdapter[Any] | None
    result: TypeAdapter[Any] | None
    expected: str
    normalizer: runtime.Normalizer
    validator: MethodValidator | None = None


@dataclass
class Dispatcher:
    """Answers the messages one side receives at one protocol version (see the module docstring)."""

    protocol_version: str
    side: Side
    routes: dict[str, _Route]
    notification_routes: dict[str, tuple[Handler, TypeAdapter[Any] | None]]
    method_table: Mapping[str, Mapping[str, object]]
    receives_cancel: bool
    on_error: OnError
    notification_validators: dict[str, MethodValidator] = field(default_factory=lambda: {})
    _flights: dict[tuple[int, RequestId], asyncio.Task[object]] = field(default_factory=lambda: {})

    @property
    def in_flight(self) -> int:
        """How many requests are being handled now."""
        return len(self._flights)

    def _fail(self, kind: FailureKind, error: BaseException, method: str, rid: RequestId | None = None, caller: _Caller | None = None) -> None:
        failure: Failure = {"kind": kind, "method": method, "id": rid, "protocol_version": self.protocol_version, "error": error}
        if caller is not None and caller.auth is not None:
            failure["auth"] = {k: v for k, v in caller.auth.items() if k != "token"}
        if caller is not None and caller.principal is not None:
            failure["principal"] = caller.principal
        try:
            self.on_error(failure)
        except Exception:  # noqa: BLE001 - a failing hook must not break the answer
            pass

    def _not_found(self, rid: RequestId, method: str) -> dict[str, Any]:
        """The -32601 answer to a request without a route: the table's refusal under DISPATCHER_POLICY (runtime.gate,
        the verdict every target's gate gives), else the version serves it and the author gave no handler."""
        refusal = runtime.gate(self.method_table, method, self.protocol_version, self.side, DISPATCHER_POLICY)
        if refusal is not None:
            return error_response(rid, refusal["code"], refusal["message"], refusal.get("data"))
        return error_response(rid, METHOD_NOT_FOUND, f"Method not found: no handler for {method} (protocol version {self.protocol_version})")

    def _answer_thrown(self, rid: RequestId, method: str, error: BaseException) -> dict[str, Any]:
        code = getattr(error, "code", None)
        if isinstance(code, int) and not isinstance(code, bool):
            message = getattr(error, "message", None)
            if not isinstance(message, str):
                message = str(error) or "Error"
            data = getattr(error, "data", None)
            if data is not None and _unsendable(data) is not None:
                return error_response(rid, INTERNAL_ERROR, f"Internal error: the {method} handler's error data cannot be sent as JSON ({_unsendable(data)})")
            return error_response(rid, code, message, data)
        return error_response(rid, INTERNAL_ERROR, "Internal error")

    async def handle(
        self,
        message: object,
        scope: object = None,
        *,
        peer: Peer | None = None,
        auth: Mapping[str, Any] | None = None,
        principal: str | None = None,
    ) -> dict[str, Any] | None:
        """Answer one parsed JSON-RPC message: a request → its response; anything else → None. Never raises
        (but ``asyncio.CancelledError`` when the task awaiting it is cancelled: the request is given up).

        ``scope`` names the peer (``notifications/cancelled`` reaches only requests of the same scope);
        ``peer`` carries the handlers' ``context.notify``/``context.request``; ``auth`` and ``principal``
        are the caller, as handlers see them in the context."""
        envelope = read_envelope(message)
        try:
            if envelope.kind == "request":
                assert envelope.id is not None
                return await self._request(envelope, scope, _Caller(peer, auth, principal))
            if envelope.kind == "notification":
                await self._notification(envelope, scope)
                return None
            if envelope.kind == "response":
                return None
            return error_response(None, INVALID_REQUEST, f"Invalid Request: {envelope.reason}")
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - only a hostile message gets here: answer without detail
            return error_response(envelope.id, INTERNAL_ERROR, "Internal error") if envelope.kind == "request" else None

    async def _request(self, envelope: Envelope, scope: object, caller: _Caller) -> dict[str, Any] | None:
        rid = cast(RequestId, envelope.id)
        method = envelope.method
        route = self.routes.get(method)
        if route is None:
            return self._not_found(rid, method)
        params: object = envelope.params
        if not envelope.has_params:
            if route.params_required:
                return error_response(rid, INVALID_PARAMS, f"Invalid params: {method} requires params (an object)")
        elif not _is_object(params):
            return error_response(rid, INVALID_PARAMS, f"Invalid params: {method} params must be an object")
        model: object = None
        hook = None if route.validator is None else route.validator.params
        if hook is not None:
            try:
                model = hook(params if envelope.has_params else None)
            except Exception as error:  # noqa: BLE001 - a hook's refusal is answered
                if _coded(error):
                    return self._answer_thrown(rid, method, error)
                return error_response(rid, INVALID_PARAMS, f"Invalid params for {method}")
        elif envelope.has_params and route.params is not None:
            try:
                model = route.params.validate_python(params)
            except ValidationError as e:
                return error_response(
                    rid, INVALID_PARAMS, f"Invalid params for {method}: {_format(e)}", {"paths": issue_paths(e, "/params")}
                )
        else:
            model = params
        meta = _meta_of(params)
        context = RequestContext(
            request_id=rid,
            meta=meta,
            protocol_version=self.protocol_version,
            peer=caller.peer,
            auth=caller.auth,
            principal=caller.principal,
        )
        key = (id(scope), rid)
        task: asyncio.Task[object] = asyncio.ensure_future(call_handler(route.handler, model, context))
        self._flights[key] = task
        try:
            try:
                value = await task
            except asyncio.CancelledError:
                current = asyncio.current_task()
                if task.cancelled() and (current is None or current.cancelling() == 0):
                    # Cancelled by notifications/cancelled: not answered.
                    return None
                # The task awaiting handle was cancelled (the transport gave the request up).
                task.cancel()
                raise
            except Exception as error:  # noqa: BLE001 - a handler's failure is answered
                if not isinstance(error, PeerError):
                    self._fail("request", error, method, rid, caller)
                return self._answer_thrown(rid, method, error)
        finally:
            if self._flights.get(key) is task:
                del self._flights[key]
        try:
            result = route.normalizer(value)
            checked = None if route.validator is None else route.validator.result
            if checked is not None:
                result = checked(result)
            elif route.result is not None:
                try:
                    route.result.validate_python(result)
                except ValidationError as e:
                    at = ", ".join(p or "(root)" for p in issue_paths(e))
                    raise JsonRpcError(
                        INTERNAL_ERROR, f"Internal error: the {method} handler's result is not a valid {route.expected} (at {at})"
                    ) from e
            problem = _unsendable(result)
            if problem is not None:
                raise JsonRpcError(INTERNAL_ERROR, f"Internal error: the {method} handler's result cannot be sent as JSON ({problem})")
            return result_response(rid, result)
        except Exception as error:  # noqa: BLE001 - a result that cannot be sent is -32603
            self._fail("result", error, method, rid, caller)
            return self._answer_thrown(rid, method, error)

    async def _notification(self, envelope: Envelope, scope: object) -> None:
        method = envelope.method
        params: object = envelope.params
        if method == "notifications/cancelled" and self.receives_cancel and _is_object(params):
            target = cast(dict[str, object], params).get("requestId")
            if is_request_id(target):
                task = self._flights.get((id(scope), cast(RequestId, target)))
                if task is not None:
                    task.cancel()
        route = self.notification_routes.get(method)
        if route is None:
            return
        handler, adapter = route
        if envelope.has_params and not _is_object(params):
            self._fail("invalid-params", JsonRpcError(INVALID_PARAMS, f"Invalid params: {method} params must be an object"), method)
            return
        model: object = params
        hook = self.notification_validators[method].params if method in self.notification_validators else None
        if hook is not None:
            try:
                model = hook(params if envelope.has_params else None)
            except Exception as error:  # noqa: BLE001 - reported, never answered
                self._fail("invalid-params", error, method)
                return
        elif envelope.has_params and adapter is not None:
            try:
                model = adapter.validate_python(params)
            except ValidationError as e:
                self._fail("invalid-params", e, method)
                return
        try:
            await call_handler(handler, model, NotificationContext(meta=_meta_of(params), protocol_version=self.protocol_version))
        except Exception as error:  # noqa: BLE001 - reported, never answered
            self._fail("notification", error, method)


def _format(error: ValidationError) -> str:
    return "; ".join(f"{p or '(root)'}: {issue['msg']}" for p, issue in zip(issue_paths_each(error), error.errors(), strict=True))


def issue_paths_each(error: ValidationError) -> list[str]:
    """One JSON pointer per issue (repeats kept), as ``issue_paths`` reads them."""
    out: list[str] = []
    for issue in error.errors():
        tokens = [t for t in issue["loc"] if isinstance(t, int) or not _is_branch_tag(t)]
        out.append("".join("/" + _pointer_token(t) for t in tokens))
    return out


def _is_object(value: object) -> bool:
    """A JSON object (a ``dict``), without narrowing the caller's type."""
    return isinstance(value, dict)


def _meta_of(params: object) -> dict[str, Any] | None:
    if not isinstance(params, dict):
        return None
    meta = cast(dict[str, object], params).get("_meta")
    return cast(dict[str, Any], meta) if isinstance(meta, dict) else None


async def call_handler(handler: Callable[..., object], *args: object) -> object:
    """A handler's value, sync or async: its return, awaited when it is awaitable (the one place that decides it)."""
    value = handler(*args)
    if inspect.isawaitable(value):
        return await cast(Awaitable[object], value)
    return value


def _adapter(definitions: Mapping[str, runtime.Definition], names: tuple[str, ...]) -> TypeAdapter[Any] | None:
    types = [definitions[n] for n in names if n in definitions]
    if not types:
        return None
    if len(types) == 1:
        return TypeAdapter(cast(Any, types[0]))
    union: Any = types[0]
    for t in types[1:]:
        union = union | t
    return TypeAdapter(union)


def _inline_params(definitions: Mapping[str, runtime.Definition], method: str) -> TypeAdapter[Any] | None:
    """The params type of ``method`` where the schema inlines its params (the legacy schemas: the table names
    no params definition): the ``params`` field of the message model whose ``method`` is that literal."""
    for definition in definitions.values():
        if not isinstance(definition, type):
            continue
        fields = definition.model_fields
        named = fields.get("method")
        given = fields.get("params")
        if named is None or given is None or get_origin(named.annotation) is not Literal or get_args(named.annotation) != (method,):
            continue
        arms = [a for a in get_args(given.annotation) if a is not type(None)] if get_origin(given.annotation) is not None else []
        target: Any = arms[0] if len(arms) == 1 and isinstance(arms[0], type) else given.annotation
        return TypeAdapter(target)
    return None


def params_adapter(definitions: Mapping[str, runtime.Definition], row: Mapping[str, object], method: str) -> TypeAdapter[Any] | None:
    """The params type of ``method`` by its table ``row`` (the one rule the dispatcher and the client read): the
    params definition the row names, else, where the schema inlines its params, the inline type; ``None`` when the
    method has no params here."""
    params_row = cast(Mapping[str, object] | None, row.get("params"))
    if params_row is None:
        return None
    named = params_row.get("definition")
    return _adapter(definitions, (named,)) if isinstance(named, str) else _inline_params(definitions, method)


DISPATCHER_POLICY: runtime.GatePolicy = {"custom": "refuse", "later": "refuse"}
"""The dispatcher's gate policy (as TypeScript's DISPATCHER_POLICY): a method it has no route for is refused as the
table says; a custom method is refused (a host serves its own in front of the dispatcher)."""


def create_dispatcher(
    protocol_version: str,
    table: Mapping[str, Mapping[str, object]],
    requests: Mapping[str, runtime.RequestEntry],
    definitions: Mapping[str, runtime.Definition],
    side: Side,
    handlers: Mapping[str, Handler],
    *,
    on_error: OnError | None = None,
    validate_results: bool = True,
) -> Dispatcher:
    """A dispatcher for ``side`` from a version's method table; a version module's
    ``create_server_dispatcher``/``create_client_dispatcher`` calls it with its own tables."""
    present = {m: row for m, row in table.items() if row.get("status") == "present"}
    receivable = frozenset(m for m, row in present.items() if side in cast(tuple[str, ...], row.get("receivers", ())))
    routes: dict[str, _Route] = {}
    notification_routes: dict[str, tuple[Handler, TypeAdapter[Any] | None]] = {}
    for method in sorted(receivable):
        handler = handlers.get(method)
        if handler is None:
            continue
        row = present[method]
        params_row = cast(Mapping[str, object] | None, row.get("params"))
        params = params_adapter(definitions, row, method)
        if row.get("kind") == "request":
            results = cast(tuple[str, ...], row.get("results", ()))
            routes[method] = _Route(
                handler=handler,
                params_required=bool(params_row.get("required")) if params_row is not None else False,
                params=params,
                result=_adapter(definitions, results) if validate_results else None,
                expected=" | ".join(results),
                normalizer=requests[method].normalizer,
            )
        else:
            notification_routes[method] = (handler, params)
    return Dispatcher(
        protocol_version=protocol_version,
        side=side,
        routes=routes,
        notification_routes=notification_routes,
        method_table=table,
        receives_cancel="notifications/cancelled" in receivable,
        on_error=on_error if on_error is not None else _write_failure_to_stderr,
    )


# --- Custom methods (the mirror of TypeScript's custom-methods.ts) ---


@dataclass(frozen=True)
class CustomRequest:
    """A custom request (a method the spec does not define), served beside a version's own with the same rules.

    ``params``/``result``: any type pydantic's ``TypeAdapter`` takes (a model class, a ``TypedDict``, ...); the
    params are validated before the handler runs (-32602 with ``error.data.paths``) and the handler gets the
    validated value; the result is normalized as the version's own (``shape`` ``"object"`` or ``"empty"``, with
    the version's ``CUSTOM_RESULT_TYPES``) and validated (-32603). ``params_required``: default True when
    ``params`` is given."""

    handler: Handler
    params: Any = None
    result: Any = None
    params_required: bool | None = None
    shape: Literal["object", "empty"] = "object"


@dataclass(frozen=True)
class CustomNotification:
    """A custom notification: ``params`` validated as ``CustomRequest``'s (an invalid one is reported, not handled)."""

    handler: Handler
    params: Any = None


CustomMethods = Mapping[str, CustomRequest | CustomNotification]
"""Custom methods by method name."""


def custom_collisions(custom: CustomMethods, taken: Iterable[str]) -> list[str]:
    """The custom methods ``custom`` declares that are already methods of the version (``taken``: its METHOD_TABLE's
    names, every method a generated version or extension names), sorted."""
    names = set(taken)
    return sorted(m for m in custom if m in names)


def check_custom_methods(custom: CustomMethods, taken: Iterable[str], protocol_version: str) -> None:
    """Raises ValueError (TypeScript's message) when a custom method is one of the version's own (``taken``)."""
    clash = custom_collisions(custom, taken)
    if clash:
        plural = len(clash) > 1
        raise ValueError(
            f"custom method{'s' if plural else ''} {', '.join(clash)} {'are methods' if plural else 'is a method'} "
            f"of protocol version {protocol_version} already"
        )


def with_custom_methods(
    base: Dispatcher, custom: CustomMethods, result_types: tuple[str, ...] | None, taken: Iterable[str], *, validate_results: bool = True
) -> Dispatcher:
    """``base`` with the custom methods beside its own: one dispatcher, so the envelope, ``_meta``, cancellation
    and failure rules are the same. ``result_types``: the version module's ``CUSTOM_RESULT_TYPES`` (None in the
    legacy era). Raises ValueError when a custom method is one of the version's own."""
    check_custom_methods(custom, taken, base.protocol_version)
    if not custom:
        return base
    routes = dict(base.routes)
    notification_routes = dict(base.notification_routes)
    for method, entry in custom.items():
        adapter = None if entry.params is None else TypeAdapter(entry.params)
        if isinstance(entry, CustomRequest):
            normalizer: runtime.Normalizer
            if entry.shape == "empty":
                normalizer = _empty_normalizer(result_types)
            else:
                normalizer = _object_normalizer(method, result_types)
            routes[method] = _Route(
                handler=entry.handler,
                params_required=entry.params_required if entry.params_required is not None else entry.params is not None,
                params=adapter,
                result=None if entry.result is None or not validate_results else TypeAdapter(entry.result),
                expected=f"{method} result",
                normalizer=normalizer,
            )
        else:
            notification_routes[method] = (entry.handler, adapter)
    return Dispatcher(
        protocol_version=base.protocol_version,
        side=base.side,
        routes=routes,
        notification_routes=notification_routes,
        method_table=base.method_table,
        receives_cancel=base.receives_cancel,
        on_error=base.on_error,
        notification_validators=dict(base.notification_validators),
    )


def with_validators(base: Dispatcher, validators: Mapping[str, MethodValidator]) -> Dispatcher:
    """``base`` with each method's validation hooks (``validators``, by method) replacing its schema validation."""
    if not validators:
        return base
    routes = {m: replace(route, validator=validators[m]) if m in validators else route for m, route in base.routes.items()}
    notification_validators = {**base.notification_validators, **{m: v for m, v in validators.items() if m in base.notification_routes}}
    return replace(base, routes=routes, notification_validators=notification_validators, _flights={})


def _coded(error: BaseException) -> bool:
    code = getattr(error, "code", None)
    return isinstance(code, int) and not isinstance(code, bool)


def _empty_normalizer(result_types: tuple[str, ...] | None) -> runtime.Normalizer:
    return lambda value: runtime.empty_result(value, result_types)


def _object_normalizer(method: str, result_types: tuple[str, ...] | None) -> runtime.Normalizer:
    return lambda value: runtime.object_result(value, method, f"the {method} result", result_types)
