"""The ASGI app of mcp_codegen.http called directly, as any ASGI 3 server calls it (no uvicorn): lifespan startup and
shutdown, an initialize and a ping in its session, and a request after ``close()``; then the Host/Origin check
under ``allowed_hosts``/``allowed_origins`` options (a body that is not JSON: 400 once past the check, 403 when
refused). Prints what each call sent, as JSON: ``[{"status": …, "headers": {…}, "body": "…"}, …]`` (the lifespan
events as ``{"events": [...]}``, the Host/Origin statuses as ``{"hosts": {case: status}}``).
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import MutableMapping
from typing import Any, cast

import mcp_codegen
from mcp_codegen.http import create_asgi_app
from mcp_codegen.router import Served, create_router


def http_scope(method: str, headers: dict[str, str]) -> dict[str, Any]:
    headers = {"host": "127.0.0.1:8000", **headers}
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": "/mcp",
        "raw_path": b"/mcp",
        "query_string": b"",
        "headers": [(k.encode(), v.encode()) for k, v in headers.items()],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }


async def call(app: Any, method: str, headers: dict[str, str], body: bytes = b"") -> dict[str, Any]:
    sent: list[MutableMapping[str, Any]] = []
    chunks = [{"type": "http.request", "body": body, "more_body": False}]
    done = asyncio.Event()

    async def receive() -> MutableMapping[str, Any]:
        if chunks:
            return chunks.pop(0)
        await done.wait()
        return {"type": "http.disconnect"}

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(message)
        if message["type"] == "http.response.body" and not message.get("more_body", False):
            done.set()

    await app(http_scope(method, headers), receive, send)
    start = sent[0]
    return {
        "status": start["status"],
        "headers": {k.decode(): v.decode() for k, v in start["headers"]},
        "body": b"".join(m.get("body", b"") for m in sent[1:]).decode(),
    }


async def lifespan(app: Any) -> list[str]:
    incoming = [{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}]
    out: list[str] = []

    async def receive() -> MutableMapping[str, Any]:
        return incoming.pop(0)

    async def send(message: MutableMapping[str, Any]) -> None:
        out.append(str(message["type"]))

    await app({"type": "lifespan", "asgi": {"version": "3.0"}}, receive, send)
    return out


async def main() -> None:
    # The legacy version to serve, chosen by the test (stdin: {"label": ...}).
    legacy = cast(str, json.load(sys.stdin)["label"])
    assert mcp_codegen.version(legacy).ERA == "legacy"
    router = create_router(
        server_info={"name": "asgi", "version": "1.0.0"},
        versions={legacy: Served(handlers={"ping": lambda p, c: {}}, capabilities={})},
    )
    app = create_asgi_app(router)
    json_headers = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
    initialize = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": legacy, "capabilities": {}, "clientInfo": {"name": "c", "version": "0"}}}
    out: list[dict[str, Any]] = []
    opened = await call(app, "POST", json_headers, json.dumps(initialize).encode())
    out.append(opened)
    session = {"mcp-session-id": opened["headers"]["mcp-session-id"], "mcp-protocol-version": legacy}
    out.append(await call(app, "POST", {**json_headers, **session}, b'{"jsonrpc":"2.0","id":1,"method":"ping"}'))
    out.append({"sessions": app.sessions})
    out.append({"events": await lifespan(app)})  # shutdown closes the app: its sessions end, requests get 503
    out.append({"sessions": app.sessions})
    out.append(await call(app, "POST", json_headers, b'{"jsonrpc":"2.0","id":2,"method":"ping"}'))
    cases: dict[str, tuple[dict[str, Any], dict[str, str]]] = {
        "default, localhost with its port": ({}, {"host": "localhost:8000", "origin": "http://localhost:8000"}),
        "default, [::1] with its port": ({}, {"host": "[::1]:8000"}),
        "default, another port": ({}, {"host": "127.0.0.1:9999"}),
        "default, no Host": ({}, {"host": ""}),
        "default, another Origin": ({}, {"origin": "http://evil.example"}),
        "any host, any Host": ({"allowed_hosts": "any"}, {"host": "api.example.com"}),
        "any host, an Origin of that Host": ({"allowed_hosts": "any"}, {"host": "api.example.com", "origin": "https://api.example.com"}),
        "any host, another Origin": ({"allowed_hosts": "any"}, {"host": "api.example.com", "origin": "http://evil.example"}),
        "listed host": ({"allowed_hosts": ["api.example.com"]}, {"host": "api.example.com", "origin": "https://api.example.com"}),
        "listed host, the loopback Host": ({"allowed_hosts": ["api.example.com"]}, {}),
        "listed host, another Origin": ({"allowed_hosts": ["api.example.com"]}, {"host": "api.example.com", "origin": "http://evil.example"}),
        "listed origin": ({"allowed_origins": ["app://client"]}, {"origin": "app://client"}),
        "listed origin, the loopback Origin": ({"allowed_origins": ["app://client"]}, {"origin": "http://127.0.0.1:8000"}),
        "any origin": ({"allowed_origins": "any"}, {"origin": "http://evil.example"}),
    }
    hosts: dict[str, int] = {}
    for name, (options, headers) in cases.items():
        checked = create_asgi_app(router, **options)
        hosts[name] = (await call(checked, "POST", {**json_headers, **headers}, b"{"))["status"]
    out.append({"hosts": hosts})
    router.close()
    print(json.dumps(out))


asyncio.run(main())
