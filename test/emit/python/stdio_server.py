"""Driver for stdio.test.ts: a Python server of the generated package over stdio (mcp_codegen.stdio).

Serves every generated version with one set of handlers; ``sys.argv[1]`` (JSON) gives serve_stdio's
``max_in_flight``, ``end_grace`` and ``max_buffered_bytes``. ``tools/call`` names: ``hello`` (echo), ``slow``
(sleeps ``arguments.seconds``), ``flood`` (sends ``arguments.count`` log messages of ``arguments.size``
characters), ``sample`` (asks the client for sampling/createMessage)."""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any, cast

import mcp_codegen
from mcp_codegen import dispatcher, stdio
from mcp_codegen import router as r


def _params(params: object) -> dict[str, Any]:
    if isinstance(params, dict):
        return cast(dict[str, Any], params)
    return cast(Any, params).model_dump(mode="json", by_alias=True, exclude_unset=True)


async def tools_call(params: object, context: dispatcher.RequestContext) -> object:
    given = _params(params)
    name = given.get("name")
    if name == "slow":
        await asyncio.sleep(float(given.get("arguments", {}).get("seconds", 1)))
    if name == "flood":
        arguments = given.get("arguments", {})
        for _ in range(int(arguments.get("count", 1))):
            await context.notify("notifications/message", {"level": "info", "data": "x" * int(arguments.get("size", 1))})
    if name == "sample":
        answer = await context.request("sampling/createMessage", {"messages": [], "maxTokens": 5})
        return {"content": [{"type": "text", "text": json.dumps(answer, separators=(",", ":"))}]}
    return {"content": [{"type": "text", "text": str(name)}]}


def tools_list(params: object, context: object) -> object:
    return {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]}


def main() -> None:
    options = cast(dict[str, Any], json.loads(sys.argv[1]) if len(sys.argv) > 1 else {})
    handlers: dict[str, dispatcher.Handler] = {"tools/list": tools_list, "tools/call": cast(dispatcher.Handler, tools_call)}
    served = {label: r.Served(handlers=handlers, capabilities={"tools": {}}) for label in mcp_codegen.VERSION_MODULES}
    router = r.create_router(server_info={"name": "stdio-test", "version": "1.0.0"}, versions=served)
    asyncio.run(
        stdio.serve_stdio(
            router,
            max_in_flight=int(options.get("max_in_flight", 64)),
            end_grace=float(options.get("end_grace", 5.0)),
            max_buffered_bytes=int(options.get("max_buffered_bytes", stdio.DEFAULT_MAX_BUFFERED_BYTES)),
        )
    )


main()
