"""Driver for dispatcher.test.ts: ``{"version", "messages": [...]}`` on stdin; the Python server
dispatcher's answer to each message (null for none) on stdout, the handlers being dispatch.test.ts's."""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any, cast

import mcp_codegen
from mcp_codegen import dispatcher


def handlers() -> dict[str, dispatcher.Handler]:
    def ping(params: object, context: object) -> object:
        return {}

    async def tools_list(params: object, context: object) -> object:
        return {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]}

    def tools_call(params: Any, context: object) -> object:
        # The params model (where the legacy schemas inline the params, the message model's params type).
        name: str = cast(dict[str, Any], params)["name"] if isinstance(params, dict) else params.name
        if name == "fail-coded":
            raise dispatcher.JsonRpcError(-32000, "coded failure", {"why": "asked"})
        if name == "fail-plain":
            raise RuntimeError("secret detail")
        if name == "bad-result":
            return {"content": "not an array"}
        return {"content": [{"type": "text", "text": name}]}

    def prompts_list(params: object, context: object) -> object:
        return ["not", "a", "result"]

    def initialized(params: object, context: object) -> object:
        raise RuntimeError("a failing notification handler is never answered")

    return {
        "ping": ping,
        "tools/list": tools_list,
        "tools/call": tools_call,
        "prompts/list": prompts_list,
        "notifications/initialized": initialized,
    }


async def main() -> None:
    case = cast(dict[str, Any], json.loads(sys.stdin.read()))
    module = mcp_codegen.version(case["version"])
    failures: list[str] = []
    def on_error(failure: dispatcher.Failure) -> None:
        failures.append(failure["kind"])

    d = cast(Any, module).create_server_dispatcher(handlers(), on_error=on_error)
    answers = [await cast(dispatcher.Dispatcher, d).handle(m) for m in case["messages"]]
    sys.stdout.write(json.dumps({"answers": answers, "failures": failures}, ensure_ascii=False))


asyncio.run(main())
