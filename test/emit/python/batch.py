"""Driver for the cross-language and differential tests: a JSON array of cases on stdin, a JSON array of answers out.

``version`` is a version label; with ``extension`` (an identifier), the case is that extension module's.

- ``{"version": label, "method": m, "input": json}`` → ``{"ok": result}`` or ``{"error": {"code", "message"}}``
- ``{"version": label, "catalogue": true}`` → ``{"requests": [...], "notifications": [...]}``
- ``{"version": label, "definition": name, "instances": [json text, ...]}`` → ``{"valid": [bool, ...], "changed": [index, ...]}``
  (each instance validated from its JSON text by the generated model; ``changed``: accepted instances
  whose plain dump is not the same JSON text, member order and integers included, or is refused by
  its own model)
"""

from __future__ import annotations

import json
import sys
from typing import Any, cast

from pydantic import TypeAdapter, ValidationError

import mcp_codegen
from mcp_codegen import runtime


def _beyond_doubles(value: object) -> object:
    # An integer beyond 2**53 is no exact JSON number: the schema's integer 1.152921504606847e+21
    # reads as the int 2**60 and is written as the same double.
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and abs(value) >= 2**53:
        return float(value)
    if isinstance(value, dict):
        return {k: _beyond_doubles(v) for k, v in cast(dict[str, object], value).items()}
    if isinstance(value, list):
        return [_beyond_doubles(v) for v in cast(list[object], value)]
    return value


def compact(value: object) -> str:
    """JSON text, no spaces, non-ASCII as is; an integer stays an integer (``50``, never ``50.0``)."""
    return json.dumps(_beyond_doubles(value), ensure_ascii=False, separators=(",", ":"))


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
        # The defaults (a plain dump) write the wire back: the same JSON text, member order and
        # integers included, and what is dumped its own model accepts again.
        dumped = adapter.dump_python(value, mode="json")
        again = adapter.dump_python(adapter.validate_python(adapter.dump_python(value)), mode="json")
        if compact(dumped) != compact(json.loads(text)) or compact(again) != compact(dumped):
            changed.append(i)
    return {"valid": valid, "changed": changed}


def answer(case: dict[str, Any]) -> dict[str, Any]:
    label = case["version"]
    module = mcp_codegen.extension(label, case["extension"]) if "extension" in case else mcp_codegen.version(label)
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
