"""The projection interpreter (issue 41): a value valid at one protocol version projected onto another.

Hand-written Python, the mirror of the TypeScript runtime's ``projection.ts``. The shapes are data the
generator decides from the schemas (``generator/model/projections.ts``, printed as the tree's
``projections.py``); this only walks them: undeclared members of a closed object dropped, required
members supplied from the defaults given, a union's branches narrowed by the member the data names for
telling them apart (the value's, else the default given), of those the branch dropping the fewest
members taken, and anything else refused with the JSON pointer at fault and the reason. No protocol fact is decided here.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Projected", "Refused", "project_params", "project_result", "project_shape"]


@dataclass
class Projected:
    """The value at the target, with the pointers of the members dropped and of the defaults supplied."""

    value: Any
    dropped: list[str] = field(default_factory=lambda: [])
    added: list[str] = field(default_factory=lambda: [])
    ok: bool = True


@dataclass
class Refused:
    """No faithful value at the target: the JSON pointer of the value at fault, and why."""

    pointer: str
    reason: str
    ok: bool = False


class _Refusal(Exception):
    def __init__(self, pointer: str, reason: str) -> None:
        super().__init__(reason)
        self.pointer = pointer
        self.reason = reason


def _token(name: str) -> str:
    return name.replace("~", "~0").replace("/", "~1")


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


_ANY: Mapping[str, Any] = {"k": "any"}


class _Walker:
    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data
        self.label: str = data["label"]
        self.dropped: list[str] = []
        self.added: list[str] = []

    def _type(self, at: str, expected: str, value: Any) -> _Refusal:
        return _Refusal(at, f"version {self.label} expects {expected} here, not {_json_type(value)}")

    def walk(self, value: Any, shape: Mapping[str, Any], at: str, defaults: Mapping[str, Any] | None, is_open: bool = False) -> Any:  # noqa: C901, PLR0911, PLR0912
        kind = shape["k"]
        if kind == "any":
            return value
        if kind == "never":
            raise _Refusal(at, f"version {self.label} allows no value here")
        if kind == "lit":
            if not any(_same_literal(v, value) for v in shape["values"]):
                raise _Refusal(at, f"version {self.label} allows only {', '.join(map(_json, shape['values']))} here, not {_json(value)}")
            return value
        if kind == "str":
            if not isinstance(value, str):
                raise self._type(at, "a string", value)
            if ("minLength" in shape and len(value) < shape["minLength"]) or ("maxLength" in shape and len(value) > shape["maxLength"]) or ("pattern" in shape and re.search(shape["pattern"], value) is None):
                raise _Refusal(at, f"the string does not meet version {self.label}'s length or pattern")
            return value
        if kind == "num":
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise self._type(at, "a number", value)
            if (
                (shape["integer"] and not float(value).is_integer())
                or ("minimum" in shape and value < shape["minimum"])
                or ("maximum" in shape and value > shape["maximum"])
                or ("exclusiveMinimum" in shape and value <= shape["exclusiveMinimum"])
                or ("exclusiveMaximum" in shape and value >= shape["exclusiveMaximum"])
            ):
                raise _Refusal(at, f"{value} is out of version {self.label}'s range")
            return value
        if kind == "bool":
            if not isinstance(value, bool):
                raise self._type(at, "a boolean", value)
            return value
        if kind == "null":
            if value is not None:
                raise self._type(at, "null", value)
            return value
        if kind == "arr":
            if not isinstance(value, list):
                raise self._type(at, "an array", value)
            items: list[Any] = value  # pyright: ignore[reportUnknownVariableType]
            if ("minItems" in shape and len(items) < shape["minItems"]) or ("maxItems" in shape and len(items) > shape["maxItems"]):
                raise _Refusal(at, f"the array's length is out of version {self.label}'s bounds")
            return [self.walk(item, shape["items"], f"{at}/{i}", None) for i, item in enumerate(items)]
        if kind == "ref":
            target = self.data["definitions"].get(shape["name"])
            if target is None:
                raise _Refusal(at, f"version {self.label} has no definition {shape['name']}")
            return self.walk(value, target, at, defaults, is_open or shape.get("open") is True)
        if kind == "union":
            return self._union(value, shape, at, defaults, is_open)
        return self._object(value, shape, at, defaults, is_open)

    def _union(self, value: Any, shape: Mapping[str, Any], at: str, defaults: Mapping[str, Any] | None, is_open: bool) -> Any:
        best: _Walker | None = None
        best_value: Any = None
        first: _Refusal | None = None
        agreed = True
        branches = self._tagged(value, shape, at, defaults)
        for branch in branches:
            w = _Walker(self.data)
            try:
                v = w.walk(value, branch, at, defaults, is_open)
            except _Refusal as e:
                first = first or e
                agreed = agreed and e.pointer == first.pointer
                continue
            if best is None or len(w.dropped) < len(best.dropped):
                best, best_value = w, v
        if best is None:
            # One branch named by the tag, or every branch refusing at the same place inside the value: that
            # refusal says where the value fails.
            if first is not None and (len(branches) == 1 or (agreed and first.pointer != at)):
                raise first
            kind = f" (type {_json(value['type'])})" if isinstance(value, dict) and isinstance(value.get("type"), str) else ""  # pyright: ignore[reportUnknownMemberType]
            detail = f": {first.pointer}: {first.reason}" if first is not None and first.pointer != at else ""
            raise _Refusal(at, f"no variant of version {self.label} accepts this value{kind}{detail}")
        self.dropped.extend(best.dropped)
        self.added.extend(best.added)
        return best_value

    def _tagged(self, value: Any, shape: Mapping[str, Any], at: str, defaults: Mapping[str, Any] | None) -> list[Any]:
        """The branches a union's tag names for the value (the value's member, else its default); all where it names none."""
        tag = shape.get("tag")
        if tag is None or not isinstance(value, dict):
            return list(shape["branches"])
        member = tag["member"]
        members: dict[str, Any] = value  # pyright: ignore[reportUnknownVariableType]
        given: Any
        if member in members:
            given = members[member]
        elif defaults is not None and member in defaults:
            given = defaults[member]
        else:
            return list(shape["branches"])
        named = [b for b, values in zip(shape["branches"], tag["values"], strict=True) if values is None or any(_same_literal(v, given) for v in values)]
        if not named:
            raise _Refusal(at, f"version {self.label} has no variant whose {member} is {_json(given)}")
        return named

    def _object(self, value: Any, shape: Mapping[str, Any], at: str, defaults: Mapping[str, Any] | None, is_open: bool) -> Any:
        if not isinstance(value, dict):
            raise self._type(at, "an object", value)
        members: dict[str, Any] = value  # pyright: ignore[reportUnknownVariableType]
        out: dict[str, Any] = {}
        declared = {p["name"] for p in shape["props"]}
        for p in shape["props"]:
            where = f"{at}/{_token(p['name'])}"
            if p["name"] in members:
                out[p["name"]] = self.walk(members[p["name"]], p["s"], where, None)
            elif p["required"]:
                if defaults is not None and p["name"] in defaults:
                    supplied = defaults[p["name"]]
                elif "default" in p:
                    supplied = p["default"]
                else:
                    raise _Refusal(where, f"version {self.label} requires this member and gives it no default")
                out[p["name"]] = copy.deepcopy(supplied)
                self.added.append(where)
        extra = shape["extra"] if shape["extra"] is not None else (_ANY if is_open else None)
        # Undeclared members in code point order, as every runtime walks them: the first to fail names the refusal.
        for name, member in sorted(members.items()):
            if name in declared:
                continue
            where = f"{at}/{_token(name)}"
            if extra is None:
                self.dropped.append(where)
            else:
                out[name] = self.walk(member, extra, where, None)
        return out


def _json(value: Any) -> str:
    """A value in a reason as JSON text, as the other runtimes write it (``"text"``, not ``'text'``)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _same_literal(a: Any, b: Any) -> bool:
    """JSON equality of primitives: ``True`` is not ``1``."""
    return isinstance(a, bool) == isinstance(b, bool) and a == b and (a is None) == (b is None)


def _run(data: Mapping[str, Any], value: Any, shape: Mapping[str, Any], defaults: Mapping[str, Any] | None) -> Projected | Refused:
    w = _Walker(data)
    try:
        out = w.walk(value, shape, "", defaults)
    except _Refusal as e:
        return Refused(e.pointer, e.reason)
    return Projected(out, w.dropped, w.added)


def project_result(target: Mapping[str, Any], method: str, value: Any) -> Projected | Refused:
    """A result of ``method`` (valid at any version) projected onto ``target``'s result of the method."""
    entry = target["results"].get(method)
    if entry is None:
        return Refused("", f"version {target['label']} has no request {method}")
    return _run(target, value, entry["shape"], entry["defaults"])


def project_params(target: Mapping[str, Any], method: str, value: Any) -> Projected | Refused:
    """Params of ``method`` (valid at any version) projected onto ``target``'s params (lifting an older request)."""
    if value is None:
        return Projected(value)
    shape = target["params"].get(method)
    if shape is None:
        return Refused("", f"version {target['label']} has no params for {method}")
    return _run(target, value, shape, None)


def project_shape(target: Mapping[str, Any], shape: Mapping[str, Any], value: Any) -> Projected | Refused:
    """Any value projected onto a shape of ``target``'s data (its ``serverCapabilities``, a definition's ``ref``)."""
    return _run(target, value, shape, None)
