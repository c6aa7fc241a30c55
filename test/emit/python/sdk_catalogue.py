"""Dump for the catalogue test: the official SDK's method maps (``mcp_types.methods``, the tables the ``mcp``
2.3.0 SDK routes and gates by: "key absence is the version gate") beside the generated catalogues.

stdout: ``{"known": [...], "sdk": {map: [[method, version, [result or message names]], ...]},
"input_required": [...], "generated": {label: {"requests": {...}, "notifications": {...}, "gate": {...}}}}``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from types import UnionType
from typing import Any, get_args

import mcp_types.methods as methods
from mcp_types.version import KNOWN_PROTOCOL_VERSIONS
from typing_extensions import TypeAliasType

import mcp_codegen


def names(row: object) -> list[str]:
    arms: tuple[object, ...] = get_args(row) if isinstance(row, UnionType) else (row,)
    return [getattr(arm, "__name__", repr(arm)) for arm in arms]


def model_name(definition: object) -> str:
    """The model a definition is: a class, or the class a TypeAliasType names (``EmptyResult`` is ``Result``)."""
    value: object = definition
    while isinstance(value, TypeAliasType):
        value = value.__value__
    return getattr(value, "__name__", repr(value))


def table(rows: Mapping[tuple[str, str], object]) -> list[list[Any]]:
    return [[method, version, names(row)] for (method, version), row in sorted(rows.items())]


def main() -> None:
    sdk = {
        "CLIENT_REQUESTS": table(methods.CLIENT_REQUESTS),
        "SERVER_REQUESTS": table(methods.SERVER_REQUESTS),
        "CLIENT_NOTIFICATIONS": table(methods.CLIENT_NOTIFICATIONS),
        "SERVER_NOTIFICATIONS": table(methods.SERVER_NOTIFICATIONS),
        "SERVER_RESULTS": table(methods.SERVER_RESULTS),
        "CLIENT_RESULTS": table(methods.CLIENT_RESULTS),
    }
    every = sorted({row[0] for rows in sdk.values() for row in rows})
    generated: dict[str, Any] = {}
    for label in mcp_codegen.VERSION_MODULES:
        module = mcp_codegen.version(label)
        definitions: Mapping[str, object] = module.DEFINITIONS
        requests = {
            m: {
                "sender": e.sender,
                "results": list(e.results),
                "models": [model_name(definitions[r]) for r in e.results],
                "result_types": e.result_types,
            }
            for m, e in module.REQUESTS.items()
        }
        notifications = {m: e.sender for m, e in module.NOTIFICATIONS.items()}
        gate = {m: module.method_error(m) for m in sorted({*every, *requests, *notifications})}
        generated[label] = {"requests": requests, "notifications": notifications, "gate": gate}
    out = {
        "known": list(KNOWN_PROTOCOL_VERSIONS),
        "sdk": sdk,
        "input_required": sorted(methods.INPUT_REQUIRED_METHODS),
        "generated": generated,
    }
    sys.stdout.write(json.dumps(out))


if __name__ == "__main__":
    main()
