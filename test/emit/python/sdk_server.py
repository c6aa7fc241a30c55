"""The official SDK's server (``mcp`` 2.3.0, ``mcp.server.lowlevel.Server``, in-process over its memory
streams) beside the generated normalizers, for ``resources/subscribe`` and ``resources/unsubscribe``.

For every version given and every handler return of a fixed list, a server whose handler returns it is
sent ``initialize`` (that version), ``notifications/initialized`` and the request, as raw JSON-RPC; the
result it answers with, as its stdio transport writes it (JSON by alias, unset fields left out), is set
beside what the generated ``normalize_resources_*`` makes of the same return.

stdin: ``{"versions": [...]}``; stdout: ``[{"version", "method", "case", "sdk", "generated"}, ...]`` (each ``{"result": ...}`` or ``{"error": ...}``).
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Callable
from typing import Any, cast

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.shared.memory import create_client_server_memory_streams
from mcp.shared.message import SessionMessage
from mcp_types.jsonrpc import (
    JSONRPCError,
    JSONRPCNotification,
    JSONRPCRequest,
    JSONRPCResponse,
)

import mcp_codegen

META = {"progress": "x", "nested": {"a": [1, None]}}

CASES: dict[str, Callable[[], object]] = {
    "None": lambda: None,
    "EmptyResult()": lambda: types.EmptyResult(),
    "EmptyResult(_meta=...)": lambda: types.EmptyResult.model_validate({"_meta": META}),
    "{}": lambda: {},
    "{'_meta': ...}": lambda: {"_meta": META},
    "{'_meta': ..., 'extra': 1}": lambda: {"_meta": META, "extra": 1},
    "{'_meta': 'text'}": lambda: {"_meta": "text"},
}


async def sdk_result(version: str, method: str, value: Callable[[], object]) -> object:
    async def handler(ctx: Any, params: Any) -> Any:
        return value()

    if method == "resources/subscribe":
        server: Server[Any] = Server("oracle", on_subscribe_resource=handler)
    else:
        server = Server("oracle", on_unsubscribe_resource=handler)
    options = server.create_initialization_options()
    answer: object = None
    async with create_client_server_memory_streams() as (client, server_streams):
        client_read, client_write = client
        async with anyio.create_task_group() as tg:
            tg.start_soon(server.run, server_streams[0], server_streams[1], options)
            init = {
                "protocolVersion": version,
                "capabilities": {},
                "clientInfo": {"name": "oracle", "version": "1"},
            }
            await client_write.send(
                SessionMessage(JSONRPCRequest(jsonrpc="2.0", id=1, method="initialize", params=init))
            )
            await client_read.receive()
            await client_write.send(SessionMessage(JSONRPCNotification(jsonrpc="2.0", method="notifications/initialized")))
            await client_write.send(
                SessionMessage(JSONRPCRequest(jsonrpc="2.0", id=2, method=method, params={"uri": "file:///a"}))
            )
            while True:
                received = await client_read.receive()
                if isinstance(received, Exception):
                    raise received
                message = received.message
                if isinstance(message, JSONRPCResponse | JSONRPCError) and message.id == 2:
                    wire = cast(dict[str, Any], json.loads(message.model_dump_json(by_alias=True, exclude_unset=True)))
                    answer = {"result": wire["result"]} if "result" in wire else {"error": wire["error"]}
                    break
            tg.cancel_scope.cancel()
    return answer


async def main() -> None:
    # The server logs a handler's invalid result with a traceback; the answer it sends is what is compared.
    logging.disable(logging.CRITICAL)
    request = cast(dict[str, Any], json.loads(sys.stdin.read()))
    out: list[dict[str, Any]] = []
    for version in cast(list[str], request["versions"]):
        module = mcp_codegen.version(version)
        for method in ("resources/subscribe", "resources/unsubscribe"):
            for case, value in CASES.items():
                sdk = await sdk_result(version, method, value)
                generated = {"result": module.normalize_result(method, value())}
                out.append({"version": version, "method": method, "case": case, "sdk": sdk, "generated": generated})
    sys.stdout.write(json.dumps(out))


if __name__ == "__main__":
    anyio.run(main)
