"""Driver for the cross-language and differential tests: a JSON array of cases on stdin, a JSON array of answers out.

- ``{"version": label, "method": m, "input": json}`` → ``{"ok": result}`` or ``{"error": {"code", "message"}}``
- ``{"version": label, "gate": m}`` → ``{"gate": error object or null}``
- ``{"version": label, "catalogue": true}`` → ``{"requests": [...], "notifications": [...]}``
- ``{"version": label, "definition": name, "instances": [json text, ...]}`` → ``{"valid": [bool, ...], "changed": [index, ...]}``
  (each instance validated from its JSON text by the generated model; ``changed``: accepted instances
  that do not dump back to the same JSON, by alias with unset fields left out)
"""

from __future__ import annotations

import json
import sys
from typing import Any, cast

from pydantic import TypeAdapter, ValidationError

import mcp_codegen
from mcp_codegen import runtime


def same_json(a: object, b: object) -> bool:
    """Equal as JSON values: booleans are not numbers, object member order aside."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and bool(a) == bool(b)
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        da = cast(dict[str, object], a)
        db = cast(dict[str, object], b)
        return da.keys() == db.keys() and all(same_json(da[k], db[k]) for k in da)
    if isinstance(a, list) and isinstance(b, list):
        la = cast(list[object], a)
        lb = cast(list[object], b)
        return len(la) == len(lb) and all(same_json(x, y) for x, y in zip(la, lb, strict=True))
    return type(cast(object, a)) is type(b) and a == b


def validate(module: runtime.VersionModule, name: str, instances: list[str]) -> dict[str, Any]:
    definitions = module.DEFINITIONS
    adapter: TypeAdapter[object] = TypeAdapter(cast(Any, definitions[name]))
    valid: list[bool] = []
    changed: list[int] = []
    for i, text in enumerate(instances):
        try:
            value = adapter.validate_json(text)
        except ValidationError:
            valid.append(False)
            continue
        valid.append(True)
        dumped = adapter.dump_python(value, mode="json", by_alias=True, exclude_unset=True)
        if not same_json(dumped, json.loads(text)):
            changed.append(i)
    return {"valid": valid, "changed": changed}


def answer(case: dict[str, Any]) -> dict[str, Any]:
    module = mcp_codegen.version(case["version"])
    if "gate" in case:
        # The gate's verdict at a server; a notification is never a request the dispatcher answers.
        return {"gate": module.method_error(case["gate"]), "notification": case["gate"] in module.NOTIFICATIONS}
    if "catalogue" in case:
        return {"requests": list(module.REQUESTS), "notifications": list(module.NOTIFICATIONS)}
    if "definition" in case:
        return validate(module, case["definition"], case["instances"])
    try:
        return {"ok": module.normalize_result(case["method"], case["input"])}
    except runtime.ResultError as e:
        return {"error": e.to_error()}


def main() -> None:
    cases = cast(list[dict[str, Any]], json.loads(sys.stdin.read()))
    sys.stdout.write(json.dumps([answer(c) for c in cases], ensure_ascii=False))


if __name__ == "__main__":
    main()
