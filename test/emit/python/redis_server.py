"""One of several server processes sharing a Redis, for redis.test.ts (the Python mirror of
test/transports/fixtures/cluster-server.ts): ``python redis_server.py <redis url> <prefix>``. The generated router
(every version of the tree) with ``redis.create_redis_fanout`` behind ``serve_http`` on a free loopback port;
prints ``listening <url>``. A request's principal is its ``x-principal`` header (none without it).

Tools: ``announce`` publishes notifications/tools/list_changed (reaching every process's listeners), ``whoami``
answers ``python <pid>``, ``aborted`` the ids of the tasks whose work this process saw cancelled. Every modern
version the tree has the Tasks extension of serves it over the one ``redis.create_redis_task_store``:
``long-task``, called by a request that negotiates the extension, answers with a task whose work runs until it is
cancelled; its status message names the process that created it.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from typing import Any, cast

import mcp_codegen
from mcp_codegen.http import Scope, serve_http
from mcp_codegen.redis import create_redis_fanout, create_redis_task_store
from mcp_codegen.router import Router, Served, create_router
from mcp_codegen.tasks import TASKS_EXTENSION, TaskControl, task, tasks_extension

ME = f"python {os.getpid()}"
TOOLS = [{"name": name, "inputSchema": {"type": "object"}} for name in ("announce", "whoami", "aborted", "long-task")]
aborted: list[str] = []
routers: list[Router] = []


def name_of(params: Any) -> str:
    return str(cast(dict[str, Any], params)["name"] if isinstance(params, dict) else params.name)


def text(value: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": value}]}


async def call(params: Any, context: object) -> dict[str, Any]:
    name = name_of(params)
    if name == "announce":
        await routers[0].publish("notifications/tools/list_changed")
        return text("announced")
    if name == "aborted":
        return text(json.dumps(aborted))
    return text(ME)


async def forever(control: TaskControl) -> object:
    try:
        await asyncio.Event().wait()
    except asyncio.CancelledError:
        aborted.append(control.task_id)
        raise
    return text("never")


async def task_call(params: Any, context: object) -> object:
    if name_of(params) == "long-task":
        return task(forever, status_message=f"started by {ME}")
    return await call(params, context)


def principal_of(scope: Scope) -> str | None:
    return next((v.decode("latin-1") for k, v in scope["headers"] if k == b"x-principal"), None)


async def main() -> None:
    url, prefix = sys.argv[1], sys.argv[2]
    fanout = await create_redis_fanout(url=url, prefix=prefix, on_error=lambda error: None)
    store = await create_redis_task_store(url=url, prefix=prefix, on_error=lambda error: None)
    tools = {"tools": {"listChanged": True}}
    versions: dict[str, Served] = {}
    for label in mcp_codegen.VERSION_MODULES:
        if mcp_codegen.version(label).ERA == "legacy":
            versions[label] = Served(handlers={"tools/list": lambda p, c: {"tools": TOOLS}, "tools/call": call}, capabilities=tools)
            continue
        has_tasks = TASKS_EXTENSION in mcp_codegen.EXTENSION_MODULES.get(label, {})
        extensions = {TASKS_EXTENSION: tasks_extension(store=store, ttl_ms=60_000, poll_interval_ms=100, handlers={"tools/call": task_call})} if has_tasks else {}
        versions[label] = Served(
            handlers={"tools/list": lambda p, c: {"tools": TOOLS, "ttlMs": 0, "cacheScope": "public"}, "tools/call": call},
            capabilities=tools,
            extensions=extensions,
        )
    router = create_router(server_info={"name": "cluster", "version": "1.0.0"}, versions=versions, fanout=fanout)
    routers.append(router)
    server = await serve_http(router, principal_of=principal_of)
    sys.stdout.write(f"listening {server.url}\n")
    sys.stdout.flush()
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()
    router.close()
    await asyncio.gather(server.close(), fanout.close(), store.close(), return_exceptions=True)


asyncio.run(main())
