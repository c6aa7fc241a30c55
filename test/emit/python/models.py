"""Driver for models.test.ts: the faithful-model facts of the generated tree, as one JSON object on stdout."""

from __future__ import annotations

import json
import sys

from mcp_codegen import draft, v2025_11_25, v2026_07_28


def main() -> None:
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
    # draft's definitions are 2026-07-28's, re-exported: the same classes.
    out["reexported"] = draft.CallToolRequest is v2026_07_28.CallToolRequest and draft.DEFINITIONS is v2026_07_28.DEFINITIONS
    out["draft_version"] = [draft.PROTOCOL_VERSION, draft.PREVIOUS_VERSION, draft.method_error("nope")]
    sys.stdout.write(json.dumps(out))


main()
