"""The HTTP test server of http.test.ts: the generated router (mcp_codegen.router) serving every version of the
tree, under the generated ASGI app (mcp_codegen.http) and uvicorn on 127.0.0.1, port 0.

argv[1]: the options of ``serve_http`` as JSON (``max_sessions``, ``max_body_bytes``...), and two made into hooks:
``principal_header`` (a request's principal is that header's value) and ``parameter_headers`` (tool name → argument
name → ``Mcp-Param-*`` header name); the transport's errors are kept for ``stats``. Once listening it prints
``{"port": N}``. Each stdin line is a command: ``publish <method> [count] [pad bytes]`` publishes that notification
(``count`` times, with a ``_meta`` pad; then prints ``{"published": method}``); ``stats`` prints the counters of the
``slow`` and ``flood`` tools, the open sessions and the transport's errors. The tools (both eras): ``echo``
(its arguments as JSON text), ``slow`` (sleeps ``ms``; counts starts, ends and cancellations), ``progress`` (three
``notifications/progress`` first), ``flood`` (``count`` log messages of ``bytes`` each, yielding between them), ``log`` (one ``notifications/message`` first), ``whoami`` (the caller's
``client_id``, ``scopes`` and principal), ``announce`` (a ``publish`` of ``notifications/tools/list_changed`` from
inside the handler), ``relay`` (one ``notifications/message`` sent for the call by a worker task started with the
server, outside the request's own task) and, legacy only, ``sample`` (a ``sampling/createMessage`` request to the
client, whose answer it returns). ``auth`` (``jwks_url``, ``issuer``, ``resource_metadata``, ``required_scopes``)
turns on the resource-server role with the ready JWT verifier.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

import mcp_codegen
from mcp_codegen.auth import ResourceServer
from mcp_codegen.auth_jwt import jwt_verifier
from mcp_codegen.dispatcher import RequestContext
from mcp_codegen.http import Scope, serve_http
from mcp_codegen.router import Router, Served, create_router

counters = {"started": 0, "finished": 0, "cancelled": 0, "flood_cancelled": 0}
errors: list[str] = []
publish: list[Router] = []
"""The router, once made (``announce`` publishes through it)."""
relays: asyncio.Queue[tuple[RequestContext, asyncio.Future[None]]] = asyncio.Queue()
"""Work for the relay worker: a call's context, and what to resolve once its message is sent."""


async def relay_worker() -> None:
    while True:
        context, sent = await relays.get()
        await context.notify("notifications/message", {"level": "info", "data": "relayed"})
        sent.set_result(None)


def text(value: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": value}]}


async def call(params: Any, context: RequestContext) -> dict[str, Any]:
    name = str(params.name)
    args: dict[str, Any] = dict(params.arguments or {})
    if name == "slow":
        counters["started"] += 1
        try:
            await asyncio.sleep(float(args.get("ms", 0)) / 1000)
        except asyncio.CancelledError:
            counters["cancelled"] += 1
            raise
        finally:
            counters["finished"] += 1
        return text("slept")
    if name == "flood":
        data = "x" * int(args["bytes"])
        try:
            for _ in range(int(args["count"])):
                await context.notify("notifications/message", {"level": "info", "data": data})
                await asyncio.sleep(0)
        except asyncio.CancelledError:
            counters["flood_cancelled"] += 1
            raise
        return text("flooded")
    if name == "progress":
        for step in (1, 2, 3):
            await context.progress(step, 3)
        return text("done")
    if name == "log":
        await context.notify("notifications/message", {"level": "info", "data": "hello"})
        return text("logged")
    if name == "announce":
        await publish[0].publish("notifications/tools/list_changed")
        return text("announced")
    if name == "relay":
        sent: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        relays.put_nowait((context, sent))
        await sent
        return text("relayed")
    if name == "whoami":
        auth = dict(context.auth or {})
        return text(json.dumps({"client_id": auth.get("client_id"), "scopes": auth.get("scopes"), "principal": context.principal}))
    if name == "sample":
        answer = await context.request(
            "sampling/createMessage",
            {"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}], "maxTokens": 5},
        )
        return text(json.dumps(answer, separators=(",", ":")))
    return text(json.dumps(args, separators=(",", ":"), ensure_ascii=False))


def served(era: str) -> Served:
    capabilities = {"tools": {"listChanged": True}, "logging": {}}
    if era == "legacy":
        return Served(handlers={"ping": lambda p, c: {}, "tools/list": lambda p, c: {"tools": []}, "tools/call": call}, capabilities=capabilities)
    return Served(handlers={"tools/list": lambda p, c: {"tools": [], "ttlMs": 0, "cacheScope": "public"}, "tools/call": call}, capabilities=capabilities)


async def main() -> None:
    options: dict[str, Any] = json.loads(sys.argv[1]) if len(sys.argv) > 1 else {}
    principal_header: str | None = options.pop("principal_header", None)
    if principal_header is not None:
        wanted = principal_header.encode("latin-1")

        def principal_of(scope: Scope) -> str | None:
            return next((v.decode("latin-1") for k, v in scope["headers"] if k == wanted), None)

        options["principal_of"] = principal_of
    parameter_headers: dict[str, dict[str, str]] | None = options.pop("parameter_headers", None)
    if parameter_headers is not None:
        options["parameter_headers"] = parameter_headers.get

    def on_error(error: BaseException) -> None:
        errors.append(str(error))

    options["on_error"] = on_error
    auth: dict[str, Any] | None = options.pop("auth", None)
    if auth is not None:
        # The resource-server role, its tokens checked by the ready PyJWT verifier against the issuer's JWKS.
        options["auth"] = ResourceServer(
            verify_access_token=jwt_verifier(jwks_url=auth["jwks_url"], issuer=auth["issuer"]),
            resource_metadata=auth["resource_metadata"],
            required_scopes=auth.get("required_scopes", ()),
        )
    versions = {label: served(mcp_codegen.version(label).ERA) for label in mcp_codegen.VERSION_MODULES}
    router = create_router(server_info={"name": "http-test", "version": "1.0.0"}, versions=versions)
    publish.append(router)
    worker = asyncio.ensure_future(relay_worker())
    server = await serve_http(router, **options)
    print(json.dumps({"port": server.port}), flush=True)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := (await reader.readline()).decode():
        command = line.split()
        if command[:1] == ["publish"]:
            count = int(command[2]) if len(command) > 2 else 1
            params = {"_meta": {"example.com/pad": "p" * int(command[3])}} if len(command) > 3 else None
            for i in range(count):
                await router.publish(command[1], params)
                if i % 100 == 99:
                    await asyncio.sleep(0)  # a publisher that lets I/O run, as a server's would
            print(json.dumps({"published": command[1]}), flush=True)
        elif command[:1] == ["stats"]:
            print(json.dumps({**counters, "sessions": server.app.sessions, "errors": errors}), flush=True)
    worker.cancel()
    await server.close()
    router.close()


asyncio.run(main())
