"""How many sends the server makes per answer under ``serve_http``: the generated router serving one legacy version
(stdin: ``{"label": ...}``) on 127.0.0.1, a raw client on one kept-alive connection sending an initialize, the
initialized notification, a ping and a request of an unknown session; the server side's ``socket.send`` calls are
counted per answer, and whether each was made with Nagle's algorithm off (TCP_NODELAY). Prints ``{"initialize": n,
"initialized": n, "ping": n, "unknown session": n, "nagle off": bool}``.
"""

from __future__ import annotations

import asyncio
import json
import socket
import sys
from collections.abc import Callable
from typing import Any, cast

import mcp_codegen
from mcp_codegen.http import serve_http
from mcp_codegen.router import Served, create_router

server_port: list[int] = []
sends: list[int] = []
nagle: list[int] = []
"""TCP_NODELAY of the server's socket at each send."""
send = cast(Callable[..., int], socket.socket.send)


def counted(self: socket.socket, data: bytes, flags: int = 0) -> int:
    """``socket.send``, counted when it is the server's side of a connection."""
    if server_port and self.getsockname()[1] == server_port[0]:
        sends.append(len(data))
        nagle.append(self.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
    return send(self, data, flags)


async def answer(reader: asyncio.StreamReader) -> tuple[str, bytes]:
    """One response: its head and its (chunked) body."""
    head = (await reader.readuntil(b"\r\n\r\n")).decode()
    body = b""
    while True:
        size = int((await reader.readuntil(b"\r\n"))[:-2], 16)
        chunk = await reader.readexactly(size + 2)
        if size == 0:
            return head, body
        body += chunk[:-2]


async def main() -> None:
    legacy = cast(str, json.load(sys.stdin)["label"])
    assert mcp_codegen.version(legacy).ERA == "legacy"
    router = create_router(server_info={"name": "writes", "version": "1.0.0"}, versions={legacy: Served(handlers={"ping": lambda p, c: {}}, capabilities={})})
    server = await serve_http(router)
    server_port.append(server.port)
    setattr(socket.socket, "send", counted)  # noqa: B010 - the class attribute every socket's send is looked up on
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    session: dict[str, str] = {}
    out: dict[str, Any] = {}

    async def post(name: str, message: dict[str, Any]) -> str:
        body = json.dumps(message).encode()
        headers = {"host": f"127.0.0.1:{server.port}", "content-type": "application/json", "accept": "application/json, text/event-stream", **session}
        head = "POST /mcp HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + f"content-length: {len(body)}\r\n\r\n"
        sends.clear()
        writer.write(head.encode() + body)
        response, _ = await answer(reader)
        out[name] = len(sends)
        return response

    initialize = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": legacy, "capabilities": {}, "clientInfo": {"name": "c", "version": "0"}}}
    opened = await post("initialize", initialize)
    session_id = next(line.split(":", 1)[1].strip() for line in opened.split("\r\n") if line.lower().startswith("mcp-session-id:"))
    session.update({"mcp-session-id": session_id, "mcp-protocol-version": legacy})
    await post("initialized", {"jsonrpc": "2.0", "method": "notifications/initialized"})
    await post("ping", {"jsonrpc": "2.0", "id": 1, "method": "ping"})
    session["mcp-session-id"] = "unknown"
    await post("unknown session", {"jsonrpc": "2.0", "id": 2, "method": "ping"})
    setattr(socket.socket, "send", send)  # noqa: B010
    out["nagle off"] = bool(nagle) and all(nagle)
    writer.close()
    await server.close()
    router.close()
    print(json.dumps(out))


asyncio.run(main())
