"""The official SDK's models (PyPI ``mcp-types`` 2.3.0) on the differential corpus.

stdin: ``{"version": label, "era": "legacy" | "modern", "definitions": {name: [json text, ...]}}``; stdout:
``{"module": name or null, "verdicts": {name: [bool, ...]}}`` for every definition the SDK's per-version
validators (``mcp_types._v2025_11_25`` for a legacy version, ``mcp_types._v2026_07_28`` for a modern one:
the era as the model decides it, never read from the label) define a model or type of the same name for.
"""

from __future__ import annotations

import importlib
import json
import sys
from types import ModuleType
from typing import Any, cast

from pydantic import TypeAdapter, ValidationError


def sdk_module(era: str) -> ModuleType:
    """The SDK's shape validators for a version's era: its 2025-11-25 schema stands in for every legacy version."""
    if era not in ("legacy", "modern"):
        raise ValueError(f"era must be legacy or modern, got {era!r}")
    name = "mcp_types._v2025_11_25" if era == "legacy" else "mcp_types._v2026_07_28"
    return importlib.import_module(name)


def main() -> None:
    request = cast(dict[str, Any], json.loads(sys.stdin.read()))
    module = sdk_module(cast(str, request["era"]))
    verdicts: dict[str, list[bool]] = {}
    for name, instances in cast(dict[str, list[str]], request["definitions"]).items():
        if not hasattr(module, name):
            continue
        try:
            adapter: TypeAdapter[object] = TypeAdapter(getattr(module, name))
        except Exception:  # noqa: BLE001 - a name that is no type (a constant) is no model to compare
            continue
        out: list[bool] = []
        for text in instances:
            try:
                adapter.validate_json(text)
                out.append(True)
            except ValidationError:
                out.append(False)
        verdicts[name] = out
    sys.stdout.write(json.dumps({"module": module.__name__, "verdicts": verdicts}))


if __name__ == "__main__":
    main()
