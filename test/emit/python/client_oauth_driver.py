"""The generated Python client with OAuth (``client_oauth.OAuth``, the client-credentials grant) against a protected
server (client-oauth.test.ts). stdin: ``{"url", "versions", "clientId", "clientSecret"}``; stdout: what it saw."""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

from mcp_codegen.client import Client
from mcp_codegen.client_http import HttpClientTransport, HttpStatusError
from mcp_codegen.client_oauth import OAuth


async def main(job: dict[str, Any]) -> dict[str, Any]:
    auth = OAuth(redirect_uri="http://localhost/callback", client_id=job["clientId"], client_secret=job["clientSecret"], grant="client_credentials")
    transport = HttpClientTransport(job["url"], auth=auth)
    client = Client({"name": "oauth-test", "version": "1.0.0"}, versions=job["versions"])
    try:
        negotiated = await client.connect(transport)
        listed = await client.request("tools/list")
        called = await client.request("tools/call", {"name": "whoami", "arguments": {}})
        await client.close()
        return {"protocolVersion": negotiated.protocol_version, "tools": [t["name"] for t in listed["tools"]], "text": called["content"][0]["text"]}
    except HttpStatusError as error:
        return {"status": error.status, "challenge": error.www_authenticate}


print(json.dumps(asyncio.run(main(json.load(sys.stdin)))))
