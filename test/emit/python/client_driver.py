"""The generated Python client (``mcp_codegen.client``) against a real server (client.test.ts).

stdin: ``{"http": URL}`` or ``{"stdio": [command, *args], "env": {...}}``, with ``"versions": [...]`` (what the
client offers) and ``"steps": [...]``, each one of
``{"call": tool, "arguments": {...}, "progress": bool, "timeout": seconds}``, ``{"request": method, "params": {...}}``,
``{"pages": method}``, ``{"notify": method}``.
stdout: ``{"negotiated": {...}, "outcomes": [...], "handled": [[method, key], ...], "problems": [...]}``: each
outcome ``{"result": ...}`` (with ``"progress"`` when asked) or ``{"error": {"type", "kind" | "code", "message"}}``.

The client's handlers answer the server: sampling with the text "Paris", elicitation by accepting with a value
of each requested property's type (strings "Ada", booleans true, numbers 7), roots with one root.
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

from mcp_codegen.client import Client, ClientError, ClientTransport
from mcp_codegen.client_http import HttpClientTransport
from mcp_codegen.client_stdio import StdioClientTransport
from mcp_codegen.dispatcher import JsonRpcError

handled: list[list[str]] = []
problems: list[str] = []


def _dump(value: Any) -> Any:
    dump = getattr(value, "model_dump", None)
    return dump(by_alias=True, exclude_none=True, mode="json") if callable(dump) else value


def sampling(params: Any, context: Any) -> dict[str, Any]:
    handled.append(["sampling/createMessage", str(getattr(context, "request_id", ""))])
    return {"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "stub-model", "stopReason": "endTurn"}


def elicitation(params: Any, context: Any) -> dict[str, Any]:
    handled.append(["elicitation/create", str(getattr(context, "request_id", ""))])
    schema = _dump(params).get("requestedSchema", {})
    content: dict[str, Any] = {}
    for key, prop in schema.get("properties", {}).items():
        kind = prop.get("type")
        content[key] = True if kind == "boolean" else 7 if kind in ("number", "integer") else "Ada" if kind == "string" else None
        if kind == "string" and prop.get("format") == "email":
            content[key] = "ada@example.com"
        if kind == "string" and isinstance(prop.get("enum"), list) and prop["enum"]:
            content[key] = prop["enum"][0]
        if content[key] is None:
            del content[key]
    return {"action": "accept", "content": content}


def roots(params: Any, context: Any) -> dict[str, Any]:
    handled.append(["roots/list", str(getattr(context, "request_id", ""))])
    return {"roots": [{"uri": "file:///work", "name": "work"}]}


def error_of(error: BaseException) -> dict[str, Any]:
    if isinstance(error, ClientError):
        return {"type": "ClientError", "kind": error.kind, "pointers": error.pointers, "message": str(error)}
    if isinstance(error, JsonRpcError):
        return {"type": "JsonRpcError", "code": error.code, "message": error.message}
    return {"type": type(error).__name__, "message": str(error)}


async def main(job: dict[str, Any]) -> dict[str, Any]:
    client = Client(
        {"name": "mcp-codegen-python-client-test", "version": "1.0.0"},
        versions=job["versions"],
        capabilities={"sampling": {}, "elicitation": {"form": {}}, "roots": {"listChanged": True}},
        handlers={"sampling/createMessage": sampling, "elicitation/create": elicitation, "roots/list": roots},
        on_error=lambda error: problems.append(str(error)),
    )
    transport: ClientTransport
    if "http" in job:
        transport = HttpClientTransport(job["http"])
    else:
        command = job["stdio"]
        transport = StdioClientTransport(command[0], command[1:], env=job.get("env"), stderr="ignore")
    negotiated = await client.connect(transport)
    out: dict[str, Any] = {
        "negotiated": {
            "protocolVersion": negotiated.protocol_version,
            "era": negotiated.era,
            "serverInfo": negotiated.server_info,
            "fellBack": negotiated.fell_back is not None,
        },
        "outcomes": [],
    }
    for step in job["steps"]:
        progress: list[dict[str, Any]] = []
        try:
            if "call" in step:
                params = {"name": step["call"], "arguments": step.get("arguments", {})}
                timeout = step.get("timeout", "default")
                result: Any = await client.request("tools/call", params, timeout=timeout, on_progress=progress.append if step.get("progress") else None)
            elif "request" in step:
                result = await client.request(step["request"], step.get("params"))
            elif "pages" in step:
                result = [page async for page in client.pages(step["pages"])]
            else:
                await client.notify(step["notify"], step.get("params"))
                result = None
            outcome: dict[str, Any] = {"result": result}
            if step.get("progress"):
                outcome["progress"] = progress
        except Exception as error:  # noqa: BLE001 - reported to the test
            outcome = {"error": error_of(error)}
        out["outcomes"].append(outcome)
    await client.close()
    out["handled"] = handled
    out["problems"] = problems
    return out


print(json.dumps(asyncio.run(main(json.load(sys.stdin)))))
