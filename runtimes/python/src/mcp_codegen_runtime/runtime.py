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

import dataclasses
import json
import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import cache
from types import MappingProxyType, UnionType
from typing import (
    Annotated,
    Any,
    Final,
    Literal,
    NotRequired,
    Protocol,
    Self,
    TypeAlias,
    TypedDict,
    cast,
    get_args,
)

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    ModelWrapValidatorHandler,
    PrivateAttr,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    Strict,
    TypeAdapter,
    ValidationError,
    model_serializer,
    model_validator,
)
from typing_extensions import TypeAliasType

from . import protocol

METHOD_NOT_FOUND: Final = protocol.METHOD_NOT_FOUND
INTERNAL_ERROR: Final = protocol.INTERNAL_ERROR


_NULL_REFUSED: Final = "null is not allowed here"


def _not_null(value: object) -> object:
    if value is None:
        raise ValueError(f"{_NULL_REFUSED}: leave the member out instead")
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


def multiple_of(digits: int, scale: int) -> AfterValidator:
    """JSON Schema's ``multipleOf`` by the one rule every target follows: the value divided by the divisor
    ``digits`` * 10**-``scale`` is an integer in exact decimal arithmetic on the value's shortest decimal form
    (what JSON writes, ``repr`` of a float). So 0.3 is a multiple of 0.1, although ``0.3 / 0.1`` is
    2.9999999999999996 in binary, and 1e21 is no multiple of 3."""
    divisor = Fraction(digits, 10**scale)

    def check(value: float) -> float:
        try:
            exact = Fraction(value) if isinstance(value, int) else Fraction(repr(value))
            ok = (exact / divisor).denominator == 1
        except ValueError:  # nan, inf
            ok = False
        if not ok:
            raise ValueError(f"expected a multiple of {Decimal(digits).scaleb(-scale)}")
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
"""A JSON number that is a float in Python."""
Number: TypeAlias = Annotated[int, Strict()] | Annotated[float, Strict()]
"""A JSON number: an integer stays an ``int`` (``50`` reads and writes back as ``50``, not ``50.0``)."""
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


def pattern(source: str) -> AfterValidator:
    """``pattern``: ``re.search`` of the pattern the generator translated from ECMA-262 (same meaning)."""
    compiled = re.compile(source)

    def check(value: str) -> str:
        if compiled.search(value) is None:
            raise ValueError("does not match the schema's pattern")
        return value

    return AfterValidator(check)


def number_in(*values: float) -> AfterValidator:
    """A ``const``/``enum`` of numbers that are not safe integers: the value is one of them (by value)."""

    def check(value: float) -> float:
        if value not in values:
            raise ValueError(f"is not one of {values!r}")
        return value

    return AfterValidator(check)


JsonType: TypeAlias = Literal["object", "array", "string", "number"]


def _is_json_type(value: object, kind: JsonType) -> bool:
    if kind == "object":
        return isinstance(value, dict)
    if kind == "array":
        return isinstance(value, list)
    if kind == "string":
        return isinstance(value, str)
    return isinstance(value, int | float) and not isinstance(value, bool)


def if_type(kind: JsonType, schema: object) -> AfterValidator:
    """A constraint without ``type``: a value of that JSON type satisfies the schema, any other passes."""
    inner = _Adapters((schema,))

    def check(value: Any) -> Any:
        if _is_json_type(value, kind) and not all(inner.accepts(value)):
            raise ValueError(f"does not match the schema's {kind} constraints")
        return value

    return AfterValidator(check)


def contains(schema: object, minimum: int, maximum: int | None = None) -> AfterValidator:
    """``contains`` (with ``minContains``/``maxContains``): how many items satisfy the schema."""
    inner = _Adapters((schema,))

    def check(value: list[Any]) -> list[Any]:
        n = sum(1 for item in value if all(inner.accepts(item)))
        if n < minimum or (maximum is not None and n > maximum):
            raise ValueError("has the wrong number of items matching contains")
        return value

    return AfterValidator(check)


def prefix_items(prefix: tuple[object, ...], rest: object) -> AfterValidator:
    """A tuple (``prefixItems``, draft-07's array ``items``): item i by ``prefix[i]``, the rest by ``rest``;
    the list may be shorter than the prefix."""
    firsts = [_Adapters((t,)) for t in prefix]
    others = _Adapters((rest,))

    def check(value: list[Any]) -> list[Any]:
        for i, item in enumerate(value):
            if not all((firsts[i] if i < len(firsts) else others).accepts(item)):
                raise ValueError(f"has item {i} of the wrong value")
        return value

    return AfterValidator(check)


def _json_equal(a: object, b: object) -> bool:
    """JSON equality: numbers by value (``1 == 1.0``, never a boolean), objects whatever their key order."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        la, lb = cast(list[object], a), cast(list[object], b)
        return len(la) == len(lb) and all(_json_equal(x, y) for x, y in zip(la, lb, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        da, db = cast(dict[str, object], a), cast(dict[str, object], b)
        return da.keys() == db.keys() and all(_json_equal(da[k], db[k]) for k in da)
    return type(cast(object, a)) is type(b) and a == b


def _unique(value: list[Any]) -> list[Any]:
    if any(_json_equal(value[i], value[j]) for i in range(len(value)) for j in range(i + 1, len(value))):
        raise ValueError("has items that are equal")
    return value


unique_items: Final = AfterValidator(_unique)
"""``uniqueItems: true``."""


def object_keys(
    *,
    names: object = None,
    min_properties: int | None = None,
    max_properties: int | None = None,
    patterns: tuple[tuple[str, object], ...] = (),
    known: tuple[str, ...] = (),
    additional: object = None,
    closed: bool = False,
) -> BeforeValidator:
    """What an object says of its keys, checked on the raw object before its properties are:
    ``propertyNames``, ``minProperties``/``maxProperties``, ``patternProperties`` (patterns the
    generator translated, searched) and, with patterns, ``additionalProperties`` (``closed``: none;
    ``additional``: a schema) for a key neither ``known`` nor matched."""
    name_check = None if names is None else _Adapters((names,))
    compiled = [(re.compile(p), _Adapters((t,))) for p, t in patterns]
    rest = None if additional is None else _Adapters((additional,))

    def check(value: Any) -> Any:
        if not isinstance(value, dict):
            return value
        members = cast(dict[str, object], value)
        if min_properties is not None and len(members) < min_properties:
            raise ValueError(f"has fewer than {min_properties} properties")
        if max_properties is not None and len(members) > max_properties:
            raise ValueError(f"has more than {max_properties} properties")
        for key, member in members.items():
            if name_check is not None and not all(name_check.accepts(key)):
                raise ValueError(f"has the property name {key!r}, which the schema does not allow")
            matched = False
            for regex, schema in compiled:
                if regex.search(key) is not None:
                    matched = True
                    if not all(schema.accepts(member)):
                        raise ValueError(f"has the pattern property {key!r} of the wrong value")
            if matched or key in known:
                continue
            if closed:
                raise ValueError(f"has the unknown property {key!r}")
            if rest is not None and not all(rest.accepts(member)):
                raise ValueError(f"has the additional property {key!r} of the wrong value")
        return members

    return BeforeValidator(check)


def _wire_names(cls: type[BaseModel]) -> dict[str, str]:
    """Field name → wire name, for every field whose wire name differs (``meta`` → ``_meta``)."""
    out: dict[str, str] = {}
    for name, field in cls.model_fields.items():
        wire = field.validation_alias
        if isinstance(wire, str) and wire != name:
            out[name] = wire
    return out


class _WireModel(BaseModel):
    """What open and closed models share: the wire in, the same wire out.

    - Validation reads members by their wire names only (``{"meta": …}`` is an unknown member
      ``meta``, never the ``_meta`` field); a constructor takes field names as well
      (``Result(meta={…})`` sets ``_meta``), typed by them.
    - A field is set when its wire name was given, and only then; a dump (``model_dump()``,
      ``model_dump_json()``, by alias unless told otherwise) leaves unset fields out, so what a
      model writes its own model accepts, and writes members in the order they were read.
    """

    _wire_order: tuple[str, ...] | None = PrivateAttr(default=None)

    def __init__(self, /, **data: Any) -> None:
        names = _wire_names(type(self))
        wires = set(names.values())
        super().__init__(**{(names[k] if k in names and k not in wires else k): v for k, v in data.items()})

    # As pydantic's RootModel does: validation (model_validate*) does not go through this __init__,
    # so only a constructor call translates field names; the wire is read by wire names alone.
    __init__.__pydantic_base_init__ = True  # pyright: ignore[reportFunctionMemberAccess]

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        # A field's ``alias`` reports its wire name as well (validation and serialization already use
        # it), for code that reads a model's wire names from ``FieldInfo.alias``, as pydantic sets it
        # when the two aliases agree. Left out of the printed ``Field(...)``: there it would make the
        # typed constructor take wire names only.
        super().__pydantic_init_subclass__(**kwargs)
        for info in cls.model_fields.values():
            if info.alias is None and isinstance(info.serialization_alias, str):
                info.alias = info.serialization_alias

    @model_validator(mode="wrap")
    @classmethod
    def _set_by_wire_name(cls, data: object, handler: ModelWrapValidatorHandler[Self]) -> Self:
        # pydantic counts a field as set when an unknown member bears its Python name (an extra "meta"
        # beside the field for "_meta"); a field is set when its wire name was given, and only then.
        model = handler(data)
        if isinstance(data, dict):
            given = tuple(cast(dict[str, object], data).keys())
            names = set(given)
            model.__pydantic_fields_set__ = {
                n for n, f in cls.model_fields.items() if (f.validation_alias if isinstance(f.validation_alias, str) else n) in names
            }
            model._wire_order = given
        return model

    @model_serializer(mode="wrap")
    def _as_wire(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> dict[str, Any]:
        dumped = cast(dict[str, Any], handler(self))
        by_alias = info.by_alias is not False
        for name, field in type(self).model_fields.items():
            if name not in self.model_fields_set:
                alias = field.serialization_alias
                dumped.pop(alias if by_alias and isinstance(alias, str) else name, None)
        order = self._wire_order
        if order is None or not by_alias:
            return dumped
        ordered = {k: dumped[k] for k in order if k in dumped}
        ordered.update(dumped)
        return ordered


class OpenModel(_WireModel):
    """An object that admits members it does not describe (no ``additionalProperties``, or ``true``)."""

    model_config = _config("allow")


class ClosedModel(_WireModel):
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
Definition = type[BaseModel] | TypeAliasType
"""What ``DEFINITIONS`` maps a spec name to: a model class, or a ``TypeAliasType`` for the rest."""
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


_SLOT = re.compile(r"\{(method|protocolVersion)\}")


def gate(
    table: Mapping[str, Mapping[str, object]],
    method: str,
    protocol_version: str,
    side: Side,
    policy: GatePolicy,
) -> ErrorObject | None:
    """The -32601 error for ``method`` arriving at ``side`` under ``policy``, read from the version's METHOD_TABLE, else None.

    A lookup: the row's verdict at ``side`` (the model's: accepted, or the refusal's code, reason, message
    and the policy that may let it through), else, for a method no row names, the protocol module's
    ``UNKNOWN_METHOD`` (its message's ``{method}`` and ``{protocolVersion}`` filled). ``data.reason`` says
    why: ``"removed"``, ``"wrong_side"``, ``"other_era"`` (only later versions have it) or ``"unknown"``.
    """
    row = table.get(method)
    verdict = cast(
        Mapping[str, object],
        protocol.UNKNOWN_METHOD if row is None else cast(Mapping[str, object], row["verdicts"])[side],
    )
    if verdict["accepted"]:
        return None
    lifted_by = verdict["policy"]
    if lifted_by is not None and policy[cast(Literal["custom", "later"], lifted_by)] == "pass":
        return None
    data = {"method": method, "protocolVersion": protocol_version, "reason": cast(str, verdict["reason"])}
    message = cast(str, verdict["message"])
    if row is None:
        message = _SLOT.sub(lambda m: data[m.group(1)], message)
    return {"code": cast(int, verdict["code"]), "message": message, "data": data}


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
    def DEFINITIONS(self) -> Mapping[str, Definition]: ...  # noqa: N802
    def normalize_result(self, method: str, value: object) -> Result: ...
    @property
    def METHOD_TABLE(self) -> Mapping[str, Mapping[str, object]]: ...  # noqa: N802
    def method_error(self, method: str, side: Side = "server", policy: GatePolicy = DEFAULT_GATE_POLICY) -> ErrorObject | None: ...


class ExtensionModule(VersionModule, Protocol):
    """What every generated extension module has (what ``extension(label)`` returns, typed): a version module of
    the core version (its PROTOCOL_VERSION) with the extension layered onto it, and the extension's constants."""

    @property
    def EXTENSION(self) -> str: ...  # noqa: N802 - the identifier negotiated under capabilities.extensions
    @property
    def EXTENSION_VERSION(self) -> str: ...  # noqa: N802
    @property
    def EXTENSION_REQUESTS(self) -> tuple[str, ...]: ...  # noqa: N802
    @property
    def EXTENSION_NOTIFICATIONS(self) -> tuple[str, ...]: ...  # noqa: N802


def normalize(requests: Mapping[str, RequestEntry], method: str, value: object) -> Result:
    """The normalized result of ``method``'s request. Raises KeyError for a method not in ``requests``."""
    return requests[method].normalizer(value)


# --- Validation policies: what a host may let through beyond the schema, each option named and off by default ---

Path = tuple[str, ...]
"""A member path from a definition's value: keys of objects, ``"*"`` for any key or index."""

Location = tuple[int | str, ...]
"""Where a value is in a message: keys and indexes."""


def _no_paths() -> Mapping[str, tuple[Path, ...]]:
    return MappingProxyType({})


@dataclass(frozen=True)
class ValidationPolicy:
    """How ``validate``, ``dump`` and ``result_type`` differ from the schema. Every option defaults to the
    schema's own behaviour (``STRICT``); a host that differs from the schema on purpose (an SDK keeping what
    its users rely on) says so here, option by option, and the models themselves stay strict.

    Definitions are named by their spec name (a union's arms each by its own).
    """

    lenient_paths: Mapping[str, tuple[Path, ...]] = dataclasses.field(default_factory=_no_paths)
    """Per definition, the member paths where a value the models refuse is let through unchanged: a refusal
    is waived only when it lies entirely at these paths and the value validates without what is there."""
    lax_integers: Mapping[str, tuple[Path, ...]] = dataclasses.field(default_factory=_no_paths)
    """Per definition, the member paths where a boolean is read as the integer 0 or 1 (pydantic's lax mode)."""
    null_as_absent: bool = False
    """An explicit ``null`` for an optional member whose schema has no null reads as the member left out."""
    last_arms: tuple[str, ...] = ()
    """Result definitions put last in a result union (pydantic's smart union resolves a tie leftmost)."""
    sieve: bool = False
    """``dump`` sends only what the schema declares: members a named definition does not declare are
    dropped (``_meta`` and the members of inline objects are kept whole), and a member that is None is
    left out. Off: every member the value holds is sent."""


STRICT: Final = ValidationPolicy()
"""The schema's behaviour: nothing waived, no coercion, ``null`` refused where the schema has none, the
result union in the table's order, every member sent."""


@dataclass(frozen=True)
class Validated:
    """What ``validate`` returns: the validated ``value``, the ``data`` it came from and the ``waived``
    locations (``ValidationPolicy.lenient_paths``), whose values ``dump`` puts back as they came."""

    value: Any
    data: Any
    waived: tuple[Location, ...] = ()


def result_type(definitions: Mapping[str, object], results: tuple[str, ...], policy: ValidationPolicy = STRICT) -> Any:
    """The type of a request's result: its one definition, or the union of them in ``results``' order
    (a ``RequestEntry``'s or METHOD_TABLE's), ``policy.last_arms`` moved to the end."""
    names = sorted(results, key=lambda name: name in policy.last_arms)
    row: Any = definitions[names[0]]
    for name in names[1:]:
        row = row | definitions[name]
    return row


@cache
def _adapter(target: Any) -> TypeAdapter[Any]:
    return TypeAdapter(target)


def _arm_names(target: object) -> list[str]:
    arms: tuple[object, ...] = get_args(target) if isinstance(target, UnionType) else (target,)
    return [str(getattr(arm, "__name__", "")) for arm in arms]


def _matches(loc: Location, pattern: Path) -> bool:
    return len(loc) >= len(pattern) and all(p == "*" or p == part for p, part in zip(pattern, loc, strict=False))


def _coerce_booleans(data: object, paths: list[Path]) -> object:
    """A copy of ``data`` with every boolean at ``paths`` as the integer it is in lax mode."""

    def at(value: object, path: Path) -> object:
        if not path:
            return int(value) if isinstance(value, bool) else value
        head, rest = path[0], path[1:]
        if isinstance(value, Mapping):
            items = cast(Mapping[str, object], value)
            return {k: at(v, rest) if head in ("*", k) else v for k, v in items.items()}
        if isinstance(value, list) and head == "*":
            listed: list[object] = [at(v, rest) for v in cast(list[object], value)]
            return listed
        return cast(object, value)

    for path in paths:
        data = at(data, path)
    return data


def _without(data: object, locations: list[Location]) -> object:
    """A deep copy of ``data`` without the members at ``locations`` (an array item becomes ``null``)."""
    copy: Any = json.loads(json.dumps(data))
    for loc in sorted(locations, key=len, reverse=True):
        parent: Any = copy
        for part in loc[:-1]:
            parent = parent[part]
        last = loc[-1]
        if isinstance(parent, dict) and last in parent:
            del parent[last]
        elif isinstance(parent, list) and isinstance(last, int):
            cast(list[object], parent)[last] = None
    return cast(object, copy)


def _member_loc(loc: tuple[int | str, ...]) -> Location:
    """An error location as a member path: pydantic's validator and union-arm steps (``function-wrap[...]``) left out."""
    return tuple(part for part in loc if not (isinstance(part, str) and "[" in part and part.endswith("]")))


def _is_null_at(data: object, loc: Location) -> bool:
    value: Any = data
    try:
        for part in loc:
            value = value[part]
    except (KeyError, IndexError, TypeError):
        return False
    return bool(loc) and value is None


def validate(target: object, data: object, policy: ValidationPolicy = STRICT, *, adapter: TypeAdapter[Any] | None = None) -> Validated:
    """``data`` validated against ``target`` (a model, an alias or a union of them) under ``policy``.

    Raises pydantic's ValidationError, the first refusal, when ``data`` is refused. Under ``STRICT`` this
    is the models' own validation; the policy's options only ever waive or coerce what they name.
    ``adapter``: the ``TypeAdapter`` of ``target`` to validate with (a host's own cache of them); by
    default one the runtime builds on first use and keeps.
    """
    adapter = _adapter(target) if adapter is None else adapter
    arms = _arm_names(target)
    lax = [p for name in arms for p in policy.lax_integers.get(name, ())]
    current = _coerce_booleans(data, lax) if lax else data
    patterns = [p for name in arms for p in policy.lenient_paths.get(name, ())]
    waived: list[Location] = []
    first: ValidationError | None = None
    # Each round leaves out what the last refusal waived; a message has only so many lenient members.
    for _ in range(8):
        try:
            return Validated(adapter.validate_python(current), data, tuple(waived))
        except ValidationError as error:
            first = first or error
            found: list[Location] = []
            for detail in error.errors():
                loc = _member_loc(tuple(detail["loc"]))
                covered = next((loc[: len(p)] for p in patterns if _matches(loc, p)), None)
                if covered is None:
                    if policy.null_as_absent and _NULL_REFUSED in detail["msg"] and _is_null_at(current, loc) and loc not in found:
                        found.append(loc)
                    continue
                if covered not in waived and covered not in found:
                    waived.append(covered)
                    found.append(covered)
            if not found:
                break
            current = _without(current, found)
    assert first is not None
    raise first


def _is_definition(cls: type) -> bool:
    """Whether ``cls`` is a named definition of its version module (``DEFINITIONS``), not an inline object."""
    definitions: object = getattr(sys.modules.get(cls.__module__), "DEFINITIONS", None)
    return isinstance(definitions, Mapping) and cls in cast(Mapping[str, object], definitions).values()


def _whole(value: object) -> object:
    """``value`` as JSON, every member kept (a ``_meta``, an open bag)."""
    if isinstance(value, BaseModel):
        return value.model_dump(by_alias=True, mode="json", exclude_unset=True)
    if isinstance(value, list):
        return [_whole(item) for item in cast(list[object], value)]
    if isinstance(value, dict):
        return {key: _whole(item) for key, item in cast(dict[str, object], value).items()}
    return value


def _sieved(value: object) -> object:
    if isinstance(value, BaseModel):
        out: dict[str, object] = {}
        for name, info in type(value).model_fields.items():
            if name not in value.model_fields_set:
                continue
            item: object = getattr(value, name)
            if item is None:
                continue
            key = info.serialization_alias or info.alias or name
            out[key] = _whole(item) if key == "_meta" else _sieved(item)
        if value.__pydantic_extra__ and not _is_definition(type(value)):
            out.update({key: _whole(item) for key, item in value.__pydantic_extra__.items()})
        return out
    if isinstance(value, list):
        return [_sieved(item) for item in cast(list[object], value)]
    if isinstance(value, dict):
        return {key: _sieved(item) for key, item in cast(dict[str, object], value).items()}
    return value


def dump(validated: Validated, policy: ValidationPolicy = STRICT) -> Any:
    """A validated value as JSON by wire name, unset members left out (``policy.sieve``: only what the
    schema declares), the values at the waived locations put back as they came."""
    out: Any = _sieved(validated.value) if policy.sieve else _whole(validated.value)
    for loc in validated.waived:
        source: Any = validated.data
        target: Any = out
        for part in loc[:-1]:
            source = source[part]
            target = target[part]
        target[loc[-1]] = source[loc[-1]]
    return out
