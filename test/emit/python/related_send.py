"""Driver for related-send.test.ts: what a legacy connection's ``send`` is given, by the shape of ``send``.

Input on stdin: ``{"version": a legacy label serving tools/call with text content and sampling}``. A router
serving that version; its ``tools/call`` handler sends a ``notifications/message`` (``context.notify``) and a
``sampling/createMessage`` request (``context.request``, answered here), then returns; the script then
``publish``es ``notifications/tools/list_changed``. One connection per shape of ``send``:

- ``plain``: ``send(message)`` (the original ``Send``);
- ``keyword``: ``send(message, *, related_request_id=None)``;
- ``positional``: ``send(message, related_request_id=None)`` (positional-or-keyword);
- ``kwargs``: ``send(message, **options)``;
- ``positional_only``: ``send(message, related_request_id=None, /)`` (cannot take the keyword).

Output: shape → the messages sent after ``initialize``, each ``[method, related]`` with related the
``related_request_id`` given, or ``"not given"`` when the call had no such argument; and shape → the call's response.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from typing import Any, cast

from mcp_codegen import dispatcher
from mcp_codegen import router as r

NOT_GIVEN = "not given"


def text(value: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": value}]}


async def tools_call(params: object, context: dispatcher.RequestContext) -> object:
    await context.notify("notifications/message", {"level": "info", "data": "working"})
    answer = await context.request(
        "sampling/createMessage", {"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}], "maxTokens": 5}
    )
    return text(json.dumps(answer, separators=(",", ":")))


async def main() -> None:
    version = cast(str, json.loads(sys.stdin.read())["version"])
    served = r.Served(handlers={"tools/call": tools_call}, capabilities={"tools": {"listChanged": True}, "logging": {}})
    router = r.create_router(server_info={"name": "related", "version": "1"}, versions={version: served})
    seen: dict[str, list[list[object]]] = {}
    connections: dict[str, r.LegacyConnection] = {}

    def record(shape: str, message: dict[str, Any], related: object) -> None:
        if message.get("id") == 0:
            return
        seen.setdefault(shape, []).append([message.get("method"), related])
        if message.get("method") == "sampling/createMessage":
            answer = {"jsonrpc": "2.0", "id": message["id"], "result": {"role": "assistant", "content": {"type": "text", "text": "ok"}, "model": "m"}}
            # Answered as a client would: later, on its own message.
            asyncio.get_running_loop().call_soon(lambda: asyncio.ensure_future(connections[shape].handle(answer)))

    def plain(shape: str) -> Callable[[dict[str, Any]], Awaitable[None]]:
        async def send(message: dict[str, Any]) -> None:
            record(shape, message, NOT_GIVEN)

        return send

    def keyword(shape: str) -> r.RelatedSend:
        async def send(message: dict[str, Any], *, related_request_id: dispatcher.RequestId | None = None) -> None:
            record(shape, message, related_request_id)

        return send

    def positional(shape: str) -> r.RelatedSend:
        async def send(message: dict[str, Any], related_request_id: dispatcher.RequestId | None = None) -> None:
            record(shape, message, related_request_id)

        return send

    def kwargs(shape: str) -> r.RelatedSend:
        async def send(message: dict[str, Any], **options: Any) -> None:
            record(shape, message, options.get("related_request_id", NOT_GIVEN))

        return send

    def positional_only(shape: str) -> Callable[..., Awaitable[None]]:
        async def send(message: dict[str, Any], related_request_id: object = NOT_GIVEN, /) -> None:
            record(shape, message, related_request_id)

        return send

    makers: dict[str, Callable[[str], Any]] = {
        "plain": plain,
        "keyword": keyword,
        "positional": positional,
        "kwargs": kwargs,
        "positional_only": positional_only,
    }
    responses: dict[str, object] = {}
    for shape, make in makers.items():
        connection = router.connect(make(shape))
        connections[shape] = connection
        initialize: dict[str, Any] = {"protocolVersion": version, "capabilities": {"sampling": {}}, "clientInfo": {"name": "c", "version": "1"}}
        await connection.handle({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": initialize})
        await connection.handle({"jsonrpc": "2.0", "method": "notifications/initialized"})
        responses[shape] = await connection.handle({"jsonrpc": "2.0", "id": "r-7", "method": "tools/call", "params": {"name": "work", "arguments": {}}})
    await router.publish("notifications/tools/list_changed")
    router.close()
    sys.stdout.write(json.dumps({"sent": seen, "responses": responses}, separators=(",", ":")))


asyncio.run(main())
