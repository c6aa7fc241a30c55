"""The rules every version module's models, result normalizers and method gate share.

Hand-written Python: the generator copies it as ``runtime.py`` of the Python tree, and it is
type-checked (pyright --strict) and linted (ruff) as it is here.

Validation: the models are strict (no coercion: ``"1"`` is not an integer), an optional property
that is absent reads as ``None`` but an explicit ``null`` is refused unless the schema allows it
(``NotNull``), open objects keep their unknown members, closed ones refuse them.

Result rules, for every value a handler returns (the TypeScript runtime's, for the same JSON):

- a ``dict`` is a result object; a pydantic model is first dumped as JSON by alias, unset fields left out;
- ``_meta`` is read under its own key and passes through by reference when it is a ``dict``;
- ``None`` is JSON's ``null`` and is kept (Python has no ``undefined`` to drop).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import (
    Annotated,
    Any,
    Final,
    Literal,
    NotRequired,
    Protocol,
    Self,
    TypedDict,
    cast,
)

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    ModelWrapValidatorHandler,
    Strict,
    TypeAdapter,
    ValidationError,
    model_validator,
)

METHOD_NOT_FOUND: Final = -32601
INTERNAL_ERROR: Final = -32603


def _not_null(value: object) -> object:
    if value is None:
        raise ValueError("null is not allowed here: leave the member out instead")
    return value


def _never(value: object) -> object:
    raise ValueError("no value is allowed here")


def _integral(value: object) -> object:
    # JSON Schema's integer is any integral number: 1e21 is one (JSON text gives Python a float for it).
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _no_bool(value: object) -> object:
    if isinstance(value, bool):
        raise ValueError("a boolean is not a number")
    return value


def _only_bool(value: object) -> object:
    if not isinstance(value, bool):
        raise ValueError("expected a boolean")
    return value


def multiple_of(divisor: int) -> AfterValidator:
    """JSON Schema's ``multipleOf`` as Ajv decides it: the quotient, in double precision, is an integer
    JavaScript writes without an exponent (below 1e21). So 2**60 is a "multiple" of 3 (the quotient rounds
    to an integer) and 3e24 is not, where exact arithmetic says the opposite."""

    def check(value: float) -> float:
        try:
            quotient = float(value) / divisor
            ok = quotient.is_integer() and abs(quotient) < 1e21
        except OverflowError:
            ok = False
        if not ok:
            raise ValueError(f"expected a multiple of {divisor}")
        return value

    return AfterValidator(check)


NotNull: Final = BeforeValidator(_not_null)
"""Refuses an explicit ``null`` for an optional property whose schema does not allow it."""

Never = Annotated[None, BeforeValidator(_never)]
"""A schema no value satisfies (``false``)."""

# JSON's scalar types, strict wherever they are used (a TypeAliasType validated on its own has no
# model config to make it strict): no coercion from strings, booleans are not numbers.
Str = Annotated[str, Strict()]
"""A JSON string."""
Int = Annotated[int, BeforeValidator(_integral), Strict()]
"""A JSON Schema integer: any integral number."""
Float = Annotated[float, Strict()]
"""A JSON number."""
Bool = Annotated[bool, Strict()]
"""A JSON boolean."""

NoBool: Final = BeforeValidator(_no_bool)
"""Beside a numeric ``Literal``: ``true`` is not ``1`` (pydantic's literals compare with ``==``)."""
OnlyBool: Final = BeforeValidator(_only_bool)
"""Beside a boolean ``Literal``: ``1`` is not ``true``."""

def _config(extra: Literal["allow", "forbid"]) -> ConfigDict:
    """Strict (no coercion), members read by their wire names only, written by them, field docstrings kept."""
    return ConfigDict(
        strict=True,
        extra=extra,
        serialize_by_alias=True,
        validate_by_alias=True,
        validate_by_name=False,
        use_attribute_docstrings=True,
        protected_namespaces=(),
    )


class _Adapters:
    """TypeAdapters for the parts of a combinator, built on first use (the parts may be defined later)."""

    def __init__(self, types: tuple[object, ...]) -> None:
        self._types = types
        self._adapters: list[TypeAdapter[Any]] | None = None

    def accepts(self, value: object) -> list[bool]:
        if self._adapters is None:
            self._adapters = [TypeAdapter(cast(Any, t)) for t in self._types]
        out: list[bool] = []
        for adapter in self._adapters:
            try:
                adapter.validate_python(value)
                out.append(True)
            except ValidationError:
                out.append(False)
        return out


def all_of(*types: object) -> AfterValidator:
    """``allOf`` that is no merge of objects: the value, as it is, satisfies every part."""
    parts = _Adapters(types)

    def check(value: Any) -> Any:
        if not all(parts.accepts(value)):
            raise ValueError("does not match every schema of allOf")
        return value

    return AfterValidator(check)


def one_of(*types: object) -> AfterValidator:
    """``oneOf``: the value, as it is, satisfies exactly one branch."""
    branches = _Adapters(types)

    def check(value: Any) -> Any:
        if sum(branches.accepts(value)) != 1:
            raise ValueError("does not match exactly one schema of oneOf")
        return value

    return AfterValidator(check)


def not_(schema: object) -> AfterValidator:
    """``not``: the value does not satisfy the schema."""
    inner = _Adapters((schema,))

    def check(value: Any) -> Any:
        if all(inner.accepts(value)):
            raise ValueError("matches a schema it must not")
        return value

    return AfterValidator(check)


class OpenModel(BaseModel):
    """An object that admits members it does not describe (no ``additionalProperties``, or ``true``)."""

    model_config = _config("allow")

    @model_validator(mode="wrap")
    @classmethod
    def _set_by_wire_name(cls, data: object, handler: ModelWrapValidatorHandler[Self]) -> Self:
        # pydantic counts a field as set when an unknown member bears its Python name (an extra "meta"
        # beside the field for "_meta"); a field is set when its wire name was given, and only then.
        model = handler(data)
        if isinstance(data, dict):
            given = cast(dict[str, object], data).keys()
            model.__pydantic_fields_set__ = {n for n, f in cls.model_fields.items() if (f.alias or n) in given}
        return model


class ClosedModel(BaseModel):
    """An object that refuses members it does not describe (``additionalProperties: false``)."""

    model_config = _config("forbid")


class ErrorObject(TypedDict):
    """A JSON-RPC error object: what a request is answered with instead of a result."""

    code: int
    message: str
    data: NotRequired[Mapping[str, str]]


class ResultError(Exception):
    """What an ``object``-shape normalizer raises when a handler's return cannot be a result.

    The caller answers the request with ``code`` (-32603) and the message (``to_error()``).
    """

    code: int = INTERNAL_ERROR

    def to_error(self) -> ErrorObject:
        return {"code": self.code, "message": str(self)}


Sender = Literal["client", "server", "both"]
Result = dict[str, Any]
Normalizer = Callable[[object], Result]


@dataclass(frozen=True)
class RequestEntry:
    """A request of a version's catalogue."""

    sender: Sender
    """Who sends it."""
    params_required: bool
    """Whether ``params`` is in the message's ``required`` list."""
    results: tuple[str, ...]
    """The result definitions, in order (more than one: a union)."""
    result_shape: Literal["empty", "object"]
    """``empty``: only ``_meta`` is sent (plus ``resultType`` in the modern era)."""
    result_types: tuple[str, ...] | None
    """The ``resultType`` values allowed, the first being the default; ``None`` in the legacy era."""
    normalizer: Normalizer
    """The handler's return → the result to send."""


@dataclass(frozen=True)
class NotificationEntry:
    """A notification of a version's catalogue."""

    sender: Sender
    params_required: bool


def _as_result(value: object) -> object:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_unset=True)
    return value


def meta_of(value: object) -> dict[str, Any] | None:
    """The ``_meta`` to send: the result's own ``_meta`` when it is a ``dict``, else ``None``."""
    value = _as_result(value)
    if not isinstance(value, dict):
        return None
    meta = cast(dict[str, object], value).get("_meta")
    return cast(dict[str, Any], meta) if isinstance(meta, dict) else None


def empty_result(value: object, result_types: tuple[str, ...] | None = None) -> Result:
    """``empty``-shape result: ``{"_meta": meta}`` when there is one, else ``{}``.

    With ``result_types`` (the method's METHOD_TABLE row's, ``None`` in the legacy era), plus
    ``"resultType"``: the first of them, the default.
    """
    meta = meta_of(value)
    result: Result = {} if meta is None else {"_meta": meta}
    if result_types is not None:
        result["resultType"] = result_types[0]
    return result


def describe(value: object) -> str:
    """A value's kind in JSON's words (what the peer reads in an error message)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list | tuple):
        return "an array"
    return "an object that is not a plain object"


def as_json(value: object) -> str:
    """A value as compact JSON text, as JavaScript's ``JSON.stringify`` writes it; else described."""
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):
        return describe(value)


def object_result(value: object, method: str, expected: str, result_types: tuple[str, ...] | None) -> Result:
    """``object``-shape result: a new ``dict`` of the handler's members, but a ``_meta`` that is not a ``dict``.

    Unknown members are kept (the spec allows them). ``result_types`` (the method's METHOD_TABLE row's)
    is ``None`` in the legacy era; in the modern era it lists the ``resultType`` values the method's
    result union allows, the first being the default when none is given. Raises ResultError naming the method and
    ``expected`` for anything but a ``dict``, or a ``resultType`` the method does not allow.
    """
    value = _as_result(value)
    if not isinstance(value, dict):
        raise ResultError(f"Internal error: the {method} handler returned {describe(value)}; expected {expected}")
    result: Result = {}
    for key, field in cast(dict[str, object], value).items():
        if key == "_meta" and not isinstance(field, dict):
            continue
        result[key] = field
    if result_types is None:
        return result
    if "resultType" not in result:
        result["resultType"] = result_types[0]
        return result
    given: object = result["resultType"]
    if not isinstance(given, str) or given not in result_types:
        allowed = " or ".join(json.dumps(t) for t in result_types)
        raise ResultError(
            f"Internal error: the {method} handler returned resultType {as_json(given)}; "
            f"expected {expected} with resultType {allowed}"
        )
    return result


def method_not_found(method: str, protocol_version: str) -> ErrorObject:
    """The -32601 error for a request method the version does not have."""
    return {
        "code": METHOD_NOT_FOUND,
        "message": f"Method not found: {method} is not a request of protocol version {protocol_version}",
    }


Side = Literal["client", "server"]
"""A side of a connection: the one receiving the messages a gate checks."""


class GatePolicy(TypedDict):
    """What the method gate does besides the table's verdicts (the same policy data every target's gate takes).

    ``custom``: a method no generated version has (or only an extension the version does not serve):
    ``"pass"`` to its host, or ``"refuse"``. ``later``: a method only later versions have: ``"pass"`` or
    ``"refuse"``. A removed method and one the other side sends are always refused.
    """

    custom: Literal["pass", "refuse"]
    later: Literal["pass", "refuse"]


DEFAULT_GATE_POLICY: Final[GatePolicy] = {"custom": "refuse", "later": "refuse"}
"""The Python gate's policy unless told otherwise: every method the version does not serve is refused."""


def _refused(method: str, protocol_version: str, reason: str, why: str) -> ErrorObject:
    return {
        "code": METHOD_NOT_FOUND,
        "message": f"Method not found: {method} {why}",
        "data": {"method": method, "protocolVersion": protocol_version, "reason": reason},
    }


def gate(
    table: Mapping[str, Mapping[str, object]],
    method: str,
    protocol_version: str,
    side: Side,
    policy: GatePolicy,
) -> ErrorObject | None:
    """The -32601 error for ``method`` arriving at ``side`` under ``policy``, read from the version's METHOD_TABLE, else None.

    ``data.reason`` says why: ``"removed"``, ``"wrong_side"``, ``"other_era"`` (only later versions have
    it) or ``"unknown"`` (custom, under a refusing policy).
    """
    row = table.get(method)
    status = None if row is None else row["status"]
    if row is None or status == "extension":
        if policy["custom"] == "pass":
            return None
        return _refused(method, protocol_version, "unknown", f"is not a method of protocol version {protocol_version}")
    if status == "present":
        receivers = cast("tuple[str, ...]", row["receivers"])
        if side in receivers:
            return None
        return _refused(method, protocol_version, "wrong_side", f"is sent by the {row['sender']} only in protocol version {protocol_version}")
    if status == "removed":
        return _refused(method, protocol_version, "removed", f"is not a method of protocol version {protocol_version} (removed after {row['nearest']})")
    if policy["later"] == "pass":
        return None
    return _refused(method, protocol_version, "other_era", f"is not a method of protocol version {protocol_version} (first in {row['nearest']})")


class VersionModule(Protocol):
    """What every generated version module has (what ``version(label)`` returns, typed)."""

    @property
    def PROTOCOL_VERSION(self) -> str: ...  # noqa: N802 - the module's constant
    @property
    def ERA(self) -> str: ...  # noqa: N802
    @property
    def PREVIOUS_VERSION(self) -> str | None: ...  # noqa: N802
    @property
    def REQUESTS(self) -> Mapping[str, RequestEntry]: ...  # noqa: N802
    @property
    def NOTIFICATIONS(self) -> Mapping[str, NotificationEntry]: ...  # noqa: N802
    @property
    def REMOVED_METHODS(self) -> tuple[str, ...]: ...  # noqa: N802
    @property
    def DEFINITIONS(self) -> Mapping[str, object]: ...  # noqa: N802
    def normalize_result(self, method: str, value: object) -> Result: ...
    @property
    def METHOD_TABLE(self) -> Mapping[str, Mapping[str, object]]: ...  # noqa: N802
    def method_error(self, method: str, side: Side = "server", policy: GatePolicy = DEFAULT_GATE_POLICY) -> ErrorObject | None: ...


def normalize(requests: Mapping[str, RequestEntry], method: str, value: object) -> Result:
    """The normalized result of ``method``'s request. Raises KeyError for a method not in ``requests``."""
    return requests[method].normalizer(value)
