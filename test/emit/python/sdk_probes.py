"""Probes for what the Python SDK's own suite never sends, run in the SDK as shipped and as patched by the
recipe (test/emit/python/sdk-suite.test.ts compares the two answers).

Each probe is a message the SDK's server (or client) receives: its `mcp_types.methods` entry points are the
version gate and the shape check the server and client run (mcp.server.connection, runner, client.session).
Prints JSON: probe name -> answer ("ok", or the exception class, for results also the sieved dump).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from functools import partial
from typing import Any, cast

from mcp_types import methods
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, KNOWN_PROTOCOL_VERSIONS

MODERN = "2026-07-28"
META = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientInfo": {"name": "probe", "version": "1.0"},
    "io.modelcontextprotocol/clientCapabilities": {},
}


def answer(call: Callable[[], object]) -> object:
    try:
        out = call()
    except KeyError:
        return "KeyError"
    except ValueError as error:  # pydantic.ValidationError is a ValueError
        return type(error).__name__
    return {"ok": cast("dict[str, Any]", out)} if isinstance(out, dict) else "ok"


def main() -> None:
    probes: dict[str, Any] = {}

    # Custom methods: the gate refuses them from the built-in maps (the server routes them as custom).
    for version in KNOWN_PROTOCOL_VERSIONS:
        probes[f"custom request {version}"] = answer(lambda v=version: methods.validate_client_request("acme/greet", v, {"x": 1}))
        probes[f"custom notification {version}"] = answer(lambda v=version: methods.validate_client_notification("notifications/acme", v, None))
        probes[f"custom result {version}"] = answer(lambda v=version: methods.serialize_server_result("acme/greet", v, {"x": 1}))
    probes["custom in SPEC_CLIENT_METHODS"] = "acme/greet" in methods.SPEC_CLIENT_METHODS

    # The modern envelope: every request of 2026-07-28 carries the reserved `_meta` entries.
    envelopes: dict[str, Any] = {
        "full": META,
        "no clientInfo": {k: v for k, v in META.items() if not k.endswith("clientInfo")},
        "no protocolVersion": {k: v for k, v in META.items() if not k.endswith("protocolVersion")},
        "no clientCapabilities": {k: v for k, v in META.items() if not k.endswith("clientCapabilities")},
        "protocolVersion a number": {**META, "io.modelcontextprotocol/protocolVersion": 20260728},
        "clientInfo null": {**META, "io.modelcontextprotocol/clientInfo": None},
        "extra member": {**META, "com.example/trace": "abc"},
    }
    for name, meta in envelopes.items():
        probes[f"envelope {name}: tools/list"] = answer(lambda m=meta: methods.validate_client_request("tools/list", MODERN, {"_meta": m}))
        probes[f"envelope {name}: server/discover"] = answer(lambda m=meta: methods.validate_client_request("server/discover", MODERN, {"_meta": m}))
    probes["envelope absent: tools/list"] = answer(lambda: methods.validate_client_request("tools/list", MODERN, None))
    probes["modern result without resultType"] = answer(lambda: methods.serialize_server_result("tools/list", MODERN, {"tools": [], "ttlMs": 0, "cacheScope": "private"}))
    probes["modern result"] = answer(lambda: methods.serialize_server_result("tools/list", MODERN, {"tools": [], "resultType": "complete", "ttlMs": 0, "cacheScope": "private"}))

    # resources/subscribe and unsubscribe with a `_meta` at every legacy (handshake) version.
    metas: dict[str, Any] = {
        "absent": None,
        "{}": {},
        "object": {"com.example/k": 1},
        "progressToken 1": {"progressToken": 1},
        "progressToken 1.5": {"progressToken": 1.5},
        "progressToken null": {"progressToken": None},
        "progressToken true": {"progressToken": True},
        "string": "x",
        "null": "null",
        "list": [1],
    }
    for version in HANDSHAKE_PROTOCOL_VERSIONS:
        for method in ("resources/subscribe", "resources/unsubscribe"):
            for name, meta in metas.items():
                params: dict[str, Any] = {"uri": "file:///a"}
                if name == "null":
                    params["_meta"] = None
                elif meta is not None:
                    params["_meta"] = meta
                probes[f"{method} _meta {name} {version}"] = answer(partial(methods.validate_client_request, method, version, params))
            for name, result in {"{}": {}, "_meta": {"_meta": {"k": 1}}, "extra": {"x": 1}, "_meta string": {"_meta": "x"}}.items():
                probes[f"{method} result {name} {version}"] = answer(lambda m=method, v=version, r=result: methods.serialize_server_result(m, v, r))

    # Methods 2026-07-28 removed: the gate refuses them there, and serves them at 2025-11-25.
    removed = ("initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe", "tasks/get", "tasks/list", "tasks/cancel", "tasks/result")
    for method in removed:
        probes[f"removed {method} at {MODERN}"] = answer(lambda m=method: methods.validate_client_request(m, MODERN, {"_meta": META}))
        probes[f"removed {method} result at {MODERN}"] = answer(lambda m=method: methods.serialize_server_result(m, MODERN, {"resultType": "complete"}))
    for method in ("notifications/initialized", "notifications/roots/list_changed", "notifications/progress"):
        probes[f"removed {method} at {MODERN}"] = answer(lambda m=method: methods.validate_client_notification(m, MODERN, None))
    probes[f"removed server ping at {MODERN}"] = answer(lambda: methods.validate_client_result("ping", MODERN, {}))
    probes[f"removed elicitation/complete at {MODERN}"] = answer(lambda: methods.parse_server_notification("notifications/elicitation/complete", MODERN, {"elicitationId": "e"}))

    json.dump(probes, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
