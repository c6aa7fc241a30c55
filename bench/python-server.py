"""A Python server for the Python benchmarks (bench/python.ts), in its own process: ``python bench/python-server.py
<server> <transport>``, run from the repository root with ``generated/python`` on ``PYTHONPATH``.

- ``ours``: the generated package's router (2025-11-25 and 2026-07-28) through its shipped transports
  (``serve_http``, under uvicorn; ``serve_stdio``);
- ``sdk``: the official Python SDK's server (``mcp`` 2.3.0, ``MCPServer``) as its README writes one, over its
  streamable HTTP app (under uvicorn, on a listening socket bound as ``serve_http`` binds ours, TCP_NODELAY on its
  connections as ``mcp.run("streamable-http")`` has them) or its stdio transport.

Each serves one tool, ``echo``, whose ``text`` argument (a string, checked) comes back as text content. Over HTTP
it prints ``listening <url>`` on stdout once it accepts connections.
"""

from __future__ import annotations

import asyncio
import socket
import sys
from typing import Any


def ours(transport: str) -> None:
    from mcp_codegen.dispatcher import INVALID_PARAMS, JsonRpcError
    from mcp_codegen.router import Served, create_router

    tools = [{"name": "echo", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}}]

    def call(params: Any, context: object) -> dict[str, Any]:
        text = (params.arguments or {}).get("text")
        if not isinstance(text, str):
            raise JsonRpcError(INVALID_PARAMS, "text must be a string")
        return {"content": [{"type": "text", "text": text}]}

    capabilities = {"tools": {}, "logging": {}}
    router = create_router(
        server_info={"name": "bench-ours", "version": "1.0.0"},
        versions={
            "2025-11-25": Served({"tools/list": lambda p, c: {"tools": tools}, "tools/call": call}, capabilities=capabilities),
            "2026-07-28": Served({"tools/list": lambda p, c: {"tools": tools, "ttlMs": 0, "cacheScope": "public"}, "tools/call": call}, capabilities=capabilities),
        },
    )

    async def main() -> None:
        if transport == "stdio":
            from mcp_codegen.stdio import serve_stdio

            await serve_stdio(router)
            return
        from mcp_codegen.http import serve_http

        server = await serve_http(router)
        print(f"listening http://127.0.0.1:{server.port}/mcp", flush=True)
        await asyncio.Event().wait()

    asyncio.run(main())


def sdk(transport: str) -> None:
    from mcp.server import MCPServer

    mcp = MCPServer("bench-sdk")

    @mcp.tool()
    def echo(text: str) -> str:  # pyright: ignore[reportUnusedFunction]
        """Echo the text."""
        return text

    if transport == "stdio":
        mcp.run("stdio")
        return
    import uvicorn

    # As serve_http binds ours, and as uvicorn binds a host and port itself: with the protocol named IPPROTO_TCP,
    # so asyncio turns Nagle's algorithm off on the connections it accepts (with 0 every response's body waited
    # for the client's delayed ACK, ~40 ms).
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(mcp.streamable_http_app(host="127.0.0.1"), log_level="warning"))

    async def main() -> None:
        serving = asyncio.ensure_future(server.serve(sockets=[listener]))
        while not server.started:
            await asyncio.sleep(0.01)
        print(f"listening http://127.0.0.1:{port}/mcp", flush=True)
        await serving

    asyncio.run(main())


if __name__ == "__main__":
    kind, transport = sys.argv[1], sys.argv[2]
    if kind not in ("ours", "sdk") or transport not in ("http", "stdio"):
        sys.exit("usage: python-server.py ours|sdk http|stdio")
    (ours if kind == "ours" else sdk)(transport)
