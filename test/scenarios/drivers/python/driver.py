"""The Python driver of the scenario suite (test/scenarios/, docs/scenarios.md): concrete cases on stdin (a JSON
object ``{"cases": [...]}``, as test/scenarios/resolve.ts expands them), what the generated Python tree
(mcp_codegen, copying runtimes/python) answered on stdout::

    {"results": {case id: actual}, "skipped": {case id: why}, "summary": [lines]}

- ``gate``: the version module's ``method_error(method, side, policy)``: the error object or null;
- ``normalize``: ``normalize_result(method, input)``: ``{"ok": result}`` or ``{"error": {"code", "message"}}``;
- ``stdio``: each line written to ``serve_stdio`` (in memory), and the messages written in answer to it.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any, cast

import mcp_codegen
from mcp_codegen import dispatcher, runtime, stdio
from mcp_codegen import router as r

serving: list[r.Router] = []
"""The router being served, for the "publish" tool."""

SETTLE = 0.02
"""Seconds to wait, after the messages a line expects, for any it does not."""


def _text(params: object) -> str:
    name = cast(dict[str, Any], params).get("name") if isinstance(params, dict) else getattr(params, "name", None)
    return str(name)


def handlers() -> dict[str, dispatcher.Handler]:
    """The scenario server's handlers (docs/scenarios.md): ping, tools/list (one tool, echo), tools/call (the name as
    text; "log" first sends notifications/message at debug, warning and error; "publish" first publishes
    notifications/tools/list_changed; "slow" waits to be cancelled)."""

    def ping(params: object, context: object) -> object:
        return {}

    def tools_list(params: object, context: object) -> object:
        return {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]}

    async def tools_call(params: object, context: dispatcher.RequestContext) -> object:
        name = _text(params)
        if name == "log":
            for level in ("debug", "warning", "error"):
                await context.notify("notifications/message", {"level": level, "data": level})
        if name == "publish":
            await serving[-1].publish("notifications/tools/list_changed")
        if name == "slow":
            await asyncio.Event().wait()
        return {"content": [{"type": "text", "text": name}]}

    return {"ping": ping, "logging/setLevel": ping, "tools/list": tools_list, "tools/call": cast(dispatcher.Handler, tools_call)}


class _Reader:
    def __init__(self) -> None:
        self.queue: asyncio.Queue[bytes] = asyncio.Queue()

    async def read(self, n: int = -1) -> bytes:
        return await self.queue.get()


class _Writer:
    def __init__(self) -> None:
        self.buffer = b""
        self.messages: list[object] = []

    def write(self, data: bytes) -> None:
        self.buffer += data
        while b"\n" in self.buffer:
            line, self.buffer = self.buffer.split(b"\n", 1)
            self.messages.append(json.loads(line))

    async def drain(self) -> None:
        return None


async def stdio_case(case: dict[str, Any]) -> list[list[object]]:
    served = {label: r.Served(handlers=handlers(), capabilities={"tools": {"listChanged": True}, "logging": {}}) for label in mcp_codegen.VERSION_MODULES}
    router = r.create_router(server_info={"name": "scenario-server", "version": "1.0.0"}, versions=served, on_error=lambda failure: None)
    serving.append(router)
    reader, writer = _Reader(), _Writer()
    task = asyncio.ensure_future(stdio.serve_stdio(router, reader=reader, writer=writer, on_error=lambda error: None))
    answers: list[list[object]] = []
    for line, expected in zip(cast(list[str], case["lines"]), cast(list[list[object]], case["expect"]), strict=True):
        start = len(writer.messages)
        reader.queue.put_nowait(line.encode("utf-8") + b"\n")
        for _ in range(2500):
            if len(writer.messages) - start >= len(expected):
                break
            await asyncio.sleep(0.002)
        await asyncio.sleep(SETTLE)
        answers.append(writer.messages[start:])
    reader.queue.put_nowait(b"")
    await task
    return answers


async def answer(case: dict[str, Any]) -> object:
    kind = case["kind"]
    if kind == "gate":
        module = mcp_codegen.version(case["version"])
        return module.method_error(case["method"], case["side"], case["policy"])
    if kind == "normalize":
        module = mcp_codegen.version(case["version"])
        try:
            return {"ok": module.normalize_result(case["method"], case["input"])}
        except runtime.ResultError as e:
            return {"error": e.to_error()}
    return await stdio_case(case)


async def main() -> None:
    cases = cast(list[dict[str, Any]], json.loads(sys.stdin.read())["cases"])
    results: dict[str, object] = {}
    for case in cases:
        results[case["id"]] = await answer(case)
    kinds = sorted({c["kind"] for c in cases})
    summary = [f"python runs {sum(1 for c in cases if c['kind'] == k)} {k} cases" for k in kinds]
    sys.stdout.write(json.dumps({"results": results, "skipped": {}, "summary": summary}, ensure_ascii=False, separators=(",", ":")))


asyncio.run(main())
