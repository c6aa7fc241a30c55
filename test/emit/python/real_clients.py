"""The official Python SDK client (``mcp`` 2.3.0) against the Python conformance server (real-clients.test.ts).

stdin: ``{"server": URL | "stdio", "mode": "legacy" | "2026-07-28", "script": server.py, "pythonPath": [...]}``;
``"stdio"`` launches ``python server.py stdio`` as the client's subprocess. The client initializes (legacy) or
discovers (2026-07-28), lists the tools, calls ``test_simple_text``, reads ``test://static-text`` and, in the
legacy era, subscribes to ``test://watched-resource`` (the raw result, as it came off the wire). stdout: what it
saw, as JSON.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import Any

import mcp_types as types
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from pydantic import BaseModel, ConfigDict


class Raw(BaseModel):
    """A result as it came off the wire: no fields, every member kept."""

    model_config = ConfigDict(extra="allow")


async def main(job: dict[str, Any]) -> dict[str, Any]:
    target: str = job["server"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(job["pythonPath"])}
    server: str | StdioServerParameters = (
        StdioServerParameters(command=sys.executable, args=[job["script"], "stdio"], env=env) if target == "stdio" else target
    )
    async with Client(server, mode=job["mode"]) as client:
        info = client.server_info
        out: dict[str, Any] = {
            "protocolVersion": client.protocol_version,
            "serverInfo": None if info is None else info.model_dump(by_alias=True, exclude_none=True),
            "tools": [tool.name for tool in (await client.list_tools()).tools],
            "call": (await client.call_tool("test_simple_text", {})).model_dump(by_alias=True, exclude_none=True, mode="json"),
            "read": (await client.read_resource("test://static-text")).model_dump(by_alias=True, exclude_none=True, mode="json"),
        }
        if job["mode"] == "legacy":
            request = types.SubscribeRequest(params=types.SubscribeRequestParams(uri="test://watched-resource"))
            out["subscribe"] = (await client.session.send_request(request, Raw)).model_dump()
        return out


print(json.dumps(asyncio.run(main(json.load(sys.stdin)))))
