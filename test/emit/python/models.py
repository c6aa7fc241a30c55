"""Driver for models.test.ts: the faithful-model facts of the generated tree, as one JSON object on stdout."""

from __future__ import annotations

import importlib
import json
import sys
from typing import Any

from mcp_codegen import v2025_11_25


def main() -> None:
    # {"module", "owner"}: a version module the lock says is identical to an earlier one, and that one (or nulls).
    pair: dict[str, Any] = json.loads(sys.stdin.read())
    out: dict[str, object] = {}
    # Integers stay integers, floats stay floats, in `number` members.
    progress = v2025_11_25.ProgressNotification.model_validate_json(
        '{"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": "t", "progress": 50, "total": 100.5}}'
    )
    out["progress"] = progress.model_dump_json()
    # A plain dump leaves unset members out and its own model accepts it; member order is the wire's.
    init = v2025_11_25.InitializeRequestParams.model_validate(
        {"protocolVersion": "2025-11-25", "clientInfo": {"version": "1", "name": "c"}, "capabilities": {}}
    )
    dumped = init.model_dump()
    out["dump"] = dumped
    out["dump_again"] = v2025_11_25.InitializeRequestParams.model_validate(dumped).model_dump()
    # Constructors take field names as well as wire names; `meta=` is the `_meta` field.
    by_name = v2025_11_25.Implementation(name="n", version="1", website_url="https://x.example")
    by_alias = v2025_11_25.Implementation.model_validate({"name": "n", "version": "1", "websiteUrl": "https://x.example"})
    out["by_name"] = by_name.model_dump()
    out["by_name_equals_wire"] = by_name == by_alias
    result = v2025_11_25.Result(meta={"k": 1})
    out["result_meta"] = result.model_dump()
    out["result_meta_extra"] = result.model_extra
    # On the wire, a member "meta" is an unknown member, not `_meta`.
    wire = v2025_11_25.Result.model_validate({"meta": {"k": 1}})
    out["wire_meta"] = [wire.meta, wire.model_extra]
    # An identical version's definitions are the earlier one's, re-exported: the same classes.
    if pair["module"] is not None:
        mine: Any = importlib.import_module(f"mcp_codegen.{pair['module']}")
        owner: Any = importlib.import_module(f"mcp_codegen.{pair['owner']}")
        out["reexported"] = mine.InitializeResult is owner.InitializeResult if hasattr(owner, "InitializeResult") else mine.Result is owner.Result
        out["reexported_definitions"] = mine.DEFINITIONS is owner.DEFINITIONS
        out["own_version"] = [mine.PROTOCOL_VERSION, mine.PREVIOUS_VERSION, mine.method_error("nope")]
    sys.stdout.write(json.dumps(out))


main()
