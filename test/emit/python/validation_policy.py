"""Driver for the validation policy test: ``runtime.validate`` / ``dump`` / ``result_type`` under a policy.

stdin: a JSON list of cases, each ``{"era": "legacy"|"modern", "results": [definition names], "data": value,
"policy": {option: value} | null, "declares"?: [definition, member]}`` (``null``: the defaults, no policy
argument at all; ``declares``: the version's definition must declare that wire member). The version is the
latest of the era whose module defines every name (the test reads no version label), or the case's ``"at"``
(a label the test chose from the schema files).

stdout: a JSON list, per case ``{"version", "arms": [names, in union order], "ok": true, "type": name,
"dump": value, "waived": [locations]}`` or ``{"version", "arms", "ok": false, "errors": [[location, message]]}``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from types import UnionType
from typing import Any, cast, get_args

from pydantic import ValidationError

import mcp_codegen
from mcp_codegen import runtime


def declares(module: runtime.VersionModule, definition: str, member: str) -> bool:
    """Whether ``definition`` of ``module`` is a model declaring the wire member ``member``."""
    model = module.DEFINITIONS.get(definition)
    fields: Mapping[str, Any] = getattr(model, "model_fields", {})
    return any(member in (name, getattr(f, "alias", None), getattr(f, "serialization_alias", None)) for name, f in fields.items())


def module_for(era: str, names: list[str], declared: list[str] | None, at: str | None = None) -> runtime.VersionModule:
    if at is not None:
        module = mcp_codegen.version(at)
        if module.ERA != era or not all(name in module.DEFINITIONS for name in names):
            raise SystemExit(f"version {at} is not {era} or does not define {names}")
        return module
    for label in sorted(mcp_codegen.VERSION_MODULES, reverse=True):
        module = mcp_codegen.version(label)
        if module.ERA != era or not all(name in module.DEFINITIONS for name in names):
            continue
        if declared is None or declares(module, declared[0], declared[1]):
            return module
    raise SystemExit(f"no {era} version defines {names}{'' if declared is None else f' with {declared}'}")


def paths(option: object) -> Mapping[str, tuple[runtime.Path, ...]]:
    given = cast(Mapping[str, list[list[str]]], option)
    return {name: tuple(tuple(path) for path in found) for name, found in given.items()}


def policy_of(given: Mapping[str, Any]) -> runtime.ValidationPolicy:
    return runtime.ValidationPolicy(
        lenient_paths=paths(given.get("lenient_paths", {})),
        lax_integers=paths(given.get("lax_integers", {})),
        null_as_absent=bool(given.get("null_as_absent", False)),
        last_arms=tuple(cast(list[str], given.get("last_arms", []))),
        sieve=bool(given.get("sieve", False)),
    )


def arms(target: object) -> list[str]:
    found: tuple[object, ...] = get_args(target) if isinstance(target, UnionType) else (target,)
    return [str(getattr(arm, "__name__", repr(arm))) for arm in found]


def answer(case: Mapping[str, Any]) -> dict[str, Any]:
    names = cast(list[str], case["results"])
    module = module_for(cast(str, case["era"]), names, cast(list[str] | None, case.get("declares")), cast(str | None, case.get("at")))
    given = cast(Mapping[str, Any] | None, case["policy"])
    policy = None if given is None else policy_of(given)
    target = runtime.result_type(module.DEFINITIONS, tuple(names)) if policy is None else runtime.result_type(module.DEFINITIONS, tuple(names), policy)
    out: dict[str, Any] = {"version": module.PROTOCOL_VERSION, "arms": arms(target)}
    try:
        validated = runtime.validate(target, case["data"]) if policy is None else runtime.validate(target, case["data"], policy)
    except ValidationError as error:
        out.update(ok=False, errors=[[list(e["loc"]), e["msg"]] for e in error.errors()])
        return out
    dumped = runtime.dump(validated) if policy is None else runtime.dump(validated, policy)
    out.update(ok=True, type=type(validated.value).__name__, dump=dumped, waived=[list(loc) for loc in validated.waived])
    return out


def main() -> None:
    cases = cast(list[Mapping[str, Any]], json.load(sys.stdin))
    json.dump([answer(case) for case in cases], sys.stdout)


if __name__ == "__main__":
    main()
